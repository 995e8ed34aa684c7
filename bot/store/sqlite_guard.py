"""Checks on the SQLite file before the bot logs in, and the lock that keeps it to one bot.

Why before login: a damaged or unwritable database found inside ``setup_hook`` used to show up
as a raw traceback after the bot was already online (or, for a zero-byte file, as a silent new
empty database).  :func:`check_database` reads the file with the standard library only, so the
entry point can refuse to start with one line saying what is wrong, where, and what to do.

What counts as damaged:

* a file that does not start with SQLite's 16-byte header (garbage, another kind of file);
* a file shorter than its own header says (a copy or a disk cut short);
* a **zero-byte file**.  SQLite treats an empty file as an empty database, so a database
  truncated to nothing would silently become a fresh one and every game would be gone.  The
  bot never leaves an empty file behind on purpose (the first start creates the schema at once),
  so an existing empty file is reported; a *missing* file is a fresh start;
* anything ``PRAGMA quick_check`` does not answer ``ok`` to, or that SQLite refuses to read.

The lock is :func:`fcntl.flock` on a sidecar ``<database>-lock`` file.  The kernel drops it when
the process dies, however it dies (``kill -9`` included), so it can never go stale; the holder
writes its pid into the file so that a second process can name it, and removes the file when it
lets go (every exit but a kill), so an operator does not find a lock file beside a bot that is not
running.  Removing a lock file is safe only because a taker checks, once it holds the lock, that
the file it locked is still the one at the path (else it locked a removed file and tries again).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import StoreError
from .sqlite_schema import SCHEMA_VERSION

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
RESTORE_HINT = (
    "restore a backup (`python -m bot restore BACKUP`, see docs/OPERATIONS.md, "
    '"Backup and restore")'
)


class DatabaseProblem(StoreError):
    """The database file cannot be used as it is; the message says what, where and what to do."""


class DatabaseInUse(StoreError):
    """Another process holds the database's lock (another bot, or a restore in progress)."""

    def __init__(self, message: str, pid: int | None) -> None:
        super().__init__(message)
        self.pid = pid


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + "-lock")


def is_file_database(database: Path) -> bool:
    """False for SQLite's in-memory names, which have no file to check or lock."""
    return str(database) not in ("", ":memory:") and not str(database).startswith("file:")


@dataclass(frozen=True)
class DatabaseState:
    """What the checks found: whether the file exists yet, and its schema version."""

    path: Path
    exists: bool
    schema_version: int


def check_database(database: Path) -> DatabaseState:
    """Make sure ``database`` can be opened for writing, or raise :class:`DatabaseProblem`.

    Creates the folder if it is missing (as opening the store would), never the file."""
    check_folder(database)
    if not database.exists():
        return DatabaseState(database, exists=False, schema_version=0)
    if not database.is_file():
        raise DatabaseProblem(
            f"the database path {database} is not a file; set DATABASE_PATH to a file name"
        )
    _check_writable(database)
    _check_header(database)
    version = _check_contents(database)
    return DatabaseState(database, exists=True, schema_version=version)


def check_folder(database: Path) -> None:
    """Create the database's folder if needed and make sure new files can be made in it."""
    folder = database.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise DatabaseProblem(
            f"cannot create the database {database}: {folder} (or a folder above it) is a file, "
            "not a folder; set DATABASE_PATH to a path in a folder"
        ) from None
    except OSError as exc:
        raise DatabaseProblem(
            f"cannot create the folder {folder} for the database {database}: "
            f"{exc.strerror or exc}; create it, or set DATABASE_PATH elsewhere"
        ) from None
    # SQLite writes its -wal and -shm files (and the bot its lock) beside the database, so the
    # folder itself must take new files, whatever the mode bits say (root ignores them).
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".draughts-write-test-"):
            pass
    except OSError as exc:
        raise DatabaseProblem(
            f"the folder {folder} of the database {database} is not writable "
            f"({exc.strerror or exc}); the bot needs to create files there: make it writable "
            "by the user running the bot (e.g. chown), or set DATABASE_PATH elsewhere"
        ) from None


def _check_writable(database: Path) -> None:
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        if not path.exists():
            continue
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError as exc:
            raise DatabaseProblem(
                f"the database file {path} is not writable ({exc.strerror or exc}); make it "
                "writable by the user running the bot (e.g. chown or chmod u+w)"
            ) from None
        os.close(fd)


