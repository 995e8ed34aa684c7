"""Several bot processes on one PostgreSQL database: the load of ``bench/service.py`` split
among ``N`` processes, each the bot process of one shard of ``N``.

Why: a bot process is one event loop on one core; the way to more moves per second is more
processes on one database server (issue 16).  Each process here opens the service exactly as a
bot process for shard ``i`` of ``N`` does (``GameService`` with ``shards``, a pool of its own),
starts its share of the games in a server on its shard, warms up, and says ``ready``; when every
process is ready the parent says ``go`` to all at once, and each runs its share of the load
(closed loop: the submitters divided among the processes; open loop: the offered rate divided)
and answers with its latencies.  The parent pools them: moves/s is all moves over the longest
process's wall time, percentiles are over every latency together.

Run through ``bench/service.py --processes 1,2`` (PostgreSQL only: a SQLite file has one
process); this file is also the child's entry point (``--child``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the child runs as `python bench/service_fleet.py`
    sys.path.insert(0, str(HERE))

from service_load import Bench, Result, parse_variants  # noqa: E402


def share(total: float, processes: int, index: int) -> float:
    """Process ``index``'s part of ``total`` (whole numbers stay whole, the rest to the first)."""
    if float(total).is_integer():
        part, rest = divmod(int(total), processes)
        return float(part + (1 if index < rest else 0))
    return total / processes


def run_fleet(
    args: argparse.Namespace,
    dsn: str,
    mode: str,
    value: float,
    seed: int,
    processes: int,
) -> Result:
    """One timed run of the load (``mode``, ``value``) split among ``processes`` processes on
    the database ``dsn``; the :class:`Result` of them all."""
    children = []
    for i in range(processes):
        command = [
            sys.executable,
            str(HERE / "service_fleet.py"),
            "--child",
            dsn,
            "--shard",
            str(i),
            "--count",
            str(processes),
            "--games",
            str(int(share(args.games, processes, i))),
            "--variants",
            ",".join(args.variants),
            "--mode",
            mode,
            "--value",
            repr(share(value, processes, i)),
            "--moves",
            str(int(share(args.moves, processes, i))),
            "--warmup",
            str(int(share(args.warmup, processes, i))),
            "--seed",
            str(seed * 1000 + i),
        ]
        if args.seconds is not None:
            command += ["--seconds", repr(args.seconds)]
        children.append(
            subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        )
    try:
        for child in children:
            assert child.stdout is not None
            line = child.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"a bench process failed to start (said {line!r})")
        for child in children:  # as close together as the parent can
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        answers = []
        for child in children:
            assert child.stdout is not None
            answers.append(json.loads(child.stdout.readline()))
            if child.wait(60) != 0:
                raise RuntimeError(f"a bench process exited with {child.returncode}")
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    latencies = [x for answer in answers for x in answer["latencies"]]
    return Result(
        moves=len(latencies),
        seconds=max(answer["seconds"] for answer in answers),
        latencies=latencies,
        replaced=sum(answer["replaced"] for answer in answers),
        db_bytes=max(answer["db_bytes"] for answer in answers),
        wal_bytes=None,
        skipped=sum(answer["skipped"] for answer in answers),
    )


async def child(args: argparse.Namespace) -> None:
    """One bot process's share: set up, say ``ready``, wait for ``go``, run, answer in JSON."""
    from bot.store import Shards

    shards = Shards.of(args.count, (args.shard,))
    bench = Bench(args.child, args.games, args.variants, args.seed, shards, base=args.shard << 20)
    await bench.open()
    await bench.warm_up(args.warmup)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    if args.mode == "closed":
        result = await bench.closed_loop(int(args.value), args.moves, args.seconds)
    else:
        result = await bench.open_loop(args.value, args.moves, args.seconds)
    await bench.close()
    answer = {
        "latencies": result.latencies,
        "seconds": result.seconds,
        "replaced": result.replaced,
        "db_bytes": result.db_bytes,
        "skipped": result.skipped,
    }
    print(json.dumps(answer), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="one process of a bench/service.py fleet")
    parser.add_argument("--child", required=True, help="the database's DSN")
    parser.add_argument("--shard", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--variants", type=parse_variants, required=True)
    parser.add_argument("--mode", choices=("closed", "open"), required=True)
    parser.add_argument("--value", type=float, required=True)
    parser.add_argument("--moves", type=int, required=True)
    parser.add_argument("--warmup", type=int, required=True)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--seed", type=int, required=True)
    asyncio.run(child(parser.parse_args()))


if __name__ == "__main__":
    main()
