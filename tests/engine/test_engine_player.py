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
from support.worker_probes import die, fail, held, pid, rendezvous

from bot.engine_player import EngineComputer
from bot.service.computer import ComputerPlayer, RandomComputer
from bot.workers import PoolClosed, WorkerCrashed, default_workers
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


def beyond_the_book(name: str) -> Game:
    """The start of ``name`` with one of White's back men a king: the opening book (which
    answers the top levels at once in the opening, and stops at the first king) has no say, so
    a level-6 search thinks its whole time."""
    variant = find_variant(name)
    turn, white, black = Game(variant).position.fen().split(":")
    men = white[1:].split(",")
    crowned = "W" + ",".join([*men[:-1], "K" + men[-1]])
    return Game(variant, parse_fen(":".join((turn, crowned, black)), variant))


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
        game = beyond_the_book("english")
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
        games = [beyond_the_book(name) for name in ("english", "russian")]
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
    search = await started(computer, beyond_the_book("international"), 6)
    (worker,) = computer.pool.pids()
    began = time.monotonic()
    await asyncio.to_thread(computer.close)
    # A shutdown must not wait out the think time (60 s here): a second or so, generously.
    assert time.monotonic() - began < 5.0
    assert not alive(worker)
    with pytest.raises(PoolClosed):
        await search
    computer.close()  # idempotent


# -- the background lane ----------------------------------------------------------------------

HANG = 30.0
"""Seconds after which a job is taken to be waiting for a held one (a deadlock guard, not a
timing: held jobs are let go only by the test, or after twice this)."""


async def appears(path: Path) -> None:
    """Wait until ``path`` exists (a held job has started)."""

    async def poll() -> None:
        while not path.exists():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), HANG)


def held_jobs(
    computer: ComputerPlayer, folder: Path, names: str
) -> list[asyncio.Future[tuple[str, int, int]]]:
    """Background jobs named by the letters of ``names``, asked for in that order."""
    return [
        asyncio.ensure_future(computer.background(held, str(folder), name, 2 * HANG))
        for name in names
    ]


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_reply_waits_for_at_most_one_background_job(tmp_path: Path, workers: int) -> None:
    computer = EngineComputer(movetime=0.1, workers=workers)
    try:
        jobs = held_jobs(computer, tmp_path, "abc")
        await appears(tmp_path / "started-a")
        game = Game(find_variant("english"))
        reply = asyncio.ensure_future(computer.choose_move(game, 3))
        hint = asyncio.ensure_future(computer.hint(game))
        if workers == 1:
            (tmp_path / "go-a").touch()  # the one job they may wait for; b and c stay held
        assert await asyncio.wait_for(reply, HANG) in game.legal_moves()
        assert await asyncio.wait_for(hint, HANG) in game.legal_moves()
        # The other jobs wait their turn: a second worker free is no reason to start one.
        assert not (tmp_path / "started-c").exists()
        if workers == 2:
            assert not (tmp_path / "started-b").exists()
        for name in "abc":
            (tmp_path / f"go-{name}").touch()
        # One at a time (nothing else running as each began), first come first served.
        assert await asyncio.gather(*jobs) == [("a", 0, 0), ("b", 1, 0), ("c", 2, 0)]
    finally:
        await asyncio.to_thread(computer.close)


@pytest.fixture(params=["engine", "random"])
async def either(request: pytest.FixtureRequest) -> AsyncIterator[ComputerPlayer]:
    """The bot's computer (worker processes) and the tests' (a thread): the same lane."""
    if request.param == "random":
        yield RandomComputer(seed=1)
        return
    computer = EngineComputer(movetime=0.1, workers=2)
    try:
        yield computer
    finally:
        await asyncio.to_thread(computer.close)


async def test_a_job_whose_caller_left_still_holds_the_lane(
    either: ComputerPlayer, tmp_path: Path
) -> None:
    (first,) = held_jobs(either, tmp_path, "a")
    await appears(tmp_path / "started-a")
    first.cancel()  # its caller gives up; the job itself cannot be stopped and runs on
    (second,) = held_jobs(either, tmp_path, "b")
    game = Game(find_variant("english"))
    assert await asyncio.wait_for(either.choose_move(game, 1), HANG) in game.legal_moves()
    (tmp_path / "go-b").touch()
    assert not second.done() and not (tmp_path / "started-b").exists()
    (tmp_path / "go-a").touch()
    assert await asyncio.wait_for(second, HANG) == ("b", 1, 0)  # after a had ended
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_a_failing_background_job_raises_and_the_lane_goes_on(
    either: ComputerPlayer,
) -> None:
    with pytest.raises(ValueError, match="the job's own error"):
        await either.background(fail, "the job's own error")
    assert await either.background(pid) > 0


async def test_a_background_job_that_kills_its_worker_every_time() -> None:
    computer = EngineComputer(movetime=0.1, workers=1)
    try:
        with pytest.raises(WorkerCrashed):
            await computer.background(die)
        # The lane is free again, on a fresh worker, and replies are made as before.
        assert await computer.background(pid) in computer.pool.pids()
        game = Game(find_variant("english"))
        assert await computer.choose_move(game, 1) in game.legal_moves()
    finally:
        await asyncio.to_thread(computer.close)


async def test_a_hint_is_the_engines_best_move() -> None:
    # White to move (English): 26x17 takes one man (two against two), 27x18x11 takes two but
    # lets 22x31 take the man on 26 back (one against one); only 26x19x10 keeps two against one.
    computer = EngineComputer(movetime=0.2, workers=1)
    try:
        variant = find_variant("english")
        game = Game(variant, parse_fen("W:W26,27:B22,23,15", variant))
        assert (await computer.hint(game)).pdn() == "26x19x10"
    finally:
        await asyncio.to_thread(computer.close)
