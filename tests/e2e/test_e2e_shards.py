"""End to end, many servers: a SQLite bot moved to PostgreSQL, then two bot processes for shards
0-1 and 2-3 of 4, a ``kill -9`` of one and its restart.

The fake Discord serves four guilds, one per shard, and routes each guild's interactions to the
session of its shard (``tests/support/fake_discord.py``).  The bots are the real ``python -m bot``:

1. One unsharded bot on a SQLite file starts a game in the guild of shard 0 and one in the guild
   of shard 2, and stops.
2. ``python -m bot migrate-db --to postgresql://...`` copies the file into PostgreSQL.
3. Process A (``SHARD_IDS=0-1``) and process B (``SHARD_IDS=2-3``) start on that database. Only A
   (shard 0's) syncs the commands. Both migrated games go on, each answered by its own shard's
   process; a game against the computer on each side gets its replies.
4. B is killed with ``kill -9`` while its game's clock runs out. While it is dead, A announces
   nothing in B's guilds (and goes on serving its own); restarted, B announces the loss on time
   exactly once, and its other games go on where they were.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.discord_launcher import GUARD_MARKER, install_network_guard, set_network_guard
from support.e2e_harness import (
    COMMANDS_SETTLED,
    BotProcess,
    Users,
    channel_posts,
    custom_ids,
    embed_of,
    footer_of,
    headline_of,
    is_ephemeral,
    post_number,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord, Guild, guild_on_shard
from support.migrate_cli import migrate_cli

from rules import Game, find_variant, read_game

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.own_databases(
        reason="moves a SQLite database to PostgreSQL itself; the sharded processes need "
        "PostgreSQL whatever E2E_DATABASE says"
    ),
]

COUNT = 4
QUICK = {
    "SCHEDULER_INTERVAL_SECONDS": "0.2",
    "ENGINE_MOVE_TIME_SECONDS": "0.1",
    "ENGINE_WORKERS": "1",
    "DEV_GUILD_ID": "",  # global commands: the same in every guild
}
LOST_ON_TIME = re.compile(r"(?P<name>\S+) ran out of time\.")
SCHEDULED_TIMEOUT = 20.0


@pytest.fixture
async def sharded() -> AsyncIterator[tuple[FakeDiscord, list[Guild]]]:
    """The fake Discord with a guild on each shard of 4 (``guilds[s]`` on shard ``s``)."""
    guilds = [guild_on_shard(shard, COUNT) for shard in range(COUNT)]
    install_network_guard()
    try:
        async with FakeDiscord(guilds=guilds) as fake:
            yield fake, guilds
            assert fake.violations == [], fake.violations
            assert fake.unknown_requests == [], fake.unknown_requests
    finally:
        set_network_guard(False)


def member(guild: Guild, name: str) -> str:
    return guild.user_id(f"{name}.{guild.shard(COUNT)}.0")


def english() -> Game:
    return Game(find_variant("english"))


async def human_game(users: Users, guild: Guild, channel: str, move_time: int = 3600) -> int:
    """Alice challenges Bob in ``channel`` of ``guild`` (she plays Black: she moves first), and
    Bob accepts; the game's id."""
    alice, bob = member(guild, "alice"), member(guild, "bob")
    sent = await users.command(
        "challenge",
        alice,
        channel,
        opponent=user(bob),
        variant="english",
        color="black",
        move_time=move_time,
    )
    answer = await sent.callback()
    assert not is_ephemeral(answer), answer.json
    accept = [c for c in custom_ids(sent.message()) if c.startswith("challenge:accept:")]
    press = await users.press(accept[0], sent.message(), bob)
    assert (await press.callback()).json["type"] == 7
    board = await press.followup()
    footer = footer_of(embed_of(board))
    found = re.match(r"Game #(\d+) ", footer)
    assert found, footer
    return int(found[1])


async def move(users: Users, player: str, channel: str, text: str) -> dict[str, object]:
    """``/move``: answered publicly with the board; the answer's embed."""
    sent = await users.command("move", player, channel, move=text)
    answer = await sent.callback()
    assert answer.json["type"] == 4 and not is_ephemeral(answer), answer.json
    embed = embed_of(answer)
    assert (headline_of(embed) or "").endswith(f" played {text}."), embed
    return embed


