"""Elo from a match's results, with a 95% interval: the arithmetic the match benches share.

Why a module of its own: ``bench/arena.py`` (self-play, dame-rs) and ``bench/sparring.py`` (Scan
and GuiNN) report Elo the same way, so the formulas live once, here.

Two intervals, for two kinds of match:

* :func:`elo_interval`, the normal ("trinomial") interval from the games' own spread of wins,
  draws and losses: ``p ± 1.96 sd/sqrt(n)``.  Draws narrow it, which is right for close
  matches; near a score of 0% or 100% it collapses (0-1-33 has almost no spread) and claims a
  certainty the games do not give.
* :func:`wilson_interval`, the Wilson score interval on the score fraction ``p`` over ``n``
  games.  It stays honest near 0% and 100% (its ends never reach 0 or 1 from a finite match),
  so it is the one for matches against much stronger engines, where the score is a few percent.
  It counts a draw as half a win and does not use the draws' smaller spread, so for close
  matches it is a little wider than the trinomial one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


def elo(p: float) -> float:
    """The Elo difference that scores ``p`` (inf at 1, -inf at 0).

    >>> round(elo(0.75))
    191
    """
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def elo_interval(results: Sequence[float]) -> tuple[float, float, float]:
    """(Elo, low, high) at 95% from the games' results (1, 0.5, 0): the trinomial interval."""
    n = len(results)
    p = sum(results) / n
    sd = math.sqrt(sum((r - p) ** 2 for r in results) / n)
    half = Z95 * sd / math.sqrt(n)
    return elo(p), elo(max(0.0, p - half)), elo(min(1.0, p + half))


def wilson(p: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a fraction ``p`` observed over ``n`` trials.

    >>> low, high = wilson(1.5 / 34, 34)
    >>> round(low, 4), round(high, 4)
    (0.0102, 0.1706)
    """
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_interval(results: Sequence[float]) -> tuple[float, float, float]:
    """(Elo, low, high) at 95% from the games' results (1, 0.5, 0): the Wilson interval on the
    score fraction (the figures of issue 31's table: 0-3-31 is -534, -794 to -275)."""
    n = len(results)
    p = sum(results) / n
    low, high = wilson(p, n)
    return elo(p), elo(low), elo(high)


def shown(value: float) -> str:
    """An Elo figure as the reports print it: signed, whole, or ``±inf``."""
    return "-inf" if value == -math.inf else "+inf" if value == math.inf else f"{value + 0.0:+.0f}"
