"""Pytest fixtures for a real PostgreSQL server (see ``tests/support/pg_server.py``).

Import them into ``tests/conftest.py``::

    from support.pg_fixtures import pg_dsn, pg_server, pytest_configure_node  # noqa: F401

``pg_server`` is session-scoped: one ``initdb`` and server start (about a second) for the whole
run, and only in a run that has a test asking for it. ``pg_dsn`` gives every test its own new,
empty database on that server and drops it afterwards, so tests stay independent without paying
for a server each. A machine with no server binaries at all fails these tests with a message
saying how to get some, rather than skipping them: a skipped PostgreSQL run would look green.

With pytest-xdist (``-n 2``) the run is still one server: the controller starts it as it sets up
its first worker (:func:`pytest_configure_node`) and hands each worker its address, the workers
attach to it (:meth:`PostgresServer.attach`), and the controller stops it at the end.  Each test
still gets its own database; their names are random, so workers never meet.  (The service and
end-to-end tests take a schema instead, in a database of their worker's: ``support.pg_schemas``.)
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from support.pg_server import PostgresServer

SHARED = "pg_server"
"""The key of the controller's server in each xdist worker's ``workerinput``."""


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(xdist's controller) Start the run's one server before the first worker, and tell every
    worker where it is; it is stopped when the controller's configuration ends."""
    config: pytest.Config = node.config
    server: PostgresServer | None = getattr(config, "_shared_pg_server", None)
    if server is None:
        server = PostgresServer()
        server.start()
        config._shared_pg_server = server  # type: ignore[attr-defined]
        config.add_cleanup(server.stop)
    node.workerinput[SHARED] = json.dumps(server.shared())


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: ``pg_server.dsn`` (superuser, ``postgres`` database),
    ``pg_server.dsn_for(name)``, ``async with pg_server.fresh_database() as dsn``. Started
    synchronously (no event loop needed at session scope), stopped and deleted at the end; in an
    xdist worker, the controller's (attached, not stopped here)."""
    shared = getattr(request.config, "workerinput", {}).get(SHARED)
    server = PostgresServer.attach(json.loads(shared)) if shared else PostgresServer()
    if not shared:
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
