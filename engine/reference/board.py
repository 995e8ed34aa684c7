"""The reference search's own view of a position: six ints and the kings' runs, seen from the side
to move.

``(own men, own kings, their men, their kings, side, key, runs)`` with ``side`` 0 for White and 1
for Black, ``key`` the same Zobrist hash as :attr:`rules.Position.key` and ``runs`` the
position's :attr:`~rules.position.Position.king_runs` where the variant limits a king's moves in a
row (frisian; they decide which king may step, so they are part of the key), else None.  Seeing
every position from the mover's side makes negamax symmetric (a move swaps the two halves), and
plain tuples of ints are the cheapest thing Python can copy, hash and compare: the search makes
hundreds of thousands of them.  Moves are the rules' raw moves ``(from bit, to bit, captured,
crowns)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.movegen import MoveGenerator, RawMove, generator
from rules.position import (
    ZOBRIST,
    ZOBRIST_BLACK_TO_MOVE,
    KingRuns,
    Position,
    run_key,
    runs_after,
    zobrist_of,
)
from rules.variants import Color, Goal, Variant

State = tuple[int, int, int, int, int, int, KingRuns | None]
"""(own men, own kings, their men, their kings, side to move, Zobrist key, kings' runs or None)."""

# Zobrist tables per side to move: (own man, own king, their man, their king).
_SIDE_TABLES = (
    (ZOBRIST[0], ZOBRIST[1], ZOBRIST[2], ZOBRIST[3]),
    (ZOBRIST[2], ZOBRIST[3], ZOBRIST[0], ZOBRIST[1]),
)


def state_of(pos: Position) -> State:
    runs = pos.king_runs if pos.variant.king_move_limit else None
    if pos.turn is Color.WHITE:
        return (pos.white_men, pos.white_kings, pos.black_men, pos.black_kings, 0, pos.key, runs)
    return (pos.black_men, pos.black_kings, pos.white_men, pos.white_kings, 1, pos.key, runs)


def make(state: State, move: RawMove) -> State:
    """The state after ``move`` (legal in ``state``), seen from the new side to move."""
    om, ok, tm, tk, side, key, runs = state
    was_king = bool(ok & move[0])
    fb, tb, dead, crowns = move
    z_om, z_ok, z_tm, z_tk = _SIDE_TABLES[side]
    fi = fb.bit_length() - 1
    ti = tb.bit_length() - 1
    key ^= ZOBRIST_BLACK_TO_MOVE
    if om & fb:
        om ^= fb
        if crowns:
            ok |= tb
            key ^= z_om[fi] ^ z_ok[ti]
        else:
            om |= tb
            key ^= z_om[fi] ^ z_om[ti]
    else:
        ok = (ok ^ fb) | tb
        key ^= z_ok[fi] ^ z_ok[ti]
    if dead:
        key ^= zobrist_of(tm & dead, z_tm) ^ zobrist_of(tk & dead, z_tk)
        tm &= ~dead
        tk &= ~dead
    if runs is not None:
        white_men, black_men = (om, tm) if side == 0 else (tm, om)
        after = runs_after(runs, side, fb, tb, dead, was_king, white_men, black_men)
        key ^= run_key(runs) ^ run_key(after)
        runs = after
    return (tm, tk, om, ok, side ^ 1, key, runs)


@dataclass(frozen=True)
class Board:
    """Per-variant helpers the search needs: move generation and the no-progress rule."""

    variant: Variant
    gen: MoveGenerator
    quiet_limit: int
    """Plies without progress after which the game is drawn (both players' moves); 0 where the
    variant has no such draw."""
    man_moves_progress: bool
    crownings_progress: bool
    give_away: bool = False
    """No piece or no move wins for the side to move (antidraughts)."""
    first_king: bool = False
    """The first crowning wins (breakthrough)."""
    lone_pieces_draw: bool = False
    """One piece against one is drawn at once (turkish)."""
    king_move_limit: int = 0
    """A king's non-capturing moves in a row while its side has men (frisian); 0: no limit."""

    def moves(self, state: State) -> list[RawMove]:
        """Legal moves, without the duplicates that differ only in the path (same result); the
        king that has made the limit of moves in a row makes no step (its captures stand)."""
        om, ok, tm, tk, side, _, runs = state
        raw = self.gen.moves_raw(om, ok, tm, tk, side)
        if len(raw) > 1 and raw[0][2]:
            return list(dict.fromkeys(raw))
        if runs is not None and raw and not raw[0][2]:
            frozen = runs[2 * side] if runs[2 * side + 1] >= self.king_move_limit else 0
            if frozen:
                return [m for m in raw if m[0] != frozen]
        return raw

    def is_progress(self, state: State, move: RawMove) -> bool:
        """Whether ``move`` resets the no-progress count (as :class:`rules.Game` counts it)."""
        if move[2]:
            return True
        if self.man_moves_progress and state[0] & move[0]:
            return True
        return self.crownings_progress and move[3]


@cache
def board_for(variant: Variant) -> Board:
    rule = variant.progress
    return Board(
        variant,
        generator(variant),
        rule.plies,
        rule.man_moves,
        rule.crownings,
        give_away=variant.goal is Goal.GIVE_AWAY,
        first_king=variant.goal is Goal.FIRST_KING,
        lone_pieces_draw=variant.lone_pieces_draw,
        king_move_limit=variant.king_move_limit,
    )
