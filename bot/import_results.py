"""What the service says of imported games (``service.imports``), shared with the Discord layer
and re-exported by :mod:`bot.results`, as the tournaments' types are."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ColorChoice
from .i18n import Text

LISTED = 25
"""Games of a file listed for the player to pick (a Discord select's most options)."""


@dataclass(frozen=True)
class ImportView:
    """An imported game as its message shows it and its buttons use it."""

    id: int
    user_id: int
    """Who imported it."""
    number: int
    """Its place in the file, from 1."""
    variant: str
    white: str
    black: str
    event: str
    """The Event tag ("" when the file had none or ``?``)."""
    date: str
    result: str
    """``1-0``, ``0-1``, a draw or ``*`` (in the variant's scale: ``2-0``...)."""
    plies: int
    moves: tuple[str, ...]
    """Each ply's move with its number, as the variant writes moves (``12... 19x28``)."""
    record: str
    """The game as PDN (the file's tags; result, variant and start from the game)."""
    notes: tuple[Text, ...] = ()
    """What the reader recovered (a padded move, a skipped remark...), each naming where."""


@dataclass(frozen=True)
class ImportListing:
    """A file's games as read: those kept (importable, at most :data:`LISTED`), why the others
    listed with them could not be, and how many the file holds."""

    games: tuple[ImportView, ...]
    refused: tuple[Text, ...]
    total: int
    first: int
    """The number of the first game looked at (1 unless one game was asked for)."""


@dataclass(frozen=True)
class ImportStart:
    """What a game from a position of an imported game starts with: the variant, the position
    (a challenge's ``start_fen``: such games are unrated) and the colour of the side to move
    there (the player's, who chose to play on from it)."""

    variant: str
    fen: str
    color: ColorChoice
