"""American pool checkers: one named test per rule of shared/RULES.md.

Squares are PDN numbers (8x8: 1 = b8, 4 = h8, 29 = a1, 32 = g1); White moves up towards 1.
The long diagonal a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4.

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import (
    game,
    is_crowning,
    pdns,
    pos,
    quiet_walk,
    walk_game,
)

from rules.game import GameEndedError
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.variants import POOL, Color

V = POOL


class TestPoolMen:
    def test_men_capture_forward(self):
        assert pdns(pos("W:W18:B14", V)) == ["18x9"]


class TestPoolCaptureRules:
    def test_the_chosen_sequence_must_be_completed(self):
        # The man f6 (11) that reached d8 over e7 must jump on over c7 (6) to b6 (9).
        g = game("W:W11:B7,6,4", V)
        assert pdns(g.position) == ["11x2x9"]
        with pytest.raises(CaptureRequiredError):
            g.play("11x2")

    def test_a_player_never_jumps_own_pieces(self):
        assert not any(m.is_capture for m in pos("W:WK18,14,23:B1", V).legal_moves())


THREE_KINGS = "W:WK1,K2,K3:BK29"


class TestPoolThreeKingsAgainstOne:
    def test_three_kings_must_win_within_13_of_their_moves(self):
        g = game(THREE_KINGS, V)
        assert "3-kings-v-1 count: 13 left" in g.status_line()
        moves = quiet_walk(g.position, 25, g.positions)
        g.play(moves[0])  # White's first move
        assert "3-kings-v-1 count: 12 left" in g.status_line()
        g.play(moves[1])  # Black's moves do not count
        assert "3-kings-v-1 count: 12 left" in g.status_line()
        for m in moves[2:23]:  # up to White's 12th move
            g.play(m)
        assert g.outcome is None
        assert "3-kings-v-1 count: 1 left" in g.status_line()
        g.play(moves[23])  # Black's 12th
        assert g.outcome is None
        g.play(moves[24])  # White's 13th move, not winning
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert g.outcome.winner is None
        assert g.status_line() == "1/2-1/2 three kings against one king not won in 13 moves"
        # Over: nothing more may be played.
        assert g.legal_moves() == []
        with pytest.raises(GameEndedError):
            g.play(g.position.legal_moves()[0])

    def test_a_win_on_the_13th_move_counts(self):
        # 12 moves each (White first), then the lone king steps where it can be taken and White's
        # 13th move takes it: White wins, the count does not turn that into a draw.
        for seed in range(1, 30):
            g = game(THREE_KINGS, V)
            walk_game(g, 23, seed=seed)  # White's 12 moves, Black's 11
            p = g.position
            blunders = [
                m for m in p.legal_moves() if any(r.is_capture for r in p.play(m).legal_moves())
            ]
            if blunders:
                break
        else:  # pragma: no cover - some walk always ends next to a blunder
            pytest.fail("no losing move for the lone king found")
        assert g.turn is Color.BLACK
        g.play(blunders[0])
        assert g.outcome is None
        assert "3-kings-v-1 count: 1 left" in g.status_line()
        g.play(next(m for m in g.legal_moves() if m.is_capture))  # White's 13th move
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is Color.WHITE
        assert g.result() == "1-0"

    def test_the_count_starts_when_the_material_first_appears(self):
        # Two kings and a man on c7 (6) against a king: no count until the man is crowned.
        g = game("W:WK9,K12,6:BK29", V)
        assert "3-kings-v-1" not in g.status_line()
        # 6 king moves, White crowns (3 kings v 1 from there), then 13 moves each.
        moves = quiet_walk(g.position, 33, g.positions, special={6: is_crowning})
        for m in moves[:6]:
            g.play(m)
        assert "3-kings-v-1" not in g.status_line()
        g.play(moves[6])
        assert "3-kings-v-1 count: 13 left" in g.status_line()
        for m in moves[7:32]:  # Black's 13 moves and White's 12
            g.play(m)
        assert g.outcome is None
        assert "3-kings-v-1 count: 1 left" in g.status_line()
        g.play(moves[32])  # White's 13th move with three kings
        assert g.outcome.termination is Termination.ENDGAME_COUNT

    def test_the_rule_does_not_apply_to_other_material(self):
        # Three kings against a king and a man, and two kings against one: no count.
        assert "3-kings-v-1" not in game("W:WK1,K2,K3:BK29,28", V).status_line()
        assert "3-kings-v-1" not in game("W:WK1,K2:BK29", V).status_line()
        assert "3-kings-v-1" not in game("W:WK1,K2,K3,30:BK29", V).status_line()
        # The black side can be the strong one too.
        assert "3-kings-v-1 count: 13 left" in game("W:WK32:BK1,K2,K3", V).status_line()
