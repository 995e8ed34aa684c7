"""Italian draughts (docs/rules/italian.md): the mirrored board (a1 light, square 1 on a8), White
first, men step and capture forwards only and never take a king, kings step one square, and the
capture precedence in the federation's order: the most pieces, then with a king, then the most
kings, then the kings met first.

The positions and the moves each must allow are the federation rulebook's examples as Rein
Halbersma's dctl tests them (github.com/rhalbersma/dctl, commit
21869018f9ae0c2551db4eb28c7733632faf4e97, test/src/core/model/italian.cpp); dctl writes the
short capture form (``30x05``), the tests here the full landing path.
"""

from __future__ import annotations

import pytest
from support.rules_support import find, pdns, pos

from rules.position import WHITE_KING
from rules.variants import ENGLISH, ITALIAN

V = ITALIAN


class TestItalianBoard:
    def test_square_one_is_the_top_left_corner_and_a1_is_light(self):
        g = V.geometry
        assert (g.names[1], g.names[4], g.names[5], g.names[29], g.names[32]) == (
            "a8",
            "g8",
            "b7",
            "b1",
            "h1",
        )
        assert "a1" not in g.square_by_name and "h1" in g.square_by_name
        # English keeps a1 playable: the same numbers stand on other squares.
        assert ENGLISH.geometry.names[1] == "b8" and "a1" in ENGLISH.geometry.square_by_name

    def test_the_start(self):
        start = pos(V.start_fen, V)
        assert V.start_fen == "W:W" + ",".join(map(str, range(21, 33))) + ":B" + ",".join(
            map(str, range(1, 13))
        )
        assert start.turn.label == "white"


class TestItalianCaptures:
    def test_a_man_captures_forwards(self):
        assert pdns(pos("W:W30:B27", V)) == ["30x23"]

    def test_a_man_never_takes_a_king(self):
        # The same man, a king in front of it: no capture, it steps (or the king is left).
        assert all(not m.is_capture for m in pos("W:W30:BK27", V).legal_moves())

    def test_a_king_steps_and_captures_one_square_in_every_direction(self):
        assert pdns(pos("W:WK22:B18,19,27", V)) == ["22x13", "22x15", "22x31"]

    def test_with_a_king_rather_than_a_man(self):
        # King 23 and man 31 can each take one piece: the king must.
        assert pdns(pos("W:WK23,31:B19,26,27", V)) == ["23x30x21"]

    def test_the_most_kings(self):
        # One man or one king: the king.
        assert pdns(pos("W:WK23:B19,K28", V)) == ["23x32"]

    def test_the_kings_met_first(self):
        # Three pieces either way, one of them a king: the line that meets the king first.
        assert pdns(pos("W:WK30:B10,12,18,K20,K26,27", V)) == ["30x21x14x5"]

    def test_equal_in_every_way_is_a_free_choice(self):
        assert pdns(pos("W:WK31:B18,20,K27,K28", V)) == ["31x22x13", "31x24x15"]

    def test_the_most_pieces_come_first(self):
        # A man taking two before a king taking one.
        p = pos("W:W30,K32:B27,19,28", V)
        assert [len(m.captured) for m in p.legal_moves()] == [2]


class TestItalianCrowning:
    @pytest.mark.parametrize(
        ("fen", "text", "end"), [("W:W6:B1", "6-2", 2), ("W:W10:B6,K2", "10x3", 3)]
    )
    def test_a_man_reaching_the_far_row_is_crowned_and_stops(self, fen, text, end):
        # d7 (6) steps to c8 (2); c6 (10) takes d7 and lands on e8 (3), crowned, and stops.
        p = pos(fen, V)
        move = find(p, text)
        assert move.crowns
        assert p.play(move).piece_at(end) == WHITE_KING
