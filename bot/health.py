"""The heartbeat file a running bot keeps fresh, and the check ``python -m bot healthcheck`` makes.

Why a file: the health check runs as a separate process (Docker's ``HEALTHCHECK``, a systemd
timer, a monitoring script) and must not talk to Discord or open the database.  The bot writes
the time into ``<database>-alive`` every few seconds while it is connected to the gateway and its
scheduler runs; a file older than a minute means the bot is stuck, disconnected or gone.  A clean
shutdown removes the file.

A bot that is alive but cannot do part of its job (its database does not answer, the computer's
worker processes cannot start; see :meth:`bot.ui.client.DraughtsBot._problems`) still beats,
with one line per problem after the time: the check then fails at once, naming them, and passes
again at the first beat without.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HEARTBEAT_SUFFIX = "-alive"
DEFAULT_MAX_AGE = 60.0
"""Seconds after which a heartbeat is stale (four missed beats at the default interval)."""


def heartbeat_path(database: Path) -> Path:
    return database.with_name(database.name + HEARTBEAT_SUFFIX)


def beat(path: Path, now: float | None = None, problems: Sequence[str] = ()) -> None:
    """Write the time (and the pid, for people), then each of ``problems`` on a line of its own,
    atomically: a reader never sees half a file."""
    now = time.time() if now is None else now
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    lines = [f"{now:.3f} {os.getpid()}", *(" ".join(problem.split()) for problem in problems)]
    temporary.write_text("".join(f"{line}\n" for line in lines))
    os.replace(temporary, path)


def clear(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


@dataclass(frozen=True)
class Health:
    healthy: bool
    reason: str


def check(path: Path, max_age: float = DEFAULT_MAX_AGE, now: float | None = None) -> Health:
    """Whether the heartbeat at ``path`` is fresh, with a line saying why (not)."""
    now = time.time() if now is None else now
    try:
        text = path.read_text()
    except FileNotFoundError:
        return Health(False, f"no heartbeat at {path}: the bot is not running (or not ready yet)")
    except OSError as exc:
        return Health(False, f"cannot read the heartbeat {path}: {exc.strerror or exc}")
    first, *lines = text.splitlines() or [""]
    problems = [line for line in lines if line.strip()]
    fields = first.split()
    try:
        written = float(fields[0])
        pid = int(fields[1]) if len(fields) > 1 else None
    except (IndexError, ValueError):
        return Health(False, f"the heartbeat {path} is unreadable: {text[:40]!r}")
    age = now - written
    who = f"pid {pid}" if pid is not None else "the bot"
    if age > max_age:
        return Health(
            False,
            f"stale heartbeat: {who} last reported {age:.0f} s ago (limit {max_age:.0f} s); "
            "it is disconnected from Discord, stuck, or stopped",
        )
    if problems:
        return Health(False, f"unhealthy: {who} reports: {'; '.join(problems)}")
    return Health(True, f"healthy: {who} reported {max(age, 0.0):.1f} s ago")
