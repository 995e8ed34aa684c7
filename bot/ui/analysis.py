"""``/analyse`` and the Analyse button of a finished game's final board: the engine's analysis
of a game, for the one who asked.

The answer is private: an analysis is for whoever wants to learn from the game, and a public
post per request would fill the channel (the same game asked again is shown from the store at
once).  It defers first ("thinking…", the user's alone): computing an analysis takes up to
about half a minute, long past Discord's three seconds.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..service import GameService
from .analysis_message import analysis_message
from .choices import MAX_GAME_ID
from .presenter import Presenter
from .replies import Reply


class Analysis(commands.Cog):
    """The engine's analysis of finished games."""

    def __init__(self, service: GameService, presenter: Presenter) -> None:
        self.service = service
        self.presenter = presenter

    @app_commands.command(name="analyse", description="The engine's analysis of a finished game")
    @app_commands.describe(
        game="Game number from /history (default: this channel's last finished game)"
    )
    @app_commands.guild_only()
    async def analyse(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        await self.presenter.run(interaction, lambda reply: self._answer(reply, game))

    async def analyse_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Analyse button under game ``game_id``'s final board."""
        await self.presenter.run(interaction, lambda reply: self._answer(reply, game_id))

    async def _answer(self, reply: Reply, game_id: int | None) -> None:
        interaction = reply.interaction
        await reply.think(private=True)
        view = await self.service.analysis.game(
            interaction.guild_id,
            interaction.user.id,
            game_id,
            channel_id=interaction.channel_id,
        )
        theme = (await self.service.server_settings(interaction.guild_id)).theme
        await reply.private_out(await analysis_message(view, reply.language, theme))
