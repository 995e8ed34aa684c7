"""The engine as the service's computer, through its real worker processes: legal moves, draw
answers judged from the computer's side whoever is to move, a search that survives its worker
being killed, searches of different games side by side, and a close that does not wait."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.worker_probes import rendezvous

from bot.engine_player import EngineComputer
from bot.workers import PoolClosed, default_workers
from rules import Color, Game, Move, find_variant, parse_fen


@pytest.fixture
async def computer() -> AsyncIterator[EngineComputer]:
    player = EngineComputer(movetime=0.2)
    try:
        yield player
    finally:
        player.close()


async def test_chooses_a_legal_move_of_the_game(computer: EngineComputer) -> None:
    game = Game(find_variant("international"))
    for text in ("32-28", "19-23", "28x19", "14x23"):
        game.play(text)
    for level in (1, 6):
        move = await computer.choose_move(game, level)
        assert move in game.legal_moves()


def game_from(fen: str, offer_by: Color) -> Game:
    variant = find_variant("english")
    game = Game(variant, parse_fen(fen, variant))
    game.offer_draw(offer_by)
    return game


@pytest.mark.parametrize("to_move", ["W", "B"])
async def test_accepts_a_draw_only_when_worse(computer: EngineComputer, to_move: str) -> None:
    # White (the computer here) has one man against Black's four: it takes the offer...
    losing = game_from(f"{to_move}:W29:B1,2,3,4", Color.BLACK)
    assert await computer.answer_draw(losing, 3) is True
    # ...and with four men against one it declines, whoever is to move when asked.
    winning = game_from(f"{to_move}:W29,30,31,32:B1", Color.BLACK)
    assert await computer.answer_draw(winning, 3) is False


# -- the worker processes ---------------------------------------------------------------------


def alive(pid: int) -> bool:
    """Running (a zombie only waits for its parent to read its status: it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return text[text.rindex(")") + 2] not in "ZX"


async def started(computer: EngineComputer, game: Game, level: int) -> asyncio.Future[Move]:
    """A search begun (its worker running it) and not finished."""
    search = asyncio.ensure_future(computer.choose_move(game, level))
    while not computer.pool.pids():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)
    assert not search.done()
    return search


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
async def test_a_search_whose_worker_is_killed_is_made_again() -> None:
    computer = EngineComputer(movetime=1.0, workers=1)
    try:
        game = Game(find_variant("english"))
        await computer.choose_move(game, 1)  # the worker is up and warm
        (worker,) = computer.pool.pids()
        search = await started(computer, game, 6)
        os.kill(worker, signal.SIGKILL)  # as the OOM killer would, mid-search
        assert await search in game.legal_moves()
        (fresh,) = computer.pool.pids()
        assert fresh != worker and not alive(worker)
        # Every later move and draw answer works as before.
        assert await computer.choose_move(game, 3) in game.legal_moves()
        assert await computer.answer_draw(game_from("W:W29:B1,2,3,4", Color.BLACK), 3) is True
    finally:
        await asyncio.to_thread(computer.close)


async def test_searches_of_two_games_run_side_by_side(tmp_path: Path) -> None:
    computer = EngineComputer(movetime=1.0, workers=2)
    try:
        # Both workers up and idle (each waits for the other to have started).
        up = [computer.pool.run(rendezvous, str(tmp_path), 2, 30.0) for _ in range(2)]
        assert [met for _, met in await asyncio.gather(*up)] == [True, True]
        games = [Game(find_variant(name)) for name in ("english", "russian")]
        alone = []
        for game in games:
            began = time.monotonic()
            await computer.choose_move(game, 6)
            alone.append(time.monotonic() - began)
        began = time.monotonic()
        moves = await asyncio.gather(*(computer.choose_move(g, 6) for g in games))
        together = time.monotonic() - began
        assert [m in g.legal_moves() for m, g in zip(moves, games, strict=True)] == [True, True]
        # In turn they would take the sum of their times; side by side about the longer one.
        assert together < 0.8 * sum(alone), (together, alone)
    finally:
        await asyncio.to_thread(computer.close)


def test_the_default_pool_leaves_one_cpu_to_the_event_loop() -> None:
    computer = EngineComputer(movetime=0.1)
    try:
        assert computer.pool.workers == default_workers()
    finally:
        computer.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
async def test_close_does_not_wait_for_a_running_search() -> None:
    computer = EngineComputer(movetime=60.0, workers=1)
    search = await started(computer, Game(find_variant("international")), 6)
    (worker,) = computer.pool.pids()
    began = time.monotonic()
    await asyncio.to_thread(computer.close)
    # A shutdown must not wait out the think time (60 s here): a second or so, generously.
    assert time.monotonic() - began < 5.0
    assert not alive(worker)
    with pytest.raises(PoolClosed):
        await search
    computer.close()  # idempotent
