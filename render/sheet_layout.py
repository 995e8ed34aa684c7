"""The standings sheet's geometry and colours: sizes from the image's width, columns from the
sheet's words, colours from the board theme.

Every size follows from one rule (:func:`metrics`): the text's capitals and digits are at least
:data:`render.legibility.MIN_CAP_HEIGHT` pixels tall when the image is shown 330 px wide, as
the board's square numbers are, so a sheet of any width reads the same on a phone.  The columns
(:func:`columns`) are measured once per sheet, so every page of it lines up the same.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

from .board import _font, _mix
from .legibility import DISPLAY_WIDTH, MIN_CAP_HEIGHT
from .sheet import Sheet, SheetRow
from .themes import RGB, Theme

DEFAULT_WIDTH = 640
"""The board images' width: the sheet reads at the same scale beside them."""
MIN_WIDTH, MAX_WIDTH = 330, 2048
PAGE_ROWS = 16
"""Players a page: a 16-player event is one image, 64 players are four."""
ARENA_LINES = 2
"""Lines of games an arena player's band shows (the most recent games)."""
CAP_MARGIN = 1.08
"""Text is this much taller than the least height, so rounding cannot take it below."""

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WHITE: RGB = (255, 255, 255)
GOLD: RGB = (0xE3, 0xB3, 0x41)
SILVER: RGB = (0xC4, 0xCB, 0xD3)
BRONZE: RGB = (0xD8, 0x9E, 0x6C)
MEDAL_INK: RGB = (0x2B, 0x21, 0x18)
FLAME: RGB = (0xE8, 0x59, 0x0C)
FLAME_CORE: RGB = (0xFF, 0xB7, 0x2B)


@dataclass(frozen=True)
class Colours:
    """The sheet's colours in one board theme."""

    paper: RGB
    zebra: RGB
    leader: RGB
    heading: RGB
    ink: RGB
    muted: RGB
    strip: RGB
    strip_text: RGB
    you: RGB


@lru_cache(maxsize=8)
def colours(theme: Theme) -> Colours:
    paper = _mix(theme.light_square, WHITE, 0.6)
    return Colours(
        paper=paper,
        zebra=_mix(paper, theme.dark_square, 0.13),
        leader=_mix(paper, GOLD, 0.3),
        heading=_mix(paper, theme.dark_square, 0.3),
        ink=theme.frame,
        muted=_mix(theme.frame, paper, 0.38),
        strip=theme.strip,
        strip_text=theme.strip_text,
        you=theme.path,
    )


@dataclass(frozen=True)
class Metrics:
    """Sizes in pixels at one image width."""

    width: int
    text: int
    """Font size of every word but the title: its capitals are at least
    :data:`render.legibility.MIN_CAP_HEIGHT` tall at 330 px."""
    title: int
    margin: int
    gap: int
    line: int
    """Height of a band's first line (rank, name, points)."""
    chip: int
    chip_gap: int
    pad: int
    cap: int
    """Cap height of the text font (for baselines)."""
    title_cap: int


@lru_cache(maxsize=16)
def metrics(width: int) -> Metrics:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"image width must be {MIN_WIDTH}-{MAX_WIDTH} px, not {width}")
    least = MIN_CAP_HEIGHT * CAP_MARGIN * width / DISPLAY_WIDTH
    size = 6
    while _cap(size) < least:
        size += 1
    title = round(size * 1.3)
    return Metrics(
        width=width,
        text=size,
        title=title,
        margin=max(8, round(width * 0.022)),
        gap=round(size * 0.55),
        line=round(size * 1.75),
        chip=round(size * 1.5),
        chip_gap=max(3, round(size * 0.22)),
        pad=round(size * 0.3),
        cap=_cap(size),
        title_cap=_cap(title),
    )


def _cap(size: int) -> int:
    """Ink height of the digits and capitals of the bundled font at ``size``."""
    box = _font(size).getbbox("0H")
    return int(box[3] - box[1])


def bold_stroke(size: int) -> int:
    """Stroke that makes the font read bold (the points, the title)."""
    return max(1, round(size / 26))


@dataclass(frozen=True)
class Chip:
    """The parts of a sheet's round chips, in pixels: every chip of a sheet is as wide."""

    disc: int
    """The draughtsman of the colour played (0 in an arena)."""
    opponent: int
    """The opponent's number (in an arena: the berserk bolt, or 0 when nobody berserked)."""
    mark: int
    """What the round gave (the end of the chip, on a darker shade)."""
    pad: int
    inner: int
    bolt: int = 0
    """Arena: room for the berserk bolt before the mark (0 when nobody berserked)."""

    @property
    def head(self) -> int:
        """Width of the part before the mark's end (0 when the chip has only a mark)."""
        parts = [p for p in (self.disc, self.opponent) if p]
        return self.pad * 2 + sum(parts) + self.inner * (len(parts) - 1) if parts else 0

    @property
    def tail(self) -> int:
        return self.mark + 2 * self.pad + (self.bolt + self.inner if self.bolt else 0)

    @property
    def width(self) -> int:
        return self.head + self.tail


