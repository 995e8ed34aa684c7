"""Stand-in for i29-pair's Berger tables (drop at merge): the circle method."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Entrant, Pairing


def rounds_of(players: int, *, double: bool) -> int:
    """How many rounds a round robin of ``players`` has."""
    single = players - 1 if players % 2 == 0 else players
    return single * (2 if double else 1)


def pair_round_robin(entrants: Sequence[Entrant], round_no: int, *, double: bool) -> list[Pairing]:
    """Round ``round_no`` of the round robin of ``entrants`` (by their numbers)."""
    ids: list[int | None] = [e.id for e in sorted(entrants, key=lambda e: e.number)]
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    single = n - 1
    swapped = double and round_no > single
    r = (round_no - 1) % single
    circle = [ids[0], *ids[1:][r:], *ids[1:][:r]]
    pairings = []
    board = 0
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if (i == 0 and r % 2) or swapped:
            a, b = b, a
        if a is None or b is None:
            continue
        board += 1
        pairings.append(Pairing(round_no, board, a, b))
    sitting = [
        x for pair in zip(circle, reversed(circle), strict=True) for x in pair if None in pair
    ]
    for player in sitting:
        if player is not None:
            pairings.append(Pairing(round_no, board + 1, player, None))
            break
    return pairings
