"""Post-game analysis in the service (``service.analysis``, :mod:`bot.service.analyses`), on
every backend: a finished game analysed by the real engine through the computer's background
lane (a :class:`RandomComputer` runs the jobs in a thread), kept and shown again without
computing, the same game asked twice at once computed once, and every refusal: a running game,
an aborted one, another server's, a user's second analysis while the first runs, the engine's
workers down."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

import pytest
from support.analysis_games import BLUNDER_MOVES, BLUNDER_PLY
from support.service_harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    count_rows,
    play,
    start,
)

from bot.analysis_results import Judgement
from bot.errors import GameOverError, NotFoundError, ServiceError
from bot.service import GameService
from bot.service.analyses import AnalysisBusy, AnalysisFailed
from bot.service.computer import ComputerUnavailable, RandomComputer
from bot.store import StoreUnavailable
from engine.analysis_pdn import ENGLISH
from rules.variants import Color

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

BUDGET = (0.05, 50_000)
"""Per position, smaller than the bot's: two men and a king are seen at any depth."""


class CountingComputer(RandomComputer):
    """The tests' computer, counting the background jobs it ran (and able to hold them at a
    gate, so two requests are sure to overlap)."""

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.jobs = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.asked = asyncio.Event()
        """Set by the first job asked for (an analysis is being computed)."""

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        self.asked.set()
        await self.gate.wait()
        self.jobs += 1
        return await super().background(fn, *args)


class NoWorkers(RandomComputer):
    """A computer whose worker processes cannot start (what the engine's raises then)."""

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        raise ComputerUnavailable("the workers cannot start")


async def finished_blunder_game(service: GameService) -> int:
    """The game of :mod:`support.analysis_games` played through the service (Alice has Black
    and blunders), then resigned by Alice."""
    service.analyses.budget = BUDGET
    game = await play(service, await start(service), BLUNDER_MOVES)
    await service.resign(ALICE.id, game_id=game.id)
    return game.id


async def test_a_finished_game_is_analysed_kept_and_shown_again(service: GameService) -> None:
    computer = CountingComputer()
    service.computer = computer
    game_id = await finished_blunder_game(service)
    view = await service.analysis.game(GUILD, BOB.id, channel_id=CHANNEL)
    assert view.subject == f"game:{game_id}" and view.fresh
    assert (view.white, view.black) == ("Bob", "Alice")
    blunder = view.analysis.plies[BLUNDER_PLY]
    assert blunder.judgement is Judgement.BLUNDER and blunder.mover is Color.BLACK
    assert view.analysis.judged(Color.BLACK)[-1] == blunder
    assert computer.jobs == len(BLUNDER_MOVES) + 2  # each position, then reading them together
    assert await count_rows(service, "analyses") == 1
    # shown again from the store: even with the engine down, nothing is computed
    service.computer = NoWorkers()
    again = await service.analysis.game(GUILD, ALICE.id, game_id)
    assert not again.fresh and again.analysis == view.analysis
    assert again.title == view.title
    text = again.annotated_pdn(ENGLISH, event="Discord draughts")
    assert '[White "Bob"]' in text and '[Event "Discord draughts"]' in text
    assert "11-15 $4" in " ".join(text.split())


async def held(service: GameService) -> tuple[CountingComputer, int]:
    """The finished blunder game, and a counting computer holding its jobs at the gate."""
    computer = CountingComputer()
    service.computer = computer
    game_id = await finished_blunder_game(service)
    computer.gate.clear()
    return computer, game_id


async def test_the_same_game_asked_twice_at_once_is_computed_once(service: GameService) -> None:
    computer, game_id = await held(service)
    first = asyncio.create_task(service.analysis.game(GUILD, BOB.id, game_id))
    second = asyncio.create_task(service.analysis.game(GUILD, ALICE.id, game_id))
    await asyncio.sleep(0.01)
    computer.gate.set()
    one, two = await asyncio.gather(first, second)
    assert one.analysis == two.analysis and one.fresh and two.fresh
    assert computer.jobs == len(BLUNDER_MOVES) + 2
    assert await count_rows(service, "analyses") == 1


