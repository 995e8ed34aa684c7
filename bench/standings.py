"""Social-command benchmark: /stats, /leaderboard and /history on a server with 20,000 rated games.

Why it exists: issue 7's social commands read a server's whole play: ``/stats`` counts a player's
rated record and streak over every game they ever finished there, ``/leaderboard`` ranks the
server's ladder and looks up each listed player's latest name, ``/history`` lists the newest ended
games.  They share the one connection the games use, so a slow read delays moves.  On a small test
database every query is instant whatever its plan; this script builds a database the size of a
busy server's, measures each command there and shows how SQLite runs each query, so that a missing
index shows (as a full scan, or as a statement that reads far more rows than it returns).  The
target is p50 under 20 ms per command.

How to run (the project's own dependencies are enough; about a minute)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/standings.py                 # 20,000 games, 200 players
    /tmp/bvenv/bin/python bench/standings.py --markdown      # as in docs/BENCHMARKS.md
    /tmp/bvenv/bin/python bench/standings.py --keep /tmp/standings.db   # keep it to try indexes

Method: a fresh database in a temporary directory (schema by ``Store.open``, so the bot's own
migrations and indexes).  ``--games`` (default 20,000) rated English games between ``--players``
(default 200) players of one server, and as noise a tenth as many rated English games in another
server (100 players of their own and 20 of the first server's), a tenth as many rated International
games in the first server, a twentieth as many unrated games against the computer, and one running
game in each of the 20 channels.  Players are not equally active: the i-th plays with weight
1/i^0.7, so the most active player has about 2,800 of the 20,000 games and the median one about
140.  Each game's result follows hidden strengths (15% draws), so the ladder spreads out.  The
games end in time order, about one every 15 minutes, and every one goes through the real store
API as the service writes it: ``Store.start_game`` with a running game's row, then
``Store.update_game`` with the finished columns and, for a rated game, ``rated=rated_game(...)``,
which reads both ratings, computes the Glicko-2 update and writes it in the same transaction.  So
the ratings are real, and the build times those calls: the ``update_game`` rows give the cost of
ending a game, rated (with the rating update) and unrated.

Then each command is called as the Discord layer calls it, through ``GameService.standings``:
``stats(server, player, "english")`` for a random player of the server and for the most active
one, ``leaderboard(server, "english", user)`` asked by a random player, ``history(server)``, and
``history(server, user)`` for a random player, for the most active one and for a member who never
played there.  Each is called once untimed (recording every SQL statement the store runs for it),
then ``--repeat`` times timed (default 100), the commands taking turns so that a slow spell of the
shared machine hits them alike; p50/p90/p99/max are in ms per call.  Last, with the bot's
connection closed, every recorded statement is run again through plain ``sqlite3`` on the file,
under ``EXPLAIN QUERY PLAN`` (the index it uses) and timed with each parameter set the commands
used (the time SQLite itself needs, without aiosqlite's thread hand-offs).

Problems are listed at the end: a command with p50 of 20 ms or more, a statement that scans a whole
table, a statement that takes 1 ms or more in plain sqlite3.  ``--check`` exits 1 if there are any.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/standings.py` without installing
    sys.path.insert(0, str(_ROOT))

from bot.enums import GameStatus, Side  # noqa: E402
from bot.results import Player  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.service.ladder import rated_game  # noqa: E402
from bot.store import GameChanges, NewGame  # noqa: E402
from bot.store.sqlite import SqliteStore as Store  # noqa: E402
from rules.game import Game  # noqa: E402
from rules.variants import Color, find_variant  # noqa: E402

TARGET_P50_MS = 20.0
SLOW_STATEMENT_US = 1000.0
"""A statement slower than this in plain sqlite3 reads far more rows than it returns."""
BOT_ID = 1
GUILD = 700_000_000_000_000_001
OTHER_GUILD = 700_000_000_000_000_002
CHANNELS = 20
FIRST_PLAYER = 300_000_000_000_000_000
NOBODY = 300_000_000_000_000_001
"""A member of the server who never played there (``/history`` of someone else)."""
START_TIME = 1_767_225_600.0  # 2026-01-01
GAP = 15 * 60  # seconds between game ends, on average
ACTIVITY_EXPONENT = 0.7
DRAWS = 0.15


# -- building the database -----------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One game to store."""

    ends: float
    guild: int
    variant: str
    white: int
    black: int
    score: float | None
    """White's score; None leaves the game running."""
    computer: bool = False


