"""The chaos run: games on PostgreSQL while the bot and the database are killed at random.

Three pairs of players keep a game going each (``/move`` with a random legal move, now and then
``/resign`` and its confirmation), as fast as the bot answers them.  Meanwhile, every few
seconds, one of these happens at a random moment, whatever the bot is doing: the bot is
SIGKILLed and started again; the PostgreSQL server and all its backends are SIGKILLed and
started again (crash recovery); both; the server stops answering for a few seconds (SIGSTOP).
After :data:`CHAOS_SECONDS` everything is left running until nothing is owed any more, and what
players saw is counted from the fake Discord's messages:

- **doubles** (must be 0): a ply's board, or a game's end, shown in more than one message;
- **losses** (must be 0): a move whose board players saw that is not in the database, a game
  whose last board (or end) players never saw, an announcement still owed at the end.

A player who got no answer (the bot was down, or said to try again) does what a player does:
waits until the bot is back and looks at the game as it stands (the database) before the next
move.  The figures (games, moves, announcements, restarts, memory) go to the test's output and,
when ``CHAOS_REPORT`` names a file, into it (``.ci/run`` prints it).  ``CHAOS_SECONDS`` sets the
length (the default keeps CI short; a soak sets minutes), ``CHAOS_FAULTS`` which faults, and
``CHAOS_DATABASE=sqlite`` runs the same on a SQLite file with ``CHAOS_FAULTS=bot`` (a soak).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    OFFTOPIC,
    BotProcess,
    Users,
    custom_ids,
    db_dicts,
    embed_of,
    game_id_of,
    is_ephemeral,
    user,
)
from support.fake_discord import FakeDiscord
from support.pg_server import PostgresServer
from test_e2e_delivery import owed
from test_e2e_faults import stored_moves

from rules import Game, find_variant

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.own_databases(reason="kills its own PostgreSQL server, which no test may share"),
]

CHAOS_SECONDS = float(os.environ.get("CHAOS_SECONDS", "35"))
"""How long faults are injected; the players stop with them."""
ANSWER_WAIT = 4.0
"""How long a player waits for an answer before taking the bot for down (Discord waits 3 s)."""
SETTLE_TIMEOUT = 90.0
"""After the chaos, the time everything owed has to reach the channel."""
SEED = int(os.environ.get("CHAOS_SEED", "20261128"))
BACKEND = os.environ.get("CHAOS_DATABASE", "postgresql")
FAULTS = tuple(os.environ.get("CHAOS_FAULTS", "bot,database,database,both,stall").split(","))
"""The faults drawn from, a repeat making one likelier: ``bot`` (SIGKILL, restart), ``database``
(SIGKILL of the server and its backends, restart), ``both``, ``stall`` (SIGSTOP of the server for
1-5 s: nothing answers, connections stay open)."""
PAIRS = ((GENERAL, ALICE, BOB), (DRAUGHTS, BOB, CAROL), (OFFTOPIC, CAROL, ALICE))


@dataclass
class Figures:
    """What the run did and what players saw; ``doubles`` and ``losses`` name each case."""

    bot_kills: int = 0
    database_kills: int = 0
    database_stalls: int = 0
    moves_sent: int = 0
    moves_answered: int = 0
    unanswered: int = 0
    resigns: int = 0
    games: int = 0
    moves_stored: int = 0
    announcements: int = 0
    covered: int = 0
    doubles: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    """Each fault with the wall-clock time it began, to set beside a double's messages."""
    seconds: float = 0.0

    def summary(self) -> str:
        rss = "n/a"
        if self.rss_mib:
            first, last = self.rss_mib[0], self.rss_mib[-1]
            rss = f"{first:.0f} MiB at first, {last:.0f} at the end, peak {max(self.rss_mib):.0f}"
        return (
            f"chaos run on {BACKEND} ({self.seconds:.0f} s of faults, seed {SEED}): "
            f"{self.bot_kills} bot kills, {self.database_kills} PostgreSQL kills, "
            f"{self.database_stalls} PostgreSQL stalls; "
            f"{self.games} games, {self.moves_sent} moves sent, {self.moves_answered} answered, "
            f"{self.unanswered} unanswered or refused while down, {self.moves_stored} stored, "
            f"{self.resigns} resignations; {self.announcements} announcements shown, "
            f"{self.covered} boards covered by a later one; bot RSS {rss}; "
            f"doubles {len(self.doubles)}, losses {len(self.losses)}"
        )


