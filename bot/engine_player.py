"""The engine as the service's computer opponent, searching in a worker process.

A search takes up to the time limit of pure CPU; on the event loop it would stall the gateway
heartbeat and every other game, so it runs in a process pool (:class:`bot.workers.WorkerPool`:
workers that exit with the bot and a pool rebuilt when one dies).  The pool has one worker per
CPU but one (at least two), so searches of different games run side by side instead of queueing.
What crosses the process boundary is plain data: the game record as :meth:`rules.Game.to_dict`
gives it, and the chosen move as PDN text.  The workers stay up between moves, so their imports
and tables are built once.

The live searches (moves, hints, draw answers) go to the pool through a
:class:`~bot.service.computer.ReplyQueue`: in the order they were asked, one per worker at a time,
each thinking for a share of its time that shrinks while many games wait and is whole again when
they are few (:func:`~bot.service.computer.think_time`).  The same pool runs the background lane
(analyses, puzzle mining): one job at a time through a one-slot
:class:`~bot.service.computer.Turns`, then in turn through the same queue, so a reply
waits for at most one background job and a background job only for the searches asked before it.
"""

from __future__ import annotations

import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, TypeVarTuple

from engine import Limits, best_move
from rules.game import Game
from rules.move import Move

from .service.computer import ComputerUnavailable, ReplyQueue, background_lane
from .workers import WorkerPool, WorkersUnavailable, default_workers

log = logging.getLogger(__name__)

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

DRAW_ACCEPT_BELOW = -50
"""The computer accepts a draw offer when it judges its position worse than half a man."""
DRAW_THINK_SHARE = 0.25
"""Share of the move time spent judging a draw offer."""
HINT_THINK_SHARE = 0.5
"""Share of the move time spent on a hint (at the strongest level): the player waits for it."""
HINT_LEVEL = 6
THINK_TIMES_KEPT = 1000
"""How many of the latest think times :attr:`EngineComputer.think_times` keeps."""


def choose(record: dict[str, Any], level: int, movetime: float, seed: int) -> str:
    """The engine's move for the game ``record`` (runs in the worker process), within
    ``movetime`` counted from here: reading the game comes out of the search's time."""
    taken = time.monotonic()
    game = Game.from_dict(record)
    limits = Limits(movetime=movetime, level=level, seed=seed, started=taken)
    return best_move(game, limits).move.pdn()


def judge(record: dict[str, Any], movetime: float) -> int:
    """The engine's score of the game for the side to move (runs in the worker process), within
    ``movetime`` counted from here, as :func:`choose`."""
    taken = time.monotonic()
    game = Game.from_dict(record)
    return best_move(game, Limits(movetime=movetime, level=6, started=taken)).score


class EngineComputer:
    """:class:`~bot.service.computer.ComputerPlayer` backed by :mod:`engine`."""

    def __init__(self, movetime: float, workers: int | None = None) -> None:
        """``workers``: search processes (default :func:`bot.workers.default_workers`, one per
        CPU but one); they start on the first search."""
        self.movetime = movetime
        self.pool = WorkerPool("engine", default_workers() if workers is None else workers)
        self._rng = random.Random()
        self._lane = background_lane()
        self._replies = ReplyQueue(self.pool.workers)
        self.think_times: deque[float] = deque(maxlen=THINK_TIMES_KEPT)
        """The seconds given to the latest live searches, in the order they started (for
        operators and benchmarks: under load they are shorter than :attr:`movetime`)."""

    async def choose_move(self, game: Game, level: int) -> Move:
        """The engine's move; raises :class:`bot.workers.WorkerCrashed` if the search killed
        its worker on every try (the service logs it and the scheduler asks again later), and
        :class:`~bot.service.computer.ComputerUnavailable` while the workers cannot start."""
        return await self._search(game, level, self.movetime)

    async def hint(self, game: Game) -> Move:
        """The engine's best move at :data:`HINT_LEVEL` in a share of the move time, in the
        pool beside the replies (errors as :meth:`choose_move`)."""
        return await self._search(game, HINT_LEVEL, self.movetime * HINT_THINK_SHARE)

    async def _search(self, game: Game, level: int, movetime: float) -> Move:
        seed = self._rng.getrandbits(32)
        record = game.to_dict()
        text = await self._live(
            movetime, lambda seconds: self._run(choose, record, level, seconds, seed)
        )
        for move in game.legal_moves():
            if move.pdn() == text:
                return move
        raise RuntimeError(f"the engine chose {text!r}, which is not legal here")

    async def background(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in the pool through the background lane (see
        :meth:`~bot.service.computer.ComputerPlayer.background`); a job that kills its worker
        on every try raises :class:`bot.workers.WorkerCrashed`, and the lane goes on."""
        return await self._lane.run(lambda: self._replies.run(lambda: self._run(fn, *args)))

    async def _live(self, movetime: float, start: Callable[[float], Awaitable[T]]) -> T:
        """The live search ``start(seconds)`` in its turn, with its share of ``movetime``."""

        def started(seconds: float) -> Awaitable[T]:
            self.think_times.append(seconds)
            return start(seconds)

        return await self._replies.search(movetime, started)

    async def _run(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in the pool; :class:`ComputerUnavailable` while it cannot start."""
        try:
            return await self.pool.run(fn, *args)
        except WorkersUnavailable as exc:
            raise ComputerUnavailable(str(exc)) from exc

    async def answer_draw(self, game: Game, level: int) -> bool:
        """Accept when the computer stands worse.  The offer may be made on the player's turn
        or with their move, so the score is turned to the computer's side; if the search fails
        the offer is declined (and the failure logged); while the workers cannot start, the
        offer waits (:class:`~bot.service.computer.ComputerUnavailable`)."""
        offerer = game.draw_offer
        try:
            record = game.to_dict()
            score = await self._live(
                self.movetime * DRAW_THINK_SHARE, lambda seconds: self._run(judge, record, seconds)
            )
        except ComputerUnavailable:  # the offer waits for the computer, as its moves do
            raise
        except Exception:
            log.exception("the engine could not judge a draw offer; declining it")
            return False
        if offerer is not None and game.turn is offerer:
            score = -score  # the search scored the offerer's side
        return score < DRAW_ACCEPT_BELOW

    def close(self) -> None:
        """Stop the workers at once, a running search included (idempotent)."""
        self.pool.close()
