"""Perft: count the leaf nodes of the legal-move tree, the standard check of a move generator.

Moves are counted by landing path (see :mod:`rules.move`).  The walk uses the generator's raw
interface (bitboards and move tuples, no objects per node) and counts the last ply in bulk: for
each position one ply above the leaves, the steps of every child are counted with a few shifts and
only children that have a capture are searched.
"""

from __future__ import annotations

from .movegen import MoveGenerator, generator
from .position import Position
from .variants import Color


def perft(pos: Position, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies from ``pos`` (games that end earlier
    contribute nothing past their end)."""
    if depth <= 0:
        return 1
    gen = generator(pos.variant)
    if pos.variant.king_move_limit:
        return _perft_positions(gen, pos, depth)
    if pos.turn is Color.WHITE:
        own_men, own_kings, opp_men, opp_kings, side = (
            pos.white_men, pos.white_kings, pos.black_men, pos.black_kings, 0
        )  # fmt: skip
    else:
        own_men, own_kings, opp_men, opp_kings, side = (
            pos.black_men, pos.black_kings, pos.white_men, pos.white_kings, 1
        )  # fmt: skip
    return _perft(gen, own_men, own_kings, opp_men, opp_kings, side, depth)


def _perft(
    gen: MoveGenerator, men: int, kings: int, omen: int, okings: int, side: int, depth: int
) -> int:
    if depth == 1:
        return gen.count_raw(men, kings, omen, okings, side)
    count = gen.count_raw
    other = 1 - side
    total = 0
    for fb, tb, cm, crowns in gen.moves_raw(men, kings, omen, okings, side):
        if men & fb:
            if crowns:
                cmen, ckings = men ^ fb, kings | tb
            else:
                cmen, ckings = men ^ fb | tb, kings
        else:
            cmen, ckings = men, kings ^ fb | tb
        if depth == 2:
            # The children's moves are counted straight from their bitboards.
            total += count(omen & ~cm, okings & ~cm, cmen, ckings, other)
        else:
            total += _perft(gen, omen & ~cm, okings & ~cm, cmen, ckings, other, depth - 1)
    return total


def _perft_positions(gen: MoveGenerator, pos: Position, depth: int) -> int:
    """Perft through :class:`Position` objects, which carry the kings' runs (frisian's limit on
    a king's moves in a row decides moves the raw bitboards cannot see)."""
    if depth == 1:
        return gen.count(pos)
    return sum(_perft_positions(gen, pos.play(m), depth - 1) for m in gen.legal_moves(pos))


def divide(pos: Position, depth: int) -> dict[str, int]:
    """Perft per first move (PDN text -> count), for hunting down a wrong count."""
    return {str(m): perft(pos.play(m), depth - 1) for m in pos.legal_moves()}
