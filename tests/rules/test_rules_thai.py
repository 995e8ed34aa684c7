"""Thai draughts (docs/rules/thai.md): eight men each, Black first, men that step and capture
forwards only, flying kings that land just beyond the piece they take, captured pieces removed
at once (so a king may cross their squares and turn back), any capture, no move-count draw.
The squares are PDN's Thai numbers, counted from Black's side (1 is g1):

    8   . 32  . 31  . 30  . 29
    7  28  . 27  . 26  . 25  .
    6   . 24  . 23  . 22  . 21
    5  20  . 19  . 18  . 17  .
    4   . 16  . 15  . 14  . 13
    3  12  . 11  . 10  .  9  .
    2   .  8  .  7  .  6  .  5
    1   4  .  3  .  2  .  1  .
        a  b  c  d  e  f  g  h

White starts on 1-8 and moves up; Black on 25-32.  What Thai shares with other variants (with
its own data) is checked for every variant in ``test_rules_common.py`` and
``test_movegen_reference.py``; this file keeps what is its own.
"""

from __future__ import annotations

from dataclasses import replace

from support.rules_support import find, game, pdn_after, pdns, pos

from rules.notation import show_move
from rules.outcome import Termination
from rules.position import WHITE_KING, Position
from rules.variants import THAI, Color

V = THAI


class TestStartAndNumbering:
    def test_square_one_is_g1_as_black_counts(self):
        g = V.geometry
        named = {n: g.names[g.square_by_number[n]] for n in (1, 4, 5, 8, 29, 32)}
        assert named == {1: "g1", 4: "a1", 5: "h2", 8: "b2", 29: "h8", 32: "b8"}

    def test_eight_men_each_and_black_moves_first(self):
        start = Position.start(V)
        assert start.fen() == V.start_fen == "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"
        assert start.turn is Color.BLACK
        assert pdns(start) == ["25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"]
        assert show_move(find(start, "28-24"), V, "algebraic") == "a7-b6"

    def test_pdn_writes_game_type_31_in_these_numbers(self):
        written = pdn_after(V, ("27-23", "6-10", "23-19", "7-11", "19-15"))
        assert '[GameType "31"]' in written
        assert "1. 27-23 6-10 2. 23-19 7-11 3. 19-15" in written


class TestMen:
    def test_men_capture_forwards_only(self):
        assert pdns(pos("W:W11:B8", V)) == ["11-15", "11-16"]
        assert pdns(pos("W:W11:B15", V)) == ["11x18"]

    def test_a_man_crowned_by_a_capture_stops_there(self):
        # 23x30 reaches f8; a king could go on over g7 (25), the new one may not.
        p = pos("W:W23:B26,25", V)
        (move,) = p.legal_moves()
        assert move.pdn() == "23x30" and move.crowns
        assert p.play(move).piece_at(V.geometry.square_by_number[30]) == WHITE_KING


class TestKings:
    def test_kings_fly_when_they_move(self):
        assert pdns(pos("W:WK4:B29", V)) == ["4-11", "4-15", "4-18", "4-22", "4-25", "4-8"]

    def test_a_capturing_king_lands_just_beyond_its_victim(self):
        # d4 (15) is taken from a1; the king lands on e5 (18), not on f6, g7 or h8.
        assert pdns(pos("W:WK4:B15", V)) == ["4x18"]
        # The same capture by an international king may stop on any square beyond.
        wide = replace(V, key="wide", king_stops_behind=False, captures_removed_at_once=False)
        assert pdns(pos("W:WK4:B15", wide)) == ["4x18", "4x22", "4x25", "4x29"]

    def test_no_capture_when_the_square_beyond_is_taken(self):
        assert pdns(pos("W:WK4:B15,18", V)) == ["4-11", "4-8"]

    def test_the_king_goes_on_from_the_square_it_lands_on(self):
        # From e5 (18) it sees d6 (23) and takes it, landing on c7 (27).
        assert pdns(pos("W:WK4:B15,23", V)) == ["4x18x27"]


class TestCapturedPiecesLeaveAtOnce:
    def test_a_king_turns_back_over_the_square_it_cleared(self):
        # The king on c3 (11) takes e5 (18) landing on f6, then turns back over e5, d4 and its
        # own square to take b2 (8); or the other way round.
        assert pdns(pos("W:WK11:B18,8", V)) == ["11x22x4", "11x4x22"]
        # Where captured pieces stay until the move ends, the first one blocks the way back.
        kept = replace(V, key="kept", captures_removed_at_once=False)
        assert pdns(pos("W:WK11:B18,8", kept)) == ["11x22", "11x4"]

    def test_any_capture_may_be_chosen(self):
        # The man on f6 (22) takes e7 (and is crowned on d8), the king on c7 (27) takes e5 and
        # g5: both are legal (no majority rule, no preference for the king).
        assert pdns(pos("W:W22,K27:B18,26,17", V)) == ["22x31", "27x14x21"]


class TestEnd:
    def test_no_move_count_draw(self):
        g = game("W:WK4:B29", V)
        assert not g.no_progress_counting()
        assert g.outcome is None

    def test_the_side_without_moves_loses(self):
        # Black's man on g3 (9) is blocked by h2 (5) and f2 (6), with e1 (2) behind f2.
        g = game("B:W5,6,2,1:B9", V)
        assert g.outcome is not None
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.WHITE)
