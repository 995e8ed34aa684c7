"""FEN in the PDN form: ``B:W18,24,27,K10:B12,16,20,K22``.

The first field is the side to move; each side's field lists its men then its kings (``K``),
ascending. Input is forgiving: any case, spaces, a trailing full stop, surrounding quotes, ranges
of men (``W21-32``), algebraic squares on 8x8 boards (``W:Wa1,c1:Bb8``), and the ``H``/``F``
counter fields some tools append (ignored: the game record keeps its own counts). Output is always
numeric and comes from :meth:`rules.position.Position.fen`.

Where a variant limits a king's moves in a row (frisian), a king's run is part of the position
and is written after the pieces as ``RW41/3`` (White's king on 41 has made 3 moves in a row;
``RB`` for Black), so that a position read back is the same position.  PDN has no such field;
other tools skip fields they do not know.
"""

from __future__ import annotations

import re

from .messages import N_, MessageError, message
from .position import Position
from .variants import Color, Variant


class FenError(MessageError):
    """A FEN string that does not describe a position of the variant; ``str(error)`` says why
    (and ``template``/``values`` the same in any language, see :mod:`rules.messages`)."""


_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
_COUNTER = re.compile(r"^[hf][0-9]*$")
_RUN = re.compile(r"^r([wb])([0-9]+)/([0-9]+)$")


def _square(token: str, variant: Variant) -> int:
    """The board square a FEN token names (a number in the variant's numbering, or coordinates)."""
    g = variant.geometry
    if token.isascii() and token.isdigit():
        number = int(token)
        if 1 <= number <= g.squares:
            return g.square_by_number[number]
        raise FenError(
            message(
                N_("square {square} is not on the board (1-{last})"), square=token, last=g.squares
            )
        )
    if variant.size == 8 and token in g.square_by_name:
        return g.square_by_name[token]
    raise FenError(
        message(
            N_("{token} is not a dark square of the {size}x{size} board"),
            token=repr(token),
            size=g.size,
        )
    )


def parse_fen(text: str, variant: Variant) -> Position:
    """The position described by ``text``; :class:`FenError` with the reason if it is not one."""
    if len(text) > 4096:
        raise FenError(message(N_("the FEN is too long")))
    cleaned = re.sub(r"\s+", "", text).strip("\"'[]").rstrip(".").lower()
    fields = [f for f in cleaned.split(":") if f]
    if not fields or fields[0] not in ("w", "b"):
        raise FenError(
            message(N_("a FEN starts with the side to move, W or B (e.g. W:W31,32:B1,2)"))
        )
    turn = Color.WHITE if fields[0] == "w" else Color.BLACK
    placed: dict[int, tuple[Color, bool]] = {}
    seen_sides: set[str] = set()
    runs: list[tuple[str, re.Match[str]]] = []
    for field in fields[1:]:
        if _COUNTER.match(field):
            continue
        run = _RUN.match(field)
        if run and variant.king_move_limit:
            runs.append((field, run))
            continue
        side = field[0]
        if side not in ("w", "b"):
            raise FenError(
                message(
                    N_("unexpected FEN field {field}: expected W... or B..."), field=repr(field)
                )
            )
        if side in seen_sides:
            if side == "w":
                raise FenError(message(N_("the pieces of White are listed twice")))
            raise FenError(message(N_("the pieces of Black are listed twice")))
        seen_sides.add(side)
        color = Color.WHITE if side == "w" else Color.BLACK
        for token in field[1:].split(","):
            if not token:
                continue
            king = token.startswith("k")
            if king:
                token = token[1:]
            match = _RANGE.match(token)
            if match:
                low, high = int(match.group(1)), int(match.group(2))
                if low > high:
                    raise FenError(message(N_("empty range {range}"), range=token))
                for end in (low, high):
                    _square(str(end), variant)  # both ends must be squares of the board
                squares = [_square(str(n), variant) for n in range(low, high + 1)]
            else:
                squares = [_square(token, variant)]
            for square in squares:
                if square in placed:
                    raise FenError(
                        message(
                            N_("square {square} is given twice"),
                            square=variant.geometry.numbers[square],
                        )
                    )
                placed[square] = (color, king)
    g = variant.geometry
    boards = [0, 0, 0, 0]  # white men, white kings, black men, black kings
    for square, (color, king) in placed.items():
        bit = g.bit(square)
        if not king:
            crowning_row = g.top_row if color is Color.WHITE else g.bottom_row
            if crowning_row & bit:
                template = (
                    N_("a white man cannot stand on square {square}: it would be a king there")
                    if color is Color.WHITE
                    else N_("a black man cannot stand on square {square}: it would be a king there")
                )
                raise FenError(message(template, square=g.numbers[square]))
        boards[2 * int(color) + int(king)] |= bit
    king_runs = [0, 0, 0, 0]
    for field, run in runs:
        color = Color.WHITE if run.group(1) == "w" else Color.BLACK
        number, length = int(run.group(2)), int(run.group(3))
        square = g.square_by_number[number] if 1 <= number <= g.squares else 0
        at = 2 * int(color)
        # A run belongs to a king of a side that has men, and is at most the limit.
        if (
            not square
            or placed.get(square) != (color, True)
            or not boards[at]
            or not 1 <= length <= variant.king_move_limit
            or king_runs[at + 1]
        ):
            raise FenError(
                message(
                    N_("unexpected FEN field {field}: expected W... or B..."), field=repr(field)
                )
            )
        king_runs[at : at + 2] = [g.bit(square), length]
    return Position(
        variant,
        boards[0],
        boards[1],
        boards[2],
        boards[3],
        turn,
        king_runs=(king_runs[0], king_runs[1], king_runs[2], king_runs[3]),
    )


def position_to_fen(pos: Position) -> str:
    """Numeric PDN FEN, men then kings per side, ascending: :meth:`Position.fen`, which writes it
    (a position writes its own FEN so that it needs nothing from this module)."""
    return pos.fen()
