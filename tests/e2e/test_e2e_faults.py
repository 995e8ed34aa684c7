"""Faults injected where Discord produces them, against the real bot process: whatever fails, every
change players must see is shown exactly once, never lost and never doubled.

The outbox promises that (an announcement is written with its change, delivered by the
interaction's answer or else posted in the channel with a nonce, retried, and posted late after a
restart).  These tests break each step of that path on the fake Discord of
``tests/support/fake_discord.py`` (a long 429 or 5xx on the answer, an expired token on a follow-up,
a permission taken away from a scheduler post, gateway reconnects and invalid sessions, SIGTERM in a
burst of posts, SIGKILL between a commit and its post, an answer still on its way when the bot
gets ready, a restart after two hours away) and count what players can see: every message the
fake holds, answer or post, that shows a given ply's board (its image is
``game-<id>-<ply>.png``), or a game's end (its record ``.pdn``).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    BotProcess,
    Launch,
    Sent,
    Users,
    channel_posts,
    content_of,
    custom_ids,
    db_dicts,
    db_rows,
    db_run,
    embed_of,
    field,
    game_id_of,
    headline_of,
    poll,
    user,
)
from support.fake_discord import FakeDiscord
from test_e2e_delivery import owed, started_game

from bot.results import Player
from bot.service import GameService
from rules import Game, find_variant

pytestmark = pytest.mark.e2e

ANSWER = r"/interactions/\d+/[^/]+/callback"
POSTS = r"/channels/\d+/messages"
WAIT = 30.0
"""Hang guard for anything the bot does within seconds (a retry backoff of up to 12.5 s)."""
SETTLE = 1.0
"""Several scheduler rounds (0.2 s each) in which nothing more may be posted."""


# -- what players see --------------------------------------------------------------------------


def boards_shown(fake: FakeDiscord, game_id: int) -> Counter[int]:
    """For each ply of ``game_id``: how many messages (answers, follow-ups and posts alike)
    show the board after it."""
    image = re.compile(rf"game-{game_id}-(\d+)\.png")
    shown: Counter[int] = Counter()
    for message in fake.messages.values():
        for attachment in message.get("attachments") or []:
            if found := image.fullmatch(str(attachment.get("filename"))):
                shown[int(found[1])] += 1
    return shown


def shown_where(fake: FakeDiscord, game_id: int) -> str:
    """Each board of ``game_id`` players see, by ply: an interaction's answer, or a post."""
    image = re.compile(rf"game-{game_id}-(\d+)\.png")
    lines = []
    for message in fake.messages.values():
        for attachment in message.get("attachments") or []:
            if found := image.fullmatch(str(attachment.get("filename"))):
                how = "answer" if "interaction_metadata" in message else "post"
                text = str((message.get("embeds") or [{}])[0].get("description"))
                lines.append(f"ply {found[1]}: {how}: {text}")
    return "\n".join(sorted(lines))


def messages_with(fake: FakeDiscord, channel: str, filename: str) -> list[dict[str, Any]]:
    """Messages in ``channel`` with an attachment named ``filename``."""
    return [
        m
        for m in fake.messages.values()
        if m["channel_id"] == channel
        and any(a.get("filename") == filename for a in m.get("attachments") or [])
    ]


def endings(fake: FakeDiscord, channel: str, game_id: int) -> list[dict[str, Any]]:
    """Messages announcing the end of ``game_id``: the final board, with the game's record."""
    return messages_with(fake, channel, f"draughts-game-{game_id}.pdn")


def replays(fake: FakeDiscord, channel: str, game_id: int) -> list[dict[str, Any]]:
    return messages_with(fake, channel, f"game-{game_id}.gif")


def game_row(database: Path | str, game_id: int) -> dict[str, Any]:
    [row] = db_dicts(database, "SELECT * FROM games WHERE id = ?", (game_id,))
    return row


