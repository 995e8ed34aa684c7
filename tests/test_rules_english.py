"""English draughts / American checkers: one named test per rule of shared/RULES.md.

Squares are PDN numbers (8x8: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1); White moves up towards
square 1, Black down.  Each hand-made position names its squares in algebraic form too.
"""

from __future__ import annotations

import pytest
from rules_support import (
    blunder_and_capture,
    find,
    game,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_but_last,
    walk_game,
)

from rules.game import DrawOfferError, Game, GameOverError
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import ENGLISH, Color

V = ENGLISH


class TestEnglishBoardAndStart:
    def test_board_is_8x8_with_12_men_each_on_the_three_nearest_rows(self):
        start = Position.start(V)
        assert V.size == 8
        assert V.geometry.squares == 32
        assert start.squares(start.black_men) == list(range(1, 13))
        assert start.squares(start.white_men) == list(range(21, 33))
        assert start.white_kings == start.black_kings == 0
        # a1 (29) is a dark square at White's near left; b8 (1), h8 (4), g1 (32).
        assert V.geometry.names[29] == "a1"
        assert V.geometry.names[1] == "b8"
        assert V.geometry.names[4] == "h8"
        assert V.geometry.names[32] == "g1"

    def test_black_moves_first(self):
        start = Position.start(V)
        assert start.turn is Color.BLACK
        assert pdns(start) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
        assert Game(V).turn is Color.BLACK


class TestEnglishMovement:
    def test_men_step_diagonally_forward_only(self):
        # White man d4 (18) alone: c5 (14) and e5 (15), never back to c3/e3.
        assert pdns(pos("W:W18:B1", V)) == ["18-14", "18-15"]
        # Black man d4 (18): c3 (22) and e3 (23).
        assert pdns(pos("B:W32:B18", V)) == ["18-22", "18-23"]

    def test_men_capture_forward_only(self):
        # White man d4 (18), black men behind it on c3 (22) and e3 (23) with b2/f2 free: no
        # capture, only the forward steps.
        assert pdns(pos("W:W18:B22,23", V)) == ["18-14", "18-15"]
        # A black man in front, on c5 (14) with b6 (9) free, must be taken.
        assert pdns(pos("W:W18:B14,23", V)) == ["18x9"]

    def test_kings_step_one_square_in_all_four_directions(self):
        # King d4 (18) on an otherwise empty board: c5, e5, c3, e3 -- not b6, f6, b2, f2.
        assert pdns(pos("W:WK18:B1", V)) == ["18-14", "18-15", "18-22", "18-23"]
        assert pdns(pos("B:W32:BK18", V)) == ["18-14", "18-15", "18-22", "18-23"]

    def test_kings_capture_one_square_in_all_four_directions_and_do_not_fly(self):
        # King d4 (18) with a black man on e3 (23) behind it: captures backwards to f2 (27).
        assert pdns(pos("W:WK18:B23", V)) == ["18x27"]
        # King a1 (29) with a black man on e5 (15) far along the diagonal: no flying capture.
        assert pdns(pos("W:WK29:B15", V)) == ["29-25"]
        # King d4 with men on all four sides and all landing squares free: four captures.
        assert pdns(pos("W:WK18:B14,15,22,23", V)) == ["18x11", "18x25", "18x27", "18x9"]

    def test_men_may_capture_kings(self):
        # White man c3 (22) takes the black king on d4 (18), landing on e5 (15).
        p = pos("W:W22:BK18", V)
        assert pdns(p) == ["22x15"]
        after = p.play(find(p, "22x15"))
        assert after.piece_at(18) == EMPTY
        assert after.piece_at(15) == WHITE_MAN
        # And a black man takes a white king.
        assert pdns(pos("B:WK22:B18", V)) == ["18x25"]

    def test_free_choice_among_captures_shorter_sequence_allowed(self):
        # White man f2 (27) can take e3 and c5 (27x18x9, two pieces) or g3 (27x20, one); the
        # man h2 (28) can take g3 (28x19, one).  All are legal: the longest is not compulsory.
        p = pos("W:W27,28:B23,14,24", V)
        assert pdns(p) == ["27x18x9", "27x20", "28x19"]
        # One piece, two branches of different length: d4 (18) takes c5 (14) and stops on b6
        # (9), or takes e5 (15) to f6 (11) and e7 (7) to d8 (2).
        p = pos("W:W18:B14,15,7", V)
        assert pdns(p) == ["18x11x2", "18x9"]
        assert {m.pdn(): len(m.captured) for m in p.legal_moves()} == {"18x11x2": 2, "18x9": 1}

    def test_man_reaching_the_far_row_is_crowned_and_the_move_ends_there(self):
        # White man f6 (11) takes e7 (7) and lands on d8 (2).  As a king it could go on over c7
        # (6) to b6 (9), but the move ends on the far row.
        p = pos("W:W11:B7,6", V)
        assert pdns(p) == ["11x2"]
        move = find(p, "11x2")
        assert move.crowns
        after = p.play(move)
        assert after.piece_at(2) == WHITE_KING
        assert after.piece_at(6) == BLACK_MAN
        assert after.turn is Color.BLACK

    def test_new_king_captures_on_its_next_turn(self):
        # After 11x2 the king on d8 (2) stands next to the black man c7 (6): once Black has
        # moved elsewhere, the capture 2x9 is White's compulsory move.
        g = game("W:W11:B7,6,4", V)
        g.play("11x2")
        g.play("4-8")
        assert pdns(g.position) == ["2x9"]

    def test_crowning_by_a_step(self):
        # White man c7 (6) steps to b8 (1) or d8 (2) and is crowned; so is a black man stepping
        # from f2 (27) to e1 (31) or g1 (32).
        p = pos("W:W6:B27", V)
        assert all(m.crowns for m in p.legal_moves())
        assert p.play(find(p, "6-1")).piece_at(1) == WHITE_KING
        p = pos("B:W6:B27", V)
        assert pdns(p) == ["27-31", "27-32"]
        assert p.play(find(p, "27-32")).piece_at(32) == BLACK_KING


