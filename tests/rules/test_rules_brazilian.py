"""Brazilian draughts: international rules on 8x8 (shared/RULES.md, stretch variants).

White first, men capture backward, flying kings, majority rule, dead pieces as a barrier,
crowning only at the end of the move, FMJD draw rules.  Squares are PDN numbers (8x8: 1 = b8,
4 = h8, 29 = a1, 32 = g1); the long diagonal a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4.

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import game, pdns, pos, walk_but_last

from rules.outcome import Termination
from rules.variants import BRAZILIAN, INTERNATIONAL

V = BRAZILIAN


class TestBrazilianBoardAndStart:
    def test_international_rules_as_data(self):
        # The same rules as international, only the board differs.
        for attribute in (
            "first",
            "men_capture_backward",
            "flying_kings",
            "capture_precedence",
            "crowning",
            "no_progress",
            "endgames",
        ):
            assert getattr(V, attribute) == getattr(INTERNATIONAL, attribute), attribute


class TestBrazilianMajorityRule:
    def test_kings_and_men_count_the_same(self):
        # 27x18x11 takes two men; 22x13x6 takes two kings: both legal.  With only one king to
        # take (22x13), the two men must be taken.
        assert pdns(pos("W:W27,22:B23,15,K17,K9", V)) == ["22x13x6", "27x18x11"]
        assert pdns(pos("W:W27,22:B23,15,K17", V)) == ["27x18x11"]


class TestBrazilianDraws:
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
