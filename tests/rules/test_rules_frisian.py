"""Frisian draughts and Frysk! (docs/rules/frisian.md, docs/rules/frysk.md): International's
board and men, whose men and kings also capture along rows and columns; the capture of the most
value, a king worth a little less than two men, a king's capture first at equal value; a man
crowned only where its move ends; while a side has men, one king makes at most three moves in a
row without capturing; two kings against one drawn after 7 moves each, one king each after 2, and
no draw by repetition.  Frysk! is the same game from five men each on the back rows.

Positions are in FMJD numbers (1-5 on Black's back row, 46-50 on White's).  Along a row the next
playing square is the next number (28, 29, 30 lie on one row); along a column it is ten on (7,
17, 27, 37, 47 lie on the c-file).

What Frisian shares with other variants (with its own data) is checked for every variant in
``test_rules_common.py`` and ``test_movegen_reference.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import game, pdns, pos

from rules.fen import FenError
from rules.game import Game
from rules.outcome import Termination
from rules.perft import perft
from rules.position import NO_RUNS, Position
from rules.variants import FRISIAN, FRYSK, INTERNATIONAL, Color

V = FRISIAN


def captures(fen: str) -> list[str]:
    return pdns(pos(fen, V))


def played(fen: str, *moves: str) -> Game:
    g = game(fen, V)
    for move in moves:
        g.play(move)
    return g


class TestStart:
    def test_twenty_men_each_as_in_international(self):
        assert Position.start(V).fen() == Position.start(INTERNATIONAL).fen()
        assert V.game_type == 40 and V.first is Color.WHITE

    def test_frysk_has_five_men_each_on_the_back_rows(self):
        assert FRYSK.start_fen == "W:W46,47,48,49,50:B1,2,3,4,5"
        assert FRYSK.game_type == 97
        assert pdns(Position.start(FRYSK)) == [
            "46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44", "50-44", "50-45",
        ]  # fmt: skip

    def test_frysk_plays_frisian_rules(self):
        assert FRYSK.captures_in_eight_directions and FRYSK.king_move_limit == 3
        assert FRYSK.capture_precedence == V.capture_precedence
        assert FRYSK.endgames == V.endgames and FRYSK.repetitions == 0

    def test_perft_equals_dctl_beyond_the_perft_file(self):
        # rhalbersma/dctl, board_10x10.cpp, around line 52: depth 7 is 550,314
        # (depths 1-6 are in tests/support/perft/start.perft).
        assert perft(Position.start(V), 7) == 550_314


class TestMen:
    def test_men_step_diagonally_forwards_only(self):
        assert captures("W:W28:B3") == ["28-22", "28-23"]

    def test_men_capture_along_the_row_and_back_down_the_column(self):
        # 29 is 28's neighbour along the row, 38 the next square down its column.
        assert captures("W:W28:B29,38") == ["28x30", "28x48"]

    def test_a_man_turns_from_a_column_onto_a_diagonal(self):
        # Up the c-file over 27 to 17, then diagonally over 12 to 8.
        assert captures("W:W37:B27,12") == ["37x17x8"]

    def test_international_men_do_not_capture_along_rows(self):
        assert pdns(pos("W:W28:B29,38", INTERNATIONAL)) == ["28-22", "28-23"]


class TestKings:
    def test_kings_step_along_the_diagonals_only(self):
        moves = pdns(pos("W:WK46:B5", V))
        assert "46-36" not in moves and "46-41" in moves and "46-5" not in moves
        assert all(
            m.split("-")[1] in {"41", "37", "32", "28", "23", "19", "14", "10"} for m in moves
        )

    def test_a_king_flies_up_a_column_to_capture(self):
        # From 46 up the a-file: 36 and 26 empty, the man on 16, 6 free beyond it.
        assert captures("W:WK46:B16") == ["46x6"]

    def test_a_king_lands_on_any_free_square_along_the_row(self):
        assert captures("W:WK26:B28") == ["26x29", "26x30"]


class TestValue:
    # White's man on 32 can take two men (27, then 17: 32x21x12); White's man on 39 can take
    # Black's king on 34 (39x30).
    def test_two_men_outweigh_one_king(self):
        assert captures("W:W32,39:B27,17,K34") == ["32x21x12"]

    def test_one_king_outweighs_one_man(self):
        assert captures("W:W32,39:B27,K34") == ["39x30"]

    def test_two_kings_outweigh_three_men(self):
        # 36 takes three men: up the a-file over 26, along the row over 17, then over 12;
        # 45 takes the kings on 40 (diagonally) and 33 (along the row).
        assert captures("W:W36,45:B26,17,12,K40,K33") == ["45x34x32"]

    def test_four_men_outweigh_two_kings(self):
        # A fourth man on 8 lets 36's capture go on from 7 along the row to 9.
        assert captures("W:W36,45:B26,17,12,8,K40,K33") == ["36x16x18x7x9"]

    def test_three_men_outweigh_one_king(self):
        assert captures("W:W36,45:B26,17,12,K40") == ["36x16x18x7"]

    def test_value_by_the_generator_key(self):
        # Every pair of captures compares as n kings against m men does: 2n - 1 < n kings < 2n.
        from rules.rule_kinds import KING_VALUE, MAN_VALUE

        for n in range(1, 10):
            assert (2 * n - 1) * MAN_VALUE < n * KING_VALUE < 2 * n * MAN_VALUE

    def test_at_equal_value_a_king_must_capture(self):
        # The man on 39 and the king on 46 can each take one man.
        assert captures("W:W39,K46:B34,16") == ["46x6"]

    def test_at_equal_value_men_choose_freely(self):
        assert captures("W:W32,39:B27,34") == ["32x21", "39x30"]


class TestCrowning:
    def test_a_man_passing_the_far_row_mid_capture_stays_a_man(self):
        # Over 9 to the far row's 4, then on over 10 to 15: the move ends off the far row.
        position = pos("W:W13:B9,10", V)
        moves = position.legal_moves()
        assert [m.pdn() for m in moves] == ["13x4x15"]
        assert not moves[0].crowns


class TestKingMoveLimit:
    # White's king shuttles between 46 and 41 while Black's king shuttles between 1 and 7; no
    # line of either king meets a piece it could take.
    FEN = "W:W45,49,K46:BK1"
    THREE = ("46-41", "1-7", "41-46", "7-1", "46-41", "1-7")

    def test_three_moves_in_a_row_then_the_king_rests(self):
        g = played(self.FEN, *self.THREE)
        assert g.position.king_runs[:2] == (V.geometry.bit(41), 3)
        assert g.position.frozen_king == V.geometry.bit(41)
        assert pdns(g.position) == ["45-40", "49-43", "49-44"]

    def test_another_piece_moving_frees_the_king(self):
        g = played(self.FEN, *self.THREE, "49-43", "7-1")
        assert g.position.king_runs[:2] == (0, 0)
        assert "41-46" in pdns(g.position)

    def test_another_king_starts_its_own_run(self):
        g = played("W:W45,49,K46,K50:BK1", "46-41", "1-7", "41-46", "7-1", "50-44", "1-7")
        assert g.position.king_runs[:2] == (V.geometry.bit(44), 1)
        assert "46-41" in pdns(g.position)

    def test_a_resting_king_may_still_capture(self):
        # After its third move the king on 41 rests; Black's king comes onto its diagonal.
        g = played(self.FEN, *self.THREE[:5], "1-23")
        assert g.position.frozen_king == V.geometry.bit(41)
        assert pdns(g.position) == ["41x10", "41x14", "41x19", "41x5"]

    def test_a_side_with_only_kings_has_no_limit(self):
        # White has no men: its king moves on.  Black has a man on 6, so its king's run counts.
        g = played("W:WK46,K50:B6,K1", *self.THREE)
        assert g.position.king_runs == (0, 0, V.geometry.bit(7), 3)
        assert g.position.frozen_king == 0
        assert "41-46" in pdns(g.position)

    def test_a_resting_king_with_blocked_men_loses(self):
        # White's man on 45 can neither step to 40 nor take it (34 behind it is taken too).
        g = played("W:W45,K46:B40,34,K1", *self.THREE)
        assert g.outcome is not None
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.BLACK)

    def test_the_run_is_part_of_the_position(self):
        g = played(self.FEN, *self.THREE[:4])
        p = g.position
        assert p.fen() == "W:W45,49,K46:BK1:RW46/2"  # Black has no men: no run
        assert pos(p.fen(), V) == p
        # Without its runs the same placement is another position.
        bare = pos("W:W45,49,K46:BK1", V)
        assert bare.king_runs == NO_RUNS and bare != p and bare.key != p.key
        # The key kept move by move is the one a position built with the same runs computes.
        same = Position(
            V, p.white_men, p.white_kings, p.black_men, p.black_kings, p.turn, king_runs=p.king_runs
        )
        assert same == p and same.key == p.key

    def test_a_run_must_belong_to_a_king_of_a_side_with_men(self):
        for fen in ("W:W45,K46:BK1:RW45/1", "W:WK46:BK1,6:RW46/1", "W:W45,K46:BK1:RW46/4"):
            with pytest.raises(FenError):
                pos(fen, V)

    def test_a_taken_running_king_leaves_no_run(self):
        # White's king steps to 41, where Black's man on 37 takes it (to 46).
        g = played("W:W49,K46:B37,32", "46-41")
        assert g.position.king_runs == (V.geometry.bit(41), 1, 0, 0)
        g.play("37x46")
        assert g.position.king_runs == NO_RUNS

    def test_the_record_replays_the_runs(self):
        g = played(self.FEN, *self.THREE)
        again = Game.from_dict(g.to_dict())
        assert again.position.frozen_king == g.position.frozen_king != 0


class TestDraws:
    def test_two_kings_against_one_are_drawn_after_seven_moves_each(self):
        g = game("W:WK46,K50:BK1", V)
        shuttle = ("46-41", "1-7", "41-46", "7-1")
        for n in range(7):
            assert g.outcome is None, n
            g.play(shuttle[2 * (n % 2)])
            g.play(shuttle[2 * (n % 2) + 1])
        assert g.outcome is not None
        assert g.outcome.termination is Termination.ENDGAME_COUNT and g.outcome.winner is None
        assert g.outcome.detail == "two kings against one king not won in 7 moves"

    def test_one_king_each_is_drawn_after_two_moves_each(self):
        g = played("W:WK46:BK1", "46-41", "1-7", "41-46")
        assert g.outcome is None
        g.play("7-1")
        assert g.outcome is not None and g.outcome.termination is Termination.ENDGAME_COUNT
        assert g.outcome.detail == "one king each not won in 2 moves"

    def test_no_draw_by_repetition(self):
        # Two kings each, taking turns so that no king makes three moves in a row.
        g = game("W:W49,K46,K50:B6,K1,K3", V)
        for _ in range(4):
            for move in ("46-41", "1-7", "41-46", "7-1", "50-44", "3-8", "44-50", "8-3"):
                g.play(move)
        assert g.repetitions() >= 3
        assert g.outcome is None
