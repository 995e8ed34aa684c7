"""Computer replies under load: many games against the computer asking for moves at once, with
the bot's engine player of this checkout and of an earlier commit, in the same run.

Why it exists: issue 31 measured 20 simultaneous level-6 games on two workers waiting a median of
11 s (worst 20 s) for the computer's reply at the default think time of 2 s: every search took
its whole time and the games queued for the two workers.  The engine player now serves the games
in turn with a think time shared fairly among the games waiting
(:class:`bot.service.computer.ReplyQueue`); the target is every reply within the level's time
plus 2 s.  This script measures the wait a player sees (from asking to the move) and the think
time each search was given.

How to run (the project's own install)::

    python bench/replies_load.py --before <commit> --markdown    # 1,5,10,20 games, 2 s, 2 workers

Method: the earlier commit's ``bot``, ``engine`` and ``rules`` are extracted and its core built
(``bench/arena.py``'s ``extract``).  Each load (``--games`` G) runs once per contender,
the two taking turns from one load to the next (which goes first alternates), each in a fresh
Python process (its ``PYTHONPATH`` the extracted commit, or this checkout) with a fresh
``EngineComputer(movetime, workers)`` whose workers first answer one request each (not timed).
Then G tasks each play their own English game (a few random opening moves from a fixed seed), in
a closed loop: ask the computer for a level-``--level`` move, play it, play a random reply for the
human at once, ask again, until ``--replies`` replies per game were timed; a game that ends
starts afresh.  The think time given is what the engine player handed each search (its
``think_times``; the earlier commit always gives the whole ``--movetime``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
_BENCH = Path(__file__).resolve().parent
if str(_BENCH) not in sys.path:
    sys.path.insert(0, str(_BENCH))

from tables import print_table  # noqa: E402


async def one_game(computer: Any, args: argparse.Namespace, seed: int, waits: list[float]) -> None:
    from engine_load import fresh_game  # imports the engine player of this process's path

    rng = random.Random(seed)
    game = fresh_game(args.variant, rng)
    for _ in range(args.replies):
        began = time.perf_counter()
        move = await computer.choose_move(game, args.level)
        waits.append(time.perf_counter() - began)
        game.play(move)
        if not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            game = fresh_game(args.variant, rng)


async def serve(args: argparse.Namespace) -> dict[str, Any]:
    """One load with the engine player found on ``sys.path`` (this process's)."""
    from bot.engine_player import EngineComputer
    from rules import Game, find_variant

    computer = EngineComputer(args.movetime, workers=args.workers)
    try:
        start = Game(find_variant(args.variant))
        await asyncio.gather(*(computer.choose_move(start, 1) for _ in range(args.workers)))
        given: Any = getattr(computer, "think_times", None)
        if given is not None:
            given.clear()
        waits: list[float] = []
        began = time.perf_counter()
        await asyncio.gather(
            *(one_game(computer, args, 1000 * args.games + g, waits) for g in range(args.games))
        )
        wall = time.perf_counter() - began
    finally:
        await asyncio.to_thread(computer.close)
    think = list(given) if given is not None else [args.movetime] * len(waits)
    return {"waits": waits, "think": think, "wall": wall}


def one_load(source: Path, games: int, args: argparse.Namespace) -> dict[str, Any]:
    """A load run in a fresh process whose imports come from ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source))
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--serve",
        "--games",
        str(games),
        "--movetime",
        str(args.movetime),
        "--workers",
        str(args.workers),
        "--replies",
        str(args.replies),
        "--level",
        str(args.level),
        "--variant",
        args.variant,
    ]
    done = subprocess.run(command, env=env, cwd=source, check=True, capture_output=True, text=True)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the earlier commit to compare with")
    parser.add_argument("--games", default="1,5,10,20", help="games asking at once")
    parser.add_argument("--replies", type=int, default=4, help="timed replies per game")
    parser.add_argument("--movetime", type=float, default=2.0, help="seconds (level-6 time)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--level", type=int, default=6, choices=range(1, 7))
    parser.add_argument("--variant", default="english")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        args.games = int(args.games)
        print(json.dumps(asyncio.run(serve(args))))
        return 0
    if args.before is None:
        parser.error("--before is needed")
    from arena import extract

    loads = [int(part) for part in args.games.split(",") if part]
    rows = []
    with tempfile.TemporaryDirectory(prefix="replies-load-") as tmp:
        before = extract(args.before, Path(tmp), ("bot", "engine", "rules"))
        contenders = [(f"before ({args.before})", before), ("after", _ROOT)]
        for number, games in enumerate(loads):
            order = contenders if number % 2 == 0 else contenders[::-1]
            measured = {}
            for name, source in order:
                load = os.getloadavg()[0]
                measured[name] = (one_load(source, games, args), load)
            for name, _ in contenders:
                found, load = measured[name]
                waits, think = found["waits"], found["think"]
                late = sum(w > args.movetime + 2 for w in waits)
                rows.append(
                    (
                        name,
                        str(games),
                        str(len(waits)),
                        f"{statistics.median(waits):.2f}",
                        f"{percentile(waits, 0.95):.2f}",
                        f"{max(waits):.2f}",
                        str(late),
                        f"{statistics.median(think):.2f}",
                        f"{min(think):.2f}",
                        f"{len(waits) / found['wall']:.2f}",
                        f"{load:.1f}",
                    )
                )
                print(" | ".join(rows[-1]), file=sys.stderr)
    header = (
        "engine player",
        "games",
        "replies",
        "wait median s",
        "wait p95 s",
        "wait worst s",
        f"over {args.movetime + 2:g} s",
        "think median s",
        "think least s",
        "replies/s",
        "load",
    )
    print_table(header, rows, args.markdown)
    print(
        f"\n{args.variant}, level {args.level}, {args.movetime:g} s, {args.workers} workers, "
        f"{args.replies} timed replies per game; load: the 1-minute load average as each load "
        f"began; {os.cpu_count()} CPUs; Python {platform.python_version()}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
