"""English draughts / American checkers: one named test per rule of shared/RULES.md.

Squares are PDN numbers (8x8: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1); White moves up towards
square 1, Black down.  Each hand-made position names its squares in algebraic form too.

The rules this variant shares with others (with its own data) are checked once for all of
them in ``test_rules_common.py``; this file keeps what is its own.
"""

from __future__ import annotations

import pytest
from support.rules_support import (
    game,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_game,
)

from rules.game import DrawOfferError, Game
from rules.outcome import Termination
from rules.variants import ENGLISH, Color

V = ENGLISH


class TestEnglishMovement:
    def test_free_choice_among_captures_shorter_sequence_allowed(self):
        # One piece, two branches of different length: d4 (18) takes c5 (14) and stops on b6
        # (9), or takes e5 (15) to f6 (11) and e7 (7) to d8 (2).  (Two pieces or one by
        # different men: test_rules_common.)
        p = pos("W:W18:B14,15,7", V)
        assert pdns(p) == ["18x11x2", "18x9"]
        assert {m.pdn(): len(m.captured) for m in p.legal_moves()} == {"18x11x2": 2, "18x9": 1}

    def test_new_king_captures_on_its_next_turn(self):
        # After 11x2 the king on d8 (2) stands next to the black man c7 (6): once Black has
        # moved elsewhere, the capture 2x9 is White's compulsory move.
        g = game("W:W11:B7,6,4", V)
        g.play("11x2")
        g.play("4-8")
        assert pdns(g.position) == ["2x9"]


class TestEnglishGameEnd:
    def test_draw_by_agreement(self):
        g = Game(V)
        g.play("11-15")
        g.offer_draw(Color.BLACK)  # offered while it is White's turn
        assert "draw offered by black" in g.status_line()
        g.accept_draw(Color.WHITE)
        assert g.outcome.termination is Termination.AGREEMENT
        assert g.outcome.winner is None
        assert g.result() == "1/2-1/2"
        assert g.status_line() == "1/2-1/2 draw by agreement"

    def test_accepting_without_an_offer_is_refused(self):
        g = Game(V)
        with pytest.raises(DrawOfferError):
            g.accept_draw(Color.WHITE)
        g.offer_draw(Color.BLACK)
        with pytest.raises(DrawOfferError):
            g.accept_draw(Color.BLACK)  # one's own offer
        assert g.outcome is None


# Kings shuffle in these positions; the men stand where they can step without being taken.
QUIET = "B:WK29,K30,28:BK1,K2,5"


class TestEnglishRepetitionAndNoProgress:
    def test_threefold_repetition_draws(self):
        # Black king h8 (4) and White king a1 (29) shuffle: h8-g7, a1-b2, g7-h8, b2-a1 twice.
        g = game("B:WK29:BK4", V)
        shuffle = ["4-8", "29-25", "8-4", "25-29"]
        for text in shuffle:
            g.play(text)
        assert g.repetitions() == 2
        assert "position repeated (2 of 3)" in g.status_line()
        for text in shuffle[:3]:
            g.play(text)
        assert g.outcome is None
        g.play(shuffle[3])
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION
        assert g.outcome.winner is None
        assert g.status_line() == "1/2-1/2 threefold repetition"


def _decline_then(fen: str, offerer: Color) -> Game:
    g = game(fen, V)
    g.offer_draw(offerer)
    g.decline_draw(offerer.other)
    return g


def _decliner_moves(g: Game, n: int) -> list:
    """Quiet moves until the decliner has made ``n`` moves, with one man move on the way (by a
    side that has men) so that the no-progress count cannot end the game first.  Returns the
    walk; plays all but its last move."""
    decliner = g.advantage_count.side
    plies = 2 * n if g.turn is not decliner else 2 * n - 1
    has_men = [c for c in Color if g.position.men_of(c)]
    man_ply = next(
        i for i in range(20, plies) if (g.turn if i % 2 == 0 else g.turn.other) in has_men
    )
    moves = quiet_walk(g.position, plies, g.positions, special={man_ply: is_man_move})
    for m in moves[:-1]:
        g.play(m)
    return moves


