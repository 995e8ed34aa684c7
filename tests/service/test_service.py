"""The game service (``bot.service``) on real SQLite files, with a clock the tests move by hand.

Every action is checked through the plain result object it returns (action, text, board flag,
mentions, the game view) and through what the database holds afterwards; every refusal is checked
to leave the game row (including its version), its moves and the in-memory view exactly as they
were.  Nothing of ours is mocked: the only stand-in is a tiny real ``ComputerPlayer`` whose search
dies, to stand for an engine process that crashed in the middle of a reply.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    BOT_ID,
    CAPTURE_LINE,
    CAROL,
    CHANNEL,
    EXPIRY,
    GUILD,
    MOVE_TIME,
    OTHER_CHANNEL,
    OTHER_GUILD,
    T0,
    THREAD,
    Background,
    Clock,
    CrashingComputer,
    Database,
    Databases,
    both_moved,
    challenge,
    challenge_unchanged,
    count_rows,
    opened,
    play,
    replied,
    start,
    start_moved,
    unchanged,
)

from bot.errors import (
    ChallengeError,
    ConflictError,
    ForbiddenError,
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    ServiceError,
    ThreadRequired,
)
from bot.results import Action, ActionResult, MoveChoice, Player
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.service.computer import RandomComputer
from rules.game import Game
from rules.notation import MoveError
from rules.pdn import read_game
from rules.variants import find_variant

ENGLISH_TITLE = "English draughts / American checkers"

# International, White first: after these 53 plies Black has 29 legal moves (a king on 28).
CROWDED_LINE = [
    "34-29",
    "20-25",
    "31-26",
    "19-23",
    "33-28",
    "23x34",
    "40x29",
    "18-22",
    "45-40",
    "22x33x24",
    "50-45",
    "15-20",
    "26-21",
    "17x26",
    "32-27",
    "13-19",
    "39-33",
    "9-13",
    "38-32",
    "13-18",
    "33-29",
    "24x33",
    "32-28",
    "33x22x31",
    "36x27",
    "19-24",
    "37-32",
    "11-17",
    "43-39",
    "17-21",
    "32-28",
    "21x32x23",
    "35-30",
    "25x34x43",
    "48x39",
    "10-15",
    "40-34",
    "23-28",
    "34-30",
    "24x35",
    "41-37",
    "26-31",
    "37x26",
    "18-23",
    "45-40",
    "8-13",
    "39-33",
    "28x39x50",
    "26-21",
    "16x27",
    "49-44",
    "50x28",
    "40-34",
]


def rules_reason(variant: str, moves: list[str], text: str) -> str:
    """What the rules say when ``text`` is played after ``moves``."""
    game = Game(find_variant(variant))
    for move in moves:
        game.play(move)
    with pytest.raises(MoveError) as info:
        game.play(text)
    return str(info.value)


# -- challenges ---------------------------------------------------------------------------------


async def test_challenge_is_created_open_and_mentions_the_opponent(service: GameService) -> None:
    result = await challenge(service, color="white", move_time=7200)
    assert result.action is Action.CHALLENGE_CREATED
    assert (
        "Alice" in str(result.text)
        and "Bob" in str(result.text)
        and ENGLISH_TITLE in str(result.text)
    )
    assert result.mentions == (BOB.id,)
    assert result.post_board is False and result.game is None
    view = result.challenge
    assert view is not None
    assert (view.challenger, view.opponent) == (ALICE, BOB)
    assert (view.guild_id, view.channel_id, view.variant, view.color) == (
        GUILD,
        CHANNEL,
        "english",
        "white",
    )
    assert (view.move_time, view.thread, view.level, view.status, view.game_id) == (
        7200,
        False,
        None,
        "open",
        None,
    )
    assert view.expires_at == T0 + EXPIRY
    assert await service.challenge_view(view.id) == view
    row = await service.store.open_challenge_of(ALICE.id, CHANNEL)
    assert row is not None and row.id == view.id


async def test_challenging_yourself_is_refused(service: GameService) -> None:
    with pytest.raises(ChallengeError, match="yourself"):
        await challenge(service, opponent=Player(ALICE.id, "Alice again"))
    assert await count_rows(service, "challenges") == 0


async def test_second_open_challenge_in_same_channel_refused_but_allowed_elsewhere(
    service: GameService,
) -> None:
    first = await challenge(service)
    assert first.challenge is not None
    async with challenge_unchanged(service, first.challenge.id):
        with pytest.raises(ChallengeError, match="already have an open challenge"):
            await challenge(service, opponent=CAROL)
    assert await count_rows(service, "challenges") == 1
    other = await challenge(service, channel_id=OTHER_CHANNEL)
    assert other.action is Action.CHALLENGE_CREATED
    # Someone else may challenge in the first channel.
    assert (await challenge(service, challenger=CAROL)).action is Action.CHALLENGE_CREATED


async def test_cancelled_challenge_frees_the_channel_for_a_new_one(service: GameService) -> None:
    first = await challenge(service)
    assert first.challenge is not None
    await service.cancel(first.challenge.id, ALICE.id)
    assert (await challenge(service)).action is Action.CHALLENGE_CREATED


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"variant": "chess"}, "chess"),
        ({"color": "red"}, "colour must be one of random, white, black"),
        ({"move_time": 0}, "positive"),
        ({"move_time": -5}, "positive"),
        ({"level": 0}, "between 1 and 6"),
        ({"level": 7}, "between 1 and 6"),
        ({"level": 7, "opponent": BOT}, "between 1 and 6"),
        ({"challenger": Player(BOT_ID, "Bot"), "opponent": BOB}, "computer"),
    ],
)
async def test_invalid_challenge_refused(
    service: GameService, overrides: dict[str, Any], reason: str
) -> None:
    with pytest.raises(ChallengeError, match=reason):
        await challenge(service, **overrides)
    assert await count_rows(service, "challenges") == 0
    assert await count_rows(service, "games") == 0


@pytest.mark.parametrize(("level", "stored"), [(None, 3), (1, 1), (6, 6)])
async def test_computer_level(service: GameService, level: int | None, stored: int) -> None:
    result = await challenge(service, opponent=BOT, level=level)
    assert result.game is not None and result.game.computer_level == stored
    row = await service.store.game(result.game.id)
    assert row is not None and row.computer_level == stored and row.computer_id == BOT_ID


async def test_challenge_to_the_bot_starts_a_computer_game_at_once(service: GameService) -> None:
    # Alice plays Black, and Black moves first in english: no computer move yet.
    result = await challenge(service, opponent=BOT)
    assert result.action is Action.GAME_STARTED
    assert result.challenge is None and await count_rows(service, "challenges") == 0
    assert result.post_board is True
    assert result.mentions == (ALICE.id,)
    assert result.moves == ()
    view = result.game
    assert view is not None and view.running
    assert view.black == ALICE
    assert view.white == Player(BOT_ID, service.bot.name)  # the bot's own name, not the input's
    assert view.to_move == ALICE and view.ply == 0
    assert view.deadline == T0 + MOVE_TIME
    assert str(result.text) == "New game."  # the board names the players and whose turn it is
    assert await service.game_in(CHANNEL) == view


async def test_computer_moves_first_when_the_human_plays_white(service: GameService) -> None:
    result = await challenge(service, opponent=BOT, color="white")
    view = result.game
    assert view is not None
    assert view.white == ALICE and view.black.id == BOT_ID
    # The game is announced at once, the computer to move; its first move follows.
    assert result.moves == () and view.ply == 0 and view.to_move is not None
    assert view.to_move.id == BOT_ID and view.deadline is None
    assert str(result.text) == "New game."
    opening = await replied(service, view.id)
    assert opening.action is Action.MOVED and opening.post_board is True
    (reply,) = opening.moves
    assert reply.computer and reply.by.id == BOT_ID and reply.ply == 1
    after = opening.game
    assert after is not None
    assert after.ply == 1 and after.turn == "white" and after.to_move == ALICE
    assert after.last_move == reply.pdn
    assert f"played {reply.pdn}." in str(opening.text)
    assert after.deadline == T0 + MOVE_TIME and opening.mentions == (ALICE.id,)
    stored = await service.store.moves(view.id)
    assert [(m.ply, m.pdn, m.user_id) for m in stored] == [(1, reply.pdn, BOT_ID)]


async def test_computer_replies_after_each_human_move(service: GameService, clock: Clock) -> None:
    view = (await challenge(service, opponent=BOT)).game
    assert view is not None
    for ply in (0, 2):
        clock.advance(10)
        (choice, *_) = await service.legal_moves(CHANNEL, ALICE.id)
        result = await service.move(ALICE.id, choice.value, channel_id=CHANNEL)
        assert result.action is Action.MOVED
        # The move is answered at once, the computer to move and nobody pinged...
        assert [(m.ply, m.by, m.computer) for m in result.moves] == [(ply + 1, ALICE, False)]
        assert result.game is not None and result.game.to_move is not None
        assert result.game.to_move.id == BOT_ID and result.mentions == ()
        assert str(result.text).endswith(".") and "to move" not in str(
            result.text
        )  # the board says
        # ...and its reply, claimed by the move, comes next.
        reply = await replied(service, view.id)
        assert reply.action is Action.MOVED and reply.post_board is True
        assert [(m.ply, m.computer) for m in reply.moves] == [(ply + 2, True)]
        assert reply.moves[0].by.id == BOT_ID
        assert f"{BOT.name} played {reply.moves[0].pdn}." in str(reply.text)
        assert reply.game is not None
        assert reply.game.ply == ply + 2 and reply.game.to_move == ALICE
        assert reply.game.deadline == clock.now + MOVE_TIME
        assert reply.mentions == (ALICE.id,)
        assert reply.event is not None and reply.event != result.event
    stored = await service.store.moves(view.id)
    assert [m.user_id for m in stored] == [ALICE.id, BOT_ID, ALICE.id, BOT_ID]


async def test_accept_starts_the_game(service: GameService) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    result = await service.accept(created.challenge.id, BOB.id)
    assert result.action is Action.GAME_STARTED
    assert result.post_board is True
    assert set(result.mentions) == {ALICE.id, BOB.id}
    view = result.game
    assert view is not None
    assert (view.black, view.white) == (ALICE, BOB)  # colour is the challenger's
    assert (view.guild_id, view.channel_id, view.variant) == (GUILD, CHANNEL, "english")
    assert view.status == "running" and str(view.status_line) == "ongoing"
    assert view.to_move == ALICE and view.turn == "black" and view.ply == 0
    assert view.deadline == T0 + MOVE_TIME and view.move_time == MOVE_TIME
    assert view.computer_level is None and view.winner is None and view.result is None
    assert str(result.text) == "New game."
    closed = await service.challenge_view(created.challenge.id)
    assert closed.status == "accepted" and closed.game_id == view.id
    assert await service.game_in(CHANNEL) == view


async def test_accept_only_by_the_challenged_user(service: GameService) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    async with challenge_unchanged(service, created.challenge.id):
        for user in (ALICE.id, CAROL.id):
            with pytest.raises(NotAPlayerError, match="only Bob"):
                await service.accept(created.challenge.id, user)
    assert await count_rows(service, "games") == 0


async def test_decline_only_by_the_challenged_user(service: GameService) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    cid = created.challenge.id
    async with challenge_unchanged(service, cid):
        for user in (ALICE.id, CAROL.id):
            with pytest.raises(NotAPlayerError, match="only Bob"):
                await service.decline(cid, user)
    result = await service.decline(cid, BOB.id)
    assert result.action is Action.CHALLENGE_DECLINED
    assert "Bob" in str(result.text) and result.post_board is False
    assert result.challenge is not None and result.challenge.status == "declined"
    assert (await service.challenge_view(cid)).status == "declined"


async def test_cancel_only_by_the_challenger(service: GameService) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    cid = created.challenge.id
    async with challenge_unchanged(service, cid):
        for user in (BOB.id, CAROL.id):
            with pytest.raises(NotAPlayerError, match="only Alice"):
                await service.cancel(cid, user)
    result = await service.cancel(cid, ALICE.id)
    assert result.action is Action.CHALLENGE_CANCELLED
    assert "Alice" in str(result.text) and result.post_board is False
    assert result.challenge is not None and result.challenge.status == "cancelled"


@pytest.mark.parametrize("how", ["declined", "cancelled", "accepted", "expired"])
async def test_a_closed_challenge_cannot_be_answered(
    service: GameService, clock: Clock, how: str
) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    cid = created.challenge.id
    if how == "declined":
        await service.decline(cid, BOB.id)
    elif how == "cancelled":
        await service.cancel(cid, ALICE.id)
    elif how == "accepted":
        await service.accept(cid, BOB.id)
    else:
        clock.advance(EXPIRY)
        await service.tick()
    games = await count_rows(service, "games")
    async with challenge_unchanged(service, cid):
        with pytest.raises(GameOverError, match=how):
            await service.accept(cid, BOB.id, thread_id=THREAD)
        with pytest.raises(GameOverError):
            await service.decline(cid, BOB.id)
        with pytest.raises(GameOverError):
            await service.cancel(cid, ALICE.id)
    assert await count_rows(service, "games") == games


async def test_unknown_challenge_not_found(service: GameService) -> None:
    for action in (service.accept, service.decline, service.cancel):
        with pytest.raises(NotFoundError):
            await action(4242, BOB.id)
    with pytest.raises(NotFoundError):
        await service.challenge_view(4242)


async def test_challenge_expires_on_tick(service: GameService, clock: Clock) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    clock.now = T0 + EXPIRY - 1
    assert await service.tick() == []
    assert (await service.challenge_view(created.challenge.id)).status == "open"
    clock.now = T0 + EXPIRY
    events = await service.tick()
    assert [e.action for e in events] == [Action.CHALLENGE_EXPIRED]
    (event,) = events
    assert "Alice" in str(event.text) and "Bob" in str(event.text)
    assert event.challenge is not None and event.challenge.status == "expired"
    assert event.game is None and event.post_board is False
    assert await service.tick() == []  # reported once
    assert await service.store.open_challenge_of(ALICE.id, CHANNEL) is None


async def test_accept_after_expiry_time_refused_even_before_tick(
    service: GameService, clock: Clock
) -> None:
    created = await challenge(service)
    assert created.challenge is not None
    clock.now = T0 + EXPIRY + 1
    async with challenge_unchanged(service, created.challenge.id):
        with pytest.raises(GameOverError, match="expired"):
            await service.accept(created.challenge.id, BOB.id)
    assert await count_rows(service, "games") == 0


async def test_new_challenge_allowed_once_the_old_one_expired_even_before_tick(
    service: GameService, clock: Clock
) -> None:
    """An expired challenge is no longer open: it must not block a new one in the channel just
    because the scheduler has not run yet (the old one cannot even be cancelled any more)."""
    await challenge(service)
    clock.now = T0 + EXPIRY + 1
    result = await challenge(service)
    assert result.action is Action.CHALLENGE_CREATED


async def test_thread_required_when_the_challenge_asks_for_one(service: GameService) -> None:
    created = await challenge(service, thread=True)
    assert created.challenge is not None and created.challenge.thread is True
    cid = created.challenge.id
    assert await service.needs_thread(cid) is True
    async with challenge_unchanged(service, cid):
        with pytest.raises(ThreadRequired):
            await service.accept(cid, BOB.id)
    assert await count_rows(service, "games") == 0
    result = await service.accept(cid, BOB.id, thread_id=THREAD)
    assert result.game is not None and result.game.channel_id == THREAD
    assert (await service.game_in(THREAD)) == result.game
    assert await service.game_in(CHANNEL) is None


async def test_thread_required_when_the_channel_has_a_running_game(
    service: GameService,
) -> None:
    await start(service)
    created = await challenge(service, challenger=CAROL, opponent=BOB, thread=False)
    assert created.challenge is not None
    assert await service.needs_thread(created.challenge.id) is True
    with pytest.raises(ThreadRequired):
        await service.accept(created.challenge.id, BOB.id)
    result = await service.accept(created.challenge.id, BOB.id, thread_id=THREAD)
    assert result.game is not None and result.game.channel_id == THREAD


async def test_computer_challenge_needs_a_thread_when_asked_or_busy(service: GameService) -> None:
    with pytest.raises(ThreadRequired):
        await challenge(service, opponent=BOT, thread=True)
    assert await count_rows(service, "games") == 0
    in_thread = await challenge(service, opponent=BOT, thread=True, thread_id=THREAD)
    assert in_thread.game is not None and in_thread.game.channel_id == THREAD
    await start(service, challenger=CAROL)
    with pytest.raises(ThreadRequired):
        await challenge(service, opponent=BOT)
    assert await count_rows(service, "games") == 2


async def test_one_running_game_per_channel(service: GameService) -> None:
    await start(service)
    busy = await start(service, channel_id=OTHER_CHANNEL)
    created = await challenge(service, challenger=CAROL)
    assert created.challenge is not None
    async with challenge_unchanged(service, created.challenge.id):
        with pytest.raises(ChallengeError, match="already running"):
            await service.accept(created.challenge.id, BOB.id, thread_id=OTHER_CHANNEL)
    with pytest.raises(ChallengeError, match="already running"):
        await challenge(service, challenger=CAROL, opponent=BOT, thread_id=OTHER_CHANNEL)
    assert await count_rows(service, "games") == 2
    assert await service.game_in(OTHER_CHANNEL) == busy


@pytest.mark.parametrize(("color", "alice"), [("white", "white"), ("black", "black")])
async def test_colour_is_the_challengers(service: GameService, color: str, alice: str) -> None:
    view = await start(service, color=color)
    assert view.player(alice) == ALICE
    assert view.player("black" if alice == "white" else "white") == BOB
    assert view.to_move == view.black  # english: Black moves first


async def test_random_colour_comes_from_the_seeded_rng(databases: Databases, clock: Clock) -> None:
    async def alice_colour(seed: int, name: str) -> str:
        async with opened(await databases.new(name), clock, seed=seed) as svc:
            view = await start(svc, color="random")
            return "white" if view.white == ALICE else "black"

    colours = [await alice_colour(seed, f"a{seed}") for seed in range(8)]
    assert set(colours) == {"white", "black"}
    again = [await alice_colour(seed, f"b{seed}.db") for seed in range(8)]
    assert again == colours


async def test_opening_is_played_at_start_and_stored(service: GameService) -> None:
    created = await challenge(service, opening=("11 15", "23–19"))  # forgiving input, en dash
    assert created.challenge is not None
    result = await service.accept(created.challenge.id, BOB.id)
    view = result.game
    assert view is not None
    assert view.ply == 2 and view.last_move == "23-19" and view.to_move == ALICE
    expected = Game(find_variant("english"))
    expected.play("11-15")
    expected.play("23-19")
    assert view.fen == expected.position.fen()
    stored = await service.store.moves(view.id)
    assert [(m.ply, m.pdn, m.user_id) for m in stored] == [
        (1, "11-15", ALICE.id),
        (2, "23-19", BOB.id),
    ]
    row = await service.store.game(view.id)
    assert row is not None and row.opening == "11-15 23-19" and row.ply == 2


async def test_opening_against_the_computer(service: GameService) -> None:
    # After two opening plies Black (Alice) is to move, so the computer waits.
    result = await challenge(service, opponent=BOT, opening=("11-15", "23-19"))
    assert result.game is not None and result.game.ply == 2 and result.moves == ()
    assert [m.pdn for m in await service.store.moves(result.game.id)] == ["11-15", "23-19"]


@pytest.mark.parametrize("opening", [("11-15", "11-15"), ("11-15", "22-18", "15x22", "33-28")])
async def test_illegal_opening_refused(service: GameService, opening: tuple[str, ...]) -> None:
    with pytest.raises(ChallengeError, match="not playable"):
        await challenge(service, opening=opening)
    with pytest.raises(ChallengeError, match="not playable"):
        await challenge(service, opening=opening, opponent=BOT)
    assert await count_rows(service, "challenges") == 0
    assert await count_rows(service, "games") == 0


# -- moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["11-15", "11 15", "11–15", "１１-１５", " 11-15! ", "f6-e5"])
async def test_move_in_several_notations(service: GameService, text: str) -> None:
    view = await start(service)
    result = await service.move(ALICE.id, text, channel_id=CHANNEL)
    assert result.action is Action.MOVED
    assert result.moves[0].pdn == "11-15"
    assert result.game is not None and result.game.last_move == "11-15"
    assert [m.pdn for m in await service.store.moves(view.id)] == ["11-15"]


async def test_move_result_and_stored_state(service: GameService, clock: Clock) -> None:
    view = await start(service)
    clock.advance(50)
    result = await service.move(ALICE.id, "11-15", game_id=view.id)
    assert result.action is Action.MOVED
    assert str(result.text) == "Alice played 11-15."
    assert result.post_board is True
    assert result.mentions == (BOB.id,)
    assert [(m.ply, m.pdn, m.by, m.computer) for m in result.moves] == [(1, "11-15", ALICE, False)]
    after = result.game
    assert after is not None
    assert (after.ply, after.turn, after.to_move) == (1, "white", BOB)
    assert after.deadline == clock.now + MOVE_TIME
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.ply, row.fen, row.deadline) == (1, after.fen, clock.now + MOVE_TIME)
    assert row.remind_at == clock.now + MOVE_TIME / 2
    (stored,) = await service.store.moves(view.id)
    assert (stored.ply, stored.pdn, stored.fen_after, stored.user_id, stored.played_at) == (
        1,
        "11-15",
        after.fen,
        ALICE.id,
        clock.now,
    )


async def test_move_number_follows_the_pdn_numbering(service: GameService) -> None:
    """``1. 11-15 23-19 2. 8-11``: White's reply to Black's first move is still move 1."""
    view = await start(service)
    numbers = [view.move_number]
    for text in ["11-15", "23-19", "8-11"]:
        view = await play(service, view, [text])
        numbers.append(view.move_number)
    assert "1. 11-15 23-19 2. 8-11" in (await service.pdn(game_id=view.id))[1]
    assert numbers == [1, 1, 2, 2]


async def test_short_capture_form_plays_the_full_path(service: GameService) -> None:
    view = await play(service, await start(service), CAPTURE_LINE)
    assert view.to_move == BOB
    result = await service.move(BOB.id, "24x8", channel_id=CHANNEL)
    assert result.moves[0].pdn == "24x15x8"
    assert (await service.store.moves(view.id))[-1].pdn == "24x15x8"


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ([], "12-17"),  # not a move of that piece
        ([], "23-19"),  # the opponent's piece
        ([], "33-34"),  # no such square
        ([], "eleven to fifteen"),  # not a move at all
        (CAPTURE_LINE, "21-17"),  # a capture is compulsory
    ],
)
async def test_illegal_move_refused_with_the_rules_reason(
    service: GameService, before: list[str], text: str
) -> None:
    view = await play(service, await start(service), before)
    assert view.to_move is not None
    async with unchanged(service, view.id):
        with pytest.raises(IllegalMoveError) as info:
            await service.move(view.to_move.id, text, channel_id=CHANNEL)
    assert str(info.value) == rules_reason("english", before, text)


async def test_move_on_the_wrong_turn_refused_naming_whose_turn(service: GameService) -> None:
    view = await start(service)
    async with unchanged(service, view.id):
        with pytest.raises(NotYourTurnError, match="Alice"):
            await service.move(BOB.id, "23-19", channel_id=CHANNEL)
    view = await play(service, view, ["11-15"])
    async with unchanged(service, view.id):
        with pytest.raises(NotYourTurnError, match="Bob"):
            await service.move(ALICE.id, "8-11", channel_id=CHANNEL)


async def test_move_by_a_non_player_refused(service: GameService) -> None:
    view = await start(service)
    async with unchanged(service, view.id):
        with pytest.raises(NotAPlayerError, match=r"(Alice v Bob|Bob v Alice)"):
            await service.move(CAROL.id, "11-15", channel_id=CHANNEL)


async def test_expected_ply_guards_against_a_stale_board(service: GameService) -> None:
    view = await play(service, await start(service), ["11-15"])
    async with unchanged(service, view.id):
        with pytest.raises(ConflictError, match="try again"):
            await service.move(BOB.id, "23-19", channel_id=CHANNEL, expected_ply=0)
    result = await service.move(BOB.id, "23-19", channel_id=CHANNEL, expected_ply=1)
    assert result.game is not None and result.game.ply == 2


async def test_move_without_a_game_not_found(service: GameService) -> None:
    with pytest.raises(NotFoundError):
        await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
    with pytest.raises(NotFoundError):
        await service.move(ALICE.id, "11-15", game_id=4242)
    with pytest.raises(NotFoundError):
        await service.game_view(4242)


async def play_random_game(service: GameService, channel: int, seed: int) -> ActionResult:
    """Play seeded random legal moves (picked from the autocomplete) until the game ends."""
    rng = random.Random(seed)
    view = await service.game_in(channel)
    assert view is not None
    for _ in range(400):
        assert view.to_move is not None
        choices = await service.legal_moves(channel, view.to_move.id)
        result = await service.move(view.to_move.id, rng.choice(choices).value, channel_id=channel)
        assert result.game is not None
        view = result.game
        if not view.running:
            return result
    raise AssertionError("the random game did not end in 400 plies")


async def test_game_ends_by_a_move(service: GameService) -> None:
    started = await start(service)
    result = await play_random_game(service, CHANNEL, seed=283)
    view = result.game
    assert view is not None and result.finished
    assert view.status == "finished"
    assert view.result in ("1-0", "0-1")
    assert view.winner == (view.white if view.result == "1-0" else view.black)
    assert str(view.termination) in ("no pieces left", "no legal moves")
    assert str(view.status_line) == f"{view.result} {view.termination}"
    assert view.to_move is None and view.deadline is None
    assert set(result.mentions) == {ALICE.id, BOB.id}
    assert result.post_board is True
    # the result is said once, by the board's result line (the view), not again in the text
    assert str(result.text).startswith(f"{view.winner.name} played ")
    assert view.result not in str(result.text).split(".")[0]
    row = await service.store.game(started.id)
    assert row is not None
    assert (row.status, row.result, row.deadline, row.remind_at) == (
        "finished",
        view.result,
        None,
        None,
    )
    assert row.winner == ("white" if view.result == "1-0" else "black")
    assert len(await service.store.moves(started.id)) == view.ply
    async with unchanged(service, started.id):
        for user in (ALICE.id, BOB.id):
            with pytest.raises(GameOverError, match="over"):
                await service.move(user, "1-5", game_id=started.id)
            with pytest.raises(NotFoundError):
                await service.move(user, "1-5", channel_id=CHANNEL)
    assert await service.game_in(CHANNEL) is None
    assert await service.game_view(started.id) == view


# -- draws --------------------------------------------------------------------------------------


async def test_draw_offer_and_accept(service: GameService) -> None:
    view = await start_moved(service)
    offered = await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    assert offered.action is Action.DRAW_OFFERED
    assert "Alice" in str(offered.text) and "Bob" in str(offered.text)
    assert offered.mentions == (BOB.id,) and offered.post_board is False
    assert offered.game is not None
    assert offered.game.draw_offer == "black"
    assert str(offered.game.status_line) == "ongoing; Draw offered by Alice"
    row = await service.store.game(view.id)
    assert row is not None and row.draw_offer == "black"
    accepted = await service.accept_draw(BOB.id, channel_id=CHANNEL)
    assert accepted.action is Action.DRAW_ACCEPTED
    # the result is said by the board's result line, not again in the text
    assert str(accepted.text).startswith("Bob accepted the draw. Ratings:")
    assert accepted.post_board is True and set(accepted.mentions) == {ALICE.id, BOB.id}
    end = accepted.game
    assert end is not None
    assert (end.status, end.result, end.winner, str(end.termination)) == (
        "finished",
        "1/2-1/2",
        None,
        "draw by agreement",
    )
    row = await service.store.game(view.id)
    assert row is not None and (row.status, row.termination, row.draw_offer) == (
        "finished",
        "agreement",
        None,
    )


async def test_declined_draw_starts_the_40_move_count_of_the_decliner(
    service: GameService,
) -> None:
    view = await start_moved(service)
    await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    declined = await service.decline_draw(BOB.id, channel_id=CHANNEL)
    assert declined.action is Action.DRAW_DECLINED
    assert "Bob" in str(declined.text) and "40-move count: 40 left" in str(declined.text)
    assert declined.mentions == (ALICE.id,)
    assert declined.game is not None
    assert declined.game.draw_offer is None
    assert declined.game.advantage_left == 40
    assert str(declined.game.status_line) == "ongoing; 40-move count: 40 left"
    row = await service.store.game(view.id)
    assert row is not None and (row.advantage_side, row.advantage_start_ply) == ("white", 2)
    # Only the decliner's (Bob's, White's) own moves count down.
    lefts = []
    after = view
    for text in ["8-11", "22-17", "4-8", "17-13"]:
        after = await play(service, after, [text])
        lefts.append(after.advantage_left)
    assert lefts == [40, 39, 39, 38]
    assert str(after.status_line) == "ongoing; 40-move count: 38 left"


async def test_playing_on_declines_a_pending_offer(service: GameService) -> None:
    view = await play(service, await start_moved(service), ["8-11"])
    await service.offer_draw(ALICE.id, channel_id=CHANNEL)  # out of turn: allowed
    after = await play(service, view, ["22-17"])
    assert after.draw_offer is None and after.advantage_left == 39  # Bob played on


async def test_offering_when_the_opponents_offer_is_pending_accepts_it(
    service: GameService,
) -> None:
    await start_moved(service)
    await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    result = await service.offer_draw(BOB.id, channel_id=CHANNEL)
    assert result.action is Action.DRAW_ACCEPTED
    assert result.game is not None and result.game.result == "1/2-1/2"
    assert set(result.mentions) == {ALICE.id, BOB.id}


async def test_draw_answers_without_an_offer_refused(service: GameService) -> None:
    view = await start_moved(service)
    async with unchanged(service, view.id):
        with pytest.raises(ServiceError, match="no draw offer"):
            await service.accept_draw(BOB.id, channel_id=CHANNEL)
        with pytest.raises(ServiceError, match="no draw offer"):
            await service.decline_draw(BOB.id, channel_id=CHANNEL)
    await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    async with unchanged(service, view.id):
        with pytest.raises(ServiceError, match="no draw offer"):
            await service.accept_draw(ALICE.id, channel_id=CHANNEL)  # her own offer
        with pytest.raises(ServiceError, match="already offered"):
            await service.offer_draw(ALICE.id, channel_id=CHANNEL)


async def test_draw_actions_by_a_non_player_refused(service: GameService) -> None:
    view = await start_moved(service)
    await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    async with unchanged(service, view.id):
        for action in (service.offer_draw, service.accept_draw, service.decline_draw):
            with pytest.raises(NotAPlayerError):
                await action(CAROL.id, channel_id=CHANNEL)


async def test_draw_actions_on_a_finished_game_refused(service: GameService) -> None:
    view = await start(service)
    await service.resign(BOB.id, channel_id=CHANNEL)
    async with unchanged(service, view.id):
        for action in (service.offer_draw, service.accept_draw, service.decline_draw):
            with pytest.raises(GameOverError):
                await action(ALICE.id, game_id=view.id)


async def test_draw_offer_to_the_computer_is_declined_and_its_count_starts(
    service: GameService,
) -> None:
    view = (await challenge(service, opponent=BOT)).game  # Alice is Black, the computer White
    assert view is not None
    view = await both_moved(service, view)
    offered = await service.offer_draw(ALICE.id, channel_id=CHANNEL)
    assert offered.action is Action.DRAW_OFFERED and offered.mentions == ()
    assert f"Alice offers a draw; {BOT.name} is thinking it over." == str(offered.text)
    result = await replied(service, view.id)
    assert result.action is Action.DRAW_DECLINED
    assert str(result.text).startswith(f"{BOT.name} declined the draw.")
    # The decliner must show a decisive advantage within 40 moves.
    assert f"{BOT.name} now has 40 moves" in str(result.text)
    assert "40-move count: 40 left" in str(result.text)
    assert result.mentions == (ALICE.id,) and result.event is not None
    after = result.game
    assert after is not None and after.running
    assert after.draw_offer is None and after.advantage_left == 40
    assert str(after.status_line) == "ongoing; 40-move count: 40 left"
    row = await service.store.game(view.id)
    assert row is not None and row.advantage_side == "white"
    await service.move(
        ALICE.id, (await service.legal_moves(CHANNEL, ALICE.id))[0].value, channel_id=CHANNEL
    )
    moved = await replied(service, view.id)
    assert moved.game is not None and moved.game.advantage_left == 39


class AgreeableComputer(RandomComputer):
    """A real computer player that accepts every draw offer."""

    async def answer_draw(self, game: Game, level: int) -> bool:
        return True


async def test_draw_offer_to_the_computer_can_be_accepted(database: Database, clock: Clock) -> None:
    async with opened(database, clock, computer=AgreeableComputer(seed=2)) as svc:
        view = (await challenge(svc, opponent=BOT)).game
        assert view is not None
        await both_moved(svc, view)
        await svc.offer_draw(ALICE.id, channel_id=CHANNEL)
        result = await replied(svc, view.id)
        assert result.action is Action.DRAW_ACCEPTED and result.finished
        assert str(result.text) == f"{BOT.name} accepted the draw."
        row = await svc.store.game(view.id)
        assert row is not None and row.status.value == "finished" and row.result == "1/2-1/2"


async def test_no_40_move_count_outside_english(service: GameService) -> None:
    view = await both_moved(service, await start(service, variant="international"))
    await service.offer_draw(view.white.id, channel_id=CHANNEL)
    declined = await service.decline_draw(view.black.id, channel_id=CHANNEL)
    assert declined.game is not None
    assert declined.game.advantage_left is None and str(declined.game.status_line) == "ongoing"
    assert "40-move" not in str(declined.text)


# -- resign and abort ---------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "winner"), [(ALICE, BOB), (BOB, ALICE)])
async def test_resign_by_either_player(service: GameService, who: Player, winner: Player) -> None:
    view = await start_moved(service)  # Alice (Black) to move: Bob resigns out of turn
    result = await service.resign(who.id, channel_id=CHANNEL)
    assert result.action is Action.RESIGNED
    assert who.name in str(result.text)
    assert result.post_board is True and set(result.mentions) == {ALICE.id, BOB.id}
    end = result.game
    assert end is not None
    assert end.status == "finished" and end.winner == winner
    assert end.result == ("1-0" if winner == end.white else "0-1")
    assert end.termination is not None and "resigned" in str(end.termination)
    async with unchanged(service, view.id):
        with pytest.raises(GameOverError):
            await service.resign(winner.id, game_id=view.id)
        with pytest.raises(NotFoundError):
            await service.resign(winner.id, channel_id=CHANNEL)


async def test_resign_by_a_non_player_refused(service: GameService) -> None:
    view = await start(service)
    async with unchanged(service, view.id):
        with pytest.raises(NotAPlayerError):
            await service.resign(CAROL.id, channel_id=CHANNEL)


async def test_abort_requires_a_moderator_once_both_have_moved(service: GameService) -> None:
    """Players may abort only until both have moved (see test_service_phone.py); after that,
    and for anyone else at any time, aborting takes a moderator."""
    view = await start(service)
    async with unchanged(service, view.id):
        with pytest.raises(ForbiddenError, match="moderators"):
            await service.abort(CAROL.id, is_moderator=False, channel_id=CHANNEL)
    view = await play(service, view, ["11-15", "23-19"])
    async with unchanged(service, view.id):
        for user in (ALICE.id, BOB.id):
            with pytest.raises(ForbiddenError, match="both players have moved"):
                await service.abort(user, is_moderator=False, channel_id=CHANNEL)
        with pytest.raises(ForbiddenError, match="moderators"):
            await service.abort(CAROL.id, is_moderator=False, channel_id=CHANNEL)
    result = await service.abort(CAROL.id, is_moderator=True, channel_id=CHANNEL)
    assert result.action is Action.ABORTED
    end = result.game
    assert end is not None
    assert (end.status, end.result, end.winner, end.to_move) == ("aborted", "*", None, None)
    row = await service.store.game(view.id)
    assert row is not None and (row.status, row.deadline) == ("aborted", None)
    assert await service.game_in(CHANNEL) is None
    async with unchanged(service, view.id):
        with pytest.raises(GameOverError):
            await service.abort(CAROL.id, is_moderator=True, game_id=view.id)


# -- deadlines ----------------------------------------------------------------------------------


async def test_reminder_at_half_time_once(service: GameService, clock: Clock) -> None:
    view = await start(service)
    clock.now = T0 + MOVE_TIME / 2 - 1
    assert await service.tick() == []
    clock.now = T0 + MOVE_TIME / 2
    events = await service.tick()
    assert [e.action for e in events] == [Action.REMINDER]
    (event,) = events
    assert event.mentions == (ALICE.id,)
    assert "Alice" in str(event.text) and f"#{view.id}" in str(event.text)
    assert event.game is not None and event.game.running
    assert event.game.deadline == T0 + MOVE_TIME and event.post_board is False
    row = await service.store.game(view.id)
    assert row is not None and row.remind_at is None and row.deadline == T0 + MOVE_TIME
    clock.advance(60)
    assert await service.tick() == []


async def test_timeout_gives_the_win_to_the_waiting_player(
    service: GameService, clock: Clock
) -> None:
    # Bob to move, having moved (before his first move the game would be aborted instead).
    view = await play(service, await start(service), ["11-15", "23-19", "8-11"])
    clock.now = T0 + MOVE_TIME / 2
    assert [e.action for e in await service.tick()] == [Action.REMINDER]
    clock.now = T0 + MOVE_TIME - 1
    assert [e.action for e in await service.tick()] == [Action.LAST_WARNING]
    assert await service.tick() == []
    clock.now = T0 + MOVE_TIME
    events = await service.tick()
    assert [e.action for e in events] == [Action.TIMEOUT]
    (event,) = events
    assert "Bob" in str(event.text)
    assert event.post_board is True and set(event.mentions) == {ALICE.id, BOB.id}
    end = event.game
    assert end is not None
    assert end.status == "finished" and end.winner == ALICE and end.result == "0-1"
    assert end.termination is not None and "time" in str(end.termination)
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.status, row.termination, row.winner) == ("finished", "timeout", "black")
    async with unchanged(service, view.id):
        with pytest.raises(GameOverError):
            await service.move(BOB.id, "23-19", game_id=view.id)
        assert await service.tick() == []


async def test_timeout_without_a_reminder_when_time_jumps(
    service: GameService, clock: Clock
) -> None:
    await start_moved(service)
    clock.now = T0 + 10 * MOVE_TIME
    events = await service.tick()
    assert [e.action for e in events] == [Action.TIMEOUT]
    assert events[0].game is not None and events[0].game.winner == BOB


async def test_deadline_resets_after_each_move(service: GameService, clock: Clock) -> None:
    view = await start(service)
    clock.now = T0 + MOVE_TIME * 0.9  # Alice moves late but in time, without a reminder tick
    view = await play(service, view, ["11-15"])
    assert view.deadline == clock.now + MOVE_TIME
    moved_at = clock.now
    clock.now = T0 + MOVE_TIME + 1  # Alice's old deadline has passed: nothing is due
    assert await service.tick() == []
    clock.now = moved_at + MOVE_TIME / 2
    events = await service.tick()
    assert [e.action for e in events] == [Action.REMINDER]
    assert events[0].mentions == (BOB.id,)
    view = await play(service, view, ["23-19"])
    assert view.deadline == clock.now + MOVE_TIME
    row = await service.store.game(view.id)
    assert row is not None and row.remind_at == clock.now + MOVE_TIME / 2


async def test_computer_never_has_a_deadline_but_the_human_does(
    service: GameService, clock: Clock
) -> None:
    view = (await challenge(service, opponent=BOT)).game
    assert view is not None
    moved = await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
    assert moved.game is not None and moved.game.deadline is None  # the computer's turn
    await replied(service, view.id)
    clock.advance(MOVE_TIME)
    events = await service.tick()
    assert [e.action for e in events] == [Action.TIMEOUT]
    (event,) = events
    assert event.game is not None and event.game.winner is not None
    assert event.game.winner.id == BOT_ID
    assert event.mentions == (ALICE.id,)


# -- autocomplete -------------------------------------------------------------------------------


async def test_legal_moves_for_the_player_to_move_only(service: GameService) -> None:
    assert await service.legal_moves(CHANNEL, ALICE.id) == []  # no game
    await start(service)
    choices = await service.legal_moves(CHANNEL, ALICE.id)
    assert {c.value for c in choices} == {
        m.pdn() for m in Game(find_variant("english")).legal_moves()
    }
    assert len(choices) == 7 and all(c.name == c.value for c in choices)
    assert await service.legal_moves(CHANNEL, BOB.id) == []
    assert await service.legal_moves(CHANNEL, CAROL.id) == []
    assert await service.legal_moves(OTHER_CHANNEL, ALICE.id) == []


@pytest.mark.parametrize(
    ("prefix", "values"),
    [
        ("11", {"11-15", "11-16"}),
        ("9-1", {"9-13", "9-14"}),
        ("11–1", {"11-15", "11-16"}),  # en dash
        ("12-16", {"12-16"}),
        ("zz", set()),
        ("11-19", set()),
    ],
)
async def test_legal_moves_prefix_filter(
    service: GameService, prefix: str, values: set[str]
) -> None:
    await start(service)
    choices = await service.legal_moves(CHANNEL, ALICE.id, prefix)
    assert {c.value for c in choices} == values


async def test_legal_moves_name_short_and_full_capture_forms(service: GameService) -> None:
    await play(service, await start(service), CAPTURE_LINE)
    assert await service.legal_moves(CHANNEL, ALICE.id) == []
    choices = await service.legal_moves(CHANNEL, BOB.id)
    assert sorted(choices, key=lambda c: c.value) == [
        MoveChoice("23x16", "23x16"),
        MoveChoice("24x8 (24x15x8)", "24x15x8"),
    ]
    for prefix in ("24x8", "24x15", "24:8"):
        assert await service.legal_moves(CHANNEL, BOB.id, prefix) == [
            MoveChoice("24x8 (24x15x8)", "24x15x8")
        ]


async def test_legal_moves_at_most_25(service: GameService) -> None:
    view = await play(service, await start(service, variant="international"), CROWDED_LINE)
    game = Game(find_variant("international"))
    for text in CROWDED_LINE:
        game.play(text)
    legal = {m.pdn() for m in game.legal_moves()}
    assert len(legal) == 29
    assert view.to_move is not None
    choices = await service.legal_moves(CHANNEL, view.to_move.id)
    assert len(choices) == 25
    assert len({c.value for c in choices}) == 25 and {c.value for c in choices} <= legal
    king = await service.legal_moves(CHANNEL, view.to_move.id, "28-")
    assert {c.value for c in king} == {m for m in legal if m.startswith("28-")}
    assert [c.value for c in await service.legal_moves(CHANNEL, view.to_move.id, "28-5")] == [
        "28-50"
    ]


# -- queries ------------------------------------------------------------------------------------


async def test_game_in_and_games_by_guild(service: GameService) -> None:
    assert await service.game_in(CHANNEL) is None
    assert await service.games(GUILD) == []
    first = await start(service)
    second = (await challenge(service, opponent=BOT, channel_id=OTHER_CHANNEL)).game
    third = await start(service, guild_id=OTHER_GUILD, channel_id=300)
    finished = await start(service, channel_id=400, challenger=CAROL)
    await service.resign(CAROL.id, channel_id=400)
    assert second is not None
    assert await service.game_in(CHANNEL) == first
    assert await service.game_in(400) is None
    assert [g.id for g in await service.games(GUILD)] == [first.id, second.id]
    assert [g.id for g in await service.games(OTHER_GUILD)] == [third.id]
    assert finished.id not in [g.id for g in await service.games(GUILD)]
    assert await service.games(12345) == []


async def test_games_without_a_guild_lists_only_games_outside_servers(
    service: GameService,
) -> None:
    """``games(None)`` (a command outside any server) must not list every server's games."""
    await start(service)
    await start(service, guild_id=OTHER_GUILD, channel_id=300)
    assert await service.games(None) == []


