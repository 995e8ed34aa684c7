"""Open challenges end to end: ``/challenge`` without an opponent, accepted by a third user and
refused for its challenger, and ``/lobby`` listing the server's open challenges privately with
an Accept button each (a stale entry refused, one accepted from another channel).
"""

from __future__ import annotations

from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    OFFTOPIC,
    Sent,
    Users,
    channel_posts,
    content_of,
    custom_ids,
    embed_of,
    field,
    game_id_of,
    is_ephemeral,
    pinged,
    seats_of,
)
from support.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGLISH_TITLE = "English draughts / American checkers"
MESSAGE, UPDATE = 4, 7


async def open_challenge(
    users: Users, challenger: str, channel: str, challenge_id: int, **options: Any
) -> dict[str, Any]:
    """``/challenge`` with no opponent: the public message, Accept and Cancel, nobody pinged."""
    sent = await users.command(
        "challenge", challenger, channel, variant="english", color="black", **options
    )
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE and not is_ephemeral(callback), callback.json
    assert content_of(callback) == "Open challenge: anyone here may accept it."
    assert pinged(callback) == []
    embed = embed_of(callback)
    assert embed["description"] == (
        f"<@{challenger}> offers a game of {ENGLISH_TITLE}: anyone here may accept."
    )
    assert custom_ids(callback) == [
        f"challenge:accept:{challenge_id}",
        f"challenge:cancel:{challenge_id}",
    ]
    return sent.message()


async def private(sent: Sent) -> str:
    """A private refusal of a press (its answer, changing nothing)."""
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE and is_ephemeral(callback), callback.json
    return content_of(callback)


async def lobby(users: Users, user: str, channel: str) -> tuple[Sent, dict[str, Any]]:
    sent = await users.command("lobby", user, channel)
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE and is_ephemeral(callback), callback.json
    return sent, embed_of(callback)


async def test_an_open_challenge_is_taken_by_a_third_user_and_found_in_the_lobby(
    launch: Any, fake: FakeDiscord
) -> None:
    _, users = await launch()
    first = await open_challenge(users, ALICE, GENERAL, 1)
    ranged = await open_challenge(users, CAROL, OFFTOPIC, 2, min_rating=1600)
    assert field(ranged["embeds"][0], "Rating range") == "rated 1600 or more"

    # The challenger cannot take her own challenge.
    assert await private(await users.press("challenge:accept:1", first, ALICE)) == (
        "This is your own challenge: wait for someone to accept it, or cancel it."
    )

    # Bob's lobby, asked in another channel: both, oldest first, an Accept button each.
    listed, embed = await lobby(users, BOB, DRAUGHTS)
    assert embed["title"] == "Open challenges (2)"
    lines = embed["description"].splitlines()
    assert lines[0].startswith(f"**#1** Alice · {ENGLISH_TITLE} · 1 day a move · <#{GENERAL}>")
    assert lines[1].startswith(f"**#2** Carol · {ENGLISH_TITLE} · 1 day a move · <#{OFFTOPIC}>")
    assert "rated 1600 or more" in lines[1]
    assert custom_ids(await listed.callback()) == ["lobby:accept:1", "lobby:accept:2"]
    lobby_message = listed.message()
    # Out of Carol's range: refused privately, with the range and Bob's rating.
    assert await private(await users.press("lobby:accept:2", lobby_message, BOB)) == (
        f"This challenge is for players rated 1600 to 4000; your {ENGLISH_TITLE} rating here "
        "is 1500."
    )

    # Bob accepts Alice's challenge on its message: the game starts there, Bob v Alice.
    accepted = await users.press("challenge:accept:1", first, BOB)
    edit = await accepted.callback()
    assert edit.json["type"] == UPDATE and custom_ids(edit) == []
    assert field(embed_of(edit), "Status") == "Accepted: game #1"
    board = await accepted.followup(0)
    assert game_id_of(embed_of(board)) == 1
    assert seats_of(embed_of(board)) == ("Bob", "Alice")

    # His lobby's Accept for it is stale now: refused, saying why.
    assert await private(await users.press("lobby:accept:1", lobby_message, BOB)) == (
        "That challenge is no longer open (accepted)."
    )

    # Alice offers another game in #draughts, in a thread of its own; Carol takes it from her
    # lobby in #off-topic (where her own challenge is refused to her): the game starts in a
    # thread opened on the challenge's message in #draughts, named after both players.
    third = await open_challenge(users, ALICE, DRAUGHTS, 3, thread=True)
    listed, embed = await lobby(users, CAROL, OFFTOPIC)
    assert embed["title"] == "Open challenges (2)"
    assert custom_ids(await listed.callback()) == ["lobby:accept:2", "lobby:accept:3"]
    lobby_message = listed.message()
    assert await private(await users.press("lobby:accept:2", lobby_message, CAROL)) == (
        "This is your own challenge: wait for someone to accept it, or cancel it."
    )
    taken = await users.press("lobby:accept:3", lobby_message, CAROL)
    opened = await users.bot.alive(
        fake.wait_for_request("POST", rf"/channels/{DRAUGHTS}/messages/{third['id']}/threads")
    )
    assert opened.json["name"] == "Alice v Carol"
    thread = str(third["id"])  # a thread started from a message has its id
    done = await taken.callback()
    if done.json["type"] != UPDATE:  # held while the game was being posted: edited later
        done = await taken.original_edit()
    assert content_of(done) == f"Game #2 started in <#{thread}>."
    assert custom_ids(done) == [] and not done.json.get("embeds")
    [post] = await users.bot.alive(fake.wait_until(lambda: channel_posts(fake, thread)))
    assert game_id_of(embed_of(post)) == 2
    assert channel_posts(fake, DRAUGHTS) == []
    assert seats_of(embed_of(post)) == ("Carol", "Alice")
    closed = fake.messages[third["id"]]
    assert closed["components"] == []
    assert field(closed["embeds"][0], "Status") == "Accepted: game #2"
    _, embed = await lobby(users, BOB, GENERAL)
    assert embed["title"] == "Open challenges (1)"  # Carol's, out of his range, is left
