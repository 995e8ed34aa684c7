"""Engine-replies-under-load benchmark: computer games asking for moves at the same time.

Why it exists: every game against the computer waits for a search, and until issue 13 one
engine worker served the whole bot, so the second of two games asking at once waited for the
first game's whole think time.  The engine now runs in a pool sized to the machine (one worker
per CPU but one, ``bot.workers.default_workers``; more with the constructor's ``workers``), so
searches of different games run side by side.  This script measures replies per second and the
latency a player sees (from asking to the move) for 1 to N games asking at once, for the old
single-worker pool and the new pool, in the same run.

How to run (the project's own dependencies are enough)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/engine_load.py                    # defaults below
    /tmp/bvenv/bin/python bench/engine_load.py --markdown --games 1,2,4,8 --movetime 0.5 \\
        --replies 24 --workers 1,2                                # as in docs/BENCHMARKS.md

Method: each contender is a ``ComputerPlayer`` with a fresh process pool.  "before" replicates
the engine player as it was at ``5ef6be9`` (one ``ProcessPoolExecutor`` worker started by the
forkserver, running the same ``bot.engine_player.choose``); "after, W workers" is today's
``EngineComputer(movetime, workers=W)``; the pool's default on this machine is printed.  Every
pool first answers one request per worker (not timed, so process start-up is not counted).  For
each ``--games`` value G, G tasks each play their own game (``--variant``, a few random opening
moves from a fixed seed so that the positions differ), in a closed loop: ask the computer for a
move at ``--level``, play it, then play a random reply for the human side at once, and ask
again; a game that ends starts afresh.  Each load runs until ``--replies`` replies per game were
timed.  Replies/s is the number of replies divided by the wall time of the load; latency is the
time of one ``choose_move`` call.  At level 6 a search uses its whole budget (``--movetime``
seconds) unless the move is forced, so the ideal latency is the movetime and the ideal
throughput is workers / movetime.  The contenders take turns for each load so that a slow spell
of the shared machine hits them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Protocol

from bot.engine_player import EngineComputer, choose
from bot.workers import cpu_count, default_workers
from rules import Game, Move, find_variant


class Computer(Protocol):
    async def choose_move(self, game: Game, level: int) -> Move: ...

    def close(self) -> None: ...


class BeforeComputer:
    """The engine player as it was before issue 13: one forkserver worker, no healing."""

    def __init__(self, movetime: float) -> None:
        self.movetime = movetime
        self._pool = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("forkserver")
        )
        self._rng = random.Random()

    async def choose_move(self, game: Game, level: int) -> Move:
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(
            self._pool, choose, game.to_dict(), level, self.movetime, self._rng.getrandbits(32)
        )
        return next(m for m in game.legal_moves() if m.pdn() == text)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


@dataclass
class Contender:
    name: str
    workers: int
    computer: Computer


@dataclass
class Load:
    replies: int = 0
    wall: float = 0.0
    latencies: list[float] = field(default_factory=list)


def fresh_game(variant: str, rng: random.Random) -> Game:
    game = Game(find_variant(variant))
    for _ in range(rng.randrange(2, 7)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game if not game.is_over else Game(find_variant(variant))


async def one_game(
    computer: Computer, args: argparse.Namespace, seed: int, load: Load, target: int
) -> None:
    rng = random.Random(seed)
    game = fresh_game(args.variant, rng)
    for _ in range(target):
        began = time.perf_counter()
        move = await computer.choose_move(game, args.level)
        load.latencies.append(time.perf_counter() - began)
        load.replies += 1
        game.play(move)
        if not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            game = fresh_game(args.variant, rng)


async def run_load(contender: Contender, games: int, args: argparse.Namespace) -> Load:
    load = Load()
    began = time.perf_counter()
    await asyncio.gather(
        *(
            one_game(contender.computer, args, 1000 * games + g, load, args.replies)
            for g in range(games)
        )
    )
    load.wall = time.perf_counter() - began
    return load


async def warm(contender: Contender, args: argparse.Namespace) -> None:
    game = Game(find_variant(args.variant))
    await asyncio.gather(
        *(contender.computer.choose_move(game, 1) for _ in range(contender.workers))
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


async def run(args: argparse.Namespace) -> int:
    contenders = [Contender("before (1 worker, 5ef6be9)", 1, BeforeComputer(args.movetime))]
    for workers in ints(args.workers):
        contenders.append(
            Contender(
                f"after, {workers} worker{'s' if workers > 1 else ''}",
                workers,
                EngineComputer(args.movetime, workers=workers),
            )
        )
    try:
        for contender in contenders:
            await warm(contender, args)
        results: dict[tuple[str, int], Load] = {}
        for games in ints(args.games):
            for contender in contenders:
                results[contender.name, games] = await run_load(contender, games, args)
    finally:
        for contender in contenders:
            await asyncio.to_thread(contender.computer.close)

    print(
        f"# {platform.python_implementation()} {platform.python_version()}, "
        f"{cpu_count()} CPUs for this process, default engine workers {default_workers()}, "
        f"variant {args.variant}, level {args.level}, movetime {args.movetime} s, "
        f"{args.replies} replies per game"
    )
    header = ("contender", "games", "replies", "replies/s", "p50 s", "p99 s", "max s")
    rows = []
    for games in ints(args.games):
        for contender in contenders:
            load = results[contender.name, games]
            rows.append(
                (
                    contender.name,
                    str(games),
                    str(load.replies),
                    f"{load.replies / load.wall:.2f}",
                    f"{statistics.median(load.latencies):.2f}",
                    f"{percentile(load.latencies, 0.99):.2f}",
                    f"{max(load.latencies):.2f}",
                )
            )
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
        for row in (header, *rows):
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,2,4", help="games asking at once (default 1,2,4)")
    parser.add_argument("--replies", type=int, default=12, help="timed replies per game")
    parser.add_argument("--movetime", type=float, default=0.5, help="seconds (level-6 budget)")
    parser.add_argument("--level", type=int, default=6, choices=range(1, 7))
    parser.add_argument("--variant", default="english")
    parser.add_argument(
        "--workers",
        default=",".join(sorted({str(default_workers()), "2"})),
        help="pool sizes of the 'after' contenders (default: this machine's default and 2)",
    )
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