# -- PDN ----------------------------------------------------------------------------------------


async def test_pdn_of_a_running_game_by_id_reads_back(service: GameService) -> None:
    view = await play(service, await start(service), ["11-15", "23-19", "8-11"])
    name, text = await service.pdn(game_id=view.id)
    assert name == f"draughts-game-{view.id}.pdn"
    read = read_game(text)
    assert [m.pdn() for m in read.game.moves] == [m.pdn for m in await service.store.moves(view.id)]
    assert read.tags["White"] == "Bob" and read.tags["Black"] == "Alice"
    assert read.tags["Result"] == "*"
    assert read.game.position.fen() == view.fen


async def test_pdn_by_channel_prefers_the_running_game_else_the_last_finished(
    service: GameService, clock: Clock
) -> None:
    with pytest.raises(NotFoundError):
        await service.pdn(channel_id=CHANNEL)
    with pytest.raises(NotFoundError):
        await service.pdn()
    with pytest.raises(NotFoundError):
        await service.pdn(game_id=4242)
    first = await start_moved(service)
    await service.resign(ALICE.id, channel_id=CHANNEL)
    clock.advance(100)
    second = await play(service, await start(service, challenger=CAROL), ["9-13", "22-18"])
    assert (await service.pdn(channel_id=CHANNEL))[0] == f"draughts-game-{second.id}.pdn"
    clock.advance(100)
    await service.resign(BOB.id, channel_id=CHANNEL)
    name, text = await service.pdn(channel_id=CHANNEL)
    assert name == f"draughts-game-{second.id}.pdn"
    read = read_game(text)
    assert read.tags["Result"] == "0-1" and [m.pdn() for m in read.game.moves] == ["9-13", "22-18"]
    assert read.tags["Black"] == "Carol"
    assert (await service.pdn(game_id=first.id))[0] == f"draughts-game-{first.id}.pdn"
    assert read_game((await service.pdn(game_id=first.id))[1]).tags["Result"] == "1-0"


