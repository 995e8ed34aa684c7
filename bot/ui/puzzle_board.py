"""A puzzle's private board and the daily puzzle's post: what they say, draw and offer.

The board is the picker's (:mod:`bot.ui.picker`) for a position that is not a game's: drawn
from the solver's side at the picker's width, with the same menu options
(:mod:`bot.ui.move_options`: every move when they fit one menu, so a move is one tap, else the
pieces, then a piece's moves, paged), arrows along a piece's moves once one is picked or
hinted, and, at the end, the whole solution drawn as arrows on the puzzle's position with the
rating change.  Every image has its alt text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from rules.fen import parse_fen
from rules.move import Move
from rules.notation import parse_move, show_move, square_name
from rules.variants import find_variant

from ..enums import Side
from ..i18n import Text, _, _p, join, render
from ..results import DailyPuzzle, PuzzleStanding, PuzzleTurn, PuzzleView, RatingChange
from .buttons import view_of
from .media import BoardRequest, Media
from .move_options import PAGE_SIZE, Option, move_options, page_of, piece_options
from .picker import PICKER_WIDTH, arrows_of
from .puzzle_items import PuzzleAction, PuzzleKit
from .replies import Outgoing, Upload

ALL = 0
"""The menu's ``origin`` when it lists every move, or the pieces."""


def legal(fen: str, variant: str) -> list[Move]:
    """The moves of the position, captures first, then by path (the picker's order)."""
    position = parse_fen(fen, find_variant(variant))
    return sorted(position.legal_moves(), key=lambda m: (not m.is_capture, m.path))


def menu_options(
    view: PuzzleView, origin: int, notation: str, code: str
) -> tuple[list[Option], int, Text]:
    """The menu at ``origin`` (:data:`ALL`, or a piece's square): its options, the square it
    is narrowed to (0: none) and what it asks for.  A hinted attempt lists the hinted piece's
    moves only."""
    moves = legal(view.fen, view.variant)
    variant = find_variant(view.variant)
    if view.hint_square is not None:
        origin = view.hint_square
    if origin != ALL:
        own = [m for m in moves if m.path[0] == origin]
        square = square_name(origin, variant, notation)
        asked = _("Pick a move from {square}", square=square)
        return move_options(own, variant, notation, code), origin, asked
    if len(moves) <= PAGE_SIZE:
        return move_options(moves, variant, notation, code), ALL, _("Pick your move")
    return piece_options(moves, variant, notation, code), ALL, _("Pick a piece")


def side_words(side: Side) -> Text:
    return _p("side", "White") if side is Side.WHITE else _p("side", "Black")


def change_line(change: RatingChange) -> Text:
    """``Puzzle rating 1500? → 1523 (+23). Streak 2, best 5.``"""
    sign = f"{change.delta:+d}"
    return _(
        "Puzzle rating {before} → {after} ({delta}). Streak {streak}, best {best}.",
        before=change.before,
        after=change.after,
        delta=sign,
        streak=change.streak,
        best=change.best_streak,
    )


def heading(view: PuzzleView) -> Text:
    return _(
        "**Puzzle #{id}** ({variant}, rated {rating}): you play {side}.",
        id=view.puzzle_id,
        variant=view.variant_title,
        rating=view.rating,
        side=side_words(view.solver),
    )


def puzzle_alt(view: PuzzleView, position: str, arrows: Text | None) -> Text:
    """The board's alt text: whose side it shows, the position in words, what the arrows are."""
    seen = _(
        "Puzzle #{id}, you play {side}, seen from your side. {position}",
        id=view.puzzle_id,
        side=side_words(view.solver),
        position=position,
    )
    return seen if arrows is None else join((seen, arrows))


@dataclass(frozen=True)
class Drawing:
    """What a puzzle board shows: the position and the move that led to it, the arrows and
    what they are (for the alt text), and the components under it."""

    fen: str
    previous: str | None
    last: str | None
    move_number: int
    arrows: tuple[tuple[int, ...], ...]
    arrows_are: Text | None
    items: list[discord.ui.Item[Any]]


async def turn_message(
    turn: PuzzleTurn,
    media: Media,
    kit: PuzzleKit,
    *,
    theme: str,
    notation: str,
    code: str,
    origin: int = ALL,
    page: int = 0,
) -> Outgoing:
    """The private message of ``turn``: its sentence, the board, and the menu with Hint while
    the attempt is open, or the solution and the rating change with Next once it is over."""
    view = turn.view
    lines: list[Text] = [heading(view), turn.text]
    if view.open:
        drawing = open_board(view, kit, notation, code, origin, page)
    else:
        drawing = solution_board(view, kit, code)
        if turn.change is not None:
            lines.append(change_line(turn.change))
    request = BoardRequest(
        view.variant,
        drawing.fen,
        drawing.previous,
        drawing.last,
        view.solver is Side.BLACK,
        drawing.move_number,
        "",
        theme,
        drawing.arrows,
        notation,
        PICKER_WIDTH,
        code,
    )
    drawn = await media.board(request)
    alt = puzzle_alt(view, drawn.alt, drawing.arrows_are)
    return Outgoing(
        content=render(join(tuple(lines), "\n"), code),
        files=[Upload(f"puzzle-{view.puzzle_id}-{view.ply}.png", drawn.png, render(alt, code))],
        view=view_of(*drawing.items),
    )


