"""The standings sheet as the renderer takes it: every word already in the reader's language.

:mod:`render` knows no language and nothing of the bot, so a tournament's table comes in as plain
values whose words were chosen by the bot (``bot.ui.standings_sheet`` builds them from a
``bot.tournaments.model.Table`` and the catalogs): headings, ranks, names, points and tiebreaks as
the strings to draw, and one :class:`SheetCell` per round (or, in an arena, per game) that says
what happened, for :mod:`render.standings` to draw as a coloured chip.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Outcome(Enum):
    """What one round was for one player: the chip's colour and outline."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    PENDING = "pending"
    """Paired, the game still running: an outlined chip."""
    BYE = "bye"
    """No opponent: the bye's points."""
    FORFEIT_WIN = "forfeit_win"
    """The opponent did not show up: an outlined chip in the win's colour."""
    FORFEIT_LOSS = "forfeit_loss"
    """Did not show up: an outlined chip in the loss's colour."""
    ABSENT = "absent"
    """Not paired (joined later, withdrew): the round's place is left empty."""


@dataclass(frozen=True)
class SheetCell:
    """One round of a player's line (Swiss, round robin) or one game (arena)."""

    outcome: Outcome
    colour: str | None = None
    """``"white"`` or ``"black"``: drawn as a small draughtsman of that colour; None for none."""
    opponent: str = ""
    """The opponent's line number on the sheet (``"12"``), empty for none (a bye, an arena)."""
    mark: str = ""
    """What the round gave, after the opponent: ``1``, ``½``, ``0``, ``+``, ``−`` (crosstables'
    signs); in an arena, the game's arena points (``4``)."""
    doubled: bool = False
    """Arena: the game counted double (played on fire): an amber chip."""
    berserk: bool = False
    """Arena: the player berserked (half the clock for a point more): a lightning bolt."""


@dataclass(frozen=True)
class SheetRow:
    """One player's line."""

    rank: str
    name: str
    """User text, any Unicode: cleaned and cut to fit (:func:`render.gif.clean_name`)."""
    points: str
    tiebreaks: tuple[str, ...] = ()
    """In the order of :attr:`Sheet.tiebreak_headings`."""
    cells: tuple[SheetCell, ...] = ()
    podium: int | None = None
    """1 (the leaders: gold), 2 (silver) or 3 (bronze): a medal behind the rank."""
    on_fire: bool = False
    """Arena: two wins in a row, the next game counts double: a flame beside the points."""
    withdrawn: bool = False
    """Left or dropped: the line in muted ink."""
    you: bool = False
    """The reader's own line: outlined."""
    fallback: str = "?"
    """Shown instead of a name that has nothing the font can draw (a name all in Chinese or
    emoji): the player's number, as the bot words it."""


@dataclass(frozen=True)
class KeyItem:
    """One entry of the key under the table: a sample chip (or none) and what it means."""

    words: str
    sample: SheetCell | None = None


@dataclass(frozen=True)
class Sheet:
    """A tournament's standings, worded."""

    title: str
    """The tournament's name (user text, cut to fit)."""
    subtitle: str
    """Format, variant and round: ``Swiss · English draughts · round 5 of 7``."""
    rows: tuple[SheetRow, ...] = ()
    rank_heading: str = "#"
    name_heading: str = "Player"
    points_heading: str = "Pts"
    tiebreak_headings: tuple[str, ...] = ()
    """Short names of the tiebreaks (``BH``, ``SB``), explained in :attr:`key`."""
    rounds: int = 0
    """Round columns (Swiss, round robin): the rounds paired so far; unused in an arena."""
    arena: bool = False
    """Cells are games, as many as each player played, the most recent shown."""
    key: tuple[KeyItem, ...] = ()
    page: str = "{page}/{pages}"
    """The page number in the header, when the sheet takes more than one image."""
