"""Animated GIF of a whole game: one frame per ply plus the start.

Each ply shows for :data:`FRAME_MS` (long enough to follow a move, short enough that a 60-ply game
plays in under a minute), a capture for :data:`CAPTURE_MS` (the eye needs longer to see which
pieces went), and the last position for :data:`FINAL_MS`.  The strip below the board names the
side that just moved next to its move (``12. White 11-15``, ``12... Black 23x14``), in numbers or,
for the variants that write moves so, in coordinates; with ``names`` a header line above the board
gives the players' names beside a disc of their colour.  Names are user text: they are cleaned
(:func:`clean_name`) and cut to fit, and a name with nothing the bundled font can draw falls back
to the side's name.

Frames share one fixed palette per theme (:func:`render.encoding.palette`), and Pillow stores each
frame as the rectangle that changed since the previous one, so a frame costs a few squares, not a
board.  Discord refuses attachments over 8 MB (the free limit), so the result is checked: if it is
too big the frames are drawn smaller, and only if that is not enough are frames dropped (evenly,
never the start or the end); :class:`GifResult` says which was done so the bot can tell people.
"""

from __future__ import annotations

import io
import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from rules.game import Game
from rules.notation import show_move
from rules.position import BLACK_MAN, WHITE_MAN
from rules.variants import Color, Notation

from .board import MIN_WIDTH, Label, _font, layout, render_board, sprite
from .encoding import to_palette
from .themes import DEFAULT_THEME, Theme, find_theme
from .words import ENGLISH, RenderWords

MAX_GIF_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit without boosts."""
GIF_WIDTH = 480
FRAME_MS = 600
"""Time a ply shows."""
CAPTURE_MS = 1200
"""Time a ply that captures shows."""
FINAL_MS = 4000
"""Time the final position shows."""
MAX_NAME = 64
"""Characters of a name looked at; the rest would not fit anyway."""


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


def frame_status(
    game: Game, ply: int, notation: str = "numeric", words: RenderWords = ENGLISH
) -> str:
    """The status strip of the frame after ``ply`` plies: ``Start · Black to move``, then the
    move just played and who played it (``1. Black 11-15``, ``1... White 23-19``), with the
    result on the last frame of a finished game."""
    if ply == 0:
        return words.start_white if game.positions[0].turn is Color.WHITE else words.start_black
    move = game.moves[ply - 1]
    mover = game.positions[ply - 1].turn
    template = words.white_moved if mover is Color.WHITE else words.black_moved
    text = template.format(
        number=(ply + 1) // 2,
        dots="." if mover is game.start.turn else "...",
        move=show_move(move, game.variant, notation),
    )
    if ply == len(game.moves) and game.outcome is not None:
        result, ended = words.summary(game.outcome, game.variant)
        return words.ending.format(move=text, result=result, words=ended)
    return text


@lru_cache(maxsize=1024)
def _has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` (rather than its empty-box "missing" glyph)."""
    font = _font(20)
    missing = font.getmask("\ue000")
    mask = font.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def clean_name(name: str | None, fallback: str) -> str:
    """``name`` as the bundled font (DejaVu Sans: Latin with accents, Greek, Cyrillic) can draw
    it: ``José`` and ``Иван`` as they are, accents taken off letters it has no accented form of,
    control and invisible characters dropped, runs of spaces made one, characters it cannot draw
    (Chinese, emoji) left out; ``fallback`` when nothing readable is left (no letter or digit)."""
    if not name:
        return fallback
    text = unicodedata.normalize("NFC", name[: MAX_NAME * 2])
    out = []
    for char in text:
        category = unicodedata.category(char)
        if category[0] in "CZ":  # controls, format characters, line and paragraph separators
            out.append(" ")
            continue
        if _has_glyph(char):
            out.append(char)
            continue
        for part in unicodedata.normalize("NFKD", char):
            if unicodedata.category(part) != "Mn" and _has_glyph(part):
                out.append(part)
    cleaned = " ".join("".join(out).split())[:MAX_NAME]
    return cleaned if any(c.isalnum() for c in cleaned) else fallback


def _fit(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: float) -> str:
    """``text``, cut with an ellipsis until it is at most ``room`` pixels long."""
    if font.getlength(text) <= room:
        return text
    while len(text) > 1 and font.getlength(text + "…") > room:
        text = text[:-1].rstrip()
    return text + "…" if font.getlength(text + "…") <= room else ""


