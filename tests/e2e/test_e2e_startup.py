"""End to end, the bot's start and stop as an operator sees them: the command sync (only when the
commands changed, never able to stop the bot, one clear line for a development server the bot is
not in), the invite URL, a stop while Discord is unreachable, damaged or unwritable databases and a
second bot on the same file refused before logging in, tokens kept out of a DEBUG log, and the
health check.

Each test runs the real bot process (``python -m bot``'s ``main`` through
``tests/support/discord_launcher.py``) against the fake Discord of
``tests/support/fake_discord.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from support.discord_launcher import GUARD_MARKER
from support.e2e_harness import (
    ALICE,
    GENERAL,
    TESTS,
    BotProcess,
    Users,
    db_rows,
    first_answer,
    poll,
    user,
)
from support.fake_discord import FakeDiscord

from bot.store.sqlite import SqliteStore
from bot.store.sqlite_guard import lock_path
from bot.store.sqlite_schema import SCHEMA_VERSION

pytestmark = pytest.mark.e2e

ROOT = TESTS.parent
RECONNECT = re.compile(r"Attempting a reconnect in ([\d.]+)s")
"""discord.py's line before it sleeps and reconnects."""
REFUSAL_TIMEOUT = 60.0
"""Generous: a refused start imports little and exits at once; this only bounds a hang."""


# -- helpers ------------------------------------------------------------------------------------


class StartingBot(BotProcess):
    """A bot whose start waits only for the gateway and its "ready" line: its command sync may
    be failing on purpose."""

    async def start(self) -> None:
        identified = self.fake.sessions_identified
        self.spawn()
        await self.alive(
            poll(
                lambda: self.fake.sessions_identified > identified and self._ready_logged(),
                timeout=30,
            )
        )


@contextlib.asynccontextmanager
async def running(bot: BotProcess, *, tracebacks: bool = False) -> AsyncIterator[Users]:
    """A started bot, stopped with SIGTERM at the end (exit 0); no blocked network access and,
    unless allowed, no traceback in its log."""
    try:
        await bot.start()
        yield Users(bot.fake, bot)
    finally:
        if bot.proc is not None and bot.proc.poll() is None:
            assert await bot.stop() == 0, bot.log()
    log = bot.log()
    assert GUARD_MARKER not in log, log
    if not tracebacks:
        assert "Traceback" not in log, log


def sync_requests(fake: FakeDiscord) -> list[Any]:
    return fake.find_requests("PUT", rf"/applications/{fake.application_id}/guilds/\d+/commands")


def stored_fingerprint(database: Path | str, target: str) -> str | None:
    rows = db_rows(
        database, "SELECT value FROM meta WHERE key = ?", (f"commands-fingerprint:{target}",)
    )
    return None if not rows else str(rows[0][0])


async def help_answered(users: Users) -> None:
    answer = await (await users.command("help", ALICE, GENERAL)).callback()
    assert answer.json["type"] == 4


# -- command sync -------------------------------------------------------------------------------