async def test_pdn_of_a_finished_game_reads_back_with_its_result(service: GameService) -> None:
    started = await start(service)
    result = await play_random_game(service, CHANNEL, seed=283)
    assert result.game is not None
    read = read_game((await service.pdn(channel_id=CHANNEL))[1])
    assert read.tags["Result"] == result.game.result
    assert [m.pdn() for m in read.game.moves] == [
        m.pdn for m in await service.store.moves(started.id)
    ]


@pytest.mark.parametrize(
    ("given", "tag"),
    [
        ('Al "the pal" \\o/', 'Al "the pal" \\o/'),
        ('two\nlines\r\n] [Event "x"', 'two lines ] [Event "x"'),
        ("🐉 Drăgon 龍", "🐉 Drăgon 龍"),
        ("   ", "?"),
        ("x" * 200, "x" * 64),
    ],
)
async def test_pdn_tags_carry_display_names_safely(
    service: GameService, given: str, tag: str
) -> None:
    view = await start(service, challenger=Player(7, given))
    await play(service, view, ["11-15"])
    read = read_game((await service.pdn(game_id=view.id))[1])
    assert read.tags["Black"] == tag and read.tags["White"] == "Bob"
    assert read.tags["Event"] == "Discord draughts"
    assert [m.pdn() for m in read.game.moves] == ["11-15"]


