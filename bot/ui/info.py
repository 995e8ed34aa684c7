"""Looking things up: ``/pdn``, ``/games``, ``/rules`` and ``/help``.

All of it is private: a lookup is for the one who asked and changes nothing, so it is written in
the user's own language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import _, render, verbatim
from ..service import GameService
from .choices import MAX_GAME_ID, VariantOption
from .embeds import games_embed
from .languages import interaction_language
from .limits import EMBED_DESCRIPTION, fit_embed, listing
from .presenter import Presenter
from .replies import Reply, Upload
from .rules_texts import notation_note, rules_summary
from .texts import help_paragraphs


def rules_embed(variant: str, code: str) -> discord.Embed:
    """``/rules``: the variant's summary as bullets, in the language ``code``."""
    title, lines = rules_summary(variant)
    bullets = [f"• {render(line, code)}" for line in lines]
    embed = discord.Embed(
        title=render(title, code), description=listing(bullets, EMBED_DESCRIPTION, code=code)
    )
    embed.set_footer(text=render(notation_note(variant), code))
    return fit_embed(embed)


def help_embed(code: str) -> discord.Embed:
    """``/help``, in the language ``code``."""
    text = "\n".join(render(paragraph, code) for paragraph in help_paragraphs())
    return fit_embed(discord.Embed(title=render(_("How to play"), code), description=text))


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
            code = interaction_language(interaction)
            name, text = await self.service.pdn(
                game_id=game,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
                words=lambda words: render(words, code),
            )
            # Translators: {game} is the file's name without its extension (draughts-game-42).
            record = _("The record of {game}.", game=verbatim(name.removesuffix(".pdn")))
            await reply.private_file(render(record, code), Upload(name, text.encode()))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="games", description="The games running in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            views = await self.service.games(interaction.guild_id)
            if not views:
                none = _("No games are running in this server. Start one with `/challenge`.")
                await reply.private(render(none, interaction_language(interaction)))
                return
            await reply.private_embed(games_embed(list(views), interaction_language(interaction)))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="rules", description="A short summary of a variant's rules")
    @app_commands.describe(variant="Which variant")
    async def rules(self, interaction: discord.Interaction, variant: VariantOption) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(rules_embed(variant, interaction_language(interaction)))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="help", description="How to play draughts with me")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(help_embed(interaction_language(interaction)))

        await self.presenter.run(interaction, work)
