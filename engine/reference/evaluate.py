"""Static evaluation, in hundredths of a man, from the side to move's point of view.

The terms, per variant family (short kings on 8x8, flying kings on 8x8 and on 10x10):

- material: a man is 100; a king 150 where kings step (English, Dame), 250 where they fly on 8x8
  (pool, Russian, Brazilian) and 300 on 10x10, where the long diagonals make them stronger;
- advancement (tempo): men gain with every row they advance, more steeply near the crowning row
  (a man two rows from crowning is half a king) and more in the endgame, when running matters;
- back-rank guard: in the opening and middlegame, men still on the home row keep the opponent
  from crowning, and are worth a little more there;
- centre and edge: men and kings on central squares control more of the board; men on the side
  edges can be attacked from one side only but also do less;
- king mobility: squares a king can step to (diagonally, or along rows and columns on the
  orthogonal board);
- trading down: the side ahead in material gains a little for every piece off the board, so it
  simplifies towards a won ending instead of shuffling;
- drawn endings: kings only and level material, or (with flying kings) one lone king against at
  most three pieces, are scaled towards 0.

Where the goal is reversed (antidraughts: the side left without pieces or moves wins) the whole
score changes sign, so that material and mobility count against the side that has them.

Piece-square terms are summed a byte at a time through precomputed tables (one lookup per eight
squares instead of one per piece), which keeps evaluation cheap in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rules.variants import Goal, Variant

from .board import State

MAN = 100


def _king_value(variant: Variant) -> int:
    if not variant.flying_kings:
        return 150
    return 300 if variant.size >= 10 else 250


class _BitSum:
    """``sum(weights[i] for each set bit i)`` through byte tables."""

    __slots__ = ("chunks", "tables")

    def __init__(self, weights: Sequence[int]) -> None:
        self.chunks = (len(weights) + 7) // 8
        padded = list(weights) + [0] * (self.chunks * 8 - len(weights))
        self.tables = tuple(
            tuple(sum(padded[8 * c + j] for j in range(8) if b >> j & 1) for b in range(256))
            for c in range(self.chunks)
        )

    def __call__(self, board: int) -> int:
        total = 0
        for table in self.tables:
            total += table[board & 255]
            board >>= 8
        return total


@dataclass(frozen=True)
class _SideTables:
    men_middle: _BitSum
    men_end: _BitSum
    kings: _BitSum


class Evaluator:
    """The evaluation function of one variant (build with :func:`evaluator`)."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.variant = variant
        self.king = _king_value(variant)
        self.flying = variant.flying_kings
        self.start_pieces = 2 * variant.men_rows * g.half
        bits = len(g.square_of)
        size = g.size
        centre = (size - 1) / 2
        sides = []
        for side in (0, 1):
            men_middle = [0] * bits
            men_end = [0] * bits
            kings = [0] * bits
            for index, square in enumerate(g.square_of):
                if square == 0:
                    continue
                row = g.row_of[index]
                column, _ = g.coordinates(square)
                # Rows advanced from the side's own home row (White's home is the bottom row).
                advanced = (size - 1 - row) if side == 0 else row
                to_crown = size - 1 - advanced
                run = {1: 50, 2: 25, 3: 10}.get(to_crown, 0)
                central = 1.0 - (abs(column - centre) + abs(row - centre)) / (2 * centre)
                edge = column in (0, size - 1)
                home_guard = 12 if advanced == 0 else 0
                men_middle[index] = int(
                    MAN + 3 * advanced + run // 2 + home_guard + 10 * central - 4 * edge
                )
                men_end[index] = int(MAN + 6 * advanced + run + 4 * central - 2 * edge)
                kings[index] = int(self.king + 20 * central - (8 if edge else 0))
            sides.append(_SideTables(_BitSum(men_middle), _BitSum(men_end), _BitSum(kings)))
        self.sides = tuple(sides)
        self._valid = g.valid
        # One shift per direction a king moves in (the first four: rules.geometry's other lines
        # are for captures), each through the squares that have a neighbour that way (on the
        # orthogonal board a sideways shift would wrap to the next row; rules.geometry).
        self._shifts = tuple(zip(g.deltas[:4], g.shift_from[:4], strict=True))
        self._mobility = 2 if self.flying else 3
        self.give_away = variant.goal is Goal.GIVE_AWAY

    def _king_mobility(self, kings: int, empty: int) -> int:
        if not kings:
            return 0
        total = 0
        for delta, start in self._shifts:
            movers = kings & start
            moved = movers << delta if delta > 0 else movers >> -delta
            total += (moved & empty).bit_count()
        return total

    def __call__(self, state: State) -> int:
        om, ok, tm, tk, side = state[:5]
        mine = self.sides[side]
        theirs = self.sides[side ^ 1]
        own_pieces = (om | ok).bit_count()
        their_pieces = (tm | tk).bit_count()
        total = own_pieces + their_pieces
        # Phase: 1.0 at the start, 0.0 with no pieces left; blends middlegame and endgame men.
        phase = min(total, self.start_pieces)
        rest = self.start_pieces - phase
        men = (
            (mine.men_middle(om) - theirs.men_middle(tm)) * phase
            + (mine.men_end(om) - theirs.men_end(tm)) * rest
        ) // self.start_pieces
        score = men + mine.kings(ok) - theirs.kings(tk)
        empty = self._valid & ~(om | ok | tm | tk)
        score += self._mobility * (self._king_mobility(ok, empty) - self._king_mobility(tk, empty))
        material = MAN * (om.bit_count() - tm.bit_count()) + self.king * (
            ok.bit_count() - tk.bit_count()
        )
        if material:
            # Ahead: trade down.  Up to a third of a man with the board nearly empty.
            score += material * (self.start_pieces - total) // (3 * self.start_pieces)
        score = self._drawish(score, om, ok, tm, tk, own_pieces, their_pieces)
        # Giving away (antidraughts) the same terms count against the side that has them.
        return -score if self.give_away else score

    def _drawish(
        self, score: int, om: int, ok: int, tm: int, tk: int, own: int, theirs: int
    ) -> int:
        if om or tm:
            return score
        if own == theirs:
            return score // 4
        if self.flying and min(own, theirs) == 1 and max(own, theirs) <= 3:
            return score // 8
        return score


@cache
def evaluator(variant: Variant) -> Evaluator:
    return Evaluator(variant)
