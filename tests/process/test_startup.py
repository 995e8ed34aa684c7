"""What the bot checks and keeps before and around a start, in process on real files: the
database checks (damaged files of every kind), the single-bot lock, verified backups (taken
while another process writes), restore, the backup before a schema migration, the heartbeat the
health check reads, and the filter that keeps tokens out of the log.

The same checks seen from the outside (exit codes and messages of ``python -m bot``, before any
request to Discord) are in ``test_e2e_startup.py``."""

from __future__ import annotations

import contextlib
import fcntl
import io
import logging
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import health
from bot.logging_setup import REDACTED, RedactingFilter, UnavailableInOneLine, setup_logging
from bot.store import StoreError, StoreUnavailable
from bot.store.sqlite import SqliteStore
from bot.store.sqlite_backup import (
    BackupError,
    backup_target,
    copy_database,
    restore,
    verify,
)
from bot.store.sqlite_guard import (
    DatabaseInUse,
    DatabaseLock,
    DatabaseProblem,
    check_database,
    lock_path,
)
from bot.store.sqlite_schema import MIGRATIONS, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent.parent


# -- real databases, and ways to damage them ----------------------------------------------------


async def make_database(path: Path, rows: int = 2000) -> Path:
    """A database of the bot's current schema with ``rows`` rows beyond it (many pages), and no
    WAL beside it: what a stopped bot leaves."""
    store = await SqliteStore.open(path)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(f"key-{i}", "v" * 60) for i in range(rows)],
        )
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(data)


def problem_of(path: Path) -> str:
    with pytest.raises(DatabaseProblem) as caught:
        check_database(path)
    message = str(caught.value)
    assert str(path) in message
    assert "\n" not in message
    return message


# -- the checks ---------------------------------------------------------------------------------


