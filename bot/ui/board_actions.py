"""The board's More button: a player's actions on the game, reachable by tapping.

More opens a private panel made for the player who pressed it, in their language: Offer draw
(or Accept / Decline when the opponent offered), Take back (or Allow / Refuse when the
opponent asked), Resign (which asks for a confirmation first) and Abort while both players
have not yet moved.  Each button calls the same service action as its command (``/draw``,
``/takeback``, ``/resign``, ``/abort``) and what it changes is posted for everyone the same
way; anyone but the players gets a private one-line refusal.
"""

from __future__ import annotations

from typing import Any

import discord

from ..enums import Side
from ..errors import ForbiddenError, NotAPlayerError
from ..i18n import Text, _, join
from ..markdown import shown
from ..results import GameView
from ..service import GameService
from .buttons import Buttons, PlayerAction, view_of
from .offers import Offers, resign_question
from .presenter import Presenter
from .replies import Reply
from .validation import checked_id


class BoardActions:
    """Answers More and the buttons of its private panel."""

    def __init__(
        self, service: GameService, presenter: Presenter, buttons: Buttons, offers: Offers
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.buttons = buttons
        self.offers = offers

    async def more(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            view = await self._players_game(game_id, interaction.user.id)
            text, items = self.panel(view, interaction.user.id, reply.language)
            await reply.private(text, view=view_of(*items))

        await self.presenter.run(interaction, work)

    def panel(
        self, view: GameView, user_id: int, code: str
    ) -> tuple[Text, list[discord.ui.Item[Any]]]:
        """What the More panel says to ``user_id`` and its buttons, for the game as it is
        now: an offer or a request from the opponent is answered here; one of the player's
        own is waiting, so it is not offered again."""
        me = Side.WHITE if user_id == view.white.id else Side.BLACK
        other = view.black if me is Side.WHITE else view.white
        items: list[discord.ui.Item[Any]] = []
        lines: list[Text] = []
        actions: list[PlayerAction] = []
        if view.draw_offer is None:
            actions.append(PlayerAction.DRAW)
        elif view.draw_offer is me:
            lines.append(_("Your draw offer is waiting for {name}.", name=shown(other.name)))
        else:
            lines.append(_("{name} offers a draw.", name=shown(other.name)))
            items += self.buttons.draw_answers(view.id, code)
        if view.takeback_offer is None:
            actions.append(PlayerAction.TAKEBACK)
        elif view.takeback_offer is me:
            lines.append(_("Your takeback request is waiting for {name}.", name=shown(other.name)))
        else:
            lines.append(_("{name} asks to take back a move.", name=shown(other.name)))
            items += self.buttons.takeback_answers(view.id, view.ply, code)
        actions.append(PlayerAction.RESIGN)
        items += self.buttons.action_buttons(view.id, actions, code)
        if view.abortable:
            items.append(self.buttons.abort(view.id, code))
        head = _("Game #{id} against {name}.", id=view.id, name=shown(other.name))
        return join((head, *lines), "\n"), items

    async def act(
        self, interaction: discord.Interaction, action: PlayerAction, game_id: int
    ) -> None:
        """A button of the panel: the same service action as the command, its result posted
        for everyone as the command's is (resigning asks first, privately)."""

        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            user = interaction.user.id
            if action is PlayerAction.RESIGN:
                view = await self._players_game(game_id, user)
                question = resign_question(view, user)
                resign = self.buttons.resign(view.id, reply.language)
                await reply.update(content=question, view=resign)
                return
            if action is PlayerAction.DRAW:
                result = await self.service.offer_draw(user, game_id=game_id)
            else:
                result = await self.service.request_takeback(user, game_id=game_id)
            await reply.update(content=_("Done: everyone in the channel sees it."), view=None)
            await self.offers.publish(reply, result)

        await self.presenter.run(interaction, work)

    async def _players_game(self, game_id: int, user_id: int) -> GameView:
        """The running game ``game_id``, refused for anyone but its players."""
        view = await self.service.game_view(checked_id(game_id, "game"))
        if user_id not in (view.white.id, view.black.id):
            raise NotAPlayerError(_("only the players of game #{id} can use this", id=view.id))
        if not view.running:
            raise ForbiddenError(_("game #{id} is over", id=view.id))
        return view
