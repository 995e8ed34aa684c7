"""Round-trip benchmark of the whole bot: a ``/move`` sent as Discord would send it, until the
board message (embed + PNG) reaches the API.

Why it exists: what a player feels is the time from pressing Enter to seeing the new board.  In
the bot that is discord.py's gateway and HTTP code, the service's guarded SQLite write, the board
rendered in the worker thread pool, and the multipart upload.  This runs the real bot process
(``python -m bot``'s ``main`` through ``tests/support/discord_launcher.py``) against the fake
Discord API of ``tests/support/fake_discord/`` on 127.0.0.1, so everything but Discord's own
network is measured.

How to run::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e ".[test]"
    /tmp/bvenv/bin/python bench/discord_roundtrip.py                  # 16 games, 1 and 16 at once
    /tmp/bvenv/bin/python bench/discord_roundtrip.py --games 16 --moves 400 --markdown

Method: ``--games`` English games between the same two users, one per channel of a fake guild,
are started through ``/challenge`` and the Accept button.  Then for each concurrency ``C`` in
``--concurrency``, ``C`` submitters each own ``games/C`` channels and send, one after another,
a ``/move`` for the player to move with a random legal move (chosen from the submitter's own
``rules.Game`` copy), timing from the moment the INTERACTION_CREATE frame is sent to the moment
the bot's interaction callback (the board message, with its PNG) has been received in full.
A finished game is replaced by a new one (not timed).  The first ``--warmup`` moves are not
counted.  The bot logs at WARNING so logging does not weigh on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fake_discord import FakeDiscord, Guild  # noqa: E402

from rules import Game, find_variant  # noqa: E402

ALICE, BOB = "1100000000000000101", "1100000000000000102"


class Bench:
    def __init__(self, fake: FakeDiscord, channels: list[str]) -> None:
        self.fake = fake
        self.channels = channels
        self.games: dict[str, Game] = {}
        self.white: dict[str, str] = {}

    async def send(self, payload: dict) -> object:
        path = f"/interactions/{payload['id']}/{payload['token']}/callback"
        answered = self.fake.expect("POST", path)
        await self.fake.send_interaction(payload)
        return await asyncio.wait_for(answered, 30)

    async def start_game(self, channel: str) -> None:
        options = [
            {"name": "opponent", "type": 6, "value": BOB},
            {"name": "variant", "type": 3, "value": "english"},
            {"name": "color", "type": 3, "value": "black"},
        ]
        resolved = {
            "users": {BOB: {"id": BOB, "username": "bob", "discriminator": "0", "avatar": None}},
            "members": {},
        }
        payload = self.fake.command_interaction(
            "challenge", options, user_id=ALICE, channel_id=channel, resolved=resolved
        )
        await self.send(payload)
        message = self.fake.original_message(payload["token"])
        assert message is not None
        custom = message["components"][0]["components"][0]["custom_id"]
        press = self.fake.button_interaction(custom, message, user_id=BOB)
        await self.send(press)
        self.games[channel] = Game(find_variant("english"))

    async def move(self, channel: str, rng: random.Random) -> float:
        game = self.games[channel]
        move = rng.choice(game.legal_moves()).pdn()
        user = ALICE if game.turn.label == "black" else BOB
        payload = self.fake.command_interaction(
            "move",
            [{"name": "move", "type": 3, "value": move}],
            user_id=user,
            channel_id=channel,
        )
        started = time.perf_counter()
        request = await self.send(payload)
        elapsed = time.perf_counter() - started
        body = request.json  # type: ignore[attr-defined]
        if body["type"] != 4 or body["data"].get("flags"):
            raise SystemExit(f"move {move} in {channel} was refused: {body}")
        if not any(name.endswith(".png") for name in request.files):  # type: ignore[attr-defined]
            raise SystemExit("no board image in the answer")
        game.play(move)
        if game.is_over:
            await self.start_game(channel)
        return elapsed


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    channels = [str(1100000000000001000 + i) for i in range(args.games)]
    guild = Guild(channels={c: f"table-{i}" for i, c in enumerate(channels)})
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(guild=guild) as fake:
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                DISCORD_TOKEN="bench-token",
                DATABASE_PATH=str(Path(tmp) / "bench.db"),
                DEV_GUILD_ID=guild.id,
                LOG_LEVEL="WARNING",
            )
            proc = subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "tests" / "support" / "discord_launcher.py"),
                    str(fake.port),
                    "bot.__main__:main",
                    "--main",
                ],
                cwd=tmp,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            try:
                await fake.wait_until(lambda: fake.sessions_identified > 0, timeout=60)
                await fake.wait_until(lambda: fake.commands.get(guild.id), timeout=60)
                bench = Bench(fake, channels)
                for channel in channels:
                    await bench.start_game(channel)
                rng = random.Random(args.seed)
                for _ in range(args.warmup):
                    await bench.move(rng.choice(channels), rng)
                rows = []
                for concurrency in args.concurrency:
                    rows.append(await measure(bench, concurrency, args.moves, rng))
                # A bot that broke Discord's contract did not do the work being timed.  (An
                # older fake, without the contract checks, has nothing to report.)
                violations = getattr(fake, "violations", [])
                if violations:
                    raise SystemExit(f"Discord would refuse requests: {violations[:3]}")
            finally:
                proc.terminate()
                proc.wait(30)
    report(rows, args)


async def measure(
    bench: Bench, concurrency: int, moves: int, rng: random.Random
) -> tuple[int, int, float, list[float]]:
    groups = [bench.channels[i::concurrency] for i in range(concurrency)]
    per_submitter = max(1, moves // concurrency)
    latencies: list[float] = []

    async def submitter(channels: list[str]) -> None:
        local = random.Random(rng.random())
        for _ in range(per_submitter):
            latencies.append(await bench.move(local.choice(channels), local))

    started = time.perf_counter()
    await asyncio.gather(*(submitter(g) for g in groups))
    wall = time.perf_counter() - started
    return concurrency, len(latencies), wall, latencies


def report(rows: list[tuple[int, int, float, list[float]]], args: argparse.Namespace) -> None:
    print(
        f"# bot round trip, {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d')}"
    )
    if args.markdown:
        print("| in flight | moves | moves/s | p50 ms | p90 ms | p99 ms | max ms |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
    for concurrency, count, wall, lat in rows:
        ms = [x * 1000 for x in lat]
        cells = (
            concurrency,
            count,
            f"{count / wall:.0f}",
            f"{statistics.median(ms):.1f}",
            f"{percentile(ms, 90):.1f}",
            f"{percentile(ms, 99):.1f}",
            f"{max(ms):.1f}",
        )
        if args.markdown:
            print("| " + " | ".join(str(c) for c in cells) + " |")
        else:
            print(
                "in flight {} moves {} -> {} moves/s, p50 {} ms, p90 {} ms, p99 {} ms, "
                "max {} ms".format(*cells)
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--moves", type=int, default=300, help="timed moves per concurrency")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 16]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
