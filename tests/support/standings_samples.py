"""Tournament tables built by hand for the standings picture's tests, and a script that draws them.

The tables are what ``bot.tournaments`` hands the Discord layer (:class:`Table`), made here from a
seeded random event so the tests need nothing of the pairing: a Swiss (score groups paired top
down, no repeats, a bye for an odd player, points, Buchholz and Sonneborn-Berger), a round robin
(the circle method) and an arena (lichess's scoring: 2 a win, 1 a draw, double on fire after two
wins, a point more for a berserk win).  Results are drawn from the seeded generator with the
stronger player (lower number) favoured, so the tables look like real events.

``python tests/support/standings_samples.py [DIR]`` saves the sample pictures (16-player Swiss after
5 rounds, 8-player round robin, 6-player arena; every theme of the Swiss) into DIR (default
/tmp/standings-samples) to look at.
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
for entry in (str(ROOT), str(TESTS)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from bot.tournaments.model import (  # noqa: E402
    Cell,
    CellKind,
    Entrant,
    Format,
    Standing,
    Table,
    Tiebreak,
)

NAMES = [
    "Alice Wonderland",
    "Bartholomew Fitzwilliam-Smythe of Little Snoring",
    "Иван Петров",
    "José Müller",
    "李小龙",
    "מרים כהן",
    "Zoë 🎉",
    "Z̴̢a̸l̷g̶o̵",
    "مرحبا بالعالم",
    "Ton Sijbrands",
    "Łukasz Żółć",
    "Mariana",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Kees",
    "Олена",
    "Tom",
]
"""Names as players pick them: long, right to left, emoji, Chinese (nothing the font draws),
combining marks, the widest letter."""


def entrants(count: int, names: list[str] | None = None) -> list[Entrant]:
    pool = names or NAMES
    return [
        Entrant(
            id=1000 + i,
            name=pool[i % len(pool)] if i < len(pool) else f"Player {i + 1}",
            rating=2000 - 20 * i,
            number=i + 1,
        )
        for i in range(count)
    ]


def _result(rnd: random.Random, white: Entrant, black: Entrant) -> tuple[float, float]:
    edge = (black.number - white.number) * 0.03
    roll = rnd.random()
    if roll < 0.4 + edge:
        return 1.0, 0.0
    if roll < 0.7 + edge / 2:
        return 0.5, 0.5
    return 0.0, 1.0


Games = dict[int, list[Cell]]


def _table(
    fmt: Format,
    players: list[Entrant],
    cells: Games,
    tiebreaks: tuple[Tiebreak, ...],
    rounds_played: int,
    rounds: int | None,
) -> Table:
    points = {p.id: sum(c.score or 0.0 for c in cells[p.id]) for p in players}

    def opponents(pid: int) -> list[Cell]:
        return [c for c in cells[pid] if c.kind is CellKind.GAME and c.opponent is not None]

    def buchholz(pid: int) -> float:
        return sum(points[c.opponent] for c in opponents(pid) if c.opponent is not None)

    def sonneborn(pid: int) -> float:
        return sum(
            points[c.opponent] * (c.score or 0.0) for c in opponents(pid) if c.opponent is not None
        )

    values = {
        p.id: tuple(
            buchholz(p.id) if t is Tiebreak.BUCHHOLZ else sonneborn(p.id) for t in tiebreaks
        )
        for p in players
    }
    order = sorted(players, key=lambda p: (-points[p.id], *(-v for v in values[p.id]), p.number))
    rows = []
    for line, p in enumerate(order):
        before = order[line - 1] if line else None
        same = before is not None and (points[before.id], values[before.id]) == (
            points[p.id],
            values[p.id],
        )
        rank = rows[-1].rank if same else line + 1
        games = sum(1 for c in cells[p.id] if c.kind is CellKind.GAME and c.score is not None)
        rows.append(Standing(rank, p, points[p.id], values[p.id], tuple(cells[p.id]), games))
    return Table(fmt, tiebreaks, tuple(rows), rounds_played, rounds)


def swiss(
    count: int = 16,
    played: int = 5,
    rounds: int = 7,
    *,
    seed: int = 29,
    running: bool = False,
    names: list[str] | None = None,
) -> Table:
    """A Swiss of ``count`` players after ``played`` rounds of ``rounds`` (with ``running``, one
    more round paired and half its games still going); one forfeit in round 2, a withdrawal."""
    rnd = random.Random(seed)
    players = entrants(count, names)
    if count > 12:
        players[12] = Entrant(**{**players[12].__dict__, "withdrawn": True})
    by_id = {p.id: p for p in players}
    cells: Games = defaultdict(list)
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for number in range(1, played + 1 + running):
        points = {p.id: sum(c.score or 0.0 for c in cells[p.id]) for p in players}
        active = [p for p in players if not (p.withdrawn and number > 3)]
        for p in players:
            if p not in active:
                cells[p.id].append(Cell(number, CellKind.ABSENT))
        waiting = sorted(active, key=lambda p: (-points[p.id], p.number))
        if len(waiting) % 2:
            bye = next(p for p in reversed(waiting) if p.id not in byes)
            byes.add(bye.id)
            waiting.remove(bye)
            cells[bye.id].append(Cell(number, CellKind.BYE, score=1.0))
        board = 0
        while waiting:
            first = waiting.pop(0)
            other = next((p for p in waiting if frozenset((first.id, p.id)) not in met), waiting[0])
            waiting.remove(other)
            met.add(frozenset((first.id, other.id)))
            board += 1
            white, black = (first, other) if (number + board) % 2 else (other, first)
            if running and number == played + 1 and board % 2:
                cells[white.id].append(Cell(number, CellKind.GAME, black.id, "white"))
                cells[black.id].append(Cell(number, CellKind.GAME, white.id, "black"))
                continue
            if number == 2 and board == 3:
                cells[white.id].append(Cell(number, CellKind.FORFEIT_WIN, black.id, "white", 1.0))
                cells[black.id].append(Cell(number, CellKind.FORFEIT_LOSS, white.id, "black", 0.0))
                continue
            a, b = _result(rnd, by_id[white.id], by_id[black.id])
            cells[white.id].append(Cell(number, CellKind.GAME, black.id, "white", a))
            cells[black.id].append(Cell(number, CellKind.GAME, white.id, "black", b))
    tiebreaks = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    return _table(Format.SWISS, players, cells, tiebreaks, played, rounds)


def round_robin(count: int = 8, played: int | None = None, *, seed: int = 7) -> Table:
    """A single round robin of ``count`` players (even), after ``played`` rounds (all by
    default), paired by the circle method."""
    rnd = random.Random(seed)
    players = entrants(count, [n for n in NAMES if len(n) < 20])
    rounds = count - 1
    played = rounds if played is None else played
    cells: Games = defaultdict(list)
    ring = list(range(1, count))
    for number in range(1, played + 1):
        line = [0, *ring]
        for board in range(count // 2):
            a, b = line[board], line[count - 1 - board]
            white, black = (
                (players[a], players[b]) if (number + board) % 2 else (players[b], players[a])
            )
            x, y = _result(rnd, white, black)
            cells[white.id].append(Cell(number, CellKind.GAME, black.id, "white", x))
            cells[black.id].append(Cell(number, CellKind.GAME, white.id, "black", y))
        ring = ring[-1:] + ring[:-1]
    tiebreaks = (Tiebreak.SONNEBORN_BERGER,)
    return _table(Format.ROUND_ROBIN, players, cells, tiebreaks, played, rounds)


def arena(count: int = 6, games: int = 60, *, seed: int = 3) -> Table:
    """An arena of ``count`` players and ``games`` games, scored as lichess scores (streaks and
    berserk), ranked by arena points then performance."""
    rnd = random.Random(seed)
    players = entrants(count, ["Alice", "Bogdan", "Carla", "Dmitri", "Eve", "Fatima"])
    cells: Games = defaultdict(list)
    streak: dict[int, int] = defaultdict(int)
    total: dict[int, int] = defaultdict(int)
    for number in range(1, games + 1):
        white, black = rnd.sample(players, 2)
        a, b = _result(rnd, white, black)
        for me, other, colour, got in ((white, black, "white", a), (black, white, "black", b)):
            fire = streak[me.id] >= 2
            berserk = rnd.random() < 0.2
            base = {1.0: 2, 0.5: 1}.get(got, 0) * (2 if fire else 1)
            earned = base + (1 if berserk and got == 1.0 else 0)
            streak[me.id] = streak[me.id] + 1 if got == 1.0 else 0
            total[me.id] += earned
            cells[me.id].append(
                Cell(
                    number, CellKind.GAME, other.id, colour, got, earned, fire and got > 0, berserk
                )
            )
    order = sorted(players, key=lambda p: (-total[p.id], p.number))
    rows = tuple(
        Standing(
            line + 1,
            p,
            float(total[p.id]),
            (float(1900 - 15 * line),),
            tuple(cells[p.id]),
            len(cells[p.id]),
            performance=1900 - 15 * line,
            on_fire=streak[p.id] >= 2,
        )
        for line, p in enumerate(order)
    )
    return Table(Format.ARENA, (Tiebreak.PERFORMANCE,), rows, games, None)


def save_samples(directory: Path) -> list[Path]:
    """Draw the sample events into ``directory``; returns the files written."""
    from bot.ui.standings_sheet import Event, draw_standings

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    samples = [
        ("swiss16", swiss(), Event("Friday Night Swiss", "english"), "wood", 1003),
        (
            "roundrobin8",
            round_robin(),
            Event("Club Championship 2026", "international", True),
            "green",
            None,
        ),
        ("arena6", arena(), Event("Hourly Blitz Arena", "russian"), "wood", None),
        ("swiss64", swiss(64, 7, 9, running=True), Event("Open", "brazilian"), "contrast", None),
        ("swiss16-de", swiss(), Event("Freitagsturnier", "dame"), "wood", None),
    ]
    for name, table, event, theme, viewer in samples:
        code = "de" if name.endswith("-de") else "en"
        drawn = draw_standings(table, event, code, theme=theme, viewer=viewer)
        for page, data in enumerate(drawn.pages, start=1):
            path = directory / f"standings-{name}-{page}.png"
            path.write_bytes(data)
            written.append(path)
        (directory / f"standings-{name}.txt").write_text(
            drawn.text + "\n\n" + "\n\n".join(drawn.alts) + "\n"
        )
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/standings-samples")
    for path in save_samples(target):
        print(path)
