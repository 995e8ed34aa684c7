"""Slash commands about a server's play: ``/stats``, ``/leaderboard``, ``/history``,
``/replay`` and ``/settings``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ...service.settings import THREAD_MODES
from .play import MOVE_TIME_CHOICES, VARIANT_CHOICES

if TYPE_CHECKING:
    from ..client import DraughtsBot

THREAD_CHOICES = [app_commands.Choice(name=mode, value=mode) for mode in THREAD_MODES]


class Social(commands.Cog):
    """Ratings, history, replays and server settings."""

    def __init__(self, bot: DraughtsBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Rating and record of a player")
    @app_commands.describe(
        user="Whose (default: you)", variant="Which variant (default: the server's)"
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        await self.bot.social.stats(interaction, user, variant)

    @app_commands.command(name="leaderboard", description="This server's ranking in a variant")
    @app_commands.describe(variant="Which variant (default: the server's)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str | None = None
    ) -> None:
        await self.bot.social.leaderboard(interaction, variant)

    @app_commands.command(name="history", description="Recent finished games and their ids")
    @app_commands.describe(user="Only this player's games (default: everyone's)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await self.bot.social.history(interaction, user)

    @app_commands.command(name="replay", description="A game as an animated GIF")
    @app_commands.describe(game="Game number (default: this channel's game, or its last one)")
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await self.bot.social.replay(interaction, game)

    @app_commands.command(
        name="settings", description="Show or change this server's settings (moderators)"
    )
    @app_commands.describe(
        variant="Default variant of /challenge",
        move_time="Default time per move of /challenge",
        threads="optional: when asked; always: every game; never: no game threads",
        allow_channel="Add a channel games may be played in (none listed: every channel)",
        disallow_channel="Remove a channel from the game channels",
        all_channels="Clear the list: games may be played in every channel",
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES, move_time=MOVE_TIME_CHOICES, threads=THREAD_CHOICES
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        move_time: int | None = None,
        threads: str | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool = False,
    ) -> None:
        await self.bot.social.settings(
            interaction,
            variant=variant,
            move_time=move_time,
            threads=threads,
            allow_channel=allow_channel,
            disallow_channel=disallow_channel,
            all_channels=all_channels,
        )
