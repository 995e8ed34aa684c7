"""End to end, a rolling restart on PostgreSQL: the new process starts while the old one still
runs, both connected to the gateway for every server, so Discord sends each interaction to both.

The old process owns the shard (its advisory lock); the new one leaves every interaction to it,
in a server or in a DM, so each is answered once, by the owner (the new one logs each it left).
When the old one stops, the new one takes over at the next interaction, not at its next
scheduler check (a minute away here), and answers it.  Then a third process starts with
``SHARD_COUNT=2`` for the guild's shard: shards of another count cover the servers differently,
so it takes none while the new one runs, and leaves it every interaction.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.discord_launcher import GUARD_MARKER
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    BotProcess,
    Sent,
    Users,
    custom_ids,
    embed_of,
    game_id_of,
    headline_of,
    poll,
    user,
)
from support.fake_discord import FakeDiscord, shard_of

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.own_databases(reason="two processes share one PostgreSQL database"),
]

WAIT = 30.0
"""Hang guard for what a bot does within a second or two."""


def answers(fake: FakeDiscord, sent: Sent) -> int:
    """How many initial responses the interaction got (Discord takes one; a second answer is
    refused, after the second process has done the work)."""
    path = f"/interactions/{sent.payload['id']}/{sent.token}/callback"
    return sum(1 for r in fake.requests if r.method == "POST" and r.path == path)


async def answered_once(fake: FakeDiscord, bot: BotProcess, sent: Sent) -> None:
    """Wait until ``bot`` has logged leaving the interaction to the process that owns it (or
    has answered it too), and check it was answered once."""
    line = f"interaction {sent.payload['id']} left to the process that owns its shard"
    await bot.alive(poll(lambda: line in bot.log() or answers(fake, sent) > 1, timeout=WAIT))
    assert answers(fake, sent) == 1, [r.json for r in fake.requests if sent.token in r.path]


@pytest.fixture
async def processes(
    fake: FakeDiscord, tmp_path: Path, pg_dsn: str
) -> AsyncIterator[tuple[BotProcess, BotProcess, BotProcess]]:
    """The old process, the new one for the same servers, and one with ``SHARD_COUNT=2`` for
    the shard of the fake's guild, on one database; all must stop cleanly.  The new one logs
    at DEBUG (the interactions it leaves) and checks its schedule once a minute, so only an
    interaction can make it take over within the test; so does the third."""
    waiting = {"LOG_LEVEL": "DEBUG", "SCHEDULER_INTERVAL_SECONDS": "60"}
    shard = shard_of(int(fake.guild.id), 2)
    old = BotProcess(fake, tmp_path / "old", pg_dsn)
    new = BotProcess(fake, tmp_path / "new", pg_dsn, **waiting)
    other = BotProcess(
        fake,
        tmp_path / "other",
        pg_dsn,
        shards=[shard],
        SHARD_COUNT="2",
        SHARD_IDS=str(shard),
        **waiting,
    )
    for bot in (old, new, other):
        bot.workdir.mkdir()
    yield old, new, other
    for bot in (old, new, other):
        if bot.proc is not None and bot.proc.poll() is None:
            assert await bot.stop() == 0, bot.log()
        log = bot.log()
        assert GUARD_MARKER not in log and "Traceback" not in log, log


async def test_a_new_process_leaves_interactions_to_the_owner_then_takes_over(
    fake: FakeDiscord, processes: tuple[BotProcess, BotProcess, BotProcess]
) -> None:
    old, new, other = processes
    await old.start()
    at_old = Users(fake, old)
    challenge = await at_old.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    accept = next(i for i in custom_ids(await challenge.callback()) if "accept" in i)
    pressed = await at_old.press(accept, challenge.message(), BOB)
    await pressed.callback()
    game = game_id_of(embed_of(await pressed.followup(0)))

    await new.start()
    at_new = Users(fake, new)
    assert len({s.id for s in fake.sessions if s.connected}) == 2  # both hear every server

    # A move and a DM: each answered once, by the old process (the new one left it).
    move = await at_new.command("move", ALICE, GENERAL, move="11-15")
    assert "played 11-15." in (headline_of(embed_of(await move.callback())) or "")
    await answered_once(fake, new, move)
    dm = await at_new.command("games", BOB, fake.dm_channel_id(BOB))
    await dm.callback()
    await answered_once(fake, new, dm)
    assert "held by another process, which answers their servers" in new.log()
    assert "The position changed" not in str([r.json for r in fake.requests])

    # The old process stops; the next interaction is the new one's.
    assert await old.stop() == 0
    reply = await at_new.command("move", BOB, GENERAL, move="22-18")
    embed = embed_of(await reply.callback())
    assert "played 22-18." in (headline_of(embed) or "") and game_id_of(embed) == game
    assert answers(fake, reply) == 1
    assert re.search(r"now serving shard 0 of 1", new.log()), new.log()
    assert f"interaction {reply.payload['id']} left" not in new.log()

    # A process with another SHARD_COUNT takes nothing while this one runs, and answers nothing.
    await other.start()
    move = await Users(fake, other).command("move", ALICE, GENERAL, move="15x22")
    assert "played 15x22." in (headline_of(embed_of(await move.callback())) or "")
    await answered_once(fake, other, move)
    assert "another process runs with SHARD_COUNT=1" in other.log()