def test_a_missing_file_is_a_fresh_start_and_its_folder_is_made(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "draughts.db"
    state = check_database(path)
    assert (state.exists, state.schema_version) == (False, 0)
    assert path.parent.is_dir() and not path.exists()  # the file is left to the store


async def test_a_good_database_passes_with_its_schema_version(tmp_path: Path) -> None:
    path = await make_database(tmp_path / "draughts.db")
    state = check_database(path)
    assert (state.exists, state.schema_version) == (True, SCHEMA_VERSION)


def test_a_zero_byte_file_is_damaged_not_a_fresh_database(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    path.touch()
    message = problem_of(path)
    assert "is damaged" in message and "empty (0 bytes" in message
    assert "python -m bot restore" in message and "docs/OPERATIONS.md" in message
    assert path.stat().st_size == 0  # nothing was written into it


def test_garbage_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    path.write_bytes(os.urandom(8192))
    assert "not an SQLite database" in problem_of(path)


async def test_a_database_cut_in_half_is_truncated(tmp_path: Path) -> None:
    path = await make_database(tmp_path / "draughts.db")
    size = path.stat().st_size
    os.truncate(path, size // 2)
    message = problem_of(path)
    assert "truncated" in message and str(size) in message


async def test_a_damaged_page_fails_the_check(tmp_path: Path) -> None:
    path = await make_database(tmp_path / "draughts.db")
    # The header of the last page (a leaf of the meta table) overwritten: the file still opens.
    page_size = 4096
    last = path.stat().st_size // page_size - 1
    overwrite(path, last * page_size, b"\xff" * 8)
    message = problem_of(path)
    assert "is damaged" in message
    assert "quick_check" in message or "malformed" in message


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = await make_database(tmp_path / "draughts.db", rows=0)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    message = problem_of(path)
    assert "newer" in message and f"schema version {SCHEMA_VERSION + 1}" in message


def test_another_applications_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        db.commit()
    assert "not one of this bot's" in problem_of(path)


def test_a_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    path = tmp_path / "data" / "draughts.db"
    message = problem_of(path)
    assert "is a file, not a folder" in message


def test_a_database_path_that_is_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    path.mkdir()
    assert "is not a file" in problem_of(path)


# -- the lock -----------------------------------------------------------------------------------


def test_the_lock_admits_one_holder_and_names_it(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    with DatabaseLock.acquire(path):
        with pytest.raises(DatabaseInUse) as caught:
            DatabaseLock.acquire(path)
        assert caught.value.pid == os.getpid()
        assert f"a bot (pid {os.getpid()})" in str(caught.value)
        assert str(path) in str(caught.value)
    with DatabaseLock.acquire(path):  # released: the next one gets it
        pass


def test_a_released_lock_leaves_no_file_and_a_removed_file_is_not_taken(tmp_path: Path) -> None:
    """The holder removes the lock file when it lets go.  A taker that opened the file just
    before (and so locks a file nobody else sees any more) notices and takes the new one."""
    path = tmp_path / "draughts.db"
    lock = DatabaseLock.acquire(path)
    late = os.open(lock_path(path), os.O_RDWR)  # a taker that opened the file in time
    try:
        lock.release()
        assert not lock_path(path).exists()
        fcntl.flock(late, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the removed file's lock is free
        with DatabaseLock.acquire(path) as taken:  # yet a new file is made and locked
            assert lock_path(path).exists()
            with pytest.raises(DatabaseInUse):
                DatabaseLock.acquire(path)
            assert taken.path == lock_path(path)
    finally:
        os.close(late)
    assert not lock_path(path).exists()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from bot.store.sqlite_guard import DatabaseLock;"
            "lock = DatabaseLock.acquire(Path(sys.argv[1])); print('locked', flush=True);"
            "time.sleep(60)",
            str(path),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(DatabaseInUse) as caught:
            DatabaseLock.acquire(path)
        assert caught.value.pid == holder.pid
    finally:
        holder.kill()
        holder.wait(10)
    assert lock_path(path).exists()  # the file stays; the lock died with the process
    with DatabaseLock.acquire(path):
        pass


# -- backups ------------------------------------------------------------------------------------

WRITER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA busy_timeout = 5000")
n = 0
print("writing", flush=True)
while True:
    # One game and its three moves per transaction: a consistent copy has no game without them.
    db.execute("BEGIN IMMEDIATE")
    cur = db.execute(
        "INSERT INTO games (channel_id, white_id, white_name, black_id, black_name, variant,"
        " start_fen, status, fen, move_time, created_at, updated_at)"
        " VALUES (?, 1, 'a', 2, 'b', 'english', 'x', 'finished', 'x', 60, 0, 0)", (n,))
    for ply in (1, 2, 3):
        db.execute(
            "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at)"
            " VALUES (?, ?, '11-15', 'x', 1, 0)", (cur.lastrowid, ply))
    db.execute("COMMIT")
    n += 1
"""


@contextlib.contextmanager
def writing(path: Path):
    """Another process committing games to ``path`` as fast as it can, as a busy bot would."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
        yield proc
    finally:
        proc.kill()
        proc.wait(10)


def games_and_moves(path: Path) -> tuple[int, int]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = db.execute("SELECT count(*) FROM moves").fetchone()[0]
    return int(games), int(moves)


async def test_backup_while_another_process_writes_is_consistent_and_verified(
    tmp_path: Path,
) -> None:
    source = await make_database(tmp_path / "draughts.db")
    target = tmp_path / "backups" / "copy.db"
    with writing(source):
        time.sleep(0.3)  # let commits pile up in the WAL, which a plain cp would miss
        result = subprocess.run(
            [sys.executable, "-m", "bot", "backup", str(target)],
            cwd=ROOT,
            env={**os.environ, "DATABASE_PATH": str(source)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        during = games_and_moves(source)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"wrote a verified backup of {source} to {target}"
    )
    assert f"schema version {SCHEMA_VERSION}" in lines[0]
    games, moves = games_and_moves(target)
    assert 0 < games <= during[0]
    assert moves == 3 * games  # one snapshot: every game with all its moves
    assert verify(target).schema_version == SCHEMA_VERSION
    with contextlib.closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
    assert [p.name for p in target.parent.iterdir()] == ["copy.db"]  # no temporary left


async def test_backup_into_a_folder_gets_a_dated_name(tmp_path: Path) -> None:
    source = await make_database(tmp_path / "draughts.db", rows=10)
    folder = tmp_path / "backups"
    folder.mkdir()
    target = backup_target(folder, source, now=0)
    assert target == folder / "draughts-19700101T000000Z.db"
    assert copy_database(source, target).rows["meta"] == 10


async def test_backup_into_a_missing_folder_written_with_a_slash_makes_it(tmp_path: Path) -> None:
    """``backup backups/`` before the folder exists: a dated file in a new folder, each time
    (724ab3b wrote a file called ``backups`` and replaced it at every run)."""
    source = await make_database(tmp_path / "draughts.db", rows=10)
    first = backup_target(f"{tmp_path}/backups/", source, now=0)
    assert first == tmp_path / "backups" / "draughts-19700101T000000Z.db"
    copy_database(source, first)
    second = backup_target(f"{tmp_path}/backups/", source, now=3600)
    copy_database(source, second)
    assert (tmp_path / "backups").is_dir()
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [
        "draughts-19700101T000000Z.db",
        "draughts-19700101T010000Z.db",
    ]


async def test_backup_of_a_damaged_database_fails_and_writes_nothing(tmp_path: Path) -> None:
    source = await make_database(tmp_path / "draughts.db")
    overwrite(source, (source.stat().st_size // 4096 - 1) * 4096, b"\xff" * 8)
    target = tmp_path / "copy.db"
    target.write_text("an older backup")
    with pytest.raises(BackupError):
        copy_database(source, target)
    assert target.read_text() == "an older backup"  # replaced only by a good copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "draughts.db"]


def test_backup_refuses_to_overwrite_the_database(tmp_path: Path) -> None:
    source = tmp_path / "draughts.db"
    sqlite3.connect(source).close()
    source.write_bytes(b"")
    with pytest.raises(BackupError, match="overwrite the database itself"):
        copy_database(source, source)


async def test_restore_puts_the_backup_in_place_and_keeps_the_old_files(tmp_path: Path) -> None:
    database = await make_database(tmp_path / "draughts.db", rows=5)
    backup = tmp_path / "backup.db"
    copy_database(database, backup)
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("INSERT INTO meta VALUES ('after-the-backup', 'x')")
        db.commit()
    restored = restore(backup, database)
    assert restored.snapshot.rows["meta"] == 5
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT count(*) FROM meta").fetchone()[0] == 5
    (kept,) = restored.kept
    assert kept.name.startswith("draughts.db.before-restore-")
    with contextlib.closing(sqlite3.connect(kept)) as db:
        assert db.execute("SELECT count(*) FROM meta").fetchone()[0] == 6
    store = await SqliteStore.open(database)  # the bot opens it
    assert await store.integrity_check() == "ok"
    await store.close()


async def test_restore_is_refused_while_a_bot_holds_the_lock(tmp_path: Path) -> None:
    database = await make_database(tmp_path / "draughts.db", rows=5)
    backup = tmp_path / "backup.db"
    copy_database(database, backup)
    before = database.read_bytes()
    with DatabaseLock.acquire(database):
        result = subprocess.run(
            [sys.executable, "-m", "bot", "restore", str(backup)],
            cwd=ROOT,
            env={**os.environ, "DATABASE_PATH": str(database)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert f"in use by a bot (pid {os.getpid()})" in result.stderr
    assert "nothing was changed" in result.stderr and "Traceback" not in result.stderr
    assert database.read_bytes() == before


def test_restore_of_something_that_is_not_a_backup_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "draughts.db"
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(os.urandom(4096))
    with pytest.raises(StoreError):
        restore(bogus, database)
    assert not database.exists()


async def test_a_migration_is_preceded_by_a_verified_backup(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A database at schema version 4 (built by the old migrations) gets a copy before it is
    upgraded; a current one does not."""
    path = tmp_path / "draughts.db"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for number, sql in MIGRATIONS:
            if number > 4:
                break
            db.executescript(sql)
            db.execute(f"PRAGMA user_version = {number}")
        db.execute("INSERT INTO guild_channels VALUES (1, 2)")
    with caplog.at_level(logging.INFO):
        store = await SqliteStore.open(path)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    (backup,) = tmp_path.glob("draughts.db.v4-*.bak")
    snapshot = verify(backup)
    assert snapshot.schema_version == 4 and snapshot.rows["guild_channels"] == 1
    assert f"to {backup} before migrating it to version {SCHEMA_VERSION}" in caplog.text
    await (await SqliteStore.open(path)).close()  # already current: no second backup
    assert len(list(tmp_path.glob("*.bak"))) == 1


# -- the heartbeat ------------------------------------------------------------------------------


def test_heartbeat_fresh_stale_missing(tmp_path: Path) -> None:
    path = health.heartbeat_path(tmp_path / "draughts.db")
    assert path.name == "draughts.db-alive"
    missing = health.check(path)
    assert not missing.healthy and "not running" in missing.reason
    health.beat(path, now=1000.0)
    assert health.check(path, max_age=60, now=1030.0).healthy
    stale = health.check(path, max_age=60, now=1061.0)
    assert not stale.healthy and "61 s ago" in stale.reason
    path.write_text("garbage")
    assert not health.check(path).healthy
    health.clear(path)
    assert not path.exists()


def test_a_fresh_heartbeat_with_problems_is_unhealthy_until_a_beat_without(tmp_path: Path) -> None:
    path = tmp_path / "heartbeat"
    health.beat(path, now=1000.0, problems=["database: no answer\nwithin 2 s", "workers: none"])
    sick = health.check(path, max_age=60, now=1001.0)
    assert not sick.healthy
    assert sick.reason.endswith("reports: database: no answer within 2 s; workers: none")
    health.beat(path, now=1002.0)
    assert health.check(path, max_age=60, now=1003.0).healthy


# -- tokens out of the log ----------------------------------------------------------------------


def record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, message, args, None)


def test_the_filter_redacts_interaction_tokens_and_the_bot_token() -> None:
    secret = "MTIzNDU2Nzg5.bot-secret"
    redacting = RedactingFilter([secret])
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ"
    cases = [
        record("%s %s has returned %s", "POST", f"/api/v10/interactions/123/{token}/callback", 204),
        record("PATCH https://discord.com/api/v10/webhooks/42/%s/messages/@original", token),
        record("WebSocket Event: %s", {"t": "INTERACTION_CREATE", "d": {"token": token}}),
        record('{"id": "1", "token": "%s"}', token),
        record("Authorization: Bot %s", secret),
    ]
    for case in cases:
        assert redacting.filter(case)
        text = case.getMessage()
        assert token not in text and secret not in text, text
    assert (
        cases[0].getMessage()
        == f"POST /api/v10/interactions/123/{REDACTED}/callback has returned 204"
    )
    assert "webhooks/42/[redacted]/messages/@original" in cases[1].getMessage()


def test_interaction_tokens_are_redacted_wherever_they_appear() -> None:
    """A token Discord made (base64 of ``interaction:...``) outside any route: a driver's dump
    of a statement's parameters, a stored announcement in a traceback."""
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ_x-Y"
    said = RedactingFilter().redact(f"executing ('UPDATE outbox SET token = ?', ('{token}', 7))")
    assert token not in said and "[redacted]" in said, said


def test_aiosqlite_statement_dumps_are_not_logged_even_at_debug() -> None:
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), logging.getLogger("aiosqlite").level)
    stream = io.StringIO()
    try:
        setup_logging("DEBUG")
        for handler in root.handlers:
            if isinstance(handler, logging.StreamHandler):
                handler.setStream(stream)
        logging.getLogger("aiosqlite").debug("executing %s", "('SELECT ?', ('secret',))")
        logging.getLogger("bot.test").debug("the bot's own debug line")
        for handler in root.handlers:
            handler.flush()
        written = stream.getvalue()
        assert "the bot's own debug line" in written and "executing" not in written, written
    finally:
        root.handlers[:] = saved[1]
        root.setLevel(saved[0])
        logging.getLogger("aiosqlite").setLevel(saved[2])


def test_a_database_that_does_not_answer_is_logged_in_one_warning_line() -> None:
    """What a background write logs with ``log.exception`` when the database hung."""
    try:
        raise StoreUnavailable("PostgreSQL did not answer within 8 s")
    except StoreUnavailable:
        hung = logging.LogRecord(
            "bot.service", logging.ERROR, __file__, 1, "game %s not recorded", (7,), sys.exc_info()
        )
    UnavailableInOneLine().filter(hung)
    line = logging.Formatter("{levelname} {message}", style="{").format(hung)
    assert line == "WARNING game 7 not recorded: PostgreSQL did not answer within 8 s"


def test_the_filter_redacts_tracebacks_too() -> None:
    token = "itoken-1234"
    try:
        raise RuntimeError(f"POST /webhooks/99/{token} failed")
    except RuntimeError:
        failed = logging.LogRecord(
            "discord", logging.ERROR, __file__, 1, "boom", None, sys.exc_info()
        )
    RedactingFilter().filter(failed)
    assert failed.exc_info is None and failed.exc_text is not None
    assert token not in failed.exc_text and "/webhooks/99/[redacted]" in failed.exc_text
    assert token not in logging.Formatter().format(failed)
