"""What the service says about puzzles (the Discord layer's side of them), beside
:mod:`bot.results`, which re-exports every name here: one attempt as it stands
(:class:`PuzzleView`) and what a step of it did (:class:`PuzzleTurn`), a solver's puzzle
ratings and streaks (:class:`PuzzleStanding`), a server's puzzle leaderboard
(:class:`PuzzleBoard`), and the daily puzzle as posted (:class:`DailyPuzzle`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.variants import Notation

from .enums import Side
from .i18n import Text


@dataclass(frozen=True)
class PuzzleView:
    """One user's attempt at one puzzle, as its board shows it."""

    attempt_id: int
    puzzle_id: int
    variant: str
    variant_title: Text
    fen: str
    """The position now (the solver to move while the attempt is open)."""
    start_fen: str
    ply: int
    """Solution moves played so far: the guard a tapped move carries."""
    solver: Side
    """The solver's colour (the board is drawn from this side)."""
    move_number: int
    previous_fen: str | None
    """The position before :attr:`last_move` (to draw it), None before the first move."""
    last_move: str | None
    """The last move played on the board (the forced reply, or the solver's last), PDN."""
    status: str
    """``open``, ``solved`` or ``failed``."""
    hinted: bool
    hint_square: int | None
    """While open and hinted: the square of the piece to move."""
    solution: tuple[str, ...]
    """The whole line (PDN), once the attempt is over; empty while it is open."""
    rating: str
    """The puzzle's rating as shown (``1620``)."""
    gain: str
    """``win`` or ``material``: what the line achieves."""
    source: str
    """Where the puzzle came from (a game of the server, or the starter set)."""
    game_id: int | None
    notation: Notation = Notation.NUMERIC

    @property
    def open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True)
class RatingChange:
    """A solver's puzzle rating around one attempt's end."""

    before: str
    after: str
    delta: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class PuzzleTurn:
    """What one step of an attempt did (its start, a move, a hint), in words and as it stands
    after it."""

    view: PuzzleView
    text: Text
    change: RatingChange | None = None
    """Once the attempt ended: the rating change."""


@dataclass(frozen=True)
class PuzzleStanding:
    """A solver's puzzle rating in one variant family of a server."""

    user_id: int
    name: str
    family: str
    family_title: Text
    rating: str
    """``1523`` or ``1500?`` while provisional."""
    attempts: int
    solved: int
    streak: int
    best_streak: int


@dataclass(frozen=True)
class PuzzleBoard:
    """A server's puzzle leaderboard in one family, and where the asking user stands."""

    family: str
    family_title: Text
    top: tuple[PuzzleStanding, ...]
    mine: PuzzleStanding | None


@dataclass(frozen=True)
class DailyPuzzle:
    """The daily puzzle of a server, as its post shows it (kept in the outbox entry)."""

    guild_id: int
    channel_id: int
    day: str
    """The UTC day, ``2026-11-28``."""
    puzzle_id: int
    variant: str
    variant_title: Text
    fen: str
    solver: Side
    rating: str
    notation: Notation = Notation.NUMERIC
