"""Brazilian draughts: international rules on 8x8 (shared/RULES.md, stretch variants).

White first, men capture backward, flying kings, majority rule, dead pieces as a barrier,
crowning only at the end of the move, FMJD draw rules.  Squares are PDN numbers (8x8: 1 = b8,
4 = h8, 29 = a1, 32 = g1); the long diagonal a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4.
"""

from __future__ import annotations

import pytest
from rules_support import blunder_and_capture, find, game, pdns, pos, walk_but_last

from rules.game import Game
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import WHITE_KING, WHITE_MAN, Position
from rules.variants import BRAZILIAN, INTERNATIONAL, Color

V = BRAZILIAN


class TestBrazilianBoardAndStart:
    def test_board_is_8x8_with_12_men_each(self):
        start = Position.start(V)
        assert V.size == 8
        assert start.squares(start.black_men) == list(range(1, 13))
        assert start.squares(start.white_men) == list(range(21, 33))

    def test_white_moves_first(self):
        start = Position.start(V)
        assert start.turn is Color.WHITE
        assert pdns(start) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]

    def test_international_rules_as_data(self):
        # The same rules as international, only the board differs.
        for attribute in (
            "first",
            "men_capture_backward",
            "flying_kings",
            "capture_choice",
            "crowning",
            "no_progress",
            "endgames",
        ):
            assert getattr(V, attribute) == getattr(INTERNATIONAL, attribute), attribute


class TestBrazilianMovement:
    def test_men_step_forward_only(self):
        assert pdns(pos("W:W18:B1", V)) == ["18-14", "18-15"]
        assert pdns(pos("B:W32:B18", V)) == ["18-22", "18-23"]

    def test_men_capture_backward(self):
        assert pdns(pos("W:W18:B22", V)) == ["18x25"]

    def test_flying_kings_step_and_capture_at_a_distance(self):
        assert len(pos("W:WK29:B1", V).legal_moves()) == 7
        assert pdns(pos("W:WK29:B15,1", V)) == ["29x11", "29x4", "29x8"]

    def test_king_must_land_where_it_can_continue(self):
        assert pdns(pos("W:WK30:B23,11,1", V)) == ["30x16x2", "30x16x7"]


class TestBrazilianMajorityRule:
    def test_the_longest_capture_is_compulsory(self):
        # 27x20 takes one; 27x18x9 and 28x19x26 take two: only the two-piece captures are legal.
        p = pos("W:W27,28:B23,14,24", V)
        assert pdns(p) == ["27x18x9", "28x19x26"]
        with pytest.raises(CaptureRequiredError):
            Game(V, p).play("27x20")

    def test_kings_and_men_count_the_same(self):
        # 27x18x11 takes two men; 22x13x6 takes two kings: both legal.  With only one king to
        # take (22x13), the two men must be taken.
        assert pdns(pos("W:W27,22:B23,15,K17,K9", V)) == ["22x13x6", "27x18x11"]
        assert pdns(pos("W:W27,22:B23,15,K17", V)) == ["27x18x11"]

    def test_majority_with_dead_pieces_as_a_barrier(self):
        # King c1 (30): three pieces via g5, e7 and c5/b4/a3; the dead e3 (23) keeps it from f2
        # (27).  30x19x6 (two pieces) is not allowed.
        p = pos("W:WK30:B23,11,10,27,1", V)
        assert pdns(p) == ["30x16x7x14", "30x16x7x17", "30x16x7x21"]


class TestBrazilianCrowning:
    def test_passing_through_the_far_row_does_not_crown(self):
        p = pos("W:W11:B7,6,4", V)
        move = find(p, "11x2x9")
        assert not move.crowns
        assert p.play(move).piece_at(9) == WHITE_MAN

    def test_ending_on_the_far_row_crowns(self):
        p = pos("W:W11:B7,9", V)
        move = find(p, "11x2")
        assert move.crowns
        assert p.play(move).piece_at(2) == WHITE_KING


class TestBrazilianGameEnd:
    def test_no_pieces_loses_results_1_0_and_0_1(self):
        g = game("W:W22:B18", V)
        g.play("22x15")
        assert (g.outcome.termination, g.result()) == (Termination.NO_PIECES, "1-0")
        g = game("B:W22:B18", V)
        g.play("18x25")
        assert g.result() == "0-1"

    def test_no_legal_moves_loses(self):
        g = game("W:W25,30,24:B21", V)
        g.play("24-20")
        assert g.outcome.termination is Termination.NO_MOVES
        assert g.outcome.winner is Color.WHITE

    def test_agreement_and_resignation(self):
        g = Game(V)
        g.offer_draw(Color.BLACK)
        g.accept_draw(Color.WHITE)
        assert g.result() == "1/2-1/2"
        g = Game(V)
        g.resign(Color.WHITE)
        assert g.result() == "0-1"


class TestBrazilianDraws:
    def test_threefold_repetition(self):
        g = game("W:WK30:BK4", V)
        for text in ["30-26", "4-8", "26-30", "8-4"] * 2:
            assert g.outcome is None
            g.play(text)
        # (K v K is also a 5-move endgame: the repetition comes first, at move 4 of each.)
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION

    def test_25_moves_each_with_only_king_moves_draws(self):
        g = game("B:WK29,K30,27,28:BK1,K2,5,6", V)
        last = walk_but_last(g, 50)
        assert g.outcome is None
        assert g.no_progress_left() == 1
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS

    def test_a_capture_resets_the_king_move_count(self):
        g = game("B:WK29,K30,K31,27,28:BK1,K2,K3,5,6", V)
        blunder_and_capture(g, 20)
        assert g.no_progress_left() == 25

    @pytest.mark.parametrize(
        ("fen", "label", "moves"),
        [
            ("W:WK30,K31,K32:BK4", "16-move endgame count", 16),
            ("W:WK30,K31,28:BK4", "16-move endgame count", 16),
            ("W:WK30,K31:BK4", "5-move endgame count", 5),
            ("W:WK30,28:BK4", "5-move endgame count", 5),
        ],
        ids=["3K-v-K", "2K+M-v-K", "2K-v-K", "K+M-v-K"],
    )
    def test_endgame_counts(self, fen, label, moves):
        g = game(fen, V)
        assert f"{label}: {moves} left" in g.status_line()
        last = walk_but_last(g, 2 * moves)
        assert g.outcome is None
        assert f"{label}: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert g.result() == "1/2-1/2"
