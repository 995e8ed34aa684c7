"""``python -m bot`` up to the point where it would connect: settings are documented, a missing
token or a bad setting gets an actionable message and exit code 2, before any network access.

Nothing here sets a usable token, so the bot never tries to reach Discord; reading the token from
``.env`` (and never printing it) is tested end to end, against the fake Discord, in
``test_e2e_lifecycle.py``."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.own_databases(
        reason="the command line, each run with the settings its test gives (a SQLite file, "
        "a PostgreSQL URL, or none)"
    ),
]


def _run(
    args: list[str], cwd: Path, token: str | None, **settings: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    if token is not None:
        env["DISCORD_TOKEN"] = token
    env.update(settings)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_lists_every_setting(tmp_path: Path) -> None:
    result = _run(["--help"], tmp_path, None)
    assert result.returncode == 0
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        assert name in result.stdout


def test_missing_token_exits_2_with_instructions(tmp_path: Path) -> None:
    result = _run([], tmp_path, None)
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "developer portal" in result.stderr


def test_blank_token_counts_as_missing(tmp_path: Path) -> None:
    assert _run([], tmp_path, "   ").returncode == 2


def test_bad_setting_exits_2_naming_it(tmp_path: Path) -> None:
    result = _run([], tmp_path, None, LOG_LEVEL="LOUD")
    assert result.returncode == 2
    assert "LOG_LEVEL" in result.stderr and "'LOUD'" in result.stderr
    assert "--help" in result.stderr
    assert "Traceback" not in result.stderr


def test_some_shards_on_sqlite_are_refused(tmp_path: Path) -> None:
    """A process for some of the shards needs the others' processes on the same database, which
    a SQLite file cannot give: refused before connecting, with what to do instead."""
    result = _run([], tmp_path, "token", SHARD_COUNT="4", SHARD_IDS="0-1")
    assert result.returncode == 2
    assert "SHARD_IDS=0,1" in result.stderr and "PostgreSQL (DATABASE_URL)" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_setting_in_dotenv_is_reported_before_the_token(tmp_path: Path) -> None:
    """A wrong number in ``.env`` names the setting; the (missing) token is not even asked for."""
    (tmp_path / ".env").write_text("MOVE_TIME_SCALE=fast\n")
    result = _run([], tmp_path, None)
    assert result.returncode == 2
    assert "MOVE_TIME_SCALE must be a number, not 'fast'" in result.stderr
    assert "DISCORD_TOKEN is not set" not in result.stderr


def test_version_prints_the_installed_package_version(tmp_path: Path) -> None:
    result = _run(["--version"], tmp_path, None)
    assert result.returncode == 0
    assert result.stdout.strip() == f"draughts-bot {importlib.metadata.version('draughts-bot')}"


def test_help_documents_the_operator_commands(tmp_path: Path) -> None:
    result = _run(["--help"], tmp_path, None)
    assert result.returncode == 0
    for command in ("backup PATH", "restore BACKUP", "healthcheck"):
        assert command in result.stdout
    for name in ("HEARTBEAT_SECONDS", "COMMAND_SYNC_RETRY_SECONDS", "docs/OPERATIONS.md"):
        assert name in result.stdout


def test_operator_commands_need_no_token(tmp_path: Path) -> None:
    """``backup`` and ``healthcheck`` read DATABASE_PATH only; failing, they say why in one
    line with exit code 1 (no database yet, no bot running)."""
    database = str(tmp_path / "draughts.db")
    result = _run(["backup", str(tmp_path / "copy.db")], tmp_path, None, DATABASE_PATH=database)
    assert result.returncode == 1
    assert result.stderr == f"error: there is no database at {database} to copy\n"
    result = _run(["healthcheck"], tmp_path, None, DATABASE_PATH=database)
    assert result.returncode == 1
    assert result.stderr.startswith("no heartbeat at") and result.stderr.count("\n") == 1


def test_a_backup_is_readable_by_the_bots_user_alone(tmp_path: Path) -> None:
    """A backup holds every game and player id: 0600, whatever the umask it was started with
    (0644 before, like the database itself)."""
    database = tmp_path / "draughts.db"
    with sqlite3.connect(database) as made:  # any SQLite file: the copy is what is checked
        made.execute("CREATE TABLE t (x)")
    database.chmod(0o600)
    os.umask(0o022)
    result = _run(
        ["backup", str(tmp_path / "copy.db")], tmp_path, None, DATABASE_PATH=str(database)
    )
    assert (tmp_path / "copy.db").exists(), result.stderr
    assert oct((tmp_path / "copy.db").stat().st_mode & 0o777) == oct(0o600)


PG_PASSWORD = "n0t-in-any-log"


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_help_lists_the_postgresql_settings(tmp_path: Path) -> None:
    result = _run(["--help"], tmp_path, None)
    for name in ("DATABASE_URL", "HEARTBEAT_PATH", "migrate-db"):
        assert name in result.stdout
    assert "pg_dump" in result.stdout
    assert "SHARD_COUNT" in result.stdout and "SHARD_IDS" in result.stdout


@pytest.mark.parametrize(
    ("args", "tool"), [(["backup", "copy.db"], "pg_dump"), (["restore", "copy.db"], "pg_restore")]
)
def test_backup_and_restore_refuse_a_postgresql_database(
    tmp_path: Path, args: list[str], tool: str
) -> None:
    url = f"postgresql://bot:{PG_PASSWORD}@127.0.0.1:{_closed_port()}/draughts"
    result = _run(args, tmp_path, None, DATABASE_URL=url)
    assert result.returncode == 1
    assert tool in result.stderr and "DATABASE_URL" in result.stderr
    assert "postgresql://bot:***@127.0.0.1" in result.stderr
    assert PG_PASSWORD not in result.stderr + result.stdout
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "copy.db").exists()


def test_a_bad_database_url_exits_2_without_its_password(tmp_path: Path) -> None:
    result = _run([], tmp_path, "token", DATABASE_URL=f"mysql://bot:{PG_PASSWORD}@host/db")
    assert result.returncode == 2
    assert "DATABASE_URL" in result.stderr and PG_PASSWORD not in result.stderr


def test_an_unreachable_postgresql_server_stops_the_start_in_one_line(tmp_path: Path) -> None:
    """Before logging in to Discord (the token is never used), without a traceback or the
    password, with exit code 1."""
    url = f"postgresql://bot:{PG_PASSWORD}@127.0.0.1:{_closed_port()}/draughts"
    result = _run([], tmp_path, "not.a.real.token", DATABASE_URL=url, LOG_LEVEL="DEBUG")
    assert result.returncode == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1, result.stderr
    assert "cannot open the database postgresql://bot:***@127.0.0.1" in errors[0]
    assert "Traceback" not in result.stderr
    assert PG_PASSWORD not in result.stderr + result.stdout
    assert "database_url='postgresql://bot:***@127.0.0.1" in result.stderr  # the settings line
    # No SQLite file, lock or heartbeat was made for a PostgreSQL start.
    assert not (tmp_path / "data" / "draughts.db").exists()
    assert not (tmp_path / "data" / "draughts.db-lock").exists()


def test_healthcheck_with_postgresql_reads_the_heartbeat_in_the_data_folder(
    tmp_path: Path,
) -> None:
    url = f"postgresql://bot:{PG_PASSWORD}@127.0.0.1:{_closed_port()}/draughts"
    result = _run(["healthcheck"], tmp_path, None, DATABASE_URL=url)
    assert result.returncode == 1
    assert result.stderr.startswith(f"no heartbeat at {Path('data/heartbeat')}")
    (tmp_path / "beat").write_text(f"{__import__('time').time():.3f} 1\n")
    result = _run(["healthcheck"], tmp_path, None, DATABASE_URL=url, HEARTBEAT_PATH="beat")
    assert result.returncode == 0, result.stderr


# -- in a container ----------------------------------------------------------------------------


def test_a_missing_token_in_a_container_names_the_hosts_env_file(tmp_path: Path) -> None:
    """podman sets ``container`` in every container's environment: the advice is then the
    ``.env`` the container is started with, not the current directory (the image's empty
    /app).  Not the container's own process here (a test's child), so it exits at once."""
    result = _run([], tmp_path, None, container="podman")
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set in this container" in result.stderr
    assert "in the .env file\nthe container is started with" in result.stderr
    assert "current directory" not in result.stderr
    assert "waits" not in result.stderr


def test_a_container_refused_a_setting_waits_for_its_stop_instead_of_looping(
    tmp_path: Path,
) -> None:
    """As the container's main process (PID 1 of a PID namespace of its own, as in
    ``docker run``), a missing token is said once and the process stays up until SIGTERM, then
    exits 2: a restart policy has nothing to restart meanwhile."""
    if (
        shutil.which("unshare") is None
        or subprocess.run(
            ["unshare", "--user", "--map-root-user", "--pid", "--fork", "true"], check=False
        ).returncode
    ):
        pytest.skip("needs unshare(1) with user and PID namespaces (util-linux, not restricted)")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["container"] = "docker"
    outside = subprocess.Popen(
        ["unshare", "--user", "--map-root-user", "--pid", "--fork", sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert outside.stderr is not None
        said = "".join(outside.stderr.readline() for _ in range(3))
        assert "DISCORD_TOKEN is not set in this container" in said, said
        with pytest.raises(subprocess.TimeoutExpired):
            outside.wait(2)  # still up: nothing to restart
        (bot,) = Path(f"/proc/{outside.pid}/task/{outside.pid}/children").read_text().split()
        os.kill(int(bot), signal.SIGTERM)
        assert outside.wait(10) == 2
        rest = outside.stderr.read()
        assert "waits until it is stopped" in rest
        assert "Traceback" not in rest
    finally:
        if outside.poll() is None:
            outside.kill()
            outside.wait(10)
