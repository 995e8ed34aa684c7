"""Spanish and Portuguese draughts (docs/rules/spanish.md, portuguese.md): italian's board (a1
light), flying kings, men that step and capture forwards only, the most pieces and then the most
kings, a man's move ending when it is crowned, and a draw after 20 moves each with only king
moves.  The squares here are the federations' numbers, counted from White's near-right corner:

    8  32  . 31  . 30  . 29  .
    7   . 28  . 27  . 26  . 25
    6  24  . 23  . 22  . 21  .
    5   . 20  . 19  . 18  . 17
    4  16  . 15  . 14  . 13  .
    3   . 12  . 11  . 10  .  9
    2   8  .  7  .  6  .  5  .
    1   .  4  .  3  .  2  .  1
        a  b  c  d  e  f  g  h

White starts on 1-12 and moves up, towards the high numbers.  What both share with other
variants (with their own data) is checked for every variant in ``test_rules_common.py`` and
``test_movegen_reference.py``; this file keeps what is theirs.
"""

from __future__ import annotations

import pytest
from support.rules_support import find, game, pdn_after, pdns, pos, walk_but_last

from rules.fen import FenError, parse_fen
from rules.game import Game
from rules.notation import UnknownSquareError, show_move
from rules.outcome import Termination
from rules.position import WHITE_KING, Position
from rules.variants import ITALIAN, PORTUGUESE, SPANISH, Color

V = SPANISH
BOTH = pytest.mark.parametrize("variant", [SPANISH, PORTUGUESE], ids=lambda v: v.key)


class TestNumbering:
    @BOTH
    def test_square_one_is_white_s_near_right_corner(self, variant):
        g = variant.geometry
        named = {n: g.names[g.square_by_number[n]] for n in (1, 4, 5, 8, 9, 29, 32)}
        assert named == {1: "h1", 4: "b1", 5: "g2", 8: "a2", 9: "h3", 29: "g8", 32: "a8"}

    @BOTH
    def test_white_starts_on_1_to_12_and_moves_first(self, variant):
        start = Position.start(variant)
        white = ",".join(map(str, range(1, 13)))
        black = ",".join(map(str, range(21, 33)))
        assert start.fen() == variant.start_fen == f"W:W{white}:B{black}"
        assert start.turn is Color.WHITE
        assert pdns(start) == ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]

    def test_the_pieces_stand_where_italian_s_do(self):
        # The same board and the same start, numbered from the other end.
        spanish, italian = Position.start(SPANISH), Position.start(ITALIAN)
        assert dict(spanish.iter_pieces()) == dict(italian.iter_pieces())
        move = find(spanish, "11-15")
        assert show_move(move, SPANISH, "algebraic") == "d3-c4"
        assert show_move(find(italian, "22-18"), ITALIAN, "algebraic") == "d3-c4"

    def test_moves_and_fen_are_read_in_the_variant_s_numbers(self):
        g = Game(V)
        assert g.play("11-15").pdn() == "11-15"
        assert g.play("c6-d5").pdn() == "23-19"  # coordinates work too
        assert g.position.fen().startswith("W:W1,2,3,4,5,6,7,8,9,10,12,15:B")
        # A white man on 32 (a8) would already be a king there: the numbers are Spanish ones.
        with pytest.raises(FenError, match="square 32"):
            parse_fen("B:W32:B1", V)
        with pytest.raises(UnknownSquareError, match="b6 is a light square"):
            Game(V).play("b6-c5")

    @BOTH
    def test_pdn_names_the_game_type_and_keeps_the_numbers(self, variant):
        written = pdn_after(variant, ("11-15", "23-19", "7-11", "19-14", "11x18", "21x14"))
        assert f'[GameType "{variant.game_type}"]' in written
        assert "1. 11-15 23-19 2. 7-11 19-14 3. 11x18 21x14" in written


class TestMenAndKings:
    def test_men_capture_forwards_only(self):
        # A black man behind the white man on 11 (d3): no capture, only steps.
        assert pdns(pos("W:W11:B7", V)) == ["11-14", "11-15"]
        # In front (on 14, e4) it must be taken.
        assert pdns(pos("W:W11:B14", V)) == ["11x18"]

    def test_men_capture_kings(self):
        assert pdns(pos("W:W11:BK14", V)) == ["11x18"]

    def test_kings_fly_along_the_long_diagonal(self):
        assert pdns(pos("W:WK1:B29", V)) == ["1-10", "1-14", "1-19", "1-23", "1-28", "1-32", "1-5"]

    def test_a_king_lands_on_any_square_beyond_the_piece_it_takes(self):
        assert pdns(pos("W:WK1:B14", V)) == ["1x19", "1x23", "1x28", "1x32"]


class TestCapturePrecedence:
    def test_the_most_pieces(self):
        # The man takes c4 and c6 (two); the king on g8 (29) could take c4 alone: only the man's.
        assert pdns(pos("W:W11,K29:B25,23,15", V)) == ["11x20x27"]

    def test_among_equal_counts_the_most_kings(self):
        # Two pieces either way; 11x20x27 takes the king on c6 (23): the quality rule.
        assert pdns(pos("W:W11:B14,21,15,K23", V)) == ["11x20x27"]

    def test_no_preference_for_capturing_with_a_king(self):
        # A man and a king each take one piece: all are open (italian would force the king).
        assert pdns(pos("W:W11,K8:B14,19", V)) == ["11x18", "8x22", "8x26", "8x29"]

    def test_no_preference_for_meeting_the_king_first(self):
        # One man and one king either way, in the opposite order: both are open.
        assert pdns(pos("W:W11:B15,K23,K14,21", V)) == ["11x18x25", "11x20x27"]


class TestCrowningAndEnd:
    def test_a_man_crowned_by_a_capture_stops_there(self):
        # 23x30 reaches e8; a king could go on over f7 (26), the new one may not.
        p = pos("W:W23:B27,26", V)
        (move,) = p.legal_moves()
        assert move.pdn() == "23x30" and move.crowns
        assert p.play(move).piece_at(V.geometry.square_by_number[30]) == WHITE_KING

    def test_the_side_without_moves_loses(self):
        # Black's man on 9 (h3) is blocked by g2 (5) and cannot jump it onto f1 (2).
        g = game("B:W5,2:B9", V)
        assert g.outcome is not None
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.WHITE)


class TestDraws:
    @BOTH
    def test_twenty_moves_each_with_only_king_moves_draw(self, variant):
        g = game("W:WK1,K2,9:BK32,K31,24", variant)
        assert g.status_line() == "ongoing; no-progress count: 20 left"
        last = walk_but_last(g, 40)
        assert g.outcome is None and g.no_progress_left() == 1
        g.play(last)
        assert g.outcome is not None and g.outcome.termination is Termination.NO_PROGRESS
        assert g.status_line() == "1/2-1/2 20 moves each with only king moves"

    def test_a_man_move_starts_the_count_again(self):
        g = game("W:WK1,K2,9:BK32,K31,24", V)
        g.play(walk_but_last(g, 12))  # 12 king moves: 14 moves each left
        assert g.no_progress_left() == 14
        men = g.position.men_of(g.position.turn)
        g.play(next(m for m in g.legal_moves() if m.from_bit & men))
        assert g.no_progress_left() == 20

    def test_threefold_repetition(self):
        # The kings shuffle on h1-g2 and h7-g8, on diagonals that never meet.
        g = game("W:WK1,9:BK25,24", V)
        for _ in range(2):
            for text in ("1-5", "25-29", "5-1", "29-25"):
                g.play(text)
        assert g.outcome is not None
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION
