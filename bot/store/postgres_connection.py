"""PostgreSQL behind :class:`~bot.store.dialect.Database`: an asyncpg pool, the store's SQL
rendered with ``$n`` placeholders, row counts read from command statuses, new ids from
``RETURNING``, named locks as transaction-scoped advisory locks, and unique violations named by
their index.

Concurrency: each write is one transaction of one pooled connection at PostgreSQL's default
isolation (read committed).  The second of two racing writers of a game waits for the first's
row lock, then finds the new version and matches nothing; a row read to be updated is read
``FOR UPDATE``; the partial unique indexes decide races between processes.

Time: a read or a transaction gets :data:`OPERATION_SECONDS`, waiting for a pooled connection
included, and each statement is also cut off by the server (``statement_timeout``, set on every
pooled connection) and by asyncpg (``command_timeout``, for a server that does not answer at
all).  A statement cut off, or a connection lost, raises :class:`StoreUnavailable`: the player
is told to try again in a moment, instead of waiting for an answer that never comes.

asyncpg has no type information, so connections are seen through :class:`Connection`, the few
methods used here, typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import asyncpg

from .dialect import Params
from .errors import StoreUnavailable
from .sql_writes import domain_refusal

OPERATION_SECONDS = 8.0
"""How long one read or one transaction may take, waiting for a pooled connection included.
Long enough for a row lock held by another writer for a few seconds (the player has been shown
"thinking…" meanwhile), short enough that a hung server is answered with "try again" rather
than with nothing."""
STATEMENT_TIMEOUT = f"{round(OPERATION_SECONDS * 1000) - 500}"
"""The server's own limit on one statement, in milliseconds, just under
:data:`OPERATION_SECONDS`: a statement waiting on a lock is cancelled by the server itself and
the connection stays usable (the client's limit is for a server that does not answer at all)."""
CONNECT_SECONDS = 5.0
"""How long opening one connection to the server may take."""
CLOSE_SECONDS = 1.0
"""How long closing waits for the server before the connections are dropped instead."""
SERVER_SETTINGS = {"application_name": "draughts-bot", "statement_timeout": STATEMENT_TIMEOUT}
"""Set on every pooled connection when it opens."""

UNAVAILABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.LockNotAvailableError,
    asyncpg.TooManyConnectionsError,
)
"""What a server that is hung, slow, restarting or gone raises: no answer in time (ours or the
server's ``statement_timeout``, a ``QueryCanceledError``), a connection refused, reset or ended
by the server (a restart, ``pg_terminate_backend``), a lock not granted, no free connection."""


def unavailable(error: BaseException, seconds: float) -> StoreUnavailable:
    """The :class:`StoreUnavailable` saying what ``error`` means, in one line."""
    if isinstance(error, TimeoutError):
        return StoreUnavailable(f"PostgreSQL did not answer within {seconds:g} s")
    return StoreUnavailable(f"PostgreSQL is unavailable: {type(error).__name__}: {error}")


NAMED_LOCKS = 0x4C44  # "LD": first written for the ladder rows of a rated game
"""The class (first key) of the two-key advisory locks :meth:`PostgresTransaction.lock_names`
takes; the second key is the name's hash."""