# -- restart ------------------------------------------------------------------------------------


async def test_restart_keeps_games_offers_counts_and_deadlines(
    database: Database, clock: Clock
) -> None:
    async with opened(database, clock) as first:
        game = await play(first, await start(first), ["11-15", "23-19", "8-11"])
        await first.offer_draw(BOB.id, channel_id=CHANNEL)
        await first.decline_draw(ALICE.id, channel_id=CHANNEL)  # Alice's count starts at ply 3
        clock.now = T0 + 30
        game = await play(first, game, ["22-17", "9-13"])  # Bob's deadline: T0 + 30 + 3600
        await first.offer_draw(ALICE.id, channel_id=CHANNEL)
        clock.now = T0 + 1030
        other = await play(
            first, await start(first, channel_id=OTHER_CHANNEL), ["9-13", "22-18", "11-15"]
        )
        clock.now = T0 + 1030 + MOVE_TIME / 2
        reminded = await first.tick()
        assert [(e.action, e.mentions) for e in reminded] == [(Action.REMINDER, (BOB.id,))] * 2
        before = await first.game_in(CHANNEL)
        other_before = await first.game_in(OTHER_CHANNEL)
    assert before is not None and other_before is not None
    assert before.draw_offer == "black" and before.advantage_left == 39
    assert before.ply == 5
    assert str(before.status_line) == "ongoing; Draw offered by Alice; 40-move count: 39 left"
    assert (before.deadline, other.deadline) == (T0 + 30 + MOVE_TIME, T0 + 1030 + MOVE_TIME)

    async with opened(database, clock) as second:
        assert await second.game_in(CHANNEL) == before
        row = await second.store.game(before.id)
        assert row is not None and (row.advantage_side, row.advantage_start_ply) == ("black", 3)
        assert await second.game_in(OTHER_CHANNEL) == other_before
        assert [g.id for g in await second.games(GUILD)] == [before.id, other_before.id]
        assert await second.tick() == []  # the reminders were sent before the restart
        accepted = await second.accept_draw(BOB.id, channel_id=CHANNEL)  # the offer survived
        assert accepted.game is not None and accepted.game.result == "1/2-1/2"
        clock.now = T0 + 1030 + MOVE_TIME
        events = await second.tick()
        assert [(e.action, e.game.id if e.game else None) for e in events] == [
            (Action.TIMEOUT, other_before.id)
        ]


