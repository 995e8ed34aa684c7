"""Service features the Discord layer relies on: refusals that change nothing, checking before
deferring (``check_challenge``), rematches, the move list of ``/moves``, the previous position
for drawing the last move, and the challenge's message id (schema v3)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    BOT_ID,
    CAPTURE_LINE,
    CAROL,
    CHANNEL,
    GUILD,
    MOVE_TIME,
    OTHER_CHANNEL,
    THREAD,
    Clock,
    challenge,
    opened,
    play,
    start,
    terms,
    unchanged,
)

from bot.errors import (
    ChallengeError,
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    ServiceError,
    ThreadRequired,
)
from bot.results import Action
from bot.service import GameService
from bot.store.sqlite import SqliteStore as Store
from bot.store.sqlite_schema import SCHEMA_V1, SCHEMA_V2
from rules.fen import parse_fen
from rules.game import Game
from rules.notation import parse_move
from rules.variants import find_variant

# -- a refused move changes nothing --------------------------------------------------------


@pytest.mark.parametrize(
    ("user", "text", "error"),
    [
        (BOB.id, "22-18", NotYourTurnError),
        (CAROL.id, "11-15", NotAPlayerError),
        (ALICE.id, "11-14", IllegalMoveError),
        (ALICE.id, "99-98", IllegalMoveError),
        (ALICE.id, "hello", IllegalMoveError),
        (ALICE.id, "1" * 5000, IllegalMoveError),
    ],
)
async def test_a_refused_move_changes_nothing_and_says_the_same_twice(
    service: GameService, user: int, text: str, error: type[ServiceError]
) -> None:
    game = await start(service)
    async with unchanged(service, game.id):
        with pytest.raises(error) as first:
            await service.move(user, text, channel_id=CHANNEL)
        with pytest.raises(error) as again:
            await service.move(user, text, channel_id=CHANNEL)
    assert str(first.value) == str(again.value)


async def test_a_move_in_a_finished_or_missing_game(service: GameService) -> None:
    with pytest.raises(NotFoundError):
        await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
    game = await start(service)
    await service.resign(BOB.id, game_id=game.id)
    with pytest.raises(NotFoundError):
        await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
    with pytest.raises(GameOverError):
        await service.move(ALICE.id, "11-15", game_id=game.id)


# -- check_challenge ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"variant": "chess"}, ChallengeError),
        ({"color": "green"}, ChallengeError),
        ({"move_time": 0}, ChallengeError),
        ({"opponent": ALICE}, ChallengeError),
        ({"level": 9, "opponent": BOT}, ChallengeError),
        ({"opponent": BOT, "thread": True}, ThreadRequired),
    ],
)
async def test_check_challenge_refuses_without_writing(
    service: GameService, overrides: dict[str, object], error: type[ServiceError]
) -> None:
    with pytest.raises(error):
        await service.check_challenge(**terms(**overrides))
    assert await service.store.open_challenge_of(ALICE.id, CHANNEL) is None
    assert await service.store.running_game_in(CHANNEL) is None


async def test_check_challenge_sees_an_open_challenge_and_a_busy_channel(
    service: GameService,
) -> None:
    assert await service.check_challenge(**terms()) is False
    assert await service.check_challenge(**terms(thread=True)) is True
    await challenge(service)
    with pytest.raises(ChallengeError, match="already have an open challenge"):
        await service.check_challenge(**terms())
    other = terms(channel_id=OTHER_CHANNEL)
    assert await service.check_challenge(**other) is False
    await start(service, channel_id=OTHER_CHANNEL, challenger=CAROL)
    # Busy now: a game between people will need a thread when it is accepted...
    assert await service.check_challenge(**other) is True
    # ...and a game against the computer needs one before it can start.
    with pytest.raises(ThreadRequired):
        await service.check_challenge(**terms(channel_id=OTHER_CHANNEL, opponent=BOT))
    assert (
        await service.check_challenge(
            **terms(channel_id=OTHER_CHANNEL, opponent=BOT, thread_id=THREAD)
        )
        is False
    )


# -- rematch ------------------------------------------------------------------------------------


async def test_rematch_swaps_colours_and_the_second_press_accepts(service: GameService) -> None:
    game = await start(service)  # Alice Black, Bob White
    await service.resign(ALICE.id, game_id=game.id)
    asked = await service.rematch(game.id, ALICE.id)
    assert asked.action is Action.CHALLENGE_CREATED and asked.challenge is not None
    ch = asked.challenge
    assert (ch.challenger, ch.opponent, ch.color) == (ALICE, BOB, "white")
    assert (ch.variant, ch.move_time, ch.channel_id, ch.guild_id) == (
        "english",
        MOVE_TIME,
        CHANNEL,
        GUILD,
    )
    answered = await service.rematch(game.id, BOB.id)
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    assert (answered.game.white, answered.game.black) == (ALICE, BOB)
    closed = await service.challenge_view(ch.id)
    assert closed.status == "accepted" and closed.game_id == answered.game.id


async def test_rematch_refusals(service: GameService) -> None:
    game = await start(service)
    with pytest.raises(ChallengeError, match="still running"):
        await service.rematch(game.id, ALICE.id)
    await service.resign(BOB.id, game_id=game.id)
    with pytest.raises(NotAPlayerError):
        await service.rematch(game.id, CAROL.id)
    with pytest.raises(NotFoundError):
        await service.rematch(game.id + 100, ALICE.id)
    await service.rematch(game.id, ALICE.id)
    with pytest.raises(ChallengeError, match="already have an open challenge"):
        await service.rematch(game.id, ALICE.id)


async def test_rematch_against_the_computer_starts_at_once(service: GameService) -> None:
    first = await challenge(service, opponent=BOT, color="black", level=5)
    assert first.game is not None
    await service.resign(ALICE.id, game_id=first.game.id)
    again = await service.rematch(first.game.id, ALICE.id)
    assert again.action is Action.GAME_STARTED and again.game is not None
    assert again.game.white == ALICE and again.game.black.id == BOT_ID
    assert again.game.computer_level == 5
    assert again.game.id != first.game.id and again.game.channel_id == CHANNEL


async def test_rematch_against_the_computer_in_a_busy_channel_needs_a_thread(
    service: GameService,
) -> None:
    first = await challenge(service, opponent=BOT, color="black")
    assert first.game is not None
    await service.resign(ALICE.id, game_id=first.game.id)
    await start(service, challenger=CAROL)  # the channel is busy again
    with pytest.raises(ThreadRequired):
        await service.rematch(first.game.id, ALICE.id)
    again = await service.rematch(first.game.id, ALICE.id, thread_id=THREAD)
    assert again.game is not None and again.game.channel_id == THREAD


# -- move list and the previous position --------------------------------------------------------


async def test_move_list_is_every_legal_move_captures_first(service: GameService) -> None:
    game = await start(service)
    view, moves = await service.move_list(CHANNEL)
    assert view.id == game.id
    assert sorted(moves) == sorted(m.pdn() for m in Game(find_variant("english")).legal_moves())
    await play(service, game, CAPTURE_LINE)
    _, moves = await service.move_list(CHANNEL)
    assert moves and all("x" in m for m in moves)
    with pytest.raises(NotFoundError):
        await service.move_list(OTHER_CHANNEL)


async def test_view_carries_the_position_before_the_last_move(service: GameService) -> None:
    game = await start(service)
    assert game.previous_fen is None and game.last_move is None
    view = await play(service, game, CAPTURE_LINE[:7])  # the 7th ply is the capture 13x22
    assert view.previous_fen is not None and view.last_move == "13x22"
    variant = find_variant("english")
    before = parse_fen(view.previous_fen, variant)
    move = parse_move(before, view.last_move)
    assert before.play(move).fen() == view.fen


# -- the challenge's message id -----------------------------------------------------------------


async def test_challenge_message_id_is_kept_and_shown_on_expiry(
    service: GameService, clock: Clock
) -> None:
    created = await challenge(service)
    assert created.challenge is not None and created.challenge.message_id is None
    await service.set_challenge_message(created.challenge.id, 555)
    assert (await service.challenge_view(created.challenge.id)).message_id == 555
    clock.advance(10_000)
    events = await service.tick()
    expired = [e for e in events if e.action is Action.CHALLENGE_EXPIRED]
    assert len(expired) == 1 and expired[0].challenge is not None
    assert expired[0].challenge.message_id == 555 and expired[0].challenge.status == "expired"


async def test_version_2_database_gains_the_message_column_keeping_challenges(
    tmp_path: Path, clock: Clock
) -> None:
    """SQLite only (a file made here, not the parametrised ``database``): a migration from an old
    SQLite schema; a PostgreSQL database never had version 2."""
    path = tmp_path / "v2.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_V1)
        db.executescript(SCHEMA_V2)
        db.execute("PRAGMA user_version = 2")
        db.execute(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, challenger_name, "
            "opponent_id, opponent_name, variant, color, move_time, created_at, expires_at, "
            "updated_at) VALUES (4, 10, 100, 1, 'Alice', 2, 'Bob', 'english', 'black', 3600, "
            "?, ?, ?)",
            (clock.now, clock.now + 600, clock.now),
        )
    store = await Store.open(path)
    try:
        row = await store.challenge(4)
        assert row is not None and row.message_id is None and row.status == "open"
    finally:
        await store.close()
    async with opened(path, clock) as svc:
        started = await svc.accept(4, BOB.id)
        assert started.game is not None and started.game.black == ALICE
