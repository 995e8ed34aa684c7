"""Looking things up: ``/pdn``, ``/games``, ``/rules`` and ``/help``.

All of it is private: a lookup is for the one who asked and changes nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..service import GameService
from .choices import VariantOption
from .embeds import relative_time
from .presenter import Presenter
from .replies import Reply
from .texts import HELP_TEXT, rules_summary

MAX_LISTED_GAMES = 20
"""``/games`` lists this many and counts the rest, to stay inside one embed."""


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
        game: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            name, text = await self.service.pdn(
                game_id=game,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
            )
            await reply.private_file(
                f"The record of {name.removesuffix('.pdn')}.", name, text.encode()
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
            lines = []
            for v in views[:MAX_LISTED_GAMES]:
                assert v.to_move is not None
                line = (
                    f"**#{v.id}** {v.white.name} v {v.black.name} · {v.variant_title} · "
                    f"<#{v.channel_id}> · move {v.move_number}, {v.to_move.name} to move"
                )
                if v.deadline is not None:
                    line += f" (due {relative_time(v.deadline)})"
                lines.append(line)
            if len(views) > MAX_LISTED_GAMES:
                lines.append(f"… and {len(views) - MAX_LISTED_GAMES} more.")
            embed = discord.Embed(
                title=f"Running games ({len(views)})", description="\n".join(lines)
            )
            await reply.private_embed(embed)

        await self.presenter.run(interaction, work)

    @app_commands.command(name="rules", description="A short summary of a variant's rules")
    @app_commands.describe(variant="Which variant")
    async def rules(self, interaction: discord.Interaction, variant: VariantOption) -> None:
        async def work(reply: Reply) -> None:
            title, lines = rules_summary(variant)
            embed = discord.Embed(title=title, description="\n".join(f"• {x}" for x in lines))
            embed.set_footer(
                text="Notation: squares are numbered on the board image; "
                "11-15 is a step, 22x15 a capture."
            )
            await reply.private_embed(embed)

        await self.presenter.run(interaction, work)

    @app_commands.command(name="help", description="How to play draughts with me")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(discord.Embed(title="How to play", description=HELP_TEXT))

        await self.presenter.run(interaction, work)
