"""A model of a beginner: the yardstick for level 1.

Issue 17 asks that level 1 still lose to "a beginner who sees one-move captures".  This is that
player, written down so it can be played against: it sees the captures it has now and the ones
its move would hand the opponent at once, and nothing further.  So it takes the biggest capture
on offer, and otherwise moves at random among the moves that leave nothing to take (any move, if
every move leaves something).  It has no plan, no evaluation and no look-ahead beyond that one
reply.  ``tests/engine/test_levels.py`` plays it against level 1, and ``bench/ladder.py`` anchors
the levels' ratings on it.

It knows its variant's goal as a beginner of that game would, with the same one-move view:
giving away (antidraughts) it plays the moves that hand the opponent the most at once instead of
avoiding them, and in breakthrough it crowns when a move crowns, avoids the moves that let the
opponent crown at once, and otherwise runs with its most advanced man.
"""

from __future__ import annotations

import random

from rules.game import Game
from rules.move import Move
from rules.position import Position
from rules.variants import Color, Goal


def beginner_move(game: Game, rng: random.Random) -> Move:
    """The beginner's move in ``game`` (which must be running)."""
    moves = game.legal_moves()
    if not moves:
        raise ValueError("the game is over")
    goal = game.variant.goal
    if goal is Goal.FIRST_KING:
        crowning = [m for m in moves if m.crowns]
        if crowning:
            return rng.choice(crowning)
    if moves[0].is_capture:  # captures are compulsory: then every move is one
        most = max(len(m.captured) for m in moves)
        return rng.choice([m for m in moves if len(m.captured) == most])
    position = game.position
    if goal is Goal.GIVE_AWAY:
        # The most it can hand over at once (captures take the most pieces there).
        handed = [_handed(position.play(m).legal_moves()) for m in moves]
        most = max(handed)
        return rng.choice([m for m, n in zip(moves, handed, strict=True) if n == most])
    safe = [m for m in moves if not _gives_a_capture(position.play(m).legal_moves())]
    if goal is Goal.FIRST_KING:  # nor a crowning, and it runs with its most advanced man
        safe = [m for m in safe if not any(r.crowns for r in position.play(m).legal_moves())]
        if safe:
            ahead = [_rows_to_go(position, m) for m in safe]
            return rng.choice([m for m, n in zip(safe, ahead, strict=True) if n == min(ahead)])
    return rng.choice(safe or moves)


def _gives_a_capture(replies: list[Move]) -> bool:
    return bool(replies) and replies[0].is_capture


def _handed(replies: list[Move]) -> int:
    """How many pieces the opponent's reply takes at most (0: none)."""
    return max((len(r.captured) for r in replies), default=0)


def _rows_to_go(position: Position, move: Move) -> int:
    """Rows the moving piece still has to go to its far row after ``move`` (White's is row 0)."""
    row = position.variant.geometry.row_of[move.to_bit.bit_length() - 1]
    return row if position.turn is Color.WHITE else position.variant.size - 1 - row
