"""The position: who stands where and who is to move.

A :class:`Position` is immutable and cheap to copy: four ``int`` bitboards (men and kings of each
side, in the internal layout of :mod:`rules.geometry`), the side to move and the variant. Making a
move returns a new position (:meth:`Position.play`), so "unmake" is simply keeping the old one, and
a position can be a dictionary key. A Zobrist hash is maintained incrementally by :meth:`play`; it
is the key for repetition detection and for the engine's transposition table.

Where the variant limits a king's moves in a row (frisian, ``Variant.king_move_limit``), the
position also holds each side's run (:attr:`Position.king_runs`): which king made the side's last
moves and how many non-capturing moves in a row it has made.  It decides the legal moves, so it is
part of the position's identity and key, as the side to move is.

Imports point one way: this module stands on :mod:`rules.movegen` (which works on raw bitboards
and never needs this class) for :meth:`Position.legal_moves`, and writes its own FEN, while
:mod:`rules.fen`, :mod:`rules.notation` and the game record build on it.  So a position can offer
``legal_moves()`` and ``fen()`` without an import inside a function.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from .move import Move
from .movegen import generator
from .variants import Color, Variant

_MAX_BITS = 16 * 16  # enough for every supported board size
_rng = random.Random(0x0D7A_F75)
ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) for _ in range(_MAX_BITS)) for _ in range(4)
)
"""Random keys per piece kind (white man, white king, black man, black king) and internal index."""
ZOBRIST_BLACK_TO_MOVE: int = _rng.getrandbits(64)

KingRuns = tuple[int, int, int, int]
"""``(white king bit, its moves in a row, black king bit, its moves in a row)``: the king each
side last moved without capturing, and how many such moves in a row it has made (0 and 0: none,
or the side has no men, for whom the limit does not hold)."""
NO_RUNS: KingRuns = (0, 0, 0, 0)

_MAX_RUN = 8
_run_rng = random.Random(0x4B1_4E5)  # its own stream: the keys above stay what they were
ZOBRIST_RUN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_run_rng.getrandbits(64) for _ in range(_MAX_BITS)) for _ in range(2 * _MAX_RUN)
)
"""Random keys per side and run length (``side * 8 + run``) and internal index of the king."""


def runs_after(
    runs: KingRuns,
    side: int,
    fb: int,
    tb: int,
    captured: int,
    king_moved: bool,
    white_men: int,
    black_men: int,
) -> KingRuns:
    """The runs after side ``side`` (0 White, 1 Black) moved a piece (a king if ``king_moved``)
    from ``fb`` to ``tb`` taking ``captured``, given the men each side has afterwards: a king's
    non-capturing move lengthens its run (or starts one, when another king made the last), any
    other move ends the mover's run; a side without men, or whose running king was taken, has
    none (lidraughts' Frisian rules, docs/rules/frisian.md; a run that can no longer matter is
    dropped, so that equal positions have equal keys).  :meth:`Position.play` and the reference
    search (``engine/reference/board.py``) keep runs with it; the core has its own in C."""
    new = list(runs)
    at = 2 * side
    if not captured and king_moved:
        new[at : at + 2] = [tb, runs[at + 1] + 1 if runs[at] == fb else 1]
    else:
        new[at : at + 2] = [0, 0]
    if new[2 - at] & captured:
        # The opponent's running king was taken: no king of theirs can continue that run (one
        # that reaches its square later starts a new one).
        new[2 - at : 4 - at] = [0, 0]
    if not white_men:
        new[0:2] = [0, 0]
    if not black_men:
        new[2:4] = [0, 0]
    return (new[0], new[1], new[2], new[3])


def run_key(runs: KingRuns) -> int:
    """The Zobrist keys of both sides' runs, combined (0 when neither side has one)."""
    key = 0
    if runs[1]:
        key ^= ZOBRIST_RUN[runs[1]][runs[0].bit_length() - 1]
    if runs[3]:
        key ^= ZOBRIST_RUN[_MAX_RUN + runs[3]][runs[2].bit_length() - 1]
    return key


EMPTY, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = 0, 1, 2, 3, 4
"""Piece codes returned by :meth:`Position.piece_at`."""


def _full_hash(
    white_men: int, white_kings: int, black_men: int, black_kings: int, turn: Color
) -> int:
    key = ZOBRIST_BLACK_TO_MOVE if turn is Color.BLACK else 0
    for kind, board in enumerate((white_men, white_kings, black_men, black_kings)):
        table = ZOBRIST[kind]
        while board:
            low = board & -board
            key ^= table[low.bit_length() - 1]
            board ^= low
    return key