async def test_restart_before_the_reminder_still_reminds(database: Database, clock: Clock) -> None:
    async with opened(database, clock) as first:
        await start(first)
    clock.now = T0 + MOVE_TIME / 2
    async with opened(database, clock) as second:
        events = await second.tick()
        assert [e.action for e in events] == [Action.REMINDER]
        assert events[0].mentions == (ALICE.id,)


async def test_resume_computer_games_after_a_crash_mid_reply(
    database: Database, clock: Clock
) -> None:
    """The engine dies while replying: the human's move is kept (the failure is logged, not
    shown to the player), and after the restart ``resume_computer_games`` makes the reply,
    shown in the background since no action claimed it."""
    crashing = CrashingComputer()
    async with opened(database, clock, computer=crashing) as first:
        view = (await challenge(first, opponent=BOT)).game
        assert view is not None
        played = await first.move(ALICE.id, "11-15", channel_id=CHANNEL)
        assert [m.computer for m in played.moves] == [False]
        assert played.game is not None and played.game.to_move == first.bot
        assert await first.computer_reply(view.id) is None  # it crashed
        assert crashing.calls == 1
        row = await first.store.game(view.id)
        assert row is not None and row.ply == 1 and row.deadline is None
        with pytest.raises(NotYourTurnError, match=first.bot.name):
            await first.move(ALICE.id, "8-11", channel_id=CHANNEL)
        # A human game needs nothing.
        await start(first, channel_id=OTHER_CHANNEL)

    async with opened(database, clock, computer=RandomComputer(seed=5)) as second:
        shown = Background(second)
        assert await second.resume_computer_games() == 1
        (result,) = await shown.settle()
        assert result.action is Action.MOVED and result.post_board is True
        assert [(m.ply, m.computer) for m in result.moves] == [(2, True)]
        assert result.mentions == (ALICE.id,)
        assert result.game is not None and result.game.id == view.id
        assert result.game.to_move == ALICE and result.game.deadline == clock.now + MOVE_TIME
        assert second.bot.name in str(result.text) and result.moves[0].pdn in str(result.text)
        assert [m.user_id for m in await second.store.moves(view.id)] == [ALICE.id, BOT_ID]
        assert await second.resume_computer_games() == 0
        assert await shown.settle() == []


