"""Pytest fixtures for a real PostgreSQL server (see ``tests/support/pg_server.py``).

Import them into ``tests/conftest.py``::

    from support.pg_fixtures import pg_dsn, pg_server  # noqa: F401  (fixtures)

``pg_server`` is session-scoped: one ``initdb`` and server start (about a second) for the whole
run, and only in a run that has a test asking for it. ``pg_dsn`` gives every test its own new,
empty database on that server and drops it afterwards, so tests stay independent without paying
for a server each. A machine with no server binaries at all fails these tests with a message
saying how to get some, rather than skipping them: a skipped PostgreSQL run would look green.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from support.pg_server import PostgresServer


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: ``pg_server.dsn`` (superuser, ``postgres`` database),
    ``pg_server.dsn_for(name)``, ``async with pg_server.fresh_database() as dsn``. Started
    synchronously (no event loop needed at session scope), stopped and deleted at the end."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_dsn(pg_server: PostgresServer) -> AsyncIterator[str]:
    """The DSN of a new, empty database for this test
    (``postgresql://postgres@127.0.0.1:PORT/test_<hex>``), dropped after it even if the test
    left connections open."""
    async with pg_server.fresh_database() as dsn:
        yield dsn
