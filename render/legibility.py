"""Is a label readable?  WCAG contrast maths and a measurement of drawn labels on real pixels.

Discord shows a board image about :data:`DISPLAY_WIDTH` pixels wide on a phone, so a label is
judged at that scale: the digits of a square number must be at least :data:`MIN_CAP_HEIGHT`
pixels tall there (the cap height: the digits' ink from top to bottom), and every label must have
a contrast ratio of at least :data:`MIN_CONTRAST` against what is directly under it.  3:1 is the
WCAG 2 minimum for large text and for graphical objects; we ask it of every label, however small.

:func:`measure_label` reads a label back from the pixels of a decoded image, not from the
colours the renderer meant to use: inside the label's box it finds the solid ink (pixels close
to the ink colour), takes the ink colour as found, measures the text's height, and compares the
ink with every other pixel of the box that is not on the text's antialiased edge, so whatever
shows through under or round the text (a plate, a bare square, a piece, a highlight, a ghost)
counts against it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageFilter

RGB = tuple[int, int, int]

DISPLAY_WIDTH = 330
"""Width in pixels at which Discord shows a board image on a phone."""
MIN_CAP_HEIGHT = 8.0
"""Least height of a square number's digits at :data:`DISPLAY_WIDTH`, in pixels."""
MIN_CONTRAST = 3.0
"""Least WCAG contrast ratio of a label against what is under it."""


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


@lru_cache(maxsize=4096)
def relative_luminance(color: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour: 0 for black, 1 for white."""
    r, g, b = (_linear(c) for c in color[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def display_pixels(pixels: float, width: int) -> float:
    """``pixels`` of an image ``width`` wide, as many pixels as they are when the image is shown
    :data:`DISPLAY_WIDTH` wide."""
    return pixels * DISPLAY_WIDTH / width


INK_TOLERANCE = 40.0
"""How far (RGB distance) a pixel may be from the ink colour and still count as solid ink: the
fixed PNG palette moves flat colours by up to about 15."""


@dataclass(frozen=True)
class Measured:
    """A label as read back from pixels."""

    ink_height: int
    """Rows of the box (image pixels) where the text covers at least half a pixel."""
    ink: RGB
    """Median colour of the solid ink."""
    contrast: float
    """Least contrast ratio between ``ink`` and any backing pixel."""
    worst_backing: RGB
    """The backing pixel that gives ``contrast``."""
    ink_pixels: int
    backing_pixels: int


def measure_label(img: Image.Image, box: tuple[int, int, int, int], ink: RGB) -> Measured | None:
    """Read the label drawn in ``box`` (left, top, right, bottom; right and bottom exclusive) of
    ``img`` in colour ``ink``.

    Solid ink is every pixel within :data:`INK_TOLERANCE` of ``ink``; the ink's colour is then
    the median of those pixels, as found.  The typical backing is the median of the pixels more
    than one pixel from solid ink.  A pixel that is a blend of the two (the antialiased edge of a
    glyph: on the line between them in RGB, within the tolerance) belongs to the text; every other
    pixel more than one pixel (diagonals included) from the text is backing, whatever it is: the
    plate, a square, a piece, a highlight, and the contrast is the least between the ink and any of
    them.  None when the box has no ink or no backing."""
    crop = img.convert("RGB").crop(box)
    w = crop.width
    raw = crop.tobytes()
    pixels: list[RGB] = list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
    # Each judgement below depends on a pixel's colour alone, and a label's box holds few
    # colours (a PNG on a fixed palette at most 256): each is judged once per colour.
    colours = set(pixels)
    limit = INK_TOLERANCE**2
    is_solid = {px: _distance2(px, ink) <= limit for px in colours}
    core = [is_solid[px] for px in pixels]
    solid = [px for px, is_ink in zip(pixels, core, strict=True) if is_ink]
    if not solid:
        return None
    around = [px for px, close in zip(pixels, _grow(core, crop.size), strict=True) if not close]
    if not around:
        return None
    seen = _median(solid)
    back = _median(around)
    covered = {px: _coverage(px, seen, back) for px in colours}
    coverage = [covered[px] for px in pixels]
    text = [is_ink or c >= 0.1 for is_ink, c in zip(core, coverage, strict=True)]
    backing = [px for px, close in zip(pixels, _grow(text, crop.size), strict=True) if not close]
    if not backing:
        return None
    rows = sorted({i // w for i, c in enumerate(coverage) if c >= 0.5})
    worst = min(set(backing), key=lambda px: contrast_ratio(seen, px))
    return Measured(
        ink_height=rows[-1] - rows[0] + 1 if rows else 0,
        ink=seen,
        contrast=contrast_ratio(seen, worst),
        worst_backing=worst,
        ink_pixels=len(solid),
        backing_pixels=len(backing),
    )


def _distance2(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _grow(marked: list[bool], size: tuple[int, int]) -> list[bool]:
    """``marked`` (one flag a pixel, row by row) grown by one pixel in every direction."""
    mask = Image.new("L", size)
    mask.putdata([255 if m else 0 for m in marked])
    return [v > 0 for v in mask.filter(ImageFilter.MaxFilter(3)).tobytes()]


def _coverage(pixel: RGB, ink: RGB, back: RGB) -> float:
    """How much of ``pixel`` is ``ink`` if it is a blend of ``ink`` over ``back`` (0 to 1), or
    -1 if it is not such a blend (further than the ink tolerance from the line between them)."""
    span = (ink[0] - back[0], ink[1] - back[1], ink[2] - back[2])
    length = span[0] ** 2 + span[1] ** 2 + span[2] ** 2
    if length == 0:
        return -1.0
    offset = (pixel[0] - back[0], pixel[1] - back[1], pixel[2] - back[2])
    t = (offset[0] * span[0] + offset[1] * span[1] + offset[2] * span[2]) / length
    t = min(1.0, max(0.0, t))
    blend = (back[0] + t * span[0], back[1] + t * span[1], back[2] + t * span[2])
    gap = sum((p - q) ** 2 for p, q in zip(pixel, blend, strict=True))
    return t if gap <= INK_TOLERANCE**2 / 4 else -1.0


def _median(pixels: list[RGB]) -> RGB:
    channels = list(zip(*pixels, strict=True))
    return (
        round(statistics.median(channels[0])),
        round(statistics.median(channels[1])),
        round(statistics.median(channels[2])),
    )
