"""Board geometry: square numbering, the internal bit layout and precomputed neighbour/ray tables.

Squares are numbered the PDN way (1..N, row by row from Black's side, left to right as White sees
the board). Internally each square ``s`` (1-based) lives at bit ``g = (s - 1) + (s - 1) // size``
of an ``int``: after every pair of rows one unused "ghost" bit is inserted. With that padding the
four diagonal neighbours of every square are at a constant offset (``-(half + 1)``, ``-half``,
``+half``, ``+(half + 1)``) and a shift of a whole bitboard never wraps from one board edge to the
other, because the wrapped bit lands on a ghost or outside the board. That is what lets the move
generator count and find steps and first jumps for all men at once with a few shifts instead of a
loop over squares.

Most variants play with White's near-left corner square (a1) playable.  On a *mirrored* board
(italian) it is not: every row's playable squares sit one column over, square 1 is the top-left
corner a8, and the ghost bit comes after the first row of each pair instead, so
``g = (s - 1) + (s - 1 + half) // size``; the neighbours keep the same constant offsets and the
shifts stay safe (the tables below are checked against plain coordinates either way).

The numbers written in moves and FEN are those squares everywhere except where a variant counts
from the other end (:class:`Numbering`: spanish, portuguese and thai put square 1 at White's near
right corner); :attr:`Geometry.numbers` gives each square's written number, and the code works
with the squares alone.

Turkish draughts plays on all 64 squares and moves along rows and columns: an *orthogonal* board.
Its square ``s`` is bit ``s - 1`` (row by row from Black's side, as on the other boards), which
fills a 64-bit word with no room for ghosts, so a sideways shift would wrap from one row's end to
the next row's start.  The move generator therefore shifts each direction's pieces through
:attr:`Geometry.shift_from` (the squares that have a neighbour that way) and its jumps through
:attr:`Geometry.jump_from`; on the diagonal boards those masks are every playable square and
change nothing.  The direction indices keep their roles on both boards: 0 is "up", 3 is "down"
and ``3 - d`` is the way back from ``d``.

Frisian draughts captures along the board's other lines too: on the diagonal board, along rows
and columns, over the next playing square of the row (two columns on) or of the column (two rows
on).  The tables therefore hold eight directions: 0-3 the lines pieces move along, 4-7
(:data:`CROSS_DIRECTIONS`) the other lines, used only by variants that capture along them.  On
every board ``d ^ 3`` is the way back from ``d`` (for 0-3 that is ``3 - d``).

Everything here is computed once per board (size, layout and numbering) and is read-only afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS: tuple[int, ...] = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
"""Direction indices; "up" is towards square 1 (Black's home row), the way White's men move."""

UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
"""The same indices on an orthogonal board: straight up and down, and along the row.  On both
boards ``3 - d`` is the direction that turns back from ``d`` (the move generators use it)."""

CROSS_DIRECTIONS: tuple[int, ...] = (4, 5, 6, 7)
"""The board's other lines, in the same order (up, left, right, down on a diagonal board; up-left,
up-right, down-left, down-right on an orthogonal one): ``d ^ 3`` turns back on them too."""
LINES: tuple[int, ...] = DIRECTIONS + CROSS_DIRECTIONS
"""All eight directions (frisian's captures)."""

FILES = "abcdefghijklmnopqrstuvwxyz"


class Numbering(Enum):
    """Where a variant's square 1 is, seen from White's side; the count runs along the rows from
    there (PDN GameType's notation attribute, ``N2`` or ``N1`` from the starting player's side).
    The board's own squares are always numbered :attr:`TOP_LEFT`; only the written numbers change.
    """

    TOP_LEFT = "top left"
    """Square 1 is the left-most playing square of Black's back row, counted left to right and
    down (FMJD, English from Black's side, Italian)."""
    BOTTOM_RIGHT = "bottom right"
    """Square 1 is White's near-right corner, counted right to left and up: the board turned
    half round (spanish and portuguese, whose federations count from the White side; thai, which
    PDN counts from the top left as Black, who moves first, sees the board)."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """Read-only tables for one board size; shared by every variant played on that size."""

    size: int
    """Squares along one side (8 or 10)."""
    mirrored: bool
    """Whether White's near-left corner (a1) is not playable (italian's board)."""
    half: int
    """Playable squares per row: half the row on a draughts board, all of it on an orthogonal
    one."""
    squares: int
    """Number of playable squares (N)."""
    valid: int
    """Bitboard of all playable internal bits (ghost bits excluded)."""
    deltas: tuple[int, ...]
    """Internal index offset of the neighbour in each of the eight directions (:data:`LINES`)."""
    index_of: tuple[int, ...]
    """Internal bit index of PDN square ``s`` at position ``s`` (position 0 unused)."""
    square_of: tuple[int, ...]
    """PDN square of internal index ``g`` (0 for ghost bits)."""
    neighbour: tuple[tuple[int, ...], ...]
    """``neighbour[d][g]``: internal index of the neighbour in direction ``d`` (one of
    :data:`LINES`), or -1 off the board."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """``rays[g][d]``: internal indices along direction ``d`` (one of :data:`LINES`) from ``g``,
    nearest first."""
    top_row: int
    """Bitboard of the row of squares 1..half: where White's men are crowned."""
    bottom_row: int
    """Bitboard of the last row: where Black's men are crowned."""
    row_of: tuple[int, ...]
    """Row (0 = top) of internal index ``g``; -1 for ghosts."""
    names: tuple[str, ...]
    """Algebraic name of PDN square ``s`` (``a1`` = White's near-left corner; index 0 unused)."""
    square_by_name: dict[str, int]
    """Inverse of ``names``."""
    men_directions: tuple[tuple[int, ...], tuple[int, ...]]
    """The directions a man of White and of Black steps in: forwards on a draughts board,
    forwards and sideways on an orthogonal one."""
    shift_from: tuple[int, ...]
    """Per direction, the squares that have a neighbour that way: a bitboard shifted by that
    direction's delta after this mask never wraps to the other edge."""
    jump_from: tuple[int, ...]
    """Per direction, the squares that have two squares beyond them that way (a jump's
    origins)."""
    orthogonal: bool = False
    """Whether every square is played and pieces move along rows and columns (turkish)."""
    numbering: Numbering = Numbering.TOP_LEFT
    numbers: tuple[int, ...] = ()
    """The number written for square ``s`` in moves and FEN (``s`` itself unless the numbering
    counts from White's side; index 0 unused)."""
    square_by_number: tuple[int, ...] = ()
    """Inverse of ``numbers``: the square a written number names."""

    def bit(self, square: int) -> int:
        """Bitboard with only PDN ``square`` set."""
        return 1 << self.index_of[square]

    def squares_in(self, bitboard: int) -> list[int]:
        """PDN squares of the set bits of ``bitboard``, ascending."""
        out = []
        square_of = self.square_of
        while bitboard:
            low = bitboard & -bitboard
            out.append(square_of[low.bit_length() - 1])
            bitboard ^= low
        return out

    def mask_of(self, squares: list[int] | tuple[int, ...] | set[int]) -> int:
        """Bitboard with the given PDN squares set."""
        mask = 0
        index_of = self.index_of
        for square in squares:
            mask |= 1 << index_of[square]
        return mask

    def coordinates(self, square: int) -> tuple[int, int]:
        """``(column, row)`` of a PDN square, both 0-based, row 0 at the top (Black's side)."""
        return _coordinates(square, self.half, self.mirrored, self.orthogonal)


