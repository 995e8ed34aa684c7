"""The pool of migrated PostgreSQL schemas (``tests/support/pg_schemas.py``) that the service and
end-to-end tests open their stores on: a schema given back comes out again exactly as a fresh
migration leaves one (no rows but the versions, ids from 1), and one whose structure a test
changed is never handed out again."""

from __future__ import annotations

import asyncpg
from support.pg_schemas import migrated_schema, release_schema
from support.pg_server import PostgresServer
from support.service_harness import Clock, opened, start

from bot.store.postgres_schema import SCHEMA_VERSION

ROWS = """
SELECT c.relname, (xpath('/row/n/text()',
       query_to_xml(format('SELECT count(*) AS n FROM %I', c.relname), false, true, '')))[1]::text
  FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
"""


async def rows(dsn: str) -> dict[str, int]:
    conn = await asyncpg.connect(dsn)
    try:
        return {name: int(count) for name, count in await conn.fetch(ROWS)}
    finally:
        await conn.close()


async def test_a_schema_given_back_is_as_a_fresh_migration_leaves_it(
    pg_server: PostgresServer,
) -> None:
    dsn = await migrated_schema(pg_server, "pooled")
    fresh = await rows(dsn)
    assert fresh["schema_version"] > 0 and sum(fresh.values()) == fresh["schema_version"]
    clock = Clock()
    async with opened(dsn, clock) as service:
        first = (await start(service)).id
    assert sum((await rows(dsn)).values()) > sum(fresh.values())  # the game left rows
    await release_schema(pg_server, dsn)

    again = await migrated_schema(pg_server, "pooled")
    assert again == dsn  # the same schema, reused
    assert await rows(again) == fresh
    async with opened(again, clock) as service:
        assert await service.store.schema_version() == SCHEMA_VERSION
        assert (await start(service)).id == first  # ids start where they did
    await release_schema(pg_server, again)


async def test_a_schema_whose_structure_changed_is_dropped(pg_server: PostgresServer) -> None:
    dsn = await migrated_schema(pg_server, "changed")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("CREATE INDEX games_junk ON games (id DESC)")
    finally:
        await conn.close()
    await release_schema(pg_server, dsn)

    assert await migrated_schema(pg_server, "changed") != dsn
    schema = dsn.rsplit("search_path=", 1)[1]
    conn = await asyncpg.connect(dsn.split("?", 1)[0])
    try:
        assert (
            await conn.fetchval("SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema) == 0
        )
    finally:
        await conn.close()
