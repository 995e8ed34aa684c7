"""End to end, the computer's worker processes cannot start: the bot says so once, everywhere.

The bot is the real ``python -m bot``; its :mod:`multiprocessing` makes its sockets in a folder
that does not exist (``FAKE_MULTIPROCESSING_DIR``, see ``tests/support/discord_launcher.py``), so
its forkserver, hence every engine worker, fails to start, as when the temporary folder or
``/dev/shm`` is not writable.  Alice moves in a game against the computer:

- she is told once that the computer is unavailable and her game waits, however many scheduler
  checks ask the computer again;
- the log has one line with the cause, no traceback;
- the health check fails, naming the problem.

Then the folder is made: the workers start at the next try, the computer moves, the log says
they are back, and the health check passes again.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from support.e2e_harness import (
    ALICE,
    GENERAL,
    BotProcess,
    Launch,
    channel_posts,
    content_of,
    embed_of,
    headline_of,
    poll,
    user,
)
from support.fake_discord import FakeDiscord
from test_e2e_startup import healthcheck

from rules import Game, find_variant

pytestmark = pytest.mark.e2e

WAIT = 30.0
"""Hang guard: the first retry comes 2 s after the failure, the next 4 s after that."""
SETTLE = 1.5
"""Several scheduler checks (0.2 s each), each asking the computer again."""
AWAY = "The computer is unavailable right now; your game waits"
CANNOT_START = "the engine worker processes cannot start: FileNotFoundError"
REPLY = re.compile(r"DraughtsBot played (\S+)\.")


def heartbeat_lines(bot: BotProcess) -> list[str]:
    """The heartbeat file's lines (none before the first beat: discord.py reports ready about
    2 s after connecting)."""
    return bot.heartbeat.read_text().splitlines() if bot.heartbeat.exists() else []


def notices(fake: FakeDiscord) -> list[str]:
    return [content_of(p) for p in channel_posts(fake, GENERAL) if AWAY in content_of(p)]


def replies(fake: FakeDiscord) -> list[str]:
    found = []
    for post in channel_posts(fake, GENERAL):
        embeds = post.json.get("embeds") or []
        reply = REPLY.match(headline_of(embeds[0]) or "") if embeds else None
        if reply:
            found.append(reply[1])
    return found


async def test_workers_that_cannot_start_are_reported_once_and_recover(
    launch: Launch, fake: FakeDiscord, tmp_path: Path
) -> None:
    missing = tmp_path / "multiprocessing"
    bot, users = await launch(
        FAKE_MULTIPROCESSING_DIR=str(missing),
        ENGINE_WORKERS="1",
        ENGINE_MOVE_TIME_SECONDS="0.05",
        HEARTBEAT_SECONDS="0.2",
    )
    sent = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(str(fake.bot_user["id"])),
        variant="english",
        color="black",
        level=1,
    )
    assert (await sent.callback()).json["type"] == 4
    game = Game(find_variant("english"))
    first = game.legal_moves()[0].pdn()
    moved = await users.command("move", ALICE, GENERAL, move=first)
    assert f"played {first}." in (headline_of(embed_of(await moved.callback())) or "")

    # Told once, in the channel, with a mention.
    await bot.alive(poll(lambda: notices(fake), timeout=WAIT))
    await asyncio.sleep(SETTLE)
    (notice,) = notices(fake)
    assert notice.startswith(f"<@{ALICE}> "), notice
    log = bot.log()
    assert log.count(CANNOT_START) == 1 and "Traceback" not in log, log
    await bot.alive(poll(lambda: len(heartbeat_lines(bot)) == 2, timeout=WAIT))
    checked = await asyncio.to_thread(healthcheck, bot, "--max-age", "10")
    assert checked.returncode == 1, checked.stdout
    assert "the engine worker processes cannot start (FileNotFoundError" in checked.stderr
    assert replies(fake) == []

    # The folder is there now: the workers start at the next try, and the computer moves.
    missing.mkdir()
    await bot.alive(poll(lambda: replies(fake), timeout=WAIT))
    game.play(first)
    game.play(replies(fake)[0])  # legal where it was made
    assert "the engine worker processes started again" in bot.log()
    await bot.alive(poll(lambda: len(heartbeat_lines(bot)) == 1, timeout=WAIT))
    checked = await asyncio.to_thread(healthcheck, bot, "--max-age", "10")
    assert checked.returncode == 0, checked.stderr
    assert len(notices(fake)) == 1 and bot.log().count(CANNOT_START) == 1
