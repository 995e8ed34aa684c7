"""Nothing players must see is lost: a change whose answer fails, or whose process dies before it
is posted, is announced in the game's channel from the outbox, exactly once.

The real bot process against the fake Discord, with faults injected where Discord produces them
(an interaction token that expired before the answer was filled in; a Discord so slow that the
process is killed while the answer is still on its way).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    Launch,
    Sent,
    Users,
    channel_posts,
    content_of,
    custom_ids,
    db_rows,
    embed_of,
    footer_parts,
    game_id_of,
    headline_of,
    is_ephemeral,
    poll,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord
from test_e2e_social import accept, move, open_challenge, resign

pytestmark = pytest.mark.e2e

ANSWER = r"/interactions/\d+/[^/]+/callback"


def stored_plies(database: Path | str, game_id: int) -> int:
    return int(db_rows(database, "SELECT ply FROM games WHERE id = ?", (game_id,))[0][0])


def owed(database: Path | str) -> int:
    return int(db_rows(database, "SELECT count(*) FROM outbox WHERE delivered_at IS NULL")[0][0])


async def accepted(users: Users) -> Sent:
    """Alice (Black, first to move) challenges Bob in GENERAL, and Bob presses Accept: the
    press, whose follow-up will be the first board."""
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    answer = await sent.callback()
    [accept, *_] = custom_ids(answer)
    message = users.fake.original_message(sent.token)
    assert message is not None
    return await users.press(accept, message, BOB)


async def started_game(users: Users) -> int:
    """Alice (Black, first to move) v Bob in GENERAL; the game's id."""
    pressed = await accepted(users)
    await pressed.callback()
    board = await pressed.followup(0)
    return game_id_of(embed_of(board))


def board_posts(fake: FakeDiscord, game_id: int) -> list[dict[str, object]]:
    """The board messages of ``game_id`` the bot posted straight into GENERAL."""
    posts = []
    for request in channel_posts(fake, GENERAL):
        body = request.json or {}
        embeds = body.get("embeds") or []
        if embeds and f"#{game_id}" in str(embeds[0].get("footer", {}).get("text", "")):
            posts.append(body)
    return posts


async def test_a_move_whose_answer_fails_is_posted_in_the_channel_once(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    game_id = await started_game(users)
    # The 3 s window passed before the answer arrived (a long 429 or a slow disk, say).
    expired = fake.inject("POST", ANSWER, 404, code=10062, message="Unknown interaction")
    await users.command("move", ALICE, GENERAL, move="11-15")
    [post] = await bot.alive(fake.wait_until(lambda: board_posts(fake, game_id), timeout=15))
    assert expired.hits == 1
    assert stored_plies(bot.database, game_id) == 1
    assert headline_of(post["embeds"][0]) == "Alice played 11-15."  # type: ignore[index]
    assert to_move_in(post) == BOB
    assert len(str(post["nonce"])) <= 25 and post["enforce_nonce"] is True
    await asyncio.sleep(1.0)  # several scheduler rounds: nothing is posted twice
    assert len(board_posts(fake, game_id)) == 1 and owed(bot.database) == 0


async def test_a_kill_between_the_move_and_its_post_is_announced_after_the_restart(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    game_id = await started_game(users)
    hung = fake.inject("POST", ANSWER, 0, delay=30.0)  # Discord hangs: the answer never arrives
    await users.command("move", ALICE, GENERAL, move="11-15")
    # The kill comes once the answer hangs in Discord's hands: an answer still on its way when
    # the process dies reaches Discord after the faults are cleared below, and is shown.
    await bot.alive(
        poll(lambda: hung.hits and stored_plies(bot.database, game_id) >= 1, timeout=15)
    )
    bot.kill()
    assert owed(bot.database) >= 1 and board_posts(fake, game_id) == []
    fake.clear_faults()

    await bot.start()
    [post] = await bot.alive(fake.wait_until(lambda: board_posts(fake, game_id), timeout=15))
    text = headline_of(post["embeds"][0]) or ""  # type: ignore[index]
    assert text == "(Posted late: I could not post this at the time.)", text
    assert to_move_in(post) == BOB
    await asyncio.sleep(1.0)
    assert len(board_posts(fake, game_id)) == 1 and owed(bot.database) == 0


async def test_a_refused_answer_tells_the_player_it_went_through(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Discord refuses the board that answers Bob's Accept (403, once): the game stands, so
    Bob is told it went through, not to try again; the board is posted in the channel."""
    bot, users = await launch(SCHEDULER_INTERVAL_SECONDS="0.2")
    pressed = await accepted(users)
    refused = fake.inject(
        "POST",
        rf"/webhooks/\d+/{pressed.token}$",
        403,
        code=50013,
        message="Missing Permissions",
        times=1,
    )
    await pressed.callback()
    told = await pressed.followup(1)  # the first follow-up (the board) was refused
    assert refused.hits == 1
    assert is_ephemeral(told), told.json
    assert content_of(told).startswith("Done, but Discord refused my message"), told.json
    [(game_id,)] = db_rows(bot.database, "SELECT id FROM games WHERE status = 'running'")
    [post] = await bot.alive(fake.wait_until(lambda: board_posts(fake, game_id), timeout=15))
    assert headline_of(post["embeds"][0]) == "New game."  # type: ignore[index]
    assert to_move_in(post) == ALICE
    await asyncio.sleep(1.0)
    assert len(board_posts(fake, game_id)) == 1 and owed(bot.database) == 0


async def test_a_matchs_next_game_refused_alone_is_posted_alone(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Alice resigns game 1 of a match: its end and replay are shown, then Discord refuses the
    message starting game 2 (403, once).  Only game 2's start is owed: it is posted in the
    channel once, and game 1's end is not shown a second time."""
    bot, users = await launch(SCHEDULER_INTERVAL_SECONDS="0.2")
    challenge_id, _, message = await open_challenge(
        users, ALICE, BOB, GENERAL, variant="english", color="white", match=True
    )
    first = game_id_of(embed_of(await accept(users, challenge_id, message, BOB)))
    second = first + 1
    await move(users, BOB, GENERAL, "11-15")  # a move each: resigning then has a result
    await move(users, ALICE, GENERAL, "22-18")
    refused = fake.inject(
        "POST",
        r"/webhooks/\d+/[^/]+",
        403,
        code=50013,
        message="Missing Permissions",
        skip=2,  # the end of game 1 and its replay go through
    )
    pressed = await resign(users, ALICE, GENERAL, first)
    end = embed_of(await pressed.followup(0))
    assert (headline_of(end) or "").startswith("Alice resigned")
    told = await pressed.followup(3)  # after the end, the replay and the refused start
    assert refused.hits == 1 and is_ephemeral(told)
    assert content_of(told).startswith("Done, but Discord refused my message")
    [start] = await bot.alive(fake.wait_until(lambda: board_posts(fake, second), timeout=15))
    assert headline_of(start["embeds"][0]) == "Match game 2 of 2."  # type: ignore[index]
    assert footer_parts(start["embeds"][0])[2] == "rated, match game 2 of 2"  # type: ignore[index]
    await asyncio.sleep(1.0)
    ends = [
        m
        for m in fake.messages.values()
        if any(a.get("filename") == f"draughts-game-{first}.pdn" for a in m["attachments"] or [])
    ]
    assert len(ends) == 1 and len(board_posts(fake, second)) == 1
    assert board_posts(fake, first) == [] and owed(bot.database) == 0
