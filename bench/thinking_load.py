"""What players wait for while the computer thinks: ``/move``'s answer and the questions anyone
may ask about the games meanwhile (``/board``, ``/moves``, ``/games``).

Why it exists: until issue 13 the computer searched while holding its game's lock, inside the
player's ``/move``, so the move's answer waited for the search, and so did ``/board`` and
``/moves`` on that game and ``/games`` (which takes every running game's lock): 2.4-4.1 s at
the default 2 s think time, beyond Discord's 3 s window.  Now the computer thinks on a copy of
the game off the lock and the move is answered at once.  This measures both, against the real
service and the real engine in worker processes, for any checkout of the bot (``--root``), so
the old and the new code are measured in the same run on the same machine.

How to run (the project's dependencies are enough)::

    git worktree add /tmp/base aee848e
    python bench/thinking_load.py --root /tmp/base --markdown     # before
    python bench/thinking_load.py --markdown                      # after (this checkout)

Method: ``--games`` games against the computer at level 6 (a search uses its whole
``--movetime`` unless the move is forced), one per channel, the human to move.  Each round, the
human's move in every game is sent at once (as tasks); while those moves and the computer's
replies are in progress, a questioner asks in turn ``game_in`` (what ``/board`` reads),
``move_list`` (``/moves``) and ``games`` (``/games``), one after another, timing each.  A round
ends when every game has the computer's reply; ``--rounds`` rounds are run.  "move answer" is
the time until ``service.move`` returns (what the player's ``/move`` waits for before its
answer can be sent); "reply" is the time until the computer's move is stored.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout of the bot to run")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--movetime", type=float, default=2.0)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    asyncio.run(run(args))


def summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    if not ms:
        return "-"
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"{statistics.median(ms):.0f} / {p99:.0f} / {ms[-1]:.0f}"


async def run(args: argparse.Namespace) -> None:
    from bot.engine_player import EngineComputer
    from bot.results import Player
    from bot.service import GameService

    guild, alice, bot_id = 10, Player(1, "Alice"), 99
    computer = EngineComputer(args.movetime)
    timings: dict[str, list[float]] = {"move answer": [], "reply": [], "board": [], "moves": []}
    timings["games"] = []
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(
            Path(folder) / "bench.db", bot_user_id=bot_id, computer=computer
        )
        channels = [1000 + i for i in range(args.games)]
        for channel in channels:
            await service.challenge(
                guild_id=guild,
                channel_id=channel,
                challenger=alice,
                opponent=Player(bot_id, "Computer"),
                variant="english",
                color="black",  # Alice moves first
                level=6,
            )
        rng = random.Random(5)
        # Warm the workers up (process start-up is not what players wait for every move).
        await one_round(service, channels, alice, rng, {k: [] for k in timings})
        for _ in range(args.rounds):
            await one_round(service, channels, alice, rng, timings)
        await service.close()
    computer.close()
    title = f"{args.games} computer games, {args.movetime:g} s think time, root {args.root}"
    if args.markdown:
        print(f"\n{title}; ms, p50 / p99 / max\n")
        print("| what | samples | p50 / p99 / max (ms) |\n|---|---|---|")
        for name, samples in timings.items():
            print(f"| {name} | {len(samples)} | {summary(samples)} |")
    else:
        print(title)
        for name, samples in timings.items():
            print(f"  {name:12} n={len(samples):4}  p50/p99/max ms {summary(samples)}")
    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}"
    )


async def one_round(
    service: Any,
    channels: list[int],
    alice: Any,
    rng: random.Random,
    timings: dict[str, list[float]],
) -> None:
    plies = {c: (await service.game_in(c)).ply for c in channels}

    async def play(channel: int) -> None:
        choices = await service.legal_moves(channel, alice.id)
        start = time.perf_counter()
        await service.move(alice.id, rng.choice(choices).value, channel_id=channel)
        timings["move answer"].append(time.perf_counter() - start)
        while (await service.store.game((await service.game_in(channel)).id)).ply < plies[
            channel
        ] + 2:
            await asyncio.sleep(0.01)
        timings["reply"].append(time.perf_counter() - start)

    movers = [asyncio.create_task(play(c)) for c in channels]
    while not all(m.done() for m in movers):
        for name, ask in (
            ("board", lambda c: service.game_in(c)),
            ("moves", lambda c: service.move_list(c)),
        ):
            channel = rng.choice(channels)
            start = time.perf_counter()
            await ask(channel)
            timings[name].append(time.perf_counter() - start)
        start = time.perf_counter()
        await service.games(10)
        timings["games"].append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
    await asyncio.gather(*movers)


if __name__ == "__main__":
    main()
