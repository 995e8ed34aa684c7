"""End-to-end: puzzles through the fake Discord, by taps alone.

One scenario: Alice solves a puzzle privately (the first move, the bot's forced reply on the new
board in place, a stale tap on the older board refused, the last move, the rating change), Bob
fails one (the solution shown), Alice's rating and streak, and the daily puzzle a moderator
sets, posted once in its channel with Solve and a thread for answers.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    Sent,
    Users,
    channel,
    channel_posts,
    content_of,
    custom_ids,
    db_rows,
    first_answer,
    is_ephemeral,
    poll,
    select_options,
)
from support.fake_discord import FakeDiscord, RecordedRequest
from support.puzzle_e2e import SHOTS, puzzle, store_puzzle

pytestmark = pytest.mark.e2e

MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7


def menu(message: dict[str, Any]) -> str:
    (select,) = [c for c in custom_ids(message) if c.startswith("puz:")]
    return select


async def redrawn(sent: Sent, message: dict[str, Any]) -> dict[str, Any]:
    """The private board ``message`` as a tap redrew it in place (at once, or held first when
    the machine is slow and then edited)."""
    callback = await sent.callback()
    assert callback.json["type"] in (UPDATE, DEFERRED_UPDATE), callback.json
    if callback.json["type"] == DEFERRED_UPDATE:
        await first_answer(sent)
    return sent.users.fake.messages[message["id"]]


async def private_board(sent: Sent) -> dict[str, Any]:
    """The private board a command or Solve answered with (held first when slow)."""
    callback = await sent.callback()
    assert callback.json["type"] in (MESSAGE, DEFERRED), callback.json
    assert is_ephemeral(callback), callback.json
    if callback.json["type"] == DEFERRED:
        await first_answer(sent)
    return sent.message()


async def said(sent: Sent) -> str:
    """A private answer's words (held first when the machine is slow: then its edit or
    follow-up)."""
    callback = await sent.callback()
    assert is_ephemeral(callback), callback.json
    if callback.json["type"] != DEFERRED:
        return content_of(callback)
    fake = sent.users.fake
    base = rf"/webhooks/{fake.application_id}/{sent.token}"

    def answered() -> RecordedRequest | None:
        return next(
            (
                r
                for r in fake.requests
                if (r.method, r.path) in (("PATCH", base + "/messages/@original"), ("POST", base))
            ),
            None,
        )

    return content_of(await sent.users.bot.alive(fake.wait_until(answered, timeout=15)))


async def tap(users: Users, message: dict[str, Any], user: str, move: str) -> dict[str, Any]:
    """Pick ``move`` in the board's menu; the board as the bot redrew it in place."""
    assert move in [o["value"] for o in select_options(message, menu(message))], move
    return await redrawn(await users.select(menu(message), message, user, [move]), message)


async def served(users: Users, user: str) -> tuple[dict[str, Any], list[str]]:
    """``/puzzle solve``: the private board, and the line of the puzzle served."""
    board = await private_board(await puzzle(users, "solve", user))
    ((line,),) = db_rows(
        users.bot.database,
        "SELECT p.solution FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id"
        " WHERE a.user_id = ? AND a.status = 'open'",
        (int(user),),
    )
    return board, str(line).split()


