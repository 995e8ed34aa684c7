"""``python -m bot`` before the Discord layer exists: settings are documented, a missing token gets
an actionable message and exit code 2, and a token is never echoed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _run(args: list[str], cwd: Path, token: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    if token is not None:
        env["DISCORD_TOKEN"] = token
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


def test_token_from_dotenv_is_read_and_never_printed(tmp_path: Path) -> None:
    secret = "MTIzNDU2.secret-token-value"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={secret}\n")
    result = _run([], tmp_path, None)
    assert result.returncode == 3  # a token was found; the Discord layer is a later milestone
    assert secret not in result.stdout + result.stderr