def _damaged(database: Path, what: str) -> DatabaseProblem:
    return DatabaseProblem(
        f"the database {database} is damaged: {what}. The bot will not start on it: "
        f"{RESTORE_HINT}, or move the file away to start with an empty database"
    )


def _check_header(database: Path) -> None:
    size = database.stat().st_size
    if size == 0:
        raise _damaged(database, "the file is empty (0 bytes; truncated?)")
    with database.open("rb") as file:
        header = file.read(HEADER_SIZE)
    if not header.startswith(SQLITE_MAGIC):
        raise _damaged(database, "it is not an SQLite database (its first bytes are wrong)")
    if len(header) < HEADER_SIZE:
        raise _damaged(database, f"the file is truncated ({size} bytes)")
    wal = Path(f"{database}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return  # pages may still be in the WAL: only SQLite itself can tell (quick_check)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_valid = header[24:28] == header[92:96]  # the page count is kept up to date
    if header_valid and pages and size < pages * page_size:
        raise _damaged(
            database,
            f"the file is truncated ({size} bytes; its header says {pages * page_size})",
        )


def _check_contents(database: Path) -> int:
    try:
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error as exc:
        raise DatabaseProblem(f"cannot open the database {database}: {exc}") from None
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise _damaged(database, "PRAGMA quick_check reports " + "; ".join(map(str, problems)))
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise _damaged(database, f"SQLite says: {exc}") from None
    finally:
        db.close()
    if version > SCHEMA_VERSION:
        raise DatabaseProblem(
            f"the database {database} has schema version {version}, newer than this bot knows "
            f"({SCHEMA_VERSION}): it was written by a newer version of the bot; run that version, "
            "or restore a backup made by this one (see docs/OPERATIONS.md)"
        )
    if version == 0 and tables[0] > 0:
        raise DatabaseProblem(
            f"the file {database} is an SQLite database, but not one of this bot's (it has tables "
            "and no schema version); set DATABASE_PATH to the bot's own database"
        )
    return version


class DatabaseLock:
    """An exclusive lock on ``<database>-lock`` for as long as the process holds it.

    Use :meth:`acquire`; :meth:`release` (or the end of the process) lets the next one in."""

    def __init__(self, database: Path, fd: int) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, database: Path, *, purpose: str = "a bot") -> DatabaseLock:
        """Take the lock or raise :class:`DatabaseInUse` naming the holder's pid if known
        (``purpose`` says, in the holder's file, what holds it)."""
        path = lock_path(database)
        while True:
            fd = _open_locked(database, path)
            if _still_at(fd, path):
                break
            # The holder removed the file between our open and our lock: ours is a lock on a
            # file nobody else will look at. Take the one at the path now.
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {purpose}\n".encode())
        return cls(database, fd)

    def release(self) -> None:
        """Remove the lock file, then let go of the lock (in that order: a process waiting to
        take it finds the file gone and opens a new one)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                if _still_at(fd, self.path):
                    self.path.unlink()
            os.close(fd)  # closing the only descriptor drops the flock

    def __enter__(self) -> DatabaseLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _open_locked(database: Path, path: Path) -> int:
    """A descriptor of ``path`` holding its exclusive lock, or :class:`DatabaseInUse` naming the
    holder (:class:`DatabaseProblem` if the file cannot be made or locked at all)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DatabaseProblem(
            f"cannot create the lock file {path} ({exc.strerror or exc}); the folder of the "
            "database must be writable by the user running the bot"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = _read_holder(fd)
        os.close(fd)
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise DatabaseProblem(f"cannot lock {path}: {exc.strerror or exc}") from None
        pid, what = holder
        who = f"{what} (pid {pid})" if pid is not None else "another process"
        raise DatabaseInUse(
            f"the database {database} is in use by {who}; only one bot may run on a "
            "database file: stop the other one first",
            pid,
        ) from None
    return fd


def _still_at(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is the file at ``path`` (not one removed since)."""
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _read_holder(fd: int) -> tuple[int | None, str]:
    """The pid and purpose the holder wrote (it may not have written them yet)."""
    try:
        text = os.pread(fd, 200, 0).decode("ascii", "replace").strip()
    except OSError:
        return None, "another process"
    pid_text, _, purpose = text.partition(" ")
    try:
        return int(pid_text), purpose or "another process"
    except ValueError:
        return None, "another process"