async def test_a_caller_who_leaves_does_not_stop_the_analysis(service: GameService) -> None:
    computer, game_id = await held(service)
    leaving = asyncio.create_task(service.analysis.game(GUILD, BOB.id, game_id))
    await computer.asked.wait()
    staying = asyncio.create_task(service.analysis.game(GUILD, CAROL.id, game_id))
    await asyncio.sleep(0.01)
    leaving.cancel()
    computer.gate.set()
    view = await staying
    assert view.fresh and computer.jobs == len(BLUNDER_MOVES) + 2
    assert await count_rows(service, "analyses") == 1


async def test_one_analysis_computed_at_a_time_per_user(service: GameService) -> None:
    computer, first_id = await held(service)
    second = await play(service, await start(service, channel_id=OTHER_CHANNEL), ["11-15", "23-19"])
    await service.resign(BOB.id, game_id=second.id)
    running = asyncio.create_task(service.analysis.game(GUILD, BOB.id, first_id))
    await computer.asked.wait()
    with pytest.raises(AnalysisBusy, match="still being computed"):
        await service.analysis.game(GUILD, BOB.id, second.id)
    computer.gate.set()
    await running
    view = await service.analysis.game(GUILD, BOB.id, second.id)
    assert view.subject == f"game:{second.id}" and len(view.analysis.plies) == 2


async def test_running_aborted_and_other_servers_games_are_refused(service: GameService) -> None:
    service.analyses.budget = BUDGET
    running = await play(service, await start(service), ["11-15", "23-19"])
    with pytest.raises(GameOverError, match="still being played"):
        await service.analysis.game(GUILD, ALICE.id, running.id)
    with pytest.raises(NotFoundError, match="no game"):
        await service.analysis.game(OTHER_GUILD, ALICE.id, running.id)
    with pytest.raises(NotFoundError):
        await service.analysis.game(GUILD, ALICE.id, 12345)
    # the channel's default: its last finished game, never the running one
    with pytest.raises(NotFoundError, match="no game in this channel"):
        await service.analysis.game(GUILD, ALICE.id, channel_id=OTHER_CHANNEL)
    with pytest.raises(GameOverError, match="still being played"):
        await service.analysis.game(GUILD, ALICE.id, channel_id=CHANNEL)
    aborted = await start(service, channel_id=OTHER_CHANNEL)
    await service.abort(ALICE.id, game_id=aborted.id)
    with pytest.raises(GameOverError, match="aborted"):
        await service.analysis.game(GUILD, ALICE.id, channel_id=OTHER_CHANNEL)
    assert await count_rows(service, "analyses") == 0


async def test_workers_that_cannot_start_are_answered_clearly(service: GameService) -> None:
    game_id = await finished_blunder_game(service)
    service.computer = NoWorkers()
    with pytest.raises(AnalysisFailed, match="cannot analyse games right now") as failed:
        await service.analysis.game(GUILD, BOB.id, game_id)
    assert isinstance(failed.value, ServiceError)
    assert await count_rows(service, "analyses") == 0
    # once the engine is back, it is computed (nothing half-kept blocks it)
    service.computer = CountingComputer()
    view = await service.analysis.game(GUILD, BOB.id, game_id)
    assert view.fresh and view.analysis.plies[BLUNDER_PLY].judgement is Judgement.BLUNDER


@pytest.mark.sqlite_only(
    reason="the connection is dropped as a shutdown out of time drops it; a PostgreSQL pool "
    "dropped so says it is closed (the store's own tests fail its server for real)"
)
async def test_a_database_that_stops_answering(service: GameService) -> None:
    """Computed while the database answered, not kept once it stopped: the analysis is still
    shown; the next request, which must read, is refused as the database being unavailable
    (the Discord layer's "try again in a moment")."""
    computer, game_id = await held(service)
    running = asyncio.create_task(service.analysis.game(GUILD, BOB.id, game_id))
    await computer.asked.wait()
    service.store.abandon()
    computer.gate.set()
    view = await running
    assert view.fresh and view.analysis.plies[BLUNDER_PLY].judgement is Judgement.BLUNDER
    with pytest.raises(StoreUnavailable):
        await service.analysis.game(GUILD, ALICE.id, game_id)
