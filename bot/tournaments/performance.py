"""The performance rating of a player's games in an event, as FIDE computes it.

FIDE Handbook B.02 (rating regulations), 1.48 and table 8.1.a: the performance ``Rp = Ra + dp``,
where ``Ra`` is the average rating of the opponents met over the board and ``dp`` the table's
rating difference for the score fraction ``p`` (points over games), ``p`` rounded to two
decimals.  The table ends at 100% with +800 and at 0% with -800, and those are what a perfect
or a pointless event gets here too (no "+400 rule" or other stand-in): a bounded, honest
figure.  Unplayed rounds (byes, forfeits, absences) are not games and count for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip
"""FIDE's ``dp`` for p = 0.50, 0.51, ... 1.00 (table 8.1.a); below 0.50 it is the negative
of the mirror value."""


def rating_difference(fraction: float) -> int:
    """FIDE's ``dp`` for a score fraction in [0, 1] (rounded to two decimals first)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"a score fraction is between 0 and 1, not {fraction}")
    hundredths = int(fraction * 100 + 0.5)
    if hundredths >= 50:
        return _DP_FROM_HALF[hundredths - 50]
    return -_DP_FROM_HALF[50 - hundredths]


def performance_rating(games: Sequence[tuple[float, float]]) -> int | None:
    """The performance over ``games``, each ``(opponent's rating, points scored)`` with points
    1, 0.5 or 0; None without games.  Rounded to the nearest whole point."""
    if not games:
        return None
    average = sum(rating for rating, _ in games) / len(games)
    fraction = sum(points for _, points in games) / len(games)
    return int(average + rating_difference(fraction) + 0.5)
