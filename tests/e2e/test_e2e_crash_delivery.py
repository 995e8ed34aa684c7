"""A crash right after each kind of send: every announcement is shown exactly once after the
restart, however it went out and however long the bot was away.

Each test lets Discord (the fake of ``tests/support/fake_discord``) take one message of an
announcement but hold back its answer (``hold``), kills the bot with SIGKILL once the message
exists (so the process never hears that it went out), and restarts it: the new process finds the
announcement undelivered and must find out that players saw it (or which of its messages they
saw) instead of posting it again.  The kinds of send: an interaction's own answer (``/move``),
a follow-up after the interaction's first response (the board after Accept, after a move picked
in the private picker, the end of a game and its replay after the resign confirmation), each
also after the token's 15 minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from support.e2e_harness import ALICE, BOB, CAROL, GENERAL, BotProcess, Launch, Users, poll
from support.fake_discord import FakeDiscord
from support.fake_discord.faults import Fault
from support.pg_server import running_server
from test_e2e_delivery import accepted, owed, started_game
from test_e2e_faults import (
    SETTLE,
    WAIT,
    boards_shown,
    endings,
    hearing,
    ready,
    replays,
    shown_where,
    timed_out_games,
)
from test_e2e_phone import choose, current, open_picker, picker_select
from test_e2e_social import human_game, move, open_challenge, resign

pytestmark = pytest.mark.e2e

ANSWER = r"/interactions/\d+/[^/]+/callback"
FOLLOW_UP = r"/webhooks/\d+/[^/]+"
HELD = 60.0
"""Longer than any test: the answer is only let go when the faults are cleared."""


def made(fake: FakeDiscord, fault: Fault) -> bool:
    """Whether Discord handled a request ``fault`` holds the answer of (what it made exists)."""
    return fault.hits > 0 and any(r.held and r.status == 0 for r in fake.requests)


async def crash_after(
    bot: BotProcess,
    fake: FakeDiscord,
    fault: Fault,
    act: Callable[[], Awaitable[Any]],
    *,
    away_long: bool = False,
) -> None:
    """Do ``act``, kill the bot once the message ``fault`` holds exists, and restart it (after
    the interactions' tokens died, with ``away_long``: the bot was away over 15 minutes).
    Returns once the new process has nothing owed."""
    await act()
    await bot.alive(poll(lambda: made(fake, fault), timeout=WAIT))
    bot.kill()
    if away_long:
        for token in list(fake.dispatched_at):
            fake.expire_token(token)
    fake.clear_faults()
    await bot.start()
    await hearing(bot)
    await bot.alive(poll(lambda: owed(bot.database) == 0, timeout=WAIT))
    await asyncio.sleep(SETTLE)


async def test_a_crash_after_accepts_first_board_shows_it_once_after_15_minutes(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Accept updates the challenge, then posts the first board as a follow-up: the process
    dies as Discord takes it, and comes back after the token died."""
    bot, users = await ready(launch)
    fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)

    async def accept() -> None:
        await (await accepted(users)).callback()

    await crash_after(bot, fake, fault, accept, away_long=True)
    assert boards_shown(fake, 1) == Counter({0: 1}), shown_where(fake, 1)


