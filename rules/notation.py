"""Move notation: PDN out, forgiving input in.

Output is PDN with the full landing path (``11-15``, ``22x15``, ``27x18x11``).  Input accepts what
people type on phones and keyboards: PDN numbers or algebraic coordinates, ``-``/``x``/``:``/``×``,
the Unicode dashes, spaces instead of separators, any case, and the short capture form ``11x25`` or
a partial path when it leaves only one outcome.  Every failure is a :class:`MoveError` (a
``ValueError``) whose message is a sentence a player can act on.

What players are *shown* follows their variant's convention (:class:`Notation`, see
:attr:`rules.variants.Variant.notation`): :func:`show_move` writes a PDN move text in it,
:func:`numbered_moves` numbers a list of moves as PDN does, and :func:`parse_move` words its
refusals in the notation it is given.  The record itself always stays PDN numbers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from .messages import N_, Message, MessageError, N_n, counted, either, message
from .move import Move
from .position import Position
from .variants import Color, Notation, Variant

__all__ = [
    "MAX_INPUT_LENGTH",
    "MAX_LISTED",
    "AmbiguousMoveError",
    "CaptureRequiredError",
    "MoveError",
    "MoveNotLegalError",
    "NoPieceError",
    "NotYourPieceError",
    "Notation",
    "NotationError",
    "UnknownSquareError",
    "list_moves",
    "moves_message",
    "normalize",
    "numbered_moves",
    "parse_move",
    "parse_squares",
    "show_move",
    "side_name",
    "square_name",
]

MAX_INPUT_LENGTH = 120
"""Longer input is refused before any parsing (the longest legal path is far shorter)."""
MAX_LISTED = 12
"""How many moves an error message lists before it says "and N more"."""


class MoveError(MessageError):
    """A move that cannot be played; ``str(error)`` is the reason, fit to show to a player (and
    ``template``/``values`` the same in any language, see :mod:`rules.messages`)."""

    @property
    def reason(self) -> str:
        return str(self)


class NotationError(MoveError):
    """The text is not a move at all."""


class UnknownSquareError(MoveError):
    """A square that does not exist (or is a light square) on this board."""


class NoPieceError(MoveError):
    """The move starts on an empty square."""


class NotYourPieceError(MoveError):
    """The move starts on a piece of the side not to move."""


class MoveNotLegalError(MoveError):
    """The move is not legal here; ``legal`` holds the moves that are."""

    def __init__(self, reason: str | Message, legal: list[Move]) -> None:
        super().__init__(reason)
        self.legal = legal


class CaptureRequiredError(MoveNotLegalError):
    """A capture is compulsory and the move is not one of the allowed captures."""


class AmbiguousMoveError(MoveError):
    """The text fits several moves with different outcomes; ``candidates`` lists them."""

    def __init__(self, reason: str | Message, candidates: list[Move]) -> None:
        super().__init__(reason)
        self.candidates = candidates


_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2500\u30fc"
_CAPTURES = "\u00d7\u2715\u2716\u2a2f*:"
_TRANSLATE = str.maketrans({**{c: "-" for c in _DASHES}, **{c: "x" for c in _CAPTURES}})
# One lexeme at a time, each matched greedily and without backtracking (a single regex for the whole
# move backtracks exponentially on long digit runs): a square (optional file letter, then digits;
# "x" is the capture sign, never a file), a separator, a run of spaces, or anything else.
_LEXEME = re.compile(r"([a-wyz]?)([0-9]+)|([-x])|(\s+)|(.)", re.DOTALL)


_NUMBER = re.compile(r"[0-9]+")


def show_move(move: Move | str, variant: Variant, notation: Notation | str | None = None) -> str:
    """A move in ``notation`` (the variant's own convention when None or empty): ``9-13`` stays
    ``9-13`` in numbers and becomes ``c3-d4`` in coordinates.  ``move`` may be a :class:`Move` or
    any text of PDN square numbers (``27x18x11``, or an autocomplete label like
    ``27x11 (27x18x11)``); each number that is a square of the variant's board is renamed, and
    everything else is kept as it is."""
    chosen = Notation(notation) if notation else variant.notation
    text = move.pdn() if isinstance(move, Move) else move
    if chosen is Notation.NUMERIC:
        return text
    g = variant.geometry

    def rename(match: re.Match[str]) -> str:
        number = int(match.group())
        return g.names[g.square_by_number[number]] if 1 <= number <= g.squares else match.group()

    return _NUMBER.sub(rename, text)


def numbered_moves(texts: Sequence[str], start: Position, first_ply: int = 0) -> list[str]:
    """``texts``, the moves played from ``start`` after its first ``first_ply`` plies, numbered
    as PDN numbers them: one string per full move (``"11. 11-15 23-19"``).  Full moves count from
    the variant's first mover, so a game from a position where the other side moves first, or a
    list that starts with a reply, begins ``"11... 23-19"``."""
    offset = 0 if start.turn is start.variant.first else 1
    lines: list[str] = []
    for index, text in enumerate(texts):
        k = first_ply + index + offset
        if k % 2 == 0:
            lines.append(f"{k // 2 + 1}. {text}")
        elif not lines:
            lines.append(f"{k // 2 + 1}... {text}")
        else:
            lines[-1] += f" {text}"
    return lines


def square_name(square: int, variant: Variant, notation: Notation | str | None = None) -> str:
    """A board square as players read it in ``notation`` (the variant's own when None or
    empty): its coordinates, or the number the variant writes for it."""
    chosen = Notation(notation) if notation else variant.notation
    g = variant.geometry
    return g.names[square] if chosen is Notation.ALGEBRAIC else str(g.numbers[square])


def _namer(pos: Position, notation: Notation | None) -> Callable[[int], str]:
    """How refusals name a square: its number, or its coordinates in algebraic notation."""
    chosen = notation or Notation.NUMERIC
    return lambda square: square_name(square, pos.variant, chosen)


def _in_order(moves: Iterable[Move]) -> list[Move]:
    """``moves`` sorted as their texts read, by the numbers of their squares."""
    return sorted(moves, key=lambda m: m.numbered_path)


def list_moves(
    moves: Iterable[Move], limit: int = MAX_LISTED, names: Sequence[str] | None = None
) -> str:
    """``"22x15, 23x14 or 24x15"``, cut after ``limit`` with a count of the rest; in
    coordinates when the board's square ``names`` are given."""
    return str(moves_message(moves, limit, names))


def moves_message(
    moves: Iterable[Move], limit: int = MAX_LISTED, names: Sequence[str] | None = None
) -> Message | str:
    """:func:`list_moves` as a :class:`~rules.messages.Message` (a lone move as it is)."""
    texts = [m.pdn() if names is None else m.algebraic(tuple(names)) for m in moves]
    if len(texts) > limit:
        return counted(
            N_n("{moves} and {count} more", "{moves} and {count} more"),
            len(texts) - limit,
            moves=", ".join(texts[:limit]),
        )
    return either(texts)


def normalize(text: str) -> str:
    """Fold the ways people write a move into ``[a-z0-9 x-]``: NFKC (full-width digits), Unicode
    dashes and capture signs, case, surrounding annotation marks."""
    folded = unicodedata.normalize("NFKC", text).translate(_TRANSLATE).lower()
    return folded.strip().strip("!?+#.").strip()


def _square(token: str, pos: Position) -> int:
    g = pos.variant.geometry
    if token.isdigit():
        number = int(token)
        if 1 <= number <= g.squares:
            return g.square_by_number[number]
        raise UnknownSquareError(
            message(
                N_("there is no square {square} on this board: squares are numbered 1 to {last}"),
                square=token,
                last=g.squares,
            )
        )
    if token in g.square_by_name:
        return g.square_by_name[token]
    column = ord(token[0]) - ord("a")
    row = int(token[1:])
    if 0 <= column < g.size and 1 <= row <= g.size:
        raise UnknownSquareError(
            message(
                N_("{square} is a light square: pieces stand and move only on the dark squares"),
                square=token,
            )
        )
    raise UnknownSquareError(
        message(
            N_("there is no square {square}: columns run a-{column}, rows 1-{row}"),
            square=token,
            column=chr(ord("a") + g.size - 1),
            row=g.size,
        )
    )


def parse_squares(text: str, pos: Position) -> tuple[list[int], str | None]:
    """The squares a move text names, and its separator (``x``, ``-`` or None when only spaces)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise NotationError(
            counted(
                N_n(
                    "that is too long for a move ({count} character)",
                    "that is too long for a move ({count} characters)",
                ),
                len(text),
            )
        )
    cleaned = normalize(text)
    if not cleaned:
        raise NotationError(message(N_("type a move like 11-15 or 22x15 (or c3-d4)")))
    tokens = _lex(cleaned)
    if tokens is None:
        raise NotationError(
            message(
                N_("{text} is not a move: write it like 11-15, 22x15, 27x18x11 or c3-d4"),
                text=repr(text.strip()[:40]),
            )
        )
    squares = [_square(token, pos) for token in tokens]
    separator = "x" if "x" in cleaned else "-" if "-" in cleaned else None
    return squares, separator


def _lex(cleaned: str) -> list[str] | None:
    """The square tokens of a move text, or None unless it is squares joined by at most one
    separator each (spaces alone also join)."""
    squares: list[str] = []
    expect_square = True  # at the start and right after a separator
    for match in _LEXEME.finditer(cleaned):
        letter, digits, separator, spaces, other = match.groups()
        if other is not None:
            return None
        if spaces is not None:
            continue
        if separator is not None:
            if expect_square:
                return None
            expect_square = True
            continue
        if len(digits) > (2 if letter else 3):
            return None
        squares.append(letter + digits)
        expect_square = False
    if expect_square or len(squares) < 2:
        return None
    return squares


def _follows(inner: list[int], path: tuple[int, ...]) -> bool:
    """Whether ``inner`` appears in order within ``path`` (not necessarily contiguously)."""
    it = iter(path)
    return all(square in it for square in inner)


def parse_move(
    pos: Position,
    text: str,
    legal: list[Move] | None = None,
    *,
    notation: Notation | None = None,
) -> Move:
    """The legal move of ``pos`` that ``text`` names; a :class:`MoveError` saying why otherwise.

    A full landing path always wins.  Otherwise the given squares must be the first and last
    squares of the path with any given intermediate squares in order; if several moves fit but
    all give the same position (same piece, destination and captured pieces), the first by path
    is chosen, else the error lists the full paths to choose from.  The squares and moves a
    refusal names are written in ``notation`` (PDN numbers by default); the text is read in
    either.
    """
    if legal is None:
        legal = pos.legal_moves()
    names = pos.variant.geometry.names if notation is Notation.ALGEBRAIC else None
    try:
        squares, separator = parse_squares(text, pos)
    except UnknownSquareError as exc:
        reason = exc.message or str(exc)
        hint = _hint(legal, names)
        raise UnknownSquareError(
            message(N_("{reason}; {hint}"), reason=reason, hint=hint)
        ) from None
    wanted = tuple(squares)
    for move in legal:
        if move.path == wanted:
            return move
    first, last, inner = squares[0], squares[-1], squares[1:-1]
    candidates = [
        m for m in legal if m.path[0] == first and m.path[-1] == last and _follows(inner, m.path)
    ]
    if candidates:
        outcomes = {(m.from_bit, m.to_bit, m.capture_mask) for m in candidates}
        ordered = _in_order(candidates)
        if len(outcomes) == 1:
            return ordered[0]
        raise AmbiguousMoveError(
            message(
                N_("{text} could mean {moves}: type the full path"),
                text=normalize(text),
                moves=moves_message(ordered, names=names),
            ),
            ordered,
        )
    raise _explain(pos, first, last, separator or "-", legal, notation)


def _explain(
    pos: Position,
    first: int,
    last: int,
    separator: str,
    legal: list[Move],
    notation: Notation | None = None,
) -> MoveError:
    name = _namer(pos, notation)
    names = pos.variant.geometry.names if notation is Notation.ALGEBRAIC else None
    color = pos.color_at(first)
    side = pos.turn
    if color is None:
        return NoPieceError(
            message(
                N_("there is no piece on {square}; {hint}"),
                square=name(first),
                hint=_hint(legal, names),
            )
        )
    if color is not side:
        template = (
            N_("the piece on {square} is White's and it is Black's turn; {hint}")
            if color is Color.WHITE
            else N_("the piece on {square} is Black's and it is White's turn; {hint}")
        )
        return NotYourPieceError(message(template, square=name(first), hint=_hint(legal, names)))
    captures = _in_order(m for m in legal if m.is_capture)
    if captures:
        own = [m for m in captures if m.path[0] == first]
        return CaptureRequiredError(
            message(
                N_("a capture is compulsory: {moves}"),
                moves=moves_message(own or captures, names=names),
            ),
            captures,
        )
    if pos.frozen_king and pos.frozen_king == pos.variant.geometry.bit(first):
        # The king has used up its non-capturing moves in a row (frisian) and has no capture.
        return MoveNotLegalError(
            counted(
                N_n(
                    "the king on {square} has made {count} move in a row and may only capture "
                    "until another of your pieces has moved; {hint}",
                    "the king on {square} has made {count} moves in a row and may only capture "
                    "until another of your pieces has moved; {hint}",
                ),
                pos.variant.king_move_limit,
                square=name(first),
                hint=_hint(legal, names),
            ),
            _in_order(legal),
        )
    from_here = _in_order(m for m in legal if m.path[0] == first)
    if from_here:
        return MoveNotLegalError(
            message(
                N_("{move} is not a legal move: the piece on {square} can go to {targets}"),
                move=f"{name(first)}{separator}{name(last)}",
                square=name(first),
                targets=either([name(m.path[-1]) for m in from_here]),
            ),
            _in_order(legal),
        )
    ordered = _in_order(legal)
    return MoveNotLegalError(
        message(
            N_("the piece on {square} cannot move; legal moves: {moves}"),
            square=name(first),
            moves=moves_message(ordered, names=names),
        ),
        ordered,
    )


def _hint(legal: list[Move], names: Sequence[str] | None = None) -> Message:
    """What the player can do instead: the compulsory captures, or the legal moves."""
    ordered = _in_order(legal)
    if ordered and ordered[0].is_capture:
        return message(
            N_("a capture is compulsory: {moves}"), moves=moves_message(ordered, names=names)
        )
    if not ordered:
        return message(N_("there is no legal move"))
    return message(N_("legal moves: {moves}"), moves=moves_message(ordered, names=names))


def side_name(color: Color) -> str:
    """``White`` or ``Black``."""
    return color.label.capitalize()
