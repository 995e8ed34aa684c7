"""Which process owns which shard, decided by PostgreSQL: session advisory locks.

Each process is configured for some shards (``SHARD_IDS``), but configurations overlap while a
new version starts beside the old one, or by mistake; two owners of a shard would both time its
games out and both post its owed announcements.  So a process does a shard's background work only
while it holds the shard's advisory lock, taken on a connection of its own and held for as long
as that connection lives.  PostgreSQL releases a session's locks the moment the session ends, so
a process killed with ``kill -9`` (its socket closed by the kernel) frees its shards at once for
its restart, with no lease to wait out.

Every process also holds a shared lock on its ``SHARD_COUNT``: shards of different counts cover
the same servers differently, so a process whose count differs from a running one's takes no shard
at all (and says so) until the other stops.

Discord sends a shard's interactions to every process connected for it, so the shards another
process is known to hold (:meth:`ShardLocks.elsewhere`) are also those whose interactions this
one leaves unanswered: their owner answers them (:mod:`bot.ui.shard_gate`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg

from .postgres_connection import CLOSE_SECONDS, CONNECT_SECONDS, OPERATION_SECONDS
from .shards import Shards

log = logging.getLogger(__name__)

SHARD_SPACE = 0x64726175
"""The first key of the shard locks (``"drau"``), so they cannot meet another application's
advisory locks in a shared database.  The second key is the shard number."""
COUNT_SPACE = SHARD_SPACE + 1
"""The first key of the shard-count locks; the second key is the count."""
GATE_SPACE = SHARD_SPACE + 2
"""The first key of the lock under which a process compares its count with the others'."""
LOST = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,  # a query on a session the server has just ended
)
"""What a lost or refused session raises (the shards are then owned by nobody here)."""

OTHER_COUNT = (
    "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
    " AND classid::bigint = $1 AND objid::bigint <> $2 AND granted AND pid <> pg_backend_pid()"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1"
)
"""A count held by another session of this database (advisory locks belong to a database)."""


class ShardLocks:
    """The shards this process owns, held on one connection (opened on first use)."""

    def __init__(self, dsn: str, connect: Any = asyncpg.connect) -> None:
        self._dsn = dsn
        self._connect = connect
        self._conn: Any = None
        self._count: int | None = None
        self._held: set[int] = set()
        self._lock = asyncio.Lock()
        self._refused_count: int | None = None
        self._elsewhere: frozenset[int] = frozenset()
        self._closed = False

    async def own(self, wanted: Shards) -> Shards:
        """Take the locks of ``wanted`` not held yet and check the held ones are still held (the
        connection alive); the shards owned now.  Never raises: an unreachable server means
        owning nothing until the next call."""
        async with self._lock:
            if self._closed:
                return wanted.none()
            try:
                return await self._own(wanted)
            except LOST as exc:
                if self._held:
                    log.warning(
                        "lost the database connection holding %s: %s",
                        self._owned(),
                        str(exc) or type(exc).__name__,
                    )
                self.abandon()
                return wanted.none()

    def elsewhere(self, wanted: Shards) -> Shards:
        """Of ``wanted``, the shards another process held at the last :meth:`own` (its lock
        refused, or every one while another ``SHARD_COUNT`` runs), and all of them once this
        process has let its shards go (:meth:`close`: they may be the next process's already).
        None when the database could not say: this process then answers as if alone."""
        if self._closed:
            return wanted
        return Shards(wanted.count, self._elsewhere & wanted.ids)

    async def _own(self, wanted: Shards) -> Shards:
        if self._conn is not None and self._conn.is_closed():
            # The locks went with the session: another process may have run these shards
            # since, so this call owns nothing and the next one starts afresh.
            if self._held:
                log.warning("the database session holding %s ended", self._owned())
            self.abandon()
            return wanted.none()
        self._elsewhere = frozenset()  # known again once the server has answered below
        if self._conn is None:
            self._conn = await self._connect(
                self._dsn,
                server_settings={"application_name": "draughts-bot shards"},
                timeout=CONNECT_SECONDS,
                command_timeout=OPERATION_SECONDS,  # a hung server: owning nothing, not hanging
            )
        conn = self._conn
        if self._count != wanted.count:
            await self._release()
            if not await self._join(conn, wanted.count):
                self._elsewhere = wanted.ids
                return wanted.none()
        for shard in sorted(wanted.ids - self._held):
            if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_SPACE, shard):
                self._held.add(shard)
                log.info("now serving shard %d of %d", shard, wanted.count)
        if wanted.ids <= self._held:
            await conn.fetchval("SELECT 1")  # the locks live as long as this connection
        self._elsewhere = wanted.ids - self._held
        return Shards(wanted.count, frozenset(self._held & wanted.ids))

    async def _join(self, conn: Any, count: int) -> bool:
        """Hold the shared lock of ``count`` unless a process holds another count's."""
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", GATE_SPACE)
            other = await conn.fetchval(OTHER_COUNT, COUNT_SPACE, count)
            if other is not None:
                if self._refused_count != other:
                    log.error(
                        "another process runs with SHARD_COUNT=%s, this one with %s: this one "
                        "takes no shard until every process has the same count",
                        other,
                        count,
                    )
                self._refused_count = int(other)
                return False
            await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", COUNT_SPACE, count)
        self._count = count
        self._refused_count = None
        return True

    def _owned(self) -> Shards:
        return Shards(self._count or 1, frozenset(self._held))

    async def _release(self) -> None:
        """Give up every lock (the count changed: a test's or an operator's new setting)."""
        if self._conn is not None and (self._held or self._count is not None):
            await self._conn.execute("SELECT pg_advisory_unlock_all()")
        self._held.clear()
        self._count = None

    def abandon(self) -> None:
        """Forget the shards and drop the session at once (the server releases its locks when
        it notices)."""
        conn, self._conn = self._conn, None
        self._held.clear()
        self._elsewhere = frozenset()
        self._count = None
        if conn is not None:
            conn.terminate()

    async def close(self) -> None:
        """Let the shards go (closing the session releases its locks), for good; a session
        that does not close within :data:`CLOSE_SECONDS` (a hung server, or a check still
        waiting on it) is dropped."""
        self._closed = True  # from now on every shard may be the next process's
        with contextlib.suppress(*LOST):
            async with asyncio.timeout(CLOSE_SECONDS), self._lock:
                if self._conn is not None:
                    await self._conn.close()
        self.abandon()
