"""Russian draughts (shared/RULES.md, stretch variants; draw rules as defined in RUSSIAN).

White first, men capture backward, flying kings, free choice among captures, captured pieces
removed at the end (a barrier until then), and a man reaching the far row during a capture is
crowned at once and continues the same capture as a king.  Squares are PDN numbers (8x8: 1 = b8,
4 = h8, 29 = a1, 32 = g1).

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import (
    find,
    game,
    is_crowning,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_but_last,
)

from rules.outcome import Termination
from rules.position import BLACK_KING, EMPTY, WHITE_KING
from rules.variants import RUSSIAN

V = RUSSIAN


class TestRussianCaptureRules:
    def test_free_choice_among_captures(self):
        # One king or two men: both legal (one piece or two from different men: in
        # test_rules_common).
        assert pdns(pos("W:W27,22:B23,15,K17", V)) == ["22x13", "27x18x11"]

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


# Eight pieces: no endgame count applies.


class TestRussianDraws:
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
