"""The computer's live replies under load (issue 31): served in the order they were asked, one per
worker at a time, each with a think time that shrinks while many games wait and is whole again
when they are few.

- :func:`think_time` on its own cases.
- :class:`ReplyQueue` with jobs the test releases: the order, the slots, the think times given,
  and callers that leave (a waiting one frees its place; a running one keeps its slot until its
  job ends, as a worker cannot be interrupted).
- :class:`~bot.engine_player.EngineComputer` through its real worker processes at small think
  times: many games asking at once are started in the order they asked, with shorter searches,
  and a game asking alone afterwards thinks for the whole time again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.engine_player import EngineComputer, choose
from bot.service.computer import LEAST_THINK_SHARE, ReplyQueue, think_time
from rules import Game, find_variant

FULL = 100.0
"""A think time far longer than any test's waits, so a waited fraction of a second is nothing."""


def test_the_workers_suffice_full_time() -> None:
    assert think_time(2.0, workers=2, asking=1) == 2.0
    assert think_time(2.0, workers=2, asking=2) == 2.0


def test_many_asking_share_the_workers() -> None:
    assert think_time(2.0, workers=2, asking=4) == pytest.approx(1.0)
    assert think_time(2.0, workers=2, asking=10) == pytest.approx(0.4)


def test_never_below_the_least_share() -> None:
    assert think_time(2.0, workers=2, asking=200) == pytest.approx(LEAST_THINK_SHARE * 2.0)
    assert think_time(2.0, workers=2, asking=2, waited=5.0) == pytest.approx(
        LEAST_THINK_SHARE * 2.0
    )


def test_a_search_that_waited_gets_what_is_left() -> None:
    assert think_time(2.0, workers=2, asking=2, waited=1.5) == pytest.approx(0.5)
    # The share is the tighter bound here.
    assert think_time(2.0, workers=2, asking=10, waited=0.5) == pytest.approx(0.4)


class Jobs:
    """Jobs that start when the queue lets them and end when the test says."""

    def __init__(self) -> None:
        self.started: list[tuple[int, float]] = []
        self.ends: dict[int, asyncio.Event] = {}

    def job(self, number: int) -> Callable[[float], Awaitable[int]]:
        self.ends[number] = asyncio.Event()

        async def run(seconds: float) -> int:
            self.started.append((number, seconds))
            await self.ends[number].wait()
            return number

        return run


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_jobs_start_in_turn_with_shares_that_come_back_to_full() -> None:
    queue = ReplyQueue(2)
    jobs = Jobs()
    tasks = [asyncio.create_task(queue.search(FULL, jobs.job(n))) for n in range(6)]
    await settle()
    assert [n for n, _ in jobs.started] == [0, 1]  # one per slot
    assert queue.asking == 6
    for n in range(6):  # end them one by one, in order
        jobs.ends[n].set()
        await settle()
    assert await asyncio.gather(*tasks) == list(range(6))
    assert [n for n, _ in jobs.started] == list(range(6))  # in the order asked
    given = [seconds for _, seconds in jobs.started]
    # 0 and 1 started alone and in pairs: whole; 2 with five asking, 3 with four, 4 with three,
    # 5 with two again (whole).
    expected = [FULL, FULL, FULL * 2 / 5, FULL * 2 / 4, FULL * 2 / 3, FULL]
    assert given == pytest.approx(expected, rel=1e-3)
    assert queue.asking == 0


async def test_no_game_overtakes_one_that_asked_first() -> None:
    queue = ReplyQueue(1)
    jobs = Jobs()
    first = asyncio.create_task(queue.search(FULL, jobs.job(0)))
    waiting = [asyncio.create_task(queue.search(FULL, jobs.job(n))) for n in (1, 2)]
    await settle()
    jobs.ends[0].set()
    await first
    # A newcomer asking while 1 and 2 wait is served after them, however often it asks.
    late = asyncio.create_task(queue.search(FULL, jobs.job(3)))
    for n in (1, 2, 3):
        await settle()
        jobs.ends[n].set()
    await asyncio.gather(*waiting, late)
    assert [n for n, _ in jobs.started] == [0, 1, 2, 3]


