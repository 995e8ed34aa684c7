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
"""

from __future__ import annotations

import os
import re
import uuid
from urllib.parse import parse_qs, urlsplit

import asyncpg

from support.pg_server import PostgresServer

_OWN_DATABASES: dict[tuple[int, int], str] = {}
"""(server port, process id) -> the name of this process's database on that server."""


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


async def _own_database(server: PostgresServer) -> str:
    key = (server.port, os.getpid())
    name = _OWN_DATABASES.get(key)
    if name is None:
        name = await server.create_database(f"process_{os.getpid()}")
        _OWN_DATABASES[key] = name
    return name
