"""Turkish draughts (docs/rules/turkish.md): all 64 squares, moves along rows and columns, sixteen
men each on the second and third rows, men that step and capture forwards and sideways, kings
that fly like rooks, captured pieces removed at once, no 180° turn within a capture, the most
pieces (kings and men alike), a man crowned only where its move ends, and the draw with one
piece each.  Positions here are written in coordinates (White's a1 at the bottom left); PDN
numbers the squares 1 (a8) to 64 (h1) row by row, as the board's plates show:

    8   1  2  3  4  5  6  7  8
    7   9 10 11 12 13 14 15 16
    ...
    1  57 58 59 60 61 62 63 64
        a  b  c  d  e  f  g  h

What Turkish shares with other variants (with its own data) is checked for every variant in
``test_rules_common.py`` and ``test_movegen_reference.py``; this file keeps what is its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from support.rules_support import pdn_after

from rules.game import Game
from rules.notation import show_move
from rules.outcome import Termination
from rules.perft import perft
from rules.position import WHITE_KING, WHITE_MAN, Position
from rules.variants import TURKISH, Color, Crowning, Variant

V = TURKISH


def at(*names: str) -> tuple[int, ...]:
    return tuple(V.geometry.square_by_name[name] for name in names)


def board(
    turn: Color = Color.WHITE,
    white: tuple[str, ...] = (),
    white_kings: tuple[str, ...] = (),
    black: tuple[str, ...] = (),
    black_kings: tuple[str, ...] = (),
    variant: Variant = V,
) -> Position:
    return Position.from_squares(
        variant, turn, at(*white), at(*white_kings), at(*black), at(*black_kings)
    )


def moves(position: Position) -> set[str]:
    """The legal moves in coordinates, full landing paths (``a1xa5xf5``)."""
    return {show_move(m, V, "algebraic") for m in position.legal_moves()}


class TestStartAndNumbering:
    def test_sixteen_men_each_on_the_second_and_third_rows(self):
        start = Position.start(V)
        ranks = {2: Color.WHITE, 3: Color.WHITE, 6: Color.BLACK, 7: Color.BLACK}
        for square in range(1, 65):
            name = V.geometry.names[square]
            assert start.color_at(square) == ranks.get(int(name[1])), name
        assert start.turn is Color.WHITE
        assert start.fen() == V.start_fen

    def test_squares_are_numbered_from_a8_row_by_row(self):
        g = V.geometry
        assert [g.names[s] for s in (1, 8, 9, 57, 64)] == ["a8", "h8", "a7", "a1", "h1"]
        assert g.squares == 64 and g.orthogonal

    def test_the_first_moves_are_the_eight_steps_forwards(self):
        # Sideways steps from the third row are blocked by the neighbours there.
        assert moves(Position.start(V)) == {f"{f}3-{f}4" for f in "abcdefgh"}

    def test_perft_equals_kish(self):
        # Sanavesa/kish examples/perft.rs lines 22-36 (depths 1-8: 8, 64, 708, 7538, 85090,
        # 931312, 10782382, 123290300); the core checks the deeper ones (tests/engine).
        start = Position.start(V)
        assert [perft(start, d) for d in range(1, 6)] == [8, 64, 708, 7538, 85090]

    def test_pdn_writes_game_type_30_in_these_numbers(self):
        written = pdn_after(V, ("d3-d4", "d6-d5", "d4xd8"))
        assert '[GameType "30"]' in written
        assert "1. 44-36 20-28 2. 36x20x4" in written


class TestMen:
    def test_men_step_forwards_and_sideways_never_back_or_diagonally(self):
        assert moves(board(white=("d4",), black=("h8",))) == {"d4-d5", "d4-c4", "d4-e4"}
        assert moves(board(Color.BLACK, white=("a1",), black=("d4",))) == {
            "d4-d3",
            "d4-c4",
            "d4-e4",
        }

    def test_men_capture_forwards_and_sideways_not_backwards(self):
        p = board(white=("d4",), black=("d5", "c4", "e4", "d3"))
        assert moves(p) == {"d4xd6", "d4xb4", "d4xf4"}

    def test_a_man_goes_on_capturing_after_a_turn(self):
        # Up over b3, then right over c4 and e4: three pieces, the most, so the only move.
        p = board(white=("b2",), black=("b3", "c4", "e4", "h8"))
        assert moves(p) == {"b2xb4xd4xf4"}


class TestKings:
    def test_kings_move_like_rooks(self):
        p = board(white_kings=("d4",), white=("d6", "b4"), black=("h8",))
        assert moves(p) - {"d6-d7", "d6-c6", "d6-e6", "b4-b5", "b4-a4", "b4-c4"} == {
            "d4-d5",
            "d4-c4",
            "d4-e4",
            "d4-f4",
            "d4-g4",
            "d4-h4",
            "d4-d3",
            "d4-d2",
            "d4-d1",
        }

    def test_a_king_takes_from_afar_and_lands_on_any_square_beyond(self):
        p = board(white_kings=("a1",), black=("a4",), black_kings=("h8",))
        assert moves(p) == {"a1xa5", "a1xa6", "a1xa7", "a1xa8"}

    def test_the_king_turns_a_quarter_at_each_piece(self):
        p = board(white_kings=("a1",), white=("b3",), black=("a4", "d5", "f6", "e7", "b6"))
        assert moves(p) == {
            "a1xa5xf5xf7xb7xb5",
            "a1xa5xf5xf7xb7xb4",
            "a1xa7xf7xf5xb5xb7",
            "a1xa7xf7xf5xb5xb8",
        }


class TestCapturedPiecesLeaveAtOnce:
    PIECES = ("c3", "e5", "c6", "b4", "g3")

    def test_a_king_crosses_the_square_of_a_piece_it_took(self):
        # Right over c3, up over e5, left over c6, down over b4, then right along the third row
        # again, over c3's square (empty since it was taken), to take g3.
        p = board(white_kings=("a3",), black=self.PIECES)
        assert moves(p) == {"a3xe3xe6xb6xb3xh3"}
        # Where captured pieces stayed until the move ended, c3 would bar the last leg.
        kept = replace(V, key="kept", captures_removed_at_once=False)
        longest = max(
            len(m.captured)
            for m in board(white_kings=("a3",), black=self.PIECES, variant=kept).legal_moves()
        )
        assert longest == 4


class TestNoTurningBack:
    def test_a_capturing_king_may_not_reverse(self):
        # Up over d6, then back down over d5, d4, d3 (its own square, now empty) to d2 would be
        # a 180° turn: each direction takes one piece only.
        p = board(white_kings=("d4",), black=("d6", "d2"))
        assert moves(p) == {"d4xd7", "d4xd8", "d4xd1"}
        # Were turning back allowed (as for a Thai king), both pieces would go.
        turning = replace(V, key="turning", king_turns_back=True)
        q = board(white_kings=("d4",), black=("d6", "d2"), variant=turning)
        assert moves(q) == {"d4xd7xd1", "d4xd8xd1", "d4xd1xd7", "d4xd1xd8"}

    def test_a_quarter_turn_is_allowed(self):
        p = board(white_kings=("d4",), black=("d6", "b7"))
        assert moves(p) == {"d4xd7xa7"}


class TestPrecedence:
    def test_the_most_pieces_kings_and_men_alike(self):
        # The man takes two men; the king could take a king, which counts as one piece.
        p = board(white=("a2",), white_kings=("h1",), black=("a3", "a5"), black_kings=("h4",))
        assert moves(p) == {"a2xa4xa6"}

    def test_equal_captures_may_be_chosen_freely(self):
        p = board(white=("a2",), white_kings=("h1",), black=("a3",), black_kings=("h4",))
        assert moves(p) == {"a2xa4", "h1xh5", "h1xh6", "h1xh7", "h1xh8"}


class TestCrowning:
    POSITION: ClassVar[dict[str, tuple[str, ...]]] = {
        "white": ("c6",),
        "black": ("c7", "d8", "e5", "h1"),
    }

    def test_a_man_on_the_far_row_mid_capture_goes_on_as_a_man(self):
        # Up over c7 to c8, then sideways over d8 to e8, crowned there at the end.  A king on e8
        # would fly on down the e-file over e5; the man may not.
        p = board(**self.POSITION)
        (move,) = p.legal_moves()
        assert show_move(move, V, "algebraic") == "c6xc8xe8" and move.crowns
        after = p.play(move)
        assert after.piece_at(at("e8")[0]) == WHITE_KING

    def test_the_other_crowning_rules_would_move_otherwise(self):
        ends = replace(V, key="ends", crowning=Crowning.ENDS_MOVE)
        assert {m.pdn() for m in board(**self.POSITION, variant=ends).legal_moves()} == {"19x3"}
        on = replace(V, key="on", crowning=Crowning.CONTINUES_AS_KING)
        longest = max(len(m.captured) for m in board(**self.POSITION, variant=on).legal_moves())
        assert longest == 3

    def test_a_man_stays_a_man_off_the_far_row(self):
        p = board(white=("c6",), black=("c7", "h1"))
        (move,) = p.legal_moves()
        assert move.crowns
        q = board(white=("c5",), black=("c6", "h1"))
        (move,) = q.legal_moves()
        assert not move.crowns and q.play(move).piece_at(at("c7")[0]) == WHITE_MAN


class TestEnd:
    def test_one_piece_each_is_a_draw(self):
        g = Game(V, board(white=("d4",), black=("d5", "h7")))
        g.play("d4xd6")
        assert g.outcome is not None
        assert g.outcome.termination is Termination.ENDGAME_COUNT
        assert g.outcome.winner is None and g.outcome.detail == "one piece each"

    def test_two_pieces_against_one_play_on(self):
        g = Game(V, board(white=("d4", "a2"), black=("d5", "h7")))
        g.play("d4xd6")
        assert g.outcome is None

    def test_the_side_without_moves_loses(self):
        # Black's man on a2 is blocked by the king below it and the men beside it on b2 and c2
        # (so it cannot take b2 either).
        g = Game(V, board(Color.BLACK, white=("b2", "c2"), white_kings=("a1",), black=("a2",)))
        assert g.outcome is not None
        assert (g.outcome.termination, g.outcome.winner) == (Termination.NO_MOVES, Color.WHITE)
