"""Slash commands that start and play games: ``/challenge``, ``/move``, ``/board``, ``/moves``,
``/draw``, ``/resign``, ``/takeback`` and ``/abort``.

Names, options and choices are part of the product's contract (see shared DESIGN.md and
docs/COMMANDS.md); the work happens in :class:`~bot.ui.flows.Flows`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from rules.variants import VARIANTS

from ..flows import MAX_MOVE_TEXT
from ..texts import COLOR_CHOICES, MOVE_TIMES

if TYPE_CHECKING:
    from ..client import DraughtsBot

VARIANT_CHOICES = [
    app_commands.Choice(name=v.title[:100], value=key) for key, v in VARIANTS.items()
]
COLOR_OPTIONS = [app_commands.Choice(name=c, value=c) for c in COLOR_CHOICES]
MOVE_TIME_CHOICES = [
    app_commands.Choice(name=label, value=seconds) for label, seconds in MOVE_TIMES
]
OPENING_CHOICES = [
    app_commands.Choice(name="none (the usual start)", value="none"),
    app_commands.Choice(name="ballot (random ACF three-move opening)", value="ballot"),
]


class Play(commands.Cog):
    """Playing a game."""

    def __init__(self, bot: DraughtsBot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description="Challenge someone (or me) to a game")
    @app_commands.describe(
        opponent="Who you want to play; pick me to play the computer",
        variant="Which draughts variant (default: the server's, else English)",
        color="Your colour (default: random)",
        move_time="Time for each move (default: the server's, else 1 day)",
        thread="Play in a new thread (default: no)",
        opening="Start from a random ACF three-move ballot (English only)",
        match="Play a two-game match: same opening, colours swapped",
        level="Computer strength, 1 (beginner) to 6 (strongest); only against me",
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        color=COLOR_OPTIONS,
        move_time=MOVE_TIME_CHOICES,
        opening=OPENING_CHOICES,
    )
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: str | None = None,
        color: str = "random",
        move_time: int | None = None,
        thread: bool = False,
        opening: str = "none",
        match: bool = False,
        level: app_commands.Range[int, 1, 6] | None = None,
    ) -> None:
        await self.bot.flows.challenge(
            interaction,
            opponent,
            variant,
            color,
            move_time,
            thread,
            level,
            opening=opening,
            match=match,
        )

    @app_commands.command(name="move", description="Play a move in this channel's game")
    @app_commands.describe(move="Your move, e.g. 11-15 or 22x15 (start typing for suggestions)")
    @app_commands.guild_only()
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, MAX_MOVE_TEXT],
    ) -> None:
        await self.bot.flows.move(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.bot.flows.move_choices(interaction, current)

    @app_commands.command(name="board", description="Show this channel's game again")
    @app_commands.describe(flip="Show it from the other side (default: the side to move)")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, flip: bool = False) -> None:
        await self.bot.flows.board(interaction, flip)

    @app_commands.command(name="moves", description="List the legal moves (only you see it)")
    @app_commands.guild_only()
    async def moves(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.moves(interaction)

    @app_commands.command(name="draw", description="Offer, accept or decline a draw")
    @app_commands.describe(action="What to do")
    @app_commands.choices(
        action=[
            app_commands.Choice(name="offer", value="offer"),
            app_commands.Choice(name="accept", value="accept"),
            app_commands.Choice(name="decline", value="decline"),
        ]
    )
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction, action: str) -> None:
        await self.bot.flows.draw(interaction, action)

    @app_commands.command(name="resign", description="Resign this channel's game (asks first)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.resign(interaction)

    @app_commands.command(name="takeback", description="Ask to take back your last move")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.takeback(interaction)

    @app_commands.command(name="abort", description="End this channel's game with no result")
    @app_commands.default_permissions(manage_messages=True)
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.bot.flows.abort(interaction)
