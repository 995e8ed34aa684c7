"""The standings' words (:mod:`bot.ui.standings_sheet`): a hand-built ``Table`` worded into the
picture's sheet, its alt text and its text version, in every language, within Discord's limits."""

from __future__ import annotations

import dataclasses
import io
import re
import unicodedata

import pytest
from PIL import Image
from support.standings_samples import arena, round_robin, swiss

from bot.i18n import available, render
from bot.markdown import size
from bot.tournaments.model import Cell, CellKind, Entrant, Format, Standing, Table, Tiebreak
from bot.ui.limits import CONTENT
from bot.ui.standings_sheet import (
    FILES_PER_MESSAGE,
    LINE_WIDTH,
    TIEBREAK_NAMES,
    TIEBREAK_SHORT,
    Event,
    draw_standings,
    score,
    standings_alt,
    standings_messages,
    standings_sheet,
    standings_text,
)
from render import MAX_ALT_TEXT
from render.sheet import Outcome

LANGUAGES = available()
EVENT = Event("Friday Night Swiss", "english")


def columns(line: str) -> int:
    """Columns a code-block line takes on a phone (wide letters two, marks and isolates none)."""
    total = 0
    for char in line:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def blocks(text: str) -> list[list[str]]:
    return [block.strip("\n").split("\n") for block in re.findall(r"```\n(.*?)```", text, re.S)]


def test_points_are_written_as_crosstables_write_them() -> None:
    assert score(4.5, "en") == "4½"
    assert score(0.5, "de") == "½"
    assert score(12.25, "ru") == "12¼"
    assert score(7.75, "fr") == "7¾"
    assert score(3, "pl") == "3"
    assert score(0, "en") == "0"
    assert score(3.2, "de") == "3,2"
    assert score(3.2, "en") == "3.2"


def test_the_sheet_names_opponents_by_their_line_and_shows_every_round() -> None:
    table = swiss()
    sheet = standings_sheet(table, EVENT, "en", viewer=table.rows[3].entrant.id)
    lines = {standing.entrant.id: line for line, standing in enumerate(table.rows, start=1)}
    assert len(sheet.rows) == 16 and sheet.rounds == 5
    assert [row.you for row in sheet.rows].index(True) == 3
    assert [row.podium for row in sheet.rows[:4]] == [1, 2, 3, None]
    for standing, row in zip(table.rows, sheet.rows, strict=True):
        assert row.name == standing.entrant.name
        assert row.withdrawn == standing.entrant.withdrawn
        for cell, drawn in zip(standing.cells, row.cells, strict=True):
            if cell.opponent is not None:
                assert drawn.opponent == str(lines[cell.opponent])
                assert drawn.colour == cell.colour
    outcomes = {cell.outcome for row in sheet.rows for cell in row.cells}
    assert {Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.BYE, Outcome.ABSENT} <= outcomes
    assert {Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS} <= outcomes
    marks = {cell.outcome: cell.mark for row in sheet.rows for cell in row.cells if cell.mark}
    assert marks[Outcome.FORFEIT_WIN] == "+" and marks[Outcome.FORFEIT_LOSS] == "−"
    assert marks[Outcome.DRAW] == "½" and marks[Outcome.BYE] == "1"
    assert sheet.tiebreak_headings == ("BH", "SB")
    assert [item.words for item in sheet.key][-2:] == [
        "BH: Buchholz",
        "SB: Sonneborn-Berger",
    ]
    assert sheet.subtitle == "Swiss · English draughts · after round 5 of 7"


def test_a_round_in_play_shows_its_games_running() -> None:
    table = swiss(16, 5, 7, running=True)
    sheet = standings_sheet(table, EVENT, "en")
    assert sheet.subtitle.endswith("round 6 of 7 in play")
    assert any(cell.outcome is Outcome.PENDING for row in sheet.rows for cell in row.cells)
    assert "playing" in [item.words for item in sheet.key]


def test_no_podium_before_any_game() -> None:
    table = swiss(8, 0, 5)
    sheet = standings_sheet(table, EVENT, "en")
    assert all(row.podium is None for row in sheet.rows)
    assert sheet.subtitle.endswith("before the first round")
    assert not any(row.cells for row in sheet.rows)


