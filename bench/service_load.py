"""The load of the game-service benchmark: live games in one database and the submitters that
play random legal moves in them, timed around ``GameService.move()``.

Its own module because two programs drive it: ``bench/service.py`` runs it in one process and
prints the table, and ``bench/service_fleet.py`` runs a share of it in each of several bot
processes.  What is measured and why is in ``bench/service.py``'s docstring.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/service.py` without installing
    sys.path.insert(0, str(_ROOT))

from bot.results import Player  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import EVERY_SHARD, Shards, shard_of  # noqa: E402
from rules.game import Game  # noqa: E402
from rules.variants import VARIANTS, Color, find_variant  # noqa: E402

BOT_ID = 1
ALL_VARIANTS = ",".join(VARIANTS)


@dataclass
class Table:
    """One live game as the submitters see it."""

    channel: int
    white: Player
    black: Player
    variant: str
    game: Game = field(init=False)

    def __post_init__(self) -> None:
        self.game = Game(find_variant(self.variant))

    def to_move(self) -> Player:
        return self.white if self.game.turn is Color.WHITE else self.black


@dataclass
class Result:
    """One timed run."""

    moves: int
    seconds: float
    latencies: list[float]
    replaced: int
    db_bytes: int
    wal_bytes: int | None
    """SQLite: the write-ahead log's size at the end; PostgreSQL: None (the server's WAL is
    shared by its databases and recycled, not a file of this database)."""
    skipped: int = 0
    """Open loop: arrivals dropped because every game was waiting for a reply."""

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else float("inf")


def server_on(shard: int, count: int) -> int:
    """A server id (a snowflake) whose events come on ``shard`` of ``count``."""
    guild = 1_200_000_000_000 << 22
    while shard_of(guild, count) != shard:
        guild += 1 << 22
    return guild


class Bench:
    """A database with ``games`` live games and the submitters' copies of them: a SQLite file
    (a :class:`Path`) or a PostgreSQL database (a ``postgresql://`` DSN)."""

    def __init__(
        self,
        location: Path | str,
        games: int,
        variants: list[str],
        seed: int,
        shards: Shards = EVERY_SHARD,
        base: int = 0,
    ) -> None:
        """``shards``: the process's shards (its games are in a server on the first of them);
        ``base`` keeps several processes' channels and players apart."""
        self.location = location
        self.games = games
        self.variants = variants
        self.shards = shards
        self.guild_id = server_on(min(shards.ids), shards.count)
        self.base = base
        self.rng = random.Random(seed)
        self.tables: dict[int, Table] = {}
        self.free: list[int] = []
        self.replaced = 0
        self.svc: GameService

    async def open(self) -> None:
        self.svc = await GameService.open(
            self.location,
            bot_user_id=BOT_ID,
            rng=random.Random(self.rng.random()),
            shards=self.shards,
        )
        for i in range(self.games):
            table = Table(
                channel=1_000_000 + self.base + i,
                white=Player(10_000 + 2 * (self.base + i), f"White {i}"),
                black=Player(10_001 + 2 * (self.base + i), f"Black {i}"),
                variant=self.variants[i % len(self.variants)],
            )
            await self._start(table)
            self.free.append(table.channel)

    async def _start(self, table: Table) -> None:
        offer = await self.svc.challenge(
            guild_id=self.guild_id,
            channel_id=table.channel,
            challenger=table.white,
            opponent=table.black,
            variant=table.variant,
            color="white",
        )
        assert offer.challenge is not None
        await self.svc.accept(offer.challenge.id, table.black.id)
        table.game = Game(find_variant(table.variant))
        self.tables[table.channel] = table

    def _take(self) -> int | None:
        """A random free game's channel, now marked busy (None if every game is busy)."""
        if not self.free:
            return None
        i = self.rng.randrange(len(self.free))
        self.free[i], self.free[-1] = self.free[-1], self.free[i]
        return self.free.pop()

    async def play_one(self, channel: int, latencies: list[float] | None) -> None:
        """One move in the game of ``channel`` (which the caller took), timed into
        ``latencies``; the game is then free again (replaced first if it ended)."""
        table = self.tables[channel]
        game = table.game
        move = self.rng.choice(game.legal_moves())
        user = table.to_move()
        start = time.perf_counter()
        result = await self.svc.move(user.id, move.pdn(), channel_id=channel)
        elapsed = time.perf_counter() - start
        if latencies is not None:
            latencies.append(elapsed)
        game.play(move)
        assert result.game is not None
        if result.game.fen != game.position.fen() or result.game.ply != game.ply:
            raise RuntimeError(f"channel {channel}: the service and the copy disagree")
        if game.is_over:
            await self._start(table)
            self.replaced += 1
        self.free.append(channel)

    async def closed_loop(self, concurrency: int, moves: int, seconds: float | None) -> Result:
        latencies: list[float] = []
        busy = [0]  # moves submitted and not yet answered
        started = time.perf_counter()
        deadline = None if seconds is None else started + seconds

        def more() -> bool:
            if deadline is not None:
                return time.perf_counter() < deadline
            return len(latencies) + busy[0] < moves

        async def submitter() -> None:
            while more():
                channel = self._take()
                if channel is None:
                    await asyncio.sleep(0)
                    continue
                busy[0] += 1
                try:
                    await self.play_one(channel, latencies)
                finally:
                    busy[0] -= 1

        replaced = self.replaced
        await asyncio.gather(*(submitter() for _ in range(concurrency)))
        wall = time.perf_counter() - started
        return await self._result(latencies, wall, replaced)

    async def open_loop(self, rate: float, moves: int, seconds: float | None) -> Result:
        latencies: list[float] = []
        total = moves if seconds is None else int(rate * seconds)
        tasks: set[asyncio.Task[None]] = set()
        skipped = 0
        replaced = self.replaced
        started = time.perf_counter()
        due = started
        for _ in range(total):
            due += self.rng.expovariate(rate)
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            channel = self._take()
            if channel is None:
                skipped += 1
                continue
            task = asyncio.create_task(self.play_one(channel, latencies))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        wall = time.perf_counter() - started
        result = await self._result(latencies, wall, replaced)
        result.skipped = skipped
        return result

    async def _result(self, latencies: list[float], wall: float, replaced: int) -> Result:
        db_bytes, wal_bytes = await self._sizes()
        return Result(
            len(latencies), wall, latencies, self.replaced - replaced, db_bytes, wal_bytes
        )

    async def _sizes(self) -> tuple[int, int | None]:
        """The database's size in bytes, and its write-ahead log's (SQLite only)."""
        if isinstance(self.location, Path):
            wal = self.location.with_name(self.location.name + "-wal")
            return self.location.stat().st_size, wal.stat().st_size if wal.exists() else 0
        import asyncpg

        conn = await asyncpg.connect(self.location)
        try:
            return int(await conn.fetchval("SELECT pg_database_size(current_database())")), None
        finally:
            await conn.close()

    async def warm_up(self, moves: int) -> None:
        if moves > 0:
            await self.closed_loop(8, moves, None)

    async def close(self) -> None:
        await self.svc.close()


def parse_variants(text: str) -> list[str]:
    try:
        return [find_variant(name.strip()).key for name in text.split(",") if name.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