async def record(users: Users, player: str, channel: str) -> Game:
    """``/pdn``: the channel's game as the rules read it."""
    answer = await (await users.command("pdn", player, channel)).callback()
    (name,) = answer.files
    return read_game(answer.files[name]).game


def shards_of(fake: FakeDiscord, sent_payload: dict[str, object]) -> set[int]:
    return {session.shard_id for session in fake.delivered_to(sent_payload)}


async def computer_game(users: Users, fake: FakeDiscord, guild: Guild, channel: str) -> Game:
    """A game against the computer in ``channel``: Alice's first move and the computer's reply
    (a post in the channel); the game as both sides see it."""
    alice = member(guild, "alice")
    sent = await users.command(
        "challenge",
        alice,
        channel,
        opponent=user(str(fake.bot_user["id"])),
        variant="english",
        color="black",
        level=1,
    )
    assert (await sent.callback()).json["type"] == 4
    local = english()
    first = local.legal_moves()[0].pdn()
    await move(users, alice, channel, first)
    local.play(first)
    await computer_replied(users, channel, local, 0)
    return local


async def computer_replied(users: Users, channel: str, local: Game, index: int) -> None:
    """The computer's ``index``-th reply in ``channel``: legal where it was made."""
    reply = await post_number(users, channel, index)
    found = re.fullmatch(r"DraughtsBot played (\S+)\.", headline_of(embed_of(reply)) or "")
    assert found, embed_of(reply)
    local.play(found[1])
    assert to_move_in(reply) is not None


def final_posts(fake: FakeDiscord, channel: str, game_id: int) -> list[tuple[int, str]]:
    """Posts in ``channel`` saying ``game_id`` was lost on time: (the request's number among
    everything the bots sent, who ran out)."""
    found = []
    for number, post in enumerate(fake.requests):
        if post.method != "POST" or post.path != f"/channels/{channel}/messages":
            continue
        for embed in post.json.get("embeds") or []:
            if footer_of(embed).startswith(f"Game #{game_id} · "):
                lost = LOST_ON_TIME.match(headline_of(embed) or "")
                if lost:
                    found.append((number, lost["name"]))
    return found


def clean_stop_log(bot: BotProcess) -> None:
    log = bot.log()
    assert GUARD_MARKER not in log, log
    assert "Traceback" not in log, log


