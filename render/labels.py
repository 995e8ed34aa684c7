"""Square numbers a player can read on a phone: bold narrow digits on a small plate.

Discord shows the 640 px board about 330 px wide on a phone, where a 10x10 square is only about
30 px.  The PDN numbers are how people type moves, so they must stay readable there: digits at
least 8 px tall at that size (:mod:`render.legibility`) and a contrast of at least 3:1 with what
is under them, on every theme, on highlighted squares, under the ghost of a captured piece and
where a number meets a piece.

What was chosen, and why:

* **A plate.**  Each number sits on a small opaque plate in the top-left corner of its square, a
  tab flush with the square's corner with its inner corner rounded, in a darker shade of the dark
  square.  The digits are drawn in a light ink that has a contrast of 7:1 or more with the plate.
  So the contrast is the plate's, whatever lies below: a bare square, the last-move tint, a ghost,
  the capture path or a man or king.  A halo (an outline round each digit) would hide a little
  less of a piece, but a halo thin enough for 8 px digits is a pixel or two, so the digits' own
  antialiased edges meet the piece and the contrast then depends on what is below; it also looks
  busy.  Moving the numbers off the squares (onto the light squares or the frame) would make it
  unclear which square a number names.  Numbers are kept on every dark square, empty or not,
  because the square a move starts from always holds a piece: showing them only on empty squares
  would hide exactly the number a player needs to type.
* **Drawn digits, not a font.**  At the required size the bundled font's digits are so wide that
  "50" on its plate would cover 60% of a 10x10 square's width, and its regular weight has
  strokes under 1 px at 330 px.  The ten digits here are drawn as strokes (lines and elliptical
  arcs, in the manner of road-sign lettering): narrow (0.56 of their height), bold (strokes 0.17
  of the height, 1.5 px at 330 px) and the same on every machine and Pillow version.  A two-digit
  plate is then about half a 10x10 square's width and 40% of its height (a fifth of its area), and
  40% by a third of an 8x8 square.
* **The pieces stay the main thing.**  The plate covers only the corner of a square outside the
  middle of a piece: the disc's centre, its face beside a king's crown and the crown are never
  covered, and the plate's shade is close to the dark square's so that the board reads as squares
  and pieces, with the numbers as a quiet layer on top.  Plates are drawn last (over pieces,
  ghosts, the capture path and hint arrows), so they also break a capture path or an arrow where
  it crosses a square's top-left corner: a short gap in a line is easier to live with than a
  number that cannot be read.

The digit height follows the image width (:func:`number_cap`), so the numbers are the same size
on the 8x8 and the 10x10 board and keep their size at 330 px display width at any image width.
Below :data:`MIN_NUMBERED_SQUARE` pixels per square they would cover the pieces and are left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from .legibility import DISPLAY_WIDTH, MIN_CAP_HEIGHT
from .themes import RGB

MIN_NUMBERED_SQUARE = 24
"""Below this many pixels per square the numbers would cover the pieces: they are left out."""
CAP_MARGIN = 1.08
"""Digits are drawn this much taller than the least height, so rounding and antialiasing cannot
take them below it."""
DIGIT_RATIO = 0.56
"""Width of a digit over its height."""
DIGIT_WEIGHT = 0.17
"""Stroke width over digit height."""
DIGIT_GAP = 0.14
"""Space between two digits over digit height."""
SUPERSAMPLE = 4

Point = tuple[float, float]


def number_cap(width: int) -> int:
    """Height in pixels of the square numbers' digits in an image ``width`` pixels wide: at least
    :data:`render.legibility.MIN_CAP_HEIGHT` px when it is shown at 330 px."""
    return math.ceil(MIN_CAP_HEIGHT * CAP_MARGIN * width / DISPLAY_WIDTH)


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float) -> list[Point]:
    """Points along an ellipse from angle ``start`` to ``end`` (degrees; 0 = right, 90 = down)."""
    n = max(2, int(abs(end - start) / 8) + 1)
    out = []
    for i in range(n):
        a = math.radians(start + (end - start) * i / (n - 1))
        out.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    return out


def digit_strokes(digit: str, w: float, h: float, t: float) -> list[list[Point]]:
    """The strokes (polylines along the middle of the pen) of ``digit`` in a ``w`` x ``h`` box
    drawn with a pen ``t`` wide."""
    left, right, top, bottom = t / 2, w - t / 2, t / 2, h - t / 2
    cx, rx, tall = (left + right) / 2, (right - left) / 2, bottom - top
    if digit == "0":
        ry = min(rx * 1.05, tall / 2)
        bowl = _arc(cx, top + ry, rx, ry, 180, 360) + _arc(cx, bottom - ry, rx, ry, 0, 180)
        return [[*bowl, bowl[0]]]
    if digit == "1":
        stem = cx + 0.36 * rx
        return [[(left + 0.1 * rx, top + 0.32 * tall), (stem, top), (stem, bottom)]]
    if digit == "2":
        ry = 0.27 * tall
        bowl = _arc(cx, top + ry, rx, ry, 195, 385)
        return [[*bowl, (left, bottom), (right + 0.02 * rx, bottom)]]
    if digit == "3":
        upper = 0.245 * tall
        lower = 0.5 * tall - upper
        middle = top + 2 * upper
        return [
            _arc(cx, top + upper, rx * 0.9, upper, 200, 450)
            + _arc(cx, bottom - lower, rx, lower, 270, 520),
            [(cx - 0.35 * rx, middle), (cx, middle)],
        ]
    if digit == "4":
        stem = left + 0.74 * (right - left)
        bar = top + 0.7 * tall
        return [[(stem, top), (left, bar), (right + 0.05 * rx, bar)], [(stem, top), (stem, bottom)]]
    if digit == "5":
        ry = 0.31 * tall
        bowl = _arc(cx, bottom - ry, rx, ry, 205, 515)
        return [[(right, top), (left + 0.1 * rx, top), *bowl]]
    if digit in "69":
        ry = 0.3 * tall
        loop = _arc(cx, bottom - ry, rx, ry, 180, 540)
        hook = _arc(cx, top + rx, rx, rx, 180, 305)
        stroke = [*reversed(hook), (left, bottom - ry), *loop]
        if digit == "9":
            stroke = [(w - x, h - y) for x, y in stroke]
        return [stroke]
    if digit == "7":
        return [[(left, top), (right, top), (left + 0.28 * (right - left), bottom)]]
    if digit == "8":
        upper = 0.235 * tall
        lower = 0.5 * tall - upper
        return [
            _arc(cx, top + upper, rx * 0.86, upper, 90, 450),
            _arc(cx, bottom - lower, rx, lower, -90, 270),
        ]
    raise ValueError(f"not a digit: {digit!r}")


def _digit_box(cap: int) -> tuple[int, int]:
    """(width of one digit, distance from one digit to the next) in whole pixels."""
    width = max(1, round(cap * DIGIT_RATIO))
    return width, width + max(1, round(cap * DIGIT_GAP))


def digits_width(text: str, cap: int) -> int:
    """Width in pixels of :func:`digits_mask` for ``text``."""
    width, advance = _digit_box(cap)
    return (len(text) - 1) * advance + width


@lru_cache(maxsize=128)
def _digit_mask(digit: str, cap: int) -> Image.Image:
    """One digit as an antialiased coverage mask, drawn at 4x and shrunk.  Do not modify."""
    k = SUPERSAMPLE
    width = _digit_box(cap)[0]
    w, h, t = width * k, cap * k, cap * DIGIT_WEIGHT * k
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    for points in digit_strokes(digit, w, h, t):
        draw.line(points, fill=255, width=round(t), joint="curve")
        for px, py in (points[0], points[-1]):
            draw.ellipse((px - t / 2, py - t / 2, px + t / 2, py + t / 2), fill=255)
    return mask.reduce(k)


@lru_cache(maxsize=512)
def digits_mask(text: str, cap: int) -> Image.Image:
    """``text`` (digits only) as an antialiased coverage mask ``cap`` pixels tall.
    Do not modify."""
    advance = _digit_box(cap)[1]
    mask = Image.new("L", (digits_width(text, cap), cap), 0)
    for i, digit in enumerate(text):
        mask.paste(_digit_mask(digit, cap), (i * advance, 0))
    return mask


Padding = tuple[int, int]
"""(horizontal, vertical) space in pixels between a plate's edge and its digits."""
TIGHT_PADDING = 2
"""The least horizontal padding (the ink box a check reads is one pixel beyond the digits, so
it stays on the plate)."""


