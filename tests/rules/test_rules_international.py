"""International (Polish) draughts, FMJD rules: one named test per rule of shared/RULES.md.

10x10 PDN squares: row r (0 = top, Black's side) holds squares 5r+1..5r+5; 1 = b10, 5 = j10,
46 = a1, 50 = i1.  White starts on 31..50 and moves up.  The long diagonal a1-j10 is 46, 41, 37,
32, 28, 23, 19, 14, 10, 5.  Where a position is easier to read in coordinates it is written with
``sq("c1", ...)``.

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import (
    game,
    pdns,
    pos,
    walk_but_last,
)

from rules.game import Game
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import EMPTY
from rules.variants import INTERNATIONAL, Color, find_variant

V = INTERNATIONAL


def sq(*names: str) -> str:
    """PDN numbers of algebraic squares, comma-separated, for building 10x10 FENs."""
    return ",".join(str(V.geometry.square_by_name[n]) for n in names)


class TestInternationalBoardAndStart:
    def test_polish_is_an_alias(self):
        assert find_variant("polish") is V
        assert find_variant("Polish") is V


class TestInternationalMen:
    def test_men_capture_forward_and_may_capture_kings(self):
        assert pdns(pos("W:W28:B22", V)) == ["28x17"]
        assert pdns(pos("W:W28:BK22", V)) == ["28x17"]


class TestInternationalFlyingKings:
    def test_kings_step_any_distance(self):
        # King a1 (46) on the empty long diagonal: b2 .. j10, nine moves.
        assert pdns(pos("W:WK46:B1", V)) == [
            "46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41", "46-5"
        ]  # fmt: skip

    def test_kings_capture_at_a_distance_landing_on_any_free_square_beyond(self):
        p = pos("W:WK46:B23,6", V)
        assert pdns(p) == ["46x10", "46x14", "46x19", "46x5"]

    def test_king_changes_direction_and_lands_where_it_can_go_on(self):
        # King c1 x e3 must land on g5 (the only square from which f6 can be taken), then x f6
        # lands on e7, the only square from which d6 can be taken.
        fen = "W:WK" + sq("c1") + ":B" + sq("e3", "f6", "d6", "b10")
        paths = [m.path for m in pos(fen, V).legal_moves()]
        g5, e7 = V.geometry.square_by_name["g5"], V.geometry.square_by_name["e7"]
        assert paths and all(p[1] == g5 and p[2] == e7 for p in paths)


class TestInternationalMajorityRule:
    def test_the_sequence_capturing_most_pieces_is_compulsory(self):
        # d4 (32) can take c5 and c7 (32x21x12, two men); h4 (34) only the king g5 (34x23).
        p = pos("W:W32,34:B27,17,K29", V)
        assert pdns(p) == ["32x21x12"]
        g = Game(V, p)
        with pytest.raises(CaptureRequiredError) as info:
            g.play("34x23")
        assert "32x21x12" in str(info.value)

    def test_kings_and_men_count_the_same(self):
        # Two men (32x21x12) against two kings (34x23x14): both take two, both are legal.
        p = pos("W:W32,34:B27,17,K29,K19", V)
        assert pdns(p) == ["32x21x12", "34x23x14"]

    def test_among_the_longest_free_choice(self):
        # A king that may end its longest capture on several squares may pick any of them.
        p = pos("W:WK46:B23,6", V)
        assert len(p.legal_moves()) == 4

    def test_majority_counts_with_dead_pieces_as_a_barrier(self):
        # King c1 x e3 -> g5 x f6 -> e7 x d6 -> c5/b4/a3 takes three.  Were e3 removed at once,
        # the king could go on from c5 over the empty e3 to take f2 and land on g1 (four).  And
        # c1 x e3 -> f4 x d6 takes only two, so it is not allowed.
        fen = "W:WK" + sq("c1") + ":B" + sq("e3", "f6", "d6", "f2", "b10")
        p = pos(fen, V)
        f2 = V.geometry.square_by_name["f2"]
        assert {len(m.captured) for m in p.legal_moves()} == {3}
        assert len(p.legal_moves()) == 3
        assert all(f2 not in m.captured for m in p.legal_moves())
        assert pdns(p) == ["47x29x18x27", "47x29x18x31", "47x29x18x36"]

    def test_a_piece_may_not_be_jumped_twice(self):
        for m in pos("W:WK" + sq("c3") + ":B" + sq("d4", "f4", "f2", "d2"), V).legal_moves():
            assert len(m.captured) == len(set(m.captured)) == 4


class TestInternationalCrowning:
    def test_man_ending_its_move_on_the_far_row_is_crowned(self):
        # By a step; ending a capture there is in test_rules_common.
        p = pos("W:W7:B45", V)
        assert pdns(p) == ["7-1", "7-2"]
        assert all(m.crowns for m in p.legal_moves())


class TestInternationalGameEndAndResults:
    def test_no_40_move_count(self):
        g = Game(V)
        g.offer_draw(Color.WHITE)
        g.decline_draw(Color.BLACK)
        assert g.advantage_moves_left() is None
        assert "move count" not in g.status_line()


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK47,K48,K49:BK4",  # three kings v one king
        "W:WK47,K48,45:BK4",  # two kings and a man v one king
        "W:WK47,40,45:BK4",  # a king and two men v one king
        "B:WK4:BK47,K48,K49",  # Black the stronger side, Black to move
    ],
    ids=["3K-v-K", "2K+M-v-K", "K+2M-v-K", "black-3K-v-K"],
)
def test_sixteen_move_endgame_draw(fen):
    g = game(fen, V)
    assert "16-move endgame count: 16 left" in g.status_line()
    last = walk_but_last(g, 32)
    assert g.outcome is None
    assert "16-move endgame count: 1 left" in g.status_line()
    g.play(last)
    assert g.outcome.termination is Termination.ENDGAME_COUNT
    assert g.status_line() == "1-1 16-move endgame rule"


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK47,K48:BK4",  # two kings v one king
        "W:WK47,45:BK4",  # a king and a man v one king
        "W:WK47:BK4",  # one king v one king
    ],
    ids=["2K-v-K", "K+M-v-K", "K-v-K"],
)
def test_five_move_endgame_draw(fen):
    g = game(fen, V)
    assert "5-move endgame count: 5 left" in g.status_line()
    last = walk_but_last(g, 10)
    assert g.outcome is None
    assert "5-move endgame count: 1 left" in g.status_line()
    g.play(last)
    assert g.outcome.termination is Termination.ENDGAME_COUNT
    assert g.status_line() == "1-1 5-move endgame rule"


def test_endgame_count_starts_when_the_material_appears():
    # Three kings v a king and a man: no count.  White's forced capture of the man (f4, 33)
    # makes it three kings v one king, and the 16 moves each are counted from there.
    g = game("W:WK47,K48,K49:BK4,33", V)
    assert "endgame count" not in g.status_line()
    for capture in sorted(g.legal_moves(), key=lambda m: m.path):
        after = g.position.play(capture)
        if not any(r.is_capture for r in after.legal_moves()):
            break
    g.play(capture)
    assert g.position.piece_at(33) == EMPTY
    assert "16-move endgame count: 16 left" in g.status_line()
    last = walk_but_last(g, 32)
    assert g.outcome is None
    g.play(last)
    assert g.outcome.termination is Termination.ENDGAME_COUNT


def test_other_material_has_no_endgame_count():
    # Three kings v two kings, four kings v one king: no FMJD endgame count.
    assert "endgame count" not in game("W:WK47,K48,K49:BK4,K5", V).status_line()
    assert "endgame count" not in game("W:WK46,K47,K48,K49:BK4", V).status_line()