@dataclass
class Build:
    players: list[int]
    """The main server's players, most active first."""
    games: dict[str, int] = field(default_factory=dict)
    start: list[float] = field(default_factory=list)
    rated_end: list[float] = field(default_factory=list)
    unrated_end: list[float] = field(default_factory=list)
    seconds: float = 0.0
    most_active: int = 0
    """English games of the most active player in the main server."""


def player_id(i: int) -> int:
    return FIRST_PLAYER + 7919 * i


def name_of(user: int) -> str:
    return "Computer" if user == BOT_ID else f"Player {(user - FIRST_PLAYER) // 7919}"


def specs(args: argparse.Namespace, rng: random.Random) -> tuple[list[int], list[Spec]]:
    """The games to store, in the order they end, and the main server's players."""
    main = [player_id(i) for i in range(args.players)]
    weights = [1 / (i + 1) ** ACTIVITY_EXPONENT for i in range(args.players)]
    others = [player_id(args.players + i) for i in range(100)] + main[:: max(1, args.players // 20)]
    strength = {p: rng.gauss(0, 1) for p in [*main, *others]}

    def pair(pool: list[int], w: list[float] | None) -> tuple[int, int]:
        while True:
            white, black = rng.choices(pool, w, k=2)
            if white != black:
                return white, black

    def score(white: int, black: int) -> float:
        if rng.random() < DRAWS:
            return 0.5
        expected = 1 / (1 + 10 ** ((strength[black] - strength[white]) / 2))
        return 1.0 if rng.random() < expected else 0.0

    span = (args.games + 1) * GAP
    games: list[Spec] = []

    def add(count: int, guild: int, variant: str, pool: list[int], w: list[float] | None) -> None:
        for _ in range(count):
            white, black = pair(pool, w)
            games.append(
                Spec(
                    START_TIME + rng.random() * span,
                    guild,
                    variant,
                    white,
                    black,
                    score(white, black),
                )
            )

    add(args.games, GUILD, "english", main, weights)
    add(args.games // 10, OTHER_GUILD, "english", others, None)
    add(args.games // 10, GUILD, "international", main, weights)
    for _ in range(args.games // 20):
        human = rng.choices(main, weights)[0]
        white, black = (human, BOT_ID) if rng.random() < 0.5 else (BOT_ID, human)
        games.append(
            Spec(
                START_TIME + rng.random() * span,
                GUILD,
                "english",
                white,
                black,
                rng.choice((0.0, 0.5, 1.0)),
                computer=True,
            )
        )
    games.sort(key=lambda s: s.ends)
    for _ in range(CHANNELS):
        white, black = pair(main, weights)
        games.append(Spec(START_TIME + span, GUILD, "english", white, black, None))
    return main, games


async def build(store: Store, args: argparse.Namespace, rng: random.Random) -> Build:
    main, games = specs(args, rng)
    result = Build(main)
    result.most_active = sum(
        1
        for s in games
        if s.guild == GUILD
        and s.variant == "english"
        and main[0] in (s.white, s.black)
        and s.score is not None
        and not s.computer
    )
    fens = {key: Game(find_variant(key)).start.fen() for key in ("english", "international")}
    started = time.perf_counter()
    for n, spec in enumerate(games):
        fen = fens[spec.variant]
        record = NewGame(  # the shape of the service's new games (bot.service.records)
            guild_id=spec.guild,
            channel_id=900_000_000_000_000_000 + n % CHANNELS + (spec.guild % 10) * 100,
            white_id=spec.white,
            white_name=name_of(spec.white),
            black_id=spec.black,
            black_name=name_of(spec.black),
            computer_id=BOT_ID if spec.computer else None,
            computer_level=3 if spec.computer else None,
            variant=spec.variant,
            start_fen=fen,
            opening="",
            ply=0,
            fen=fen,
            move_time=86_400,
            deadline=spec.ends - 1200 + 86_400,
            remind_at=spec.ends - 1200 + 43_200,
            created_at=spec.ends - 1200,
            rated=not spec.computer,
            match_id=None,
        )
        t0 = time.perf_counter()
        game_id = await store.start_game(record)
        t1 = time.perf_counter()
        result.start.append(t1 - t0)
        if spec.score is None:
            result.games["running (one per channel)"] = (
                result.games.get("running (one per channel)", 0) + 1
            )
            continue
        winner = None if spec.score == 0.5 else Color.WHITE if spec.score == 1 else Color.BLACK
        changes: GameChanges = {
            "status": GameStatus.FINISHED,
            "result": find_variant(spec.variant).result(winner),
            "termination": "agreement" if winner is None else "resignation",
            "winner": None if winner is None else Side.of(winner),
            "deadline": None,
            "remind_at": None,
            "updated_at": spec.ends,
        }
        row = await store.game(game_id)
        assert row is not None
        rated = rated_game(row, changes, spec.ends)  # None for games against the computer
        t1 = time.perf_counter()
        await store.update_game(game_id, 0, changes, rated=rated)
        elapsed = time.perf_counter() - t1
        (result.unrated_end if rated is None else result.rated_end).append(elapsed)
        kind = (
            "unrated against the computer in server 1"
            if spec.computer
            else f"rated {spec.variant.capitalize()} in server {spec.guild % 10}"
        )
        result.games[kind] = result.games.get(kind, 0) + 1
    result.seconds = time.perf_counter() - started
    return result


# -- the commands ----------------------------------------------------------------------------------


@dataclass
class Case:
    """One timed command."""

    label: str
    call: Callable[[], Awaitable[Any]]
    latencies: list[float] = field(default_factory=list)
    queries: int = 0
    """SQL statements the store runs per call (counted on the untimed call)."""

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile (nearest rank) of the latencies, in ms."""
        ordered = sorted(self.latencies)
        rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
        return ordered[rank - 1] * 1000


@dataclass
class Statement:
    """One distinct SQL text the store ran, with every parameter set it ran with."""

    method: str
    sql: str
    cases: list[str] = field(default_factory=list)
    params: list[tuple[Any, ...]] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    micros: list[float] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    tables: frozenset[str] = frozenset()
    """The database's tables, to tell a table's scan from a subquery's."""

    @property
    def full_scan(self) -> bool:
        """A plan step that reads a whole table (``SCAN t`` with no index); ``SCAN w`` or
        ``SCAN (subquery-1)`` walks a subquery's few rows, not a table."""
        return any(
            s.startswith("SCAN ") and " USING " not in s and s.split()[1] in self.tables
            for s in self.plan
        )

    @property
    def slow(self) -> bool:
        return max(self.micros) >= SLOW_STATEMENT_US


class Recorder:
    """Notes each statement the store reads with, and the store method that ran it; handed to
    the store's public read observer (:meth:`SqlStore.observing_reads`)."""

    def __init__(self) -> None:
        self.statements: dict[str, Statement] = {}
        self.case: str | None = None
        self.count = 0

    def record(self, sql: str, params: Sequence[Any]) -> None:
        frame = sys._getframe(1)
        while frame.f_code.co_name.startswith("_") and frame.f_back is not None:
            frame = frame.f_back  # past the store's private read helpers
        method = frame.f_code.co_name  # the Store method that asked
        statement = self.statements.setdefault(sql, Statement(method, sql))
        if self.case is not None and self.case not in statement.cases:
            statement.cases.append(self.case)
        statement.params.append(tuple(params))
        self.count += 1


def cases(svc: GameService, players: list[int], rng: random.Random) -> list[Case]:
    standings = svc.standings
    busiest = Player(players[0], name_of(players[0]))

    def anyone() -> Player:
        user = rng.choice(players)
        return Player(user, name_of(user))

    return [
        Case(
            "stats, random player",
            lambda: standings.stats(GUILD, anyone(), "english"),
        ),
        Case(
            "stats, most active player",
            lambda: standings.stats(GUILD, busiest, "english"),
        ),
        Case(
            "leaderboard, asked by a random player",
            lambda: standings.leaderboard(GUILD, "english", anyone().id),
        ),
        Case("history, server", lambda: standings.history(GUILD)),
        Case(
            "history, random player",
            lambda: standings.history(GUILD, anyone().id),
        ),
        Case(
            "history, most active player",
            lambda: standings.history(GUILD, busiest.id),
        ),
        Case(
            "history, a user with no games here",
            lambda: standings.history(GUILD, NOBODY),
        ),
    ]


async def measure(
    args: argparse.Namespace, path: Path
) -> tuple[Build, list[Case], list[Statement]]:
    rng = random.Random(args.seed)
    svc = await GameService.open(path, bot_user_id=BOT_ID, clock=time.time)
    try:
        built = await build(svc.store, args, rng)
        timed = cases(svc, built.players, rng)
        recorder = Recorder()
        assert isinstance(svc.store, Store)  # the SQLite store of ``path``
        with svc.store.observing_reads(recorder.record):  # one untimed call each: what they read
            for case in timed:
                recorder.case, before = case.label, recorder.count
                await case.call()
                case.queries = recorder.count - before
        gc.collect()
        for _ in range(args.repeat):
            for case in timed:
                start = time.perf_counter()
                await case.call()
                case.latencies.append(time.perf_counter() - start)
    finally:
        await svc.close()
    statements = list(recorder.statements.values())
    explain(path, statements)
    return built, timed, statements


TABLES = "SELECT name FROM sqlite_master WHERE type = 'table'"


def explain(path: Path, statements: list[Statement]) -> None:
    """Each statement's query plan, and its time in plain sqlite3 (median of repeated runs, for
    each parameter set it was run with)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = frozenset(name for (name,) in db.execute(TABLES))
        for s in statements:
            s.tables = tables
            s.plan = [str(row[3]) for row in db.execute("EXPLAIN QUERY PLAN " + s.sql, s.params[0])]
            for params in dict.fromkeys(s.params):
                runs = []
                for _ in range(25):
                    start = time.perf_counter()
                    rows = db.execute(s.sql, params).fetchall()
                    runs.append(time.perf_counter() - start)
                s.micros.append(statistics.median(runs) * 1e6)
                s.rows.append(len(rows))
    finally:
        db.close()


# -- output ----------------------------------------------------------------------------------------


def span(values: list[float], fmt: str) -> str:
    low, high = min(values), max(values)
    return (
        format(low, fmt) if format(low, fmt) == format(high, fmt) else f"{low:{fmt}}–{high:{fmt}}"
    )


def ms(values: list[float], p: float) -> str:
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
    return f"{ordered[rank - 1] * 1000:.2f}"


def tables(built: Build, timed: list[Case], statements: list[Statement]) -> list[list[list[str]]]:
    total = sum(built.games.values())
    build_rows = [
        ["step", "calls", "p50 ms", "p99 ms", "total s"],
        *(
            [label, f"{len(values):,}", ms(values, 50), ms(values, 99), f"{sum(values):.1f}"]
            for label, values in (
                ("`start_game` (a running game)", built.start),
                ("`update_game` ending a rated game (with the Glicko-2 update)", built.rated_end),
                ("`update_game` ending an unrated game (against the computer)", built.unrated_end),
            )
        ),
        [
            "whole build, one game after another",
            f"{total:,} games",
            "",
            "",
            f"{built.seconds:.1f} ({total / built.seconds:,.0f} games/s)",
        ],
    ]
    read_rows = [
        ["command", "calls", "SQL statements", "p50 ms", "p90 ms", "p99 ms", "max ms"],
        *(
            [
                c.label,
                f"{len(c.latencies):,}",
                str(c.queries),
                *(f"{c.percentile(p):.2f}" for p in (50, 90, 99, 100)),
            ]
            for c in timed
        ),
    ]
    plan_rows = [
        ["store method", "query plan", "µs in plain sqlite3", "rows", "run by"],
        *(
            [
                f"`{s.method}`"
                + (" **full scan**" if s.full_scan else "")
                + (" **slow**" if s.slow else ""),
                "; ".join(f"`{step}`" for step in s.plan),
                span(s.micros, ".0f"),
                span([float(r) for r in s.rows], ".0f"),
                "; ".join(s.cases),
            ]
            for s in statements
        ),
    ]
    return [build_rows, read_rows, plan_rows]


def notes(built: Build, args: argparse.Namespace) -> list[str]:
    counts = sorted(built.games.items(), key=lambda item: -item[1])
    kinds = "; ".join(f"{n:,} {kind}" for kind, n in counts)
    return [
        f"Games stored: {kinds}; {args.players} players in server 1, the most active in "
        f"{built.most_active:,} of its rated English games.",
        f"Reads: {args.repeat} timed calls per command after one untimed call, taking turns; "
        "µs in plain sqlite3 is the median of 25 runs of the statement, the range over the "
        "parameter sets the commands used (e.g. each player a leaderboard names).",
        f"Python {platform.python_version()}, aiosqlite {version('aiosqlite')}, "
        f"SQLite {sqlite3.sqlite_version}, {platform.machine()}.",
    ]


def format_markdown(
    built: Build, timed: list[Case], statements: list[Statement], args: argparse.Namespace
) -> str:
    lines: list[str] = []
    for table in tables(built, timed, statements):
        head, *body = table
        lines += ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        if head[0] == "store method":
            lines[-1] = "|---|---|---:|---:|---|"
        lines += ["| " + " | ".join(row) + " |" for row in body]
        lines.append("")
    lines += [f"- {note}" for note in notes(built, args)]
    return "\n".join(lines)


def format_plain(
    built: Build, timed: list[Case], statements: list[Statement], args: argparse.Namespace
) -> str:
    lines: list[str] = []
    for table in tables(built, timed, statements):
        if table[0][0] == "store method":  # too wide for columns: one block per statement
            for method, plan, micros, rows, run_by in table[1:]:
                lines.append(f"{method.strip('`')}  ({micros} µs, {rows} rows; {run_by})")
                lines += [f"    {step.strip('`')}" for step in plan.split("; ")]
            lines.append("")
            continue
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines += [
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
            for row in table
        ]
        lines.append("")
    return "\n".join([*lines, *notes(built, args)])


def problems(timed: list[Case], statements: list[Statement]) -> list[str]:
    found = [
        f"slow: {c.label}: p50 {c.percentile(50):.1f} ms (target < {TARGET_P50_MS:g} ms)"
        for c in timed
        if c.percentile(50) >= TARGET_P50_MS
    ]
    found += [
        f"full table scan in {s.method}: {' / '.join(s.plan)}\n    {s.sql}"
        for s in statements
        if s.full_scan
    ]
    found += [
        f"slow statement in {s.method}: up to {max(s.micros):,.0f} µs in plain sqlite3 for at "
        f"most {max(s.rows)} rows: {' / '.join(s.plan)}\n    {s.sql}"
        for s in statements
        if s.slow and not s.full_scan
    ]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=20_000, help="rated English games in the server (20000)"
    )
    parser.add_argument("--players", type=int, default=200, help="players in the server (200)")
    parser.add_argument(
        "--repeat", type=int, default=100, help="timed calls per command (default 100)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", type=Path, help="build the database at this (new) path and keep it afterwards"
    )
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a command's p50 is 20 ms or more, or a statement scans a whole table or "
        "takes 1 ms or more in plain sqlite3",
    )
    args = parser.parse_args(argv)
    if args.games < 20 or args.players < 2 or args.repeat < 1:
        parser.error("--games must be at least 20, --players at least 2, --repeat positive")

    if args.keep is not None:
        if args.keep.exists():
            parser.error(f"{args.keep} exists; --keep wants a new path")
        built, timed, statements = asyncio.run(measure(args, args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="standings-bench-") as tmp:
            built, timed, statements = asyncio.run(measure(args, Path(tmp) / "standings.db"))
    output = format_markdown if args.markdown else format_plain
    print(output(built, timed, statements, args))
    found = problems(timed, statements)
    if found:
        print("\nProblems:\n" + "\n".join(f"- {p}" for p in found))
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
