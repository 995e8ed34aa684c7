"""Games from a position of their own (issue 30): ``/challenge position:<FEN>``, between people
and against the computer, on each database.

A position is checked for the challenge's variant before anything is written (a FEN of its
board, pieces of both sides, a move for the side to move); the game starts there, is never
rated, says so on its boards and in its PDN (``SetUp``/``FEN``), and a rematch starts there
again.  The variant's own start given as a FEN is simply a normal game.
"""

from __future__ import annotations

from typing import Any

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    CHANNEL,
    GUILD,
    THREAD,
    challenge,
    challenge_unchanged,
    count_rows,
    replied,
    start,
    terms,
)

from bot.errors import ChallengeError
from bot.results import Action
from bot.service import GameService
from rules import Game, find_variant, parse_fen
from rules.pdn import read_game

FEN = "W:W21,22,25:B9,10,K30"
"""English, White to move (Black moves first from the variant's start): three men against two
men and a king."""
BLACK_TO_MOVE = "B:W21,22,25:B9,10,K30"


async def test_a_challenge_from_a_position_starts_there_unrated(service: GameService) -> None:
    created = await challenge(service, start_fen=" w:w25,21,22:b10,9,k30. ")
    assert created.challenge is not None
    # Kept as the rules write it, whatever the spelling it was given in.
    assert created.challenge.start_fen == FEN
    stored = await service.store.challenge(created.challenge.id)
    assert stored is not None and stored.start_fen == FEN

    started = await service.accept(created.challenge.id, BOB.id)
    game = started.game
    assert started.action is Action.GAME_STARTED and game is not None
    assert str(started.text) == "New game, from a position of its own (unrated)."
    assert (game.fen, game.start_fen, game.ply, game.rated) == (FEN, FEN, 0, False)
    assert game.to_move == BOB  # Bob plays White, who is to move in the position
    row = await service.store.game(game.id)
    assert row is not None and (row.start_fen, row.rated) == (FEN, False)
    assert row.white_rating_shown is None and row.black_rating_shown is None

    after = (await service.move(BOB.id, "22-18", game_id=game.id)).game
    assert after is not None
    after = (await service.move(ALICE.id, "30-26", game_id=game.id)).game
    assert after is not None and after.ply == 2
    # The record starts from the position: the PDN says where, and reads back to the game.
    _, text = await service.pdn(game_id=game.id)
    assert '[SetUp "1"]' in text and f'[FEN "{FEN}"]' in text
    back = read_game(text).game
    assert back.start.fen() == FEN and [m.pdn() for m in back.moves] == ["22-18", "30-26"]
    # The whole move list numbers from the position: Black moves first in English, so White's
    # move opens as the second half of move 1.
    assert (await service.game_moves(game.id))[1] == "1... 22-18\n2. 30-26"


async def test_a_game_from_a_position_ends_unrated(service: GameService) -> None:
    game = await start(service, start_fen=FEN)
    await service.move(BOB.id, "22-18", game_id=game.id)
    await service.move(ALICE.id, "30-26", game_id=game.id)
    ended = await service.resign(BOB.id, game_id=game.id)
    assert ended.game is not None and ended.game.result == "0-1" and not ended.game.rated
    assert await count_rows(service, "ratings") == 0


async def test_the_computer_plays_from_a_position(service: GameService) -> None:
    # Alice plays White, who is to move; the computer answers from the position.
    started = await service.challenge(
        **terms(guild_id=GUILD, opponent=BOT, color="white", start_fen=FEN, thread_id=THREAD)
    )
    game = started.game
    assert started.action is Action.GAME_STARTED and game is not None
    assert (game.fen, game.start_fen, game.rated, game.to_move) == (FEN, FEN, False, ALICE)
    await service.move(ALICE.id, "21-17", game_id=game.id)
    reply = await replied(service, game.id)
    assert reply.game is not None and reply.game.ply == 2 and reply.game.to_move == ALICE
    # ... and where the computer is to move first, it starts at once.
    await service.resign(ALICE.id, game_id=game.id)
    black_first = await service.challenge(
        **terms(guild_id=GUILD, opponent=BOT, color="white", start_fen=BLACK_TO_MOVE)
    )
    assert black_first.game is not None and black_first.game.start_fen == BLACK_TO_MOVE
    first = await replied(service, black_first.game.id)
    assert first.game is not None and first.game.ply == 1 and first.game.to_move == ALICE