class TestEnglishFortyMoveRule:
    def test_declining_an_offer_starts_a_40_move_count_shown_in_the_status_line(self):
        g = game(QUIET, V)
        assert g.advantage_moves_left() is None
        assert "40-move count" not in g.status_line()
        g.offer_draw(Color.BLACK)
        g.decline_draw(Color.WHITE)
        assert g.advantage_moves_left() == 40
        assert g.status_line().startswith("ongoing; 40-move count: 40 left")

    def test_the_count_runs_on_the_decliners_moves_only(self):
        g = _decline_then(QUIET, Color.BLACK)  # White declined; Black is to move
        walk_game(g, 1)  # Black's move
        assert g.advantage_moves_left() == 40
        walk_game(g, 1)  # White's move
        assert g.advantage_moves_left() == 39
        assert "40-move count: 39 left" in g.status_line()
        walk_game(g, 2)
        assert g.advantage_moves_left() == 38

    def test_decliner_who_is_not_ahead_gets_a_draw_after_40_moves(self):
        # Equal material: two kings and a man each.
        g = _decline_then(QUIET, Color.BLACK)
        last = _decliner_moves(g, 40)[-1]
        assert g.outcome is None
        assert g.advantage_moves_left() == 1
        assert "40-move count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.NO_DECISIVE_ADVANTAGE
        assert g.outcome.winner is None
        assert g.result() == "1/2-1/2"

    def test_decliner_who_is_ahead_in_pieces_plays_on_and_the_count_ends(self):
        # White (the decliner) has three pieces against two.
        g = _decline_then("B:WK29,K30,28:BK1,5", Color.BLACK)
        last = _decliner_moves(g, 40)[-1]
        g.play(last)
        assert g.outcome is None
        assert g.advantage_moves_left() is None
        assert "40-move count" not in g.status_line()

    def test_black_decliner_count_and_adjudication(self):
        # White offers while Black is to move; Black declines and has more pieces.
        g = _decline_then("B:WK29,28:BK1,K2,5", Color.WHITE)
        assert g.advantage_count.side is Color.BLACK
        walk_game(g, 1)
        assert g.advantage_moves_left() == 39
        last = _decliner_moves(g, 39)[-1]
        g.play(last)
        assert g.outcome is None
        assert g.advantage_moves_left() is None

    @pytest.mark.parametrize(
        ("fen", "goes_on"),
        [
            # Same number of pieces, more kings: a decisive advantage (tie-break of seed 001).
            ("B:WK29,K30,K31:BK1,K2,5", True),
            # Same number of pieces, fewer kings: no advantage.
            ("B:WK29,K30,28:BK1,K2,K3", False),
            # More pieces but fewer kings: pieces come first.
            ("B:WK29,27,28:BK1,K2", True),
            # Fewer pieces, more kings.
            ("B:WK29,K30:BK1,9,12", False),
        ],
        ids=["more-kings", "fewer-kings", "more-pieces-fewer-kings", "fewer-pieces"],
    )
    def test_adjudication_tie_break_on_kings(self, fen, goes_on):
        g = _decline_then(fen, Color.BLACK)
        last = _decliner_moves(g, 40)[-1]
        g.play(last)
        if goes_on:
            assert g.outcome is None
            assert g.advantage_moves_left() is None
        else:
            assert g.outcome.termination is Termination.NO_DECISIVE_ADVANTAGE

    def test_a_later_offer_starts_a_new_count(self):
        g = _decline_then("B:WK29,K30,28:BK1,5", Color.BLACK)
        g.play(_decliner_moves(g, 40)[-1])
        assert g.advantage_moves_left() is None
        g.offer_draw(Color.BLACK)
        g.decline_draw(Color.WHITE)
        assert g.advantage_moves_left() == 40

    def test_a_second_decline_does_not_restart_a_running_count(self):
        g = _decline_then(QUIET, Color.BLACK)
        walk_game(g, 10)
        assert g.advantage_moves_left() == 35
        g.offer_draw(Color.BLACK)
        g.decline_draw(Color.WHITE)
        assert g.advantage_moves_left() == 35

    def test_moving_instead_of_answering_an_offer_declines_it(self):
        g = game(QUIET, V)
        g.offer_draw(Color.WHITE)  # Black is to move
        walk_game(g, 1)  # Black plays on
        assert g.draw_offer is None
        assert g.advantage_count.side is Color.BLACK
        # The move that declined is the decliner's first counted move.
        assert g.advantage_moves_left() == 39
        with pytest.raises(DrawOfferError):
            g.accept_draw(Color.BLACK)

    def test_the_offerer_moving_keeps_the_offer(self):
        g = game(QUIET, V)
        g.offer_draw(Color.BLACK)  # Black offers, then plays its move
        walk_game(g, 1)
        assert g.draw_offer is Color.BLACK
        assert g.advantage_moves_left() is None
        walk_game(g, 1)  # White plays on: declined
        assert g.draw_offer is None
        assert g.advantage_moves_left() == 39

    def test_the_count_survives_a_round_trip(self):
        g = _decline_then(QUIET, Color.BLACK)
        walk_game(g, 6)
        copy = Game.from_dict(g.to_dict())
        assert copy.advantage_moves_left() == g.advantage_moves_left() == 37
        assert copy.status_line() == g.status_line()
