"""Breakthrough draughts (docs/rules/breakthrough.md): international draughts until the first
crowning, which wins at once.  Squares are PDN numbers (10x10: 1 = b10, 46 = a1)."""

from __future__ import annotations

import pytest
from support.rules_support import find, game, pos

from rules.fen import parse_fen
from rules.game import Game
from rules.outcome import Termination
from rules.position import WHITE_MAN
from rules.variants import BREAKTHROUGH, Color

V = BREAKTHROUGH


@pytest.mark.parametrize(
    ("fen", "text", "winner"),
    [("W:W7:B40", "7-1", Color.WHITE), ("B:W7:B44", "44-49", Color.BLACK)],
)
def test_the_first_crowning_wins_at_once(fen, text, winner):
    g = game(fen, V)
    g.play(find(g.position, text))
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.CROWNED_FIRST, winner)
    assert g.outcome.words == "crowned first"


def test_passing_through_the_far_row_mid_capture_is_not_a_crowning():
    # d8 (12) x e9 -> f10 (3), then backward x g9 -> h8 (14): the man ends off the far row.
    p = pos("W:W12:B8,9,45", V)
    move = find(p, "12x3x14")
    assert not move.crowns
    g = Game(V, p)
    g.play(move)
    assert g.outcome is None
    assert g.position.piece_at(14) == WHITE_MAN


def test_a_capture_ending_on_the_far_row_wins():
    g = game("W:W12:B8,45", V)
    g.play(find(g.position, "12x3"))
    assert g.outcome is not None and g.outcome.winner is Color.WHITE


def test_a_set_up_position_with_a_king_is_over():
    g = Game(V, parse_fen("B:WK1,30:B20", V))
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.CROWNED_FIRST, Color.WHITE)


def test_having_no_move_still_loses():
    g = game("W:W46:B41,37", V)
    assert g.outcome is not None and g.outcome.winner is Color.BLACK