async def test_commands_are_synced_once_then_only_when_changed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path)
    async with running(bot) as users:
        (sync,) = sync_requests(fake)
        await help_answered(users)
    # The fingerprint stored is that of exactly what was sent, for this application and server.
    document = {
        "application_id": int(fake.application_id),
        "target": f"guild:{fake.guild.id}",
        "commands": sync.json,
    }
    expected = hashlib.sha256(
        json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    assert stored_fingerprint(bot.database, f"guild:{fake.guild.id}") == expected

    async with running(bot) as users:  # a restart with the same commands: no request at all
        assert len(sync_requests(fake)) == 1
        assert "commands unchanged since the last sync" in bot.log()
        await help_answered(users)

    # Another target (global commands) is another fingerprint: synced there once.
    bot.settings["DEV_GUILD_ID"] = ""
    async with running(bot):
        await bot.alive(poll(lambda: "synced 22 commands globally" in bot.log(), timeout=15))
    assert fake.find_requests("PUT", rf"/applications/{fake.application_id}/commands")
    assert stored_fingerprint(bot.database, "global") is not None


@pytest.mark.parametrize(("status", "code"), [(503, 0), (400, 50035)], ids=["503", "400"])
async def test_a_failing_sync_neither_stops_nor_blocks_the_bot(
    fake: FakeDiscord, tmp_path: Path, status: int, code: int
) -> None:
    fault = fake.inject(
        "PUT", r"/applications/\d+/guilds/\d+/commands", status, code=code, times=-1
    )
    bot = StartingBot(fake, tmp_path, COMMAND_SYNC_RETRY_SECONDS="0.3")
    async with running(bot) as users:
        await help_answered(users)  # the commands Discord already has are served
        await bot.alive(poll(lambda: fault.hits >= 2, timeout=15))  # retried, with backoff
        failures = re.findall(r"could not sync the commands \(guild:\d+\): (.*)", bot.log())
        assert failures and all(str(status) in line for line in failures), bot.log()
        assert "retrying in" in bot.log()
        fake.clear_faults()
        await bot.alive(poll(lambda: "synced 22 commands" in bot.log(), timeout=15))
        assert stored_fingerprint(bot.database, f"guild:{fake.guild.id}") is not None
        await help_answered(users)


async def test_a_long_rate_limit_on_the_sync_does_not_delay_the_gateway(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.inject("PUT", r"/applications/\d+/guilds/\d+/commands", 429, retry_after=6.0)
    bot = StartingBot(fake, tmp_path)
    async with running(bot) as users:
        # Connected and answering while discord.py still waits out the 429.
        await help_answered(users)
        assert "synced 22 commands" not in bot.log()
        await bot.alive(poll(lambda: "synced 22 commands" in bot.log(), timeout=30))
        assert len(sync_requests(fake)) == 2


async def test_a_dev_guild_the_bot_is_not_in_gets_one_clear_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fault = fake.inject(
        "PUT",
        r"/applications/\d+/guilds/\d+/commands",
        403,
        code=50001,
        message="Missing Access",
        times=-1,
    )
    bot = StartingBot(fake, tmp_path, COMMAND_SYNC_RETRY_SECONDS="0.1")
    async with running(bot) as users:
        line = await bot.alive(
            poll(lambda: re.search(r".*not in that server.*", bot.log()), timeout=15)
        )
        await help_answered(users)
        await asyncio.sleep(1.0)  # ten retry periods: none is made
        assert fault.hits == 1
    text = line.group(0)
    assert f"development server {fake.guild.id}" in text
    assert "unset DEV_GUILD_ID" in text and "https://discord.com/oauth2/authorize" in text
    assert bot.log().count("not in that server") == 1


async def test_the_invite_url_is_logged_with_the_permissions_needed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path)
    async with running(bot):
        pass
    (url,) = re.findall(r"invite the bot to a server with (\S+)", bot.log())
    assert url.startswith("https://discord.com/oauth2/authorize?")
    assert f"client_id={fake.application_id}" in url
    assert "scope=bot+applications.commands" in url
    view, send, embed, attach, history = 1 << 10, 1 << 11, 1 << 14, 1 << 15, 1 << 16
    threads, in_threads = 1 << 35, 1 << 38
    wanted = view | send | embed | attach | history | threads | in_threads
    assert f"permissions={wanted}" in url


# -- stopping while Discord is away -------------------------------------------------------------


async def test_sigterm_while_discord_is_unreachable_exits_quickly_and_cleanly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path, SCHEDULER_INTERVAL_SECONDS="0.2")
    async with running(bot, tracebacks=True) as users:
        sent = await users.command(
            "challenge",
            ALICE,
            GENERAL,
            opponent=user(str(fake.bot_user["id"])),
            variant="english",
            color="black",
        )
        await sent.callback()
        await fake.go_offline()
        # discord.py sleeps (up to 2**n seconds, at random) before each reconnect; wait for a
        # long sleep, which the stop used to wait out.
        await bot.alive(
            poll(
                lambda: any(
                    float(s) >= 6
                    for s in re.findall(r"Attempting a reconnect in ([\d.]+)s", bot.log())
                ),
                timeout=120,
            )
        )
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        while bot.proc.poll() is None and time.monotonic() - start < 30:
            await asyncio.sleep(0.05)
        elapsed = time.monotonic() - start
        assert bot.proc.poll() == 0, bot.log()
        # The bound: Docker kills after 10 s; with a generous margin for a slow machine.
        assert elapsed < 8, f"the stop took {elapsed:.1f} s"
    log = bot.log()
    after_stop = log[log.index("stop signal received") :]
    assert "Traceback" not in after_stop, after_stop
    assert re.search(r" stopped$", after_stop, re.MULTILINE)
    games = db_rows(bot.database, "SELECT id, ply, status FROM games")
    assert len(games) == 1 and games[0][2] == "running"
    (game_id, ply, _) = games[0]
    moves = db_rows(bot.database, "SELECT count(*) FROM moves WHERE game_id = ?", (game_id,))
    assert moves == [(ply,)]  # nothing half-written
    if bot.database_url is None:  # the SQLite file: sound, and closed
        with contextlib.closing(sqlite3.connect(bot.database_file)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        wal = Path(f"{bot.database_file}-wal")
        assert not wal.exists() or wal.stat().st_size == 0
    assert not bot.heartbeat.exists()


# -- refusing to start --------------------------------------------------------------------------


def _without_dac_override() -> None:
    """In the child, before exec: root loses the capabilities that ignore file modes, so a
    read-only file or folder is read-only to it as to anyone else."""
    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop, dac_override, dac_read_search, fowner = 24, 1, 2, 3
    for capability in (dac_override, dac_read_search, fowner):
        if libc.prctl(pr_capbset_drop, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


async def start_refused(
    fake: FakeDiscord,
    workdir: Path,
    database: Path,
    *,
    as_plain_user: bool = False,
    **settings: str,
) -> str:
    """Start ``python -m bot`` on ``database``: it must exit 1 with one error line, no traceback
    and not a single request to Discord; returns that line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        DISCORD_TOKEN="test-token",
        DATABASE_PATH=str(database),
        DEV_GUILD_ID=fake.guild.id,
        PYTHONUNBUFFERED="1",
        **settings,
    )
    requests, sessions = len(fake.requests), fake.sessions_identified
    extra: dict[str, Any] = {}
    if as_plain_user and os.geteuid() == 0:
        extra["preexec_fn"] = _without_dac_override
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(TESTS / "support" / "discord_launcher.py"),
        str(fake.port),
        "bot.__main__:main",
        "--main",
        cwd=workdir,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        **extra,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), REFUSAL_TIMEOUT)
    text = out.decode(errors="replace")
    assert proc.returncode == 1, text
    assert "Traceback" not in text, text
    # Never logged in: not one request, no gateway session.
    assert len(fake.requests) == requests and fake.sessions_identified == sessions, text
    errors = [line for line in text.splitlines() if "[ERROR" in line]
    assert len(errors) == 1, text
    return errors[0]


async def good_database(path: Path) -> Path:
    store = await SqliteStore.open(path)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(f"k{i}", "v" * 60) for i in range(2000)],
        )
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(16384))


def _halved(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _emptied(path: Path) -> None:
    os.truncate(path, 0)


def _bad_page(path: Path) -> None:
    with path.open("r+b") as file:
        file.seek((path.stat().st_size // 4096 - 1) * 4096)
        file.write(b"\xff" * 8)


def _newer(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_garbage, "not an SQLite database"),
        (_halved, "truncated"),
        (_emptied, "empty (0 bytes"),
        (_bad_page, "is damaged"),
        (_newer, "newer than this bot knows"),
    ],
    ids=["garbage", "truncated", "zero-bytes", "damaged-page", "newer-schema"],
)
@pytest.mark.sqlite_only(reason="a damaged SQLite file, refused by the checks run before start-up")
async def test_a_damaged_database_is_refused_before_login(
    fake: FakeDiscord, tmp_path: Path, damage: Callable[[Path], None], said: str
) -> None:
    database = await good_database(tmp_path / "draughts.db")
    damage(database)
    before = database.read_bytes()
    line = await start_refused(fake, tmp_path, database)
    assert said in line and str(database) in line
    assert "docs/OPERATIONS.md" in line
    assert database.read_bytes() == before  # left as it was found, for whoever repairs it
    assert not lock_path(database).exists()  # the lock was taken for the check, and let go


@pytest.mark.sqlite_only(reason="a read-only SQLite file")
async def test_a_read_only_database_file_is_refused_before_login(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    database = await good_database(tmp_path / "draughts.db")
    database.chmod(0o444)
    line = await start_refused(fake, tmp_path, database, as_plain_user=True)
    assert f"the database file {database} is not writable" in line
    assert "Permission denied" in line


@pytest.mark.sqlite_only(reason="a read-only folder for the SQLite file")
async def test_a_read_only_folder_is_refused_before_login(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    database = await good_database(folder / "draughts.db")
    folder.chmod(0o555)
    try:
        line = await start_refused(fake, tmp_path, database, as_plain_user=True)
    finally:
        folder.chmod(0o755)
    assert f"the folder {folder} of the database {database} is not writable" in line


@pytest.mark.sqlite_only(reason="a SQLite path that cannot be a file")
async def test_a_database_path_under_a_file_is_refused_before_login(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    (tmp_path / "data").write_text("a file, not a folder")
    line = await start_refused(fake, tmp_path, tmp_path / "data" / "draughts.db")
    assert "is a file, not a folder" in line


@pytest.mark.sqlite_only(
    reason="the single-process lock on the SQLite file (PostgreSQL is shared by design)"
)
async def test_a_second_bot_on_the_same_database_refuses_to_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    first = BotProcess(fake, tmp_path)
    await first.start()
    try:
        assert first.proc is not None
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        line = await start_refused(fake, elsewhere, first.database)
        assert f"the database {first.database} is in use by a bot (pid {first.proc.pid})" in line
        first.kill()  # kill -9: the lock dies with the process
        second = BotProcess(fake, tmp_path)
        async with running(second) as users:
            await help_answered(users)
    finally:
        if first.proc is not None and first.proc.poll() is None:
            first.kill()


@pytest.mark.sqlite_only(reason="the single-bot lock file beside the SQLite database")
async def test_a_refused_token_leaves_no_lock_file(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord refusing the token (a junk one) ends the start after the lock was taken: the exit
    removes the lock file, as a clean stop does, so no lock is left beside a bot that is not
    running."""
    fake.inject("GET", r"/users/@me", 401, times=-1)
    bot = BotProcess(fake, tmp_path)
    bot.spawn()
    assert bot.proc is not None
    assert await asyncio.to_thread(bot.proc.wait, REFUSAL_TIMEOUT) == 1, bot.log()
    assert "Discord refused DISCORD_TOKEN" in bot.log()
    assert "Traceback" not in bot.log()
    assert not lock_path(bot.database_file).exists()
    second = BotProcess(fake, tmp_path)  # and the next start (a good token) takes it again
    fake.clear_faults()
    async with running(second) as users:
        await help_answered(users)
        assert lock_path(second.database_file).exists()  # held while the bot runs
    assert not lock_path(second.database_file).exists()  # and removed by the clean stop


# -- the log at DEBUG ---------------------------------------------------------------------------


async def test_a_debug_log_holds_no_token(fake: FakeDiscord, tmp_path: Path) -> None:
    secret = "MTEwMDAwMDAwMDAwMDAwMDEw.GhIjKl.secret-bot-token"
    bot = BotProcess(fake, tmp_path, LOG_LEVEL="DEBUG", DISCORD_TOKEN=secret)
    async with running(bot) as users:
        helped = await users.command("help", ALICE, GENERAL)
        await helped.callback()
        sent = await users.command(
            "challenge",
            ALICE,
            GENERAL,
            opponent=user(str(fake.bot_user["id"])),
            variant="english",
            color="white",
        )
        await sent.callback()
        # /replay draws in a worker: a deferred answer, filled in by webhook.
        sent = await users.command("replay", ALICE, GENERAL)
        await first_answer(sent)
    log = bot.log()
    # discord.py did log the requests and events (so the check below means something) ...
    assert f"/interactions/{helped.payload['id']}/[redacted]/callback" in log
    assert f"/webhooks/{fake.application_id}/[redacted]" in log
    assert "INTERACTION_CREATE" in log
    # ... and no token of any interaction, nor the bot's own, is in it.
    for token in (helped.token, sent.token):
        assert token not in log
    assert secret not in log


# -- the health check ---------------------------------------------------------------------------


def healthcheck(bot: BotProcess, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "healthcheck", *args],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_PATH": str(bot.database_file),
            **({"DATABASE_URL": bot.database_url} if bot.database_url else {}),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_healthcheck_follows_the_running_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = BotProcess(fake, tmp_path, HEARTBEAT_SECONDS="0.2")
    alive = bot.heartbeat
    async with running(bot, tracebacks=True):
        await bot.alive(poll(alive.exists, timeout=15))
        result = await asyncio.to_thread(healthcheck, bot, "--max-age", "5")
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("healthy:")
        # Disconnected from Discord: the heartbeat stops, and the check notices.
        await fake.go_offline()
        await asyncio.sleep(1.0)
        written = alive.stat().st_mtime
        await asyncio.sleep(1.0)
        assert alive.stat().st_mtime == written
        result = await asyncio.to_thread(healthcheck, bot, "--max-age", "0.5")
        assert result.returncode == 1
        assert result.stderr.startswith("stale heartbeat")
        # Back online: fresh again.
        await fake.go_online()
        await bot.alive(poll(lambda: alive.stat().st_mtime > written, timeout=60))
        assert (await asyncio.to_thread(healthcheck, bot, "--max-age", "5")).returncode == 0
    result = await asyncio.to_thread(healthcheck, bot)
    assert result.returncode == 1 and "not running" in result.stderr  # stopped: file removed


def test_docker_style_healthcheck_without_a_bot(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "healthcheck"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_PATH": str(tmp_path / "draughts.db")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.strip().startswith("no heartbeat at")
