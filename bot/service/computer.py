"""The computer opponent as the service sees it: a move chooser and a draw answerer.

The bot plays :class:`bot.engine_player.EngineComputer` (the engine, searching in worker processes
so the event loop never waits); :class:`RandomComputer` plays a random legal move, for tests and
for a service built without an engine.
"""

from __future__ import annotations

import random
from typing import Protocol

from rules.game import Game
from rules.move import Move

DEFAULT_LEVEL = 3
"""The computer's level when a challenge names none."""


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


class RandomComputer:
    """Plays a uniformly random legal move and declines every draw offer."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    async def choose_move(self, game: Game, level: int) -> Move:
        return self._rng.choice(game.legal_moves())

    async def answer_draw(self, game: Game, level: int) -> bool:
        return False