async def test_resume_computer_games_when_the_first_move_crashed(
    database: Database, clock: Clock
) -> None:
    async with opened(database, clock, computer=CrashingComputer()) as first:
        started = await challenge(first, opponent=BOT, color="white")  # the computer opens
        assert started.moves == () and started.game is not None
        assert await first.computer_reply(started.game.id) is None  # it crashed
        view = await first.game_in(CHANNEL)
        assert view is not None and view.ply == 0 and view.to_move is not None
        assert view.to_move.id == BOT_ID
    async with opened(database, clock) as second:
        shown = Background(second)
        await second.resume_computer_games()
        (result,) = await shown.settle()
        assert result.game is not None and result.game.ply == 1
        assert result.game.to_move == ALICE


async def test_tick_retries_a_failed_computer_reply(database: Database, clock: Clock) -> None:
    async with opened(database, clock, computer=CrashingComputer()) as svc:
        shown = Background(svc)
        await challenge(svc, opponent=BOT)
        await svc.move(ALICE.id, "11-15", channel_id=CHANNEL)
        assert await svc.tick() == []  # still crashing: nothing to post, nothing lost
        assert await shown.settle() == []
        svc.computer = RandomComputer(seed=5)
        assert await svc.tick() == []  # the computer's reply is shown in the background
        (event,) = await shown.settle()
        assert event.action is Action.MOVED
        assert event.game is not None and event.game.to_move == ALICE
        assert [m.computer for m in event.moves] == [True]
        assert await svc.tick() == []
        assert await shown.settle() == []


