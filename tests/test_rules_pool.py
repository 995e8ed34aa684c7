"""American pool checkers: one named test per rule of shared/RULES.md.

Squares are PDN numbers (8x8: 1 = b8, 4 = h8, 29 = a1, 32 = g1); White moves up towards 1.
The long diagonal a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4.
"""

from __future__ import annotations

import pytest
from rules_support import (
    blunder_and_capture,
    find,
    game,
    is_crowning,
    is_man_move,
    pdns,
    pos,
    quiet_walk,
    walk_but_last,
    walk_game,
)

from rules.game import Game, GameOverError
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import POOL, Color

V = POOL


class TestPoolBoardAndStart:
    def test_board_is_8x8_with_12_men_each(self):
        start = Position.start(V)
        assert V.size == 8
        assert start.squares(start.black_men) == list(range(1, 13))
        assert start.squares(start.white_men) == list(range(21, 33))

    def test_black_moves_first(self):
        start = Position.start(V)
        assert start.turn is Color.BLACK
        assert all(start.color_at(m.start) is Color.BLACK for m in start.legal_moves())
        assert len(start.legal_moves()) == 7


class TestPoolMen:
    def test_men_step_diagonally_forward_one_square_only(self):
        assert pdns(pos("W:W18:B1", V)) == ["18-14", "18-15"]
        assert pdns(pos("B:W32:B18", V)) == ["18-22", "18-23"]

    def test_men_capture_backward(self):
        # White man d4 (18), black man c3 (22) behind it, b2 (25) free: 18x25.
        p = pos("W:W18:B22", V)
        assert pdns(p) == ["18x25"]
        assert p.play(find(p, "18x25")).piece_at(22) == EMPTY
        # Black man d4 takes the white man e5 (15) behind it, landing on f6 (11).
        assert pdns(pos("B:W15:B18", V)) == ["18x11"]

    def test_men_capture_forward(self):
        assert pdns(pos("W:W18:B14", V)) == ["18x9"]


class TestPoolFlyingKings:
    def test_kings_step_any_number_of_free_squares(self):
        # King a1 (29) on the empty long diagonal: b2 .. h8, seven moves.
        assert pdns(pos("W:WK29:B1", V)) == [
            "29-11", "29-15", "29-18", "29-22", "29-25", "29-4", "29-8"
        ]  # fmt: skip
        # An own man on c3 (22) blocks the way.
        assert pdns(pos("W:WK29,22:B1", V)) == ["22-17", "22-18", "29-25"]

    def test_kings_capture_at_a_distance_and_land_on_any_free_square_beyond(self):
        # King a1 (29), black man e5 (15): lands on f6 (11), g7 (8) or h8 (4).
        p = pos("W:WK29:B15,1", V)
        assert pdns(p) == ["29x11", "29x4", "29x8"]
        assert all(m.captured == (15,) for m in p.legal_moves())

    def test_the_squares_between_king_and_victim_must_be_free(self):
        # Own man on c3 (22) between king a1 and black man e5: no capture.
        assert not any(m.is_capture for m in pos("W:WK29,22:B15,1", V).legal_moves())
        # Two black men side by side (d4, e5): cannot be jumped together.
        assert pdns(pos("W:WK29:B18,15,1", V)) == ["29-22", "29-25"]

    def test_a_king_may_change_direction_after_each_jump(self):
        # King c1 (30) takes e3 (23) up-right, turns up-left to take f6 (11), then down-left to
        # take d6 (10): 30x16x7x14 changes direction twice.
        p = pos("W:WK30:B23,11,10,27,1", V)
        m = find(p, "30x16x7x14")
        assert m.captured == (23, 11, 10)

    def test_king_must_land_where_it_can_continue_capturing(self):
        # King c1 (30) takes e3 (23) and may land on f4 (19), g5 (16) or h6 (12); only from g5
        # can it go on (over f6, 11), so it must land there.  After f6 it may stop on e7 (7) or
        # d8 (2): nothing more to take from either.
        p = pos("W:WK30:B23,11,1", V)
        assert pdns(p) == ["30x16x2", "30x16x7"]

    def test_kings_capture_backwards_and_men_capture_kings(self):
        assert pdns(pos("W:WK15:B22,1", V)) == ["15x25", "15x29"]
        assert pdns(pos("W:W22:BK18", V)) == ["22x15"]


