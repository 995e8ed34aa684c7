"""A tiny discord.py bot for the fake-Discord smoke test (``tests/e2e/test_fake_discord.py``).

``/ping`` answers "pong" with an "Again" button; pressing it edits the message to "pong again".
The command is synced to the fake's guild in ``setup_hook``. Run it through the launcher::

    python tests/support/discord_launcher.py PORT support.e2e_echo_bot:make_client
"""

from __future__ import annotations

import discord
from discord import app_commands

from support.fake_discord import Guild

GUILD_ID = int(Guild().id)


class AgainView(discord.ui.View):
    @discord.ui.button(label="Again", custom_id="echo:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="pong again", view=None)


class EchoClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="Answers pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", view=AgainView())

    async def setup_hook(self) -> None:
        guild = discord.Object(GUILD_ID)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def make_client() -> EchoClient:
    return EchoClient()
