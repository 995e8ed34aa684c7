"""``/prefs``: each user's own preferences, which only they see and change.

A board theme for the images only they see (the picker, their private boards: the public board
keeps the server's so everyone in the channel sees the same picture), the notation moves are
shown to them in, and two direct messages, off by default since a DM is an intrusion: one when
it becomes their turn, and a last warning before their time runs out.  Everything here is
private, in the user's own language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from rules.variants import Notation

from ..i18n import Text, _, _p, render
from ..results import UserPrefs
from ..service import GameService
from .choices import NotationOption, ThemeOption
from .languages import interaction_language
from .limits import fit_embed
from .presenter import Presenter
from .replies import Reply
from .texts import theme_word

NOTATION_WORDS: dict[Notation | None, Text] = {
    None: _("the variant's own (algebraic in Russian, Brazilian and Czech, numeric elsewhere)"),
    Notation.NUMERIC: _("numeric (11-15)"),
    Notation.ALGEBRAIC: _("algebraic (c3-d4)"),
}


def _switch(on: bool) -> Text:
    return _p("setting", "on") if on else _p("setting", "off")


def prefs_embed(prefs: UserPrefs, changed: bool, code: str) -> discord.Embed:
    """The user's preferences as they stand, in the language ``code``."""

    def say(text: Text) -> str:
        return render(text, code)

    title = _("Your preferences updated") if changed else _("Your preferences")
    embed = discord.Embed(title=say(title))
    theme = theme_word(prefs.theme) if prefs.theme else _("the server's")
    embed.add_field(name=say(_("Board theme")), value=say(theme), inline=False)
    embed.add_field(
        name=say(_("Notation")), value=say(NOTATION_WORDS[prefs.notation]), inline=False
    )
    embed.add_field(name=say(_("DM on my turn")), value=say(_switch(prefs.dm_turn)))
    embed.add_field(name=say(_("Last warning by DM")), value=say(_switch(prefs.last_warning)))
    embed.set_footer(text=say(_("Change any of them with /prefs; only you see this.")))
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
            code = interaction_language(interaction)
            if theme is None and notation is None and dm_turn is None and last_warning is None:
                await reply.private_embed(
                    prefs_embed(await self.service.readers.prefs(user), False, code)
                )
                return
            prefs = await self.service.readers.set_prefs(
                user,
                theme=theme,
                notation=None if notation is None else ("" if notation == "variant" else notation),
                dm_turn=dm_turn,
                last_warning=last_warning,
            )
            await reply.private_embed(prefs_embed(prefs, True, code))

        await self.presenter.run(interaction, work)
