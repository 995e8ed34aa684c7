"""The computer's side of a game: its opening move, its replies and its answers to draw offers.

A reply that fails (the engine worker died, a search raised) never takes the player's move with
it: the player's move is already stored, the failure is logged, and the scheduler retries the
reply on its next tick (:meth:`bot.service.deadlines.Deadlines.tick`).
"""

from __future__ import annotations

import logging

from rules.game import Game
from rules.variants import Color

from ..results import Action, MovePlayed, Player
from .computer import ComputerPlayer
from .live import Live, LiveGames, apply_rules

log = logging.getLogger(__name__)

DEFAULT_LEVEL = 3


class ComputerReplies:
    def __init__(self, live: LiveGames, computer: ComputerPlayer, bot: Player) -> None:
        self.live = live
        self.computer = computer
        self.bot = bot

    async def opening(self, game: Game, level: int) -> tuple[MovePlayed, ...]:
        """The computer's first move, played on ``game`` (not yet stored); none if the computer
        failed (the scheduler makes it later)."""
        try:
            choice = await self.computer.choose_move(game, level)
            move = game.play(choice)
        except Exception:
            log.exception("the computer failed to open a game; the scheduler will retry")
            return ()
        return (MovePlayed(game.ply, move.pdn(), self.bot, True),)

    async def answer_draw(self, game: Game, level: int | None) -> bool:
        """Whether the computer accepts the draw offered to it in ``game``."""
        return await self.computer.answer_draw(game, level or DEFAULT_LEVEL)

    async def reply(
        self, live: Live, *, announce: bool = False
    ) -> tuple[tuple[MovePlayed, ...], str | None]:
        """Let the computer move while it is its turn (once: sides alternate), or accept a draw
        its opponent offered with their move; call under the game's lock.  The moves played,
        and with ``announce`` the outbox entry written with them (an accepted draw is announced
        as such; the caller words both)."""
        row, game = live.row, live.game
        if row.computer_id is None or game.is_over:
            return (), None
        color = Color.WHITE if row.white_id == row.computer_id else Color.BLACK
        if game.turn is not color:
            return (), None
        level = row.computer_level or DEFAULT_LEVEL
        try:
            accepted = game.draw_offer is color.other and await self.computer.answer_draw(
                game, level
            )
            choice = None if accepted else await self.computer.choose_move(game, level)
        except Exception:
            # The player's move has landed; the scheduler retries the reply on its next tick.
            log.exception("the computer failed to reply in game %s", row.id)
            return (), None
        if choice is None:
            apply_rules(lambda: game.accept_draw(color))
            event = await self.live.save(
                live,
                user_id=self.bot.id,
                moved=False,
                announce=Action.DRAW_ACCEPTED if announce else None,
            )
            return (), event
        move = apply_rules(lambda: game.play(choice))
        event = await self.live.save(
            live, user_id=self.bot.id, moved=True, announce=Action.MOVED if announce else None
        )
        return (MovePlayed(game.ply, move.pdn(), self.bot, True),), event