class Position:
    """Placement of men and kings plus the side to move.  Treat instances as immutable."""

    __slots__ = (
        "black_kings",
        "black_men",
        "key",
        "king_runs",
        "turn",
        "variant",
        "white_kings",
        "white_men",
    )

    variant: Variant
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color
    key: int
    """Zobrist hash of placement, side to move and the kings' runs."""
    king_runs: KingRuns
    """Each side's run of non-capturing moves with one king (:data:`KingRuns`); always
    :data:`NO_RUNS` where the variant sets no limit."""

    def __init__(
        self,
        variant: Variant,
        white_men: int,
        white_kings: int,
        black_men: int,
        black_kings: int,
        turn: Color,
        key: int | None = None,
        king_runs: KingRuns = NO_RUNS,
    ) -> None:
        self.variant = variant
        self.white_men = white_men
        self.white_kings = white_kings
        self.black_men = black_men
        self.black_kings = black_kings
        self.turn = turn
        self.king_runs = king_runs
        self.key = (
            _full_hash(white_men, white_kings, black_men, black_kings, turn) ^ run_key(king_runs)
            if key is None
            else key
        )

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant) -> Position:
        """The variant's initial position (one shared instance per variant: positions are
        immutable)."""
        return _start_position(variant)

    @classmethod
    def from_squares(
        cls,
        variant: Variant,
        turn: Color,
        white_men: list[int] | tuple[int, ...] = (),
        white_kings: list[int] | tuple[int, ...] = (),
        black_men: list[int] | tuple[int, ...] = (),
        black_kings: list[int] | tuple[int, ...] = (),
    ) -> Position:
        """A position from board squares (:mod:`rules.geometry`'s numbering, whatever the
        variant writes; no legality checks beyond range)."""
        g = variant.geometry
        for squares in (white_men, white_kings, black_men, black_kings):
            for s in squares:
                if not 1 <= s <= g.squares:
                    raise ValueError(f"square {s} is not on the {g.size}x{g.size} board")
        return cls(
            variant,
            g.mask_of(white_men),
            g.mask_of(white_kings),
            g.mask_of(black_men),
            g.mask_of(black_kings),
            turn,
        )

    # -- queries --------------------------------------------------------------------------------

    @property
    def occupied(self) -> int:
        return self.white_men | self.white_kings | self.black_men | self.black_kings

    def pieces_of(self, color: Color) -> int:
        if color is Color.WHITE:
            return self.white_men | self.white_kings
        return self.black_men | self.black_kings

    def men_of(self, color: Color) -> int:
        return self.white_men if color is Color.WHITE else self.black_men

    def kings_of(self, color: Color) -> int:
        return self.white_kings if color is Color.WHITE else self.black_kings

    def piece_at(self, square: int) -> int:
        """Piece code (``EMPTY``, ``WHITE_MAN``...) on PDN ``square``."""
        bit = self.variant.geometry.bit(square)
        if self.white_men & bit:
            return WHITE_MAN
        if self.white_kings & bit:
            return WHITE_KING
        if self.black_men & bit:
            return BLACK_MAN
        if self.black_kings & bit:
            return BLACK_KING
        return EMPTY

    def color_at(self, square: int) -> Color | None:
        bit = self.variant.geometry.bit(square)
        if (self.white_men | self.white_kings) & bit:
            return Color.WHITE
        if (self.black_men | self.black_kings) & bit:
            return Color.BLACK
        return None

    def squares(self, bitboard: int) -> list[int]:
        """PDN squares of a bitboard of this position's board, ascending."""
        return self.variant.geometry.squares_in(bitboard)

    @property
    def frozen_king(self) -> int:
        """The bit of the king of the side to move that has made the variant's limit of
        non-capturing moves in a row and may now only capture (frisian), or 0."""
        limit = self.variant.king_move_limit
        if not limit:
            return 0
        runs = self.king_runs
        if self.turn is Color.WHITE:
            return runs[0] if runs[1] >= limit else 0
        return runs[2] if runs[3] >= limit else 0

    def material(self, color: Color) -> tuple[int, int, int, int]:
        """``(kings, men, opponent kings, opponent men)`` from ``color``'s side."""
        own_k = self.kings_of(color).bit_count()
        own_m = self.men_of(color).bit_count()
        other = color.other
        return own_k, own_m, self.kings_of(other).bit_count(), self.men_of(other).bit_count()

    def iter_pieces(self) -> Iterator[tuple[int, int]]:
        """``(square, piece code)`` for every piece, ascending by square."""
        g = self.variant.geometry
        for kind, board in (
            (WHITE_MAN, self.white_men),
            (WHITE_KING, self.white_kings),
            (BLACK_MAN, self.black_men),
            (BLACK_KING, self.black_kings),
        ):
            for s in g.squares_in(board):
                yield s, kind

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, captures only when one is available (and only the longest where the
        variant demands it)."""
        return generator(self.variant).legal_moves(self)

    def play(self, move: Move) -> Position:
        """The position after ``move``.

        Does not check legality: pass moves from :meth:`legal_moves` or
        :func:`rules.notation.parse_move`.
        """
        fb = move.from_bit
        tb = move.to_bit
        cm = move.capture_mask
        wm, wk, bm, bk = self.white_men, self.white_kings, self.black_men, self.black_kings
        key = self.key ^ ZOBRIST_BLACK_TO_MOVE
        fi = fb.bit_length() - 1
        ti = tb.bit_length() - 1
        if self.turn is Color.WHITE:
            if wm & fb:
                wm ^= fb
                if move.crowns:
                    wk |= tb
                    key ^= ZOBRIST[0][fi] ^ ZOBRIST[1][ti]
                else:
                    wm |= tb
                    key ^= ZOBRIST[0][fi] ^ ZOBRIST[0][ti]
            else:
                wk = (wk ^ fb) | tb
                key ^= ZOBRIST[1][fi] ^ ZOBRIST[1][ti]
            if cm:
                key ^= zobrist_of(bm & cm, ZOBRIST[2]) ^ zobrist_of(bk & cm, ZOBRIST[3])
                bm &= ~cm
                bk &= ~cm
            if self.variant.king_move_limit:
                runs = runs_after(
                    self.king_runs, 0, fb, tb, cm, bool(self.white_kings & fb), wm, bm
                )
                key ^= run_key(self.king_runs) ^ run_key(runs)
                return Position(self.variant, wm, wk, bm, bk, Color.BLACK, key, runs)
            return Position(self.variant, wm, wk, bm, bk, Color.BLACK, key)
        if bm & fb:
            bm ^= fb
            if move.crowns:
                bk |= tb
                key ^= ZOBRIST[2][fi] ^ ZOBRIST[3][ti]
            else:
                bm |= tb
                key ^= ZOBRIST[2][fi] ^ ZOBRIST[2][ti]
        else:
            bk = (bk ^ fb) | tb
            key ^= ZOBRIST[3][fi] ^ ZOBRIST[3][ti]
        if cm:
            key ^= zobrist_of(wm & cm, ZOBRIST[0]) ^ zobrist_of(wk & cm, ZOBRIST[1])
            wm &= ~cm
            wk &= ~cm
        if self.variant.king_move_limit:
            runs = runs_after(self.king_runs, 1, fb, tb, cm, bool(self.black_kings & fb), wm, bm)
            key ^= run_key(self.king_runs) ^ run_key(runs)
            return Position(self.variant, wm, wk, bm, bk, Color.WHITE, key, runs)
        return Position(self.variant, wm, wk, bm, bk, Color.WHITE, key)

    def fen(self) -> str:
        """Numeric PDN FEN (``B:W18,24,K10:B12,16``): men then kings per side, ascending, in the
        variant's numbering, then any king's run (``RW41/3``, :mod:`rules.fen`).  The
        writer lives here, not in :mod:`rules.fen`, because that module's parser builds positions
        and so stands on this one."""
        g = self.variant.geometry
        numbers = g.numbers

        def side(letter: str, men: int, kings: int) -> str:
            items = [str(n) for n in sorted(numbers[s] for s in g.squares_in(men))]
            items += [f"K{n}" for n in sorted(numbers[s] for s in g.squares_in(kings))]
            return letter + ",".join(items)

        fields = [
            self.turn.letter,
            side("W", self.white_men, self.white_kings),
            side("B", self.black_men, self.black_kings),
        ]
        # A king's run (frisian) is part of the position: rules.fen reads it back.
        runs = self.king_runs
        for letter, king, run in (("W", runs[0], runs[1]), ("B", runs[2], runs[3])):
            if run:
                fields.append(f"R{letter}{numbers[g.squares_in(king)[0]]}/{run}")
        return ":".join(fields)

    # -- identity -------------------------------------------------------------------------------

    def __hash__(self) -> int:
        return self.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.key == other.key
            and self.turn is other.turn
            and self.white_men == other.white_men
            and self.white_kings == other.white_kings
            and self.black_men == other.black_men
            and self.black_kings == other.black_kings
            and self.king_runs == other.king_runs
            and self.variant is other.variant
        )

    def __repr__(self) -> str:
        return f"Position({self.variant.key}, {self.fen()!r})"

    def __str__(self) -> str:
        """A text diagram, White at the bottom: ``w``/``b`` men, ``W``/``B`` kings, ``.`` empty."""
        g = self.variant.geometry
        symbols = {EMPTY: ".", WHITE_MAN: "w", WHITE_KING: "W", BLACK_MAN: "b", BLACK_KING: "B"}
        rows = []
        by_place = {g.coordinates(s): s for s in range(1, g.squares + 1)}
        for row in range(g.size):
            cells = []
            for column in range(g.size):
                square = by_place.get((column, row))
                cells.append(" " if square is None else symbols[self.piece_at(square)])
            rows.append(" ".join(cells))
        return "\n".join(rows)


@cache
def _start_position(variant: Variant) -> Position:
    # The same position as ``variant.start_fen``, built from squares so that this module needs
    # no FEN parser.
    white, black = variant.start_squares
    return Position.from_squares(
        variant, variant.first, white_men=tuple(white), black_men=tuple(black)
    )


def zobrist_of(board: int, table: tuple[int, ...]) -> int:
    """The Zobrist keys of every piece on ``board``, from one piece kind's ``table``, combined
    (what a move adds or removes; the engine updates its own keys with it too)."""
    key = 0
    while board:
        low = board & -board
        key ^= table[low.bit_length() - 1]
        board ^= low
    return key