def test_arena_cells_carry_their_arena_points_fire_and_berserk() -> None:
    table = arena()
    sheet = standings_sheet(table, Event("Hourly Arena", "russian"), "en")
    assert sheet.arena and sheet.rounds == 0
    for standing, row in zip(table.rows, sheet.rows, strict=True):
        assert row.on_fire == standing.on_fire
        assert [c.mark for c in row.cells] == [str(c.arena_points) for c in standing.cells]
        assert [c.doubled for c in row.cells] == [c.doubled for c in standing.cells]
        assert [c.berserk for c in row.cells] == [c.berserk for c in standing.cells]
    assert sheet.tiebreak_headings == ("Perf",)
    assert sheet.rows[0].tiebreaks == ("1900",)
    assert "60 games played" in sheet.subtitle


def test_an_arena_cell_without_arena_points_shows_its_result() -> None:
    entrant = Entrant(1, "A", 1500, 1)
    cell = Cell(1, CellKind.GAME, 2, "white", 0.5)
    row = Standing(1, entrant, 1.0, (1500.0,), (cell,), 1)
    table = Table(Format.ARENA, (Tiebreak.PERFORMANCE,), (row,), 1, None)
    assert standings_sheet(table, EVENT, "en").rows[0].cells[0].mark == "½"


# -- the text version ----------------------------------------------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_text_version_fits_a_phone_and_a_message(code: str) -> None:
    """Rank, name, points and tiebreaks of every player in a code block a phone shows without
    wrapping; the crosstable under it when it fits; one message (2,000 characters) at most."""
    for table in (swiss(), round_robin(), arena(), swiss(64, 7, 9, running=True)):
        text = standings_text(table, EVENT, code)
        assert size(text) <= CONTENT
        found = blocks(text)
        assert found
        for block in found:
            assert all(columns(line) <= LINE_WIDTH for line in block), block
        assert "{" not in text
    small = standings_text(swiss(), EVENT, code)
    table, cross = blocks(small)
    assert len(table) == 17 and len(cross) == 17  # headings and 16 players, each
    big = standings_text(swiss(64, 7, 9, running=True), EVENT, code)
    assert len(blocks(big)) == 1  # the crosstable does not fit: the picture has it


def test_text_version_counts_the_players_left_out() -> None:
    table = swiss(200, 9, 9, names=["A"])
    text = standings_text(table, EVENT, "en")
    assert size(text) <= CONTENT
    lines = blocks(text)[0]
    shown = len(lines) - 2  # the heading and the "and N more" line
    assert lines[-1] == f"… and {200 - shown} more."
    assert shown > 30


def test_names_in_the_text_version_cannot_break_it() -> None:
    """A backtick cannot end the code block, a right-to-left name is isolated so the numbers
    after it stay in their columns, a long or wide name is cut to its column."""
    names = ["```evil```", "مرحبا بالعالم", "李小龙李小龙李小龙李小龙李小龙", "W" * 80, "Zoë 🎉"]
    text = standings_text(swiss(8, 3, 5, names=names), EVENT, "en")
    assert text.count("```") == 4
    table = blocks(text)[0]
    assert all(columns(line) <= LINE_WIDTH for line in table)
    assert any("\u2068مرحبا بالعالم\u2069" in line for line in table)
    assert any("W…" in line for line in table)
    widths = {columns(line) for line in table[1:]}
    assert len(widths) == 1, table  # every line as long: the columns line up


# -- alt text ------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_alt_text_says_the_round_and_the_leaders_within_the_limit(code: str) -> None:
    table = swiss()
    alt = standings_alt(table, EVENT, code)
    assert len(alt) <= MAX_ALT_TEXT
    assert "Friday Night Swiss" in alt and table.rows[0].entrant.name in alt
    assert "{" not in alt
    big = swiss(64, 7, 9, names=["Bartholomew Fitzwilliam-Smythe of Little Snoring"] * 64)
    for page in range(4):
        text = standings_alt(big, EVENT, code, page=page)
        assert len(text) <= MAX_ALT_TEXT
    if code == "en":
        assert alt.startswith("Standings of Friday Night Swiss, after round 5 of 7. ")
        assert "Leader with 4 points: Иван Петров." in alt
        assert "Page 2 of 4: places 17 to 32." in standings_alt(big, EVENT, code, page=1)
    if code == "de":
        assert "nach Runde 5 von 7" in alt and "An der Spitze (4 Punkte)" in alt


