"""A small discord.py bot that reports what Discord answered it, for the tests of the fake
Discord's failure modes (``tests/e2e/test_fake_discord.py``). Run through the launcher::

    python tests/support/discord_launcher.py PORT support.fake_probe_bot:make_client

Commands (synced to the fake's guild):

* ``/ping``: answers "pong".
* ``/post``: defers privately, posts "posted" in the channel, then follows up privately with
  the outcome (``posted`` or ``error STATUS CODE``) and what ``app_permissions`` said about
  sending there.
* ``/hold``: defers, waits until ``/release`` is used, then tries a follow-up; if that fails it
  posts ``follow-up failed STATUS CODE`` in the channel instead.
* ``/release``: answers "released" and lets a held ``/hold`` go on.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from support.fake_discord import Guild

GUILD_ID = int(Guild().id)


def outcome(error: discord.HTTPException) -> str:
    return f"{error.status} {error.code}"


class ProbeClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.released = asyncio.Event()
        tree = self.tree

        @tree.command(name="ping", description="Answers pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(name="post", description="Posts in the channel and says how it went")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.abc.Messageable)
            try:
                await channel.send("posted")
                result = "posted"
            except discord.HTTPException as exc:
                result = f"error {outcome(exc)}"
            can_send = interaction.app_permissions.send_messages
            await interaction.followup.send(f"{result}; can send: {can_send}", ephemeral=True)

        @tree.command(name="hold", description="Defers until /release")
        async def hold(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await self.released.wait()
            self.released.clear()
            try:
                await interaction.followup.send("held")
            except discord.HTTPException as exc:
                channel = interaction.channel
                assert isinstance(channel, discord.abc.Messageable)
                await channel.send(f"follow-up failed {outcome(exc)}")

        @tree.command(name="release", description="Lets /hold go on")
        async def release(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("released")
            self.released.set()

    async def setup_hook(self) -> None:
        guild = discord.Object(GUILD_ID)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def make_client() -> ProbeClient:
    return ProbeClient()