def stored_moves(database: Path | str, game_id: int) -> list[str]:
    rows = db_rows(database, "SELECT pdn FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
    return [str(r[0]) for r in rows]


def heard_at(database: Path | str) -> str | None:
    """The ``meta`` record of the bot's last scheduler check that could hear players."""
    rows = db_rows(database, "SELECT value FROM meta WHERE key = 'heard_at'")
    return None if not rows else str(rows[0][0])


async def hearing(bot: BotProcess) -> None:
    """Wait for this process's first scheduler check that hears players: discord.py reports
    ready about 2 s after connecting (it waits for more guilds), and only then does the
    scheduler check deadlines and deliver what is owed.  Interactions are answered before."""
    before = heard_at(bot.database)  # every check writes a new value
    await bot.alive(poll(lambda: heard_at(bot.database) not in (None, before), timeout=WAIT))


async def ready(launch: Launch, **settings: str) -> tuple[BotProcess, Users]:
    """The bot launched, and past its start-up catch-up (see :func:`hearing`)."""
    bot, users = await launch(**settings)
    await hearing(bot)
    return bot, users


async def people_game(users: Users, **options: Any) -> int:
    """Alice (Black, first to move) v Bob in GENERAL, with ``options`` of ``/challenge``."""
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black", **options
    )
    accept = next(i for i in custom_ids(await sent.callback()) if "accept" in i)
    pressed = await users.press(accept, sent.message(), BOB)
    await pressed.callback()
    return game_id_of(embed_of(await pressed.followup(0)))


async def answered(users: Users, player: str, move: str) -> None:
    """``/move`` answered at once with the board."""
    callback = await (await users.command("move", player, GENERAL, move=move)).callback()
    assert callback.json["type"] == 4, callback.json
    assert f"played {move}." in (headline_of(embed_of(callback)) or "")


# -- the interaction's answer fails ------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "times", "retry_after"),
    [(429, 1, 5.0), (500, 2, None)],
    ids=["429-longer-than-the-window", "500-twice"],
)
async def test_a_move_whose_answer_fails_is_shown_exactly_once(
    launch: Launch, fake: FakeDiscord, status: int, times: int, retry_after: float | None
) -> None:
    """discord.py waits out the 429 (5 s) or retries the 5xx (1 s, then 3 s), by which time
    Discord's 3 s window is gone: the move stands and is shown once, by a channel post."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    fault = fake.inject("POST", ANSWER, status, times=times, retry_after=retry_after)
    await users.command("move", ALICE, GENERAL, move="11-15")
    await bot.alive(
        poll(lambda: boards_shown(fake, game_id)[1] and not owed(bot.database), timeout=WAIT)
    )
    await asyncio.sleep(SETTLE)
    assert fault.hits == times
    assert stored_moves(bot.database, game_id) == ["11-15"]
    assert boards_shown(fake, game_id) == Counter({0: 1, 1: 1}), shown_where(fake, game_id)
    assert owed(bot.database) == 0


async def test_an_answer_on_its_way_when_the_bot_gets_ready_is_not_posted_too(
    launch: Launch, fake: FakeDiscord
) -> None:
    """The first delivery of a process hands out what an earlier process left owed; a move
    answered (slowly, but within the window) while this process waits for discord.py's ready
    is this process's own and must not be posted in the channel as well."""
    fake.hold_ready()  # servers keep arriving: discord.py is not ready until released
    bot, users = await launch()
    game_id = await started_game(users)
    fake.inject("POST", ANSWER, 0, delay=2.0)  # lands within the 3 s window
    sent = await users.command("move", ALICE, GENERAL, move="11-15")
    fake.release_ready()  # ready about 2 s from now, while the answer is on its way
    assert heard_at(bot.database) is None, "the bot was ready before the move"
    answer = await sent.callback()  # recorded on arrival, answered after the delay
    await bot.alive(poll(lambda: answer.status, timeout=WAIT))
    assert answer.status < 300, answer.error
    await hearing(bot)
    await asyncio.sleep(SETTLE)
    assert boards_shown(fake, game_id) == Counter({0: 1, 1: 1}), shown_where(fake, game_id)
    assert owed(bot.database) == 0


