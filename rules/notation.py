"""Move notation: PDN out, forgiving input in.

Output is PDN with the full landing path (``11-15``, ``22x15``, ``27x18x11``).  Input accepts what
people type on phones and keyboards: PDN numbers or algebraic coordinates, ``-``/``x``/``:``/``×``,
the Unicode dashes, spaces instead of separators, any case, and the short capture form ``11x25`` or
a partial path when it leaves only one outcome.  Every failure is a :class:`MoveError` (a
``ValueError``) whose message is a sentence a player can act on.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .move import Move
from .position import Position
from .variants import Color

MAX_INPUT_LENGTH = 120
"""Longer input is refused before any parsing (the longest legal path is far shorter)."""
MAX_LISTED = 12
"""How many moves an error message lists before it says "and N more"."""


class MoveError(ValueError):
    """A move that cannot be played; ``str(error)`` is the reason, fit to show to a player."""

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


class IllegalMoveError(MoveError):
    """The move is not legal here; ``legal`` holds the moves that are."""

    def __init__(self, reason: str, legal: list[Move]) -> None:
        super().__init__(reason)
        self.legal = legal


class CaptureRequiredError(IllegalMoveError):
    """A capture is compulsory and the move is not one of the allowed captures."""


class AmbiguousMoveError(MoveError):
    """The text fits several moves with different outcomes; ``candidates`` lists them."""

    def __init__(self, reason: str, candidates: list[Move]) -> None:
        super().__init__(reason)
        self.candidates = candidates


_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2500\u30fc"
_CAPTURES = "\u00d7\u2715\u2716\u2a2f*:"
_TRANSLATE = str.maketrans({**{c: "-" for c in _DASHES}, **{c: "x" for c in _CAPTURES}})
# One lexeme at a time, each matched greedily and without backtracking (a single regex for the whole
# move backtracks exponentially on long digit runs): a square (optional file letter, then digits;
# "x" is the capture sign, never a file), a separator, a run of spaces, or anything else.
_LEXEME = re.compile(r"([a-wyz]?)([0-9]+)|([-x])|(\s+)|(.)", re.DOTALL)


def list_moves(moves: Iterable[Move], limit: int = MAX_LISTED) -> str:
    """``"22x15, 23x14 or 24x15"``, cut after ``limit`` with a count of the rest."""
    texts = [m.pdn() for m in moves]
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f" and {len(texts) - limit} more"
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " or " + texts[-1]


def normalize(text: str) -> str:
    """Fold the ways people write a move into ``[a-z0-9 x-]``: NFKC (full-width digits), Unicode
    dashes and capture signs, case, surrounding annotation marks."""
    folded = unicodedata.normalize("NFKC", text).translate(_TRANSLATE).lower()
    return folded.strip().strip("!?+#.").strip()


def _square(token: str, pos: Position) -> int:
    g = pos.variant.geometry
    if token.isdigit():
        square = int(token)
        if 1 <= square <= g.squares:
            return square
        raise UnknownSquareError(
            f"there is no square {token} on this board: squares are numbered 1 to {g.squares}"
        )
    if token in g.square_by_name:
        return g.square_by_name[token]
    column = ord(token[0]) - ord("a")
    row = int(token[1:])
    if 0 <= column < g.size and 1 <= row <= g.size:
        raise UnknownSquareError(
            f"{token} is a light square: pieces stand and move only on the dark squares"
        )
    last = chr(ord("a") + g.size - 1)
    raise UnknownSquareError(f"there is no square {token}: columns run a-{last}, rows 1-{g.size}")


def parse_squares(text: str, pos: Position) -> tuple[list[int], str | None]:
    """The squares a move text names, and its separator (``x``, ``-`` or None when only spaces)."""
    if len(text) > MAX_INPUT_LENGTH:
        raise NotationError(f"that is too long for a move ({len(text)} characters)")
    cleaned = normalize(text)
    if not cleaned:
        raise NotationError("type a move like 11-15 or 22x15 (or c3-d4)")
    tokens = _lex(cleaned)
    if tokens is None:
        raise NotationError(
            f"{text.strip()[:40]!r} is not a move: write it like 11-15, 22x15, 27x18x11 or c3-d4"
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


def parse_move(pos: Position, text: str, legal: list[Move] | None = None) -> Move:
    """The legal move of ``pos`` that ``text`` names; a :class:`MoveError` saying why otherwise.

    A full landing path always wins.  Otherwise the given squares must be the first and last
    squares of the path with any given intermediate squares in order; if several moves fit but
    all give the same position (same piece, destination and captured pieces), the first by path
    is chosen, else the error lists the full paths to choose from.
    """
    if legal is None:
        legal = pos.legal_moves()
    try:
        squares, separator = parse_squares(text, pos)
    except UnknownSquareError as exc:
        raise UnknownSquareError(f"{exc}; {_hint(legal)}") from None
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
        ordered = sorted(candidates, key=lambda m: m.path)
        if len(outcomes) == 1:
            return ordered[0]
        raise AmbiguousMoveError(
            f"{normalize(text)} could mean {list_moves(ordered)}: type the full path",
            ordered,
        )
    raise _explain(pos, first, last, separator or "-", legal)


def _explain(pos: Position, first: int, last: int, separator: str, legal: list[Move]) -> MoveError:
    color = pos.color_at(first)
    side = pos.turn
    if color is None:
        return NoPieceError(f"there is no piece on {first}; {_hint(legal)}")
    if color is not side:
        return NotYourPieceError(
            f"the piece on {first} is {color.label.capitalize()}'s and it is "
            f"{side.label.capitalize()}'s turn; {_hint(legal)}"
        )
    captures = sorted((m for m in legal if m.is_capture), key=lambda m: m.path)
    if captures:
        own = [m for m in captures if m.path[0] == first]
        return CaptureRequiredError(
            f"a capture is compulsory: {list_moves(own or captures)}", captures
        )
    from_here = sorted((m for m in legal if m.path[0] == first), key=lambda m: m.path)
    if from_here:
        targets = [str(m.path[-1]) for m in from_here]
        where = targets[0] if len(targets) == 1 else ", ".join(targets[:-1]) + " or " + targets[-1]
        return IllegalMoveError(
            f"{first}{separator}{last} is not a legal move: the piece on {first} can go to {where}",
            sorted(legal, key=lambda m: m.path),
        )
    ordered = sorted(legal, key=lambda m: m.path)
    return IllegalMoveError(
        f"the piece on {first} cannot move; legal moves: {list_moves(ordered)}", ordered
    )


def _hint(legal: list[Move]) -> str:
    """What the player can do instead: the compulsory captures, or the legal moves."""
    ordered = sorted(legal, key=lambda m: m.path)
    if ordered and ordered[0].is_capture:
        return f"a capture is compulsory: {list_moves(ordered)}"
    return f"legal moves: {list_moves(ordered)}" if ordered else "there is no legal move"


def side_name(color: Color) -> str:
    """``White`` or ``Black``."""
    return color.label.capitalize()
