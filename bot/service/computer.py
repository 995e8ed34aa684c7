"""The computer opponent as the service sees it: a move chooser and a draw answerer.

Until the engine lands this is :class:`RandomComputer`, which plays a random legal move; the engine
will plug in behind the same protocol (running in a process pool, so the event loop never waits).
"""

from __future__ import annotations

import random
from typing import Protocol

from rules.game import Game
from rules.move import Move


class ComputerPlayer(Protocol):
    async def choose_move(self, game: Game, level: int) -> Move:
        """A legal move for the side to move of ``game`` (which is running)."""
        ...

    async def answer_draw(self, game: Game, level: int) -> bool:
        """Whether to accept the opponent's draw offer."""
        ...


class RandomComputer:
    """Plays a uniformly random legal move and declines every draw offer."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    async def choose_move(self, game: Game, level: int) -> Move:
        return self._rng.choice(game.legal_moves())

    async def answer_draw(self, game: Game, level: int) -> bool:
        return False
