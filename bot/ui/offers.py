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
from ..errors import NotAPlayerError
from ..i18n import _
from ..markdown import shown
from ..results import Action, ActionResult
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
            if result.action is Action.DRAW_OFFERED:
                assert result.game is not None
                code = await self.presenter.delivery.public_language(result, interaction.guild_id)
                await self._ask(reply, result, self.buttons.draw(result.game.id, code), code)
            else:
                await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    @app_commands.command(name="resign", description="Resign this channel's game (asks first)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view = await self.presenter.channel_game(interaction.channel_id)
            me = interaction.user.id
            if me not in (view.white.id, view.black.id):
                raise NotAPlayerError(
                    _(
                        "you are not playing in this game ({white} v {black})",
                        white=shown(view.white.name),
                        black=shown(view.black.name),
                    )
                )
            other = view.black if me == view.white.id else view.white
            await reply.private(
                _(
                    "Resign game #{id} against {name}? This cannot be undone.",
                    id=view.id,
                    name=shown(other.name),
                ),
                view=self.buttons.resign(view.id, reply.language),
            )

        await self.presenter.run(interaction, work)

    @app_commands.command(name="takeback", description="Ask to take back your last move")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            result = await self.service.request_takeback(
                interaction.user.id, channel_id=interaction.channel_id
            )
            if result.action is Action.TAKEBACK_OFFERED:
                assert result.game is not None
                game = result.game
                code = await self.presenter.delivery.public_language(result, interaction.guild_id)
                await self._ask(reply, result, self.buttons.takeback(game.id, game.ply, code), code)
            else:
                await self.presenter.answer(reply, result)

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

    @staticmethod
    async def _ask(reply: Reply, result: ActionResult, buttons: discord.ui.View, code: str) -> None:
        """An offer or request, public (in the server's language ``code``), with the buttons
        the opponent answers it with."""
        await reply.public(
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
            # The offer's message is public: it is rewritten in the server's language.
            if accept:
                result = await self.service.accept_draw(user, game_id=game_id)
                code = await self.presenter.delivery.public_language(result, interaction.guild_id)
                await reply.update(content=say(result.text, code), view=None)
                await self.presenter.answer(reply, result)
            else:
                result = await self.service.decline_draw(user, game_id=game_id)
                code = await self.presenter.delivery.public_language(result, interaction.guild_id)
                await reply.update(content=say(result.text, code), view=None)

        await self.presenter.run(interaction, work)

    async def answer_takeback(
        self, interaction: discord.Interaction, accept: bool, game_id: int, ply: int
    ) -> None:
        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            result = await self.service.answer_takeback(
                interaction.user.id, accept, game_id=game_id, expected_ply=ply
            )
            code = await self.presenter.delivery.public_language(result, interaction.guild_id)
            await reply.update(content=say(result.text, code), view=None)
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