def _coordinates(square: int, half: int, mirrored: bool, orthogonal: bool) -> tuple[int, int]:
    s = square - 1
    row = s // half
    if orthogonal:
        return s % half, row
    column = 2 * (s % half) + ((row % 2 == 0) != mirrored)
    return column, row


@cache
def geometry(
    size: int,
    mirrored: bool = False,
    numbering: Numbering = Numbering.TOP_LEFT,
    orthogonal: bool = False,
) -> Geometry:
    """The tables for a ``size`` x ``size`` board (even sizes from 4 to 26), a1 playable or, when
    ``mirrored``, not, with its squares written in ``numbering``; ``orthogonal``: every square
    played, along rows and columns (sizes up to 8, which fills the 64 bits the core holds)."""
    if size % 2 or not 4 <= size <= 26 or (orthogonal and (size > 8 or mirrored)):
        raise ValueError(f"unsupported board size {size}")
    half = size if orthogonal else size // 2
    squares = half * size
    offset = half if mirrored else 0
    index_of = [0] * (squares + 1)
    for s in range(1, squares + 1):
        index_of[s] = (s - 1) if orthogonal else (s - 1) + (s - 1 + offset) // size
    bits = index_of[squares] + 1
    square_of = [0] * bits
    row_of = [-1] * bits
    for s in range(1, squares + 1):
        square_of[index_of[s]] = s
        row_of[index_of[s]] = (s - 1) // half
    valid = 0
    for s in range(1, squares + 1):
        valid |= 1 << index_of[s]
    men_directions: tuple[tuple[int, ...], tuple[int, ...]]
    steps: tuple[tuple[int, int], ...]
    straight = ((0, -1), (-1, 0), (1, 0), (0, 1))
    diagonal = ((-1, -1), (1, -1), (-1, 1), (1, 1))
    if orthogonal:
        deltas = (-size, -1, 1, size, -(size + 1), -(size - 1), size - 1, size + 1)
        steps = straight + diagonal
        men_directions = ((UP, LEFT, RIGHT), (LEFT, RIGHT, DOWN))
    else:
        # The other lines of a diagonal board run over every second square: the next playing
        # square of a column is two rows on (a pair of rows and its ghost bit), of a row the
        # next bit.
        deltas = (-(half + 1), -half, half, half + 1, -(size + 1), -1, 1, size + 1)
        steps = diagonal + tuple((2 * dc, 2 * dr) for dc, dr in straight)
        men_directions = ((UP_LEFT, UP_RIGHT), (DOWN_LEFT, DOWN_RIGHT))

    # Neighbours are derived from coordinates, not from the deltas, so the ghost-bit layout is
    # checked against plain geometry once here (the asserts guard the shift tricks in movegen).
    by_coordinates: dict[tuple[int, int], int] = {}
    names = [""] * (squares + 1)
    for s in range(1, squares + 1):
        column, row = _coordinates(s, half, mirrored, orthogonal)
        by_coordinates[(column, row)] = index_of[s]
        names[s] = f"{FILES[column]}{size - row}"
    neighbour = [[-1] * bits for _ in LINES]
    for (column, row), g in by_coordinates.items():
        for d, (dc, dr) in enumerate(steps):
            target = by_coordinates.get((column + dc, row + dr), -1)
            neighbour[d][g] = target
            if target >= 0:
                assert target - g == deltas[d], "ghost layout broken"
    rays: list[tuple[tuple[int, ...], ...]] = [() for _ in range(bits)]
    for g in by_coordinates.values():
        per_direction = []
        for d in LINES:
            ray = []
            cur = neighbour[d][g]
            while cur >= 0:
                ray.append(cur)
                cur = neighbour[d][cur]
            per_direction.append(tuple(ray))
        rays[g] = tuple(per_direction)
    shift_from = [0] * len(LINES)
    jump_from = [0] * len(LINES)
    for g in by_coordinates.values():
        for d in LINES:
            if len(rays[g][d]) >= 1:
                shift_from[d] |= 1 << g
            if len(rays[g][d]) >= 2:
                jump_from[d] |= 1 << g
    if not orthogonal:
        # The ghost bits make every diagonal shift safe: the masks need not cut anything (a
        # sideways one along a row would wrap to the next row, so those keep their masks).
        shift_from[:4] = jump_from[:4] = [valid] * 4
    top_row = 0
    bottom_row = 0
    for s in range(1, half + 1):
        top_row |= 1 << index_of[s]
        bottom_row |= 1 << index_of[squares - half + s]
    if numbering is Numbering.TOP_LEFT:
        numbers = tuple(range(squares + 1))
    else:
        numbers = (0, *(squares + 1 - s for s in range(1, squares + 1)))
    square_by_number = [0] * (squares + 1)
    for s in range(1, squares + 1):
        square_by_number[numbers[s]] = s
    return Geometry(
        size=size,
        mirrored=mirrored,
        half=half,
        squares=squares,
        valid=valid,
        deltas=deltas,
        index_of=tuple(index_of),
        square_of=tuple(square_of),
        neighbour=tuple(tuple(n) for n in neighbour),
        rays=tuple(rays),
        top_row=top_row,
        bottom_row=bottom_row,
        row_of=tuple(row_of),
        names=tuple(names),
        square_by_name={name: s for s, name in enumerate(names) if name},
        men_directions=men_directions,
        shift_from=tuple(shift_from),
        jump_from=tuple(jump_from),
        orthogonal=orthogonal,
        numbering=numbering,
        numbers=numbers,
        square_by_number=tuple(square_by_number),
    )
