"""A fresh PostgreSQL schema for a test, in a database of the test process's own: what the service
and end-to-end tests use instead of a new database each.

Why: ``CREATE DATABASE`` copies the 7 MB template, and the first connection to the new database
builds its catalog caches; together 0.2-0.4 s on this machine, more under a loaded run, for
each of some 500 PostgreSQL tests of a CI run (a quarter of the non-end-to-end suite's time went
to their setup and teardown).  ``CREATE SCHEMA`` takes a millisecond.  A test's connections use
its schema through the DSN (``?search_path=<schema>``, which asyncpg passes on as a server
setting), so the store, the bot and the tests' own queries see only its tables, as they would
in a database of their own.

What a database of their own gave them that a schema must not take away:

- Advisory locks (shard ownership, migrations) are per database.  The database is one per test
  process (one per xdist worker), whose tests run one at a time, so no other test holds or
  waits for them meanwhile.
- ``DROP DATABASE ... WITH (FORCE)`` ended the connections a test left open (a killed bot's, a
  pool nobody closed).  :func:`drop_schema` ends every connection to the process's database
  first, then drops the schema with all it holds.

Tests about databases themselves (the server, shard ownership across databases, the store
contract) keep real databases (``pg_dsn``, ``PostgresServer.fresh_database``).

Most tests open a store on their schema at once, which migrates it from nothing to the current
version (v8 created whole, then each later migration, two of them rebuilding a table): about
0.1 s of the server's CPU per schema, paid by some 600 schemas a CI run, with its ``DROP
SCHEMA`` after.  :func:`migrated_schema` hands such tests a schema already at the current
version instead, from a pool of the process's own, and :func:`release_schema` puts it back
emptied: every row deleted and every sequence set back where the migration left it, so the
next test finds exactly what a fresh migration leaves (the same tables, columns, indexes and
constraints, no rows but the version's, ids starting at 1).  A schema whose structure a test
changed is dropped instead of reused.  Migrating from nothing stays covered where it is the
subject: the store's contract and PostgreSQL tests (fresh databases), the tests that hand the
store an older schema (:func:`new_schema`), and opening a pooled schema still reads its
version under the migration lock.
"""

from __future__ import annotations

import os
import re
import uuid
from urllib.parse import parse_qs, urlsplit

import asyncpg

from bot.store.postgres_schema import migrate
from support.pg_server import PostgresServer

_OWN_DATABASES: dict[tuple[int, int], str] = {}
"""(server port, process id) -> the name of this process's database on that server."""

_POOLS: dict[tuple[int, int], list[str]] = {}
"""(server port, process id) -> DSNs of this process's migrated, emptied schemas, ready."""

_AS_MIGRATED: dict[str, tuple[str, list[tuple[str, int, bool]]]] = {}
"""DSN of a migrated schema -> what the migration left: its structure's fingerprint, and each
sequence's (name, last value, called)."""

STRUCTURE = """
SELECT md5(string_agg(item, E'\\n' ORDER BY item)) FROM (
    SELECT 'rel ' || c.relname || ' ' || c.relkind::text AS item
      FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT 'col ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0
       AND NOT a.attisdropped
    UNION ALL
    SELECT 'idx ' || pg_get_indexdef(i.indexrelid)
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
     WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT 'con ' || c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT 'version ' || version FROM schema_version
) AS structure
"""
"""One line per relation, column, index, constraint and applied version of the schema, hashed:
equal exactly when a test left the structure as the migration made it."""

SEQUENCES = """
SELECT sequencename, coalesce(last_value, start_value), last_value IS NOT NULL
  FROM pg_sequences WHERE schemaname = current_schema() ORDER BY sequencename
"""


async def new_schema(server: PostgresServer, prefix: str = "test") -> str:
    """A new, empty schema in this process's database (made at the first call): the DSN that
    works in it."""
    database = await _own_database(server)
    name = f"{re.sub(r'[^a-z0-9_]', '_', prefix.lower())}_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(server.dsn_for(database))
    try:
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    return f"{server.dsn_for(database)}?search_path={name}"


async def drop_schema(server: PostgresServer, dsn: str) -> None:
    """End every other connection to the schema's database, then drop the schema of ``dsn``
    (made by :func:`new_schema`) and everything in it."""
    parts = urlsplit(dsn)
    (name,) = parse_qs(parts.query)["search_path"]
    conn = await asyncpg.connect(dsn.split("?", 1)[0])
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


async def migrated_schema(server: PostgresServer, prefix: str = "test") -> str:
    """A schema at the current version with no rows (as the store's migration leaves a new one):
    one from this process's pool, else a new one migrated now; give it back with
    :func:`release_schema`."""
    pool = _POOLS.setdefault((server.port, os.getpid()), [])
    if pool:
        return pool.pop()
    dsn = await new_schema(server, prefix)
    conn = await asyncpg.connect(dsn)
    try:
        async with conn.transaction():
            await migrate(conn, "a pooled test schema")
        sequences = [tuple(row) for row in await conn.fetch(SEQUENCES)]
        _AS_MIGRATED[dsn] = (await conn.fetchval(STRUCTURE), sequences)
    finally:
        await conn.close()
    return dsn


async def release_schema(server: PostgresServer, dsn: str) -> None:
    """End every other connection to the process's database (a killed bot's, a pool left open),
    then put the schema of ``dsn`` (from :func:`migrated_schema`) back in the pool emptied, or
    drop it if its structure is no longer the migration's."""
    structure, sequences = _AS_MIGRATED[dsn]
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        if await conn.fetchval(STRUCTURE) == structure:
            tables = await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " AND tablename <> 'schema_version'"
            )
            async with conn.transaction():
                # Rows go in any order: no foreign key is checked (nor any trigger run) here.
                await conn.execute("SET LOCAL session_replication_role = replica")
                await conn.execute(";".join(f'DELETE FROM "{name}"' for (name,) in tables))
                for name, value, called in sequences:
                    await conn.execute("SELECT setval($1::regclass, $2, $3)", name, value, called)
            _POOLS.setdefault((server.port, os.getpid()), []).append(dsn)
            return
    finally:
        await conn.close()
    del _AS_MIGRATED[dsn]
    await drop_schema(server, dsn)


async def _own_database(server: PostgresServer) -> str:
    key = (server.port, os.getpid())
    name = _OWN_DATABASES.get(key)
    if name is None:
        name = await server.create_database(f"process_{os.getpid()}")
        _OWN_DATABASES[key] = name
    return name
