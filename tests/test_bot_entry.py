"""``python -m bot`` up to the point where it would connect: settings are documented, a missing
token or a bad setting gets an actionable message and exit code 2, before any network access.

Nothing here sets a usable token, so the bot never tries to reach Discord; reading the token from
``.env`` (and never printing it) is tested end to end, against the fake Discord, in
``test_e2e_lifecycle.py``."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


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