# -- scheduler ----------------------------------------------------------------------------------


async def test_scheduler_run_once_hands_every_event_to_the_callback(
    service: GameService, clock: Clock
) -> None:
    await challenge(service, channel_id=OTHER_CHANNEL)
    await start(service)
    clock.now = T0 + MOVE_TIME / 2
    seen: list[ActionResult] = []

    async def post(event: ActionResult) -> None:
        seen.append(event)

    scheduler = Scheduler(service, post, interval=60)
    assert await scheduler.run_once() == 2
    assert sorted(e.action.value for e in seen) == ["challenge_expired", "reminder"]
    assert await scheduler.run_once() == 0


async def test_scheduler_survives_a_failing_callback(
    service: GameService, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    await challenge(service, channel_id=OTHER_CHANNEL)
    await start_moved(service)
    await start_moved(service, challenger=CAROL, channel_id=300)
    clock.now = T0 + MOVE_TIME / 2
    seen: list[Action] = []

    async def post(event: ActionResult) -> None:
        seen.append(event.action)
        if len(seen) == 1:
            raise RuntimeError("Discord is down")

    scheduler = Scheduler(service, post, interval=60)
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        assert await scheduler.run_once() == 3
    assert len(seen) == 3
    assert "Discord is down" in caplog.text
    clock.now = T0 + MOVE_TIME
    assert await scheduler.run_once() == 2  # two timeouts: the loop goes on
    assert seen[3:] == [Action.TIMEOUT, Action.TIMEOUT]


async def test_scheduler_loop_runs_until_stopped(service: GameService, clock: Clock) -> None:
    await challenge(service)
    clock.now = T0 + EXPIRY
    got: asyncio.Queue[ActionResult] = asyncio.Queue()

    async def post(event: ActionResult) -> None:
        await got.put(event)

    scheduler = Scheduler(service, post, interval=0.01)
    scheduler.start()
    try:
        event = await asyncio.wait_for(got.get(), timeout=5)
        assert event.action is Action.CHALLENGE_EXPIRED
        await start(service)
        clock.advance(MOVE_TIME / 2)
        event = await asyncio.wait_for(got.get(), timeout=5)
        assert event.action is Action.REMINDER
    finally:
        await scheduler.stop()
    assert got.empty()


async def test_moves_in_two_channels_at_the_same_time_both_land(service: GameService) -> None:
    """Games in different channels are independent: two players moving at the same moment (or
    two challenges posted at once) must both succeed, not fail inside the database layer."""
    first = await start(service)
    second = await start(service, challenger=CAROL, channel_id=OTHER_CHANNEL)
    results = await asyncio.gather(
        service.move(ALICE.id, "11-15", game_id=first.id),
        service.move(CAROL.id, "11-15", game_id=second.id),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["ActionResult", "ActionResult"]
    created = await asyncio.gather(
        *(
            challenge(service, challenger=Player(50 + i, f"P{i}"), channel_id=700 + i)
            for i in range(3)
        ),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in created] == ["ActionResult"] * 3
