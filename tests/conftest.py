"""Shared fixtures: the game service on a real database of each store implementation in turn,
with a hand-moved clock (see ``tests/support/service_harness.py``), and for the end-to-end tests
a fake Discord on loopback with the bot launched against it (see
``tests/support/e2e_harness.py``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from support.discord_launcher import GUARD_MARKER, install_network_guard, set_network_guard
from support.e2e_harness import DATABASE_URLS, E2E_DATABASE, BotProcess, Launch, Users, run_sync
from support.fake_discord import FakeDiscord
from support.pg_fixtures import pg_dsn, pg_server, pytest_configure_node  # noqa: F401
from support.pg_schemas import migrated_schema, release_schema
from support.pg_server import PostgresServer
from support.service_harness import Clock, Database, Databases, Services, opened
from support.store_backends import BACKENDS

from bot.service import GameService
from bot.store import Store

# The engine's endgame databases are built in the background at first use (engine/endgame.py):
# not in the test run, which would spend minutes of CPU on them and write to the user's cache;
# tests/engine/test_endgame.py builds small ones of its own in temporary directories.  Bots the
# end-to-end tests launch inherit this.
os.environ["ENGINE_ENDGAME_DIR"] = "off"

# Hypothesis fails an example that takes over 200 ms of wall-clock time, and a strategy that is
# slow to draw from: timings, which a loaded machine or a neighbouring xdist worker stretches
# (a 0.5 s example failed a CI run so). The properties themselves are what the tests check.
settings.register_profile("draughts", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("draughts")

# -- the game service -------------------------------------------------------------------------

SQLITE_ONLY = "sqlite_only"
"""``@pytest.mark.sqlite_only(reason="...")``: a test of the service fixtures that is about the
SQLite file itself (read with sqlite3, backed up, migrated from an old SQLite schema) runs on
SQLite alone instead of on every backend."""
OWN_DATABASES = "own_databases"
"""``@pytest.mark.own_databases(reason="...")``: an end-to-end test that chooses its databases
itself (a SQLite file, then PostgreSQL): it runs in the main run, and is left out of the
``E2E_DATABASE=postgresql`` run, which would only repeat it."""
NO_DATABASE = "no_database"
"""``@pytest.mark.no_database(reason="...")``: an end-to-end test that starts no bot on a
database (the fake Discord's own tests, discord.py against it): it runs once, in the main run."""


EVERY_DATABASE = "both"
"""``--e2e-database=both``: every end-to-end test once on each database, in one run (each test
id ends in ``[sqlite]`` or ``[postgresql]``), which pytest-xdist can spread over its workers;
what ``.ci/run`` does instead of a second, PostgreSQL-only run after the first."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--e2e-database",
        choices=[*sorted(BACKENDS), EVERY_DATABASE],
        default=None,
        help=f"the database the end-to-end tests' bot runs on (default: ${E2E_DATABASE}, else "
        "sqlite); postgresql gives each test a fresh database on the session's server; "
        f"{EVERY_DATABASE} runs each end-to-end test on both",
    )


def e2e_backend(config: pytest.Config) -> str:
    """``sqlite``, ``postgresql`` or ``both``: the option, else ``E2E_DATABASE``, else
    SQLite."""
    chosen = config.getoption("--e2e-database") or os.environ.get(E2E_DATABASE) or "sqlite"
    if chosen not in (*BACKENDS, EVERY_DATABASE):
        raise pytest.UsageError(
            f"{E2E_DATABASE}={chosen}: expected one of {[*sorted(BACKENDS), EVERY_DATABASE]}"
        )
    return str(chosen)


def left_out_on_postgresql(node: pytest.Item) -> bool:
    """Whether an end-to-end test is not run on PostgreSQL: those about SQLite files (each
    marked with its reason) are not checks PostgreSQL skips but checks of something it does
    not have, and they run on SQLite; those that choose their databases themselves, or use
    none, would only repeat themselves."""
    marker = next(
        (
            m
            for name in (SQLITE_ONLY, OWN_DATABASES, NO_DATABASE)
            if (m := node.get_closest_marker(name))
        ),
        None,
    )
    if marker is None or node.get_closest_marker("e2e") is None:
        return False
    if not (marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")):
        raise pytest.UsageError(f"{node.nodeid}: {marker.name} needs a reason")
    return True


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{SQLITE_ONLY}(reason): about the SQLite file itself: a service test runs on SQLite "
        f"only, an end-to-end test is left out when {E2E_DATABASE}=postgresql",
    )
    config.addinivalue_line(
        "markers",
        f"{OWN_DATABASES}(reason): an end-to-end test choosing its databases itself: left out "
        f"when {E2E_DATABASE}=postgresql, which would repeat it",
    )
    config.addinivalue_line(
        "markers",
        f"{NO_DATABASE}(reason): an end-to-end test that starts no bot on a database: run once, "
        f"left out when {E2E_DATABASE}=postgresql",
    )


def pytest_report_header(config: pytest.Config) -> str:
    return f"end-to-end database: {e2e_backend(config)}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The end-to-end tests first (a stable sort: each room keeps its order), then on PostgreSQL
    the end-to-end tests :func:`left_out_on_postgresql` deselected (with ``both``, their
    PostgreSQL runs are never made: see :func:`pytest_generate_tests`).

    Why first: they hold the run's longest tests (fault injection, the chaos run: 10-50 s each,
    mostly waiting on a bot), and a long test taken up last keeps one worker busy after the
    others are done; started first, they wait while the CPU-bound tests run beside them."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is None)
    if e2e_backend(config) != "postgresql":
        return
    kept, left_out = [], []
    for item in items:
        (left_out if left_out_on_postgresql(item) else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test using the ``backend`` fixture (through ``service``, ``services``,
    ``database`` or ``databases``) runs once per store implementation, unless marked
    ``sqlite_only`` (with its reason).  With ``--e2e-database=both``, every end-to-end test
    runs once per database (``e2e_database``), but on SQLite alone where
    :func:`left_out_on_postgresql`."""
    if metafunc.definition.get_closest_marker("e2e") is not None and (
        e2e_backend(metafunc.config) == EVERY_DATABASE
    ):
        on_sqlite_only = left_out_on_postgresql(metafunc.definition)
        names = ["sqlite"] if on_sqlite_only else sorted(BACKENDS)
        metafunc.parametrize("e2e_database", names, indirect=True)
    if "backend" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker(SQLITE_ONLY)
    if marker is not None and not (marker.kwargs.get("reason") or marker.args):
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: sqlite_only needs a reason")
    names = ["sqlite"] if marker is not None else sorted(BACKENDS)
    metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The store implementation of this run of the test (parametrised by
    ``pytest_generate_tests``): ``sqlite`` or ``postgresql``."""
    return str(request.param)


@pytest.fixture
def clock() -> Clock:
    """The test's clock, at ``T0`` until the test moves it; every service of the test reads it."""
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite database file, for tests about the file itself (not parametrised: a test using
    it runs on SQLite only). Every other test takes ``database``."""
    return tmp_path / "draughts.db"


@pytest.fixture
def database_server(backend: str, request: pytest.FixtureRequest) -> PostgresServer | None:
    """The session's PostgreSQL server when the backend needs one (only then is it started)."""
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("pg_server")
        return server
    return None


@pytest.fixture
async def databases(
    backend: str, tmp_path: Path, database_server: PostgresServer | None
) -> AsyncIterator[Databases]:
    """``await databases.new(name)``: more fresh databases of the test's backend."""
    made = Databases(backend, tmp_path, database_server)
    yield made
    await made.drop_all()


@pytest.fixture
async def database(databases: Databases) -> Database:
    """The test's database (a SQLite file or a PostgreSQL DSN); reopening a service on it is a
    restart."""
    return await databases.new()


@pytest.fixture
async def service(database: Database, clock: Clock) -> AsyncIterator[GameService]:
    """A service on ``database``, closed after the test."""
    async with opened(database, clock) as svc:
        yield svc


@pytest.fixture
async def services(clock: Clock, databases: Databases) -> AsyncIterator[Services]:
    """For tests that close and reopen services themselves: ``await services.open(database)``;
    anything left open is closed at the end. Parametrised over the backends like ``service``
    (the test takes ``database`` or ``databases`` for where to open them), and closed before
    those databases are dropped."""
    opener = Services(clock)
    yield opener
    await opener.close_all()


# -- the store contract -----------------------------------------------------------------------


@pytest.fixture(params=sorted(BACKENDS))
def store_location(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """Each implementation in turn, with a fresh place for its database (a folder, or a new
    PostgreSQL database): only the backend's own fixture runs, so the SQLite run starts no
    server."""
    name = str(request.param)
    return name, request.getfixturevalue(BACKENDS[name].location)


@pytest.fixture
async def store(store_location: tuple[str, Any]) -> AsyncIterator[Store]:
    """A fresh store of each implementation in turn (``tests/support/store_backends.py``)."""
    name, location = store_location
    opened_store = await BACKENDS[name].open(location)
    yield opened_store
    await opened_store.close()


# -- end to end -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def e2e_database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """With the end-to-end suite on PostgreSQL (this test's parameter with ``both``), an
    end-to-end test's bot processes (every :class:`BotProcess` in its ``tmp_path``) run on a
    fresh schema of the session's server (:mod:`support.pg_schemas`), dropped after the test;
    ``None`` (the SQLite file in ``tmp_path``) otherwise."""
    chosen = getattr(request, "param", None) or e2e_backend(request.config)
    if request.node.get_closest_marker("e2e") is None or chosen != "postgresql":
        yield None
        return
    tmp_path: Path = request.getfixturevalue("tmp_path")
    server: PostgresServer = request.getfixturevalue("pg_server")
    # As good as a database, already migrated as the bot would (emptied, from a pool): see
    # support.pg_schemas.
    dsn = run_sync(migrated_schema(server, "e2e"))
    DATABASE_URLS[tmp_path] = dsn
    try:
        yield dsn
    finally:
        del DATABASE_URLS[tmp_path]
        run_sync(release_schema(server, dsn))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord API, with the network guard on in this process too. A test fails if
    any request it let through broke Discord's documented limits or its OpenAPI schema."""
    install_network_guard()
    try:
        async with FakeDiscord() as server:
            yield server
            assert server.violations == [], server.violations
    finally:
        set_network_guard(False)


@pytest.fixture
async def launch(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Launch]:
    """``bot, users = await launch(SETTING="value", ...)`` starts the bot process; at the end it
    is stopped with SIGTERM and must exit 0 with no traceback and no blocked network access in
    its log."""
    started: list[BotProcess] = []

    async def start(**settings: str) -> tuple[BotProcess, Users]:
        bot = BotProcess(fake, tmp_path, **settings)
        started.append(bot)
        await bot.start()
        return bot, Users(fake, bot)

    yield start
    for bot in started:
        if bot.proc is not None and bot.proc.poll() is None:
            code = await bot.stop()
            assert code == 0, bot.log()
        log = bot.log()
        assert GUARD_MARKER not in log, log
        assert "Traceback" not in log, log
    assert fake.unknown_requests == [], fake.unknown_requests
    # Every image the bot showed anyone, in any test, carried alt text.
    assert fake.uploads_missing_alt_text() == [], fake.uploads_missing_alt_text()