async def test_a_puzzle_solved_and_one_failed_by_taps_and_the_daily_post(
    launch: Any, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    for fen, line in SHOTS:  # the server's own: served before any shipped one
        store_puzzle(bot, fake.guild.id, fen, line)
    # Alice solves hers: the board from her side with alt text, every move in the menu, Hint.
    board, line = await served(users, ALICE)
    assert "Puzzle #" in board["content"] and "you play White" in board["content"]
    assert board["attachments"][0]["description"].startswith("Puzzle #")
    attempt = menu(board).split(":")[1]
    assert custom_ids(board) == [f"puz:{attempt}:0:0:0", f"puzb:hint:{attempt}:0:0:0"]
    before = copy.deepcopy(board)
    board = await tap(users, board, ALICE, line[0])
    assert f"The reply is {line[1]}" in board["content"], board["content"]
    assert menu(board) == f"puz:{attempt}:2:0:0"
    # The first board, tapped again from a client that has not seen the edit: refused.
    stale = await users.select(menu(before), before, ALICE, [line[0]])
    assert "out of date" in await said(stale)
    board = await tap(users, board, ALICE, line[2])
    assert "Solved!" in board["content"] and "Puzzle rating 1500? →" in board["content"]
    ((solved,),) = db_rows(bot.database, "SELECT puzzle_id FROM puzzle_attempts")
    assert custom_ids(board) == [f"puzb:next:{solved}:0:0:0"]
    assert "Arrows show the solution" in board["attachments"][0]["description"]
    # Next puzzle: the other one, on the same private message.
    following = await users.press(f"puzb:next:{solved}:0:0:0", board, ALICE)
    board = await redrawn(following, board)
    assert menu(board).split(":")[2:] == ["0", "0", "0"] and menu(board) != f"puz:{attempt}:0:0:0"
    # Bob fails his: the solution is shown, and the attempt is over.
    board, line = await served(users, BOB)
    wrong = next(o["value"] for o in select_options(board, menu(board)) if o["value"] != line[0])
    board = await tap(users, board, BOB, wrong)
    assert f"{wrong} is not it" in board["content"] and line[2] in board["content"]
    assert db_rows(bot.database, "SELECT user_id, status FROM puzzle_attempts ORDER BY id") == [
        (int(ALICE), "solved"),
        (int(ALICE), "open"),
        (int(BOB), "failed"),
    ]
    rating = await puzzle(users, "rating", ALICE)
    mine = await said(rating)
    assert "1 of 1 solved, streak 1 (best 1)" in mine, mine
    # The daily puzzle: set by a moderator, posted once with Solve and its thread.
    sequence = fake.sequence
    fake.deny(DRAUGHTS, "create_public_threads")  # no thread for the answers there: refused
    await fake.wait_until(lambda: fake.sequence > sequence)  # the bot hears of it first
    refused = await puzzle(users, "daily", ALICE, channel=channel(DRAUGHTS))
    refusal = await said(refused)
    assert "I lack these permissions there: Create Public Threads" in refusal, refusal
    assert db_rows(bot.database, "SELECT count(*) FROM puzzle_daily") == [(0,)]
    daily = await puzzle(users, "daily", ALICE, channel=channel(GENERAL))
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    assert "every day in <#" in await said(daily)

    def posted() -> list[Any] | None:
        found = [r for r in channel_posts(fake, GENERAL) if "Puzzle of the day" in content_of(r)]
        return found or None

    (post,) = await bot.alive(poll(posted, 10))
    threads = await bot.alive(poll(lambda: list(fake.threads.values()) or None, 10))
    assert [t["name"] for t in threads] == [f"Puzzle of the day {day}: answers"]
    assert db_rows(bot.database, "SELECT day FROM puzzle_daily_posts") == [(day,)]
    # Solve on the post gives the puzzle privately; a puzzle button forged onto the public post
    # is refused privately.
    message = fake.message_of(post)
    assert message is not None
    (solve_id,) = [c for c in custom_ids(post) if c.startswith("puzb:solve:")]
    solve = await users.press(solve_id, message, CAROL)
    assert menu(await private_board(solve)).startswith("puz:")
    shown = copy.deepcopy(message)  # discord.py answers only buttons the message shows
    hint = {"type": 2, "style": 2, "label": "Hint", "custom_id": f"puzb:hint:{attempt}:0:0:0"}
    shown["components"] = [{"type": 1, "components": [hint]}]
    forged = await users.press(hint["custom_id"], shown, CAROL, forged=True)
    assert "not one I showed you" in await said(forged)
    assert fake.messages[message["id"]]["components"] == message["components"]  # left as it was
