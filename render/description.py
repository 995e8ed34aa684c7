"""The board in words: alt text for the image, and a text diagram for screen readers and text users.

Pure functions of a position (and the move that led to it), no Pillow.  :func:`describe` is the
alt text Discord attaches to the board image: the variant, whose turn it is, the last move, and
where every piece stands, in the players' notation: PDN numbers (runs written ``21 to 32``) or
the board's coordinates (``a1, c1, e1``).  It is at most :data:`MAX_ALT_TEXT` characters for any
position, as Discord requires.  :func:`text_diagram` draws the board in monospace characters, one
line per row with the files and ranks round it and the PDN numbers of each row beside it,
followed by a legend and the same piece list.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import replace

from rules.move import Move
from rules.notation import show_move
from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import Color, Notation

from .words import ENGLISH, RenderWords

MAX_ALT_TEXT = 1024
"""Discord's limit on an attachment's description."""
SYMBOLS = {EMPTY: ".", WHITE_MAN: "w", WHITE_KING: "W", BLACK_MAN: "b", BLACK_KING: "B"}
"""Characters of the text diagram for each square's content (light squares are blank)."""
LEGEND = (ENGLISH.legend_white, ENGLISH.legend_black)
LINE_WIDTH = 40
"""Longest line of the text diagram: a code block on a phone shows about this many characters."""
UNBROKEN = "\x00"
"""Stands for a space inside a run of squares (``21 to 32``) while a piece list is wrapped: the
wrapper never breaks there (it breaks at ASCII whitespace only), so a run stays on one line."""


def _kinds(words: RenderWords) -> tuple[tuple[int, str], ...]:
    return (
        (WHITE_MAN, words.white_men),
        (WHITE_KING, words.white_kings),
        (BLACK_MAN, words.black_men),
        (BLACK_KING, words.black_kings),
    )


KINDS = _kinds(ENGLISH)
"""Each kind of piece and its name in the piece list (English)."""


def _notation(notation: str) -> Notation:
    return Notation(notation)  # ValueError for anything but "numeric" / "algebraic"


def square_list(
    position: Position,
    squares: Iterable[int],
    notation: str = "numeric",
    words: RenderWords = ENGLISH,
) -> str:
    """``squares`` in words: the variant's numbers with runs of three or more as ``21 to 32``
    (``1, 3, 5 to 8``), or algebraic names ordered from White's side, rank by rank (``a1, c1, b2``);
    ``none`` when empty."""
    numbers = position.variant.geometry.numbers
    ordered = sorted({numbers[s] for s in squares})
    if not ordered:
        return words.none
    if _notation(notation) is Notation.ALGEBRAIC:
        geo = position.variant.geometry
        names = geo.names

        def by_rank(square: int) -> tuple[int, int]:
            column, row = geo.coordinates(square)
            return (-row, column)

        board = [geo.square_by_number[n] for n in ordered]
        return ", ".join(names[s] for s in sorted(board, key=by_rank))
    parts = []
    start = previous = ordered[0]
    runs = []
    for square in ordered[1:]:
        if square != previous + 1:
            runs.append((start, previous))
            start = square
        previous = square
    runs.append((start, previous))
    for first, last in runs:
        if last - first >= 2:
            parts.append(words.run.format(first=first, last=last))
        else:
            parts.extend(str(s) for s in range(first, last + 1))
    return ", ".join(parts)


def _by_kind(position: Position) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {kind: [] for kind, _ in KINDS}
    for square, kind in position.iter_pieces():
        out[kind].append(square)
    return out


def piece_sentences(
    position: Position, notation: str = "numeric", words: RenderWords = ENGLISH
) -> list[str]:
    """``White men (12): 21 to 32.``, ``White kings: none.``, ...: every piece by square."""
    by_kind = _by_kind(position)
    sentences = []
    for kind, name in _kinds(words):
        squares = by_kind[kind]
        if not squares:
            sentences.append(words.no_pieces.format(kind=name))
            continue
        where = square_list(position, squares, notation, words)
        sentences.append(words.pieces.format(kind=name, count=len(squares), squares=where))
    return sentences


