"""PostgreSQL behind :class:`~bot.store.dialect.Database`: an asyncpg pool, the store's SQL
rendered with ``$n`` placeholders, row counts read from command statuses, new ids from
``RETURNING``, named locks as transaction-scoped advisory locks, and unique violations named by
their index.

Concurrency: each write is one transaction of one pooled connection at PostgreSQL's default
isolation (read committed).  The second of two racing writers of a game waits for the first's
row lock, then finds the new version and matches nothing; a row read to be updated is read
``FOR UPDATE``; the partial unique indexes decide races between processes.

asyncpg has no type information, so connections are seen through :class:`Connection`, the few
methods used here, typed.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import asyncpg

from .dialect import Params
from .sql_writes import domain_refusal

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

    async def insert(self, sql: str, params: Params) -> int:
        return int(await self._connection.fetchval(numbered(sql + " RETURNING id"), *params))

    async def lock_names(self, names: Sequence[str]) -> None:
        for name in names:
            await self._connection.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))", NAMED_LOCKS, name
            )


class PostgresConnection:
    """An asyncpg pool (made by :meth:`bot.store.postgres.PostgresStore.open`)."""

    row_lock = " FOR UPDATE"

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        """One connection of the pool inside ``BEGIN`` ... ``COMMIT``, rolled back on any
        exception (including cancellation), so a change lands whole or not at all; a unique
        index that means something to players refuses as its domain error (PostgreSQL names
        the violated index itself)."""
        try:
            async with self.pool.acquire() as connection, connection.transaction():
                yield PostgresTransaction(connection)
        except asyncpg.UniqueViolationError as exc:
            raise domain_refusal(exc.constraint_name, exc) from None

    async def fetchrow(self, sql: str, params: Params = ()) -> Any:
        return await self.pool.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return list(await self.pool.fetch(numbered(sql), *params))
