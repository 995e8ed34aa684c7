"""The rows of puzzles (schema v14) as they cross the storage boundary.

A puzzle is rated like a player (Glicko-2), so it carries a rating; an attempt is one user's
try at one puzzle (never a second one: the store's unique index), guarded by ``ply``, the
number of solution moves played so far; a solver's puzzle rating is kept per server and
variant family with the streaks.  An attempt's end rates both sides in one transaction: the
store hands the rows it locked to a function of the service (:data:`PuzzleRating`), as a rated
game's end does with the ladder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to store: the starter set's (``guild_id`` None) or a server's own, mined from
    its game ``game_id``."""

    guild_id: int | None
    variant: str
    family: str
    """The variant family ratings are kept per (:func:`bot.service.puzzle_terms.family`)."""
    fen: str
    """The solver to move."""
    solution: str
    """The PDN moves from ``fen``, space-separated: solver, reply, ..., the solver's last."""
    gain: str
    """``win`` or ``material``."""
    rating: float
    deviation: float
    volatility: float
    source: str
    game_id: int | None
    created_at: float


@dataclass(frozen=True)
class PuzzleRow(NewPuzzle):
    id: int = 0
    plays: int = 0


@dataclass(frozen=True)
class AttemptRow:
    id: int
    puzzle_id: int
    guild_id: int
    """0 in direct messages."""
    user_id: int
    ply: int
    """Solution moves played so far (even while the attempt is open: the solver's turn)."""
    hinted: bool
    status: str
    """``open``, ``solved`` or ``failed``."""
    wrong_move: str | None
    rating_before: float | None
    rating_after: float | None
    started_at: float
    ended_at: float | None


@dataclass(frozen=True)
class PuzzleRatingRow:
    """A solver's puzzle rating in one server and variant family, with the streaks."""

    guild_id: int
    user_id: int
    family: str
    name: str
    rating: float
    deviation: float
    volatility: float
    attempts: int
    solved: int
    streak: int
    """Puzzles solved in a row without a hint (a failure ends it)."""
    best_streak: int
    updated_at: float


@dataclass(frozen=True)
class DailyRow:
    """Where a server's daily puzzle is posted."""

    guild_id: int
    channel_id: int
    variant: str
    set_by: int
    updated_at: float


@dataclass(frozen=True)
class RatedAttempt:
    """What an attempt's end wrote: the solver's rating row after it (and before: None for a
    first attempt) and the puzzle's new rating."""

    before: PuzzleRatingRow | None
    after: PuzzleRatingRow
    puzzle_rating: float


PuzzleRating = Callable[[PuzzleRatingRow | None, PuzzleRow], tuple[PuzzleRatingRow, PuzzleRow]]
"""The service's rating of an attempt's end: from the solver's row (None before their first
attempt in the family) and the puzzle as locked in the transaction, both rows after it."""
