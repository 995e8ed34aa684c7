"""The menus' options for tapping a move: the moves of a position, or the pieces that can move,
each written as the reader writes moves.

Two menus are built from them: the private picker's (:mod:`bot.ui.picker`: pieces, then one
piece's moves, paged) and the public board's own (:func:`board_menu`: every legal move when they
fit one select menu, so a move is two taps, open and pick; otherwise the pieces, a piece with a
single move standing for that move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.fen import parse_fen
from rules.move import Move
from rules.notation import square_name
from rules.variants import Variant, find_variant

from ..i18n import _, _n, render
from ..results import GameView
from .limits import fit

PAGE_SIZE = 25
"""Options in one select menu (Discord's maximum)."""
OPTION_TEXT = 100
"""Discord's limit on an option's label and description."""


@dataclass(frozen=True)
class Option:
    """One entry of a picker menu: what is sent back, what is shown."""

    value: str
    label: str
    description: str = ""


def move_name(move: Move, variant: Variant, notation: str) -> str:
    """The move as the viewer reads moves (numeric PDN or algebraic)."""
    return move.algebraic(variant.geometry.names) if notation == "algebraic" else move.pdn()


def piece_options(
    moves: Sequence[Move], variant: Variant, notation: str, code: str = "en"
) -> list[Option]:
    """The pieces that can move, those that capture first (then by square), each with how many
    moves it has (in the language ``code``)."""
    by_origin: dict[int, list[Move]] = {}
    for move in moves:
        by_origin.setdefault(move.path[0], []).append(move)

    def order(origin: int) -> tuple[bool, int]:
        return (not any(m.is_capture for m in by_origin[origin]), numbers[origin])

    numbers = variant.geometry.numbers
    options = []
    for origin in sorted(by_origin, key=order):
        own = by_origin[origin]
        name = square_name(origin, variant, notation)
        most = max(len(m.captured) for m in own)
        if most:
            label = "\N{CROSSED SWORDS} " + render(_("{square}: captures", square=name), code)
            pieces = _n("{count} piece", "{count} pieces", most)
            ways = _n(
                "{count} way to capture, up to {pieces}",
                "{count} ways to capture, up to {pieces}",
                len(own),
                pieces=pieces,
            )
            description = render(ways, code)
        else:
            label = name
            description = render(_n("{count} move", "{count} moves", len(own)), code)
        options.append(Option(str(origin), fit(label, OPTION_TEXT), fit(description, OPTION_TEXT)))
    return options


def move_options(
    moves: Sequence[Move], variant: Variant, notation: str, code: str = "en"
) -> list[Option]:
    """One piece's moves, longest captures first, each written out along its whole path (a
    multi-jump as ``5x14x23``, the way its arrow goes), with what each takes (in the language
    ``code``)."""
    options = []
    numbers = variant.geometry.numbers
    for move in sorted(moves, key=lambda m: (-len(m.captured), m.numbered_path)):
        description = ""
        if move.captured:
            taken = ", ".join(
                square_name(s, variant, notation)
                for s in sorted(move.captured, key=numbers.__getitem__)
            )
            description = render(_("takes {squares}", squares=taken), code)
        label = move_name(move, variant, notation)
        options.append(Option(move.pdn(), fit(label, OPTION_TEXT), fit(description, OPTION_TEXT)))
    return options


def page_of(options: Sequence[Option], page: int) -> tuple[list[Option], int, int]:
    """``(the options of page, the page shown, how many pages)``; a page past the end shows the
    last one."""
    pages = max(1, -(-len(options) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return list(options[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]), page, pages


@dataclass(frozen=True)
class BoardMenu:
    """The select menu on a running game's board: its options and what it asks for."""

    ply: int
    options: list[Option]
    moves: bool
    """True when the options are the moves themselves (each plays at once); False when they
    are pieces (a piece opens its moves privately; a piece with one move plays it)."""


def legal_moves(view: GameView) -> list[Move]:
    """The legal moves of ``view``'s position, captures first, then by path (the order the
    picker and ``/moves`` list them in)."""
    position = parse_fen(view.fen, find_variant(view.variant))  # with a king's run (frisian)
    return sorted(position.legal_moves(), key=lambda m: (not m.is_capture, m.path))


def board_menu(view: GameView, code: str = "en") -> BoardMenu | None:
    """The board's own menu for ``view`` in the language ``code``, written in the game's
    notation (the board is public: everyone reads the same message); None once it is over, or
    when even the pieces that can move do not fit one menu (more than 25: on 12x12, whose thirty
    men a side may all be free to move, or with many kings; the Arrows picker pages them)."""
    if not view.running:
        return None
    moves = legal_moves(view)
    if not moves:
        return None
    variant = find_variant(view.variant)
    notation = str(view.notation)
    if len(moves) <= PAGE_SIZE:
        return BoardMenu(view.ply, move_options(moves, variant, notation, code), True)
    pieces = piece_options(moves, variant, notation, code)
    if len(pieces) > PAGE_SIZE:  # the Arrows picker pages them
        return None
    single = {m.path[0]: m for m in moves if sum(n.path[0] == m.path[0] for n in moves) == 1}
    options = []
    for option in pieces:
        move = single.get(int(option.value))
        if move is None:
            options.append(option)
        else:  # a piece with one move: the move itself, so it is still two taps
            (only,) = move_options([move], variant, notation, code)
            options.append(only)
    return BoardMenu(view.ply, options, False)
