"""Slash commands that look things up: ``/pdn``, ``/games``, ``/rules`` and ``/help``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .play import VARIANT_CHOICES

if TYPE_CHECKING:
    from ..client import DraughtsBot


class Info(commands.Cog):
    """Records, lists and rules."""

    def __init__(self, bot: DraughtsBot) -> None:
        self.bot = bot

    @app_commands.command(name="pdn", description="The record of a game as a PDN file")
    @app_commands.describe(game="Game number (default: this channel's game, or its last one)")
    @app_commands.guild_only()
    async def pdn(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await self.bot.flows.pdn(interaction, game)

    @app_commands.command(name="games", description="The games running in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.games(interaction)

    @app_commands.command(name="rules", description="A short summary of a variant's rules")
    @app_commands.describe(variant="Which variant")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str) -> None:
        await self.bot.flows.rules(interaction, variant)

    @app_commands.command(name="help", description="How to play draughts with me")
    async def help(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.help(interaction)
