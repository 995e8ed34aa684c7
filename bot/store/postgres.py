"""The PostgreSQL implementation of :class:`~bot.store.protocol.Store` (asyncpg), for several
bot processes sharing one database server; chosen by a ``postgresql://`` location.

Concurrency: a pool of connections, each write one transaction at PostgreSQL's default isolation
(read committed).  A change to a game is guarded by the game's ``version`` (and a move also by
its ``ply``, the moves table's key): the second of two racing writers waits for the first's row
lock, then finds the new version and matches nothing (:class:`StaleVersion`).  The partial unique
indexes (one running game per channel, one open challenge per challenger and channel) decide
races between processes; their violations become the domain errors of :mod:`bot.store.errors`.
A rated game's end locks both players' ladder rows by name first (:mod:`bot.store.postgres_sql`),
and a board message's row is read ``FOR UPDATE``, so read-then-write steps are applied in turn as
SQLite's single writer applies them.

A write whose caller is cancelled runs on to its end (:func:`shielded_write`); until it ends,
every later operation of this store waits for it, so the process reads its own writes as it does
on SQLite's single connection (where a later statement queues behind the write).

Shards: each shard's background work has one owner process at a time, held by advisory locks
(:mod:`bot.store.postgres_shards`).

The schema and its migrations are in :mod:`bot.store.postgres_schema`, applied at start-up under
an advisory lock; a database written by a newer version of the bot is refused with
:class:`SchemaTooNewError`.  asyncpg's exceptions stay in the PostgreSQL modules.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import asyncpg

from ..enums import ChallengeStatus
from .addresses import redact_url
from .errors import ChallengeClosed, StoreError
from .mapping import DECODE, NEW_CHALLENGE_FIELDS, Row, row_values, select_from
from .postgres_schema import READ_VERSION, SCHEMA_VERSION, migrate
from .postgres_shards import ShardLocks
from .postgres_sql import (
    INSERT_MOVE,
    RATING_OF,
    Connection,
    affected,
    domain_refusal,
    guarded_update,
    guild_is,
    insert_event,
    insert_game,
    marks,
    rate_game,
    save_keyed,
)
from .postgres_writes import Orphans, shielded_write
from .rows import (
    ChallengeRow,
    EventRow,
    FollowUp,
    GameChanges,
    GameRow,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsChanges,
    PrefsRow,
    RatedGame,
    RatingRow,
    SettingsChanges,
    SettingsRow,
    TakenBackMove,
)
from .shards import EVERY_SHARD, Shards

POOL_SIZE = (1, 10)
"""The pool's fewest and most connections per process (asyncpg's defaults: a move holds one
for a few milliseconds, and PostgreSQL's own limit, 100 by default, is shared by every process)."""

UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What connecting can raise: refused or unresolvable, too slow, the server's refusal (no such
database, wrong password), or a malformed address."""

GAMES = select_from(GameRow, "games")
ENDED = "status <> 'running'"


class PostgresStore:
    """An asyncpg pool and the queries on it.  Use :meth:`open`."""

    def __init__(self, pool: Any, dsn: str) -> None:
        self._pool = pool
        self.dsn = dsn
        self.orphans = Orphans()
        """Writes still running whose callers were cancelled (:func:`shielded_write`)."""
        self._shard_locks = ShardLocks(dsn)

    async def _settled(self) -> Any:
        """The pool, once the writes left running by cancelled callers are done."""
        await self.orphans.settled()
        return self._pool

    @classmethod
    async def open(cls, dsn: str) -> PostgresStore:
        """Connect (a pool) and migrate; :class:`StoreError` if the server cannot be reached."""
        where = redact_url(dsn)
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=POOL_SIZE[0],
                max_size=POOL_SIZE[1],
                server_settings={"application_name": "draughts-bot"},
            )
        except UNREACHABLE as exc:
            raise StoreError(f"cannot open the database {where}: {exc}") from exc
        try:
            async with pool.acquire() as conn, conn.transaction():
                await migrate(conn, where)
        except asyncpg.PostgresError as exc:
            pool.terminate()
            raise StoreError(f"cannot migrate the database {where}: {exc}") from exc
        except BaseException:
            pool.terminate()
            raise
        return cls(pool, dsn)

    async def close(self) -> None:
        await self._shard_locks.close()
        await (await self._settled()).close()

    async def own_shards(self, shards: Shards) -> Shards:
        """Held by advisory locks (:mod:`bot.store.postgres_shards`): processes share the
        server, so each shard has one owner at a time."""
        return await self._shard_locks.own(shards)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One connection of the pool inside ``BEGIN`` ... ``COMMIT``, rolled back on any
        exception (including cancellation), so a change lands whole or not at all."""
        pool = await self._settled()
        async with pool.acquire() as conn, conn.transaction():
            yield conn

    async def _one(self, cls: type[Row], sql: str, *params: Any) -> Row | None:
        row = await (await self._settled()).fetchrow(sql, *params)
        return None if row is None else DECODE[cls](row)

    async def _all(self, cls: type[Row], sql: str, *params: Any) -> list[Row]:
        decode = DECODE[cls]
        return [decode(row) for row in await (await self._settled()).fetch(sql, *params)]

    async def schema_version(self) -> int:
        return int(await (await self._settled()).fetchval(READ_VERSION))

    async def integrity_check(self) -> str:
        """``"ok"`` when the server answers and the schema is at this bot's version (the server
        keeps its own storage consistent; there is no ``PRAGMA integrity_check`` to run)."""
        try:
            version = await self.schema_version()
        except UNREACHABLE as exc:
            return f"no answer from {redact_url(self.dsn)}: {exc}"
        if version != SCHEMA_VERSION:
            return f"schema version {version}, expected {SCHEMA_VERSION}"
        return "ok"

    # -- challenges ------------------------------------------------------------------------------

    @shielded_write
    async def insert_challenge(self, challenge: NewChallenge, event: NewEvent | None = None) -> int:
        count = len(NEW_CHALLENGE_FIELDS)
        sql = (
            f"INSERT INTO challenges ({', '.join(NEW_CHALLENGE_FIELDS)}, status, updated_at) "
            f"VALUES ({marks(count)}, 'open', ${count + 1}) RETURNING id"
        )
        try:
            async with self.transaction() as db:
                challenge_id = int(
                    await db.fetchval(sql, *row_values(challenge), challenge.created_at)
                )
                if event is not None:
                    await insert_event(db, replace(event, challenge_id=challenge_id))
                return challenge_id
        except asyncpg.UniqueViolationError as exc:
            raise domain_refusal(exc) from None

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        sql = select_from(ChallengeRow, "challenges") + " WHERE id = $1"
        return await self._one(ChallengeRow, sql, challenge_id)

    async def open_challenge_of(self, challenger_id: int, channel_id: int) -> ChallengeRow | None:
        sql = select_from(ChallengeRow, "challenges") + (
            " WHERE challenger_id = $1 AND channel_id = $2 AND status = 'open'"
        )
        return await self._one(ChallengeRow, sql, challenger_id, channel_id)

    @shielded_write
    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: float,
        event: NewEvent | None = None,
    ) -> bool:
        async with self.transaction() as db:
            result = await db.execute(
                "UPDATE challenges SET status = $1, updated_at = $2"
                " WHERE id = $3 AND status = 'open'",
                str(status),
                now,
                challenge_id,
            )
            if affected(result) != 1:
                return False
            if event is not None:
                await insert_event(db, event)
            return True

    @shielded_write
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = $1 WHERE id = $2", message_id, challenge_id
            )

    async def expired_challenges(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> list[ChallengeRow]:
        sql = select_from(ChallengeRow, "challenges") + (
            f" WHERE status = 'open' AND expires_at <= $1 AND {shards.where()} ORDER BY expires_at"
        )
        return await self._all(ChallengeRow, sql, now)

    # -- games -----------------------------------------------------------------------------------

    @shielded_write
    async def start_game(
        self, game: NewGame, challenge_id: int | None = None, event: NewEvent | None = None
    ) -> int:
        try:
            async with self.transaction() as db:
                game_id = await insert_game(db, game)
                if challenge_id is not None:
                    result = await db.execute(
                        "UPDATE challenges SET status = 'accepted', game_id = $1, updated_at = $2"
                        " WHERE id = $3 AND status = 'open'",
                        game_id,
                        game.created_at,
                        challenge_id,
                    )
                    if affected(result) != 1:
                        raise ChallengeClosed("the challenge is no longer open")
                if event is not None:
                    await insert_event(db, replace(event, game_id=game_id))
                return game_id
        except asyncpg.UniqueViolationError as exc:
            raise domain_refusal(exc) from None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(GameRow, GAMES + " WHERE id = $1", game_id)

    async def running_game_in(self, channel_id: int) -> GameRow | None:
        sql = GAMES + " WHERE channel_id = $1 AND status = 'running'"
        return await self._one(GameRow, sql, channel_id)

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        sql = GAMES + (
            f" WHERE channel_id = $1 AND {ENDED} ORDER BY updated_at DESC, id DESC LIMIT 1"
        )
        return await self._one(GameRow, sql, channel_id)

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        where, params = guild_is(guild_id, "$1")
        sql = GAMES + f" WHERE status = 'running' AND {where} ORDER BY id"
        return await self._all(GameRow, sql, *params)

    async def computer_games_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = GAMES + (
            " WHERE status = 'running' AND computer_id IS NOT NULL AND deadline IS NULL"
            f" AND {shards.where()} ORDER BY id"
        )
        return await self._all(GameRow, sql)

    async def moves(self, game_id: int) -> list[MoveRow]:
        sql = select_from(MoveRow, "moves") + " WHERE game_id = $1 ORDER BY ply"
        return await self._all(MoveRow, sql, game_id)

    @shielded_write
    async def update_game(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        move: NewMove | None = None,
        *,
        rated: RatedGame | None = None,
        follow_up: NewGame | FollowUp | None = None,
        event: NewEvent | None = None,
    ) -> None:
        try:
            async with self.transaction() as db:
                await guarded_update(db, game_id, version, changes)
                if move is not None:
                    await db.execute(INSERT_MOVE, game_id, *row_values(move))
                change = None if rated is None else await rate_game(db, game_id, rated)
                if follow_up is not None:
                    if not isinstance(follow_up, NewGame):
                        follow_up = follow_up(change)
                    await insert_game(db, follow_up)
                if event is not None:
                    await insert_event(db, event)
        except asyncpg.UniqueViolationError as exc:
            raise domain_refusal(exc) from None

    @shielded_write
    async def take_back(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        ply: int,
        when: float,
        event: NewEvent | None = None,
    ) -> None:
        async with self.transaction() as db:
            await guarded_update(db, game_id, version, changes)
            await db.execute(
                "INSERT INTO taken_back_moves"
                " (game_id, ply, pdn, fen_after, user_id, played_at, taken_back_at)"
                " SELECT game_id, ply, pdn, fen_after, user_id, played_at, $1::double precision"
                " FROM moves WHERE game_id = $2 AND ply > $3",
                when,
                game_id,
                ply,
            )
            await db.execute("DELETE FROM moves WHERE game_id = $1 AND ply > $2", game_id, ply)
            if event is not None:
                await insert_event(db, event)

    async def taken_back_moves(self, game_id: int) -> list[TakenBackMove]:
        rows = await (await self._settled()).fetch(
            "SELECT ply, pdn, taken_back_at FROM taken_back_moves WHERE game_id = $1"
            " ORDER BY taken_back_at, ply",
            game_id,
        )
        return [TakenBackMove(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def due_games(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> tuple[list[GameRow], list[GameRow]]:
        mine = shards.where()
        timeouts = await self._all(
            GameRow,
            GAMES
            + " WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= $1"
            + f" AND {mine} ORDER BY id",
            now,
        )
        reminders = await self._all(
            GameRow,
            GAMES + " WHERE status = 'running' AND (remind_at <= $1 OR warn_at <= $1)"
            f" AND (deadline IS NULL OR deadline > $1) AND {mine} ORDER BY id",
            now,
        )
        return timeouts, reminders

    @shielded_write
    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        async with self.transaction() as db:
            row = await db.fetchrow(
                "SELECT board_message_id FROM games WHERE id = $1 FOR UPDATE", game_id
            )
            previous = None if row is None or row[0] is None else int(row[0])
            if previous is not None and previous >= message_id:
                return None if previous == message_id else message_id
            await db.execute(
                "UPDATE games SET board_message_id = $1 WHERE id = $2", message_id, game_id
            )
            return previous

    # -- matches, history, ratings ---------------------------------------------------------------

    async def match_games(self, match_id: int) -> list[GameRow]:
        return await self._all(GameRow, GAMES + " WHERE match_id = $1 ORDER BY id", match_id)

    async def matches_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = select_from(GameRow, "games g") + (
            " WHERE g.match_id = g.id AND g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM games h WHERE h.match_id = g.id AND h.id <> g.id)"
            f" AND {shards.where('g.guild_id')} ORDER BY g.id"
        )
        return await self._all(GameRow, sql)

    async def finished_games(
        self,
        guild_id: int | None,
        *,
        user_id: int | None = None,
        variant: str | None = None,
        limit: int = 10,
    ) -> list[GameRow]:
        """One player's games are read colour by colour, each side from its own index
        (``games_by_white``/``games_by_black``), so the cost follows the player's games, not
        the server's."""
        params: list[Any] = [limit]
        order = " ORDER BY updated_at DESC, id DESC LIMIT $1"

        def mark(value: Any) -> str:
            params.append(value)
            return f"${len(params)}"

        where = (
            " WHERE guild_id IS NULL" if guild_id is None else f" WHERE guild_id = {mark(guild_id)}"
        )
        where += f" AND {ENDED}"
        if variant is not None:
            where += f" AND variant = {mark(variant)}"
        if user_id is None:
            sql = GAMES + where + order
        else:
            player = mark(user_id)
            sides = [
                f"({GAMES}{where} AND {side} = {player}{order})"
                for side in ("white_id", "black_id")
            ]
            sql = "SELECT * FROM (" + " UNION ALL ".join(sides) + ") AS g" + order
        return await self._all(GameRow, sql, *params)

    async def rating(self, guild_id: int, user_id: int, variant: str) -> RatingRow | None:
        return await self._one(RatingRow, RATING_OF, guild_id, user_id, variant)

    async def leaderboard(self, guild_id: int, variant: str, limit: int = 10) -> list[RatingRow]:
        sql = select_from(RatingRow, "ratings") + (
            " WHERE guild_id = $1 AND variant = $2"
            " ORDER BY rating DESC, games DESC, user_id LIMIT $3"
        )
        return await self._all(RatingRow, sql, guild_id, variant, limit)

    async def rank(self, mine: RatingRow) -> tuple[int, int]:
        row = await (await self._settled()).fetchrow(
            "SELECT COUNT(*) FILTER (WHERE rating > $1 OR (rating = $1 AND games > $2)"
            " OR (rating = $1 AND games = $2 AND user_id < $3)), COUNT(*)"
            " FROM ratings WHERE guild_id = $4 AND variant = $5",
            mine.rating,
            mine.games,
            mine.user_id,
            mine.guild_id,
            mine.variant,
        )
        return int(row[0]) + 1, int(row[1])

    # -- the outbox and what the process keeps between runs -------------------------------------

    async def pending_events(
        self,
        now: float,
        *,
        shards: Shards = EVERY_SHARD,
        game_id: int | None = None,
        limit: int = 100,
    ) -> list[EventRow]:
        sql = select_from(EventRow, "outbox") + (
            " WHERE delivered_at IS NULL AND next_attempt_at <= $1"
        )
        params: tuple[Any, ...] = (now, limit)
        if game_id is not None:  # a game in this process's hands, wherever it is
            sql += " AND game_id = $3"
            params += (game_id,)
        else:
            sql += f" AND {shards.where()}"
        return await self._all(EventRow, sql + " ORDER BY seq LIMIT $2", *params)

    @shielded_write
    async def mark_events(
        self,
        answering: Sequence[tuple[str, str, float]],
        delivered: Sequence[tuple[str, float]],
    ) -> None:
        async with self.transaction() as db:
            if answering:
                await db.executemany(
                    "UPDATE outbox SET answer_token = $1, answer_at = $2"
                    " WHERE id = $3 AND delivered_at IS NULL",
                    [(token, at, event_id) for event_id, token, at in answering],
                )
            if delivered:
                await db.executemany(
                    "UPDATE outbox SET delivered_at = $1, payload = NULL, answer_token = NULL"
                    " WHERE id = $2",
                    [(at, event_id) for event_id, at in delivered],
                )

    @shielded_write
    async def event_failed(self, event_id: str, payload: str | None, retry_at: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1,"
                " payload = coalesce(payload, $2), answer_token = NULL"
                " WHERE id = $3 AND delivered_at IS NULL",
                retry_at,
                payload,
                event_id,
            )

    @shielded_write
    async def prune_events(self, delivered_before: float) -> int:
        async with self.transaction() as db:
            result = await db.execute(
                "DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < $1",
                delivered_before,
            )
            return affected(result)

    async def meta(self, key: str) -> str | None:
        value = await (await self._settled()).fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    @shielded_write
    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                key,
                value,
            )

    # -- user preferences ------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> PrefsRow | None:
        sql = select_from(PrefsRow, "user_prefs") + " WHERE user_id = $1"
        return await self._one(PrefsRow, sql, user_id)

    @shielded_write
    async def save_prefs(self, user_id: int, changes: PrefsChanges, *, when: float) -> None:
        async with self.transaction() as db:
            await save_keyed(db, "user_prefs", ("user_id", user_id), changes, when)

    # -- server settings -------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SettingsRow | None:
        sql = select_from(SettingsRow, "guild_settings") + " WHERE guild_id = $1"
        return await self._one(SettingsRow, sql, guild_id)

    async def game_channels(self, guild_id: int) -> list[int]:
        rows = await (await self._settled()).fetch(
            "SELECT channel_id FROM guild_channels WHERE guild_id = $1 ORDER BY channel_id",
            guild_id,
        )
        return [int(r[0]) for r in rows]

    @shielded_write
    async def save_settings(
        self,
        guild_id: int,
        changes: SettingsChanges,
        *,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        when: float,
    ) -> None:
        allowed = [(guild_id, c) for c in allow]
        disallowed = [(guild_id, c) for c in disallow]
        async with self.transaction() as db:
            await save_keyed(db, "guild_settings", ("guild_id", guild_id), changes, when)
            if all_channels:
                await db.execute("DELETE FROM guild_channels WHERE guild_id = $1", guild_id)
            if allowed:
                await db.executemany(
                    "INSERT INTO guild_channels (guild_id, channel_id) VALUES ($1, $2)"
                    " ON CONFLICT DO NOTHING",
                    allowed,
                )
            if disallowed:
                await db.executemany(
                    "DELETE FROM guild_channels WHERE guild_id = $1 AND channel_id = $2",
                    disallowed,
                )
