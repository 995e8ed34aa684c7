"""Hints: the computer's move for a player of a game against it, privately, and counted.

A hint is a teaching aid, so it is offered only where nothing is at stake: in a running game
against the computer (never rated) on the player's own turn; in a game between people, or a
rated one, it is refused.  The computer thinks in its worker pool
(:meth:`~bot.service.computer.ComputerPlayer.hint`, beside the live replies) on a copy of the
game, off the game's lock, so nothing waits for it; the hint is counted only if the game is
still at the position it was asked in (a move meanwhile makes it moot, and the player is told to
ask again).  Hints are unlimited but never hidden: each one is written to the game's row
(``hints``, under the version guard), and the game's boards, its end and its PDN (a ``Hints``
tag) say how many were taken.
"""

from __future__ import annotations

from rules.notation import show_move

from ..errors import ConflictError, GameOverError, NotAPlayerError, NotYourTurnError
from ..i18n import _
from ..markdown import shown
from ..results import GameView, Hint
from .computer import ComputerPlayer, ComputerUnavailable
from .live import LiveGames, color_of
from .views import game_view, player

COMPUTER_AWAY = _("the computer cannot think right now; try again in a moment")


class Hints:
    """The Hint button's action (``GameService.hints``)."""

    def __init__(self, live: LiveGames, computer: ComputerPlayer) -> None:
        self.live = live
        self.computer = computer

    async def hint(self, user_id: int, game_id: int) -> tuple[GameView, Hint]:
        """The computer's move for ``user_id``, to move in ``game_id`` against the computer,
        with the game's view; refused (nothing written) outside such a game or turn."""
        async with self.live.lock(game_id):
            live = await self.live.load(game_id)
            row, game = live.row, live.game
            color = color_of(live, user_id)
            if row.computer_id is None or row.rated:
                raise NotAPlayerError(
                    _("hints are for games against the computer only, where nothing is rated")
                )
            if game.turn is not color:
                await self.live.ensure_fresh(live)
                raise NotYourTurnError(
                    _("it is {name}'s turn", name=shown(player(row, game.turn).name))
                )
            asked, ply = game.copy(), game.ply
        try:
            move = await self.computer.hint(asked)
        except ComputerUnavailable:
            raise ConflictError(COMPUTER_AWAY) from None
        async with self.live.lock(game_id):
            live = await self.live.load(game_id)
            if live.game.ply != ply:
                raise ConflictError(_("a move was played meanwhile; ask for a hint again"))
            if live.game.is_over:
                raise GameOverError(_("the game is over"))
            count = live.row.hints + 1
            await self.live.save_row(live, {"hints": count})
            view = game_view(live.row, live.game)
        variant = asked.variant
        return view, Hint(move.pdn(), show_move(move, variant), tuple(move.path), count)
