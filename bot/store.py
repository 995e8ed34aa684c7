"""SQLite store: schema, migrations and the queries the service needs (aiosqlite).

Durability rules: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives the process
being killed at any point; only a power cut can lose the last commits), foreign keys on, and a busy
timeout so a second connection waits instead of failing.  Every change to a game is one
transaction guarded by the game's ``version`` (and a move also by its ``ply``, the moves table's
key), so two racing commands can never both land: the loser's update matches no row.

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` are applied in order at
start-up, each in its own transaction, so an old file upgrades in place.  A file written by a newer
version of the bot is refused with :class:`SchemaTooNewError` rather than misread.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

SCHEMA_V1 = """
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER NOT NULL,
    opponent_name   TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    color           TEXT    NOT NULL CHECK (color IN ('random', 'white', 'black')),
    move_time       INTEGER NOT NULL CHECK (move_time > 0),
    thread          INTEGER NOT NULL DEFAULT 0,
    opening         TEXT    NOT NULL DEFAULT '',
    level           INTEGER,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         INTEGER REFERENCES games (id),
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
CREATE UNIQUE INDEX challenges_one_open ON challenges (challenger_id, channel_id)
    WHERE status = 'open';

CREATE TABLE games (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER,
    channel_id          INTEGER NOT NULL,
    white_id            INTEGER NOT NULL,
    white_name          TEXT    NOT NULL,
    black_id            INTEGER NOT NULL,
    black_name          TEXT    NOT NULL,
    computer_id         INTEGER,
    computer_level      INTEGER,
    variant             TEXT    NOT NULL,
    start_fen           TEXT    NOT NULL,
    opening             TEXT    NOT NULL DEFAULT '',
    status              TEXT    NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'finished', 'aborted')),
    result              TEXT,
    termination         TEXT,
    termination_detail  TEXT    NOT NULL DEFAULT '',
    winner              TEXT    CHECK (winner IN ('white', 'black')),
    ply                 INTEGER NOT NULL DEFAULT 0,
    fen                 TEXT    NOT NULL,
    move_time           INTEGER NOT NULL CHECK (move_time > 0),
    deadline            REAL,
    remind_at           REAL,
    draw_offer          TEXT    CHECK (draw_offer IN ('white', 'black')),
    advantage_side      TEXT    CHECK (advantage_side IN ('white', 'black')),
    advantage_start_ply INTEGER,
    version             INTEGER NOT NULL DEFAULT 0,
    created_at          REAL    NOT NULL,
    updated_at          REAL    NOT NULL
);
CREATE UNIQUE INDEX games_one_running_per_channel ON games (channel_id) WHERE status = 'running';
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    pdn       TEXT    NOT NULL,
    fen_after TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    played_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""

SCHEMA_V2 = """
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'running';
CREATE INDEX games_remind_at ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_finished_in_channel ON games (channel_id, updated_at) WHERE status != 'running';
CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'open';

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    rating     REAL    NOT NULL DEFAULT 1500,
    deviation  REAL    NOT NULL DEFAULT 350,
    volatility REAL    NOT NULL DEFAULT 0.06,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant)
) WITHOUT ROWID;
"""

SCHEMA_V3 = """
ALTER TABLE challenges ADD COLUMN message_id INTEGER;
"""
"""v3: the id of the message that shows a challenge, so its buttons can be taken away when it
expires or is answered."""

MIGRATIONS: tuple[tuple[int, str], ...] = ((1, SCHEMA_V1), (2, SCHEMA_V2), (3, SCHEMA_V3))
"""(version, SQL) in order; the database's ``user_version`` is the last one applied."""
SCHEMA_VERSION = MIGRATIONS[-1][0]


class StoreError(RuntimeError):
    """The database cannot be used; the message says what to do."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer version of the bot."""


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    color: str
    move_time: int
    thread: int
    opening: str
    level: int | None
    status: str
    game_id: int | None
    created_at: float
    expires_at: float
    updated_at: float
    message_id: int | None


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    computer_id: int | None
    computer_level: int | None
    variant: str
    start_fen: str
    opening: str
    status: str
    result: str | None
    termination: str | None
    termination_detail: str
    winner: str | None
    ply: int
    fen: str
    move_time: int
    deadline: float | None
    remind_at: float | None
    draw_offer: str | None
    advantage_side: str | None
    advantage_start_ply: int | None
    version: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    pdn: str
    fen_after: str
    user_id: int
    played_at: float


Row = TypeVar("Row", ChallengeRow, GameRow, MoveRow)
T = TypeVar("T")

_COLUMNS = {cls: tuple(f.name for f in fields(cls)) for cls in (ChallengeRow, GameRow, MoveRow)}


def _row(cls: type[Row], row: sqlite3.Row | None) -> Row | None:
    return None if row is None else cls(*row)


def _select(cls: type[Any], table: str) -> str:
    return f"SELECT {', '.join(_COLUMNS[cls])} FROM {table}"


