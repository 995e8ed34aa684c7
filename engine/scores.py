"""The scale both searches score on, and what they report after each depth.

Scores are centimen (a man is 100) from the side to move's point of view; a won position scores
near :data:`MATE`.  The native search (``CORE_MATE`` and ``CORE_WIN_BOUND`` in
``engine/core/search.h``) and the reference search (:mod:`engine.reference.search`) use the same
numbers, so a score means the same whichever search found it; :class:`Iteration` is what
:func:`engine.best_move` hands its ``on_iteration`` callback from either.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.movegen import RawMove

MATE = 1_000_000
"""Score of a won position at the root; a win in n plies scores ``MATE - n``."""
WIN_BOUND = MATE - 10_000
"""Scores at or beyond this (either sign) are wins or losses in a known number of plies."""


@dataclass(frozen=True)
class Iteration:
    """What one completed iteration found (``--info`` prints these)."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[RawMove, ...]

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


def describe_score(score: int) -> str:
    """``+0.35`` in men, or ``win in 7`` / ``loss in 4`` (plies)."""
    if score >= WIN_BOUND:
        return f"win in {MATE - score}"
    if score <= -WIN_BOUND:
        return f"loss in {MATE + score}"
    return f"{score / 100:+.2f}"
