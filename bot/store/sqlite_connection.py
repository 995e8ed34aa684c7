"""SQLite behind :class:`~bot.store.dialect.Database`: one aiosqlite connection, configured for
durability, serialised by a lock.

Durability: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives the process
being killed at any point; only a power cut can lose the last commits), foreign keys on, and a
busy timeout so a second connection waits instead of failing.

The connection is shared by every coroutine of the process, so access is serialised by one
:class:`asyncio.Lock`: a transaction holds it from ``BEGIN IMMEDIATE`` to ``COMMIT`` and reads
take it too, so no coroutine ever starts a transaction inside another's or reads its uncommitted
rows.  SQLite has one writer at a time, so rows need no ``FOR UPDATE`` and names no locks.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .dialect import Params
from .errors import StoreError
from .sql_writes import domain_refusal

PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)
"""Set on the connection when it opens (WAL is also a property of the file)."""

UNIQUE_INDEXES = {
    "games.channel_id": "games_one_running_per_channel",
    "challenges.challenger_id, challenges.channel_id": "challenges_one_open",
}
"""SQLite names a violated unique index by its columns (``UNIQUE constraint failed:
games.channel_id``): the index each list of columns stands for."""


def violated_index(error: sqlite3.IntegrityError) -> str | None:
    """The unique index of the schema an integrity error names, if any."""
    text = str(error)
    return next((index for columns, index in UNIQUE_INDEXES.items() if columns in text), None)


class SqliteTransaction:
    """The connection inside ``BEGIN IMMEDIATE`` (:meth:`SqliteConnection.transaction`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        """The aiosqlite connection itself, for migrations and checks that speak SQLite."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            await self.connection.executemany(sql, rows)

    async def fetchrow(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self.connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def insert(self, sql: str, params: Params) -> int:
        cursor = await self.connection.execute(sql, params)
        return int(cursor.lastrowid or 0)

    async def lock_names(self, names: Sequence[str]) -> None:
        """Nothing to take: ``BEGIN IMMEDIATE`` holds the database's one write lock already."""


class SqliteConnection:
    """One configured aiosqlite connection; :meth:`open` it."""

    row_lock = ""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self._transaction = SqliteTransaction(db)

    @classmethod
    async def open(cls, path: Path) -> SqliteConnection:
        """Connect to ``path`` (``:memory:`` too) and set :data:`PRAGMAS`; :class:`StoreError`
        if the file cannot be opened."""
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        try:
            for pragma in PRAGMAS:
                await db.execute(pragma)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception (including
        cancellation), so a change lands whole or not at all; a unique index that means
        something to players refuses as its domain error."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._transaction
            except BaseException as exc:
                await self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise domain_refusal(violated_index(exc), exc) from None
                raise
            await self._db.execute("COMMIT")

    async def fetchrow(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
