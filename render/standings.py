"""Standings images: a :class:`render.sheet.Sheet` in, PNG pages out, legible on a phone.

Discord shows an image as wide as the chat, about 330 px on a phone, so every word here is drawn
at least as large as the board's square numbers at that width (:data:`render.legibility.
MIN_CAP_HEIGHT`, with the same margin :mod:`render.labels` takes), whatever the image's width.
That leaves room for about forty digits across, so the sheet does not try to be a spreadsheet:

* **A band per player.**  The first line holds the rank (on a gold, silver or bronze medal for
  the podium), the name, then the points and the tiebreaks, right-aligned in columns.  Below it,
  the rounds as chips, left to right: the opponent's line number after a small draughtsman of
  the colour played, then what the round gave (``1``, ``½``, ``0``; ``+`` and ``−`` for a
  forfeit, as crosstables write them), on green for a win, grey for a draw, red for a loss, blue
  for a bye; an outline for a forfeit or a game still running; an empty place for a round not
  paired.  Bands alternate in shade (zebra), the leaders' band is tinted gold, and the reader's
  own band is outlined.
* **Many rounds** wrap: as many chips a line as fit, the lines balanced (nine rounds are five and
  four), a header row of round numbers over them; so every round is always shown.
* **An arena** shows each game's arena points instead (amber when the game counted double, a
  lightning bolt when the player berserked, a flame beside the points of a player on fire), in at
  most :data:`ARENA_LINES` lines: the most recent games, an ellipsis in front when there were
  more.
* **Many players** are split into pages of :data:`PAGE_ROWS` (one image each, the page number in
  the header); each page has the headings and the key, so it reads on its own.

Names are user text: cleaned to what the bundled font draws (:func:`render.gif.clean_name`), laid
out right to left where they are written so (Pillow's Raqm layout), and cut with an ellipsis to
their column.  :func:`standings_page` also returns where every word is drawn (``Label``), so the
tests read each one back from the pixels (:mod:`render.legibility`).  Everything is a pure
function of its arguments: the same sheet gives the same bytes.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from .board import Label, _font, _mix
from .chips import CHIPS, DOUBLED, Canvas, draw_chip, flame_icon, rounded_box
from .gif import _fit, clean_name
from .sheet import KeyItem, Outcome, Sheet, SheetCell, SheetRow
from .sheet_layout import (
    BRONZE,
    DEFAULT_WIDTH,
    FLAME,
    FLAME_CORE,
    GOLD,
    MEDAL_INK,
    PAGE_ROWS,
    SILVER,
    WHITE,
    Chip,
    Colours,
    Columns,
    Metrics,
    band_height,
    bold_stroke,
    colours,
    columns,
    metrics,
    page_count,
    text_width,
)
from .themes import DEFAULT_THEME, RGB, Theme, find_theme

SUBTITLE_LINES = 2
"""Lines the subtitle may take before it is cut with an ellipsis."""


def _subtitle_lines(m: Metrics, sheet: Sheet) -> list[str]:
    """The subtitle broken between words into at most :data:`SUBTITLE_LINES` lines that fit."""
    font = _font(m.text)
    room = m.width - 2 * m.margin
    lines: list[str] = []
    words = sheet.subtitle.split()
    while words and len(lines) < SUBTITLE_LINES:
        line = words.pop(0)
        while words and text_width(font, f"{line} {words[0]}") <= room:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines[-1] = " ".join([lines[-1], *words])
    return [_fit(line, font, room) for line in lines]


def _header_height(m: Metrics, sheet: Sheet) -> int:
    lines = max(1, len(_subtitle_lines(m, sheet)))
    return round(m.title * 1.5) + lines * round(m.text * 1.35) + m.pad * 2


def _headings_height(m: Metrics, sheet: Sheet, cols: Columns) -> int:
    rows = 0 if sheet.arena else cols.lines
    return round(m.text * 1.6) + rows * round(m.text * 1.25)


def _slot_x(m: Metrics, cols: Columns, slot: int) -> int:
    return m.margin + slot * (cols.chip.width + m.chip_gap)


def _draw_header(
    canvas: Canvas, m: Metrics, sheet: Sheet, c: Colours, page: int, pages: int
) -> int:
    height = _header_height(m, sheet)
    canvas.draw.rectangle((0, 0, m.width, height - 1), fill=c.strip)
    title_font = _font(m.title)
    font = _font(m.text)
    label = sheet.page.format(page=page + 1, pages=pages) if pages > 1 else ""
    room = m.width - 2 * m.margin - (text_width(font, label) + m.gap if label else 0)
    title = _fit(clean_name(sheet.title, "·"), title_font, room)
    top = m.pad + round(m.title * 1.5)
    canvas.text(
        "title",
        (m.margin, top - (round(m.title * 1.5) - m.title_cap) / 2),
        title,
        title_font,
        c.strip_text,
        c.strip,
        stroke=bold_stroke(m.title),
    )
    if label:
        canvas.text(
            "page",
            (m.width - m.margin, top - (round(m.title * 1.5) - m.title_cap) / 2),
            label,
            font,
            c.strip_text,
            c.strip,
            "rs",
        )
    line = round(m.text * 1.35)
    for i, sub in enumerate(_subtitle_lines(m, sheet)):
        at = (m.margin, top + i * line + (line + m.cap) / 2)
        canvas.text("subtitle", at, sub, font, c.strip_text, c.strip)
    return height


def _draw_headings(
    canvas: Canvas, m: Metrics, sheet: Sheet, cols: Columns, c: Colours, y: int
) -> int:
    height = _headings_height(m, sheet, cols)
    canvas.draw.rectangle((0, y, m.width, y + height - 1), fill=c.heading)
    font = _font(m.text)
    first = round(m.text * 1.6)
    base = y + (first + m.cap) / 2
    canvas.text(
        "heading",
        (m.margin + cols.rank / 2, base),
        sheet.rank_heading,
        font,
        c.ink,
        c.heading,
        "ms",
    )
    name = _fit(sheet.name_heading, font, cols.name_room)
    canvas.text("heading", (cols.name, base), name, font, c.ink, c.heading)
    headings = (sheet.points_heading, *sheet.tiebreak_headings)
    for (right, _w), text in zip(cols.right, headings, strict=False):
        canvas.text("heading", (right, base), text, font, c.ink, c.heading, "rs")
    if not sheet.arena:
        line = round(m.text * 1.25)
        for number in range(1, sheet.rounds + 1):
            row, slot = divmod(number - 1, cols.per_line)
            x = _slot_x(m, cols, slot) + cols.chip.width / 2
            at = y + first + row * line + (line + m.cap) / 2 - m.pad / 2
            canvas.text("round", (x, at), str(number), font, c.ink, c.heading, "ms")
    return y + height


def _band_back(row: SheetRow, index: int, c: Colours) -> RGB:
    if row.podium == 1:
        return c.leader
    return c.zebra if index % 2 else c.paper


def _draw_band(
    canvas: Canvas,
    m: Metrics,
    sheet: Sheet,
    cols: Columns,
    theme: Theme,
    c: Colours,
    row: SheetRow,
    index: int,
    y: int,
) -> int:
    height = band_height(m, sheet, cols, row)
    back = _band_back(row, index, c)
    canvas.draw.rectangle((0, y, m.width, y + height - 1), fill=back)
    font = _font(m.text)
    ink = c.muted if row.withdrawn else c.ink
    base = y + m.pad + (m.line + m.cap) / 2
    centre = m.margin + cols.rank / 2
    medal = {1: GOLD, 2: SILVER, 3: BRONZE}.get(row.podium or 0)
    rank_back, rank_ink = back, ink
    if medal is not None:
        d = m.line - 4
        disc = rounded_box(d, d, medal, _mix(medal, MEDAL_INK, 0.15), 1)
        canvas.img.paste(disc, (round(centre - d / 2), y + m.pad + 2), disc)
        rank_back, rank_ink = medal, MEDAL_INK
    canvas.text("rank", (centre, base), row.rank, font, rank_ink, rank_back, "ms")
    name = _fit(clean_name(row.name, row.fallback), font, cols.name_room)
    canvas.text("name", (cols.name, base), name, font, ink, back)
    bold = _font(m.text + 1)
    values = (row.points, *row.tiebreaks)
    for i, ((right, _w), text) in enumerate(zip(cols.right, values, strict=False)):
        if i == 0:
            canvas.text("points", (right, base), text, bold, ink, back, "rs", bold_stroke(m.text))
        else:
            canvas.text("tiebreak", (right, base), text, font, ink, back, "rs")
    if row.on_fire and cols.flame:
        size = round(m.line * 0.6)
        flame = flame_icon(size)
        x = cols.right[0][0] - cols.right[0][1] - cols.flame
        canvas.img.paste(flame, (x, round(base - m.cap / 2 - size / 2)), flame)
    _draw_chips(canvas, m, sheet, cols, theme, row, y + m.pad + m.line, back)
    if row.you:
        line = max(2, round(m.text * 0.13))
        canvas.draw.rectangle(
            (line // 2, y + line // 2, m.width - 1 - line // 2, y + height - 1 - line // 2),
            outline=c.you,
            width=line,
        )
    return y + height


def _draw_chips(
    canvas: Canvas,
    m: Metrics,
    sheet: Sheet,
    cols: Columns,
    theme: Theme,
    row: SheetRow,
    top: int,
    back: RGB,
) -> None:
    cells: list[SheetCell | None] = list(row.cells)
    if sheet.arena:
        room = cols.per_line * cols.lines
        if len(cells) > room:
            cells = [None, *cells[len(cells) - room + 1 :]]
    for i, cell in enumerate(cells):
        line, slot = divmod(i, cols.per_line)
        x = _slot_x(m, cols, slot)
        y = top + line * (m.chip + m.chip_gap)
        if cell is None:  # the arena's earlier games
            canvas.text(
                "chip",
                (x + cols.chip.width / 2, y + (m.chip + m.cap) / 2),
                "…",
                _font(m.text),
                canvas_ink(back),
                back,
                "ms",
            )
        elif cell.outcome is not Outcome.ABSENT:
            draw_chip(canvas, m, cols.chip, theme, cell, x, y, back)


def canvas_ink(back: RGB) -> RGB:
    """Dark or white ink, whichever reads on ``back``."""
    light = sum(back) / 3 > 140
    return (0x26, 0x26, 0x26) if light else WHITE


def _key_chip(cols: Columns, sample: SheetCell) -> Chip:
    """A key's sample chip: a whole chip when the sample names a colour or an opponent (the key
    explains how to read one), else the mark's end alone (its colour and sign are what the key
    explains)."""
    if sample.colour or sample.opponent:
        return cols.chip
    return Chip(0, 0, cols.chip.mark, cols.chip.pad, cols.chip.inner, cols.chip.bolt)


def _key_layout(m: Metrics, sheet: Sheet, cols: Columns) -> list[list[tuple[KeyItem, str, int]]]:
    """The key's entries flowed into lines: (entry, words cut to fit, width) a line."""
    font = _font(m.text)
    room = m.width - 2 * m.margin
    lines: list[list[tuple[KeyItem, str, int]]] = [[]]
    used = 0
    for item in sheet.key:
        lead = 0 if item.sample is None else _key_chip(cols, item.sample).width + m.chip_gap
        words = _fit(item.words, font, room - lead)
        width = lead + text_width(font, words)
        if lines[-1] and used + m.gap * 2 + width > room:
            lines.append([])
            used = 0
        used += (m.gap * 2 if lines[-1] else 0) + width
        lines[-1].append((item, words, width))
    return [line for line in lines if line]