@lru_cache(maxsize=16)
def names_header(
    names: tuple[str, str], theme: Theme, width: int, words: RenderWords = ENGLISH
) -> tuple[Image.Image, tuple[Label, ...]]:
    """The header line above the board: White's name after a white disc on the left, Black's
    before a black disc on the right, each cut to half the width; and the two name labels (for
    legibility checks).  Do not modify the image."""
    lay = layout(8, width)
    height = lay.strip
    img = Image.new("RGB", (width, height), theme.strip)
    draw = ImageDraw.Draw(img)
    disc = round(height * 0.7)
    gap = max(4, lay.margin // 2)
    font = _font(round(height * 0.5))
    room = (width - 2 * lay.margin - 2 * disc - 4 * gap) / 2
    white = _fit(clean_name(names[0], words.white), font, room)
    black = _fit(clean_name(names[1], words.black), font, room)
    top = (height - disc) // 2
    left_disc = sprite(theme, disc, WHITE_MAN)
    right_disc = sprite(theme, disc, BLACK_MAN)
    img.paste(left_disc, (lay.margin, top), left_disc)
    img.paste(right_disc, (width - lay.margin - disc, top), right_disc)
    middle = height / 2
    labels = []
    for text, x, anchor in (
        (white, lay.margin + disc + gap, "lm"),
        (black, width - lay.margin - disc - gap, "rm"),
    ):
        if not text:
            continue
        draw.text((x, middle), text, fill=theme.strip_text, font=font, anchor=anchor)
        x0, y0, x1, y1 = draw.textbbox((x, middle), text, font=font, anchor=anchor)
        box = (int(x0) - 1, int(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1)
        labels.append(Label("name", text, box, theme.strip_text, theme.strip))
    return img, tuple(labels)


def _frames(
    game: Game,
    plies: list[int],
    theme: Theme,
    flip: bool,
    width: int,
    names: tuple[str, str] | None,
    notation: str,
    words: RenderWords = ENGLISH,
) -> list[Image.Image]:
    header = names_header(names, theme, width, words)[0] if names is not None else None
    frames = []
    for ply in plies:
        image = render_board(
            game.positions[ply],
            last_move=game.moves[ply - 1] if ply else None,
            previous=game.positions[ply - 1] if ply else None,
            flip=flip,
            theme=theme,
            width=width,
            status=frame_status(game, ply, notation, words),
            status_side=game.positions[ply - 1].turn if ply else None,
        )
        if header is not None:
            framed = Image.new("RGB", (image.width, header.height + image.height))
            framed.paste(header, (0, 0))
            framed.paste(image, (0, header.height))
            image = framed
        frames.append(to_palette(image, theme))
    return frames


def frame_durations(game: Game, plies: list[int]) -> list[int]:
    """Milliseconds each frame (showing the position after each of ``plies``) stays."""
    durations = [
        CAPTURE_MS if ply and game.moves[ply - 1].is_capture else FRAME_MS for ply in plies
    ]
    durations[-1] = FINAL_MS
    return durations


def _encode(frames: list[Image.Image], durations: list[int]) -> bytes:
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
    names: tuple[str, str] | None = None,
    notation: str = "numeric",
    words: RenderWords = ENGLISH,
) -> GifResult:
    """The game as an animated GIF no larger than ``max_bytes``.

    ``names`` (White's, Black's) adds a header line with the players' names; ``notation``
    (``numeric`` or ``algebraic``) is how the moves are written in the strip; ``words`` the
    language of the strip, the header's fallback names and the note."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    notation = Notation(notation).value  # ValueError for an unknown notation
    total = len(game.moves)
    plies = list(range(total + 1))
    size = width

    def encode(plies: list[int], size: int) -> bytes:
        frames = _frames(game, plies, th, flip, size, names, notation, words)
        return _encode(frames, frame_durations(game, plies))

    while True:
        data = encode(plies, size)
        if len(data) <= max_bytes or size <= MIN_WIDTH * 2:
            break
        size = max(MIN_WIDTH * 2, int(size * 0.8))
    note = "" if size == width else words.shrunk.format(size=size, width=width)
    step = 1
    while len(data) > max_bytes and len(plies) > 2:
        step += 1
        plies = sorted({*range(0, total, step), total})
        data = encode(plies, size)
    if step > 1:
        thinned = words.thinned.format(
            ordinal=words.ordinal(step), shown=len(plies), total=total + 1
        )
        note = f"{note} {thinned}".strip()
    if len(data) > max_bytes:
        raise ValueError(f"cannot fit the game into {max_bytes} bytes")
    return GifResult(data, len(plies), total, size, note)