def plate_padding(cap: int) -> Padding:
    """The usual padding of a plate whose digits are ``cap`` pixels tall."""
    return max(2, round(cap * 0.2)), max(2, round(cap * 0.17))


def plate_size(text: str, cap: int, padding: Padding | None = None) -> tuple[int, int]:
    px, py = plate_padding(cap) if padding is None else padding
    return digits_width(text, cap) + 2 * px, cap + 2 * py


@lru_cache(maxsize=64)
def _plate_shape(w: int, h: int, radius: int) -> Image.Image:
    """Opacity of a ``w`` x ``h`` plate: a rectangle with its bottom-right corner rounded."""
    k = SUPERSAMPLE
    shape = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(shape).rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1),
        radius=radius * k,
        fill=255,
        corners=(False, False, True, False),
    )
    return shape.reduce(k)


@lru_cache(maxsize=512)
def plate(text: str, cap: int, ink: RGB, back: RGB, padding: Padding | None = None) -> Image.Image:
    """The number ``text`` on its plate (RGBA; transparent outside the rounded inner corner),
    ``padding`` round the digits (the usual by default).  Do not modify."""
    px, py = plate_padding(cap) if padding is None else padding
    w, h = plate_size(text, cap, (px, py))
    img = Image.new("RGBA", (w, h), (*back, 255))
    img.paste(ink, (px, py, px + digits_width(text, cap), py + cap), digits_mask(text, cap))
    img.putalpha(_plate_shape(w, h, round(min(px, py) * 1.6)))
    return img