async def test_a_caller_that_leaves_the_queue_frees_its_place() -> None:
    queue = ReplyQueue(1)
    jobs = Jobs()
    first = asyncio.create_task(queue.search(FULL, jobs.job(0)))
    leaving = asyncio.create_task(queue.search(FULL, jobs.job(1)))
    staying = asyncio.create_task(queue.search(FULL, jobs.job(2)))
    await settle()
    leaving.cancel()
    await settle()
    assert queue.asking == 2
    jobs.ends[0].set()
    await first
    await settle()
    assert [n for n, _ in jobs.started] == [0, 2]
    jobs.ends[2].set()
    assert await staying == 2
    assert leaving.cancelled()


async def test_a_running_job_keeps_its_slot_after_its_caller_left() -> None:
    queue = ReplyQueue(1)
    jobs = Jobs()
    running = asyncio.create_task(queue.search(FULL, jobs.job(0)))
    after = asyncio.create_task(queue.search(FULL, jobs.job(1)))
    await settle()
    running.cancel()
    await settle()
    assert [n for n, _ in jobs.started] == [0]  # 0's job still runs in its worker
    jobs.ends[0].set()
    await settle()
    assert [n for n, _ in jobs.started] == [0, 1]
    jobs.ends[1].set()
    assert await after == 1


def games(count: int) -> list[Game]:
    """``count`` different English positions (a different first move each)."""
    found = []
    for move in Game(find_variant("english")).legal_moves()[:count]:
        game = Game(find_variant("english"))
        game.play(move)
        found.append(game)
    return found


async def test_the_engine_serves_many_games_in_turn_with_shorter_searches() -> None:
    movetime = 0.05
    computer = EngineComputer(movetime=movetime, workers=2)
    asked: list[dict[str, Any]] = []
    run = computer._run

    async def recorded(fn: Any, *args: Any) -> Any:
        if fn is choose:
            asked.append(args[0])
        return await run(fn, *args)

    computer._run = recorded  # type: ignore[method-assign]
    try:
        await computer.choose_move(Game(find_variant("english")), 6)  # the workers start
        crowd = games(6)
        replies = await asyncio.gather(*(computer.choose_move(g, 6) for g in crowd))
        alone = await computer.choose_move(crowd[0], 6)
    finally:
        computer.close()
    assert all(move in game.legal_moves() for move, game in zip(replies, crowd, strict=True))
    assert alone in crowd[0].legal_moves()
    assert asked[1:7] == [g.to_dict() for g in crowd]  # started in the order they asked
    given = list(computer.think_times)
    assert given[0] == movetime and given[-1] == movetime  # alone: the whole time
    crowded = given[1:7]
    assert crowded[:2] == [movetime, movetime]  # the first two had a worker each
    assert all(seconds < movetime for seconds in crowded[2:])  # the rest waited: shorter


async def test_a_background_job_takes_its_turn_among_the_replies() -> None:
    queue = ReplyQueue(1)
    jobs = Jobs()
    first = asyncio.create_task(queue.search(FULL, jobs.job(0)))
    before = asyncio.create_task(queue.search(FULL, jobs.job(1)))
    background_job = jobs.job(2)
    background = asyncio.create_task(queue.run(lambda: background_job(0.0)))
    after = asyncio.create_task(queue.search(FULL, jobs.job(3)))
    for n in range(4):
        await settle()
        jobs.ends[n].set()
    assert await asyncio.gather(first, before, background, after) == [0, 1, 2, 3]
    # Behind the reply asked before it, ahead of the one asked after; and it counts among the
    # jobs asking when a reply's share is reckoned: reply 1 started with three asking (itself,
    # the background job, reply 3), reply 3 alone.
    assert [n for n, _ in jobs.started] == [0, 1, 2, 3]
    assert jobs.started[1][1] == pytest.approx(FULL / 3, rel=1e-3)
    assert jobs.started[3][1] == pytest.approx(FULL, rel=1e-3)