class TestPoolCaptureRules:
    def test_capture_is_compulsory(self):
        g = game("W:W22,23,24:B18", V)
        with pytest.raises(CaptureRequiredError) as info:
            g.play("24-20")
        assert str(info.value) == "a capture is compulsory: 22x15 or 23x14"

    def test_free_choice_not_the_longest(self):
        # f2 (27) can take two (27x18x9) or one (27x20); h2 (28) can take two (28x19x26): every
        # sequence is legal, the longest is not compulsory.
        p = pos("W:W27,28:B23,14,24", V)
        assert pdns(p) == ["27x18x9", "27x20", "28x19x26"]

    def test_the_chosen_sequence_must_be_completed(self):
        # The man f6 (11) that reached d8 over e7 must jump on over c7 (6) to b6 (9).
        g = game("W:W11:B7,6,4", V)
        assert pdns(g.position) == ["11x2x9"]
        with pytest.raises(CaptureRequiredError):
            g.play("11x2")

    def test_captured_pieces_stay_as_a_barrier_until_the_move_ends(self):
        # King c1 (30): x e3 (23) -> g5, x f6 (11) -> e7, x d6 (10) -> c5 (14), b4 or a3.  From c5
        # the way down-right to the black man f2 (27) crosses the dead piece on e3: were it gone,
        # 30x16x7x14x32 would take four.  The dead piece blocks, so f2 is never taken.
        p = pos("W:WK30:B23,11,10,27,1", V)
        assert pdns(p) == ["30x16x7x14", "30x16x7x17", "30x16x7x21", "30x19x6"]
        assert all(27 not in m.captured for m in p.legal_moves())
        after = p.play(find(p, "30x16x7x14"))
        assert after.piece_at(27) == BLACK_MAN
        assert after.piece_at(23) == after.piece_at(11) == after.piece_at(10) == EMPTY

    def test_a_piece_may_not_be_jumped_twice(self):
        # Flying king around a ring: it can never take the same piece again.
        for m in pos("W:WK22:B18,19,27,26", V).legal_moves():
            assert len(set(m.captured)) == len(m.captured)

    def test_a_player_never_jumps_own_pieces(self):
        assert not any(m.is_capture for m in pos("W:WK18,14,23:B1", V).legal_moves())


class TestPoolCrowning:
    def test_man_passing_through_the_far_row_during_a_capture_stays_a_man(self):
        # f6 (11) x e7 -> d8 (2), then backward x c7 -> b6 (9): the move ends off the far row.
        p = pos("W:W11:B7,6,4", V)
        move = find(p, "11x2x9")
        assert not move.crowns
        after = p.play(move)
        assert after.piece_at(9) == WHITE_MAN

    def test_man_is_crowned_when_the_move_ends_on_the_far_row(self):
        # f6 (11) x e7 -> d8 (2); b6 (9) is not adjacent, so the man stops there and is crowned
        # (in russian it would fly on as a king: see test_rules_russian).
        p = pos("W:W11:B7,9", V)
        assert pdns(p) == ["11x2"]
        move = find(p, "11x2")
        assert move.crowns
        assert p.play(move).piece_at(2) == WHITE_KING

    def test_crowning_by_a_step(self):
        p = pos("W:W6:B27", V)
        assert pdns(p) == ["6-1", "6-2"]
        assert all(m.crowns for m in p.legal_moves())


class TestPoolGameEnd:
    def test_no_pieces_loses(self):
        g = game("B:W22:B18", V)
        g.play("18x25")
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is Color.BLACK
        assert g.result() == "0-1"

    def test_no_legal_moves_loses(self):
        g = game("W:W25,30,24:B21", V)
        g.play("24-20")
        assert g.outcome.termination is Termination.NO_MOVES
        assert g.outcome.winner is Color.WHITE

    def test_resignation_and_agreement(self):
        g = Game(V)
        g.resign(Color.BLACK)
        assert (g.outcome.termination, g.result()) == (Termination.RESIGNATION, "1-0")
        g = Game(V)
        g.offer_draw(Color.BLACK)
        g.accept_draw(Color.WHITE)
        assert (g.outcome.termination, g.result()) == (Termination.AGREEMENT, "1/2-1/2")
        assert g.advantage_moves_left() is None


QUIET = "B:WK29,K30,27,28:BK1,K2,5,6"


class TestPoolDraws:
    def test_threefold_repetition(self):
        g = game("B:WK29:BK1", V)
        for text in ["1-5", "29-25", "5-1", "25-29"] * 2:
            assert g.outcome is None
            g.play(text)
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION

    def test_25_moves_each_without_man_move_or_capture_draws(self):
        g = game(QUIET, V)
        last = walk_but_last(g, 50)
        assert g.outcome is None
        assert "no-progress count: 1 left" in g.status_line()
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS
        assert g.status_line() == "1/2-1/2 25 moves each without a man move or capture"

    def test_a_man_move_resets_the_count(self):
        g = game(QUIET, V)
        # 31 king moves, a man move, then 50 king moves: the draw comes with the last one.
        moves = quiet_walk(g.position, 82, g.positions, special={31: is_man_move})
        for m in moves[:81]:
            g.play(m)
        assert g.outcome is None
        assert g.no_progress_left() == 1
        g.play(moves[81])
        assert g.outcome.termination is Termination.NO_PROGRESS

    def test_a_capture_resets_the_count(self):
        g = game("B:WK29,K30,K31,28:BK1,K2,K3,5", V)
        blunder_and_capture(g, 20)
        assert g.no_progress_left() == 25
        last = walk_but_last(g, 50)
        assert g.outcome is None
        g.play(last)
        assert g.outcome.termination is Termination.NO_PROGRESS


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
        with pytest.raises(GameOverError):
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
