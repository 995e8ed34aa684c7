"""Animated GIF of a whole game: one frame per ply plus the start, a longer pause on the end.

Frames share one fixed palette per theme (:func:`render.board.palette`), and Pillow stores each
frame as the rectangle that changed since the previous one, so a frame costs a few squares, not a
board.  Discord refuses attachments over 8 MB (the free limit), so the result is checked: if it is
too big the frames are drawn smaller, and only if that is not enough are frames dropped (evenly,
never the start or the end); :class:`GifResult` says which was done so the bot can tell people.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from rules.game import Game
from rules.notation import side_name

from .board import MIN_WIDTH, render_board, to_palette
from .themes import DEFAULT_THEME, Theme, find_theme

MAX_GIF_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit without boosts."""
GIF_WIDTH = 480
FRAME_MS = 900
FINAL_MS = 4000


@dataclass(frozen=True)
class GifResult:
    """The GIF and what was done to fit it under the size limit."""

    data: bytes
    frames: int
    """Frames in the GIF (plies + 1 unless frames were dropped)."""
    plies: int
    width: int
    note: str
    """Empty, or a sentence saying the GIF was shrunk or frames were dropped."""


def _frame_status(game: Game, ply: int) -> str:
    if ply == 0:
        return f"Start · {side_name(game.positions[0].turn)} to move"
    move = game.moves[ply - 1]
    mover = game.positions[ply - 1].turn
    number = (ply + 1) // 2
    dots = "." if mover is game.start.turn else "..."
    text = f"{number}{dots} {move.pdn()}"
    if ply == len(game.moves) and game.outcome is not None:
        return f"{text} · {game.outcome.summary(game.variant)}"
    return text


def _frames(
    game: Game, plies: list[int], theme: Theme, flip: bool, width: int
) -> list[Image.Image]:
    frames = []
    for ply in plies:
        image = render_board(
            game.positions[ply],
            last_move=game.moves[ply - 1] if ply else None,
            previous=game.positions[ply - 1] if ply else None,
            flip=flip,
            theme=theme,
            width=width,
            status=_frame_status(game, ply),
        )
        frames.append(to_palette(image, theme))
    return frames


def _encode(frames: list[Image.Image]) -> bytes:
    durations = [FRAME_MS] * len(frames)
    durations[-1] = FINAL_MS
    buf = io.BytesIO()
    frames[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=False,
    )
    return buf.getvalue()


def render_gif(
    game: Game,
    *,
    theme: str | Theme = DEFAULT_THEME,
    flip: bool = False,
    width: int = GIF_WIDTH,
    max_bytes: int = MAX_GIF_BYTES,
) -> GifResult:
    """The game as an animated GIF no larger than ``max_bytes``."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    total = len(game.moves)
    plies = list(range(total + 1))
    size = width
    while True:
        data = _encode(_frames(game, plies, th, flip, size))
        if len(data) <= max_bytes or size <= MIN_WIDTH * 2:
            break
        size = max(MIN_WIDTH * 2, int(size * 0.8))
    note = (
        ""
        if size == width
        else f"Drawn at {size} px instead of {width} px to stay under the limit."
    )
    step = 1
    while len(data) > max_bytes and len(plies) > 2:
        step += 1
        plies = sorted({*range(0, total, step), total})
        data = _encode(_frames(game, plies, th, flip, size))
    if step > 1:
        note = (
            f"{note} Shows every {_ordinal(step)} position ({len(plies)} of {total + 1}) to stay "
            f"under the limit."
        ).strip()
    if len(data) > max_bytes:
        raise ValueError(f"cannot fit the game into {max_bytes} bytes")
    return GifResult(data, len(plies), total, size, note)


def _ordinal(n: int) -> str:
    """``2nd``, ``3rd``, ``11th``: the frame step in words.

    >>> [_ordinal(n) for n in (2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
