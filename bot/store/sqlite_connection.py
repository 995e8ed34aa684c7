"""SQLite behind :class:`~bot.store.dialect.Database`: one aiosqlite connection, configured for
durability, serialised by a lock.

Durability: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives the process
being killed at any point; only a power cut can lose the last commits), foreign keys on, and a
busy timeout so a second connection waits instead of failing.

The connection is shared by every coroutine of the process, so access is serialised by one
:class:`asyncio.Lock`: a transaction holds it from ``BEGIN IMMEDIATE`` to ``COMMIT`` and reads
take it too, so no coroutine ever starts a transaction inside another's or reads its uncommitted
rows.  SQLite has one writer at a time, so rows need no ``FOR UPDATE`` and names no locks.

Time: a statement waits at most the busy timeout (:data:`BUSY_SECONDS`) for another connection's
lock (a backup, an operator's ``sqlite3`` shell); past it the database is "locked", which leaves
as :class:`StoreUnavailable`, as a PostgreSQL server that does not answer does.  Waits on the
process's own lock are bounded by those of the statements ahead.
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
from .errors import StoreError, StoreUnavailable
from .sql_writes import domain_refusal

BUSY_SECONDS = 5
"""How long a statement waits for another connection's lock before the database is "locked"."""
PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}",
)
"""Set on the connection when it opens (WAL is also a property of the file)."""

UNIQUE_INDEXES = {
    "games.channel_id": "games_one_running_per_channel",
    "challenges.challenger_id, challenges.channel_id": "challenges_one_open",
}
"""SQLite names a violated unique index by its columns (``UNIQUE constraint failed:
games.channel_id``): the index each list of columns stands for."""


def busy(error: sqlite3.OperationalError) -> StoreUnavailable | None:
    """The :class:`StoreUnavailable` a "database is locked" (or busy) error means, else None."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return StoreUnavailable(f"SQLite stayed locked for {BUSY_SECONDS} s: {text}")
    return None


CLOSED = ("Connection closed", "no active connection")
"""What aiosqlite says (as a ``ValueError``) to a statement after the connection was closed."""


@asynccontextmanager
async def busy_as_unavailable() -> AsyncIterator[None]:
    """A lock not granted within the busy timeout, or a connection already dropped (by
    :meth:`SqliteConnection.abandon`), leaves as :class:`StoreUnavailable`."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        raise (busy(exc) or exc) from exc
    except ValueError as exc:
        if str(exc) not in CLOSED:
            raise
        raise StoreUnavailable(f"the SQLite connection is closed: {exc}") from exc


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

    async def fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        async with self.connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

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

    def abandon(self) -> None:
        """Have aiosqlite's thread close the connection after the statement it runs and end (a
        shutdown out of time: that thread, not a daemon, would otherwise keep the process
        alive)."""
        self._db.stop()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception (including
        cancellation), so a change lands whole or not at all; a unique index that means
        something to players refuses as its domain error."""
        async with self._lock, busy_as_unavailable():
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
        async with self._lock, busy_as_unavailable(), self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        async with self._lock, busy_as_unavailable(), self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
