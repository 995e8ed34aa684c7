"""A model of a beginner: the yardstick for level 1.

Issue 17 asks that level 1 still lose to "a beginner who sees one-move captures".  This is that
player, written down so it can be played against: it sees the captures it has now and the ones
its move would hand the opponent at once, and nothing further.  So it takes the biggest capture
on offer, and otherwise moves at random among the moves that leave nothing to take (any move, if
every move leaves something).  It has no plan, no evaluation and no look-ahead beyond that one
reply.  ``tests/engine/test_levels.py`` plays it against level 1, and ``bench/ladder.py`` anchors
the levels' ratings on it.
"""

from __future__ import annotations

import random

from rules.game import Game
from rules.move import Move


def beginner_move(game: Game, rng: random.Random) -> Move:
    """The beginner's move in ``game`` (which must be running)."""
    moves = game.legal_moves()
    if not moves:
        raise ValueError("the game is over")
    if moves[0].is_capture:  # captures are compulsory: then every move is one
        most = max(len(m.captured) for m in moves)
        return rng.choice([m for m in moves if len(m.captured) == most])
    position = game.position
    safe = [m for m in moves if not _gives_a_capture(position.play(m).legal_moves())]
    return rng.choice(safe or moves)


def _gives_a_capture(replies: list[Move]) -> bool:
    return bool(replies) and replies[0].is_capture
