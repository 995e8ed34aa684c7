"""``python -m bot migrate-db`` run as an operator runs it, in a subprocess: by the migration's
own tests (``tests/store/test_migrate_db.py``) and by the end-to-end move of a SQLite bot to
PostgreSQL (``tests/e2e/test_e2e_shards.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def migrate_cli(source: Path, target: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["DATABASE_PATH"] = str(source)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--to", target],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
