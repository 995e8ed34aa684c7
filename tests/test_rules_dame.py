"""German Dame (Brettspielnetz): one named test per rule of shared/RULES.md.

Movement, captures and crowning are those of english; the draw rules differ: 25 moves each
without a capture or a crowning (man moves do not count as progress), and no 40-move count after
a declined offer.  Squares are PDN numbers (8x8: 1 = b8, 29 = a1).
"""

from __future__ import annotations

import pytest
from rules_support import (
    blunder_and_capture,
    find,
    game,
    is_crowning,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_but_last,
    walk_game,
)

from rules.game import Game, GameOverError
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import BLACK_MAN, WHITE_KING, Position
from rules.variants import DAME, Color

V = DAME


class TestDameBoardAndStart:
    def test_board_is_8x8_with_12_men_each(self):
        start = Position.start(V)
        assert V.size == 8
        assert start.squares(start.black_men) == list(range(1, 13))
        assert start.squares(start.white_men) == list(range(21, 33))

    def test_black_moves_first(self):
        start = Position.start(V)
        assert start.turn is Color.BLACK
        assert pdns(start) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


class TestDameMovementAsEnglish:
    def test_men_step_forward_only(self):
        assert pdns(pos("W:W18:B1", V)) == ["18-14", "18-15"]
        assert pdns(pos("B:W32:B18", V)) == ["18-22", "18-23"]

    def test_men_capture_forward_only(self):
        assert pdns(pos("W:W18:B22,23", V)) == ["18-14", "18-15"]
        assert pdns(pos("W:W18:B14,23", V)) == ["18x9"]

    def test_kings_move_and_capture_one_square_in_all_directions(self):
        assert pdns(pos("W:WK18:B1", V)) == ["18-14", "18-15", "18-22", "18-23"]
        assert pdns(pos("W:WK18:B23", V)) == ["18x27"]
        assert pdns(pos("W:WK29:B15", V)) == ["29-25"]  # no flying capture

    def test_men_may_capture_kings(self):
        assert pdns(pos("W:W22:BK18", V)) == ["22x15"]

    def test_free_choice_among_captures(self):
        assert pdns(pos("W:W27,28:B23,14,24", V)) == ["27x18x9", "27x20", "28x19"]

    def test_crowning_ends_the_move(self):
        p = pos("W:W11:B7,6", V)
        assert pdns(p) == ["11x2"]
        after = p.play(find(p, "11x2"))
        assert after.piece_at(2) == WHITE_KING
        assert after.piece_at(6) == BLACK_MAN

    def test_crowning_by_a_step(self):
        p = pos("W:W6:B27", V)
        assert all(m.crowns for m in p.legal_moves())


class TestDameCaptureRules:
    def test_capture_is_compulsory(self):
        g = game("W:W22,23,24:B18", V)
        with pytest.raises(CaptureRequiredError, match="22x15 or 23x14"):
            g.play("24-20")

    def test_multi_jump_must_be_completed(self):
        assert pdns(pos("W:W27:B23,15,1", V)) == ["27x18x11"]

    def test_a_piece_may_not_be_jumped_twice(self):
        p = pos("W:WK22:B18,19,27,26", V)
        assert pdns(p) == ["22x15x24x31x22", "22x31x24x15x22"]

    def test_a_player_never_jumps_own_pieces(self):
        assert all(not m.is_capture for m in pos("W:WK18,14,23:B1", V).legal_moves())


class TestDameGameEnd:
    def test_no_pieces_loses(self):
        g = game("W:W22:B18", V)
        g.play("22x15")
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is Color.WHITE

    def test_no_legal_moves_loses(self):
        g = game("W:W25,30,24:B21", V)
        g.play("24-20")
        assert g.outcome.termination is Termination.NO_MOVES
        assert g.outcome.winner is Color.WHITE

    def test_resignation(self):
        g = Game(V)
        g.resign(Color.BLACK)
        assert g.outcome.termination is Termination.RESIGNATION
        assert g.result() == "1-0"
        with pytest.raises(GameOverError):
            g.offer_draw(Color.WHITE)

    def test_agreement(self):
        g = Game(V)
        g.offer_draw(Color.WHITE)
        g.accept_draw(Color.BLACK)
        assert g.outcome.termination is Termination.AGREEMENT
        assert g.result() == "1/2-1/2"


# Two kings and two men each; the men can step without crowning for a while.
QUIET = "B:WK29,K30,27,28:BK1,K2,5,6"


class TestDameDraws:
    def test_threefold_repetition(self):
        g = game("B:WK29:BK4", V)
        for text in ["4-8", "29-25", "8-4", "25-29"] * 2:
            assert g.outcome is None
            g.play(text)
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION

    def test_25_moves_each_without_capture_or_crowning_draws_man_moves_do_not_count(self):
        g = game(QUIET, V)
        # Men moves at plies 3, 10, 21 and 40: they do not reset the count.
        man_plies = {3: is_man_move, 10: is_man_move, 21: is_man_move, 40: is_man_move}
        moves = quiet_walk(g.position, 50, g.positions, special=man_plies)
        for m in moves[:49]:
            g.play(m)
        assert g.outcome is None
        assert g.no_progress_left() == 1
        assert "no-progress count: 1 left" in g.status_line()
        g.play(moves[49])
        assert g.outcome.termination is Termination.NO_PROGRESS
        assert g.outcome.winner is None
        assert g.status_line() == "1/2-1/2 25 moves each without capture or crowning"

    def test_a_crowning_resets_the_count(self):
        # White man c7 (6) can crown whenever White wants; the kings walk meanwhile.  Black
        # starts, so move 31 of the walk is White's: the crowning.  50 king moves follow.
        g = game("B:WK29,6:BK4,K3", V)
        moves = quiet_walk(g.position, 82, g.positions, special={31: is_crowning})
        for m in moves[:32]:
            g.play(m)
        assert g.position.piece_at(1) == WHITE_KING or g.position.piece_at(2) == WHITE_KING
        assert g.no_progress_left() == 25
        for m in moves[32:81]:
            g.play(m)
        assert g.outcome is None
        g.play(moves[81])
        assert g.outcome.termination is Termination.NO_PROGRESS

    def test_a_capture_resets_the_count(self):
        g = game("B:WK29,K30,K31,28:BK1,K2,K3,5", V)
        blunder_and_capture(g, 30)
        assert g.no_progress_left() == 25
        last = walk_but_last(g, 50)
        assert g.outcome is None
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS

    def test_no_40_move_count_after_a_declined_offer(self):
        g = game(QUIET, V)
        g.offer_draw(Color.BLACK)
        g.decline_draw(Color.WHITE)
        assert V.draw_offer_count is None
        assert g.advantage_moves_left() is None
        assert g.draw_offer is None
        assert "40-move count" not in g.status_line()
        walk_game(g, 20)
        assert "40-move count" not in g.status_line()
        assert g.advantage_moves_left() is None