def open_board(
    view: PuzzleView, kit: PuzzleKit, notation: str, code: str, origin: int, page: int
) -> Drawing:
    """An attempt being solved: the position now, the menu at ``origin`` and ``page`` (with
    the arrows of the piece it lists), its page buttons, and Hint until it was asked for."""
    options, origin, placeholder = menu_options(view, origin, notation, code)
    shown, page, pages = page_of(options, page)
    arrows_are = None
    if origin != ALL:
        square = square_name(origin, find_variant(view.variant), notation)
        arrows_are = _("Arrows show where the piece on {square} can go.", square=square)
    choices = [
        discord.SelectOption(label=o.label, value=o.value, description=o.description or None)
        for o in shown
    ]
    items: list[discord.ui.Item[Any]] = [
        kit.select(view.attempt_id, view.ply, origin, page, choices, render(placeholder, code))
    ]
    if pages > 1 and page > 0:
        items.append(page_button(kit, view, origin, page - 1, _p("button", "Previous"), code))
    if pages > 1 and page < pages - 1:
        items.append(page_button(kit, view, origin, page + 1, _p("button", "Next"), code))
    if origin != ALL and view.hint_square is None:
        items.append(page_button(kit, view, ALL, 0, _p("button", "Back to pieces"), code))
    if not view.hinted:
        hint = render(_p("button", "Hint"), code)
        items.append(kit.button(PuzzleAction.HINT, view.attempt_id, view.ply, label=hint))
    arrows = () if origin == ALL else arrows_of(legal_from(view, origin))
    return Drawing(
        view.fen, view.previous_fen, view.last_move, view.move_number, arrows, arrows_are, items
    )


def solution_board(view: PuzzleView, kit: PuzzleKit, code: str) -> Drawing:
    """An attempt that is over: the puzzle's position with the whole solution as arrows, and
    Next (a puzzle of the same variant)."""
    line = " ".join(show_move(m, find_variant(view.variant)) for m in view.solution)
    following = kit.button(
        PuzzleAction.NEXT,
        view.puzzle_id,
        label=render(_p("button", "Next puzzle"), code),
        style=discord.ButtonStyle.primary,
    )
    arrows_are = _("Arrows show the solution: {line}.", line=line)
    return Drawing(view.start_fen, None, None, 1, solution_arrows(view), arrows_are, [following])


def page_button(
    kit: PuzzleKit, view: PuzzleView, origin: int, page: int, label: Text, code: str
) -> discord.ui.Item[Any]:
    return kit.button(
        PuzzleAction.PAGE, view.attempt_id, view.ply, origin, page, label=render(label, code)
    )


def legal_from(view: PuzzleView, origin: int) -> list[Move]:
    return [m for m in legal(view.fen, view.variant) if m.path[0] == origin]


def solution_arrows(view: PuzzleView) -> tuple[tuple[int, ...], ...]:
    """The solution's moves as arrows, each along its path (drawn on the puzzle's position)."""
    variant = find_variant(view.variant)
    position = parse_fen(view.start_fen, variant)
    paths = []
    for text in view.solution:
        move = parse_move(position, text)
        paths.append(tuple(move.path))
        position = position.play(move)
    return tuple(paths)


async def daily_message(
    daily: DailyPuzzle, text: Text, media: Media, kit: PuzzleKit, *, theme: str, code: str
) -> Outgoing:
    """The daily puzzle's post: its sentence, the board from the solver's side, and Solve."""
    request = BoardRequest(
        daily.variant,
        daily.fen,
        None,
        None,
        daily.solver is Side.BLACK,
        1,
        "",
        theme,
        (),
        str(daily.notation),
        PICKER_WIDTH,
        code,
    )
    drawn = await media.board(request)
    said = join(
        (
            text,
            _(
                "{variant}, rated {rating}: {side} to play. Tap Solve to try it privately;"
                " discuss it in the thread.",
                variant=daily.variant_title,
                rating=daily.rating,
                side=side_words(daily.solver),
            ),
        )
    )
    alt = _(
        "The daily puzzle of {day}, {side} to play. {position}",
        day=daily.day,
        side=side_words(daily.solver),
        position=drawn.alt,
    )
    solve = kit.button(
        PuzzleAction.SOLVE,
        daily.puzzle_id,
        label=render(_p("button", "Solve"), code),
        style=discord.ButtonStyle.primary,
    )
    return Outgoing(
        content=render(said, code),
        files=[Upload(f"daily-{daily.day}-{daily.puzzle_id}.png", drawn.png, render(alt, code))],
        view=view_of(solve),
        part=f"daily-{daily.day}",
    )


def standings_lines(standings: Sequence[PuzzleStanding]) -> list[Text]:
    """A solver's puzzle ratings, a line per family."""
    return [
        _(
            "{family}: {rating}, {solved} of {attempts} solved, streak {streak} (best {best})",
            family=s.family_title,
            rating=s.rating,
            solved=s.solved,
            attempts=s.attempts,
            streak=s.streak,
            best=s.best_streak,
        )
        for s in standings
    ]
