"""What the shared SQL store (:mod:`bot.store.sql_store`) asks of a database backend.

The store's transactions are written once, in one SQL form: ``?`` placeholders, standard
``ON CONFLICT`` upserts, ``<>``, explicit ``CAST``s where a parameter's type cannot be inferred,
aliased subqueries.  SQLite 3.30 and PostgreSQL 15 both run that form; what still differs is behind
these two protocols, one implementation per backend (:mod:`bot.store.sqlite_connection`,
:mod:`bot.store.postgres_connection`): how placeholders are written (``?`` or ``$1``), how an
``INSERT`` tells the new row's id (last row id or ``RETURNING``), the row count of a command,
which exception a unique index raises and how it names the index, named locks, ``FOR UPDATE``,
and how a transaction begins and ends.  No driver is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

Params = Sequence[Any]
"""The values for a statement's ``?`` placeholders, in order."""


class Transaction(Protocol):
    """A connection inside one transaction: every statement lands with the others or none does."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row (none: nothing is sent)."""
        ...

    async def fetchrow(self, sql: str, params: Params = ()) -> Sequence[Any] | None:
        """The first row of a query, or None."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        """Every row of a query (a tournament's players and pairings, read under its lock)."""
        ...

    async def insert(self, sql: str, params: Params) -> int:
        """Run an ``INSERT`` of one row into a table with an ``id`` key; the new row's id."""
        ...

    async def lock_names(self, names: Sequence[str]) -> None:
        """Hold a lock on each name until the transaction ends, taken in the order given, so
        that two writers of the same names are applied in turn (nothing where the database has
        a single writer already)."""
        ...


class Database(Protocol):
    """One backend's connection (or pool) and its dialect."""

    row_lock: str
    """Appended to a ``SELECT`` whose rows the transaction will update (``" FOR UPDATE"`` where
    writers run concurrently, ``""`` where the database has one writer)."""

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """``BEGIN`` ... ``COMMIT``, rolled back on any exception (cancellation included); a
        violated unique index that means something to players leaves as its domain error
        (:func:`bot.store.sql_writes.domain_refusal`), other driver errors as they are."""
        ...

    async def fetchrow(self, sql: str, params: Params = ()) -> Sequence[Any] | None:
        """The first row of a query run outside any transaction, or None."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        """Every row of a query run outside any transaction."""
        ...

    async def close(self) -> None: ...

    def abandon(self) -> None:
        """Drop the connections now, waiting for nothing (a shutdown that ran out of time); the
        statements still running fail."""
        ...
