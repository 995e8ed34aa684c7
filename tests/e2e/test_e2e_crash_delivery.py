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
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from support.e2e_harness import ALICE, GENERAL, BotProcess, Launch, poll
from support.fake_discord import FakeDiscord
from support.fake_discord.faults import Fault
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
)
from test_e2e_phone import choose, current, open_picker, picker_select
from test_e2e_social import resign

pytestmark = pytest.mark.e2e

ANSWER = r"/interactions/\d+/[^/]+/callback"
FOLLOW_UP = r"/webhooks/\d+/[^/]+"
HELD = 60.0
"""Longer than any test: the answer is only let go when the faults are cleared."""


def made(fake: FakeDiscord, fault: Fault) -> bool:
    """Whether a request the fault holds has made its message."""
    return fault.hits > 0 and any(
        r.injected and r.message_id is not None and r.status == 0 and fault.path.fullmatch(r.path)
        for r in fake.requests
    )


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


@pytest.mark.parametrize("away_long", [False, True], ids=["restart", "restart-after-15-min"])
async def test_a_crash_after_accepts_first_board_shows_it_once(
    launch: Launch, fake: FakeDiscord, away_long: bool
) -> None:
    """Accept updates the challenge, then posts the first board as a follow-up: the process
    dies as Discord takes it."""
    bot, users = await ready(launch)
    fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)

    async def accept() -> None:
        await (await accepted(users)).callback()

    await crash_after(bot, fake, fault, accept, away_long=away_long)
    assert boards_shown(fake, 1) == Counter({0: 1}), shown_where(fake, 1)


@pytest.mark.parametrize("away_long", [False, True], ids=["restart", "restart-after-15-min"])
async def test_a_crash_after_a_picked_moves_board_shows_it_once(
    launch: Launch, fake: FakeDiscord, away_long: bool
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

    await crash_after(bot, fake, fault, pick, away_long=away_long)
    assert boards_shown(fake, game_id) == Counter({0: 1, 1: 1}), shown_where(fake, game_id)


@pytest.mark.parametrize("away_long", [False, True], ids=["restart", "restart-after-15-min"])
async def test_a_crash_after_a_resignations_end_shows_the_end_and_its_replay_once(
    launch: Launch, fake: FakeDiscord, away_long: bool
) -> None:
    """The resign confirmation updates the private question, then posts the end as a
    follow-up, then the replay (rendered meanwhile) as another: the process dies as Discord
    takes the end.  After the restart the end is there once, and so is the replay."""
    bot, users = await ready(launch)
    game_id = await started_game(users)
    fault = fake.inject("POST", FOLLOW_UP, 0, hold=HELD)

    async def resigned() -> None:
        await resign(users, ALICE, GENERAL, game_id)

    await crash_after(bot, fake, fault, resigned, away_long=away_long)
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
