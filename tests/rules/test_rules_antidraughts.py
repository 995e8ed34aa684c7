"""Antidraughts (docs/rules/antidraughts.md): international draughts' board, men, kings and
majority rule, with the goal reversed: the player to move with no piece or no legal move wins.
Squares are PDN numbers (10x10: 1 = b10, 46 = a1)."""

from __future__ import annotations

from support.rules_support import game, pdns, pos

from rules.outcome import Termination
from rules.variants import ANTIDRAUGHTS, INTERNATIONAL, Color

V = ANTIDRAUGHTS


def test_the_moves_are_internationals():
    fen = "W:W28,33,K46:B22,23,K19,13"
    assert pdns(pos(fen, V)) == pdns(pos(fen, INTERNATIONAL))


def test_losing_the_last_piece_wins():
    # Black must take White's last man: then White, to move with no piece, has won.
    g = game("B:W28:B23", V)
    g.play(g.legal_moves()[0])
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_PIECES, Color.WHITE)
    assert g.outcome.result(V) == "2-0"


def test_being_blocked_wins():
    # a1 (46) is blocked by b2 (41) with c3 (37) behind it: White cannot move, and wins.
    g = game("W:W46:B41,37", V)
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.WHITE)
    # Under the standard goal the same position is lost.
    standard = game("W:W46:B41,37", INTERNATIONAL)
    assert standard.outcome is not None and standard.outcome.winner is Color.BLACK


def test_no_move_count_and_no_endgame_count():
    # Three kings against one: international counts 16 moves; antidraughts counts nothing.
    g = game("W:WK1,K2,K3:BK50", V)
    assert not g.no_progress_counting()
    assert g.status_parts() == [] or all("count" not in p for p in g.status_parts())
    assert V.endgames == () and V.no_progress is None
