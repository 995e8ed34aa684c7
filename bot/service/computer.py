"""The computer as the service sees it: a move chooser, a draw answerer, a hint giver, and a
background lane for the engine's longer work (analyses, puzzle mining).

The bot plays :class:`bot.engine_player.EngineComputer` (the engine, searching in worker processes
so the event loop never waits); :class:`RandomComputer` plays a random legal move, for tests and
for a service built without an engine.

Background work shares the engine's workers with the live games' replies, which a player waits
for.  A one-slot :class:`Turns` (:func:`background_lane`) keeps it from crowding them out: one
background job at a time per process, first come first served, so at most one worker is busy with
it and a reply queued in the pool waits behind at most that one job (each short, split by its
caller).

The live games' replies share the workers among themselves through a :class:`ReplyQueue` (the
same :class:`Turns`, a slot per worker, so the rules of who waits and who holds a slot are written
once): served
in the order they were asked, as many at a time as there are workers, each thinking for a share
of the level's time that shrinks while many games wait (:func:`think_time`), so that twenty games
on two workers each get a reply within about the level's time instead of queueing for ten times
it (docs/BENCHMARKS.md, issue 31).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
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


class Turns:
    """At most ``slots`` jobs at a time, begun in the order they were asked for (none overtakes
    another, none starves).

    A job holds its slot until it has *ended*, not until its caller stops waiting: a caller
    cancelled while its job runs leaves the job to finish (a worker cannot be interrupted
    without killing it), and the next job begins only then, so the engine's pool never holds
    more jobs than its workers and none waits inside it, out of this order.  A caller cancelled
    while it waits gives its place up; one cancelled just as its turn came passes the slot on."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"turns need at least one slot, not {slots}")
        self.slots = slots
        self._running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def asking(self) -> int:
        """Jobs running or waiting."""
        return self._running + len(self._waiting)

    async def run(self, start: Callable[[], Awaitable[T]]) -> T:
        """The value of the job ``start()`` begins, once a slot is its."""
        return await self.take(lambda _waited: start())

    async def take(self, begin: Callable[[float], Awaitable[T]]) -> T:
        """The value of the job ``begin(seconds waited for the slot)`` begins, once a slot is
        its."""
        asked = time.monotonic()
        queued = await self._turn()
        try:
            job = asyncio.ensure_future(begin(time.monotonic() - asked if queued else 0.0))
        except BaseException:
            self._release()
            raise
        job.add_done_callback(self._ended)
        return await asyncio.shield(job)

    async def _turn(self) -> bool:
        """Wait for a slot, behind every job asked before (which then holds it); whether there
        was a wait."""
        if self._running < self.slots and not self._waiting:
            self._running += 1
            return False
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over as the caller left: pass it on
            else:
                self._waiting.remove(turn)
            raise
        return True

    def _release(self) -> None:
        """Hand the slot to the longest waiting job, or free it."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._running -= 1

    def _ended(self, job: asyncio.Future[Any]) -> None:
        self._release()
        if not job.cancelled():
            job.exception()  # retrieved here too: a caller that left no longer reads it


def background_lane() -> Turns:
    """Background jobs one at a time, first come first served: what keeps the engine's longer
    work to one worker, so a live game's reply waits behind at most one such job."""
    return Turns(1)


LEAST_THINK_SHARE = 0.1
"""The shortest think time a reply gets under load, as a share of its full time: a move searched
for a tenth of the level's time still plays at a fair strength, and below it the replies of very
many games would be near random."""


def think_time(full: float, workers: int, asking: int, waited: float = 0.0) -> float:
    """Seconds a live search may think when ``asking`` searches (itself included) are running or
    waiting for ``workers`` workers, the search having waited ``waited`` seconds to start.

    Shared fairly, every game gets what it would get if all searched at once side by side:
    ``full * workers / asking`` (the whole ``full`` while the workers suffice), so a game waits
    about ``asking / workers`` such shares, about ``full``, whatever the load.  A search that
    already waited is also held to what is left of ``full`` (a sudden crowd does not add its
    wait to a full search).  Never below :data:`LEAST_THINK_SHARE` of ``full``."""
    share = full * min(1.0, workers / max(1, asking))
    return max(LEAST_THINK_SHARE * full, min(share, full - waited))


class ReplyQueue(Turns):
    """The engine's workers shared by the live games' searches and the background lane's jobs:
    :class:`Turns` with one slot per worker (a background job waits behind the searches asked
    before it), each live search begun with its :func:`think_time` from the jobs running and
    waiting when it starts.  The background lane asks for one job at a time, so a reply waits
    behind at most one background job."""

    async def search(self, full: float, start: Callable[[float], Awaitable[T]]) -> T:
        """The value of the live search ``start(seconds)`` begins, in turn, with its share of
        ``full`` seconds."""
        return await self.take(
            lambda waited: start(think_time(full, self.slots, self.asking, waited))
        )


class RandomComputer:
    """Plays a uniformly random legal move and declines every draw offer; its hints are random
    legal moves too.  Its background jobs run in a thread, one at a time (the same lane as the
    engine's), so the service's tests run real engine functions through it."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._lane = background_lane()

    async def choose_move(self, game: Game, level: int) -> Move:
        return self._rng.choice(game.legal_moves())

    async def answer_draw(self, game: Game, level: int) -> bool:
        return False

    async def hint(self, game: Game) -> Move:
        return self._rng.choice(game.legal_moves())

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        return await self._lane.run(lambda: asyncio.to_thread(fn, *args))
