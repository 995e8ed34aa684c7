"""A tournament's standings in a reader's language: the picture's words, its alt text, and a text
version for a code block.

The picture is :mod:`render.standings`'; it knows no language, so this module turns a
:class:`bot.tournaments.model.Table` into a :class:`render.sheet.Sheet` with every heading, key
and number already worded from the catalogs (:func:`standings_sheet`).  Points and tiebreaks are
written as crosstables write them, halves and quarters as fractions (``4½``, ``12¼``: the same in
every language, and a column of them reads at a glance) and anything else in the language's own
way (:func:`bot.i18n.number`).  Opponents are named by their line on the sheet: a player's rank
unless the tiebreaks left two players level.

:func:`standings_text` is the same table as text, for readers who cannot see the picture and for
copying: rank, name, points and tiebreaks in a code block of :data:`LINE_WIDTH` characters (a
phone shows that many without wrapping), with the round-by-round crosstable under it when its lines
fit that width too and the message stays within Discord's 2,000 characters; players who do not
fit are counted after the block.  :func:`standings_alt` is the picture's description (at most
:data:`render.MAX_ALT_TEXT` characters): the event, the round, the leaders and the places on that
page.  :func:`draw_standings` does all of it at once, off the event loop (it draws).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from render import DEFAULT_THEME, MAX_ALT_TEXT
from render.sheet import KeyItem, Outcome, Sheet, SheetCell, SheetRow
from render.sheet_layout import PAGE_ROWS, pages_for
from render.standings import render_standings

from ..i18n import Text, _n, _p, listed, number, render, verbatim
from ..i18n.catalogs import SHORT_NAME
from ..markdown import ELLIPSIS, one_line, plain, shorten, shown
from ..tournaments.model import Cell, CellKind, Format, Standing, Table, Tiebreak
from ..words import variant_title
from .limits import CONTENT, listing
from .replies import Outgoing, Upload

FILES_PER_MESSAGE = 10
"""Discord's limit on a message's attachments: a sheet of more than 160 players takes two."""
LINE_WIDTH = 40
"""Characters of a code block line a phone shows without wrapping (as the text diagram's)."""

TIEBREAK_SHORT: dict[Tiebreak, Text] = {
    # Translators: the column heading of the Buchholz tiebreak (sum of the opponents' points),
    # as short as crosstables write it.
    Tiebreak.BUCHHOLZ: _p("tiebreak short", "BH"),
    Tiebreak.MEDIAN_BUCHHOLZ: _p("tiebreak short", "MBH"),
    Tiebreak.SONNEBORN_BERGER: _p("tiebreak short", "SB"),
    Tiebreak.HEAD_TO_HEAD: _p("tiebreak short", "H2H"),
    Tiebreak.WINS: _p("tiebreak short", "W"),
    Tiebreak.PERFORMANCE: _p("tiebreak short", "Perf"),
}
"""Column headings of the tiebreaks (a few letters: the key under the table says them whole)."""

TIEBREAK_NAMES: dict[Tiebreak, Text] = {
    Tiebreak.BUCHHOLZ: _p("tiebreak", "Buchholz"),
    # Translators: Buchholz without the opponents' highest and lowest scores.
    Tiebreak.MEDIAN_BUCHHOLZ: _p("tiebreak", "median Buchholz"),
    Tiebreak.SONNEBORN_BERGER: _p("tiebreak", "Sonneborn-Berger"),
    # Translators: the tiebreak of the games the tied players played against each other.
    Tiebreak.HEAD_TO_HEAD: _p("tiebreak", "head-to-head"),
    Tiebreak.WINS: _p("tiebreak", "games won"),
    Tiebreak.PERFORMANCE: _p("tiebreak", "performance rating"),
}
"""The tiebreaks as players say them."""

FORMAT_NAMES: dict[Format, Text] = {
    Format.SWISS: _p("tournament format", "Swiss"),
    Format.ROUND_ROBIN: _p("tournament format", "Round robin"),
    Format.ARENA: _p("tournament format", "Arena"),
}

COLOUR_LETTERS: dict[str, Text] = {
    # Translators: the letter for White in a text crosstable ("9w1": against no. 9 with White,
    # won); one letter, different from Black's.
    "white": _p("crosstable", "w"),
    "black": _p("crosstable", "b"),
}

MARKS: dict[float, str] = {1.0: "1", 0.5: "½", 0.0: "0"}
"""What a game gave, as crosstables write it (the same in every language)."""
FORFEIT_MARKS = {CellKind.FORFEIT_WIN: "+", CellKind.FORFEIT_LOSS: "−"}
FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


@dataclass(frozen=True)
class Event:
    """What the standings belong to: the tournament's name (user text) and variant, and
    whether these are its final standings."""

    name: str
    variant: str
    final: bool = False


@dataclass(frozen=True)
class Drawn:
    """The standings as Discord gets them: a PNG per page with its alt text, and the text
    version."""

    pages: tuple[bytes, ...]
    alts: tuple[str, ...]
    text: str


def score(value: float, code: str) -> str:
    """Points as crosstables write them: ``4½``, ``½``, ``12¼``, ``3``; other values in the
    language ``code``'s own way (``3,2``)."""
    whole = int(value // 1)
    part = value - whole
    if part == 0:
        return number(whole, code)
    fraction = FRACTIONS.get(round(part, 9))
    if fraction is None or value < 0:
        return number(value, code)
    return (number(whole, code) if whole else "") + fraction


def _tiebreak(tiebreak: Tiebreak, value: float, code: str) -> str:
    if tiebreak in (Tiebreak.PERFORMANCE, Tiebreak.WINS):
        return number(round(value), code)
    return score(value, code)


def _lines(table: Table) -> dict[int, int]:
    """Each player's line on the sheet (from 1), by user id: how opponents are named."""
    return {standing.entrant.id: line for line, standing in enumerate(table.rows, start=1)}


def _played(table: Table) -> bool:
    return any(cell.score is not None for row in table.rows for cell in row.cells)


def _outcome(cell: Cell) -> Outcome:
    if cell.kind is CellKind.ABSENT:
        return Outcome.ABSENT
    if cell.kind is CellKind.BYE:
        return Outcome.BYE
    if cell.kind is CellKind.FORFEIT_WIN:
        return Outcome.FORFEIT_WIN
    if cell.kind is CellKind.FORFEIT_LOSS:
        return Outcome.FORFEIT_LOSS
    if cell.score is None:
        return Outcome.PENDING
    return {1.0: Outcome.WIN, 0.5: Outcome.DRAW}.get(cell.score, Outcome.LOSS)


def _mark(cell: Cell, code: str) -> str:
    if cell.kind in FORFEIT_MARKS:
        return FORFEIT_MARKS[cell.kind]
    if cell.score is None:
        return ""
    return MARKS.get(cell.score) or score(cell.score, code)


def _cell(cell: Cell, lines: dict[int, int], arena: bool, code: str) -> SheetCell:
    outcome = _outcome(cell)
    if arena:
        mark = _mark(cell, code) if cell.arena_points is None else number(cell.arena_points, code)
        return SheetCell(outcome, mark=mark, doubled=cell.doubled, berserk=cell.berserk)
    opponent = "" if cell.opponent is None else str(lines.get(cell.opponent, "?"))
    return SheetCell(outcome, cell.colour, opponent, _mark(cell, code))


def _current_round(table: Table) -> int:
    return max((len(row.cells) for row in table.rows), default=0)


def progress(table: Table, event: Event) -> Text:
    """Where the tournament is: ``after round 5 of 7``, ``round 6 of 7 in play``, ``final
    standings``, ``12 games played``."""
    if event.final:
        return _p("standings", "final standings")
    if table.format is Format.ARENA:
        count = table.rounds_played
        return _n("{count} game played", "{count} games played", count)
    current = _current_round(table)
    if current == 0:
        return _p("standings", "before the first round")
    if table.rounds is None:
        if current > table.rounds_played:
            return _p("standings", "round {round} in play", round=current)
        return _p("standings", "after round {round}", round=current)
    if current > table.rounds_played:
        return _p(
            "standings", "round {round} of {rounds} in play", round=current, rounds=table.rounds
        )
    return _p("standings", "after round {round} of {rounds}", round=current, rounds=table.rounds)


def subtitle(table: Table, event: Event, code: str) -> str:
    """``Swiss · English draughts · after round 5 of 7`` in the language ``code``: the variant's
    title up to where it goes on to explain itself (not ``English draughts / American
    checkers``), so the line fits a phone."""
    variant = SHORT_NAME.split(render(variant_title(event.variant), code), maxsplit=1)[0]
    words = _p(
        "standings",
        "{format} · {variant} · {progress}",
        format=FORMAT_NAMES[table.format],
        variant=verbatim(variant),
        progress=progress(table, event),
    )
    return render(words, code)


def _key(table: Table, code: str) -> tuple[KeyItem, ...]:
    def t(text: Text) -> str:
        return render(text, code)

    cells = [cell for row in table.rows for cell in row.cells]
    kinds = {cell.kind for cell in cells}
    items: list[KeyItem] = []
    if table.format is Format.ARENA:
        items += [
            KeyItem(t(_p("standings key", "win")), SheetCell(Outcome.WIN, mark="2")),
            KeyItem(t(_p("standings key", "draw")), SheetCell(Outcome.DRAW, mark="1")),
            KeyItem(t(_p("standings key", "loss")), SheetCell(Outcome.LOSS, mark="0")),
            KeyItem(
                t(_p("standings key", "on fire: counts double")),
                SheetCell(Outcome.WIN, mark="4", doubled=True),
            ),
        ]
        if any(cell.berserk for cell in cells):
            items.append(
                KeyItem(
                    t(_p("standings key", "berserk")),
                    SheetCell(Outcome.WIN, mark="3", berserk=True),
                )
            )
    else:
        items += [
            KeyItem(
                t(_p("standings key", "White against no. 7, won")),
                SheetCell(Outcome.WIN, "white", "7", "1"),
            ),
            KeyItem(t(_p("standings key", "draw")), SheetCell(Outcome.DRAW, mark="½")),
            KeyItem(t(_p("standings key", "loss")), SheetCell(Outcome.LOSS, mark="0")),
        ]
        if CellKind.FORFEIT_WIN in kinds or CellKind.FORFEIT_LOSS in kinds:
            items.append(
                KeyItem(
                    t(_p("standings key", "won by forfeit")),
                    SheetCell(Outcome.FORFEIT_WIN, mark="+"),
                )
            )
            items.append(
                KeyItem(
                    t(_p("standings key", "lost by forfeit")),
                    SheetCell(Outcome.FORFEIT_LOSS, mark="−"),
                )
            )
        if CellKind.BYE in kinds:
            bye = next(cell for cell in cells if cell.kind is CellKind.BYE)
            items.append(
                KeyItem(
                    t(_p("standings key", "bye")),
                    SheetCell(Outcome.BYE, mark=_mark(bye, code)),
                )
            )
        if any(_outcome(cell) is Outcome.PENDING for cell in cells):
            items.append(KeyItem(t(_p("standings key", "playing")), SheetCell(Outcome.PENDING)))
    for tiebreak in table.tiebreaks:
        words = _p(
            "standings key",
            "{short}: {name}",
            short=TIEBREAK_SHORT[tiebreak],
            name=TIEBREAK_NAMES[tiebreak],
        )
        items.append(KeyItem(t(words)))
    return tuple(items)


def _row(
    standing: Standing, table: Table, lines: dict[int, int], code: str, viewer: int | None
) -> SheetRow:
    entrant = standing.entrant
    arena = table.format is Format.ARENA
    return SheetRow(
        rank=number(standing.rank, code),
        name=entrant.name,
        points=score(standing.points, code),
        tiebreaks=tuple(
            _tiebreak(tiebreak, value, code)
            for tiebreak, value in zip(table.tiebreaks, standing.tiebreaks, strict=False)
        ),
        cells=tuple(_cell(cell, lines, arena, code) for cell in standing.cells),
        podium=standing.rank if standing.rank <= 3 and _played(table) else None,
        on_fire=standing.on_fire,
        withdrawn=entrant.withdrawn,
        you=viewer is not None and entrant.id == viewer,
        fallback=render(_p("standings", "Player {number}", number=entrant.number), code),
    )


def standings_sheet(table: Table, event: Event, code: str, *, viewer: int | None = None) -> Sheet:
    """The picture's input: ``table`` worded in the language ``code``; ``viewer``'s own line (a
    user id) outlined."""
    lines = _lines(table)
    return Sheet(
        title=event.name,
        subtitle=subtitle(table, event, code),
        rows=tuple(_row(s, table, lines, code, viewer) for s in table.rows),
        rank_heading=render(_p("standings heading", "#"), code),
        name_heading=render(_p("standings heading", "Player"), code),
        points_heading=render(_p("standings heading", "Pts"), code),
        tiebreak_headings=tuple(render(TIEBREAK_SHORT[t], code) for t in table.tiebreaks),
        rounds=0 if table.format is Format.ARENA else _current_round(table),
        arena=table.format is Format.ARENA,
        key=_key(table, code),
        page=render(_p("standings", "{page}/{pages}"), code),
    )


# -- alt text ------------------------------------------------------------------------------------


def _leaders(table: Table) -> list[Standing]:
    return [standing for standing in table.rows if standing.rank == 1]


def standings_alt(table: Table, event: Event, code: str, *, page: int = 0) -> str:
    """The description of page ``page`` of the picture: the event and the round, the leaders,
    and the places on that page, within Discord's limit on an attachment's description."""
    name = plain(event.name, 100)
    parts = [
        _p(
            "standings",
            "Standings of {name}, {progress}.",
            name=verbatim(name),
            progress=progress(table, event),
        )
    ]
    pages = pages_for(len(table.rows))
    if pages > 1:
        first = page * PAGE_ROWS + 1
        last = min(len(table.rows), first + PAGE_ROWS - 1)
        parts.append(
            _p(
                "standings",
                "Page {page} of {pages}: places {first} to {last}.",
                page=page + 1,
                pages=pages,
                first=first,
                last=last,
            )
        )
    leaders = _leaders(table)
    if leaders and _played(table):
        parts.append(
            _n(
                "Leader with {points}: {names}.",
                "Leaders with {points}: {names}.",
                len(leaders),
                points=_points_words(leaders[0].points, table, code),
                names=listed([verbatim(plain(s.entrant.name)) for s in leaders]),
            )
        )
    head = " ".join(render(part, code) for part in parts)
    rows = table.rows[page * PAGE_ROWS : (page + 1) * PAGE_ROWS]
    places = [
        render(
            _p(
                "standings",
                "{rank}. {name}, {points}",
                rank=standing.rank,
                name=verbatim(plain(standing.entrant.name)),
                points=_points_words(standing.points, table, code),
            ),
            code,
        )
        for standing in rows
    ]
    body = listing(places, MAX_ALT_TEXT - len(head) - 1, sep="; ", code=code)
    return shorten(f"{head} {body}".strip(), MAX_ALT_TEXT)


def _points_words(points: float, table: Table, code: str) -> Text:
    """``4½ points``: the plural form of the whole number, or for a fraction the form of 2
    (English "points", Russian "очка", as those languages say it of a fraction)."""
    return _n(
        "{points} point",
        "{points} points",
        int(points) if points == int(points) else 2,
        points=verbatim(score(points, code)),
    )


# -- text version --------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns ``text`` takes in a monospaced font (wide East Asian letters and emoji two,
    combining marks none)."""
    total = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def _cell_text(name: str, width: int) -> str:
    """A name in a code block, ``width`` columns: cut with an ellipsis, padded with spaces, its
    writing direction isolated (a right-to-left name cannot pull the numbers after it into its
    line's order), and no backtick (it would end the block)."""
    text = one_line(name).replace("`", "ˋ") or "?"
    if _width(text) > width:
        kept = ""
        for char in text:
            if _width(kept + char) > width - 1:
                break
            kept += char
        text = kept.rstrip() + ELLIPSIS
    return "\u2068" + text + "\u2069" + " " * (width - _width(text))


def _table_lines(table: Table, code: str) -> list[str]:
    heads = [render(TIEBREAK_SHORT[t], code) for t in table.tiebreaks]
    rows = [
        (
            number(s.rank, code),
            s.entrant.name,
            score(s.points, code),
            [_tiebreak(t, v, code) for t, v in zip(table.tiebreaks, s.tiebreaks, strict=False)],
        )
        for s in table.rows
    ]
    rank_head = render(_p("standings heading", "#"), code)
    rank_w = max([_width(r[0]) for r in rows] + [_width(rank_head)])
    points_head = render(_p("standings heading", "Pts"), code)
    points_w = max([_width(r[2]) for r in rows] + [_width(points_head)])
    tb_w = [
        max([_width(r[3][i]) for r in rows if i < len(r[3])] + [_width(head)])
        for i, head in enumerate(heads)
    ]
    name_w = max(6, LINE_WIDTH - rank_w - points_w - sum(w + 1 for w in tb_w) - 3)

    def line(rank: str, name: str, points: str, tbs: Sequence[str]) -> str:
        out = rank.rjust(rank_w) + " " + _cell_text(name, name_w) + " " + points.rjust(points_w)
        for value, width in zip(tbs, tb_w, strict=False):
            out += " " + value.rjust(width)
        return out.rstrip()

    head = line(
        rank_head,
        render(_p("standings heading", "Player"), code),
        points_head,
        heads,
    )
    return [head, *(line(*row) for row in rows)]


def _crosstable_lines(table: Table, code: str) -> list[str]:
    """`` 1  9w1 15b1  7b½``: each player's rounds, opponent's line, colour and result."""
    lines = _lines(table)
    letters = {colour: render(text, code) for colour, text in COLOUR_LETTERS.items()}
    cells = [
        [
            ""
            if cell.kind is CellKind.ABSENT
            else (str(lines.get(cell.opponent, "?")) if cell.opponent is not None else "–")
            + (letters.get(cell.colour, "") if cell.colour else "")
            + _mark(cell, code)
            for cell in standing.cells
        ]
        for standing in table.rows
    ]
    width = max([len(c) for row in cells for c in row] + [1])
    rank_w = len(str(len(table.rows)))
    head = " " * rank_w + "".join(
        " " + str(n).rjust(width) for n in range(1, _current_round(table) + 1)
    )
    return [head.rstrip()] + [
        (str(line).rjust(rank_w) + "".join(" " + c.rjust(width) for c in row)).rstrip()
        for line, row in enumerate(cells, start=1)
    ]


def standings_text(table: Table, event: Event, code: str) -> str:
    """The standings as one Discord message (Markdown): a heading line, the table in a code
    block, and the crosstable under it when it fits (see the module's docstring)."""
    head = render(
        _p(
            "standings",
            "**{name}** · {subtitle}",
            name=verbatim(shown(event.name)),
            subtitle=verbatim(subtitle(table, event, code)),
        ),
        code,
    )
    budget = CONTENT - len(head) - 10
    body = listing(_table_lines(table, code), budget, code=code)
    text = f"{head}\n```\n{body}\n```"
    if table.format is Format.ARENA or not _current_round(table):
        return text
    cross = _crosstable_lines(table, code)
    legend = render(
        _p(
            "crosstable",
            "{white} White, {black} Black; 1 won, ½ draw, 0 lost, + − by forfeit",
            white=verbatim(render(COLOUR_LETTERS["white"], code)),
            black=verbatim(render(COLOUR_LETTERS["black"], code)),
        ),
        code,
    )
    extra = "\n```\n" + "\n".join(cross) + "\n```\n" + legend
    whole = len(body.splitlines()) == len(table.rows) + 1
    fits = max(len(line) for line in cross) <= LINE_WIDTH
    if whole and fits and len(text) + len(extra) <= CONTENT:
        return text + extra
    return text


def draw_standings(
    table: Table,
    event: Event,
    code: str,
    *,
    theme: str = DEFAULT_THEME,
    viewer: int | None = None,
) -> Drawn:
    """Everything Discord gets for the standings (runs in a worker thread: it draws)."""
    sheet = standings_sheet(table, event, code, viewer=viewer)
    pages = render_standings(sheet, theme=theme)
    alts = tuple(standings_alt(table, event, code, page=page) for page in range(len(pages)))
    return Drawn(pages, alts, standings_text(table, event, code))


def standings_uploads(drawn: Drawn, name: str = "standings") -> list[Upload]:
    """The pages as attachments (``standings-1.png``, ...), each with its alt text."""
    return [
        Upload(f"{name}-{page}.png", data, alt)
        for page, (data, alt) in enumerate(zip(drawn.pages, drawn.alts, strict=True), start=1)
    ]


def standings_messages(drawn: Drawn, part: str, name: str = "standings") -> list[Outgoing]:
    """The standings as messages to post: the text version with the first
    :data:`FILES_PER_MESSAGE` pages, then the further pages in messages of their own; each
    message's ``part`` is ``part`` and its number (``<part>-1``...), so a repost after a crash is
    recognised as the same message."""
    uploads = standings_uploads(drawn, name)
    chunks = [uploads[i : i + FILES_PER_MESSAGE] for i in range(0, len(uploads), FILES_PER_MESSAGE)]
    return [
        Outgoing(content=drawn.text if i == 0 else None, files=chunk, part=f"{part}-{i + 1}")
        for i, chunk in enumerate(chunks)
    ]