def ink_box(
    origin: tuple[int, int], text: str, cap: int, padding: Padding | None = None
) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom; exclusive) round the digits of the plate at ``origin``,
    one pixel wider on each side: what a check of the label looks at."""
    px, py = plate_padding(cap) if padding is None else padding
    x, y = origin[0] + px, origin[1] + py
    return (x - 1, y - 1, x + digits_width(text, cap) + 1, y + cap + 1)


def fits(square: int, cap: int, texts: Sequence[str], padding: Padding | None = None) -> bool:
    """Whether plates for ``texts`` fit on squares of ``square`` pixels: no wider than 0.6 of the
    square, which keeps them off the points a piece is told by (its centre and the face beside
    a king's crown)."""
    if square < MIN_NUMBERED_SQUARE:
        return False
    widest = max(plate_size(text, cap, padding)[0] for text in texts)
    return widest <= square * 0.6


def fitting_padding(square: int, cap: int, texts: Sequence[str]) -> Padding | None:
    """The padding of plates for ``texts`` on squares of ``square`` pixels: the usual one, else
    the tight one (:data:`TIGHT_PADDING` either side of the digits) when that is what makes
    them fit, else None (no numbers).  The tight plates are for the 12x12 board at 480 px (the
    picker's and the GIF's width), whose 36 px squares are a pixel short of the usual plate of
    ``72``: its numbers matter most on the picker, where a player finds the square a menu
    names."""
    usual = plate_padding(cap)
    if fits(square, cap, texts, usual):
        return usual
    tight = (TIGHT_PADDING, usual[1])
    return tight if fits(square, cap, texts, tight) else None
