"""The engine as the service's computer opponent, searching in a worker process.

A search takes up to the time limit of pure CPU; on the event loop it would stall the gateway
heartbeat and every other game, so it runs in a process pool.  What crosses the process boundary
is plain data: the game record as :meth:`rules.Game.to_dict` gives it, and the chosen move as PDN
text.  The worker stays up between moves, so its imports and tables are built once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
from typing import Any

from engine import Limits, best_move
from rules.game import Game
from rules.move import Move

log = logging.getLogger(__name__)

DRAW_ACCEPT_BELOW = -50
"""The computer accepts a draw offer when it judges its position worse than half a man."""
DRAW_THINK_SHARE = 0.25
"""Share of the move time spent judging a draw offer."""


def choose(record: dict[str, Any], level: int, movetime: float, seed: int) -> str:
    """The engine's move for the game ``record`` (runs in the worker process)."""
    game = Game.from_dict(record)
    return best_move(game, Limits(movetime=movetime, level=level, seed=seed)).move.pdn()


def judge(record: dict[str, Any], movetime: float) -> int:
    """The engine's score of the game for the side to move (runs in the worker process)."""
    game = Game.from_dict(record)
    return best_move(game, Limits(movetime=movetime, level=6)).score


class EngineComputer:
    """:class:`~bot.service.computer.ComputerPlayer` backed by :mod:`engine`."""

    def __init__(self, movetime: float, workers: int = 1) -> None:
        self.movetime = movetime
        # forkserver: a clean child, not a fork of a process with a running loop and sockets.
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("forkserver")
        )
        self._rng = random.Random()

    async def choose_move(self, game: Game, level: int) -> Move:
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(
            self._pool, choose, game.to_dict(), level, self.movetime, self._rng.getrandbits(32)
        )
        for move in game.legal_moves():
            if move.pdn() == text:
                return move
        raise RuntimeError(f"the engine chose {text!r}, which is not legal here")

    async def answer_draw(self, game: Game, level: int) -> bool:
        """Accept when the computer stands worse.  The offer may be made on the player's turn
        or with their move, so the score is turned to the computer's side; if the search fails
        the offer is declined (and the failure logged)."""
        offerer = game.draw_offer
        loop = asyncio.get_running_loop()
        try:
            score = await loop.run_in_executor(
                self._pool, judge, game.to_dict(), self.movetime * DRAW_THINK_SHARE
            )
        except Exception:
            log.exception("the engine could not judge a draw offer; declining it")
            return False
        if offerer is not None and game.turn is offerer:
            score = -score  # the search scored the offerer's side
        return score < DRAW_ACCEPT_BELOW

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