def _shielded(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Run a write to completion even if the caller is cancelled (a command timing out, a
    shutdown): a transaction interrupted between statements would otherwise leave the shared
    connection inside ``BEGIN`` for the next caller.  The caller still sees the cancellation and
    the service drops its in-memory copy, so it rereads whatever the write did."""

    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        return await asyncio.shield(asyncio.ensure_future(method(*args, **kwargs)))

    return wrapper


class Store:
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
    async def open(cls, path: str | Path) -> Store:
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
        for number, sql in MIGRATIONS:
            if number <= version:
                continue
            async with self.transaction() as db:
                for statement in _statements(sql):
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

    async def schema_version(self) -> int:
        row = await self._fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        row = await self._fetch_one("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"

    # -- challenges ----------------------------------------------------------------------------

    @_shielded
    async def insert_challenge(self, values: dict[str, Any]) -> int:
        """Insert an open challenge; ``sqlite3.IntegrityError`` if the challenger already has
        one open in that channel (the unique index decides, race-free)."""
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO challenges ({columns}) VALUES ({marks})", tuple(values.values())
            )
            return int(cursor.lastrowid or 0)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        sql = _select(ChallengeRow, "challenges") + " WHERE id = ?"
        return _row(ChallengeRow, await self._fetch_one(sql, (challenge_id,)))

    async def open_challenge_of(self, challenger_id: int, channel_id: int) -> ChallengeRow | None:
        sql = _select(ChallengeRow, "challenges") + (
            " WHERE challenger_id = ? AND channel_id = ? AND status = 'open'"
        )
        return _row(ChallengeRow, await self._fetch_one(sql, (challenger_id, channel_id)))

    @_shielded
    async def close_challenge(
        self, challenge_id: int, status: str, now: float, game_id: int | None = None
    ) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = ?, game_id = ?, updated_at = ? "
                "WHERE id = ? AND status = 'open'",
                (status, game_id, now, challenge_id),
            )
            return cursor.rowcount == 1

    @_shielded
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        sql = _select(ChallengeRow, "challenges") + (
            " WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at"
        )
        return [ChallengeRow(*row) for row in await self._fetch_all(sql, (now,))]

    # -- games ---------------------------------------------------------------------------------

    @_shielded
    async def start_game(
        self,
        values: dict[str, Any],
        moves: Iterable[tuple[int, str, str, int, float]] = (),
        challenge_id: int | None = None,
    ) -> int:
        """Insert a running game (with its opening moves) and, in the same transaction, mark
        ``challenge_id`` accepted.  ``sqlite3.IntegrityError`` if the channel already has a
        running game; :class:`StoreError` if the challenge was no longer open."""
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(values.values())
            )
            game_id = int(cursor.lastrowid or 0)
            await db.executemany(
                "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, *move) for move in moves],
            )
            if challenge_id is not None:
                cursor = await db.execute(
                    "UPDATE challenges SET status = 'accepted', game_id = ?, updated_at = ? "
                    "WHERE id = ? AND status = 'open'",
                    (game_id, values["created_at"], challenge_id),
                )
                if cursor.rowcount != 1:
                    raise StoreError("the challenge is no longer open")
            return game_id

    async def game(self, game_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + " WHERE id = ?"
        return _row(GameRow, await self._fetch_one(sql, (game_id,)))

    async def running_game_in(self, channel_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + " WHERE channel_id = ? AND status = 'running'"
        return _row(GameRow, await self._fetch_one(sql, (channel_id,)))

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + (
            " WHERE channel_id = ? AND status != 'running' ORDER BY updated_at DESC, id DESC"
            " LIMIT 1"
        )
        return _row(GameRow, await self._fetch_one(sql, (channel_id,)))

    async def running_games(self) -> list[GameRow]:
        """Every running game (for start-up work such as the computer's pending replies)."""
        sql = _select(GameRow, "games") + " WHERE status = 'running' ORDER BY id"
        return [GameRow(*row) for row in await self._fetch_all(sql)]

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        """Running games of one server (``None``: games outside any server, e.g. DMs)."""
        sql = _select(GameRow, "games") + " WHERE status = 'running' AND guild_id IS ? ORDER BY id"
        return [GameRow(*row) for row in await self._fetch_all(sql, (guild_id,))]

    async def computer_games_waiting(self) -> list[GameRow]:
        """Running games against the computer where nobody's clock runs: the computer's turn."""
        sql = _select(GameRow, "games") + (
            " WHERE status = 'running' AND computer_id IS NOT NULL AND deadline IS NULL ORDER BY id"
        )
        return [GameRow(*row) for row in await self._fetch_all(sql)]

    async def moves(self, game_id: int) -> list[MoveRow]:
        sql = _select(MoveRow, "moves") + " WHERE game_id = ? ORDER BY ply"
        return [MoveRow(*row) for row in await self._fetch_all(sql, (game_id,))]

    @_shielded
    async def update_game(
        self,
        game_id: int,
        version: int,
        changes: dict[str, Any],
        move: tuple[int, str, str, int, float] | None = None,
    ) -> bool:
        """Apply ``changes`` (and append ``move``: ply, pdn, fen after, user, time) in one
        transaction if the game is still at ``version``; False, with nothing written, if
        something else changed it first."""
        assignments = ", ".join(f"{column} = ?" for column in changes)
        try:
            async with self.transaction() as db:
                cursor = await db.execute(
                    f"UPDATE games SET {assignments}, version = version + 1 "
                    "WHERE id = ? AND version = ?",
                    (*changes.values(), game_id, version),
                )
                if cursor.rowcount != 1:
                    raise _Stale
                if move is not None:
                    await db.execute(
                        "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, *move),
                    )
        except _Stale:
            return False
        return True

    async def due_games(self, now: float) -> tuple[list[GameRow], list[GameRow]]:
        """Running games whose deadline has passed, and those due a half-time reminder."""
        timeouts = await self._fetch_all(
            _select(GameRow, "games")
            + " WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= ? ORDER BY id",
            (now,),
        )
        reminders = await self._fetch_all(
            _select(GameRow, "games")
            + " WHERE status = 'running' AND remind_at IS NOT NULL AND remind_at <= ?"
            " AND (deadline IS NULL OR deadline > ?) ORDER BY id",
            (now, now),
        )
        return [GameRow(*row) for row in timeouts], [GameRow(*row) for row in reminders]


class _Stale(Exception):
    """The guarded row changed since it was read (rolls the transaction back)."""


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]


def now() -> float:
    """Wall-clock seconds; deadlines are stored as such so they survive restarts."""
    return time.time()