async def test_a_follow_up_on_an_expired_token_is_posted_in_the_channel(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Accept updates the challenge, then its board follow-up meets a dead token (401 50027,
    as 15 minutes after the press): the board is posted in the channel instead, once."""
    bot, users = await ready(launch)
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    accept = next(i for i in custom_ids(await sent.callback()) if "accept" in i)
    payload = fake.button_interaction(accept, sent.message(), user_id=BOB)
    expired = fake.inject(
        "POST",
        rf"/webhooks/{fake.application_id}/{re.escape(payload['token'])}",
        401,
        code=50027,
        message="Invalid Webhook Token",
        times=-1,
    )
    await fake.send_interaction(payload)
    update = await Sent(users, payload).callback()
    assert update.json["type"] == 7 and field(embed_of(update), "Status") == "Accepted: game #1"
    await bot.alive(poll(lambda: boards_shown(fake, 1) and not owed(bot.database), timeout=WAIT))
    await asyncio.sleep(SETTLE)
    assert expired.hits >= 1
    assert boards_shown(fake, 1) == Counter({0: 1})
    [post] = channel_posts(fake, GENERAL)
    assert game_id_of(embed_of(post)) == 1 and post.json["enforce_nonce"] is True


# -- a scheduler post refused ------------------------------------------------------------------


async def test_a_timeout_refused_for_permissions_is_announced_once_they_are_back(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Discord refuses the timeout's post (403 50013, Send Messages taken away): the game
    ends all the same, the announcement waits, and is posted once when the permission is back
    (at the retry after the backoff, 7.5 to 12.5 s on)."""
    bot, users = await ready(launch, MOVE_TIME_SCALE="0.02", SCHEDULER_INTERVAL_SECONDS="0.2")
    game_id = await people_game(users, move_time=300)  # 6 s per move, reminded after 3 s
    # A move each (well within the time), so that running out of time loses the game: before
    # a player's first move it would be aborted instead.
    await answered(users, ALICE, "11-15")
    await answered(users, BOB, "22-18")

    def reminders() -> list[Any]:
        return [p for p in channel_posts(fake, GENERAL) if "half of your time" in content_of(p)]

    await bot.alive(poll(reminders, timeout=WAIT))
    fake.deny(GENERAL, "send_messages")  # before the timeout, 3 s away

    def refused() -> list[Any]:
        return [r for r in fake.refusals if re.fullmatch(POSTS, r.path) and r.status == 403]

    await bot.alive(poll(lambda: len(refused()) >= 2, timeout=WAIT))  # posted, and retried
    assert game_row(bot.database, game_id)["status"] == "finished"  # the timeout is recorded
    assert endings(fake, GENERAL, game_id) == [] and owed(bot.database) >= 1

    fake.allow(GENERAL)
    await bot.alive(
        poll(
            lambda: replays(fake, GENERAL, game_id) and not owed(bot.database),
            timeout=WAIT,
        )
    )
    await asyncio.sleep(SETTLE)
    [ending] = endings(fake, GENERAL, game_id)
    assert "ran out of time" in ending["embeds"][0]["description"]
    assert len(replays(fake, GENERAL, game_id)) == 1 and len(reminders()) == 1


# -- the gateway drops the session ---------------------------------------------------------------


async def test_reconnects_and_invalid_sessions_mid_game_lose_and_double_nothing(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Op 7, op 9 resumable and op 9 not resumable between moves: the client resumes or
    identifies afresh, every move is answered, and each board is shown once."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    local = Game(find_variant("english"))
    players = [ALICE, BOB]

    async def play() -> None:
        move = local.legal_moves()[0].pdn()
        await answered(users, players[local.ply % 2], move)
        local.play(move)

    await play()
    # Op 7: the move is sent while the client reconnects (it may reach it only by RESUME's
    # replay of the events the session missed).
    await fake.request_reconnect()
    await play()
    await bot.alive(fake.wait_until(lambda: fake.sessions_resumed >= 1, timeout=WAIT))
    # Op 9, resumable: the client resumes again.
    await fake.invalidate_session(True)
    await bot.alive(fake.wait_until(lambda: fake.sessions_resumed >= 2, timeout=WAIT))
    await play()
    # Op 9, not resumable: the client identifies afresh (events before that are gone).
    identified = fake.sessions_identified
    await fake.invalidate_session(False)
    await bot.alive(fake.wait_until(lambda: fake.sessions_identified > identified, timeout=WAIT))
    await play()
    await play()

    await asyncio.sleep(SETTLE)
    assert stored_moves(bot.database, game_id) == [m.pdn() for m in local.moves]
    assert boards_shown(fake, game_id) == Counter(dict.fromkeys(range(local.ply + 1), 1))
    assert channel_posts(fake, GENERAL) == [] and owed(bot.database) == 0
    assert bot.log().count("ready to serve") == 1  # the same process all along


# -- stopping and crashing mid-delivery -----------------------------------------------------------

BURST = 30
BURST_CHANNELS = [f"11000000000000004{n:02d}" for n in range(BURST)]


async def timed_out_games(
    fake: FakeDiscord, database: Path | str, count: int = BURST
) -> dict[int, str]:
    """``count`` games between people, one per channel, each with a move by each player (so
    running out of time loses the game rather than aborting it), announced as it happened, and
    all past their deadline: the bot times them all out in its first check.  Their ids, with
    their channels."""
    channels = BURST_CHANNELS[:count]
    for n, channel in enumerate(channels):
        fake.guild.channels[channel] = f"game-{n}"
    service = await GameService.open(database, bot_user_id=int(fake.bot_user["id"]))
    games = {}
    try:
        for channel in channels:
            challenge = await service.challenge(
                guild_id=int(fake.guild.id),
                channel_id=int(channel),
                challenger=Player(int(ALICE), "Alice"),
                opponent=Player(int(BOB), "Bob"),
                variant="english",
                color="black",
                move_time=3600,
            )
            assert challenge.challenge is not None
            started = await service.accept(challenge.challenge.id, int(BOB))
            assert started.game is not None
            for player, move in ((ALICE, "11-15"), (BOB, "22-18")):
                await service.move(int(player), move, channel_id=int(channel))
            games[started.game.id] = channel
    finally:
        await service.close()
    now = time.time()
    db_run(database, "UPDATE games SET deadline = ?, remind_at = NULL", (now - 1,))
    db_run(database, "UPDATE outbox SET delivered_at = ?", (now,))  # shown when they happened
    return games


async def test_sigterm_in_a_burst_of_timeouts_announces_each_exactly_once(
    launch: Launch, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Thirty games time out in one check and their posts are slow (0.3 s each): SIGTERM
    lands mid-burst, with a post on its way.  After the restart each game's end is shown once:
    none lost, and the interrupted one not twice (its repost carries the same nonce)."""
    games = await timed_out_games(fake, BotProcess(fake, tmp_path).database)
    fake.inject("POST", POSTS, 0, delay=0.3, times=-1)  # a slow Discord: the burst takes a while

    def announced() -> dict[int, int]:
        return {gid: len(endings(fake, channel, gid)) for gid, channel in games.items()}

    bot, _ = await launch(SCHEDULER_INTERVAL_SECONDS="0.2")
    await bot.alive(poll(lambda: sum(announced().values()) >= 5, timeout=WAIT))
    assert await bot.stop() == 0  # SIGTERM while a post is on its way
    cut = announced()
    assert 0 < sum(cut.values()) < BURST, cut  # the stop landed mid-burst
    assert {game_row(bot.database, gid)["status"] for gid in games} == {"finished"}

    fake.clear_faults()
    await bot.start()
    await bot.alive(poll(lambda: all(announced().values()) and not owed(bot.database), timeout=60))
    await asyncio.sleep(SETTLE)
    assert announced() == dict.fromkeys(games, 1)
    assert {gid: len(replays(fake, ch, gid)) for gid, ch in games.items()} == dict.fromkeys(
        games, 1
    )
    assert owed(bot.database) == 0


async def test_kills_between_commit_and_post_show_every_move_exactly_once(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Each round: a move whose answer Discord is slow to take (a random delay), SIGKILL at a
    random moment after the move is saved (before, during or after its answer), a restart.
    Whatever the moment, players see each ply's board once in the end."""
    rng = random.Random(20240607)
    bot, users = await ready(launch)
    game_id = await started_game(users)
    local = Game(find_variant("english"))
    rounds = []
    for _ in range(5):
        ply = local.ply
        move = rng.choice(local.legal_moves()).pdn()
        delay = rng.uniform(0.2, 2.0)
        fake.inject("POST", ANSWER, 0, delay=delay)
        sent = await users.command("move", (ALICE, BOB)[ply % 2], GENERAL, move=move)
        await bot.alive(
            poll(lambda ply=ply: len(stored_moves(bot.database, game_id)) > ply, timeout=WAIT)
        )
        wait = rng.uniform(0.0, 1.5)
        await asyncio.sleep(wait)
        bot.kill()
        local.play(move)
        answer = fake.find_requests("POST", rf"/interactions/{sent.payload['id']}/[^/]+/callback")
        at_kill = answer[0].status or "held by Discord" if answer else "not sent"
        rounds.append(
            f"ply {local.ply}: answer delayed {delay:.2f} s, kill {wait:.2f} s "
            f"after the commit, answer then {at_kill}"
        )
        fake.clear_faults()
        await bot.start()
        await hearing(bot)
        await bot.alive(
            poll(
                lambda: boards_shown(fake, game_id)[local.ply] and not owed(bot.database),
                timeout=WAIT,
            )
        )
    await asyncio.sleep(SETTLE + 2.0)  # answers Discord was still holding have landed
    assert stored_moves(bot.database, game_id) == [m.pdn() for m in local.moves]
    assert boards_shown(fake, game_id) == Counter(dict.fromkeys(range(local.ply + 1), 1)), (
        "\n".join([*rounds, shown_where(fake, game_id)])
    )
    assert owed(bot.database) == 0


# -- away for two hours -------------------------------------------------------------------------


async def test_a_restart_after_two_hours_extends_the_clock_instead_of_timing_out(
    launch: Launch, fake: FakeDiscord
) -> None:
    """The database is edited as if the bot had stopped two hours ago (its last check that
    heard players, and Bob's deadline, moved back 7200 s): the restart extends Bob's clock and
    says so, and nobody loses on time."""
    bot, users = await ready(launch)
    game_id = await people_game(users, move_time=3600)
    await answered(users, ALICE, "11-15")  # Bob to move, with an hour
    assert await bot.stop() == 0
    [(heard,)] = db_rows(bot.database, "SELECT value FROM meta WHERE key = 'heard_at'")
    db_run(
        bot.database,
        "UPDATE meta SET value = ? WHERE key = 'heard_at'",
        (repr(float(heard) - 7200),),
    )
    db_run(
        bot.database,
        "UPDATE games SET deadline = deadline - 7200, remind_at = remind_at - 7200 WHERE id = ?",
        (game_id,),
    )
    assert game_row(bot.database, game_id)["deadline"] < time.time()  # it would have run out
    before = len(channel_posts(fake, GENERAL))

    def extended() -> list[Any]:
        return [
            p for p in channel_posts(fake, GENERAL)[before:] if "could not hear" in content_of(p)
        ]

    await bot.start()
    [post] = await bot.alive(poll(extended, timeout=WAIT))
    # Bob keeps what he had left when the bot stopped: at most the hour, to the second.
    assert re.fullmatch(
        rf"<@{BOB}> I could not hear anyone for 2 hours( \d+ \w+)?, so no clock ran meanwhile: "
        r"Bob to move, with (1 hour|59 minutes( \d+ seconds?)?) left\.",
        content_of(post),
    ), content_of(post)
    assert post.json["allowed_mentions"]["users"] == [int(BOB)]
    await asyncio.sleep(SETTLE)
    row = game_row(bot.database, game_id)
    assert row["status"] == "running" and row["deadline"] > time.time() + 3000
    assert endings(fake, GENERAL, game_id) == [] and len(extended()) == 1
    assert not [p for p in channel_posts(fake, GENERAL) if "ran out of time" in str(p.json)]
    assert owed(bot.database) == 0