class Chaos:
    """The bot, its own PostgreSQL server, and the faults; ``up`` is set while both run."""

    def __init__(self, fake: FakeDiscord, server: PostgresServer | None, bot: BotProcess) -> None:
        self.fake = fake
        self.server = server
        self.bot = bot
        self.users = Users(fake, bot)
        self.up = asyncio.Event()
        self.up.set()
        self.quiet = asyncio.Lock()
        """Held while a game is being started (not a fault under test here) or a fault runs."""
        self.figures = Figures()

    async def faults(self, rng: random.Random, until: float) -> None:
        """A fault every 2-6 s until ``until``, the kinds of :data:`FAULTS` in rounds, each
        round in a random order: a short run still has every kind."""
        kinds: list[str] = []
        while time.monotonic() < until:
            await asyncio.sleep(rng.uniform(2.0, 6.0))
            kinds = kinds or rng.sample(FAULTS, len(FAULTS))
            async with self.quiet:
                self.up.clear()
                kind = kinds.pop()
                self.figures.faults.append(f"{kind} at {datetime.now(UTC).time()}")
                if kind in ("bot", "both"):
                    self.sample_rss()
                    self.bot.kill()
                    self.figures.bot_kills += 1
                assert self.server is not None or kind == "bot"
                if kind in ("database", "both"):
                    assert self.server is not None
                    await asyncio.to_thread(self.server.crash)
                    self.figures.database_kills += 1
                if kind == "stall":
                    assert self.server is not None
                    self.server.pause()
                    self.figures.database_stalls += 1
                    await asyncio.sleep(rng.uniform(1.0, 5.0))
                    self.server.resume()
                await asyncio.sleep(rng.uniform(0.2, 2.5))
                if kind in ("database", "both"):
                    assert self.server is not None
                    await asyncio.to_thread(self.server.restart)
                if kind in ("bot", "both"):
                    await self.bot.start()
                self.up.set()

    async def memory(self, until: float) -> None:
        """The bot's resident memory every few seconds (and before each kill): it must stay
        flat over a soak."""
        while time.monotonic() < until:
            self.sample_rss()
            await asyncio.sleep(5.0)

    def sample_rss(self) -> None:
        proc = self.bot.proc
        if proc is None:
            return
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{proc.pid}/status").read_text()
            found = re.search(r"VmRSS:\s+(\d+) kB", status)
            if found:
                self.figures.rss_mib.append(int(found[1]) / 1024)

    async def answer(self, interaction: dict[str, Any]) -> Any:
        """The bot's response to ``interaction`` if it came within :data:`ANSWER_WAIT`."""
        path = rf"/interactions/{interaction['id']}/[^/]+/callback"
        with contextlib.suppress(TimeoutError):
            request = await self.fake.wait_for_request("POST", path, timeout=ANSWER_WAIT)
            if 200 <= request.status < 300:
                return request
        return None