def _last_move(position: Position, move: Move, notation: str, words: RenderWords) -> str:
    white = position.turn.other is Color.WHITE
    shown = show_move(move, position.variant, _notation(notation))
    if not move.captured:
        template = words.white_last_move if white else words.black_last_move
        return template.format(move=shown)
    count = len(move.captured)
    template = (words.white_captured if white else words.black_captured)(count)
    where = square_list(position, move.captured, notation, words)
    return template.format(move=shown, count=count, squares=where)


def describe(
    position: Position,
    *,
    last_move: Move | None = None,
    notation: str = "numeric",
    words: RenderWords = ENGLISH,
) -> str:
    """Alt text for the board image: variant, side to move, last move, and every piece by square,
    at most :data:`MAX_ALT_TEXT` characters.

    >>> from rules.variants import find_variant
    >>> print(describe(Position.start(find_variant("english"))))
    English draughts / American checkers, 8x8 board. Black to move. White men (12): 21 to 32. \
White kings: none. Black men (12): 1 to 12. Black kings: none.
    """
    variant = position.variant
    parts = [
        words.board.format(title=words.title(variant), size=variant.size),
        words.to_move_sentence(position.turn),
    ]
    if last_move is not None:
        parts.append(_last_move(position, last_move, notation, words))
    parts.extend(piece_sentences(position, notation, words))
    text = " ".join(parts)
    if len(text) > MAX_ALT_TEXT:  # cannot happen on 8x8 or 10x10 boards (tested); a safety net
        text = text[: MAX_ALT_TEXT - 1].rstrip() + "…"
    return text


def text_diagram(
    position: Position,
    *,
    flip: bool = False,
    notation: str = "numeric",
    words: RenderWords = ENGLISH,
) -> str:
    """The board as monospace text (for a code block): one line per row, Black's side at the top
    (White's with ``flip``), files above and below, ranks either side and, in numeric notation,
    the PDN numbers of the row's squares on the right; then a legend, the side to move and the
    pieces by square.  Lines are at most :data:`LINE_WIDTH` characters, broken between squares,
    never inside a run (``21 to 32``); a 10x10 board takes well under 2,000 characters.

    >>> from rules.variants import find_variant
    >>> print(text_diagram(Position.start(find_variant("english"))).splitlines()[1])
    8   b   b   b   b 8  1–4
    """
    variant = position.variant
    size = variant.size
    geo = variant.geometry
    numeric = _notation(notation) is Notation.NUMERIC
    files = "abcdefghijklmnopqrstuvwxyz"[:size]
    columns = list(range(size - 1, -1, -1) if flip else range(size))
    width = len(str(size))
    files_line = " " * (width + 1) + " ".join(files[c] for c in columns)
    by_row: dict[int, dict[int, int]] = {}
    for square in range(1, geo.squares + 1):
        column, row = geo.coordinates(square)
        by_row.setdefault(row, {})[column] = square
    lines = [files_line]
    for row in range(size - 1, -1, -1) if flip else range(size):
        rank = str(size - row)
        cells = []
        for column in columns:
            dark = by_row[row].get(column)
            cells.append(" " if dark is None else SYMBOLS[position.piece_at(dark)])
        line = f"{rank.rjust(width)} {' '.join(cells)} {rank.ljust(width)}"
        if numeric:
            numbers = sorted(geo.numbers[s] for s in by_row[row].values())
            line += f"  {numbers[0]}–{numbers[-1]}"
        lines.append(line.rstrip())
    lines += [files_line, "", words.legend_white, words.legend_black]
    lines.append(words.legend_empty_numbers if numeric else words.legend_empty)
    lines.append(words.to_move_sentence(position.turn))
    whole_runs = replace(words, run=words.run.replace(" ", UNBROKEN))
    for sentence in piece_sentences(position, notation, whole_runs):
        wrapped = textwrap.wrap(sentence, LINE_WIDTH, subsequent_indent="  ")
        lines += [line.replace(UNBROKEN, " ") for line in wrapped]
    return "\n".join(lines)