async def test_a_rematch_starts_from_the_same_position(service: GameService) -> None:
    game = await start(service, start_fen=FEN)
    await service.resign(ALICE.id, game_id=game.id)
    asked = await service.rematch(game.id, BOB.id)
    assert asked.challenge is not None and asked.challenge.start_fen == FEN
    answered = await service.rematch(game.id, ALICE.id)  # the second press accepts the first
    assert answered.action is Action.GAME_STARTED and answered.game is not None
    again = answered.game
    assert (again.white, again.black) == (ALICE, BOB)  # colours swapped
    assert (again.fen, again.start_fen, again.rated) == (FEN, FEN, False)


async def test_the_variants_own_start_is_a_normal_rated_game(service: GameService) -> None:
    standard = Game(find_variant("english")).start.fen()
    game = await start(service, start_fen=standard)
    assert game.start_fen is None and game.rated


REFUSED = [
    pytest.param("W:W21,22:B9,33", "square 33 is not on the board (1-32)", id="off the board"),
    pytest.param("21,22:9,10", "a FEN starts with the side to move, W or B", id="no side"),
    pytest.param("W:W21,21:B9", "square 21 is given twice", id="a square twice"),
    pytest.param(
        "W:W1,22:B9", "a white man cannot stand on square 1: it would be a king", id="crowned"
    ),
    pytest.param(
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3",
        "square 33 is not on the board",
        id="an International position",
    ),
    pytest.param("W:W21,22", "that position needs pieces of both sides", id="one side"),
    pytest.param("W:W29:B25,22,18", "the side to move has no move", id="no move"),
]


@pytest.mark.parametrize(("fen", "reason"), REFUSED)
@pytest.mark.parametrize("opponent", ["a person", "the computer"])
async def test_a_position_that_is_no_game_is_refused_and_nothing_written(
    service: GameService, fen: str, reason: str, opponent: str
) -> None:
    against: dict[str, Any] = {}
    if opponent == "the computer":
        against = {"opponent": BOT, "thread_id": THREAD}
    for attempt in (service.check_challenge, service.challenge):
        with pytest.raises(ChallengeError) as refused:
            await attempt(**terms(guild_id=GUILD, start_fen=fen, **against))
        assert reason in str(refused.value)
    assert await count_rows(service, "challenges") == 0
    assert await count_rows(service, "games") == 0


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({"opening": ("22-18",)}, id="opening moves"),
        pytest.param({"ballot": True}, id="a ballot"),
        pytest.param({"match": True}, id="a match"),
    ],
)
async def test_a_position_is_a_single_game_of_its_own(
    service: GameService, extra: dict[str, Any]
) -> None:
    with pytest.raises(ChallengeError) as refused:
        await challenge(service, start_fen=FEN, **extra)
    assert "a game from a position is a single game" in str(refused.value)
    assert await count_rows(service, "challenges") == 0


async def test_a_refused_accept_leaves_the_position_challenge_open(service: GameService) -> None:
    created = await challenge(service, start_fen=FEN, opponent=None)
    assert created.challenge is not None
    async with challenge_unchanged(service, created.challenge.id):
        with pytest.raises(Exception, match="own challenge"):
            await service.accept(created.challenge.id, ALICE.id)
    started = await service.accept(created.challenge.id, BOB.id, name="Bob")
    assert started.game is not None and started.game.start_fen == FEN
    assert started.game.channel_id == CHANNEL
    assert parse_fen(started.game.fen, find_variant("english")).fen() == FEN