class TestEnglishCaptureRules:
    def test_capture_is_compulsory(self):
        # White men c3 (22), e3 (23), g3 (24); black man d4 (18): 22x15 and 23x14 are the only
        # legal moves, and a step is refused with the captures listed.
        g = game("W:W22,23,24:B18", V)
        assert pdns(g.position) == ["22x15", "23x14"]
        with pytest.raises(CaptureRequiredError) as info:
            g.play("24-20")
        assert str(info.value) == "a capture is compulsory: 22x15 or 23x14"
        assert sorted(m.pdn() for m in info.value.legal) == ["22x15", "23x14"]
        assert g.ply == 0  # nothing changed

    def test_multi_jump_must_be_completed(self):
        # White man f2 (27) takes e3 (23) to d4 (18) and must go on over e5 (15) to f6 (11).
        g = game("W:W27:B23,15,1", V)
        assert pdns(g.position) == ["27x18x11"]
        move = g.legal_moves()[0]
        assert move.captured == (23, 15)
        with pytest.raises(CaptureRequiredError):
            g.play("27x18")
        g.play("27x11")
        assert g.position.piece_at(23) == g.position.piece_at(15) == EMPTY

    def test_a_piece_may_not_be_jumped_twice(self):
        # King c3 (22) inside a ring of black men d4 (18), f4 (19), f2 (27), d2 (26): it takes
        # all four and comes back to c3, but may not take d4 a second time.
        p = pos("W:WK22:B18,19,27,26", V)
        assert pdns(p) == ["22x15x24x31x22", "22x31x24x15x22"]
        for m in p.legal_moves():
            assert len(m.captured) == len(set(m.captured)) == 4
        after = p.play(find(p, "22x15x24x31x22"))
        assert after.piece_at(22) == WHITE_KING
        assert not after.pieces_of(Color.BLACK)

    def test_a_player_never_jumps_own_pieces(self):
        # White king d4 (18) next to its own men c5 (14) and e3 (23), both with free squares
        # beyond (b6, f2): no capture, only steps.
        p = pos("W:WK18,14,23:B1", V)
        assert pdns(p) == ["14-10", "14-9", "18-15", "18-22", "23-19"]


class TestEnglishGameEnd:
    def test_player_without_pieces_loses(self):
        g = game("W:W22:B18", V)
        g.play("22x15")
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is Color.WHITE
        assert g.result() == "1-0"
        assert g.status_line() == "1-0 no pieces left"
        g = game("B:W22:B18", V)
        g.play("18x25")
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is Color.BLACK
        assert g.result() == "0-1"

    def test_player_without_legal_moves_loses(self):
        # Black man a3 (21) is blocked by b2 (25) with c1 (30) behind it.  White plays g3-h4.
        g = game("W:W25,30,24:B21", V)
        g.play("24-20")
        assert pdns(g.position) == []
        assert g.outcome.termination is Termination.NO_MOVES
        assert g.outcome.winner is Color.WHITE
        assert g.status_line() == "1-0 no legal moves"
        # A start position without a legal move is lost at once.
        blocked = game("B:W25,30:B21", V)
        assert blocked.outcome.termination is Termination.NO_MOVES
        assert blocked.outcome.winner is Color.WHITE

    def test_resignation_at_any_time(self):
        g = Game(V)
        g.resign(Color.WHITE)  # not White's turn: still allowed
        assert g.outcome.termination is Termination.RESIGNATION
        assert g.outcome.winner is Color.BLACK
        assert g.result() == "0-1"
        with pytest.raises(GameOverError):
            g.play("11-15")

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

    def test_no_progress_draw_after_40_moves_each_without_man_move_or_capture(self):
        g = game(QUIET, V)
        last = walk_but_last(g, 80)
        assert g.outcome is None
        assert "no-progress count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS
        assert g.outcome.winner is None
        assert g.status_line() == "1/2-1/2 40 moves each without a man move or capture"

    def test_a_man_move_resets_the_no_progress_count(self):
        g = game(QUIET, V)
        # 50 king moves, a man move (Black's, a7-b6), then 79 king moves: still going.
        moves = quiet_walk(g.position, 131, g.positions, special={50: is_man_move})
        for m in moves[:130]:
            g.play(m)
        assert g.outcome is None, g.status_line()
        assert g.no_progress_left() == 1
        g.play(moves[130])
        assert g.outcome.termination is Termination.NO_PROGRESS

    def test_a_capture_resets_the_no_progress_count(self):
        g = game("B:WK29,K30,K31,28:BK1,K2,K3,5", V)
        blunder_and_capture(g, 60)
        assert g.no_progress_left() == 40
        last = walk_but_last(g, 80)
        assert g.outcome is None
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS


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
