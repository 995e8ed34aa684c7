"""Settings, read once from the environment (and ``.env``, which the entry point loads).

Secrets stay out of ``repr``: a :class:`Settings` printed into a log shows ``DISCORD_TOKEN`` as
``'***'`` and ``DATABASE_URL`` without its password (``postgresql://user:***@host/db``).  Time
settings exist so that tests can run deadlines, reminders and challenge expiry in seconds instead
of days.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, unquote_plus, urlsplit

from engine.endgame import ENV as ENDGAME_ENV
from engine.endgame import PIECES_ENV as ENDGAME_PIECES_ENV
from engine.endgame import configured_pieces as endgame_configured_pieces
from engine.endgame import directory as endgame_directory

from .health import HEARTBEAT_SUFFIX
from .store.addresses import is_postgres_url, redact_url, url_passwords
from .store.shards import EVERY_SHARD, Shards

DEFAULT_DATABASE_PATH = "./data/draughts.db"
POSTGRES_HEARTBEAT_NAME = "heartbeat"
"""The heartbeat file's name with ``DATABASE_URL`` and no ``HEARTBEAT_PATH``: in the folder of
``DATABASE_PATH`` (``./data/heartbeat`` by default, ``/data/heartbeat`` in the Docker image, on its
writable volume); with SQLite it lies beside the database file, as ``<database>-alive``."""


class SettingsError(ValueError):
    """A setting with a value that cannot be used; the message names it."""


_QUOTED = re.compile(r"""(?P<quote>["'])(?P<inner>.*?)(?P=quote)(?:\s*#.*)?""", re.DOTALL)
_COMMENT = re.compile(r"\s+#.*", re.DOTALL)


def env_value(env: Mapping[str, str], name: str) -> str:
    """The setting ``name`` as a shell or Compose would read its ``.env`` line: trimmed, a value
    in matching quotes unquoted, and a trailing `` # comment`` dropped.

    Why here and not only in the ``.env`` loader (python-dotenv already reads a line that way):
    ``docker run --env-file`` and ``podman run --env-file`` pass every character after ``=``
    literally, so ``DISCORD_TOKEN="abc" # mine`` reached the bot as ``"abc" # mine`` and was sent
    to Discord as the token.  No value of these settings (a token, an address, a path, a number)
    starts and ends with a quote or holds ``" #"`` on purpose."""
    raw = env.get(name, "").strip()
    quoted = _QUOTED.fullmatch(raw)
    if quoted is not None:
        return quoted["inner"].strip()
    return _COMMENT.sub("", raw).strip()


def _int(env: Mapping[str, str], name: str, default: int | None, low: int = 0) -> int | None:
    raw = env_value(env, name)
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
    raw = env_value(env, name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if not math.isfinite(value) or value < low:
        raise SettingsError(f"{name} must be a finite number of at least {low}, not {raw}")
    return value


def url_secrets(url: str | None) -> tuple[str, ...]:
    """The passwords of ``url`` (user part and query) as written and decoded (``%40`` is
    ``@``), for the log filter."""
    if not url:
        return ()
    found: set[str] = set()
    for password in url_passwords(url):
        found |= {password, unquote(password), unquote_plus(password)}
    return tuple(sorted(p for p in found if p))


def endgame_folder(configured: str) -> Path | None:
    """The endgame tables' folder for ``ENGINE_ENDGAME_DIR=configured``, resolved by the engine's
    own rule (the user's cache folder when empty, which follows the process's
    ``XDG_CACHE_HOME``: the system's variable, not one of the bot's settings; None when off)."""
    cache = os.environ.get("XDG_CACHE_HOME", "")
    return endgame_directory({ENDGAME_ENV: configured, "XDG_CACHE_HOME": cache})


def _endgame_pieces(env: Mapping[str, str]) -> int | None:
    """``ENGINE_ENDGAME_PIECES`` read by the engine's own rule, its complaint a settings error."""
    try:
        return endgame_configured_pieces({ENDGAME_PIECES_ENV: env_value(env, ENDGAME_PIECES_ENV)})
    except ValueError as exc:
        raise SettingsError(str(exc)) from None


def _database_url(env: Mapping[str, str]) -> str | None:
    raw = env_value(env, "DATABASE_URL")
    if not raw:
        return None
    scheme, sep, _ = raw.partition("://")
    # Only the scheme is ever quoted back: the rest may hold the password.
    if not is_postgres_url(raw):
        shown = scheme if sep else "no scheme"
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:port/database "
            f"(or postgres://...), not {shown}://...; leave it unset to use SQLite (DATABASE_PATH)"
        )
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError:
        raise SettingsError(f"DATABASE_URL is not a readable URL: {redact_url(raw)}") from None
    if not parts.hostname and "host=" not in parts.query:
        raise SettingsError("DATABASE_URL names no host: postgresql://user:password@host/database")
    return raw


def _shard_ids(env: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    raw = env_value(env, "SHARD_IDS")
    if not raw:
        return None
    if count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
    ids: set[int] = set()
    for item in raw.split(","):
        part = item.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise SettingsError(
                f"SHARD_IDS must be shard numbers or ranges separated by commas (0,1 or 0-3), "
                f"not {raw!r}"
            ) from None
        if first < 0 or last < first:
            raise SettingsError(f"SHARD_IDS has a bad range {part!r} (write low-high, from 0)")
        if last >= count:
            raise SettingsError(
                f"SHARD_IDS: shard {last} does not exist with SHARD_COUNT={count} "
                f"(shards are numbered 0 to {count - 1})"
            )
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True)
class Settings:
    """Everything configurable, with the defaults a real server wants."""

    token: str = field(default="", repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    database_url: str | None = None
    """A ``postgresql://`` URL: the games live on that PostgreSQL server instead of in the SQLite
    file ``database_path`` (shown in ``repr`` without its password)."""
    shard_count: int | None = None
    """``SHARD_COUNT``: the total number of shards (None: one connection without sharding, which
    Discord accepts up to 2,500 servers)."""
    shard_ids: tuple[int, ...] | None = None
    """``SHARD_IDS``: the shards this process connects for (None: all of them)."""
    heartbeat_path: Path | None = None
    """``HEARTBEAT_PATH``: where the heartbeat is written (None: see :attr:`heartbeat_file`)."""
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
    engine_endgame_dir: Path | None = field(default_factory=lambda: endgame_folder(""))
    """``ENGINE_ENDGAME_DIR`` resolved as the engine resolves it: where the endgame databases are
    kept (unset: the user's cache directory; None: ``off``), so the settings line shows the real
    folder.  The engine workers read it from the environment they inherit
    (:func:`bot.cli.hand_settings_to_children` puts this value there)."""
    engine_endgame_pieces: int | None = None
    """``ENGINE_ENDGAME_PIECES``: the most pieces of the endgame tables (None: each variant's
    default, 5 on 8x8 and 4 on 10x10; a larger table is up to 679 MB and half an hour of CPU to
    build).  The workers read it from the environment too
    (:func:`bot.cli.hand_settings_to_children`)."""
    move_time_scale: float = 1.0
    """Factor applied to the ``move_time`` and the ``clock`` chosen in ``/challenge`` (tests and
    demos use a small one, e.g. 0.001 turns 1 day into 86 seconds)."""
    heartbeat_interval: float = 15.0
    """Seconds between writes of the heartbeat file that ``python -m bot healthcheck`` reads."""
    sync_retry: float = 10.0
    """Seconds before the first retry of a failed command sync (then doubling, up to 30 minutes)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        level = env_value(env, "LOG_LEVEL").upper() or "INFO"
        if level not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        shard_count = _int(env, "SHARD_COUNT", None, low=1)
        heartbeat = env_value(env, "HEARTBEAT_PATH")
        return cls(
            token=env_value(env, "DISCORD_TOKEN"),
            database_path=Path(env_value(env, "DATABASE_PATH") or DEFAULT_DATABASE_PATH),
            database_url=_database_url(env),
            shard_count=shard_count,
            shard_ids=_shard_ids(env, shard_count),
            heartbeat_path=Path(heartbeat) if heartbeat else None,
            dev_guild_id=_int(env, "DEV_GUILD_ID", None, low=1),
            log_level=level,
            challenge_expiry=_float(env, "CHALLENGE_EXPIRY_SECONDS", 15 * 60, low=1),
            challenge_expiry_cap=_float(env, "CHALLENGE_EXPIRY_CAP_SECONDS", 24 * 3600, low=1),
            scheduler_interval=_float(env, "SCHEDULER_INTERVAL_SECONDS", 5.0, low=0.05),
            engine_move_time=_float(env, "ENGINE_MOVE_TIME_SECONDS", 2.0, low=0.01),
            engine_workers=_int(env, "ENGINE_WORKERS", None, low=1),
            engine_endgame_dir=endgame_folder(env_value(env, ENDGAME_ENV)),
            engine_endgame_pieces=_endgame_pieces(env),
            move_time_scale=_float(env, "MOVE_TIME_SCALE", 1.0, low=0.000001),
            heartbeat_interval=_float(env, "HEARTBEAT_SECONDS", 15.0, low=0.05),
            sync_retry=_float(env, "COMMAND_SYNC_RETRY_SECONDS", 10.0, low=0.05),
        )

    @property
    def shards(self) -> Shards:
        """The shards this process runs (the whole bot when no shard is configured)."""
        if self.shard_count is None:
            return EVERY_SHARD
        if self.shard_ids is None:
            return Shards.every(self.shard_count)
        return Shards.of(self.shard_count, self.shard_ids)

    @property
    def database(self) -> str | Path:
        """Where the games live: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_shown(self) -> str:
        """:attr:`database` as logs and messages may show it (no password)."""
        return redact_url(self.database_url) if self.database_url else str(self.database_path)

    @property
    def heartbeat_file(self) -> Path:
        """The heartbeat file: ``HEARTBEAT_PATH``; else ``<database>-alive`` beside a SQLite
        file, or ``heartbeat`` in ``DATABASE_PATH``'s folder with PostgreSQL."""
        if self.heartbeat_path is not None:
            return self.heartbeat_path
        if self.database_url:
            return self.database_path.parent / POSTGRES_HEARTBEAT_NAME
        return self.database_path.with_name(self.database_path.name + HEARTBEAT_SUFFIX)

    def secrets(self) -> tuple[str, ...]:
        """What must never be written to the log: the token and the database password."""
        return tuple(s for s in (self.token, *url_secrets(self.database_url)) if s)

    def __repr__(self) -> str:
        def shown(name: str) -> str:
            value = getattr(self, name)
            if name == "database_url" and value is not None:
                return repr(redact_url(value))
            return repr(value)

        fields = ", ".join(
            f"{name}={shown(name)}" for name in self.__dataclass_fields__ if name != "token"
        )
        return f"Settings(token='***', {fields})"
