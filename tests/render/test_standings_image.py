"""The standings picture (:mod:`render.standings`), checked on the decoded PNG: its size and
pages, every word readable at 330 px (the board labels' rule, :mod:`render.legibility`), names of
any kind kept in their column, many rounds and many players, the arena's marks, determinism."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Sequence

import pytest
from PIL import Image

from render.board import Label
from render.chips import CHIPS, DOUBLED
from render.colorblind import DEUTERANOPIA, PROTANOPIA, delta_e, simulate
from render.legibility import (
    DISPLAY_WIDTH,
    MIN_CAP_HEIGHT,
    MIN_CONTRAST,
    contrast_ratio,
    display_pixels,
    measure_label,
)
from render.sheet import KeyItem, Outcome, Sheet, SheetCell, SheetRow
from render.sheet_layout import (
    DEFAULT_WIDTH,
    FLAME,
    GOLD,
    PAGE_ROWS,
    colours,
    columns,
    metrics,
    page_count,
)
from render.standings import encode, render_standings, standings_page
from render.themes import DEFAULT_THEME, THEMES

MARKS = {Outcome.WIN: "1", Outcome.DRAW: "½", Outcome.LOSS: "0"}
ODD_NAMES = [
    "",
    "   ",
    "José Müller",
    "Zoë 🎉 ✓",
    "李小龙",
    "Иван (Vanya)",
    "مرحبا بالعالم",
    "מרים כהן",
    "\u202eevil\u202c",
    "tab\tnew\nline\x00nul",
    "Z̴̢a̸l̷g̶o̵",
    "W" * 10_000,
    "The Honourable Bartholomew Fitzwilliam-Smythe of Little Snoring",
    "💥" * 500,
]
"""Names are user text: empty, blank, emoji, Chinese (nothing the font draws), right to left,
direction overrides, control characters, combining marks, endless."""
X_HEIGHT = 0.72
"""Lower-case letters' height over the capitals' (DejaVu Sans: 0.75): what a word without a
capital or a digit must reach, as a share of :data:`MIN_CAP_HEIGHT`."""


def swiss_sheet(
    players: int = 16,
    rounds: int = 5,
    *,
    seed: int = 1,
    names: Sequence[str] = (),
    arena: bool = False,
) -> Sheet:
    """A sheet as the bot words one: random results, every kind of chip, the podium, a
    withdrawn player and the reader's own line."""
    rnd = random.Random(seed)
    rows = []
    for i in range(players):
        cells = []
        for r in range(rounds):
            outcome = rnd.choice([Outcome.WIN, Outcome.DRAW, Outcome.LOSS])
            if arena:
                doubled = r > 1 and outcome is not Outcome.LOSS and rnd.random() < 0.3
                mark = str({Outcome.WIN: 2, Outcome.DRAW: 1}.get(outcome, 0) * (1 + doubled))
                cells.append(
                    SheetCell(outcome, mark=mark, doubled=doubled, berserk=rnd.random() < 0.2)
                )
                continue
            colour = rnd.choice(["white", "black"])
            cells.append(SheetCell(outcome, colour, str(rnd.randint(1, players)), MARKS[outcome]))
        special = {
            1: SheetCell(Outcome.BYE, mark="1"),
            2: SheetCell(Outcome.FORFEIT_WIN, "white", "9", "+"),
            3: SheetCell(Outcome.FORFEIT_LOSS, "black", "6", "−"),
            4: SheetCell(Outcome.PENDING, "black", "7"),
            5: SheetCell(Outcome.ABSENT),
        }
        if not arena and rounds and i in special:
            cells[i % rounds] = special[i]
        name = names[i % len(names)] if names else f"Player number {i + 1}"
        rows.append(
            SheetRow(
                rank=str(i + 1),
                name=name,
                points=f"{rounds - i // 3}½" if i % 2 else str(rounds - i // 3),
                tiebreaks=() if arena else (f"{20 - i}½", f"{15 - i // 2}¼"),
                cells=tuple(cells),
                podium=i + 1 if i < 3 else None,
                on_fire=arena and i % 2 == 0,
                withdrawn=i == 6,
                you=i == 4,
                fallback=f"Player {i + 1}",
            )
        )
    key = (
        KeyItem("White against no. 7, won", SheetCell(Outcome.WIN, "white", "7", "1")),
        KeyItem("draw", SheetCell(Outcome.DRAW, mark="½")),
        KeyItem("loss", SheetCell(Outcome.LOSS, mark="0")),
        KeyItem("BH: Buchholz"),
    )
    return Sheet(
        title="Friday Night Swiss",
        subtitle="Swiss · English draughts · after round 5 of 7",
        rows=tuple(rows),
        tiebreak_headings=() if arena else ("BH", "SB"),
        points_heading="Pts",
        rounds=0 if arena else rounds,
        arena=arena,
        key=key,
    )


def near(a: object, b: object, tolerance: int = 8) -> bool:
    """Two colours the same but for the fixed palette's rounding (a few units a channel)."""
    assert isinstance(a, tuple) and isinstance(b, tuple)
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img


def label_problems(img: Image.Image, labels: Sequence[Label]) -> list[str]:
    """Words a phone user could not read, read back from the pixels: each must show ink with a
    contrast of 3:1 or more against everything round it, and be at least 8 px tall at 330 px
    (capitals and digits; a word in lower-case letters alone, its letters' height)."""
    out = []
    for label in labels:
        seen = measure_label(img, label.box, label.ink)
        name = f"{label.kind} {label.text!r} at {label.box}"
        if seen is None:
            out.append(f"{name}: no ink or nothing round it")
            continue
        if seen.contrast < MIN_CONTRAST:
            out.append(f"{name}: contrast {seen.contrast:.2f} ({seen.ink} on {seen.worst_backing})")
        tall = display_pixels(seen.ink_height, img.width)
        capital = any(c.isdigit() or c.isupper() for c in label.text)
        least = MIN_CAP_HEIGHT * (1 if capital else X_HEIGHT)
        if label.text not in ("…", "–", "−", "+", "#", "·") and tall < least:
            out.append(f"{name}: {tall:.1f} px tall at {DISPLAY_WIDTH} px")
    return out


def page(sheet: Sheet, number: int = 0, **options: object) -> tuple[Image.Image, tuple[Label, ...]]:
    """Page ``number`` as the PNG decodes (converted to RGB), with its labels."""
    img, labels = standings_page(sheet, number, **options)  # type: ignore[arg-type]
    theme = options.get("theme", DEFAULT_THEME)
    return decode(encode(img, theme)).convert("RGB"), labels  # type: ignore[arg-type]


# -- size and pages ------------------------------------------------------------------------------


def test_png_pages_of_sixteen_players() -> None:
    sheet = swiss_sheet(40)
    pages = render_standings(sheet)
    assert len(pages) == page_count(sheet) == 3
    for number, data in enumerate(pages):
        img = decode(data)
        assert img.mode == "P" and img.width == DEFAULT_WIDTH
        labels = standings_page(sheet, number)[1]
        names = [label for label in labels if label.kind == "name"]
        assert len(names) == min(PAGE_ROWS, 40 - number * PAGE_ROWS)
        assert [label.text for label in labels if label.kind == "page"] == [f"{number + 1}/3"]
    with pytest.raises(ValueError):
        standings_page(sheet, 3)


def test_one_page_has_no_page_number_and_every_player() -> None:
    sheet = swiss_sheet(16)
    img, labels = page(sheet)
    assert not [label for label in labels if label.kind == "page"]
    assert [label.text for label in labels if label.kind == "rank"] == [
        str(i) for i in range(1, 17)
    ]
    # A 16-player sheet reads on a phone: about 2.8 times as tall as wide.
    assert 1.5 < img.height / img.width < 3.5


@pytest.mark.parametrize("width", [330, 480, 1024])
def test_text_is_as_tall_as_the_square_numbers_at_any_width(width: int) -> None:
    m = metrics(width)
    assert display_pixels(m.cap, width) >= MIN_CAP_HEIGHT
    assert display_pixels(m.cap, width) < MIN_CAP_HEIGHT * 1.3  # not needlessly large
    img, labels = page(swiss_sheet(6), width=width)
    assert img.width == width
    assert not label_problems(img, labels)


def test_width_limits() -> None:
    with pytest.raises(ValueError):
        standings_page(swiss_sheet(2), width=200)


# -- legible at 330 px ---------------------------------------------------------------------------


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_word_is_readable_on_a_phone(theme: str) -> None:
    """Every rank, name, point, tiebreak, chip, heading and key entry, in every theme, on the
    zebra, the leaders' gold, a medal, every chip colour and the reader's outline."""
    for sheet in (swiss_sheet(7), swiss_sheet(3, 9, arena=True)):
        img, labels = page(sheet, theme=theme)
        kinds = {label.kind for label in labels}
        assert {"title", "subtitle", "heading", "rank", "name", "points", "chip", "key"} <= kinds
        assert not label_problems(img, labels), label_problems(img, labels)[:6]


def test_the_check_fails_for_faint_or_small_words() -> None:
    """The check above can fail: the same page with its labels washed out towards what is
    under them fails on contrast, and shrunk to half its height fails on size."""
    img, labels = page(swiss_sheet(4))
    faint = img.copy()
    for label in labels:
        box = faint.crop(label.box)
        faint.paste(Image.blend(box, Image.new("RGB", box.size, label.back), 0.75), label.box)
    washed = label_problems(faint, labels)
    assert len(washed) > len(labels) / 2, washed[:3]
    pale = dataclasses.replace(THEMES["wood"], name="pale", frame=(0xB8, 0xA4, 0x8C))
    img, labels = page(swiss_sheet(4), theme=pale)
    names = [label for label in labels if label.kind == "name"]
    assert all("contrast" in p for p in label_problems(img, names)), label_problems(img, names)
    small = img.resize((img.width, img.height // 2))
    halved = [
        dataclasses.replace(label, box=(x0, y0 // 2, x1, (y1 + 1) // 2))
        for label in labels
        for x0, y0, x1, y1 in [label.box]
    ]
    assert any("tall" in p for p in label_problems(small, halved))


def test_chip_colours_are_told_apart_with_colour_blindness() -> None:
    """Win, draw and loss chips stay far apart for deuteranopes and protanopes (besides their
    marks), and every chip's ink reads on its fill or its darker end (4.5:1)."""
    win, draw, loss = (CHIPS[o].fill for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS))
    assert win and draw and loss
    for matrix in (DEUTERANOPIA, PROTANOPIA):
        for a, b in ((win, loss), (win, draw), (draw, loss)):
            assert delta_e(simulate(a, matrix), simulate(b, matrix)) >= 20, (a, b)
    for style in [*CHIPS.values(), DOUBLED]:
        for back in (style.fill, style.segment):
            if back is not None:
                assert contrast_ratio(style.ink, back) >= 4.5, style
    for theme in THEMES.values():
        c = colours(theme)
        for style in (CHIPS[Outcome.FORFEIT_WIN], CHIPS[Outcome.FORFEIT_LOSS]):
            for back in (c.paper, c.zebra, c.leader):
                assert contrast_ratio(style.ink, back) >= 4.5, (theme.name, style)


# -- what the bands show -------------------------------------------------------------------------


def test_bands_alternate_and_mark_the_leader_and_the_reader() -> None:
    sheet = swiss_sheet(8)
    img, labels = page(sheet, theme="wood")
    c = colours(THEMES["wood"])
    names = [label for label in labels if label.kind == "name"]
    # The band's colour just right of the rank column, level with the name.
    backs = [img.getpixel((names[0].box[0] - 4, (n.box[1] + n.box[3]) // 2)) for n in names]
    assert near(backs[0], c.leader)
    assert near(backs[1], c.zebra) and near(backs[2], c.paper) and near(backs[3], c.zebra)
    assert not near(c.zebra, c.paper) and not near(c.leader, c.paper)
    ranks = [label for label in labels if label.kind == "rank"]
    assert ranks[0].back == GOLD and ranks[3].back == c.zebra
    you = names[4]  # the reader's line is outlined in the theme's accent, left to right
    y = (you.box[1] + you.box[3]) // 2
    assert near(img.getpixel((1, y)), c.you) and near(img.getpixel((img.width - 2, y)), c.you)
    assert not near(img.getpixel((1, (names[3].box[1] + names[3].box[3]) // 2)), c.you)


def test_chips_show_opponent_colour_and_result() -> None:
    """Each round is a chip in its outcome's colour, with a draughtsman of the colour played and
    the opponent's number; the kinds a crosstable needs are all there."""
    sheet = swiss_sheet(8)
    img, labels = page(sheet, theme="wood")
    theme = THEMES["wood"]
    chips = [label for label in labels if label.kind == "chip"]
    cols = columns(sheet, DEFAULT_WIDTH)
    m = metrics(DEFAULT_WIDTH)
    first = sheet.rows[0].cells[0]
    opponent = next(label for label in chips if label.text == first.opponent)
    fill = CHIPS[first.outcome].fill
    assert opponent.back == fill
    y = (opponent.box[1] + opponent.box[3]) // 2
    disc = (m.margin + cols.chip.pad + cols.chip.disc // 2, y)
    piece = theme.white_piece if first.colour == "white" else theme.black_piece
    assert sum(abs(a - b) for a, b in zip(img.getpixel(disc), piece, strict=True)) < 60
    texts = {label.text for label in chips}
    assert {"1", "½", "0", "+", "−", "–"} <= texts
    # The rows of round numbers over the chips say every round.
    rounds = [label.text for label in labels if label.kind == "round"]
    assert rounds == [str(n) for n in range(1, 6)]


def test_many_rounds_wrap_and_every_round_is_shown() -> None:
    """A double round robin of 16 (30 rounds; three of its players drawn): the chips wrap into
    balanced lines, all inside the image, and every round has its number above."""
    sheet = swiss_sheet(3, 30)
    img, labels = page(sheet)
    cols = columns(sheet, DEFAULT_WIDTH)
    assert cols.lines >= 4 and cols.per_line * cols.lines >= 30
    assert cols.per_line * (cols.lines - 1) < 30
    assert all(label.box[2] <= img.width for label in labels)
    rounds = [label.text for label in labels if label.kind == "round"]
    assert rounds == [str(n) for n in range(1, 31)]
    assert not label_problems(img, labels)


def test_sixty_four_players_take_four_pages_that_line_up() -> None:
    sheet = swiss_sheet(64, 9)
    pages = [page(sheet, number) for number in range(4)]
    assert len(render_standings(sheet)) == 4
    first = [label.box[2] for label in pages[0][1] if label.kind == "points"]
    last = [label.box[2] for label in pages[3][1] if label.kind == "points"]
    assert len(set(first) | set(last)) == 1  # the points column is where it is on every page
    ranks = [label.text for label in pages[3][1] if label.kind == "rank"]
    assert ranks == [str(n) for n in range(49, 65)]


@pytest.mark.parametrize("name", ODD_NAMES, ids=range(len(ODD_NAMES)))
def test_odd_names_stay_in_their_column(name: str) -> None:
    """A name never crashes the picture, never reaches the points, is cut with an ellipsis when
    long, and becomes the fallback when the font can draw nothing of it."""
    sheet = swiss_sheet(3, 3, names=[name, "Bob", name])
    img, labels = page(sheet)
    cols = columns(sheet, DEFAULT_WIDTH)
    points_left = cols.right[0][0] - cols.right[0][1]
    names = [label for label in labels if label.kind == "name"]
    assert len(names) == 3
    for label in names:
        assert label.box[0] >= cols.name - 4 and label.box[2] <= points_left, label
        assert "\n" not in label.text and "\x00" not in label.text and "\u202e" not in label.text
        assert (
            label.text == "Player 1"
            or label.text == "Player 3"
            or any(c.isalnum() for c in label.text)
        )
    if name.startswith("W"):
        assert names[0].text.endswith("…") and names[0].text.startswith("WWW")
    if name.startswith("💥"):
        assert names[0].text == "Player 1"
    assert not label_problems(img, labels)


def test_name_with_nothing_to_draw_becomes_the_fallback() -> None:
    sheet = swiss_sheet(2, 1, names=["李小龙"])
    names = [label.text for label in standings_page(sheet)[1] if label.kind == "name"]
    assert names == ["Player 1", "Player 2"]


def test_right_to_left_names_are_laid_out_right_to_left() -> None:
    """Hebrew drawn in its order: the first letter (mem) is the rightmost; the picture of the
    name differs from the one of its letters reversed."""
    one = standings_page(swiss_sheet(1, 1, names=["מרים"]))[0]
    other = standings_page(swiss_sheet(1, 1, names=["םירמ"]))[0]
    assert one.tobytes() != other.tobytes()


# -- arena ---------------------------------------------------------------------------------------


def test_arena_sheet_shows_points_fire_and_berserk() -> None:
    sheet = swiss_sheet(3, 40, arena=True)
    img, labels = page(sheet)
    cols = columns(sheet, DEFAULT_WIDTH)
    chips = [label for label in labels if label.kind == "chip"]
    # The most recent games, after an ellipsis, in at most two lines a player.
    assert cols.lines == 2
    assert sum(label.text == "…" for label in chips) == 3
    assert sum(label.text != "…" for label in chips) == 3 * (2 * cols.per_line - 1)
    doubled = [label for label in chips if label.back == DOUBLED.fill]
    assert doubled and all(label.text in ("2", "4") for label in doubled)
    pixels = {colour for _, colour in img.getcolors(1 << 16) or []}
    assert FLAME in pixels  # the flames of the players on fire
    assert not label_problems(img, labels)
    short = swiss_sheet(6, 3, arena=True)
    assert columns(short, DEFAULT_WIDTH).lines == 1
    assert not any(label.text == "…" for label in standings_page(short)[1])


def test_arena_berserk_bolt_is_drawn() -> None:
    plain = dataclasses.replace(
        swiss_sheet(1, 1, arena=True),
        rows=(SheetRow("1", "A", "3", cells=(SheetCell(Outcome.WIN, mark="3"),)),),
    )
    mad = dataclasses.replace(
        plain,
        rows=(SheetRow("1", "A", "3", cells=(SheetCell(Outcome.WIN, mark="3", berserk=True),)),),
    )
    a, b = standings_page(plain)[0], standings_page(mad)[0]
    assert a.size == b.size and a.tobytes() != b.tobytes()


# -- determinism ---------------------------------------------------------------------------------


def test_same_sheet_same_bytes() -> None:
    sheet = swiss_sheet(20, 7, seed=5)
    again = swiss_sheet(20, 7, seed=5)
    pages = render_standings(sheet)
    assert pages == render_standings(again)
    assert render_standings(sheet, theme="green") != pages
    # The pages sent are the pages the legibility tests read (labelled or not, the same pixels).
    assert pages[0] == encode(standings_page(sheet)[0])
