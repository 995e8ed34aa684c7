"""Russian draughts (shared/RULES.md, stretch variants; draw rules as defined in RUSSIAN).

White first, men capture backward, flying kings, free choice among captures, captured pieces
removed at the end (a barrier until then), and a man reaching the far row during a capture is
crowned at once and continues the same capture as a king.  Squares are PDN numbers (8x8: 1 = b8,
4 = h8, 29 = a1, 32 = g1).
"""

from __future__ import annotations

import pytest
from rules_support import (
    find,
    game,
    is_crowning,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_but_last,
)

from rules.game import Game
from rules.outcome import Termination
from rules.position import BLACK_KING, EMPTY, WHITE_KING, Position
from rules.variants import RUSSIAN, Color

V = RUSSIAN


class TestRussianBoardAndStart:
    def test_board_is_8x8_with_12_men_each(self):
        start = Position.start(V)
        assert V.size == 8
        assert start.squares(start.black_men) == list(range(1, 13))
        assert start.squares(start.white_men) == list(range(21, 33))

    def test_white_moves_first(self):
        start = Position.start(V)
        assert start.turn is Color.WHITE
        assert pdns(start) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


class TestRussianMovement:
    def test_men_step_forward_only(self):
        assert pdns(pos("W:W18:B1", V)) == ["18-14", "18-15"]
        assert pdns(pos("B:W32:B18", V)) == ["18-22", "18-23"]

    def test_men_capture_backward(self):
        assert pdns(pos("W:W18:B22", V)) == ["18x25"]
        assert pdns(pos("B:W15:B18", V)) == ["18x11"]

    def test_flying_kings_step_any_distance(self):
        assert len(pos("W:WK29:B1", V).legal_moves()) == 7
        assert pdns(pos("W:WK29,22:B1", V)) == ["22-17", "22-18", "29-25"]

    def test_flying_kings_capture_at_a_distance_landing_anywhere_beyond(self):
        assert pdns(pos("W:WK29:B15,1", V)) == ["29x11", "29x4", "29x8"]
        # Two pieces in a row cannot be jumped.
        assert pdns(pos("W:WK29:B18,15,1", V)) == ["29-22", "29-25"]

    def test_king_must_land_where_it_can_continue(self):
        assert pdns(pos("W:WK30:B23,11,1", V)) == ["30x16x2", "30x16x7"]


class TestRussianCaptureRules:
    def test_free_choice_among_captures(self):
        # One piece (27x20) or two (27x18x9, 28x19x26): all legal, no majority rule.
        assert pdns(pos("W:W27,28:B23,14,24", V)) == ["27x18x9", "27x20", "28x19x26"]
        # One king or two men: both legal.
        assert pdns(pos("W:W27,22:B23,15,K17", V)) == ["22x13", "27x18x11"]

    def test_captured_pieces_are_removed_at_the_end_turkish_strike(self):
        # The dead piece on e3 (23) blocks the king's way from c5 to f2 (27).
        p = pos("W:WK30:B23,11,10,27,1", V)
        assert pdns(p) == ["30x16x7x14", "30x16x7x17", "30x16x7x21", "30x19x6"]
        assert all(27 not in m.captured for m in p.legal_moves())

    def test_a_piece_may_not_be_jumped_twice(self):
        for m in pos("W:WK22:B18,19,27,26", V).legal_moves():
            assert len(set(m.captured)) == len(m.captured)

    def test_capture_is_compulsory_and_must_be_completed(self):
        g = game("W:W27,24:B23,15,1", V)
        assert pdns(g.position) == ["27x18x11"]
        with pytest.raises(ValueError, match="compulsory"):
            g.play("24-20")


class TestRussianCrowning:
    def test_man_crowned_during_a_capture_continues_as_a_king(self):
        # f6 (11) x e7 (7) reaches d8 (2) and is crowned; as a flying king it goes on over b6
        # (9), which is not adjacent to d8, to a5 (13) -- all in the same move.
        p = pos("W:W11:B7,9", V)
        assert pdns(p) == ["11x2x13"]
        move = find(p, "11x2x13")
        assert move.crowns
        assert move.captured == (7, 9)
        after = p.play(move)
        assert after.piece_at(13) == WHITE_KING
        assert after.piece_at(7) == after.piece_at(9) == EMPTY

    def test_man_crowned_on_the_far_row_with_nothing_more_to_take(self):
        p = pos("W:W11:B7,4", V)
        assert pdns(p) == ["11x2"]
        assert find(p, "11x2").crowns

    def test_black_man_crowned_during_a_capture(self):
        # Black man c3 (22) x d2 (26) to e1 (31), crowned, then flies up over g3 (24)... to h4.
        p = pos("B:W26,24,32:B22", V)
        moves = p.legal_moves()
        assert moves and all(m.crowns and m.captured[0] == 26 for m in moves)
        assert any(len(m.captured) == 2 for m in moves)
        m = next(m for m in moves if len(m.captured) == 2)
        assert p.play(m).piece_at(m.end) == BLACK_KING

    def test_crowning_by_a_step(self):
        p = pos("W:W6:B27", V)
        assert pdns(p) == ["6-1", "6-2"]
        assert all(m.crowns for m in p.legal_moves())


