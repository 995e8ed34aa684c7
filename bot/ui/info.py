"""Looking things up: ``/pdn``, ``/games``, ``/rules`` and ``/help``.

All of it is private: a lookup is for the one who asked and changes nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from rules.variants import find_variant

from ..service import GameService
from .choices import MAX_GAME_ID, VariantOption
from .embeds import games_embed
from .limits import EMBED_DESCRIPTION, fit_embed, listing
from .presenter import Presenter
from .replies import Reply, Upload
from .texts import HELP_TEXT, rules_summary


def rules_embed(variant: str) -> discord.Embed:
    """``/rules``: the variant's summary as bullets."""
    title, lines = rules_summary(variant)
    embed = discord.Embed(
        title=title, description=listing([f"• {x}" for x in lines], EMBED_DESCRIPTION)
    )
    if find_variant(variant).notation == "algebraic":
        notation = (
            "Notation: squares are named by file and rank (a1 bottom left, as on the board "
            "image); c3-d4 is a step, c3:e5 a capture. Numbers (PDN) work too."
        )
    else:
        notation = (
            "Notation: squares are numbered on the board image; 11-15 is a step, 22x15 a capture."
        )
    embed.set_footer(text=notation)
    return fit_embed(embed)


def help_embed() -> discord.Embed:
    """``/help``."""
    return fit_embed(discord.Embed(title="How to play", description=HELP_TEXT))


class Info(commands.Cog):
    """Records, lists and rules."""

    def __init__(self, service: GameService, presenter: Presenter) -> None:
        self.service = service
        self.presenter = presenter

    @app_commands.command(name="pdn", description="The record of a game as a PDN file")
    @app_commands.describe(game="Game number (default: this channel's game, or its last one)")
    @app_commands.guild_only()
    async def pdn(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            name, text = await self.service.pdn(
                game_id=game,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
            )
            await reply.private_file(
                f"The record of {name.removesuffix('.pdn')}.", Upload(name, text.encode())
            )

        await self.presenter.run(interaction, work)

    @app_commands.command(name="games", description="The games running in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            views = await self.service.games(interaction.guild_id)
            if not views:
                await reply.private(
                    "No games are running in this server. Start one with `/challenge`."
                )
                return
            await reply.private_embed(games_embed(list(views)))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="rules", description="A short summary of a variant's rules")
    @app_commands.describe(variant="Which variant")
    async def rules(self, interaction: discord.Interaction, variant: VariantOption) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(rules_embed(variant))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="help", description="How to play draughts with me")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(help_embed())

        await self.presenter.run(interaction, work)
