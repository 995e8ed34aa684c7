"""The PostgreSQL schema, as the migrations that build it in order, and applying them at start-up.

The version is kept in a ``schema_version`` table (one row per migration applied).  Versions are
numbered as in :mod:`bot.store.sqlite_schema`, so both backends at version *n* hold the same
tables and columns: PostgreSQL's history starts at version 8, the SQLite schema's version when
this backend arrived, created whole from the shared description (:mod:`bot.store.schema`); a
later change is a new migration there, which both backends apply.  A migration is never edited
once released.

Several processes may start at once against one database: each takes the same advisory lock in
the transaction that reads the version and applies what is missing, so exactly one of them
migrates and the others then find the schema current.

Column types follow SQLite's: ids and Discord snowflakes are ``BIGINT`` (ids from identity
columns), times ``DOUBLE PRECISION`` (SQLite's ``REAL`` is 8 bytes; PostgreSQL's ``REAL`` is
4), words ``TEXT``, and SQLite's 0/1 flags ``BOOLEAN``.
"""

from __future__ import annotations

from typing import Any, Protocol

from . import schema
from .errors import SchemaTooNewError
from .schema import render

SCHEMA_V8 = render(schema.SCHEMA_V8, "postgresql")
"""v8, created whole: the tables of SQLite's schema v8, with the same names, columns, checks and
partial indexes."""

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (8, SCHEMA_V8),
    *((number, render(sql, "postgresql")) for number, sql in schema.LATER_MIGRATIONS),
)
"""(version, SQL) in order; the database's version is the last one applied."""
SCHEMA_VERSION = MIGRATIONS[-1][0]

MIGRATION_LOCK = 0x6472_6175_6768_7473  # "draughts": one key, shared by every process
"""The advisory lock (PostgreSQL's single 64-bit key space) held while migrating."""

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""
READ_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"


class Connection(Protocol):
    """What migrating needs of a connection (asyncpg's, inside a transaction)."""

    async def execute(self, query: str, *args: Any) -> str: ...

    async def fetchval(self, query: str, *args: Any) -> Any: ...


async def migrate(conn: Connection, where: str) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION` inside the caller's transaction, holding
    :data:`MIGRATION_LOCK` until it ends; the version reached.  :class:`SchemaTooNewError` if a
    newer bot wrote the database (``where`` names it in the message)."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    await conn.execute(VERSION_TABLE)
    version = int(await conn.fetchval(READ_VERSION))
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"{where} has schema version {version}, newer than this bot knows "
            f"({SCHEMA_VERSION}); upgrade the bot"
        )
    for number, sql in MIGRATIONS:
        if number <= version:
            continue
        await conn.execute(sql)
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
        version = number
    return version