async def test_a_crash_after_the_first_board_in_a_new_thread_shows_it_once(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Accept in a busy channel opens a thread on the challenge and posts the first board there
    (a post, with no interaction of its own to look for): the process dies as Discord takes it,
    and the repeat after the restart carries the same nonce, so it shows once."""
    bot, users = await ready(launch)
    await human_game(users, ALICE, BOB, GENERAL)
    challenge_id, _, message = await open_challenge(users, CAROL, BOB, GENERAL)
    thread_id = message["id"]  # a thread started from a message has the message's id
    fault = fake.inject("POST", rf"/channels/{thread_id}/messages", 0, hold=HELD)

    async def accept() -> None:
        await users.press(f"challenge:accept:{challenge_id}", message, BOB)

    await crash_after(bot, fake, fault, accept)
    [game_id] = games_in(fake, thread_id)
    assert boards_shown(fake, game_id) == Counter({0: 1}), shown_where(fake, game_id)


async def test_a_crash_after_a_picked_moves_board_shows_it_once(
    launch: Launch, fake: FakeDiscord
) -> None:
    """The picker's last tap updates the private picker, then posts the board as a follow-up:
    the process dies as Discord takes it."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    [board] = [m for m in fake.messages.values() if f"game-{game_id}-0.png" in str(m)]
    _, picker = await open_picker(users, board, ALICE, game_id)
    if picker_select(picker).split(":")[3] == "0":  # the pieces first
        await choose(users, picker, ALICE, "11")
        picker = current(fake, picker)
    fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)

    async def pick() -> None:
        await choose(users, picker, ALICE, "11-15")

    await crash_after(bot, fake, fault, pick)
    assert boards_shown(fake, game_id) == Counter({0: 1, 1: 1}), shown_where(fake, game_id)


async def both_moved(users: Users) -> None:
    """A move each in :func:`started_game`'s game, so resigning ends it with a result (before,
    it would be aborted, with no replay)."""
    await move(users, ALICE, GENERAL, "11-15")
    await move(users, BOB, GENERAL, "22-18")


async def test_a_crash_after_a_resignations_end_shows_the_end_and_its_replay_once(
    launch: Launch, fake: FakeDiscord
) -> None:
    """The resign confirmation updates the private question, then posts the end as a
    follow-up, then the replay (rendered meanwhile) as another: the process dies as Discord
    takes the end.  After the restart the end is there once, and so is the replay."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    await both_moved(users)
    fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)

    async def resigned() -> None:
        await resign(users, ALICE, GENERAL, game_id)

    await crash_after(bot, fake, fault, resigned)
    assert len(endings(fake, GENERAL, game_id)) == 1, shown_where(fake, game_id)
    assert len(replays(fake, GENERAL, game_id)) == 1


async def test_a_crash_after_a_moves_own_answer_shows_it_once_after_15_minutes(
    launch: Launch, fake: FakeDiscord
) -> None:
    """``/move`` answers with the board in its own message: the process dies as Discord takes
    it, and comes back after the token died (so Discord can no longer be asked about the
    answer by its token)."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    fault = fake.inject("POST", ANSWER, 0, hold=HELD)

    async def move() -> None:
        await users.command("move", ALICE, GENERAL, move="11-15")

    await crash_after(bot, fake, fault, move, away_long=True)
    assert boards_shown(fake, game_id) == Counter({0: 1, 1: 1}), shown_where(fake, game_id)


# -- the database dies around a send -----------------------------------------------------------

ELSEWHERE = "1100000000000000500"
DISCORD_REFUSED = "Discord refused"
WENT_WRONG = "something went wrong"


