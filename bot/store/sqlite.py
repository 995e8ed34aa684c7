"""The SQLite implementation of :class:`~bot.store.protocol.Store` (aiosqlite), the default.

Durability: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives the process
being killed at any point; only a power cut can lose the last commits), foreign keys on, and a busy
timeout so a second connection waits instead of failing.  Every change to a game is one
transaction guarded by the game's ``version`` (and a move also by its ``ply``, the moves table's
key), so two racing commands can never both land: the loser's update matches no row.

The schema and its migrations are in :mod:`bot.store.sqlite_schema`; a file written by a newer
version of the bot is refused with :class:`SchemaTooNewError` rather than misread.  SQLite's own
exceptions stay in this module: unique-index violations that mean something to players become the
domain errors of :mod:`bot.store.errors`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite

from ..enums import ChallengeStatus
from .errors import (
    ChallengeClosed,
    SchemaTooNewError,
    StoreError,
)
from .mapping import (
    DECODE,
    MOVE_COLUMNS,
    NEW_CHALLENGE_FIELDS,
    Row,
    row_values,
    select_from,
    shielded,
)
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
from .sqlite_schema import MIGRATIONS, SCHEMA_VERSION
from .sqlite_sql import (
    RATING_OF,
    domain_refusal,
    guarded_update,
    insert_event,
    insert_game,
    rate_game,
    save_keyed,
    split_statements,
)


class SqliteStore:
    """One aiosqlite connection and the queries on it.  Use :meth:`open`.

    The connection is shared by every coroutine of the process, so access is serialised by one
    :class:`asyncio.Lock`: a transaction holds it from ``BEGIN`` to ``COMMIT`` and reads take it
    too, so no coroutine ever starts a transaction inside another's or reads its uncommitted rows.
    """

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating the directory and file if needed), configure and migrate."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        store = cls(db, path)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"{self.path} has schema version {version}, newer than this bot knows "
                f"({SCHEMA_VERSION}); upgrade the bot or use a backup made by this version"
            )
        if 0 < version < SCHEMA_VERSION and str(self.path) != ":memory:":
            # A verified copy first: a migration that goes wrong can be rolled back by hand.
            from .sqlite_backup import backup_before_migration

            await asyncio.to_thread(backup_before_migration, self.path, version)
        for number, sql in MIGRATIONS:
            if number <= version:
                continue
            async with self.transaction() as db:
                for statement in split_statements(sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception (including
        cancellation), so a change lands whole or not at all."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _fetch_one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _fetch_all(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _one(self, cls: type[Row], sql: str, params: tuple[Any, ...] = ()) -> Row | None:
        row = await self._fetch_one(sql, params)
        return None if row is None else DECODE[cls](row)

    async def _all(self, cls: type[Row], sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        decode = DECODE[cls]
        return [decode(row) for row in await self._fetch_all(sql, params)]

    async def own_shards(self, shards: Shards) -> Shards:
        """All of them: one process alone opens the file (:mod:`bot.store.sqlite_guard`)."""
        return shards

    async def schema_version(self) -> int:
        row = await self._fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        row = await self._fetch_one("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"

    # -- challenges ------------------------------------------------------------------------------

    @shielded
    async def insert_challenge(self, challenge: NewChallenge, event: NewEvent | None = None) -> int:
        sql = (
            f"INSERT INTO challenges ({', '.join(NEW_CHALLENGE_FIELDS)}, status, updated_at) "
            f"VALUES ({', '.join('?' for _ in NEW_CHALLENGE_FIELDS)}, 'open', ?)"
        )
        try:
            async with self.transaction() as db:
                cursor = await db.execute(sql, (*row_values(challenge), challenge.created_at))
                challenge_id = int(cursor.lastrowid or 0)
                if event is not None:
                    await insert_event(db, replace(event, challenge_id=challenge_id))
                return challenge_id
        except sqlite3.IntegrityError as exc:
            raise domain_refusal(exc) from None

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        sql = select_from(ChallengeRow, "challenges") + " WHERE id = ?"
        return await self._one(ChallengeRow, sql, (challenge_id,))

    async def open_challenge_of(self, challenger_id: int, channel_id: int) -> ChallengeRow | None:
        sql = select_from(ChallengeRow, "challenges") + (
            " WHERE challenger_id = ? AND channel_id = ? AND status = 'open'"
        )
        return await self._one(ChallengeRow, sql, (challenger_id, channel_id))

    @shielded
    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: float,
        event: NewEvent | None = None,
    ) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = ?, updated_at = ? WHERE id = ? AND status = 'open'",
                (str(status), now, challenge_id),
            )
            if cursor.rowcount != 1:
                return False
            if event is not None:
                await insert_event(db, event)
            return True

    @shielded
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def expired_challenges(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> list[ChallengeRow]:
        sql = select_from(ChallengeRow, "challenges") + (
            f" WHERE status = 'open' AND expires_at <= ? AND {shards.where()} ORDER BY expires_at"
        )
        return await self._all(ChallengeRow, sql, (now,))

    # -- games -----------------------------------------------------------------------------------

    @shielded
    async def start_game(
        self, game: NewGame, challenge_id: int | None = None, event: NewEvent | None = None
    ) -> int:
        try:
            async with self.transaction() as db:
                game_id = await insert_game(db, game)
                if challenge_id is not None:
                    cursor = await db.execute(
                        "UPDATE challenges SET status = 'accepted', game_id = ?, updated_at = ? "
                        "WHERE id = ? AND status = 'open'",
                        (game_id, game.created_at, challenge_id),
                    )
                    if cursor.rowcount != 1:
                        raise ChallengeClosed("the challenge is no longer open")
                if event is not None:
                    await insert_event(db, replace(event, game_id=game_id))
                return game_id
        except sqlite3.IntegrityError as exc:
            raise domain_refusal(exc) from None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(GameRow, select_from(GameRow, "games") + " WHERE id = ?", (game_id,))

    async def running_game_in(self, channel_id: int) -> GameRow | None:
        sql = select_from(GameRow, "games") + " WHERE channel_id = ? AND status = 'running'"
        return await self._one(GameRow, sql, (channel_id,))

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        sql = select_from(GameRow, "games") + (
            " WHERE channel_id = ? AND status != 'running' ORDER BY updated_at DESC, id DESC"
            " LIMIT 1"
        )
        return await self._one(GameRow, sql, (channel_id,))

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        sql = (
            select_from(GameRow, "games")
            + " WHERE status = 'running' AND guild_id IS ? ORDER BY id"
        )
        return await self._all(GameRow, sql, (guild_id,))

    async def computer_games_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = select_from(GameRow, "games") + (
            " WHERE status = 'running' AND computer_id IS NOT NULL AND deadline IS NULL"
            f" AND {shards.where()} ORDER BY id"
        )
        return await self._all(GameRow, sql)

    async def moves(self, game_id: int) -> list[MoveRow]:
        sql = select_from(MoveRow, "moves") + " WHERE game_id = ? ORDER BY ply"
        return await self._all(MoveRow, sql, (game_id,))

    @shielded
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
                    await db.execute(
                        f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, *row_values(move)),
                    )
                change = None if rated is None else await rate_game(db, game_id, rated)
                if follow_up is not None:
                    if not isinstance(follow_up, NewGame):
                        follow_up = follow_up(change)
                    await insert_game(db, follow_up)
                if event is not None:
                    await insert_event(db, event)
        except sqlite3.IntegrityError as exc:
            raise domain_refusal(exc) from None

    @shielded
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
                f"INSERT INTO taken_back_moves ({MOVE_COLUMNS}, taken_back_at) "
                f"SELECT {MOVE_COLUMNS}, ? FROM moves WHERE game_id = ? AND ply > ?",
                (when, game_id, ply),
            )
            await db.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
            if event is not None:
                await insert_event(db, event)

    async def taken_back_moves(self, game_id: int) -> list[TakenBackMove]:
        rows = await self._fetch_all(
            "SELECT ply, pdn, taken_back_at FROM taken_back_moves WHERE game_id = ?"
            " ORDER BY taken_back_at, ply",
            (game_id,),
        )
        return [TakenBackMove(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def due_games(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> tuple[list[GameRow], list[GameRow]]:
        mine = shards.where()
        timeouts = await self._all(
            GameRow,
            select_from(GameRow, "games")
            + " WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= ?"
            + f" AND {mine} ORDER BY id",
            (now,),
        )
        reminders = await self._all(
            GameRow,
            select_from(GameRow, "games")
            + " WHERE status = 'running' AND (remind_at <= ? OR warn_at <= ?)"
            f" AND (deadline IS NULL OR deadline > ?) AND {mine} ORDER BY id",
            (now, now, now),
        )
        return timeouts, reminders

    @shielded
    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        async with self.transaction() as db:
            async with db.execute(
                "SELECT board_message_id FROM games WHERE id = ?", (game_id,)
            ) as cursor:
                row = await cursor.fetchone()
            previous = None if row is None or row[0] is None else int(row[0])
            if previous is not None and previous >= message_id:
                return None if previous == message_id else message_id
            await db.execute(
                "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
            )
            return previous

    # -- matches, history, ratings ---------------------------------------------------------------

    async def match_games(self, match_id: int) -> list[GameRow]:
        sql = select_from(GameRow, "games") + " WHERE match_id = ? ORDER BY id"
        return await self._all(GameRow, sql, (match_id,))

    async def matches_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = select_from(GameRow, "games g") + (
            " WHERE g.match_id = g.id AND g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM games h WHERE h.match_id = g.id AND h.id != g.id)"
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
        order = " ORDER BY updated_at DESC, id DESC LIMIT ?"
        where = " WHERE guild_id IS ? AND status != 'running'"
        extra = "" if variant is None else " AND variant = ?"
        if user_id is None:
            sql = select_from(GameRow, "games") + where + extra + order
            params: tuple[Any, ...] = (guild_id, *([] if variant is None else [variant]), limit)
        else:
            sides = []
            params = ()
            for side in ("white_id", "black_id"):
                sides.append(
                    "SELECT * FROM ("
                    + select_from(GameRow, "games")
                    + f"{where} AND {side} = ?{extra}{order})"
                )
                params += (guild_id, user_id, *([] if variant is None else [variant]), limit)
            sql = "SELECT * FROM (" + " UNION ALL ".join(sides) + ")" + order
            params += (limit,)
        return await self._all(GameRow, sql, params)

    async def rating(self, guild_id: int, user_id: int, variant: str) -> RatingRow | None:
        return await self._one(RatingRow, RATING_OF, (guild_id, user_id, variant))

    async def leaderboard(self, guild_id: int, variant: str, limit: int = 10) -> list[RatingRow]:
        sql = select_from(RatingRow, "ratings") + (
            " WHERE guild_id = ? AND variant = ? ORDER BY rating DESC, games DESC, user_id LIMIT ?"
        )
        return await self._all(RatingRow, sql, (guild_id, variant, limit))

    async def rank(self, mine: RatingRow) -> tuple[int, int]:
        row = await self._fetch_one(
            "SELECT COUNT(*) FILTER (WHERE rating > ? OR (rating = ? AND games > ?)"
            " OR (rating = ? AND games = ? AND user_id < ?)), COUNT(*)"
            " FROM ratings WHERE guild_id = ? AND variant = ?",
            (
                mine.rating,
                mine.rating,
                mine.games,
                mine.rating,
                mine.games,
                mine.user_id,
                mine.guild_id,
                mine.variant,
            ),
        )
        assert row is not None
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
        sql = (
            select_from(EventRow, "outbox") + " WHERE delivered_at IS NULL AND next_attempt_at <= ?"
        )
        params: tuple[Any, ...] = (now,)
        if game_id is not None:  # a game in this process's hands, wherever it is
            sql += " AND game_id = ?"
            params += (game_id,)
        else:
            sql += f" AND {shards.where()}"
        return await self._all(EventRow, sql + " ORDER BY seq LIMIT ?", (*params, limit))

    @shielded
    async def mark_events(
        self,
        answering: Sequence[tuple[str, str, float]],
        delivered: Sequence[tuple[str, float]],
    ) -> None:
        async with self.transaction() as db:
            await db.executemany(
                "UPDATE outbox SET answer_token = ?, answer_at = ?"
                " WHERE id = ? AND delivered_at IS NULL",
                [(token, at, event_id) for event_id, token, at in answering],
            )
            await db.executemany(
                "UPDATE outbox SET delivered_at = ?, payload = NULL, answer_token = NULL"
                " WHERE id = ?",
                [(at, event_id) for event_id, at in delivered],
            )

    @shielded
    async def event_failed(self, event_id: str, payload: str | None, retry_at: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?,"
                " payload = coalesce(payload, ?), answer_token = NULL"
                " WHERE id = ? AND delivered_at IS NULL",
                (retry_at, payload, event_id),
            )

    @shielded
    async def prune_events(self, delivered_before: float) -> int:
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?",
                (delivered_before,),
            )
            return cursor.rowcount

    async def meta(self, key: str) -> str | None:
        row = await self._fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    @shielded
    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # -- user preferences ------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> PrefsRow | None:
        sql = select_from(PrefsRow, "user_prefs") + " WHERE user_id = ?"
        return await self._one(PrefsRow, sql, (user_id,))

    @shielded
    async def save_prefs(self, user_id: int, changes: PrefsChanges, *, when: float) -> None:
        async with self.transaction() as db:
            await save_keyed(db, "user_prefs", ("user_id", user_id), changes, when)

    # -- server settings -------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SettingsRow | None:
        sql = select_from(SettingsRow, "guild_settings") + " WHERE guild_id = ?"
        return await self._one(SettingsRow, sql, (guild_id,))

    async def game_channels(self, guild_id: int) -> list[int]:
        rows = await self._fetch_all(
            "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    @shielded
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
        async with self.transaction() as db:
            await save_keyed(db, "guild_settings", ("guild_id", guild_id), changes, when)
            if all_channels:
                await db.execute("DELETE FROM guild_channels WHERE guild_id = ?", (guild_id,))
            await db.executemany(
                "INSERT OR IGNORE INTO guild_channels (guild_id, channel_id) VALUES (?, ?)",
                [(guild_id, c) for c in allow],
            )
            await db.executemany(
                "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?",
                [(guild_id, c) for c in disallow],
            )
