"""German Dame (Brettspielnetz): one named test per rule of shared/RULES.md.

Movement, captures and crowning are those of english; the draw rules differ: 25 moves each
without a capture or a crowning (man moves do not count as progress), and no 40-move count after
a declined offer.  Squares are PDN numbers (8x8: 1 = b8, 29 = a1).

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

from support.rules_support import (
    game,
    is_crowning,
    is_man_move,
    quiet_walk,
    walk_game,
)

from rules.outcome import Termination
from rules.position import WHITE_KING
from rules.variants import DAME, Color

V = DAME


# Two kings and two men each; the men can step without crowning for a while.
QUIET = "B:WK29,K30,27,28:BK1,K2,5,6"


class TestDameDraws:
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
