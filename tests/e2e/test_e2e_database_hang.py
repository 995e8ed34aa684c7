"""A database that hangs or is slow, against the real bot process, a real PostgreSQL server and
the fake Discord (issue 27, items 3 and 4): every interaction is answered within Discord's
3-second window, a hung database ends in a private "try again in a moment", the healthcheck says
unhealthy while the database does not answer and healthy again once it does, SIGTERM stops the
bot within the promised seconds whatever the database does, and a move held up by a lock is
acknowledged in time and answered once it goes through.

"Hung" is the whole server stopped with SIGSTOP (the postmaster and every process it started: each
backend is a process group of its own), as a frozen virtual machine or a stalled disk would leave
it: connections stay open and nothing answers.  The server is this module's own, since the
session's is shared.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    BotProcess,
    Sent,
    Users,
    content_of,
    db_rows,
    embed_of,
    first_answer,
    game_id_of,
    headline_of,
    is_ephemeral,
    poll,
)
from support.fake_discord import FakeDiscord, RecordedRequest
from support.pg_server import PostgresServer
from test_e2e_delivery import accepted, board_posts, started_game

from bot import health
from bot.ui.client import STOP_SECONDS

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.own_databases(
        reason="stops its own PostgreSQL server with SIGSTOP; the session's is shared"
    ),
]

TRY_AGAIN = "My database is not answering; try again in a moment."
DEFERRED = 5
"""The interaction response type "deferred channel message" (a "thinking…" answer)."""
HELD = 6
"""The interaction response type "deferred update message" (a button press held)."""
WAIT = 30.0
"""Hang guard for what the bot does within seconds (an operation's 8 s limit, a beat)."""
QUICK = {"HEARTBEAT_SECONDS": "0.3", "ENGINE_WORKERS": "1"}


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    with PostgresServer() as running:
        yield running


@pytest.fixture
async def dsn(server: PostgresServer) -> AsyncIterator[str]:
    async with server.fresh_database("hang") as fresh:
        yield fresh


@contextmanager
def frozen(server: PostgresServer) -> Iterator[None]:
    """The whole server stopped for the block (its process group: the postmaster and every
    backend)."""
    server.pause()
    try:
        yield
    finally:
        server.resume()


def healthcheck(bot: BotProcess) -> subprocess.CompletedProcess[str]:
    """``python -m bot healthcheck`` with the bot's settings, as Docker's HEALTHCHECK runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "healthcheck"],
        env=bot.env(),
        cwd=bot.workdir,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )


async def health_becomes(bot: BotProcess, healthy: bool) -> subprocess.CompletedProcess[str]:
    """Wait until the heartbeat says ``healthy`` (or not), then ask the healthcheck command."""
    await bot.alive(poll(lambda: health.check(bot.heartbeat).healthy is healthy, timeout=WAIT))
    result = await asyncio.to_thread(healthcheck, bot)
    assert (result.returncode == 0) is healthy, result
    return result


async def acknowledged(sent: Sent) -> int:
    """The type of the interaction's first response, which Discord accepted (in its window)."""
    callback = await sent.callback()
    assert callback.status < 300, (callback.status, callback.json)
    return int((callback.json or {})["type"])


async def answer_of(sent: Sent) -> RecordedRequest:
    """The request carrying the interaction's answer: its first response, or what filled in a
    "thinking…" one."""
    callback = await sent.callback()
    return callback if (callback.json or {}).get("type") != DEFERRED else await first_answer(sent)


async def told_to_try_again(sent: Sent, thinking: bool = True) -> None:
    """A deferred interaction whose work failed: the user alone is told to try again (after the
    "thinking…" of a command was deleted)."""
    answer = await sent.followup(0)
    assert is_ephemeral(answer), answer.json
    assert content_of(answer) == TRY_AGAIN
    original = f"/webhooks/{sent.users.fake.application_id}/{sent.token}/messages/@original"
    deleted = [r for r in sent.users.fake.requests if r.method == "DELETE" and r.path == original]
    assert len(deleted) == thinking


def stored_plies(bot: BotProcess, game_id: int) -> int:
    [(plies,)] = db_rows(bot.database, "SELECT COUNT(*) FROM moves WHERE game_id = ?", [game_id])
    return int(plies)


def clean_log(bot: BotProcess) -> str:
    log = bot.log()
    assert "Traceback" not in log, log
    return log


async def test_a_stopped_database_is_answered_reported_and_does_not_hold_up_a_stop(
    fake: FakeDiscord, server: PostgresServer, dsn: str, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path, dsn, **QUICK)
    await bot.start()
    users = Users(fake, bot)
    accept = await accepted(users)
    board = fake.message_of(await accept.followup(0))
    assert board is not None
    game_id = game_id_of(board["embeds"][0])
    await health_becomes(bot, healthy=True)

    with frozen(server):
        move = await users.command("move", ALICE, GENERAL, move="11-15")
        games = await users.command("games", ALICE, GENERAL)
        abort = await users.press(f"board:abort:{game_id}", board, ALICE)
        # Each acknowledged within the window, each told to try again; nothing changed.
        assert await acknowledged(move) == DEFERRED
        assert await acknowledged(games) == DEFERRED
        assert await acknowledged(abort) == HELD
        await told_to_try_again(move)
        await told_to_try_again(games)
        await told_to_try_again(abort, thinking=False)
        unhealthy = await health_becomes(bot, healthy=False)
        assert "database" in unhealthy.stderr, unhealthy.stderr

    await health_becomes(bot, healthy=True)
    assert stored_plies(bot, game_id) == 0
    played = await users.command("move", ALICE, GENERAL, move="11-15")
    assert headline_of(embed_of(await answer_of(played))) == "Alice played 11-15."
    assert stored_plies(bot, game_id) == 1

    with frozen(server):
        stuck = await users.command("move", BOB, GENERAL, move="22-18")
        assert await acknowledged(stuck) == DEFERRED
        # The documented stop time, whatever the database does (BotProcess.stop fails the test
        # with the bot's log, its tasks and its threads if it is exceeded).
        assert await bot.stop(timeout=STOP_SECONDS) == 0

    log = clean_log(bot)
    # One warning line per interaction the database failed, not a traceback (the move stuck at
    # the stop is told too when its connection is dropped before the process ends: once).
    for failed in (move, games, abort):
        line = f"interaction {failed.payload['id']} not done: PostgreSQL did not answer"
        assert log.count(line) == 1, log
    assert log.count(f"interaction {stuck.payload['id']} not done") <= 1, log
    assert log.count("not done") <= 4, log


async def test_a_move_held_up_by_a_table_lock_is_deferred_in_time_then_answered_once(
    fake: FakeDiscord, dsn: str, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path, dsn, **QUICK)
    await bot.start()
    users = Users(fake, bot)
    game_id = await started_game(users)

    locker = await asyncpg.connect(dsn)
    try:
        async with locker.transaction():
            await locker.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            move = await users.command("move", ALICE, GENERAL, move="11-15")
            assert await acknowledged(move) == DEFERRED
            await asyncio.sleep(2.0)  # the lock is held past Discord's 3 s window
    finally:
        await locker.close()

    answer = await first_answer(move)
    assert headline_of(embed_of(answer)) == "Alice played 11-15."
    assert stored_plies(bot, game_id) == 1
    assert board_posts(fake, game_id) == []  # answered once, by the interaction's own message
    assert await bot.stop() == 0
    clean_log(bot)