class Connection(Protocol):
    """The methods of an ``asyncpg.Connection`` (or pool) used here."""

    async def execute(self, query: str, *args: Any) -> str: ...

    async def executemany(self, command: str, args: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, query: str, *args: Any) -> list[Any]: ...

    async def fetchrow(self, query: str, *args: Any) -> Any: ...

    async def fetchval(self, query: str, *args: Any) -> Any: ...


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders written ``$1``, ``$2``, ... (the store's statements
    hold no ``?`` anywhere else).  Cached: the statements are a small set, and asyncpg keeps a
    prepared statement per text."""
    first, *rest = sql.split("?")
    return first + "".join(f"${n}{part}" for n, part in enumerate(rest, start=1))


def affected(status: str) -> int:
    """The row count of a command's status (``UPDATE 1``, ``DELETE 3``, ``INSERT 0 1``)."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresTransaction:
    """One pooled connection inside ``BEGIN`` (:meth:`PostgresConnection.transaction`)."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        return affected(await self._connection.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            await self._connection.executemany(numbered(sql), rows)

    async def fetchrow(self, sql: str, params: Params = ()) -> Any:
        return await self._connection.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return list(await self._connection.fetch(numbered(sql), *params))

    async def insert(self, sql: str, params: Params) -> int:
        return int(await self._connection.fetchval(numbered(sql + " RETURNING id"), *params))

    async def lock_names(self, names: Sequence[str]) -> None:
        for name in names:
            await self._connection.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))", NAMED_LOCKS, name
            )


class PostgresConnection:
    """An asyncpg pool (made by :meth:`bot.store.postgres.PostgresStore.open`) whose every use
    ends within ``deadline`` seconds (:data:`OPERATION_SECONDS`)."""

    row_lock = " FOR UPDATE"

    def __init__(self, pool: Any, deadline: float = OPERATION_SECONDS) -> None:
        self.pool = pool
        self.deadline = deadline

    async def close(self) -> None:
        """Close the pool once its connections are back, or drop them after
        :data:`CLOSE_SECONDS` (a hung server never acknowledges a polite close)."""
        with contextlib.suppress(TimeoutError, *UNAVAILABLE):
            await asyncio.wait_for(self.pool.close(), CLOSE_SECONDS)
        self.pool.terminate()

    def abandon(self) -> None:
        """Drop every connection now, without waiting for anything (a shutdown out of time)."""
        self.pool.terminate()

    @asynccontextmanager
    async def _connection(self, seconds: float) -> AsyncIterator[Any]:
        """A pooled connection, used for at most ``seconds`` (waiting for it included); a
        timeout or a lost connection leaves as :class:`StoreUnavailable`.  A connection whose
        statement was cut off (by a timeout, a cancellation, the server) is dropped rather than
        given back: asyncpg would wait for the server to acknowledge the cancel first, and a
        hung server never does.  The pool's check of a connection given back is bounded too."""
        deadline = asyncio.get_running_loop().time() + seconds
        try:
            async with asyncio.timeout_at(deadline):
                connection = await self.pool.acquire(timeout=seconds)
        except UNAVAILABLE as exc:
            raise unavailable(exc, seconds) from exc
        try:
            async with asyncio.timeout_at(deadline):
                yield connection
        except BaseException as exc:
            if isinstance(exc, (asyncio.CancelledError, *UNAVAILABLE)):
                with contextlib.suppress(asyncpg.InterfaceError):  # the pool was terminated
                    connection.terminate()
            if isinstance(exc, UNAVAILABLE):
                raise unavailable(exc, seconds) from exc
            raise
        finally:
            # A failed check drops the connection; a terminated pool has taken it back.
            with contextlib.suppress(asyncpg.InterfaceError, *UNAVAILABLE):
                await self.pool.release(connection, timeout=CLOSE_SECONDS)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        """One connection of the pool inside ``BEGIN`` ... ``COMMIT``, rolled back on any
        exception, so a change lands whole or not at all (a connection cut off mid-way is
        dropped, and the server rolls back what it had); a unique index that means something
        to players refuses as its domain error (PostgreSQL names the violated index itself)."""
        async with self._connection(self.deadline) as connection:
            transaction = connection.transaction()
            await transaction.start()
            try:
                yield PostgresTransaction(connection)
            except asyncpg.UniqueViolationError as exc:
                await transaction.rollback()
                raise domain_refusal(exc.constraint_name, exc) from None
            except BaseException as exc:
                if not isinstance(exc, (asyncio.CancelledError, *UNAVAILABLE)):
                    await transaction.rollback()
                raise
            await transaction.commit()

    async def fetchrow(self, sql: str, params: Params = ()) -> Any:
        async with self._connection(self.deadline) as connection:
            return await connection.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        async with self._connection(self.deadline) as connection:
            return list(await connection.fetch(numbered(sql), *params))