class Player:
    """One channel's pair of players and their game as they last saw it."""

    def __init__(self, chaos: Chaos, channel: str, first: str, second: str) -> None:
        self.chaos = chaos
        self.channel = channel
        self.first, self.second = first, second
        self.game_id: int | None = None
        self.game = Game(find_variant("english"))
        self.black = first

    async def play(self, rng: random.Random, until: float) -> None:
        while time.monotonic() < until:
            await self.chaos.up.wait()
            if self.game_id is None:
                async with self.chaos.quiet:
                    await self._start()
                continue
            if self.game.is_over:
                await self._look()
                continue
            if rng.random() < 0.02:
                await self._resign(rng)
            else:
                await self._move(rng)

    async def _start(self) -> None:
        """A new game in the channel (``first`` plays Black, who moves first)."""
        users = self.chaos.users
        sent = await users.command(
            "challenge",
            self.first,
            self.channel,
            opponent=user(self.second),
            variant="english",
            color="black",
        )
        answer = await self.chaos.answer(sent.payload)
        assert answer is not None, "a challenge in a quiet moment got no answer"
        accept = next(i for i in custom_ids(answer) if "accept" in i)
        pressed = await users.press(accept, sent.message(), self.second)
        board = await pressed.followup(0)
        self.game_id = game_id_of(embed_of(board))
        self.game = Game(find_variant("english"))
        self.chaos.figures.games += 1

    def _to_move(self) -> str:
        return self.first if self.game.ply % 2 == 0 else self.second

    async def _move(self, rng: random.Random) -> None:
        move = rng.choice(self.game.legal_moves())
        users = self.chaos.users
        self.chaos.figures.moves_sent += 1
        sent = await users.command("move", self._to_move(), self.channel, move=move.pdn())
        answer = await self.chaos.answer(sent.payload)
        shown = f"game-{self.game_id}-{self.game.ply + 1}.png"
        if answer is not None and not is_ephemeral(answer) and shown in answer.files:
            self.chaos.figures.moves_answered += 1
            self.game.play(move)
            return
        self.chaos.figures.unanswered += 1
        await self._look()

    async def _resign(self, rng: random.Random) -> None:
        users = self.chaos.users
        player = self._to_move() if rng.random() < 0.5 else self._other()
        asked = await users.command("resign", player, self.channel)
        confirm = await self.chaos.answer(asked.payload)
        if confirm is None or f"resign:{self.game_id}" not in custom_ids(confirm):
            await self._look()
            return
        pressed = await users.press(f"resign:{self.game_id}", asked.message(), player)
        if await self.chaos.answer(pressed.payload) is not None:
            self.chaos.figures.resigns += 1
        await self._look()

    def _other(self) -> str:
        return self.second if self._to_move() == self.first else self.first

    async def _look(self) -> None:
        """Look at the game as it stands once the bot is back: the stored moves, or a new game
        when it is over."""
        await self.chaos.up.wait()
        assert self.game_id is not None
        database = self.chaos.bot.database
        async with self.chaos.quiet:  # no fault while the player looks
            rows = await asyncio.to_thread(
                db_dicts, database, "SELECT status FROM games WHERE id = ?", (self.game_id,)
            )
            stored = await asyncio.to_thread(stored_moves, database, self.game_id)
        if rows and rows[0]["status"] != "running":
            self.game_id = None
            return
        game = Game(find_variant("english"))
        for pdn in stored:
            game.play(pdn)
        self.game = game


def shown_messages(fake: FakeDiscord) -> dict[str, dict[int, list[str]]]:
    """Per game id (``"<id>"``), for each ply: the messages showing the board after it; and per
    game (``"<id>:end"``, at key 0) those announcing its end (the final board with the game's
    record, whose board is the end's, not a ply's again).  Each message is named by how it was
    sent (an interaction's answer or follow-up, or a post in the channel) and when."""
    board = re.compile(r"game-(\d+)-(\d+)\.png")
    record = re.compile(r"draughts-game-(\d+)\.pdn")
    shown: dict[str, dict[int, list[str]]] = {}
    for message in fake.messages.values():
        meta = message.get("interaction_metadata")
        how = f"answer to {meta['id']}" if meta else "post"
        how += f" at {message.get('timestamp', '?')}"
        names = [str(a.get("filename")) for a in message.get("attachments") or []]
        ends = [found[1] for name in names if (found := record.fullmatch(name))]
        for game_id in ends:
            shown.setdefault(f"{game_id}:end", {}).setdefault(0, []).append(how)
        for name in names:
            if (found := board.fullmatch(name)) and found[1] not in ends:
                shown.setdefault(found[1], {}).setdefault(int(found[2]), []).append(how)
    return shown