async def test_two_processes_share_the_shards_after_a_migration_and_survive_a_kill(
    sharded: tuple[FakeDiscord, list[Guild]], tmp_path: Path, pg_dsn: str
) -> None:
    fake, guilds = sharded
    low, high = guilds[0], guilds[2]  # A's and B's guilds for the human games

    # 1. One bot, one SQLite file, every guild.
    solo = BotProcess(fake, tmp_path / "solo", **QUICK)
    (tmp_path / "solo").mkdir()
    await solo.start()
    users = Users(fake, solo)
    await human_game(users, low, low.channel_id("general"))
    await human_game(users, high, high.channel_id("general"))
    await move(users, member(low, "alice"), low.channel_id("general"), "11-15")
    await move(users, member(high, "alice"), high.channel_id("general"), "9-13")
    assert await solo.stop() == 0
    clean_stop_log(solo)

    # 2. The file, into PostgreSQL.
    done = migrate_cli(solo.database_file, pg_dsn, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified: 2 games replayed" in done.stdout, done.stdout

    # 3. Two processes, two shards each, one database.
    fake.shard_count = COUNT
    # Clocks of new games run fast (300 s a move scaled by 0.02: 6 s); the migrated games keep
    # the hour they were given.
    fast = {**QUICK, "SHARD_COUNT": "4", "MOVE_TIME_SCALE": "0.02"}
    a = BotProcess(fake, tmp_path / "a", pg_dsn, shards=[0, 1], SHARD_IDS="0-1", **fast)
    b = BotProcess(fake, tmp_path / "b", pg_dsn, shards=[2, 3], SHARD_IDS="2-3", **fast)
    for process in (a, b):
        process.workdir.mkdir()
    await asyncio.gather(a.start(), b.start())
    try:
        assert "ready to serve shards 0-1 of 4" in a.log()
        assert "ready to serve shards 2-3 of 4" in b.log()
        # The commands are the whole bot's: shard 0's process keeps them (the SQLite bot's sync
        # came over with the database), the other never syncs.
        assert "commands unchanged since the last sync" in a.log()
        assert not COMMANDS_SETTLED.search(b.log()) and "sync the commands" not in b.log()
        at_a, at_b = Users(fake, a), Users(fake, b)

        # The migrated games go on, each in its own shard's process.
        sent = await at_a.command(
            "move", member(low, "bob"), low.channel_id("general"), move="22-18"
        )
        assert (await sent.callback()).json["type"] == 4
        assert shards_of(fake, sent.payload) == {0}
        sent = await at_b.command(
            "move", member(high, "bob"), high.channel_id("general"), move="22-18"
        )
        assert (await sent.callback()).json["type"] == 4
        assert shards_of(fake, sent.payload) == {2}
        game = await record(at_a, member(low, "bob"), low.channel_id("general"))
        assert [m.pdn() for m in game.moves] == ["11-15", "22-18"]

        # A game against the computer on each side.
        a_game = await computer_game(at_a, fake, guilds[1], guilds[1].channel_id("general"))
        b_game = await computer_game(at_b, fake, guilds[3], guilds[3].channel_id("general"))

        # 4. A game of B's with a short clock. Both players move, so running out loses; then B
        # dies while Alice's clock runs.
        clock_channel = high.channel_id("draughts")
        short = await human_game(at_b, high, clock_channel, move_time=300)
        await move(at_b, member(high, "alice"), clock_channel, "11-15")
        await move(at_b, member(high, "bob"), clock_channel, "23-19")
        b.kill()
        killed_at = time.monotonic()
        # A goes on serving its own guilds meanwhile, and posts nothing in B's.
        sent = await at_a.command(
            "move", member(low, "alice"), low.channel_id("general"), move="8-11"
        )
        assert (await sent.callback()).json["type"] == 4
        b_posts = {
            c: len(channel_posts(fake, c)) for g in (guilds[2], guilds[3]) for c in g.channels
        }
        await asyncio.sleep(max(0.0, killed_at + 9.0 - time.monotonic()))  # deadline long past
        assert final_posts(fake, clock_channel, short) == []
        assert {c: len(channel_posts(fake, c)) for c in b_posts} == b_posts
        assert "ran out of time" not in a.log()

        restarted = len(fake.requests)
        await b.start()
        at_b = Users(fake, b)
        await b.alive(
            fake.wait_until(lambda: final_posts(fake, clock_channel, short), SCHEDULED_TIMEOUT)
        )
        await asyncio.sleep(2.0)  # ten more checks of both processes: still once
        ((number, who),) = final_posts(fake, clock_channel, short)
        assert number >= restarted and who == "Alice.2.0"

        # Nothing of B's was lost: its games go on where they were.
        game = await record(at_b, member(high, "bob"), high.channel_id("general"))
        assert [m.pdn() for m in game.moves] == ["9-13", "22-18"]
        b_next = b_game.legal_moves()[0].pdn()
        await move(at_b, member(guilds[3], "alice"), guilds[3].channel_id("general"), b_next)
        b_game.play(b_next)
        await computer_replied(at_b, guilds[3].channel_id("general"), b_game, 1)
        a_next = a_game.legal_moves()[0].pdn()
        await move(at_a, member(guilds[1], "alice"), guilds[1].channel_id("general"), a_next)
        a_game.play(a_next)
        await computer_replied(at_a, guilds[1].channel_id("general"), a_game, 1)
    finally:
        for process in (a, b):
            if process.proc is not None and process.proc.poll() is None:
                assert await process.stop() == 0, process.log()
    for process in (a, b):
        clean_stop_log(process)
