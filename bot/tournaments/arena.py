"""Stand-in for i29-pair's arena pairing (drop at merge): the waiting players by score, never
the same opponent twice in a row while avoidable."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Entrant, Pairing, Result


def pair_arena(
    waiting: Sequence[Entrant], results: Sequence[Result], round_no: int
) -> list[Pairing]:
    """Pairings among ``waiting`` (an even number is paired; one may wait)."""
    points: dict[int, float] = {}
    last: dict[int, int | None] = {}
    whites: dict[int, int] = {}
    for r in results:
        points[r.white] = points.get(r.white, 0.0) + r.white_points
        whites[r.white] = whites.get(r.white, 0) + 1
        if r.black is not None:
            points[r.black] = points.get(r.black, 0.0) + r.black_points
            whites[r.black] = whites.get(r.black, 0) - 1
            last[r.white], last[r.black] = r.black, r.white
    left = [e.id for e in sorted(waiting, key=lambda e: (-points.get(e.id, 0.0), e.number))]
    pairings: list[Pairing] = []
    while len(left) >= 2:
        a = left.pop(0)
        b = next((x for x in left if last.get(a) != x), left[0])
        left.remove(b)
        white, black = (a, b) if whites.get(a, 0) <= whites.get(b, 0) else (b, a)
        pairings.append(Pairing(round_no, len(pairings) + 1, white, black))
    return pairings
