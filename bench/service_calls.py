"""How many times the Discord layer calls the game service for one ``/move``.

Why it exists: every call from the Discord layer into the service is a hop a reader follows and
a place where the two layers can disagree; a ``/move`` should cost the action and its
bookkeeping, not a round of look-ups.  This counts them in the real bot process, driven the way
``bench/discord_roundtrip.py`` drives it (``tests/support/discord_launcher.py`` against the fake
Discord of ``tests/support/fake_discord/``), so nothing but Discord's own network is left out.

How: the bot process is started through :func:`counted_main`, which wraps the service as it is
built: each public method of :class:`bot.service.GameService` (and each public method of any
object it hands out as an attribute, counted as ``room.method``) writes its name to a log file
when called from outside the service.  A call made while another counted call of the same task
is running is the service calling itself, and the scheduler's rounds (its own task, once a
second here) are not a move's: neither is counted.  For each ``/move`` the lines the move
added (until the log is quiet for ``--quiet`` seconds, so the bookkeeping after the answer is
counted too) are read back.

How to run::

    python bench/service_calls.py                # 2 warm-up moves, then 8 counted
    python bench/service_calls.py --moves 20 --computer
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import functools
import inspect
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

LOG_VARIABLE = "SERVICE_CALLS_LOG"
ALICE, BOB = "1100000000000000101", "1100000000000000102"
CHANNEL = "1100000000000001000"
SCHEDULER_TASK = "draughts-scheduler"
"""The scheduler's task (:mod:`bot.scheduler`): its rounds are not calls of a move."""


# -- in the bot process -------------------------------------------------------------------------


class _Counter:
    """Writes one line per call from outside the service to the log file."""

    def __init__(self, path: str) -> None:
        self.out = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (lives as long as the process)
        self.depth: dict[object, int] = collections.defaultdict(int)

    def _owner(self) -> object:
        try:
            return asyncio.current_task() or "sync"
        except RuntimeError:
            return "sync"

    def _counts(self, owner: object) -> bool:
        """A call from outside the service, and not the scheduler's round (not a move's)."""
        scheduler = isinstance(owner, asyncio.Task) and owner.get_name() == SCHEDULER_TASK
        return self.depth[owner] == 0 and not scheduler

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        counter = self
        if inspect.iscoroutinefunction(method):

            @functools.wraps(method)
            async def counted_async(*args: Any, **kwargs: Any) -> Any:
                owner = counter._owner()
                if counter._counts(owner):
                    counter.out.write(name + "\n")
                counter.depth[owner] += 1
                try:
                    return await method(*args, **kwargs)
                finally:
                    counter.depth[owner] -= 1
                    if counter.depth[owner] == 0:
                        del counter.depth[owner]

            return counted_async

        @functools.wraps(method)
        def counted(*args: Any, **kwargs: Any) -> Any:
            owner = counter._owner()
            if counter._counts(owner):
                counter.out.write(name + "\n")
            counter.depth[owner] += 1
            try:
                return method(*args, **kwargs)
            finally:
                counter.depth[owner] -= 1
                if counter.depth[owner] == 0:
                    del counter.depth[owner]

        return counted


class _CountedRoom:
    """An object the service hands out, its public methods counted as ``room.method``."""

    def __init__(self, counter: _Counter, name: str, room: object) -> None:
        self._counter, self._name, self._room = counter, name, room

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(self._room, attribute)
        if callable(value) and not attribute.startswith("_"):
            return self._counter.wrap(f"{self._name}.{attribute}", value)
        return value


def _instrument(service: Any, counter: _Counter) -> None:
    cls = type(service)
    for name in dir(service):
        if name.startswith("_") or isinstance(inspect.getattr_static(cls, name, None), property):
            continue
        value = getattr(service, name)
        if inspect.ismethod(value) or inspect.isfunction(value) or inspect.isbuiltin(value):
            setattr(service, name, counter.wrap(name, value))
        elif (
            type(value).__module__.startswith("bot.")
            and not dataclasses.is_dataclass(value)
            and not isinstance(value, type)
        ):
            setattr(service, name, _CountedRoom(counter, name, value))


def counted_main() -> int:
    """``bot.__main__.main`` with the service's public methods counted (the launcher's
    ``MODULE:MAIN --main`` entry point in the bot process)."""
    from bot.__main__ import main
    from bot.service import GameService

    counter = _Counter(os.environ[LOG_VARIABLE])
    built = GameService.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        built(self, *args, **kwargs)
        _instrument(self, counter)

    GameService.__init__ = counting_init  # type: ignore[method-assign]
    return main()


# -- in the measuring process -------------------------------------------------------------------


async def _send(fake: Any, payload: dict[str, Any]) -> Any:
    path = f"/interactions/{payload['id']}/{payload['token']}/callback"
    answered = fake.expect("POST", path)
    await fake.send_interaction(payload)
    return await asyncio.wait_for(answered, 30)