@dataclass(frozen=True)
class Columns:
    """Where a band's first line puts things, the same on every page of a sheet."""

    rank: int
    """Width of the rank column (a medal fits)."""
    name: int
    """Left edge of the name."""
    name_room: int
    right: tuple[tuple[int, int], ...]
    """(right edge, width) of the points column, then of each tiebreak column."""
    flame: int
    """Width kept left of the points for an arena player's flame (0 outside arenas)."""
    chip: Chip
    per_line: int
    """Chips a line."""
    lines: int
    """Lines of chips a band has."""


def text_width(font: Font, text: str, stroke: int = 0) -> int:
    return math.ceil(font.getlength(text)) + 2 * stroke


FRACTION_SCALE = 1.15
"""A chip's mark that is a fraction alone (``½``) is drawn this much larger: the font draws a
fraction's digits at about half the size of a digit, too small for a phone."""


def mark_font(m: Metrics, mark: str) -> Font:
    """The font of a chip's mark (see :data:`FRACTION_SCALE`)."""
    if len(mark) == 1 and "FRACTION" in unicodedata.name(mark, ""):
        return _font(round(m.text * FRACTION_SCALE))
    return _font(m.text)


def chip_parts(m: Metrics, sheet: Sheet) -> Chip:
    font = _font(m.text)
    cells = [cell for row in sheet.rows for cell in row.cells]
    cells += [item.sample for item in sheet.key if item.sample is not None]
    marks = {cell.mark for cell in cells} | {"½"}
    mark = max(text_width(mark_font(m, text), text) for text in marks)
    pad = max(4, round(m.text * 0.22))
    if sheet.arena:
        bolt = round(m.chip * 0.4) if any(c.berserk for c in cells) else 0
        return Chip(0, 0, mark, pad, max(3, round(m.text * 0.12)), bolt)
    opponents = {cell.opponent for cell in cells} | {"00"}
    opponent = max(text_width(font, text) for text in opponents)
    return Chip(round(m.chip * 0.5), opponent, mark, pad, max(4, round(m.text * 0.17)))


@lru_cache(maxsize=32)
def columns(sheet: Sheet, width: int) -> Columns:
    """The sheet's columns at ``width``: wide enough for every page's values."""
    m = metrics(width)
    font = _font(m.text)
    bold = _font(m.text + 1)
    stroke = bold_stroke(m.text)
    rank = max([m.line - 4] + [text_width(font, r.rank) + 10 for r in sheet.rows])
    points = max(
        [text_width(bold, r.points, stroke) for r in sheet.rows]
        + [text_width(font, sheet.points_heading)]
    )
    widths = [points]
    for i, heading in enumerate(sheet.tiebreak_headings):
        values = [r.tiebreaks[i] for r in sheet.rows if i < len(r.tiebreaks)]
        widths.append(max([text_width(font, v) for v in values] + [text_width(font, heading)]))
    right = []
    edge = width - m.margin
    for w in reversed(widths):
        right.append((edge, w))
        edge -= w + m.gap
    flame = round(m.line * 0.6) + m.chip_gap if sheet.arena else 0
    edge -= flame
    name = m.margin + rank + m.gap
    chip = chip_parts(m, sheet)
    room = width - 2 * m.margin + m.chip_gap
    per_line = max(1, room // (chip.width + m.chip_gap))
    if sheet.arena:
        most = max((len(r.cells) for r in sheet.rows), default=0)
        lines = min(ARENA_LINES, math.ceil(most / per_line))
    else:
        lines = math.ceil(sheet.rounds / per_line)
        per_line = math.ceil(sheet.rounds / lines) if lines else per_line
    return Columns(
        rank=rank,
        name=name,
        name_room=edge - name,
        right=tuple(reversed(right)),
        flame=flame,
        chip=chip,
        per_line=per_line,
        lines=lines,
    )


def page_count(sheet: Sheet) -> int:
    """Images the sheet takes (:data:`PAGE_ROWS` players each; at least one)."""
    return pages_for(len(sheet.rows))


def pages_for(players: int) -> int:
    """Images a sheet of ``players`` lines takes."""
    return max(1, math.ceil(players / PAGE_ROWS))


def chip_lines(sheet: Sheet, cols: Columns, row: SheetRow) -> int:
    """Lines of chips in ``row``'s band: every round's line (so rounds stay under their
    numbers), or in an arena as many as its games take."""
    if not sheet.arena:
        return cols.lines
    return min(cols.lines, math.ceil(len(row.cells) / cols.per_line))


def band_height(m: Metrics, sheet: Sheet, cols: Columns, row: SheetRow) -> int:
    chips = chip_lines(sheet, cols, row) * (m.chip + m.chip_gap)
    return m.pad + m.line + chips + (m.pad if chips else 0)
