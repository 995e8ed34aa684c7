"""Rematch answers only its own rematch (issue 13).

Pressing Rematch under a finished game either answers the other player's Rematch (the second
press starts the return game) or posts a new one.  It used to accept whatever open challenge the
other player had in the channel, so Alice's Rematch of a one-day game put her into Bob's unrelated
five-minute game.  Now only the challenge a Rematch press would have made counts: the same two
players with the colours swapped, and the finished game's variant, time per move and opening, as
one game (never a match) with no thread of its own.  Anything else the other player has open is
left alone, and the press posts its own rematch challenge.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from support.e2e_harness import ALICE as ALICE_E2E
from support.e2e_harness import BOB as BOB_E2E
from support.e2e_harness import CAROL as CAROL_E2E
from support.e2e_harness import (
    GENERAL,
    Launch,
    content_of,
    custom_ids,
    due_in,
    embed_of,
    field,
    footer_of,
    is_ephemeral,
    seats_of,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord
from support.service_harness import (
    ALICE,
    BOB,
    CAROL,
    EXPIRY,
    MOVE_TIME,
    Clock,
    challenge,
    start,
)

from bot.enums import ChallengeStatus, ThreadMode
from bot.errors import ChallengeError
from bot.results import Action, GameView
from bot.service import GameService


async def finished(service: GameService, **overrides: Any) -> GameView:
    """A game of the harness's usual challenge (Alice Black, Bob White, an hour a move),
    resigned by Alice."""
    game = await start(service, **overrides)
    await service.resign(ALICE.id, game_id=game.id)
    return game


def bobs_rematch(**overrides: Any) -> dict[str, Any]:
    """The terms of the challenge Bob's own Rematch press makes after :func:`finished`: Bob
    (White in the game) plays Black, same variant and time."""
    terms: dict[str, Any] = {"challenger": BOB, "opponent": ALICE, "color": "black"}
    terms.update(overrides)
    return terms


async def test_the_second_press_accepts_the_first(service: GameService) -> None:
    game = await finished(service)
    bobs = await service.rematch(game.id, BOB.id)
    assert bobs.action is Action.CHALLENGE_CREATED and bobs.challenge is not None
    answered = await service.rematch(game.id, ALICE.id)
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    assert (answered.game.white, answered.game.black) == (ALICE, BOB)
    assert answered.game.move_time == MOVE_TIME
    closed = await service.challenge_view(bobs.challenge.id)
    assert closed.status is ChallengeStatus.ACCEPTED and closed.game_id == answered.game.id


async def test_a_hand_made_challenge_on_the_rematch_terms_is_the_same_offer(
    service: GameService,
) -> None:
    """Bob asked by ``/challenge`` for exactly what Rematch offers: pressing Rematch accepts it
    (the same game either way)."""
    game = await finished(service)
    bobs = await challenge(service, **bobs_rematch())
    assert bobs.challenge is not None
    answered = await service.rematch(game.id, ALICE.id)
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    assert answered.challenge is not None and answered.challenge.id == bobs.challenge.id


@pytest.mark.parametrize(
    "difference",
    [
        pytest.param({"move_time": 60}, id="a 60-second game"),
        pytest.param({"color": "white"}, id="Bob keeps his colour"),
        pytest.param({"color": "random"}, id="random colours"),
        pytest.param({"variant": "pool"}, id="another variant"),
        pytest.param({"match": True}, id="a match"),
        pytest.param({"opening": ("9-13", "22-18")}, id="an opening"),
        pytest.param({"thread": True}, id="a thread of its own"),
        pytest.param({"start_fen": "W:W21,22,25:B9,10,K30"}, id="a position of its own"),
    ],
)
async def test_another_open_challenge_is_left_alone(
    service: GameService, difference: dict[str, Any]
) -> None:
    game = await finished(service)
    unrelated = await challenge(service, **bobs_rematch(**difference))
    assert unrelated.challenge is not None

    pressed = await service.rematch(game.id, ALICE.id)

    # Alice's press posts her own rematch challenge with the finished game's terms...
    assert pressed.action is Action.CHALLENGE_CREATED, str(pressed.text)
    mine = pressed.challenge
    assert mine is not None and mine.id != unrelated.challenge.id
    assert (mine.challenger, mine.opponent, mine.color) == (ALICE, BOB, "white")
    assert (mine.variant, mine.move_time, mine.opening, mine.match) == (
        game.variant,
        MOVE_TIME,
        "",
        False,
    )
    # ... and Bob's challenge stays open, unanswered; no game started.
    assert (await service.challenge_view(unrelated.challenge.id)).status is ChallengeStatus.OPEN
    assert await service.game_in(game.channel_id) is None

    # Bob's press then answers Alice's rematch, on the finished game's terms.
    answered = await service.rematch(game.id, BOB.id)
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    assert answered.challenge is not None and answered.challenge.id == mine.id
    assert (answered.game.white, answered.game.black) == (ALICE, BOB)
    assert answered.game.move_time == MOVE_TIME and answered.game.variant == game.variant
    assert (await service.challenge_view(unrelated.challenge.id)).status is ChallengeStatus.OPEN


async def test_a_challenge_to_someone_else_is_left_alone(service: GameService) -> None:
    game = await finished(service)
    to_carol = await challenge(service, **bobs_rematch(opponent=CAROL))
    assert to_carol.challenge is not None
    pressed = await service.rematch(game.id, ALICE.id)
    assert pressed.action is Action.CHALLENGE_CREATED
    assert (await service.challenge_view(to_carol.challenge.id)).status is ChallengeStatus.OPEN


async def test_an_expired_rematch_is_not_answered(service: GameService, clock: Clock) -> None:
    game = await finished(service)
    bobs = await service.rematch(game.id, BOB.id)
    assert bobs.challenge is not None
    clock.advance(EXPIRY + 1)
    pressed = await service.rematch(game.id, ALICE.id)
    assert pressed.action is Action.CHALLENGE_CREATED
    assert pressed.challenge is not None and pressed.challenge.challenger == ALICE


async def test_a_balloted_game_is_answered_only_from_the_same_ballot(
    service: GameService,
) -> None:
    """The rematch of a balloted game starts from its ballot; a challenge from a freshly drawn
    ballot (very likely another one) or from none is a different game."""
    game = await finished(service, ballot=True)
    row = await service.store.game(game.id)
    assert row is not None and len(row.opening.split()) == 3
    other_opening = ("11-15", "23-19", "8-11")
    assert list(other_opening) != row.opening.split()
    unrelated = await challenge(service, **bobs_rematch(opening=other_opening))
    assert unrelated.challenge is not None
    pressed = await service.rematch(game.id, ALICE.id)
    assert pressed.action is Action.CHALLENGE_CREATED and pressed.challenge is not None
    assert pressed.challenge.opening == row.opening
    started = await service.rematch(game.id, BOB.id)
    assert started.game is not None and started.challenge is not None
    assert started.challenge.id == pressed.challenge.id


async def test_when_the_server_threads_every_game_the_rematch_thread_matches(
    service: GameService,
) -> None:
    """With every game in a thread, each rematch challenge asks for one: that is no difference."""
    game = await finished(service)
    await service.settings.change(game.guild_id, is_moderator=True, threads=ThreadMode.ALWAYS)
    bobs = await service.rematch(game.id, BOB.id)
    assert bobs.challenge is not None and bobs.challenge.thread
    answering = await service.needs_thread(bobs.challenge.id)
    assert answering
    answered = await service.rematch(game.id, ALICE.id, thread_id=555)
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    assert answered.game.channel_id == 555


async def test_my_own_open_challenge_is_still_refused_clearly(service: GameService) -> None:
    """Alice already has a challenge open here and Bob's is not the rematch: her press says
    so rather than doing anything."""
    game = await finished(service)
    await challenge(service, **bobs_rematch(move_time=60))
    await challenge(service, opponent=CAROL)
    with pytest.raises(ChallengeError, match="already have an open challenge"):
        await service.rematch(game.id, ALICE.id)


# -- end to end ----------------------------------------------------------------------------------


def message_with(fake: FakeDiscord, custom_id: str) -> dict[str, Any] | None:
    """The latest message the fake holds with a button ``custom_id`` (however it was posted:
    an interaction's answer or a channel post)."""
    found = [m for m in fake.messages.values() if custom_id in custom_ids(m)]
    return found[-1] if found else None


@pytest.mark.e2e
async def test_e2e_rematch_leaves_an_unrelated_challenge_alone(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Alice's Rematch of a one-day game, while Bob has a five-minute challenge to her open in
    the channel, posts her rematch; Bob's press then starts the one-day return game."""
    bot, users = await launch()
    sent = await users.command(
        "challenge", ALICE_E2E, GENERAL, opponent=user(BOB_E2E), variant="english", color="black"
    )
    first = await sent.callback()
    assert embed_of(first)["footer"]["text"] == "Challenge #1"
    assert field(embed_of(first), "Time per move") == "1 day"
    accepted = await users.press("challenge:accept:1", sent.message(), BOB_E2E)
    assert (await accepted.callback()).json["type"] == 7
    for mover, move in ((ALICE_E2E, "11-15"), (BOB_E2E, "23-19")):  # a resignation counts
        await (await users.command("move", mover, GENERAL, move=move)).callback()  # once both
    resign = await users.command("resign", ALICE_E2E, GENERAL)  # have moved
    assert custom_ids(await resign.callback()) == ["resign:1"]
    await users.press("resign:1", resign.message(), ALICE_E2E)
    final = await bot.alive(fake.wait_until(lambda: message_with(fake, "rematch:1")))

    # Bob challenges Alice to a five-minute game, with the colours a rematch would have.
    unrelated = await users.command(
        "challenge",
        BOB_E2E,
        GENERAL,
        opponent=user(ALICE_E2E),
        variant="english",
        color="black",
        move_time=300,
    )
    posted = await unrelated.callback()
    assert embed_of(posted)["footer"]["text"] == "Challenge #2"
    assert field(embed_of(posted), "Time per move") == "5 minutes"
    bobs_message = unrelated.message()

    # Alice presses Rematch: her own rematch challenge is posted (not Bob's game started).
    asked = await users.press("rematch:1", final, ALICE_E2E)
    rematch = await asked.callback()
    assert rematch.json["type"] == 4 and not is_ephemeral(rematch), rematch.json
    assert content_of(rematch) == f"<@{BOB_E2E}>, you have been challenged!"
    assert embed_of(rematch)["footer"]["text"] == "Challenge #3"
    assert field(embed_of(rematch), "Time per move") == "1 day"
    assert field(embed_of(rematch), "Colours") == "Alice plays White"
    board = await users.command("board", CAROL_E2E, GENERAL)
    assert is_ephemeral(await board.callback())  # no game is running
    assert custom_ids(fake.messages[bobs_message["id"]]) == [
        "challenge:accept:2",
        "challenge:decline:2",
        "challenge:cancel:2",
    ]

    # Bob presses Rematch: that answers Alice's rematch, a one-day game with colours swapped.
    answered = await users.press("rematch:1", final, BOB_E2E)
    started = await answered.callback()
    assert started.json["type"] == 4 and not is_ephemeral(started), started.json
    embed = embed_of(started)
    assert footer_of(embed) == "Game #2 · English draughts / American checkers · rated"
    assert seats_of(embed) == ("Alice", "Bob")  # Alice White, Bob Black
    assert to_move_in(started) == BOB_E2E
    deadline = due_in(started)
    assert deadline is not None and deadline > time.time() + 3600  # a day, not 5 min
    closed = await bot.alive(
        fake.wait_until(lambda: message_with(fake, "challenge:accept:3") is None)
    )
    assert closed
    # Bob's five-minute challenge is still open, buttons and all.
    assert len(custom_ids(fake.messages[bobs_message["id"]])) == 3
    assert fake.find_requests("PATCH", rf"/channels/{GENERAL}/messages/{bobs_message['id']}") == []