async def _quiet(log: Path, seconds: float) -> list[str]:
    """The log's lines once nothing was added for ``seconds``."""
    lines = log.read_text().splitlines()
    while True:
        await asyncio.sleep(seconds)
        now = log.read_text().splitlines()
        if now == lines:
            return lines
        lines = now


async def _start_game(fake: Any, opponent: dict[str, Any], level: int | None) -> None:
    options = [
        {"name": "opponent", "type": 6, "value": opponent["id"]},
        {"name": "variant", "type": 3, "value": "english"},
        {"name": "color", "type": 3, "value": "black"},
    ]
    if level is not None:
        options.append({"name": "level", "type": 4, "value": level})
    resolved = {"users": {opponent["id"]: opponent}, "members": {}}
    payload = fake.command_interaction(
        "challenge", options, user_id=ALICE, channel_id=CHANNEL, resolved=resolved
    )
    await _send(fake, payload)
    if level is not None:
        return
    message = fake.original_message(payload["token"])
    custom = message["components"][0]["components"][0]["custom_id"]
    await _send(fake, fake.button_interaction(custom, message, user_id=BOB))


async def _count(args: argparse.Namespace) -> None:
    from support.fake_discord import FakeDiscord, Guild

    from rules import Game, find_variant

    guild = Guild(channels={CHANNEL: "table"})
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "calls.log"
        log.write_text("")
        async with FakeDiscord(guild=guild) as fake:
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                DISCORD_TOKEN="bench-token",
                DATABASE_PATH=str(Path(tmp) / "bench.db"),
                DEV_GUILD_ID=guild.id,
                LOG_LEVEL="WARNING",
                ENGINE_MOVE_TIME_SECONDS="0.05",
                SCHEDULER_INTERVAL_SECONDS="1",
                PYTHONPATH=os.pathsep.join([str(ROOT / "bench"), str(ROOT)]),
                **{LOG_VARIABLE: str(log)},
            )
            command = [
                sys.executable,
                str(ROOT / "tests" / "support" / "discord_launcher.py"),
                str(fake.port),
            ]
            proc = subprocess.Popen(
                [*command, "service_calls:counted_main", "--main"],
                cwd=tmp,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            try:
                await fake.wait_until(lambda: fake.sessions_identified > 0, timeout=60)
                await fake.wait_until(lambda: fake.commands.get(guild.id), timeout=60)
                await asyncio.sleep(2)  # the scheduler's first round hands out what was owed
                opponent = fake.bot_user if args.computer else _user(BOB, "bob")
                await _start_game(fake, opponent, 1 if args.computer else None)
                game = Game(find_variant("english"))
                rng = random.Random(args.seed)
                per_move: list[list[str]] = []
                for number in range(args.warmup + args.moves):
                    before = len(await _quiet(log, args.quiet))
                    if args.computer and game.turn.label != "black":
                        break  # the computer's reply was not seen in time
                    move = rng.choice(game.legal_moves()).pdn()
                    user = ALICE if game.turn.label == "black" else BOB
                    payload = fake.command_interaction(
                        "move",
                        [{"name": "move", "type": 3, "value": move}],
                        user_id=user,
                        channel_id=CHANNEL,
                    )
                    request = await _send(fake, payload)
                    if request.json["type"] != 4 or request.json["data"].get("flags"):
                        raise SystemExit(f"move {move} was refused: {request.json}")
                    game.play(move)
                    lines = (await _quiet(log, args.quiet))[before:]
                    if args.computer:
                        game = _replayed(Path(tmp) / "bench.db", game)
                    if game.is_over:
                        break
                    if number >= args.warmup:
                        per_move.append(lines)
            finally:
                proc.terminate()
                proc.wait(30)
    _report(per_move, args)


def _user(user_id: str, name: str) -> dict[str, Any]:
    return {"id": user_id, "username": name, "discriminator": "0", "avatar": None}


def _replayed(database: Path, game: Any) -> Any:
    """``game`` with the moves the database holds (the computer's reply) played on a copy."""
    from rules import Game

    with sqlite3.connect(database) as db:
        stored = [pdn for (pdn,) in db.execute("SELECT pdn FROM moves ORDER BY game_id, ply")]
    replayed = Game(game.variant)
    for pdn in stored:
        replayed.play(pdn)
    return replayed


def _report(per_move: list[list[str]], args: argparse.Namespace) -> None:
    kind = "against the computer" if args.computer else "between two players"
    print(f"# service calls per /move {kind}, {time.strftime('%Y-%m-%d')}")
    if not per_move:
        print("no move was counted")
        return
    counts = [len(lines) for lines in per_move]
    print(f"moves counted: {len(counts)}; calls per move: min {min(counts)}, max {max(counts)}")
    print(f"mean {sum(counts) / len(counts):.1f}")
    totals = collections.Counter(name for lines in per_move for name in lines)
    for name, count in totals.most_common():
        print(f"  {name}: {count / len(per_move):.2f} per move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quiet", type=float, default=0.5, help="seconds without a new call")
    parser.add_argument("--computer", action="store_true", help="play the computer (level 1)")
    asyncio.run(_count(parser.parse_args()))


if __name__ == "__main__":
    main()
