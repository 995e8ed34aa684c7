"""Settings, read once from the environment (and ``.env``, which the entry point loads).

Secrets stay out of ``repr``: a :class:`Settings` printed into a log shows ``DISCORD_TOKEN`` as
``'***'``.  Time settings exist so that tests can run deadlines, reminders and challenge expiry in
seconds instead of days.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE_PATH = "./data/draughts.db"


class SettingsError(ValueError):
    """A setting with a value that cannot be used; the message names it."""


def _int(env: Mapping[str, str], name: str, default: int | None, low: int = 0) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if value < low:
        raise SettingsError(f"{name} must be at least {low}, not {value}")
    return value


def _float(env: Mapping[str, str], name: str, default: float, low: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if not math.isfinite(value) or value < low:
        raise SettingsError(f"{name} must be a finite number of at least {low}, not {raw}")
    return value


@dataclass(frozen=True)
class Settings:
    """Everything configurable, with the defaults a real server wants."""

    token: str = field(default="", repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    challenge_expiry: float = 15 * 60
    """Seconds an unanswered challenge stays open at least."""
    challenge_expiry_cap: float = 24 * 3600
    """A challenge stays open as long as its time per move, up to this many seconds (so a
    correspondence challenge can wait for its opponent overnight)."""
    scheduler_interval: float = 5.0
    """Seconds between checks for reminders, timeouts and expired challenges."""
    engine_workers: int | None = None
    """Engine worker processes (None: one per CPU but one, at least two); each searches one
    game at a time, so this many computer games think side by side."""
    engine_move_time: float = 2.0
    """Seconds the computer thinks per move at level 6 (lower levels use less)."""
    move_time_scale: float = 1.0
    """Factor applied to the ``move_time`` chosen in ``/challenge`` (tests and demos use a small
    one, e.g. 0.001 turns 1 day into 86 seconds)."""
    heartbeat_interval: float = 15.0
    """Seconds between writes of the heartbeat file that ``python -m bot healthcheck`` reads."""
    sync_retry: float = 10.0
    """Seconds before the first retry of a failed command sync (then doubling, up to 30 minutes)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            database_path=Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            dev_guild_id=_int(env, "DEV_GUILD_ID", None, low=1),
            log_level=level,
            challenge_expiry=_float(env, "CHALLENGE_EXPIRY_SECONDS", 15 * 60, low=1),
            challenge_expiry_cap=_float(env, "CHALLENGE_EXPIRY_CAP_SECONDS", 24 * 3600, low=1),
            scheduler_interval=_float(env, "SCHEDULER_INTERVAL_SECONDS", 5.0, low=0.05),
            engine_move_time=_float(env, "ENGINE_MOVE_TIME_SECONDS", 2.0, low=0.01),
            engine_workers=_int(env, "ENGINE_WORKERS", None, low=1),
            move_time_scale=_float(env, "MOVE_TIME_SCALE", 1.0, low=0.000001),
            heartbeat_interval=_float(env, "HEARTBEAT_SECONDS", 15.0, low=0.05),
            sync_retry=_float(env, "COMMAND_SYNC_RETRY_SECONDS", 10.0, low=0.05),
        )

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in self.__dataclass_fields__
            if name != "token"
        )
        return f"Settings(token='***', {fields})"
