"""Board images: a position (plus last move, arrows, status) in, a PIL image out.

Build once, paste many.  Everything that does not depend on the position is drawn once and cached:
the background (frame, squares, coordinates, square numbers) per board size, theme, orientation
and width, and each piece sprite per theme, square size and kind, drawn at 4x and downsampled once
so the discs and crowns are antialiased.  A render is then a copy of the background, a few pastes,
an optional small supersampled overlay for the capture path and arrows.  The PNG encoding, on a
fixed palette per theme, is :mod:`render.encoding`'s.

The square numbers sit on plates (:mod:`render.labels`), cached per size, theme, orientation and
width; the background has them all, and a render lays a plate again only where something was
drawn over it, so the numbers are always on top.  :func:`board_labels` says where every label
(numbers, coordinates, status text) is and in which colours, for the legibility tests
(:mod:`render.legibility`).

Everything here is a pure function of its arguments; the caches hold immutable inputs and images
that are only ever copied or pasted from, so rendering is safe from several threads at once.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rules.geometry import Geometry, Numbering, geometry
from rules.move import Move
from rules.position import BLACK_KING, BLACK_MAN, WHITE_KING, WHITE_MAN, Position
from rules.variants import Color

from .labels import Padding, fitting_padding, ink_box, number_cap, plate
from .themes import DEFAULT_THEME, RGB, Theme, find_theme
from .words import ENGLISH, RenderWords

DEFAULT_WIDTH = 640
"""Reads well in a Discord embed on a phone and on a desktop."""
MIN_WIDTH, MAX_WIDTH = 160, 2048
SUPERSAMPLE = 4
"""Sprites are drawn this many times larger, then downsampled once."""
GHOST_OPACITY = 0.38
"""Opacity of a captured piece drawn where it stood."""

Arrow = tuple[int, ...]
"""A suggested move drawn as an arrow along its path: (from square, each landing square...,
to square), PDN numbers; a multi-jump bends at each landing, so the arrow shows the way the
piece really goes, not a straight line across pieces it never touches."""


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one board size at one image width."""

    size: int
    width: int
    square: int
    margin: int
    strip: int
    """Height of the status strip (added below the board only when a status is drawn)."""

    def origin(self, column: int, row: int, flip: bool) -> tuple[int, int]:
        """Top-left pixel of the square at board ``column``/``row`` (row 0 = Black's side)."""
        if flip:
            column, row = self.size - 1 - column, self.size - 1 - row
        return self.margin + column * self.square, self.margin + row * self.square


@lru_cache(maxsize=32)
def layout(size: int, width: int) -> Layout:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"image width must be {MIN_WIDTH}-{MAX_WIDTH} px, not {width}")
    min_margin = max(12, round(width * 0.045))
    square = (width - 2 * min_margin) // size
    margin = (width - size * square) // 2
    return Layout(size, width, square, margin, max(24, round(width * 0.08)))


