"""Verified copies of the SQLite database: ``python -m bot backup``, ``restore``, and the copy
taken before a schema migration.

Why not ``cp``: in WAL mode the newest commits live in ``<database>-wal`` until a checkpoint, so
a copy of the main file alone can miss every recent game.  SQLite's online backup API copies the
database as one connection sees it, WAL included, while the bot keeps writing.  The copy is read
inside one read transaction together with the row counts it is checked against, written under a
temporary name, checked (``PRAGMA integrity_check``, schema version, the same row counts), made
durable, and only then renamed into place, so a backup file that exists is a good one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .sqlite_guard import SQLITE_MAGIC, DatabaseLock, DatabaseProblem, check_folder
from .sqlite_schema import SCHEMA_VERSION

log = logging.getLogger(__name__)


class BackupError(DatabaseProblem):
    """A backup or restore could not be made or did not verify; nothing was replaced."""


@dataclass(frozen=True)
class Snapshot:
    """What a database holds, to compare a copy with its source."""

    schema_version: int
    rows: dict[str, int]

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())

    def describe(self) -> str:
        tables = len(self.rows)
        return f"schema version {self.schema_version}, {tables} tables, {self.total_rows} rows"


def timestamp(now: float | None = None) -> str:
    """A UTC time for file names, sortable and free of characters file systems dislike."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))


@contextlib.contextmanager
def _connect(path: Path, *, mode: str = "rw") -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None)
    try:
        yield db
    finally:
        db.close()


def _snapshot(db: sqlite3.Connection) -> Snapshot:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    names = [
        str(row[0])
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    rows = {name: int(db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]) for name in names}
    return Snapshot(version, rows)


def verify(path: Path, expected: Snapshot | None = None) -> Snapshot:
    """Check a database file thoroughly (``integrity_check``) and, if given, that it holds
    exactly ``expected``; raise :class:`BackupError` otherwise."""
    with path.open("rb") as file:
        if file.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise BackupError(f"{path} is not an SQLite database")
    try:
        with _connect(path, mode="ro") as db:
            problems = [str(row[0]) for row in db.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise BackupError(f"{path} fails PRAGMA integrity_check: {'; '.join(problems)}")
            found = _snapshot(db)
    except sqlite3.Error as exc:
        raise BackupError(f"{path} cannot be read as a database: {exc}") from None
    if found.schema_version > SCHEMA_VERSION:
        raise BackupError(
            f"{path} has schema version {found.schema_version}, newer than this bot knows "
            f"({SCHEMA_VERSION})"
        )
    if expected is not None and found != expected:
        raise BackupError(
            f"the copy {path} does not match its source: {found.describe()} instead of "
            f"{expected.describe()}"
        )
    return found


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def copy_database(source: Path, target: Path) -> Snapshot:
    """Copy ``source`` (live or not) to ``target`` atomically and verified; returns what the
    copy holds.  ``target`` is replaced only by a complete, checked copy."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source} to copy")
    if target.resolve() == source.resolve():
        raise BackupError(f"the backup {target} would overwrite the database itself")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with _connect(source) as src, _connect(temporary, mode="rwc") as dst:
            # One read transaction: the counts and the pages copied are the same snapshot, however
            # much the bot writes meanwhile (in WAL mode a reader never blocks the writer).
            src.execute("BEGIN")
            expected = _snapshot(src)
            src.backup(dst)
            src.execute("COMMIT")
            # A backup is one self-contained file (no -wal beside it); the bot turns WAL back on
            # when it opens a restored copy.
            dst.execute("PRAGMA journal_mode = DELETE")
        verify(temporary, expected)
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync(target.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"copying {source} to {target} failed: {exc}") from None
    except OSError as exc:
        raise BackupError(f"writing {target} failed: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    return expected


def backup_target(requested: str | Path, database: Path, now: float | None = None) -> Path:
    """The file a backup goes to: ``requested``, or a dated name inside it if it is a folder:
    one that exists, or one written with a trailing ``/`` (``backup backups/``), which the copy
    creates.  Without that, a missing folder became a file of its name, and every later backup
    to it replaced the one before."""
    written = str(requested)
    folder = Path(written)
    if folder.is_dir() or written.endswith(("/", os.sep)):
        return folder / f"{database.stem}-{timestamp(now)}{database.suffix or '.db'}"
    return folder


def backup_before_migration(database: Path, version: int) -> Path:
    """The verified copy of a database at schema ``version`` taken before migrating it:
    ``<database>.v<version>-<timestamp>.bak`` beside it."""
    target = database.with_name(f"{database.name}.v{version}-{timestamp()}.bak")
    snapshot = copy_database(database, target)
    log.info(
        "backed up the database (schema version %d, %d rows) to %s before migrating it to "
        "version %d",
        version,
        snapshot.total_rows,
        target,
        SCHEMA_VERSION,
    )
    return target


@dataclass(frozen=True)
class Restored:
    """What a restore did: the database now holds ``snapshot``; the old files were moved to
    ``kept`` (empty when there was no database yet)."""

    snapshot: Snapshot
    kept: list[Path]


def restore(backup: Path, database: Path) -> Restored:
    """Put a verified copy of ``backup`` in place of ``database``, keeping the old files.

    Holds the database's lock throughout, so it refuses while a bot runs on the database (and
    no bot can start halfway through).  The old database and its WAL are renamed to
    ``<name>.before-restore-<timestamp>`` rather than deleted: a wrong restore can be undone."""
    if not backup.is_file():
        raise BackupError(f"there is no backup file at {backup}")
    check_folder(database)
    with DatabaseLock.acquire(database, purpose="a restore"):
        incoming = database.with_name(f".{database.name}.restore.tmp")
        snapshot = copy_database(backup, incoming)
        if snapshot.schema_version == 0:
            incoming.unlink()
            raise BackupError(f"{backup} is not a backup of this bot's database (no schema)")
        stamp = timestamp()
        kept: list[Path] = []
        for suffix in ("", "-wal"):
            old = Path(f"{database}{suffix}")
            if old.exists():
                aside = Path(f"{database}.before-restore-{stamp}{suffix}")
                os.replace(old, aside)
                kept.append(aside)
        # The shared-memory index belongs to the old WAL; SQLite rebuilds it.
        with contextlib.suppress(FileNotFoundError):
            Path(f"{database}-shm").unlink()
        os.replace(incoming, database)
        _fsync(database.parent)
    return Restored(snapshot, kept)
