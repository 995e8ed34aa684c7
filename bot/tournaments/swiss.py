"""Stand-in for i29-pair's Swiss pairing (drop at merge): score groups paired top-down, no
repeat pairings while avoidable, colours balanced, the bye to the lowest scorer without one."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Entrant, Pairing, Result


def _points(results: Sequence[Result]) -> dict[int, float]:
    points: dict[int, float] = {}
    for r in results:
        points[r.white] = points.get(r.white, 0.0) + r.white_points
        if r.black is not None:
            points[r.black] = points.get(r.black, 0.0) + r.black_points
    return points


def pair_swiss(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int, *, bye_points: float
) -> list[Pairing]:
    """The pairings of round ``round_no`` after ``results``."""
    del bye_points
    active = [e for e in entrants if not e.withdrawn and e.joined_round <= round_no]
    points = _points(results)
    met = {frozenset((r.white, r.black)) for r in results if r.black is not None and not r.forfeit}
    byes = {r.white for r in results if r.black is None}
    balance: dict[int, int] = {}
    for r in results:
        if r.black is not None and not r.forfeit:
            balance[r.white] = balance.get(r.white, 0) + 1
            balance[r.black] = balance.get(r.black, 0) - 1
    order = sorted(active, key=lambda e: (-points.get(e.id, 0.0), e.number))
    bye = None
    if len(order) % 2:
        bye = next((e for e in reversed(order) if e.id not in byes), order[-1])
        order.remove(bye)
    pairs: list[tuple[int, int]] = []
    left = [e.id for e in order]
    while left:
        a = left.pop(0)
        b = next((x for x in left if frozenset((a, x)) not in met), left[0])
        left.remove(b)
        white, black = (a, b) if balance.get(a, 0) <= balance.get(b, 0) else (b, a)
        pairs.append((white, black))
    pairings = [Pairing(round_no, n, w, b) for n, (w, b) in enumerate(pairs, 1)]
    if bye is not None:
        pairings.append(Pairing(round_no, len(pairings) + 1, bye.id, None))
    return pairings