def _draw_key(
    canvas: Canvas, m: Metrics, sheet: Sheet, cols: Columns, theme: Theme, c: Colours, y: int
) -> int:
    lines = _key_layout(m, sheet, cols)
    font = _font(m.text)
    step = m.chip + m.chip_gap
    canvas.draw.line((m.margin, y, m.width - m.margin, y), fill=c.heading, width=2)
    y += m.pad * 2
    for line in lines:
        x = m.margin
        for item, words, width in line:
            if item.sample is not None:
                sample = _key_chip(cols, item.sample)
                draw_chip(canvas, m, sample, theme, item.sample, x, y, c.paper, "key")
                text_x = x + sample.width + m.chip_gap
            else:
                text_x = x
            canvas.text("key", (text_x, y + (m.chip + m.cap) / 2), words, font, c.ink, c.paper)
            x += width + m.gap * 2
        y += step
    return y + m.pad


def _key_height(m: Metrics, sheet: Sheet, cols: Columns) -> int:
    lines = len(_key_layout(m, sheet, cols))
    return m.pad * 3 + lines * (m.chip + m.chip_gap) if lines else 0


def standings_page(
    sheet: Sheet,
    page: int = 0,
    *,
    theme: str | Theme = DEFAULT_THEME,
    width: int = DEFAULT_WIDTH,
) -> tuple[Image.Image, tuple[Label, ...]]:
    """Page ``page`` (from 0) of the sheet as an RGB image, and every label on it (what a
    legibility check reads back)."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    canvas = _page(sheet, page, th, width, labelled=True)
    return canvas.img, tuple(canvas.labels)


def _page(sheet: Sheet, page: int, th: Theme, width: int, labelled: bool) -> Canvas:
    pages = page_count(sheet)
    if not 0 <= page < pages:
        raise ValueError(f"page {page} of a sheet of {pages}")
    m = metrics(width)
    cols = columns(sheet, width)
    c = colours(th)
    rows = sheet.rows[page * PAGE_ROWS : (page + 1) * PAGE_ROWS]
    height = (
        _header_height(m, sheet)
        + _headings_height(m, sheet, cols)
        + sum(band_height(m, sheet, cols, row) for row in rows)
        + _key_height(m, sheet, cols)
        + m.margin // 2
    )
    canvas = Canvas(Image.new("RGB", (width, height), c.paper), labelled)
    y = _draw_header(canvas, m, sheet, c, page, pages)
    y = _draw_headings(canvas, m, sheet, cols, c, y)
    for i, row in enumerate(rows):
        y = _draw_band(canvas, m, sheet, cols, th, c, row, page * PAGE_ROWS + i, y)
    if sheet.key:
        _draw_key(canvas, m, sheet, cols, th, c, y)
    return canvas


SAMPLE = Sheet(
    title="Sample",
    subtitle="sample · 0123456789",
    rows=tuple(
        SheetRow(
            rank=str(i + 1),
            name="Sample ½",
            points="1½",
            tiebreaks=("12¾",),
            podium=i + 1,
            on_fire=True,
            you=i == 3,
            withdrawn=i == 4,
            cells=tuple(
                SheetCell(outcome, colour, "12", "½", doubled=i == 5 and j == 0)
                for j, outcome in enumerate(Outcome)
                for colour in ("white", "black")
            ),
        )
        for i in range(6)
    ),
    tiebreak_headings=("SB",),
    rounds=16,
)
"""A sheet with every colour the renderer uses (podium, zebra, outline, every chip): the
source of the fixed palette."""


def _flat_colours(theme: Theme) -> list[RGB]:
    """Every colour the sheet paints flat: kept exact in the palette."""
    c = colours(theme)
    styles = [*CHIPS.values(), DOUBLED]
    found = [
        c.paper,
        c.zebra,
        c.leader,
        c.heading,
        c.ink,
        c.muted,
        c.strip,
        c.strip_text,
        c.you,
        GOLD,
        SILVER,
        BRONZE,
        MEDAL_INK,
        FLAME,
        FLAME_CORE,
        WHITE,
        theme.white_piece,
        theme.black_piece,
        theme.white_edge,
        theme.black_edge,
        *(s.fill for s in styles if s.fill is not None),
        *(s.segment for s in styles if s.segment is not None),
        *(s.ink for s in styles),
        *(s.border for s in styles),
    ]
    return list(dict.fromkeys(found))


RAMP_STEPS = 6
"""Blends kept between each ink and what it is written on (the antialiased edges of text)."""


def _ramps(theme: Theme) -> list[RGB]:
    """The blends between every ink and each colour it is written on: the edges of letters, so
    quantising never puts a foreign colour beside a glyph."""
    c = colours(theme)
    pairs = [(c.ink, back) for back in (c.paper, c.zebra, c.leader, c.heading)] + [
        (c.muted, back) for back in (c.paper, c.zebra)
    ]
    pairs += [(c.strip_text, c.strip)] + [(MEDAL_INK, medal) for medal in (GOLD, SILVER, BRONZE)]
    for style in [*CHIPS.values(), DOUBLED]:
        backs = [style.fill, style.segment] if style.fill is not None else [c.paper, c.zebra]
        pairs += [(style.ink, back) for back in backs if back is not None]
    return [
        _mix(ink, back, step / (RAMP_STEPS + 1))
        for ink, back in pairs
        for step in range(1, RAMP_STEPS + 1)
    ]


@lru_cache(maxsize=8)
def palette(theme: Theme) -> Image.Image:
    """A 256-colour palette for sheets in ``theme``: the flat colours exactly, the rest (the
    antialiased edges between them) chosen from :data:`SAMPLE` and an arena line."""
    plain = standings_page(SAMPLE, theme=theme)[0]
    arena = Sheet(
        title="Arena",
        subtitle="arena",
        arena=True,
        rows=(
            SheetRow(
                "1",
                "A",
                "9",
                on_fire=True,
                cells=(
                    SheetCell(Outcome.WIN, mark="4", doubled=True, berserk=True),
                    SheetCell(Outcome.LOSS, mark="0", berserk=True),
                ),
            ),
        ),
    )
    fire = standings_page(arena, theme=theme)[0]
    sample = Image.new("RGB", (plain.width, plain.height + fire.height))
    sample.paste(plain, (0, 0))
    sample.paste(fire, (0, plain.height))
    flat = list(dict.fromkeys(_flat_colours(theme) + _ramps(theme)))
    blends = sample.quantize(colors=256 - len(flat), method=Image.Quantize.MEDIANCUT)
    found = blends.getpalette() or []
    out = Image.new("P", (1, 1))
    out.putpalette([v for colour in flat for v in colour] + found[: 3 * (256 - len(flat))])
    return out


def encode(img: Image.Image, theme: str | Theme = DEFAULT_THEME) -> bytes:
    """``img`` as PNG on the theme's fixed palette (no dithering: flat art stays flat)."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    buf = io.BytesIO()
    img.quantize(palette=palette(th), dither=Image.Dither.NONE).save(
        buf, "PNG", optimize=False, compress_level=6
    )
    return buf.getvalue()


def render_standings(
    sheet: Sheet, *, theme: str | Theme = DEFAULT_THEME, width: int = DEFAULT_WIDTH
) -> tuple[bytes, ...]:
    """The sheet as PNG images, one per page of :data:`PAGE_ROWS` players."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    return tuple(
        encode(_page(sheet, page, th, width, labelled=False).img, th)
        for page in range(page_count(sheet))
    )
