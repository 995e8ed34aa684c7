"""The SQLite implementation of :class:`~bot.store.protocol.Store` (aiosqlite), the default.

The queries are :class:`~bot.store.sql_store.SqlStore`'s, on one connection
(:mod:`bot.store.sqlite_connection`: durability settings, the lock that serialises it).  This
module opens the file and brings its schema up to date: the schema and its migrations are in
:mod:`bot.store.sqlite_schema`, a file written by a newer version of the bot is refused with
:class:`SchemaTooNewError` rather than misread, and an older one is copied aside first
(:mod:`bot.store.sqlite_backup`).  One process alone opens the file (:mod:`bot.store.sqlite_guard`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from .errors import SchemaTooNewError
from .shards import Shards
from .sql_store import SqlStore
from .sqlite_connection import SqliteConnection
from .sqlite_schema import SCHEMA_VERSION, migrations_after


class SqliteStore(SqlStore):
    """The store on one SQLite file.  Use :meth:`open`."""

    def __init__(self, connection: SqliteConnection, path: Path) -> None:
        super().__init__(connection)
        self._connection = connection
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating the directory and file if needed), configure and migrate."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await SqliteConnection.open(path)
        store = cls(connection, path)
        try:
            await store._migrate()
        except BaseException:
            await connection.close()
            raise
        return store

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
        for number, statements in migrations_after(version):
            async with self.transaction() as db:
                for statement in statements:
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` on the connection itself (for migrations and
        checks that speak SQLite), rolled back on any exception."""
        async with self._connection.transaction() as db:
            yield db.connection

    async def own_shards(self, shards: Shards) -> Shards:
        """All of them: one process alone opens the file (:mod:`bot.store.sqlite_guard`)."""
        return shards

    def shards_elsewhere(self, shards: Shards) -> Shards:
        """None: no other process can open the file."""
        return shards.none()

    async def schema_version(self) -> int:
        row = await self._connection.fetchrow("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        row = await self._connection.fetchrow("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"
