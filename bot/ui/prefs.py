"""``/prefs``: each user's own preferences, which only they see and change.

A board theme for the images only they see (the picker, their private boards: the public board
keeps the server's so everyone in the channel sees the same picture), the notation moves are
shown to them in, and two direct messages, off by default since a DM is an intrusion: one when
it becomes their turn, and a last warning before their time runs out.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from rules.variants import Notation

from ..results import UserPrefs
from ..service import GameService
from .choices import NotationOption, ThemeOption
from .limits import fit_embed
from .presenter import Presenter
from .replies import Reply

NOTATION_WORDS = {
    None: "the variant's own (algebraic in Russian and Brazilian, numeric elsewhere)",
    Notation.NUMERIC: "numeric (11-15)",
    Notation.ALGEBRAIC: "algebraic (c3-d4)",
}


def prefs_embed(prefs: UserPrefs, changed: bool) -> discord.Embed:
    """The user's preferences as they stand."""
    embed = discord.Embed(title="Your preferences" + (" updated" if changed else ""))
    theme = str(prefs.theme) if prefs.theme else "the server's"
    embed.add_field(name="Board theme", value=theme, inline=False)
    embed.add_field(name="Notation", value=NOTATION_WORDS[prefs.notation], inline=False)
    embed.add_field(name="DM on my turn", value="on" if prefs.dm_turn else "off")
    embed.add_field(name="Last warning by DM", value="on" if prefs.last_warning else "off")
    embed.set_footer(text="Change any of them with /prefs; only you see this.")
    return fit_embed(embed)


class Prefs(commands.Cog):
    """The user's own preferences."""

    def __init__(self, service: GameService, presenter: Presenter) -> None:
        self.service = service
        self.presenter = presenter

    @app_commands.command(name="prefs", description="Your own preferences (only you see them)")
    @app_commands.describe(
        theme="Board theme of the images only you see",
        notation="How moves are shown to you",
        dm_turn="A direct message when it is your turn",
        last_warning="A direct message shortly before your time runs out",
    )
    async def prefs(
        self,
        interaction: discord.Interaction,
        theme: ThemeOption | None = None,
        notation: NotationOption | None = None,
        dm_turn: bool | None = None,
        last_warning: bool | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            if theme is None and notation is None and dm_turn is None and last_warning is None:
                await reply.private_embed(prefs_embed(await self.service.prefs(user), False))
                return
            prefs = await self.service.set_prefs(
                user,
                theme=theme,
                notation=None if notation is None else ("" if notation == "variant" else notation),
                dm_turn=dm_turn,
                last_warning=last_warning,
            )
            await reply.private_embed(prefs_embed(prefs, True))

        await self.presenter.run(interaction, work)