async def test_a_crash_after_a_scheduler_post_shows_it_once_when_discord_forgot_its_nonce(
    launch: Launch, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Games lost on time are announced by the scheduler with posts in their channels (no
    interaction to look for): the process dies as Discord takes one, and comes back after
    Discord forgot its nonce (the bot was away more than a few minutes).  The post was written
    down first, so the new process finds it among its own posts and sends only what is
    missing (the replay)."""
    games = await timed_out_games(fake, BotProcess(fake, tmp_path).database, count=6)
    fault = fake.inject("POST", r"/channels/\d+/messages", 0, hold=HELD)
    bot, _ = await launch(SCHEDULER_INTERVAL_SECONDS="0.2")
    await bot.alive(poll(lambda: made(fake, fault), timeout=WAIT))
    bot.kill()
    fake.nonce_window = 0.0
    fake.clear_faults()
    await bot.start()
    await hearing(bot)

    def ends() -> dict[int, int]:
        return {gid: len(endings(fake, channel, gid)) for gid, channel in games.items()}

    await bot.alive(poll(lambda: all(ends().values()) and not owed(bot.database), timeout=60))
    await asyncio.sleep(SETTLE)
    assert ends() == dict.fromkeys(games, 1)
    assert {gid: len(replays(fake, ch, gid)) for gid, ch in games.items()} == dict.fromkeys(
        games, 1
    )


def told(fake: FakeDiscord, user_id: str) -> list[str]:
    """What only ``user_id`` was shown (private answers), oldest first."""
    return [str(m.get("content")) for m in fake.ephemeral_messages(user_id)]


def games_in(fake: FakeDiscord, channel: str) -> set[int]:
    """The games whose board the fake shows in ``channel``."""
    return {
        int(found[1])
        for m in fake.messages.values()
        if m["channel_id"] == channel
        for a in m.get("attachments") or []
        if (found := re.fullmatch(r"game-(\d+)-\d+\.png", str(a.get("filename"))))
    }


@pytest.mark.own_databases(reason="runs on a PostgreSQL server of its own, which it kills")
async def test_postgresql_killed_around_a_send_shows_each_announcement_once_and_tells_the_truth(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """PostgreSQL is SIGKILLed twice while Discord holds a message back.  First just after the
    end of a game (a resignation's follow-up) went out: the bookkeeping after it fails, yet the
    end is delivered (no repost, not even after the bot is killed in turn once the database is
    back) and its replay follows.  Then between an Accept's commit and its first board: nothing
    can be written down, so nothing is sent; Bob is told the truth, and the board is posted in
    the channel once the database is back."""
    with running_server(durable=True) as server:  # what it acknowledged survives its crash
        name = await server.create_database("crash")
        bot = BotProcess(fake, tmp_path, server.dsn_for(name))
        try:
            await bot.start()
            users = Users(fake, bot)
            await hearing(bot)
            game_id = await started_game(users)
            await both_moved(users)

            # The end goes out, then the database dies before its bookkeeping.
            fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)
            await resign(users, ALICE, GENERAL, game_id)
            await bot.alive(poll(lambda: made(fake, fault), timeout=WAIT))
            await asyncio.to_thread(server.crash)
            fake.clear_faults()
            await bot.alive(poll(lambda: replays(fake, GENERAL, game_id), timeout=WAIT))
            await asyncio.to_thread(server.restart)
            with contextlib.suppress(TimeoutError):  # its delivery mark, written once it can be
                await bot.alive(poll(lambda: owed(bot.database) == 0, timeout=WAIT))
            bot.kill()
            await bot.start()
            await hearing(bot)
            await asyncio.sleep(SETTLE)
            assert len(endings(fake, GENERAL, game_id)) == 1, shown_where(fake, game_id)
            assert len(replays(fake, GENERAL, game_id)) == 1
            assert owed(bot.database) == 0

            # Accept is committed; the database dies before its first board is written down.
            fake.guild.channels[ELSEWHERE] = "elsewhere"
            challenge_id, _, message = await open_challenge(
                users, ALICE, BOB, ELSEWHERE, variant="english"
            )
            fault = fake.inject("POST", ANSWER, 0, hold=HELD)
            pressed = await users.press(f"challenge:accept:{challenge_id}", message, BOB)
            await bot.alive(poll(lambda: made(fake, fault), timeout=WAIT))
            await asyncio.to_thread(server.crash)
            fake.clear_faults()
            await pressed.callback()
            [answer] = await bot.alive(poll(lambda: told(fake, BOB), timeout=WAIT))
            assert "I will post it in the channel as soon as I can" in answer, answer
            await asyncio.to_thread(server.restart)
            # Its id, from its board: PostgreSQL's sequences skip values after a crash.
            [new_game] = await bot.alive(poll(lambda: games_in(fake, ELSEWHERE), timeout=2 * WAIT))
            await bot.alive(poll(lambda: owed(bot.database) == 0, timeout=WAIT))
            await asyncio.sleep(SETTLE)
            assert boards_shown(fake, new_game) == Counter({0: 1}), shown_where(fake, new_game)
            everything = told(fake, ALICE) + told(fake, BOB)
            assert not [t for t in everything if DISCORD_REFUSED in t or WENT_WRONG in t]
        finally:
            if bot.proc is not None and bot.proc.poll() is None:
                bot.kill()
