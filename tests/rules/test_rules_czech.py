"""Czech draughts (docs/rules/czech.md): White first, men step and capture forward only, flying
kings, no majority rule, but when a king can capture a king must.  Squares are PDN numbers (8x8:
1 = b8, 29 = a1); the variant writes moves on coordinates, which these tests do not need.

The rules it shares with others (with its own data) are checked for every variant in
``test_rules_common.py`` and ``test_movegen_reference.py``; this file keeps what is its own.
"""

from __future__ import annotations

from support.rules_support import find, game, pdns, pos

from rules.outcome import Termination
from rules.position import WHITE_KING
from rules.variants import CZECH, RUSSIAN, Color

V = CZECH


class TestCzechCapturePrecedence:
    def test_no_majority_rule_among_the_captures_of_men(self):
        # One king (22x13) or two men (27x18x11): both legal, as in russian.
        assert pdns(pos("W:W27,22:B23,15,K17", V)) == ["22x13", "27x18x11"]

    def test_a_king_that_can_capture_must_be_the_one_to_capture(self):
        # The same men's captures, and a king on c1 (30) that can take e3 (23): only the king's.
        p = pos("W:W27,22,K30:B23,15,K17", V)
        moves = p.legal_moves()
        assert moves and all(m.start == 30 for m in moves), pdns(p)
        # russian has no such rule: there every capture is open.
        assert {m.start for m in pos("W:W27,22,K30:B23,15,K17", RUSSIAN).legal_moves()} == {
            22,
            27,
            30,
        }

    def test_among_the_kings_captures_the_choice_is_free(self):
        # Two kings: a1 (29) takes two men, g1 (32) three; no majority rule, both stay.
        assert pdns(pos("W:WK29,K32:B27,18,10", V)) == [
            "29x15x1",
            "29x15x6",
            "32x23x14x3",
            "32x23x14x7",
        ]

    def test_men_capture_forwards_only(self):
        # A black man behind the white man on 22 cannot be taken (no capture: steps only).
        p = pos("W:W22:B26", V)
        assert all(not m.is_capture for m in p.legal_moves())


class TestCzechCrowningAndEnd:
    def test_a_capture_ending_on_the_far_row_crowns(self):
        p = pos("W:W10:B6", V)
        move = find(p, "10x1")
        assert move.crowns
        assert p.play(move).piece_at(1) == WHITE_KING

    def test_no_move_count_draw(self):
        # Kings shuffling: only repetition or agreement can draw (no no-progress count runs).
        g = game("W:WK29:B4", V)
        assert not g.no_progress_counting()
        assert g.outcome is None

    def test_the_side_without_moves_loses(self):
        g = game("B:W22:B", V)
        assert g.outcome is not None
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_PIECES, Color.WHITE)
