"""A tournament's standings as text: a table narrow enough for a phone, and its legend.

Monospaced in a code block, at most :data:`WIDTH` characters a line, so it reads without
wrapping at 330 px: rank, name (cut to :data:`NAME_WIDTH`), points, then the format's tiebreaks
by their short names, with a legend line naming them in full.  It is the text version of the
standings picture, and what a screen reader or a client without images gets.
"""

from __future__ import annotations

from typing import Final

from ..i18n import Text, _, render
from ..tournaments.model import Standing, Table, Tiebreak
from .limits import CONTENT, and_more

WIDTH: Final = 34
"""Characters per line: what a phone shows of a code block at 330 px without wrapping."""
NAME_WIDTH: Final = 12

SHORT: Final[dict[Tiebreak, Text]] = {
    Tiebreak.BUCHHOLZ: _("BH"),
    Tiebreak.MEDIAN_BUCHHOLZ: _("MBH"),
    Tiebreak.SONNEBORN_BERGER: _("SB"),
    Tiebreak.HEAD_TO_HEAD: _("H2H"),
    Tiebreak.WINS: _("W"),
    Tiebreak.PERFORMANCE: _("Perf"),
}
"""Each tiebreak's column heading (a short word a draughts player knows)."""
LONG: Final[dict[Tiebreak, Text]] = {
    Tiebreak.BUCHHOLZ: _("Buchholz"),
    Tiebreak.MEDIAN_BUCHHOLZ: _("median Buchholz"),
    Tiebreak.SONNEBORN_BERGER: _("Sonneborn-Berger"),
    Tiebreak.HEAD_TO_HEAD: _("head-to-head"),
    Tiebreak.WINS: _("games won"),
    Tiebreak.PERFORMANCE: _("performance rating"),
}


def points(value: float) -> str:
    """``2½``, ``3``, ``½``: points as draughts crosstables write them."""
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return f"{whole or ''}½"
    return f"{value:g}"


def _cell(value: float) -> str:
    if value == round(value * 2) / 2:
        return points(value)
    return f"{value:.2f}".rstrip("0") if abs(value) < 100 else f"{value:.0f}"


def _name(standing: Standing) -> str:
    """A name as it fits the table (user text in a code block: its backticks would end it)."""
    name = standing.entrant.name.replace("`", "'").replace("\n", " ")
    if standing.entrant.withdrawn:
        name = f"({name})"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def shown_tiebreaks(table: Table) -> list[Tiebreak]:
    """The tiebreaks that fit the table's width, in the format's order."""
    return list(table.tiebreaks)[: max(0, (WIDTH - 4 - NAME_WIDTH - 6) // 6)]


def standings_lines(table: Table, code: str) -> list[str]:
    """The table's lines in the language ``code``: a heading, then one line per player."""
    shown = shown_tiebreaks(table)
    heading = [render(SHORT[tb], code)[:5].rjust(5) for tb in shown]
    name_head = render(_("Player"), code)[:NAME_WIDTH].ljust(NAME_WIDTH)
    lines = [f"{'#':>3} {name_head} {render(_('Pts'), code)[:4]:>4} " + " ".join(heading)]
    for row in table.rows:
        values = [_cell(v)[:5].rjust(5) for v in row.tiebreaks[: len(shown)]]
        line = f"{row.rank:>3} {_name(row).ljust(NAME_WIDTH)} {points(row.points):>4} "
        lines.append((line + " ".join(values)).rstrip())
    return lines


def standings_text(table: Table, title: Text, code: str, limit: int = CONTENT) -> str:
    """The standings as a message: ``title``, the table in a code block (the lowest lines
    left off, said so, when it would pass ``limit``), and the legend of its tiebreaks."""
    head = render(title, code)
    shown = shown_tiebreaks(table)
    legend = render(
        _("Tiebreaks: {names}", names=", ".join(_legend(tb, code) for tb in shown)), code
    )
    if not table.rows:
        return f"{head}\n{render(_('No players yet.'), code)}"
    lines = standings_lines(table, code)
    kept = len(lines)
    while True:
        body = "\n".join(lines[:kept])
        more = len(lines) - kept
        tail = "" if not more else "\n" + and_more(code)(more)
        message = f"{head}\n```\n{body}\n```{tail}\n{legend if shown else ''}".rstrip()
        if len(message) <= limit or kept <= 2:
            return message[:limit]
        kept -= 1


def _legend(tiebreak: Tiebreak, code: str) -> str:
    return f"{render(SHORT[tiebreak], code)} = {render(LONG[tiebreak], code)}"


def standings_alt(table: Table, title: Text, code: str, limit: int = 1024) -> str:
    """The standings in one paragraph for a screen reader (an image's alt text): ``title``,
    then each player's rank, name and points, best first, as many as fit."""
    parts = [f"{row.rank}. {row.entrant.name}: {points(row.points)}" for row in table.rows]
    text = f"{render(title, code)}: " + "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"
