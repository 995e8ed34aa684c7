"""Shared fixtures: the game service on a real file with a hand-moved clock (see
``tests/service_harness.py``), and for the end-to-end tests a fake Discord on loopback with the
bot launched against it (see ``tests/e2e_harness.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_launcher import GUARD_MARKER, install_network_guard, set_network_guard
from e2e_harness import BotProcess, Launch, Users
from fake_discord import FakeDiscord
from pg_fixtures import pg_dsn, pg_server  # noqa: F401  (fixtures)
from service_harness import Clock, Services, opened
from store_backends import BACKENDS

from bot.service import GameService
from bot.store import Store

# -- the game service -------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    """The test's clock, at ``T0`` until the test moves it; every service of the test reads it."""
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The test's database file; reopening a service on it is a restart."""
    return tmp_path / "draughts.db"


@pytest.fixture
async def service(db_path: Path, clock: Clock) -> AsyncIterator[GameService]:
    """A service on ``db_path``, closed after the test."""
    async with opened(db_path, clock) as svc:
        yield svc


@pytest.fixture
async def services(clock: Clock) -> AsyncIterator[Services]:
    """For tests that close and reopen services themselves: ``await services.open(path)``;
    anything left open is closed at the end."""
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
    """A fresh store of each implementation in turn (``tests/store_backends.py``)."""
    name, location = store_location
    opened_store = await BACKENDS[name].open(location)
    yield opened_store
    await opened_store.close()


# -- end to end -------------------------------------------------------------------------------


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
