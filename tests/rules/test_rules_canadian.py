"""Canadian draughts (docs/rules/canadian.md): International's rules on a 12x12 board, thirty men
each on the five nearest rows, a playing square in each player's left-hand corner.

12x12 PDN squares: row r (0 = the top, Black's side) holds squares 6r+1..6r+6; 1 = b12, 6 = l12,
67 = a1, 72 = k1.  White starts on 43..72 and moves up.  The long diagonal a1-l12 is 67, 61, 56,
50, 45, 39, 34, 28, 23, 17, 12, 6.  Positions are written with ``sq("c1", ...)`` where the board
is easier to read in coordinates.

The rules it shares with International are International's data (the tests below check that the
copy is exact where it must be); the moves are checked against an independent generator on random
placements in ``test_movegen_reference.py``.
"""

from __future__ import annotations

from support.rules_support import game, pdns, pos

from rules.game import Game
from rules.outcome import Termination
from rules.pdn import read_game, write_game
from rules.perft import perft
from rules.position import Position
from rules.variants import CANADIAN, INTERNATIONAL, Color, find_variant, variant_for_game_type

V = CANADIAN


def sq(*names: str) -> str:
    """PDN numbers of algebraic squares, comma-separated, for building 12x12 FENs."""
    return ",".join(str(V.geometry.square_by_name[n]) for n in names)


class TestCanadianBoardAndStart:
    def test_thirty_men_each_on_the_five_nearest_rows(self):
        start = Position.start(V)
        assert V.size == 12 and V.geometry.squares == 72
        assert start.white_men == V.geometry.mask_of(range(43, 73))
        assert start.black_men == V.geometry.mask_of(range(1, 31))
        assert not start.white_kings and not start.black_kings
        assert start.turn is Color.WHITE

    def test_a_playing_square_in_the_left_corner_and_the_double_corner_on_the_right(self):
        names = V.geometry.names
        assert (names[67], names[72], names[66]) == ("a1", "k1", "l2")
        assert (names[1], names[6]) == ("b12", "l12")

    def test_its_names_and_pdn_game_type(self):
        assert find_variant("Canadian-Checkers") is V
        assert find_variant("12x12") is V
        assert variant_for_game_type(27) is V

    def test_international_draw_rules_and_scores(self):
        assert V.no_progress == INTERNATIONAL.no_progress
        assert V.endgames == INTERNATIONAL.endgames
        assert V.results == ("2-0", "1-1", "0-2")

    def test_published_perft_beyond_the_perft_file(self):
        # The FMJD forum's "Perft on large boards" (kept in rhalbersma/dctl,
        # test/src/ai/traversal/initial/large.cpp): 4369366 at depth 7, where no two capture
        # sequences of one move share their ends and pieces yet (from depth 8 on the published
        # figures merge such sequences; the core's distinct perft checks those).
        assert perft(Position.start(V), 7) == 4_369_366


class TestCanadianMen:
    def test_men_step_diagonally_forwards_only(self):
        assert pdns(pos(f"W:W{sq('f6')}:B{sq('a11')}", V)) == ["39-33", "39-34"]
        assert pdns(pos(f"B:W{sq('a1')}:B{sq('f6')}", V)) == ["39-45", "39-46"]

    def test_men_capture_backwards(self):
        # h6 takes g5 and lands on f4.
        assert pdns(pos(f"W:W{sq('h6')}:B{sq('g5')}", V)) == ["40x51"]

    def test_the_most_pieces_must_be_taken_kings_counting_as_men(self):
        # c5 takes two men (d6, f8); h6 could take the king on i7 alone.
        fen = f"W:W{sq('c5', 'h6')}:B{sq('d6', 'f8')},K{sq('i7')}"
        assert pdns(pos(fen, V)) == ["44x33x22"]
        # With one man to take, the man and the king are equal: either capture.
        assert pdns(pos(f"W:W{sq('c5', 'h6')}:B{sq('d6')},K{sq('i7')}", V)) == ["40x29", "44x33"]

    def test_a_man_passing_the_far_row_mid_capture_stays_a_man(self):
        # b10 x c11 reaches d12 on the far row and must go on x e11 to f10: not crowned.
        p = pos(f"W:W{sq('b10')}:B{sq('c11', 'e11')}", V)
        (move,) = p.legal_moves()
        assert move.pdn() == "13x2x15" and not move.crowns
        after = p.play(move)
        assert after.white_men == V.geometry.mask_of([15]) and not after.white_kings

    def test_a_man_ending_on_the_far_row_is_crowned(self):
        p = pos(f"W:W{sq('c11')}:B{sq('a3')}", V)
        assert sorted((m.pdn(), m.crowns) for m in p.legal_moves()) == [
            ("8-1", True),
            ("8-2", True),
        ]


class TestCanadianKings:
    def test_a_king_flies_the_whole_long_diagonal(self):
        moves = pdns(pos(f"W:WK{sq('a1')}:B{sq('a11')}", V))
        assert len(moves) == 11
        assert "67-6" in moves  # a1 to l12

    def test_a_king_captures_from_afar_and_lands_on_any_free_square_beyond(self):
        # a1 takes f6 and lands anywhere from g7 to l12.
        assert pdns(pos(f"W:WK{sq('a1')}:B{sq('f6')}", V)) == [
            "67x12", "67x17", "67x23", "67x28", "67x34", "67x6"
        ]  # fmt: skip

    def test_a_long_capture_across_the_board(self):
        # a1 takes g7, i11, f10, c5 and k9 (landing on j10, h12, b6, e3, l10): five of the six
        # men, the only move; g9 stays, as no route takes it too.
        (move,) = pos("W:WK67:B44,11,34,24,22,15", V).legal_moves()
        assert move.pdn() == "67x17x4x37x57x18"
        assert move.captured == (34, 11, 15, 44, 24)


class TestCanadianGames:
    def test_threefold_repetition_draws_with_international_scores(self):
        g = game(f"W:WK{sq('a1')},{sq('a3')}:BK{sq('b12')},{sq('l10')}", V)
        shuffle = ["67-61", "1-7", "61-67", "7-1"]
        for text in shuffle * 2:
            assert g.outcome is None
            g.play(text)
        assert g.outcome is not None
        assert g.outcome.termination is Termination.THREEFOLD_REPETITION
        assert g.result() == "1-1"

    def test_the_record_round_trips_with_game_type_27(self):
        g = Game(V, Position.start(V))
        for text in ("46-40", "28-34", "45-39", "34x45", "50x39"):
            g.play(text)
        text = write_game(g, {"White": "Ann", "Black": "Bob"})
        assert '[GameType "27"]' in text
        read = read_game(text)
        assert read.game.variant is V and read.game.position == g.position
