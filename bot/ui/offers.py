"""What players ask of each other, and ending a game early: ``/draw``, ``/takeback``,
``/resign`` and ``/abort``, with the buttons that answer them.

An offer or a request is public with the opponent's Accept / Decline buttons; resigning is
confirmed privately first (a button only the resigning player sees), since it cannot be undone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..enums import DrawAction
from ..errors import DrawError, NotAPlayerError
from ..i18n import Text, _
from ..markdown import shown
from ..results import Action, ActionResult, GameView
from ..service import GameService
from .boards import pings
from .buttons import Buttons
from .choices import DrawActionOption
from .presenter import Presenter
from .replies import Outgoing, Reply
from .validation import checked_id
from .wording import say


class Offers(commands.Cog):
    """Draws, takebacks, resignation and abort."""

    def __init__(self, service: GameService, presenter: Presenter, buttons: Buttons) -> None:
        self.service = service
        self.presenter = presenter
        self.buttons = buttons

    @app_commands.command(name="draw", description="Offer, accept or decline a draw")
    @app_commands.describe(action="What to do")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction, action: DrawActionOption) -> None:
        act = {
            DrawAction.OFFER: self.service.offer_draw,
            DrawAction.ACCEPT: self.service.accept_draw,
            DrawAction.DECLINE: self.service.decline_draw,
        }[action]

        async def work(reply: Reply) -> None:
            result = await act(interaction.user.id, channel_id=interaction.channel_id)
            await self.publish(reply, result)

        await self.presenter.run(interaction, work)

    @app_commands.command(name="resign", description="Resign this channel's game (asks first)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view = await self.presenter.channel_game(interaction.channel_id)
            question = resign_question(view, interaction.user.id)
            await reply.private(question, view=self.buttons.resign(view.id, reply.language))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="takeback", description="Ask to take back your last move")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            result = await self.service.request_takeback(
                interaction.user.id, channel_id=interaction.channel_id
            )
            await self.publish(reply, result)

        await self.presenter.run(interaction, work)

    @app_commands.command(
        name="abort",
        description="End this channel's game with no result (players: before both have moved)",
    )
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            perms = interaction.permissions
            result = await self.service.abort(
                interaction.user.id,
                is_moderator=perms.manage_messages or perms.administrator,
                channel_id=interaction.channel_id,
            )
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    async def publish(self, reply: Reply, result: ActionResult) -> None:
        """The result of a draw or takeback action for everyone (asked by command or from the
        board's More panel): an offer or a request with the buttons that answer it (a draw
        offer's message is remembered, so its buttons go when the offer ends), anything else
        as every result is posted."""
        game = result.game
        guild = reply.interaction.guild_id
        if result.action is Action.DRAW_OFFERED and game is not None:
            code = await self.presenter.delivery.public_language(result, guild)
            sent = await self._ask(reply, result, self.buttons.draw(game.id, code), code)
            await self.presenter.boards.offer_shown(game, sent)
        elif result.action is Action.TAKEBACK_OFFERED and game is not None:
            code = await self.presenter.delivery.public_language(result, guild)
            await self._ask(reply, result, self.buttons.takeback(game.id, game.ply, code), code)
        else:
            await self.presenter.answer(reply, result)

    @staticmethod
    async def _ask(
        reply: Reply, result: ActionResult, buttons: discord.ui.View, code: str
    ) -> int | None:
        """An offer or request, public (in the server's language ``code``), with the buttons
        the opponent answers it with; the id of its message."""
        return await reply.public(
            Outgoing(
                content=f"{pings(result.mentions)} {say(result.text, code)}".strip(),
                view=buttons,
                mentions=result.mentions,
            )
        )

    # -- the buttons -------------------------------------------------------------------------

    async def answer_draw(
        self, interaction: discord.Interaction, accept: bool, game_id: int
    ) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            checked_id(game_id, "game")
            try:
                if accept:
                    result = await self.service.accept_draw(user, game_id=game_id)
                else:
                    result = await self.service.decline_draw(user, game_id=game_id)
            except DrawError:
                await self._offer_is_over(reply, game_id)
                raise
            assert result.game is not None
            if await self._answered(reply, result):
                return
            # The offer's message is no longer the pending offer's (its buttons are off).
            pressed = interaction.message.id if interaction.message is not None else None
            await self.presenter.boards.offer_answered(result.game, pressed)
            if accept:
                await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    async def _answered(self, reply: Reply, result: ActionResult) -> bool:
        """Rewrite the message whose answer button was pressed with ``result``: on the More
        panel (private) in the player's language, and then posted for everyone (True: nothing
        is left to do); on the public offer or request, in the server's language (False)."""
        if on_private_panel(reply.interaction):
            await reply.update(content=result.text, view=None)
            await self.presenter.answer(reply, result)
            return True
        code = await self.presenter.delivery.public_language(result, reply.interaction.guild_id)
        await reply.update(content=say(result.text, code), view=None)
        return False

    async def _offer_is_over(self, reply: Reply, game_id: int) -> None:
        """A draw button pressed when no offer is pending: if it is on an offer's message,
        the offer ended (declined, answered by a move, withdrawn by a takeback, or the game
        ended), so the message loses its buttons and the refusal says so plainly."""
        if on_private_panel(reply.interaction):
            return
        view = await self.service.game_view(game_id)
        if view.running and view.draw_offer is not None:
            return  # the offer stands: the rules' refusal says why this press cannot answer it
        await reply.update(view=None)
        raise DrawError(
            _(
                "this draw offer is over: it was answered, a move was played or a takeback "
                "withdrew it; to offer a draw again, use More on the board"
            )
        )

    async def answer_takeback(
        self, interaction: discord.Interaction, accept: bool, game_id: int, ply: int
    ) -> None:
        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            result = await self.service.answer_takeback(
                interaction.user.id, accept, game_id=game_id, expected_ply=ply
            )
            if await self._answered(reply, result):
                return
            if result.action is Action.TAKEBACK_ACCEPTED:
                await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            result = await self.service.resign(interaction.user.id, game_id=game_id)
            # The confirmation was private: it says so in the player's language.
            await reply.update(content=_("You resigned game #{id}.", id=game_id), view=None)
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)


def on_private_panel(interaction: discord.Interaction) -> bool:
    """Whether the pressed button is on a private message (the board's More panel), whose
    answer is said privately and posted for everyone, rather than on a public offer."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def resign_question(view: GameView, user_id: int) -> Text:
    """The question a player confirms before resigning ``view``'s game (refused for anyone
    else: only the players can resign)."""
    if user_id not in (view.white.id, view.black.id):
        raise NotAPlayerError(
            _(
                "you are not playing in this game ({white} v {black})",
                white=shown(view.white.name),
                black=shown(view.black.name),
            )
        )
    other = view.black if user_id == view.white.id else view.white
    return _(
        "Resign game #{id} against {name}? This cannot be undone.",
        id=view.id,
        name=shown(other.name),
    )
