"""How a game ended, as data: a :class:`Termination` and an :class:`Outcome`.

The position decides "no pieces", "no moves" (lost, or won where the goal is reversed) and
"crowned first" (breakthrough); the game record decides repetition, the counts,
agreement and the 40-move adjudication; the service decides resignation, timeout and abort.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .variants import Color, Variant


class Termination(Enum):
    """Why a game ended.  Values are stable identifiers (stored in databases)."""

    NO_PIECES = "no_pieces"
    NO_MOVES = "no_moves"
    CROWNED_FIRST = "crowned_first"
    """Breakthrough: the first crowning wins."""
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    THREEFOLD_REPETITION = "threefold_repetition"
    NO_PROGRESS = "no_progress"
    ENDGAME_COUNT = "endgame_count"
    NO_DECISIVE_ADVANTAGE = "no_decisive_advantage"
    TIMEOUT = "timeout"
    ABORTED = "aborted"


_WORDS = {
    Termination.NO_PIECES: "no pieces left",
    Termination.NO_MOVES: "no legal moves",
    Termination.CROWNED_FIRST: "crowned first",
    Termination.RESIGNATION: "resignation",
    Termination.AGREEMENT: "draw by agreement",
    Termination.THREEFOLD_REPETITION: "threefold repetition",
    Termination.NO_PROGRESS: "no progress",
    Termination.ENDGAME_COUNT: "endgame count",
    Termination.NO_DECISIVE_ADVANTAGE: "40-move rule: no decisive advantage shown",
    Termination.TIMEOUT: "timeout",
    Termination.ABORTED: "aborted",
}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, who won (None for a draw or an abort) and, for rules with several
    forms (the variant's no-progress and endgame counts), the rule's own words."""

    termination: Termination
    winner: Color | None
    detail: str = ""

    @property
    def words(self) -> str:
        """The termination in words, e.g. ``threefold repetition`` or ``no legal moves``."""
        return self.detail or _WORDS[self.termination]

    def result(self, variant: Variant) -> str:
        """The PDN result (White first): ``1-0``, ``0-1``, ``1/2-1/2``, international ``2-0``...;
        ``*`` for an aborted game."""
        if self.termination is Termination.ABORTED:
            return "*"
        return variant.result(self.winner)

    def summary(self, variant: Variant) -> str:
        """``1/2-1/2 threefold repetition``: the status line of a finished game."""
        return f"{self.result(variant)} {self.words}"
