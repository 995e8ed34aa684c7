"""The sheet's drawn pieces: round chips, medals' discs, the arena's flame and bolt, and the
canvas that keeps a label of every word it writes.

A chip is a round of one player: a small draughtsman of the colour played, the opponent's line
number, and at its darker end what the round gave (``1``, ``½``, ``0``, ``+``, ``−``), on the
outcome's colour (:data:`CHIPS`).  Shapes are drawn four times larger and shrunk once
(antialiased), and cached: a sheet pastes the same few shapes many times.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rules.position import BLACK_MAN, WHITE_MAN

from .board import Label, _font, sprite
from .sheet import Outcome, SheetCell
from .sheet_layout import FLAME, FLAME_CORE, WHITE, Chip, Font, Metrics, mark_font
from .themes import RGB, Theme

SUPERSAMPLE = 4


@dataclass(frozen=True)
class ChipStyle:
    """How a chip of one outcome looks: ``fill`` None is an outline on the band."""

    fill: RGB | None
    ink: RGB
    border: RGB
    segment: RGB | None = None
    """The darker end of the chip that holds the mark (the outline's colour when None)."""


CHIPS: dict[Outcome, ChipStyle] = {
    Outcome.WIN: ChipStyle((0x13, 0x7A, 0x6A), WHITE, (0x0E, 0x5E, 0x52), (0x0D, 0x5A, 0x4E)),
    Outcome.DRAW: ChipStyle(
        (0xDD, 0xDA, 0xD3), (0x26, 0x26, 0x26), (0xA3, 0x9F, 0x96), (0xBF, 0xBA, 0xB0)
    ),
    Outcome.LOSS: ChipStyle((0xC2, 0x41, 0x0C), WHITE, (0x9A, 0x33, 0x0A), (0x96, 0x31, 0x09)),
    Outcome.BYE: ChipStyle(
        (0xC4, 0xD9, 0xED), (0x14, 0x2C, 0x44), (0x84, 0xA5, 0xC6), (0x9F, 0xBE, 0xDC)
    ),
    Outcome.PENDING: ChipStyle(None, (0x55, 0x55, 0x55), (0x8A, 0x8A, 0x8A)),
    Outcome.FORFEIT_WIN: ChipStyle(None, (0x0E, 0x5E, 0x52), (0x13, 0x7A, 0x6A)),
    Outcome.FORFEIT_LOSS: ChipStyle(None, (0x9A, 0x33, 0x0A), (0xC2, 0x41, 0x0C)),
}
"""The chips' colours, the same in every theme (a win is green everywhere); the win and loss
differ in lightness and on the blue-orange axis too, and their marks differ, so colour-blind
players tell them apart (checked in the tests)."""
DOUBLED = ChipStyle((0xF2, 0xA2, 0x3A), (0x2B, 0x16, 0x00), (0xC7, 0x7C, 0x1C), None)
"""An arena game that counted double."""


class Canvas:
    """An image being drawn and the labels of what was written on it (only when ``labelled``:
    measuring each word's box costs as much as laying it out again)."""

    def __init__(self, img: Image.Image, labelled: bool = True) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.labels: list[Label] = []
        self.labelled = labelled

    def text(
        self,
        kind: str,
        xy: tuple[float, float],
        text: str,
        font: Font,
        ink: RGB,
        back: RGB,
        anchor: str = "ls",
        stroke: int = 0,
    ) -> None:
        """Write ``text`` with its anchor at ``xy`` and keep its label."""
        if not text:
            return
        xy = (round(xy[0]), round(xy[1]))  # on whole pixels: no row of a glyph half inked
        self.draw.text(
            xy, text, fill=ink, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=ink
        )
        if self.labelled:
            x0, y0, x1, y1 = self.draw.textbbox(
                xy, text, font=font, anchor=anchor, stroke_width=stroke
            )
            box = (int(x0) - 1, int(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1)
            self.labels.append(Label(kind, text, box, ink, back))


@lru_cache(maxsize=128)
def rounded_box(
    w: int,
    h: int,
    fill: RGB | None,
    border: RGB,
    line: int,
    segment: tuple[int, RGB] | None = None,
) -> Image.Image:
    """A rounded box (RGBA, antialiased): filled, or only outlined when ``fill`` is None; with
    ``segment`` (width, colour), its right end in another colour (or, outlined, set off by a
    line)."""
    k = SUPERSAMPLE
    img = Image.new("RGBA", (w * k, h * k), (*border, 0))
    draw = ImageDraw.Draw(img)
    box = (0, 0, w * k - 1, h * k - 1)
    radius = round(min(w, h) * 0.3 * k) if w > h else h * k // 2
    draw.rounded_rectangle(
        box,
        radius=radius,
        fill=None if fill is None else (*fill, 255),
        outline=(*border, 255),
        width=line * k,
    )
    if segment is not None:
        width, colour = segment
        left = (w - width) * k
        if fill is None:
            draw.rectangle(
                (left - line * k // 2, 0, left + line * k // 2, h * k), fill=(*colour, 255)
            )
        else:
            draw.rounded_rectangle(
                (left, 0, w * k - 1, h * k - 1),
                radius=radius,
                fill=(*colour, 255),
                corners=(False, True, True, False),
            )
            draw.rounded_rectangle(box, radius=radius, outline=(*border, 255), width=line * k)
    return img.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def flame_icon(size: int) -> Image.Image:
    """A small flame (RGBA): an arena player on fire."""
    k = SUPERSAMPLE
    s = size * k
    img = Image.new("RGBA", (s, s), (*FLAME, 0))
    draw = ImageDraw.Draw(img)

    def drop(cx: float, bottom: float, w: float, h: float, colour: RGB) -> None:
        r = w / 2
        draw.ellipse((cx - r, bottom - w, cx + r, bottom), fill=(*colour, 255))
        tip = [
            (cx - r * 0.98, bottom - r * 1.1),
            (cx + r * 0.15, bottom - h),
            (cx + r * 0.98, bottom - r * 1.1),
        ]
        draw.polygon(tip, fill=(*colour, 255))

    drop(s / 2, s * 0.98, s * 0.74, s * 0.98, FLAME)
    drop(s / 2, s * 0.96, s * 0.4, s * 0.55, FLAME_CORE)
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def bolt_icon(w: int, h: int, ink: RGB) -> Image.Image:
    """A lightning bolt (RGBA): the player berserked."""
    k = SUPERSAMPLE
    img = Image.new("RGBA", (w * k, h * k), (*ink, 0))
    points = [
        (0.62, 0),
        (0.08, 0.58),
        (0.45, 0.58),
        (0.32, 1),
        (0.92, 0.38),
        (0.55, 0.38),
        (0.78, 0),
    ]
    ImageDraw.Draw(img).polygon([(x * w * k, y * h * k) for x, y in points], fill=(*ink, 255))
    return img.resize((w, h), Image.Resampling.LANCZOS)


def chip_style(cell: SheetCell) -> ChipStyle:
    return DOUBLED if cell.doubled else CHIPS[cell.outcome]


def draw_chip(
    canvas: Canvas,
    m: Metrics,
    chip: Chip,
    theme: Theme,
    cell: SheetCell,
    x: int,
    y: int,
    back: RGB,
    kind: str = "chip",
) -> None:
    """Draw ``cell`` as a chip with its top-left corner at (x, y) on a band of colour ``back``;
    its words are labelled ``kind`` (``key`` for the key's samples).  Chips repeat (the same
    opponent, colour and result on the same band colour), so each is drawn once and pasted."""
    tile, labels = _chip_tile(m, chip, theme, cell, back, kind)
    canvas.img.paste(tile, (x, y))
    for label in labels if canvas.labelled else ():
        x0, y0, x1, y1 = label.box
        canvas.labels.append(dataclasses.replace(label, box=(x0 + x, y0 + y, x1 + x, y1 + y)))


@lru_cache(maxsize=1024)
def _chip_tile(
    m: Metrics, chip: Chip, theme: Theme, cell: SheetCell, back: RGB, kind: str
) -> tuple[Image.Image, tuple[Label, ...]]:
    """One chip on its band's colour, and its labels (boxes from the tile's corner).  Do not
    modify the image."""
    canvas = Canvas(Image.new("RGB", (chip.width, m.chip), back))
    _paint_chip(canvas, m, chip, theme, cell, back, kind)
    return canvas.img, tuple(canvas.labels)


def _paint_chip(
    canvas: Canvas,
    m: Metrics,
    chip: Chip,
    theme: Theme,
    cell: SheetCell,
    back: RGB,
    kind: str,
) -> None:
    """Paint ``cell`` as a chip filling ``canvas``, on a band of colour ``back``."""
    x = y = 0
    style = chip_style(cell)
    outlined = style.fill is None
    line = max(2, round(m.text * 0.1)) if outlined else 1
    segment = None
    if chip.head:
        segment = (chip.tail, style.segment or style.border)
    shape = rounded_box(chip.width, m.chip, style.fill, style.border, line, segment)
    canvas.img.paste(shape, (x, y), shape)
    under = back if style.fill is None else style.fill
    font = _font(m.text)
    baseline = y + (m.chip + m.cap) / 2
    at = x + chip.pad
    if chip.disc:
        if cell.colour in ("white", "black"):
            piece = sprite(theme, chip.disc, WHITE_MAN if cell.colour == "white" else BLACK_MAN)
            canvas.img.paste(piece, (at, y + (m.chip - chip.disc) // 2), piece)
        at += chip.disc + chip.inner
        opponent = cell.opponent or ("–" if cell.outcome is Outcome.BYE else "")
        canvas.text(kind, (at + chip.opponent, baseline), opponent, font, style.ink, under, "rs")
    tail = style.segment if style.segment is not None and chip.head else under
    centre = x + chip.head + chip.tail / 2
    if chip.bolt:
        centre = x + chip.width - chip.pad - chip.mark / 2
        if cell.berserk:
            bolt = bolt_icon(chip.bolt, round(m.cap * 1.2), style.ink)
            canvas.img.paste(bolt, (x + chip.pad, round(baseline - bolt.height + 1)), bolt)
    canvas.text(kind, (centre, baseline), cell.mark, mark_font(m, cell.mark), style.ink, tail, "ms")
