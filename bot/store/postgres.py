"""The PostgreSQL implementation of :class:`~bot.store.protocol.Store` (asyncpg), for several
bot processes sharing one database server; chosen by a ``postgresql://`` location.

The queries are :class:`~bot.store.sql_store.SqlStore`'s, on a pool
(:mod:`bot.store.postgres_connection`: placeholders, row counts, advisory locks on a rated
game's ladder rows, ``FOR UPDATE``), so read-then-write steps are applied in turn as SQLite's
single writer applies them.  The partial unique indexes (one running game per channel, one open
challenge per challenger and channel) decide races between processes.

This module opens the pool and brings the schema up to date: the migrations are in
:mod:`bot.store.postgres_schema`, applied at start-up under an advisory lock; a database written
by a newer version of the bot is refused with :class:`SchemaTooNewError`.  Shards: each shard's
background work has one owner process at a time, held by advisory locks
(:mod:`bot.store.postgres_shards`).  asyncpg's exceptions stay in the PostgreSQL modules.
"""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg

from .addresses import redact_url
from .errors import StoreError
from .postgres_connection import (
    CONNECT_SECONDS,
    OPERATION_SECONDS,
    SERVER_SETTINGS,
    PostgresConnection,
)
from .postgres_schema import READ_VERSION, SCHEMA_VERSION, migrate
from .postgres_shards import ShardLocks
from .shards import Shards
from .sql_store import SqlStore

POOL_SIZE = (0, 10)
"""The pool's fewest and most connections per process: none kept open for their own sake
(asyncpg would otherwise retry the missing one in the background, with a traceback each time,
while the server is down), up to asyncpg's default of ten (a move holds one for a few
milliseconds, and PostgreSQL's own limit, 100 by default, is shared by every process)."""

UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What connecting can raise: refused or unresolvable, too slow, the server's refusal (no such
database, wrong password), or a malformed address."""


class PostgresStore(SqlStore):
    """The store on a PostgreSQL server.  Use :meth:`open`."""

    def __init__(self, connection: PostgresConnection, dsn: str) -> None:
        super().__init__(connection)
        self._connection = connection
        self.dsn = dsn
        self._shard_locks = ShardLocks(dsn)

    @classmethod
    async def open(cls, dsn: str) -> PostgresStore:
        """Connect (a pool) and migrate; :class:`StoreError` if the server cannot be reached."""
        where = redact_url(dsn)
        try:
            await _migrate(dsn, where)
            pool = await asyncpg.create_pool(
                dsn,
                min_size=POOL_SIZE[0],
                max_size=POOL_SIZE[1],
                timeout=CONNECT_SECONDS,
                command_timeout=OPERATION_SECONDS,
                server_settings=SERVER_SETTINGS,
            )
        except UNREACHABLE as exc:
            raise StoreError(f"cannot open the database {where}: {exc}") from exc
        return cls(PostgresConnection(pool), dsn)

    async def close(self) -> None:
        await self._shard_locks.close()
        await super().close()

    def abandon(self) -> None:
        self._shard_locks.abandon()
        super().abandon()

    async def own_shards(self, shards: Shards) -> Shards:
        """Held by advisory locks (:mod:`bot.store.postgres_shards`): processes share the
        server, so each shard has one owner at a time."""
        return await self._shard_locks.own(shards)

    def shards_elsewhere(self, shards: Shards) -> Shards:
        return self._shard_locks.elsewhere(shards)

    async def schema_version(self) -> int:
        await self.orphans.settled()
        return int(await self._connection.pool.fetchval(READ_VERSION))

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


async def _migrate(dsn: str, where: str) -> None:
    """Bring the schema up to date on a connection of its own, without the pool's time limits
    (a migration may rewrite a large table); :class:`StoreError` if it fails."""
    conn = await asyncpg.connect(
        dsn, timeout=CONNECT_SECONDS, server_settings={"application_name": "draughts-bot"}
    )
    try:
        async with conn.transaction():
            await migrate(conn, where)
    except asyncpg.PostgresError as exc:
        raise StoreError(f"cannot migrate the database {where}: {exc}") from exc
    finally:
        with contextlib.suppress(*UNREACHABLE):  # a failed close has dropped the connection
            await conn.close(timeout=CONNECT_SECONDS)