def count(figures: Figures, fake: FakeDiscord, database: Path | str) -> None:
    """Doubles and losses, from what players saw and what the database holds."""
    shown = shown_messages(fake)
    games = db_dicts(database, "SELECT id, status FROM games ORDER BY id")
    figures.announcements = sum(len(m) for plies in shown.values() for m in plies.values())
    for game in games:
        gid = str(game["id"])
        plies = len(stored_moves(database, int(game["id"])))
        figures.moves_stored += plies
        boards = shown.get(gid, {})
        ends = shown.get(f"{gid}:end", {}).get(0, [])
        running = game["status"] == "running"
        for ply, messages in sorted(boards.items()):
            if len(messages) > 1:
                figures.doubles.append(f"game {gid}, board after ply {ply}: {messages}")
            if ply > plies:
                figures.losses.append(f"game {gid}: ply {ply} was shown but is not stored")
        if len(ends) > 1 or (ends and running):
            figures.doubles.append(f"game {gid}, its end: {ends}")
        if running and not boards.get(plies):
            figures.losses.append(f"game {gid}: its last board (ply {plies}) was never shown")
        if not running and not ends:
            figures.losses.append(f"game {gid}: its end was never shown")
        last = plies if running else plies - 1  # a game's last ply may be shown by its end
        figures.covered += sum(1 for ply in range(last) if not boards.get(ply))
    left = owed(database)
    if left:
        figures.losses.append(f"{left} announcements still owed at the end")


@contextlib.asynccontextmanager
async def database(tmp_path: Path) -> AsyncIterator[tuple[PostgresServer | None, str | None]]:
    """The chaos run's database: its own PostgreSQL server (``CHAOS_DATABASE=postgresql``, the
    default) and a database on it, or a SQLite file in ``tmp_path`` (``sqlite``: a soak of the
    SQLite bot, where only the bot can be killed)."""
    if BACKEND == "sqlite":
        assert set(FAULTS) == {"bot"}, "on SQLite only the bot can be killed: CHAOS_FAULTS=bot"
        yield None, None
        return
    # Durable: a test server's commits are acknowledged before their WAL is written (see
    # support.pg_server), so a crash would lose moves the bot was told were saved.
    with PostgresServer(durable=True) as server:
        yield server, server.dsn_for(await server.create_database("chaos"))


async def test_chaos_kills_of_bot_and_database_double_and_lose_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    async with database(tmp_path) as (server, dsn):
        bot = BotProcess(fake, tmp_path, dsn)
        await bot.start()
        chaos = Chaos(fake, server, bot)
        began = time.monotonic()
        until = began + CHAOS_SECONDS
        players = [Player(chaos, *pair) for pair in PAIRS]
        try:
            await asyncio.gather(
                chaos.faults(random.Random(rng.random()), until),
                chaos.memory(until),
                *(p.play(random.Random(rng.random()), until) for p in players),
            )
            chaos.figures.seconds = time.monotonic() - began
            # Everything owed reaches the channel: the scheduler posts what the faults left.
            deadline = time.monotonic() + SETTLE_TIMEOUT
            while owed(bot.database) and time.monotonic() < deadline:
                await bot.alive(asyncio.sleep(0.2))
            await asyncio.sleep(2.0)  # nothing more may arrive
            chaos.sample_rss()
            count(chaos.figures, fake, bot.database)
        finally:
            if bot.proc is not None and bot.proc.poll() is None:
                await bot.stop(timeout=30)
    figures = chaos.figures
    report = os.environ.get("CHAOS_REPORT")
    if report:
        Path(report).write_text(
            json.dumps({"summary": figures.summary(), **figures.__dict__}, indent=1)
        )
    print(figures.summary())
    assert figures.bot_kills + figures.database_kills + figures.database_stalls > 0
    assert figures.moves_answered > 0
    assert (figures.doubles, figures.losses) == ([], []), "\n".join(
        [figures.summary(), *figures.doubles, *figures.losses, "faults:", *figures.faults]
    )