class TestRussianGameEnd:
    def test_no_pieces_and_no_moves_lose(self):
        g = game("W:W22:B18", V)
        g.play("22x15")
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_PIECES, Color.WHITE)
        g = game("W:W25,30,24:B21", V)
        g.play("24-20")
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.WHITE)
        assert g.result() == "1-0"

    def test_agreement_and_resignation(self):
        g = Game(V)
        g.offer_draw(Color.WHITE)
        g.accept_draw(Color.BLACK)
        assert g.outcome.termination is Termination.AGREEMENT
        g = Game(V)
        g.resign(Color.WHITE)
        assert g.result() == "0-1"


# Eight pieces: no endgame count applies.
QUIET = "W:WK29,K30,27,28:BK1,K2,5,6"


class TestRussianDraws:
    def test_threefold_repetition(self):
        g = game("W:WK29,K30,27,28:BK1,K2,5,6", V)
        for text in ["29-25", "2-7", "25-29", "7-2"] * 2:
            assert g.outcome is None
            g.play(text)
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION

    def test_15_moves_each_with_only_king_moves_draws(self):
        g = game(QUIET, V)
        assert g.status_line() == "ongoing"
        last = walk_but_last(g, 30)
        assert g.outcome is None
        assert "no-progress count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS
        assert g.status_line() == "1/2-1/2 15 moves each with only king moves"

    def test_a_man_move_resets_the_king_move_count(self):
        g = game(QUIET, V)
        last = walk_but_last(g, 41, special={10: is_man_move})
        assert g.no_progress_left() == 1
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS

    @pytest.mark.parametrize(
        "fen",
        ["W:WK30,K31,K32:BK4", "W:WK28,K30,K31,K32:BK4"],
        ids=["3K-v-K", "4K-v-K"],
    )
    def test_three_or_more_kings_against_a_lone_king_15_moves(self, fen):
        g = game(fen, V)
        assert "3-kings-v-1 count: 15 left" in g.status_line()
        last = walk_but_last(g, 29)  # White's 15th move comes last
        assert g.outcome is None
        assert "3-kings-v-1 count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert g.status_line() == "1/2-1/2 three kings against one king not won in 15 moves"

    @pytest.mark.parametrize(
        "fen", ["W:WK30,K31:BK4", "W:WK30:BK4", "W:WK30,28:BK4"], ids=["2K-v-K", "K-v-K", "K+M-v-K"]
    )
    def test_two_or_three_pieces_with_kings_5_moves(self, fen):
        g = game(fen, V)
        assert "5-move endgame count: 5 left" in g.status_line()
        last = walk_but_last(g, 10)
        assert "5-move endgame count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert (
            g.outcome.words == "2-3 piece endgame with kings: 5 moves without capture or crowning"
        )

    def test_a_crowning_restarts_the_small_endgame_count(self):
        # King and a man on a7 (5) against a king: the man crowns on White's 4th move.
        g = game("W:WK30,5:BK4", V)
        moves = quiet_walk(g.position, 17, g.positions, special={6: is_crowning})
        for m in moves[:6]:
            g.play(m)
        assert "5-move endgame count: 2 left" in g.status_line()
        g.play(moves[6])
        assert "5-move endgame count: 5 left" in g.status_line()
        for m in moves[7:16]:
            g.play(m)
        assert g.outcome is None
        g.play(moves[16])
        assert g.outcome.termination is Termination.ENDGAME_COUNT

    def test_four_or_five_pieces_with_kings_30_moves(self):
        # Two kings and a man v a king and a man; man moves keep the 15-move rule away.
        g = game("W:WK30,K31,27:BK4,5", V)
        assert "30-move endgame count: 30 left" in g.status_line()
        last = walk_but_last(g, 60, special={20: is_man_move, 41: is_man_move})
        assert g.outcome is None
        assert "30-move endgame count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert "4-5 piece endgame" in g.outcome.words

    def test_six_or_seven_pieces_with_kings_60_moves(self):
        g = game("W:WK29,K30,27,28:BK1,K2,5", V)
        assert "60-move endgame count: 60 left" in g.status_line()
        men = {20: is_man_move, 45: is_man_move, 70: is_man_move, 95: is_man_move}
        last = walk_but_last(g, 120, special=men)
        assert g.outcome is None
        assert "60-move endgame count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert "6-7 piece endgame" in g.outcome.words

    def test_no_small_endgame_count_without_kings_on_both_sides(self):
        assert "endgame count" not in game("W:WK30,28:B4", V).status_line()
        assert "endgame count" not in game("W:W30,28:B4", V).status_line()
