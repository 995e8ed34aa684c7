"""Hints (issue 30) through the game service, on each database: the computer's move for the
player to move in a game against it, counted in the game's row and said in its PDN; refused,
with nothing written, in games between people, out of turn, to others and after the end; thought
off the game's lock (a move meanwhile makes the hint moot, and it is not counted)."""

from __future__ import annotations

import asyncio

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    GUILD,
    THREAD,
    Clock,
    Database,
    opened,
    replied,
    start,
    terms,
    unchanged,
)

from bot.errors import ConflictError, GameOverError, NotAPlayerError, NotYourTurnError
from bot.results import GameView
from bot.service import GameService
from bot.service.computer import ComputerUnavailable, RandomComputer
from rules import Game, Move, find_variant, parse_fen
from rules.pdn import read_game

FEN = "W:W21,22,25:B9,10,K30"
"""English, White (Alice) to move."""


async def against_computer(service: GameService, fen: str = FEN) -> GameView:
    """Alice (White) against the computer from ``fen``, in a thread of its own."""
    started = await service.challenge(
        **terms(guild_id=GUILD, opponent=BOT, color="white", start_fen=fen, thread_id=THREAD)
    )
    assert started.game is not None
    return started.game


async def test_a_hint_is_a_legal_move_counted_in_the_record(service: GameService) -> None:
    game = await against_computer(service)
    legal = {
        m.pdn(): m
        for m in Game(
            find_variant("english"), parse_fen(FEN, find_variant("english"))
        ).legal_moves()
    }
    view, hint = await service.hints.hint(ALICE.id, game.id)
    assert hint.move in legal and hint.path == tuple(legal[hint.move].path)
    assert (hint.shown, hint.hints, view.hints, view.fen) == (hint.move, 1, 1, FEN)
    row = await service.store.game(game.id)
    assert row is not None and (row.hints, row.ply) == (1, 0)
    # Unlimited, and each one counted.
    assert (await service.hints.hint(ALICE.id, game.id))[1].hints == 2
    played = (await service.move(ALICE.id, hint.move, game_id=game.id)).game
    assert played is not None and played.hints == 2
    await replied(service, game.id)
    ended = await service.resign(ALICE.id, game_id=game.id)
    assert ended.game is not None and ended.game.hints == 2
    _, text = await service.pdn(game_id=game.id)
    assert read_game(text).tags["Hints"] == "2"


async def test_a_game_without_hints_has_no_hints_tag(service: GameService) -> None:
    game = await against_computer(service)
    await service.move(ALICE.id, "21-17", game_id=game.id)
    _, text = await service.pdn(game_id=game.id)
    assert "Hints" not in read_game(text).tags


async def test_hints_are_refused_where_they_do_not_belong(service: GameService) -> None:
    people = await start(service)  # Alice (Black, to move) against Bob: rated
    async with unchanged(service, people.id):
        with pytest.raises(NotAPlayerError, match="games against the computer only"):
            await service.hints.hint(ALICE.id, people.id)
    await service.resign(ALICE.id, game_id=people.id)

    game = await against_computer(service)
    async with unchanged(service, game.id):
        with pytest.raises(NotAPlayerError, match="not playing in this game"):
            await service.hints.hint(BOB.id, game.id)
    await service.resign(ALICE.id, game_id=game.id)
    with pytest.raises(GameOverError):
        await service.hints.hint(ALICE.id, game.id)


async def test_no_hint_while_the_computer_is_to_move(database: Database, clock: Clock) -> None:
    computer = HeldHints()
    computer.replying.clear()
    computer.go.set()  # hints are not held here
    async with opened(database, clock, computer=computer) as service:
        # The computer is to move first here, and still thinking: not Alice's turn.
        game = await against_computer(service, "B:W21,22,25:B9,10,K30")
        async with unchanged(service, game.id):
            with pytest.raises(NotYourTurnError, match="turn"):
                await service.hints.hint(ALICE.id, game.id)
        computer.replying.set()
        await replied(service, game.id)
        assert (await service.hints.hint(ALICE.id, game.id))[1].hints == 1


class HeldHints(RandomComputer):
    """A real computer player whose hints wait until the test lets them go (or fail while the
    computer is away), and whose moves wait while ``replying`` is clear."""

    def __init__(self) -> None:
        super().__init__(seed=3)
        self.thinking = asyncio.Event()
        self.go = asyncio.Event()
        self.away = False
        self.replying = asyncio.Event()
        self.replying.set()

    async def choose_move(self, game: Game, level: int) -> Move:
        await self.replying.wait()
        return await super().choose_move(game, level)

    async def hint(self, game: Game) -> Move:
        if self.away:
            raise ComputerUnavailable("the engine workers cannot start")
        self.thinking.set()
        await self.go.wait()
        return await super().hint(game)


async def test_the_hint_is_thought_off_the_lock_and_a_move_meanwhile_voids_it(
    database: Database, clock: Clock
) -> None:
    computer = HeldHints()
    async with opened(database, clock, computer=computer) as service:
        game = await against_computer(service)
        asked = asyncio.ensure_future(service.hints.hint(ALICE.id, game.id))
        await asyncio.wait_for(computer.thinking.wait(), 10)
        # The game is not held while the computer thinks: Alice plays on.
        moved = await asyncio.wait_for(service.move(ALICE.id, "21-17", game_id=game.id), 10)
        assert moved.game is not None
        await replied(service, game.id)
        computer.go.set()
        with pytest.raises(ConflictError, match="ask for a hint again"):
            await asked
        row = await service.store.game(game.id)
        assert row is not None and row.hints == 0
        # While the computer cannot think, the hint is refused and nothing is written.
        computer.away = True
        async with unchanged(service, game.id):
            with pytest.raises(ConflictError, match="cannot think right now"):
                await service.hints.hint(ALICE.id, game.id)