def test_alt_text_names_every_leader() -> None:
    table = swiss(6, 1, 5)
    leaders = [s.entrant.name for s in table.rows if s.rank == 1]
    alt = standings_alt(table, EVENT, "en")
    assert len(leaders) > 1 and alt.count("Leaders with") == 1
    assert all(name in alt for name in leaders)


# -- every language ------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_every_word_of_the_sheet_is_translated(code: str) -> None:
    """The sheet's headings, key and subtitle come from the language's catalog, not English."""
    table = swiss(16, 5, 7, running=True)
    english = standings_sheet(table, EVENT, "en")
    sheet = standings_sheet(table, EVENT, code)
    assert sheet.name_heading != english.name_heading
    assert sheet.subtitle != english.subtitle
    same = [
        (a.words, b.words)
        for a, b in zip(english.key, sheet.key, strict=True)
        if a.words == b.words and a.words not in ("SB: Sonneborn-Berger", "BH: Buchholz")
    ]
    assert not same, same
    for tiebreak in Tiebreak:
        assert render(TIEBREAK_NAMES[tiebreak], code)
        assert render(TIEBREAK_SHORT[tiebreak], code)


def test_tiebreaks_as_players_say_them() -> None:
    def name(tiebreak: Tiebreak, code: str) -> str:
        return render(TIEBREAK_NAMES[tiebreak], code)

    assert name(Tiebreak.BUCHHOLZ, "nl") == "weerstandspunten"
    assert name(Tiebreak.SONNEBORN_BERGER, "ru") == "коэффициент Бергера"
    assert name(Tiebreak.HEAD_TO_HEAD, "de") == "direkter Vergleich"
    assert name(Tiebreak.HEAD_TO_HEAD, "fr") == "confrontation directe"
    assert name(Tiebreak.SONNEBORN_BERGER, "pl") == "punkty Sonneborna-Bergera"


def test_draw_standings_gives_pages_with_their_alt_texts() -> None:
    drawn = draw_standings(swiss(20, 3, 5), EVENT, "fr", theme="green")
    assert len(drawn.pages) == len(drawn.alts) == 2
    for data in drawn.pages:
        img = Image.open(io.BytesIO(data))
        assert img.format == "PNG" and img.width == 640
    assert drawn.alts[1].startswith("Classement de Friday Night Swiss")
    assert drawn.text.startswith("**Friday Night Swiss** · Système suisse")


def test_messages_carry_the_pages_ten_at_a_time_with_their_alt_texts() -> None:
    drawn = draw_standings(swiss(20, 2, 5), EVENT, "en")
    (message,) = standings_messages(drawn, "standings-7-2")
    assert message.content == drawn.text and message.part == "standings-7-2-1"
    assert [upload.name for upload in message.files] == ["standings-1.png", "standings-2.png"]
    first = message.files[0].file()
    assert first.description == drawn.alts[0] and first.filename == "standings-1.png"
    many = dataclasses.replace(drawn, pages=drawn.pages * 6, alts=drawn.alts * 6)
    messages = standings_messages(many, "p")
    assert [len(m.files) for m in messages] == [FILES_PER_MESSAGE, 2]
    assert messages[1].content is None and messages[1].part == "p-2"
    assert messages[1].files[-1].name == "standings-12.png"


@pytest.mark.parametrize("fmt", list(Format))
def test_an_event_without_players_yet_has_standings_too(fmt: Format) -> None:
    drawn = draw_standings(Table(fmt, (Tiebreak.BUCHHOLZ,)), Event("Empty", "english"), "en")
    assert len(drawn.pages) == len(drawn.alts) == 1
    assert drawn.alts[0].startswith("Standings of Empty, ")
    assert size(drawn.text) <= CONTENT