def square_origin(
    pos_size: int,
    width: int,
    square: int,
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    """Top-left pixel of PDN ``square`` on a ``pos_size`` board at ``width`` (for tests/tools;
    ``mirrored``: a board whose a1 is not a playing square, ``orthogonal``: one played on every
    square, see :mod:`rules.geometry`)."""
    geo = geometry(pos_size, mirrored, orthogonal=orthogonal)
    column, row = geo.coordinates(square)
    return layout(pos_size, width).origin(column, row, flip)


def square_centre(
    pos_size: int,
    width: int,
    square: int,
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    """Centre pixel of PDN ``square`` (see :func:`square_origin`)."""
    x, y = square_origin(pos_size, width, square, flip, mirrored, orthogonal)
    half = layout(pos_size, width).square // 2
    return x + half, y + half


FONT_PATH = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
"""The font of every word on the images: DejaVu Sans, shipped with the package (its licence is
``fonts/LICENSE``) so images look the same on every machine, and it draws the accents and the
Cyrillic of players' names and of the translated status words."""


@lru_cache(maxsize=1)
def _font_data() -> bytes:
    return FONT_PATH.read_bytes()


@lru_cache(maxsize=64)
def _font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The bundled DejaVu Sans at ``pixels`` (the file is read once, each size loaded once)."""
    return ImageFont.truetype(io.BytesIO(_font_data()), max(6, pixels))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# -- cached parts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    """A piece of text on the board image and where its ink is: what a legibility check reads
    back from the pixels (:func:`render.legibility.measure_label`)."""

    kind: str
    """``number`` (a square's PDN number), ``file`` / ``rank`` (coordinates on the frame),
    ``status`` (the strip below the board) or ``name`` (a player's name on a GIF)."""
    text: str
    box: tuple[int, int, int, int]
    """Left, top, right, bottom (right and bottom exclusive) round the ink, in image pixels."""
    ink: RGB
    """The colour the text is drawn in."""
    back: RGB
    """The colour it is drawn on (a number's plate, the frame, the strip)."""
    square: int | None = None


Plates = tuple[tuple[tuple[int, int], Image.Image] | None, ...]
"""Per PDN square (index 0 unused): the top-left pixel and image of its number plate, or None."""


@lru_cache(maxsize=64)
def number_plates(geo: Geometry, theme: Theme, flip: bool, width: int) -> Plates:
    """Where each square's number plate goes and what it looks like (see :mod:`render.labels`),
    the number the variant writes for it (``geo.numbers``); all None when the squares are too
    small for numbers.  Do not modify."""
    lay = layout(geo.size, width)
    cap = number_cap(width)
    padding = plate_padding_for(geo, width)
    if padding is None:
        return (None,) * (geo.squares + 1)
    out: list[tuple[tuple[int, int], Image.Image] | None] = [None]
    for square in range(1, geo.squares + 1):
        column, row = geo.coordinates(square)
        text = str(geo.numbers[square])
        image = plate(text, cap, theme.square_number, theme.number_plate, padding)
        out.append((lay.origin(column, row, flip), image))
    return tuple(out)


@lru_cache(maxsize=64)
def plate_padding_for(geo: Geometry, width: int) -> Padding | None:
    """The padding of the number plates of ``geo``'s board at ``width``
    (:func:`render.labels.fitting_padding`), None when its squares are too small for numbers."""
    texts = [str(geo.numbers[square]) for square in range(1, geo.squares + 1)]
    return fitting_padding(layout(geo.size, width).square, number_cap(width), texts)


@lru_cache(maxsize=64)
def _coordinate_font(lay: Layout) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The coordinates' font: about three quarters of the margin, smaller if the ink of the
    widest rank (``10``, ``12``) would not leave two pixels of frame either side of it.  The ink,
    not the advance (which adds the glyphs' side bearings): on the 12x12 board at 480 px the
    advance would take the font down to 15 px, where the stems of ``i`` and ``l`` fall across
    two pixels and no pixel of them is solid ink."""
    pixels = round(lay.margin * 0.74)
    widest = str(lay.size)

    def ink_width(font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> float:
        left, _top, right, _bottom = font.getbbox(widest)
        return right - left

    while pixels > 6 and ink_width(_font(pixels)) > lay.margin - 4:
        pixels -= 1
    return _font(pixels)


@lru_cache(maxsize=64)
def _coordinates(
    size: int, flip: bool, width: int
) -> tuple[tuple[str, str, tuple[float, float]], ...]:
    """(kind, text, centre) of every coordinate on the frame: files below, ranks on the left."""
    lay = layout(size, width)
    sq = lay.square
    board_end = lay.margin + size * sq
    out = []
    for index in range(size):
        column = size - 1 - index if flip else index
        x = lay.margin + index * sq + sq / 2
        out.append(("file", "abcdefghijklmnopqrstuvwxyz"[column], (x, board_end + lay.margin / 2)))
    for index in range(size):
        rank = index + 1 if flip else size - index
        y = lay.margin + index * sq + sq / 2
        out.append(("rank", str(rank), (lay.margin / 2, y)))
    return tuple(out)


@lru_cache(maxsize=64)
def background(geo: Geometry, theme: Theme, flip: bool, width: int) -> Image.Image:
    """Frame, squares, coordinates and the number of every playing square (on a mirrored board
    a1 is light, see :mod:`rules.geometry`).  Do not modify."""
    size = geo.size
    lay = layout(size, width)
    img = Image.new("RGB", (width, width), theme.frame)
    draw = ImageDraw.Draw(img)
    sq = lay.square
    for row in range(size):
        for column in range(size):
            x, y = lay.origin(column, row, flip)
            dark = (row + column) % 2 == (0 if geo.mirrored else 1)
            color = theme.dark_square if dark else theme.light_square
            draw.rectangle((x, y, x + sq - 1, y + sq - 1), fill=color)
    for entry in number_plates(geo, theme, flip, width):
        if entry is not None:
            img.paste(entry[1], entry[0], entry[1])
    font = _coordinate_font(lay)
    for _kind, text, centre in _coordinates(size, flip, width):
        draw.text(centre, text, fill=theme.coordinates, font=font, anchor="mm")
    return img


def board_labels(
    size: int,
    width: int = DEFAULT_WIDTH,
    *,
    flip: bool = False,
    theme: str | Theme = DEFAULT_THEME,
    status: str | None = None,
    mirrored: bool = False,
    numbering: Numbering = Numbering.TOP_LEFT,
    orthogonal: bool = False,
) -> tuple[Label, ...]:
    """Every label :func:`render_board` draws on a ``size`` board at ``width`` (the square
    numbers, the coordinates, and the status text when ``status`` is given), with its box and
    colours: for tests and tools that check the labels can be read."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    lay = layout(size, width)
    cap = number_cap(width)
    out = []
    geo = geometry(size, mirrored, numbering, orthogonal)
    for square, entry in enumerate(number_plates(geo, th, flip, width)):
        if entry is not None:
            text = str(geo.numbers[square])
            box = ink_box(entry[0], text, cap, plate_padding_for(geo, width))
            out.append(Label("number", text, box, th.square_number, th.number_plate, square))
    font = _coordinate_font(lay)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    for kind, text, centre in _coordinates(size, flip, width):
        x0, y0, x1, y1 = probe.textbbox(centre, text, font=font, anchor="mm")
        box = (int(x0) - 1, int(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1)
        out.append(Label(kind, text, box, th.coordinates, th.frame))
    if status is not None:
        font_s, fitted, left_s = _fit_status(lay, status)
        anchor_y = lay.width + lay.strip / 2
        x0, y0, x1, y1 = probe.textbbox((left_s, anchor_y), fitted, font=font_s, anchor="lm")
        box = (int(x0) - 1, int(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1)
        out.append(Label("status", fitted, box, th.strip_text, th.strip))
    return tuple(out)


def _crown_polygon(cx: float, cy: float, w: float) -> list[tuple[float, float]]:
    """A three-pointed crown, ``w`` wide, centred on (cx, cy)."""
    h = w * 0.72
    top, base = cy - h / 2, cy + h / 2
    band = base - h * 0.32
    return [
        (cx - w / 2, base),
        (cx - w / 2, top + h * 0.18),
        (cx - w / 4, band - h * 0.12),
        (cx, top),
        (cx + w / 4, band - h * 0.12),
        (cx + w / 2, top + h * 0.18),
        (cx + w / 2, base),
    ]


@lru_cache(maxsize=256)
def sprite(theme: Theme, square: int, kind: int, ghost: bool = False) -> Image.Image:
    """An antialiased piece the size of one square (RGBA).  Do not modify."""
    s = square * SUPERSAMPLE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    white = kind in (WHITE_MAN, WHITE_KING)
    fill = theme.white_piece if white else theme.black_piece
    edge = theme.white_edge if white else theme.black_edge
    crown = theme.white_crown if white else theme.black_crown
    d = s * 0.72
    c = s / 2
    r = d / 2
    if not ghost:
        off = s * 0.035
        draw.ellipse(
            (c - r + off, c - r + off * 1.4, c + r + off, c + r + off * 1.4), fill=(0, 0, 0, 70)
        )
    draw.ellipse((c - r, c - r, c + r, c + r), fill=edge)
    # Rim-to-centre shading: concentric discs from a darker rim to the flat face colour.
    rim = r * 0.93
    steps = 10
    for i in range(steps):
        t = i / (steps - 1)
        rr = rim - (rim - r * 0.62) * t
        color = _mix(_mix(fill, edge, 0.45), fill, t)
        draw.ellipse((c - rr, c - rr, c + rr, c + rr), fill=color)
    # The groove of a real draughtsman, and a soft highlight on the upper left.
    groove = r * 0.62
    draw.ellipse(
        (c - groove, c - groove, c + groove, c + groove),
        outline=_mix(fill, edge, 0.5),
        width=max(1, round(s * 0.012)),
    )
    shine = _mix(fill, (255, 255, 255), 0.35)
    draw.arc(
        (c - rim * 0.82, c - rim * 0.82, c + rim * 0.82, c + rim * 0.82),
        start=190,
        end=260,
        fill=shine,
        width=max(1, round(s * 0.02)),
    )
    if kind in (WHITE_KING, BLACK_KING):
        w = d * 0.56
        outline = edge if white else _mix(crown, (0, 0, 0), 0.55)
        draw.polygon(_crown_polygon(c, c, w), fill=crown, outline=outline, width=round(s * 0.012))
        jewel = w * 0.075
        points = _crown_polygon(c, c, w)
        for px, py in (points[1], points[3], points[5]):
            draw.ellipse((px - jewel, py - jewel, px + jewel, py + jewel), fill=crown)
    small = img.resize((square, square), Image.Resampling.LANCZOS)
    if ghost:
        alpha = small.getchannel("A").point(lambda a: round(a * GHOST_OPACITY))
        small.putalpha(alpha)
    return small


@lru_cache(maxsize=64)
def _highlight_tile(theme: Theme, square: int) -> Image.Image:
    return Image.new("RGBA", (square, square), (*theme.highlight, theme.highlight_alpha))


# -- composing -----------------------------------------------------------------------------------


def render_board(
    position: Position,
    *,
    last_move: Move | None = None,
    previous: Position | None = None,
    flip: bool = False,
    theme: str | Theme = DEFAULT_THEME,
    width: int = DEFAULT_WIDTH,
    arrows: Iterable[Arrow] = (),
    status: str | None = None,
    status_side: Color | None = None,
) -> Image.Image:
    """The board as an RGB image.

    ``last_move`` (the move that led to ``position``) highlights its from and to squares, draws its
    capture path and shows the captured pieces as faint ghosts; ``previous`` (the position before
    it) tells kings from men among the ghosts, otherwise they are drawn as men.  ``flip`` puts
    Black at the bottom.  ``arrows`` draws suggested moves.  ``status`` adds a strip below the
    board with that text and a disc of ``status_side`` (default: the side to move; see
    :func:`status_text`).  Square numbers are drawn last, on their plates, over everything else
    (:mod:`render.labels`).
    """
    th = find_theme(theme) if isinstance(theme, str) else theme
    size = position.variant.size
    lay = layout(size, width)
    geo = position.variant.geometry
    sq = lay.square
    img = background(geo, th, flip, width).copy()

    def origin(square: int) -> tuple[int, int]:
        column, row = geo.coordinates(square)
        return lay.origin(column, row, flip)

    plates = number_plates(geo, th, flip, width)
    covered: set[int] = set()
    overlays: list[Overlay] = []
    if last_move is not None:
        tile = _highlight_tile(th, sq)
        marked = {last_move.path[0], last_move.path[-1]}
        for square in marked:
            img.paste(tile, origin(square), tile)
        victim_color = position.turn
        for square in last_move.captured:
            kind = previous.piece_at(square) if previous is not None else 0
            if kind == 0:
                kind = WHITE_MAN if victim_color is Color.WHITE else BLACK_MAN
            ghost = sprite(th, sq, kind, True)
            img.paste(ghost, origin(square), ghost)
        if last_move.is_capture:
            overlays.append(_draw_path(img, [origin(s) for s in last_move.path], sq, th.path))
        covered = marked | set(last_move.captured)

    for square, kind in position.iter_pieces():
        piece = sprite(th, sq, kind)
        img.paste(piece, origin(square), piece)
        covered.add(square)

    for path in arrows:
        overlays.append(_draw_arrow(img, [origin(square) for square in path], sq, th.arrow))

    # The numbers go back on top of whatever was drawn over their plates (about 6 us a plate).
    if plates[1] is not None:
        for overlay in overlays:
            covered.update(_crossed(overlay, plates))
        for square in covered:
            entry = plates[square]
            if entry is not None:
                img.paste(entry[1], entry[0], entry[1])

    if status is not None:
        side = position.turn if status_side is None else status_side
        img = _with_status(img, lay, th, side, status)
    return img


def status_text(
    position: Position,
    move_number: int | None = None,
    extra: str = "",
    *,
    words: RenderWords = ENGLISH,
) -> str:
    """``Black to move · move 12`` (plus ``extra``): the words of the status strip."""
    parts = [words.to_move(position.turn)]
    if move_number is not None:
        parts.append(words.move_number.format(number=move_number))
    if extra:
        parts.append(extra)
    return " · ".join(parts)


def _fit_status(
    lay: Layout, text: str
) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, str, int]:
    """Font, text (cut with an ellipsis if it still does not fit) and left edge of the status
    text: the largest size that fits, down to a size still readable on a phone."""
    disc = round(lay.strip * 0.9)
    left = lay.margin + disc + lay.margin // 2
    room = lay.width - lay.margin - left
    size = round(lay.strip * 0.5)
    smallest = max(8, round(lay.strip * 0.36))
    font = _font(size)
    while size > smallest and font.getlength(text) > room:
        size -= 1
        font = _font(size)
    while font.getlength(text) > room and len(text) > 1:
        text = text[:-2].rstrip() + "…"
    return font, text, left


def _with_status(
    img: Image.Image, lay: Layout, theme: Theme, side: Color, text: str
) -> Image.Image:
    out = Image.new("RGB", (lay.width, lay.width + lay.strip), theme.strip)
    out.paste(img, (0, 0))
    disc = round(lay.strip * 0.9)
    piece = sprite(theme, disc, WHITE_MAN if side is Color.WHITE else BLACK_MAN)
    top = lay.width + (lay.strip - disc) // 2
    out.paste(piece, (lay.margin, top), piece)
    font, fitted, left = _fit_status(lay, text)
    ImageDraw.Draw(out).text(
        (left, lay.width + lay.strip / 2), fitted, fill=theme.strip_text, font=font, anchor="lm"
    )
    return out


Overlay = tuple[tuple[int, int], Image.Image]
"""Where a line was painted: the top-left pixel of its mask, and the mask."""


def _crossed(overlay: Overlay, plates: Plates) -> list[int]:
    """Squares whose number plate ``overlay`` painted over."""
    (left, top), mask = overlay
    right, bottom = left + mask.width, top + mask.height
    out = []
    for square, entry in enumerate(plates):
        if entry is None:
            continue
        (x, y), tile = entry
        if x >= right or y >= bottom or x + tile.width <= left or y + tile.height <= top:
            continue
        box = (x - left, y - top, x - left + tile.width, y - top + tile.height)
        if mask.crop(box).getbbox() is not None:
            out.append(square)
    return out


Painter = Callable[[ImageDraw.ImageDraw, int, tuple[int, int]], None]
"""Draws opacity (0-255) on a supersampled mask: ``(draw, scale, mask offset in image pixels)``."""


def _overlay(
    img: Image.Image,
    points: Sequence[tuple[float, float]],
    pad: float,
    color: RGB,
    paint: Painter,
) -> Overlay:
    """Paint ``color`` through a mask that ``paint`` draws at 3x over the bounding box of
    ``points`` (plus ``pad``), shrunk once: antialiased lines for the cost of a small one-channel
    image, whatever the length of the path.  Returns where and what was painted."""
    left = max(0, int(min(p[0] for p in points) - pad))
    top = max(0, int(min(p[1] for p in points) - pad))
    right = min(img.width, int(max(p[0] for p in points) + pad) + 1)
    bottom = min(img.height, int(max(p[1] for p in points) + pad) + 1)
    k = 3
    mask = Image.new("L", ((right - left) * k, (bottom - top) * k), 0)
    paint(ImageDraw.Draw(mask), k, (left, top))
    small = mask.reduce(k)
    img.paste(color, (left, top, right, bottom), small)
    return (left, top), small


def _draw_path(img: Image.Image, origins: list[tuple[int, int]], sq: int, color: RGB) -> Overlay:
    centres = [(x + sq / 2, y + sq / 2) for x, y in origins]
    width = sq * 0.09

    def paint(draw: ImageDraw.ImageDraw, k: int, offset: tuple[int, int]) -> None:
        pts = [((x - offset[0]) * k, (y - offset[1]) * k) for x, y in centres]
        draw.line(pts, fill=225, width=round(width * k), joint="curve")
        dot = width * k * 0.95
        for x, y in pts:
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=235)

    return _overlay(img, centres, sq * 0.2, color, paint)


def _draw_arrow(
    img: Image.Image, origins: Sequence[tuple[int, int]], sq: int, color: RGB
) -> Overlay:
    """An arrow through the centres of ``origins`` (a square's top-left corners, in order): a
    line bent at each landing square, marked there with a dot, and a head at the last one."""
    centres = [(x + sq / 2, y + sq / 2) for x, y in origins]
    width = sq * 0.14

    def paint(draw: ImageDraw.ImageDraw, k: int, offset: tuple[int, int]) -> None:
        pts = [((x - offset[0]) * k, (y - offset[1]) * k) for x, y in centres]
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        dx, dy = bx - ax, by - ay
        length = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / length, dy / length
        head = min(length * 0.6, sq * 0.42 * k)
        hx, hy = bx - ux * head, by - uy * head
        draw.line([*pts[:-1], (hx, hy)], fill=200, width=round(width * k), joint="curve")
        dot = width * k * 0.9
        for x, y in pts[1:-1]:  # each landing of a multi-jump
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=200)
        half = head * 0.55
        draw.polygon(
            [(bx, by), (hx - uy * half, hy + ux * half), (hx + uy * half, hy - ux * half)],
            fill=200,
        )

    return _overlay(img, centres, sq * 0.5, color, paint)
