"""End to end, a clocked game: a 3+2 challenge (the bot's times scaled down, so it lasts seconds)
accepted and played, the bot killed and started again in the middle of a player's turn, and her
flag falling with the game's end announced exactly once, by the flag timer or the scheduler's
check, whichever comes first.

The charging, the increments, the timer's precision and the rating pools are the service's
(``tests/service/test_clocks.py``, with a clock moved by hand); here the real process shows it
on the boards, keeps the clock across a crash, and says the end once.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    STEP_TIMEOUT,
    Launch,
    board_text,
    channel_posts,
    content_of,
    custom_ids,
    db_rows,
    embed_of,
    field,
    flag_in,
    game_id_of,
    headline_of,
    is_ephemeral,
    poll,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord, RecordedRequest

pytestmark = pytest.mark.e2e

SCALE = "0.01"
"""A 3+2 clock at this scale: 1.8 seconds each and 0.02 added per move (the lag allowance of a
second is not scaled), so a flag falls 2.8 seconds after its turn starts at the latest."""
TIME = r"0:0\d\.\d"
CLOCK_LINE = re.compile(
    rf"Clock 0\.03\+0\.02 \(Bullet\): White {TIME} · Black (?:{TIME}|\*\*{TIME} \(low\)\*\*)"
)


async def move(users: object, player: str, text: str) -> RecordedRequest:
    sent = await users.command("move", player, GENERAL, move=text)  # type: ignore[attr-defined]
    answer: RecordedRequest = await sent.callback()
    assert answer.json["type"] == 4 and not is_ephemeral(answer), answer.json
    return answer


def ends_said(fake: FakeDiscord, game_id: int) -> list[RecordedRequest]:
    """Every message (post or interaction answer) saying the game was lost on time."""
    return [
        r
        for r in fake.requests
        if r.method in ("POST", "PATCH")
        and "ran out of time" in str(r.json)
        and f"Game #{game_id} " in str(r.json)
    ]


async def test_a_3_2_game_flags_once_across_a_restart(launch: Launch, fake: FakeDiscord) -> None:
    bot, users = await launch(MOVE_TIME_SCALE=SCALE)
    # A clock that does not read, or beside a time per move, is refused privately.
    for options, said in (
        ({"clock": "3 minutes"}, "Write a clock as minutes + seconds added per move, like 3+2"),
        ({"clock": "3+2", "move_time": 300}, "Choose a clock or a time per move, not both."),
        ({"clock": "200+0"}, "A clock's base time must be between ¼ and 180 minutes."),
    ):
        sent = await users.command("challenge", ALICE, GENERAL, opponent=user(BOB), **options)
        refused = await sent.callback()
        assert is_ephemeral(refused) and content_of(refused).startswith(said), refused.json
    sent = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(BOB),
        variant="english",
        color="black",
        clock="3+2",
    )
    answer = await sent.callback()
    assert not is_ephemeral(answer), answer.json
    assert field(embed_of(answer), "Clock") == "0.03+0.02 (Bullet)"
    (accept_id,) = [i for i in custom_ids(answer) if i.startswith("challenge:accept:")]
    press = await users.press(accept_id, sent.message(), BOB)
    assert (await press.callback()).json["type"] == 7
    board = await press.followup()
    game_id = game_id_of(embed_of(board))
    assert to_move_in(board) == ALICE and flag_in(board) is not None
    clock = board_text(embed_of(board)).clock
    assert clock == "Clock 0.03+0.02 (Bullet): White 0:01.8 · Black 0:01.8", clock

    first = await move(users, ALICE, "11-15")
    assert to_move_in(first) == BOB and flag_in(first) is not None
    assert CLOCK_LINE.fullmatch(board_text(embed_of(first)).clock or ""), embed_of(first)
    assert headline_of(embed_of(first)) == "Alice played 11-15."
    second = await move(users, BOB, "23-19")
    assert to_move_in(second) == ALICE
    flag = flag_in(second)
    assert flag is not None

    # Alice thinks; the bot is killed and started again before her flag falls.
    bot.kill()
    await bot.start()
    assert bot.log().count("ready to serve") == 2

    await bot.alive(poll(lambda: ends_said(fake, game_id), timeout=STEP_TIMEOUT + 10))
    ((status, termination, winner, black_clock, deadline),) = db_rows(
        bot.database,
        "SELECT status, termination, winner, black_clock, deadline FROM games WHERE id = ?",
        (game_id,),
    )
    assert (status, termination, winner, black_clock, deadline) == (
        "finished",
        "timeout",
        "white",
        0,
        None,
    )
    delivered = (
        "SELECT count(*) FROM outbox WHERE game_id = ? AND kind = 'timeout'"
        " AND delivered_at IS NOT NULL"
    )
    await bot.alive(poll(lambda: db_rows(bot.database, delivered, (game_id,)) == [(1,)], 10))
    # A few more scheduler checks (every 0.2 s): the flag was said once, the board
    # before it (answered just before the kill) was not posted again.
    await bot.alive(asyncio.sleep(0.6))
    (said,) = ends_said(fake, game_id)
    shown_move = [
        r for r in fake.requests if r.method == "POST" and "Bob played 23-19." in str(r.json)
    ]
    assert len(shown_move) == 1
    embed = embed_of(said)
    assert headline_of(embed) == (
        "Alice ran out of time. Ratings (Bullet): Bob 1662? (+162), Alice 1338? (-162)."
    )
    assert to_move_in(said) is None
    assert "Clock 0.03+0.02 (Bullet): White 0:0" in embed["description"]
    assert "Black 0:00.0" in embed["description"]
    assert db_rows(bot.database, "SELECT count(*) FROM challenges") == [(1,)]  # no refused one
    posts = channel_posts(fake, GENERAL)
    assert sum(f"game-{game_id}.gif" in p.files for p in posts) == 1
