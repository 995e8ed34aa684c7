"""The computer as the service sees it: a move chooser, a draw answerer, a hint giver, and a
background lane for the engine's longer work (analyses, puzzle mining).

The bot plays :class:`bot.engine_player.EngineComputer` (the engine, searching in worker processes
so the event loop never waits); :class:`RandomComputer` plays a random legal move, for tests and
for a service built without an engine.

Background work shares the engine's workers with the live games' replies, which a player waits
for.  :class:`BackgroundLane` keeps it from crowding them out: one background job at a time per
process, first come first served, so at most one worker is busy with it and a reply queued in the
pool waits behind at most that one job (each short, split by its caller).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar, TypeVarTuple

from rules.game import Game
from rules.move import Move

DEFAULT_LEVEL = 3
"""The computer's level when a challenge names none."""

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class ComputerUnavailable(RuntimeError):
    """The computer cannot think at all for now (its worker processes cannot start): the games
    wait for it, and their players are told."""


class ComputerPlayer(Protocol):
    async def choose_move(self, game: Game, level: int) -> Move:
        """A legal move for the side to move of ``game`` (which is running);
        :class:`ComputerUnavailable` when it cannot think for now."""
        ...

    async def answer_draw(self, game: Game, level: int) -> bool:
        """Whether to accept the opponent's draw offer (:class:`ComputerUnavailable` as
        :meth:`choose_move`)."""
        ...

    async def hint(self, game: Game) -> Move:
        """The computer's best move for the side to move of ``game`` (which is running), thought
        for a short time beside the live games' replies (the player is waiting for it);
        :class:`ComputerUnavailable` as :meth:`choose_move`."""
        ...

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run ``fn(*args)`` in the engine's worker processes behind every live game's reply:
        this process's background jobs run one at a time, first come first served, so at most
        one worker is busy with them and a computer reply waits at most one job.  ``fn`` is a
        module-level function (it is pickled); each job is short (about a second or less):
        longer work is split into jobs by its caller.  :class:`ComputerUnavailable` while the
        workers cannot start; an exception of ``fn`` itself is raised unchanged."""
        ...


class BackgroundLane:
    """Background jobs one at a time, in the order they were asked for.

    A job holds the lane until it has *ended*, not until its caller stops waiting: a caller
    cancelled while its job runs leaves the job to finish (a worker cannot be interrupted
    without killing it), and the next job starts only then, so two never run at once.
    (:class:`asyncio.Lock` hands itself to its waiters in the order they came.)"""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def run(self, start: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """The value of the job ``start()`` begins, once every job asked for before it ended."""
        await self._lock.acquire()
        try:
            job = asyncio.ensure_future(start())
        except BaseException:
            self._lock.release()
            raise
        job.add_done_callback(self._ended)
        return await asyncio.shield(job)

    def _ended(self, job: asyncio.Future[Any]) -> None:
        self._lock.release()
        if not job.cancelled():
            job.exception()  # retrieved here too: a caller that left no longer reads it


class RandomComputer:
    """Plays a uniformly random legal move and declines every draw offer; its hints are random
    legal moves too.  Its background jobs run in a thread, one at a time (the same lane as the
    engine's), so the service's tests run real engine functions through it."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._lane = BackgroundLane()

    async def choose_move(self, game: Game, level: int) -> Move:
        return self._rng.choice(game.legal_moves())

    async def answer_draw(self, game: Game, level: int) -> bool:
        return False

    async def hint(self, game: Game) -> Move:
        return self._rng.choice(game.legal_moves())

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        return await self._lane.run(lambda: asyncio.to_thread(fn, *args))
