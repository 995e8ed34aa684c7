"""The flows of what a server has played and how it is set up: ``/stats``, ``/leaderboard``,
``/history``, ``/replay`` and ``/settings``.

They share :class:`~bot.ui.flows.Flows`' refusal handling (``run``), so a bad id or a missing
permission is answered privately with nothing changed.  Lists are private (they are lookups, like
``/games``); ``/replay`` is public because it shows a game to the channel.
"""

from __future__ import annotations

import discord

from ..errors import ForbiddenError
from .flows import Flows, player_of
from .replies import Outgoing, Reply
from .social_embeds import history_embed, leaderboard_embed, settings_embed, stats_embed


def is_moderator(interaction: discord.Interaction) -> bool:
    """Server settings are for those who may manage the server (or administrators)."""
    perms = interaction.permissions
    return perms.manage_guild or perms.administrator


class SocialFlows:
    def __init__(self, flows: Flows) -> None:
        self.flows = flows
        self.service = flows.service

    async def stats(
        self, interaction: discord.Interaction, user: discord.abc.User | None, variant: str | None
    ) -> None:
        async def work(reply: Reply) -> None:
            server = await self.service.settings.get(interaction.guild_id)
            who = player_of(user or interaction.user)
            stats = await self.service.standings.stats(
                interaction.guild_id, who, variant or server.variant
            )
            await reply.private_embed(stats_embed(stats))

        await self.flows.run(interaction, work)

    async def leaderboard(self, interaction: discord.Interaction, variant: str | None) -> None:
        async def work(reply: Reply) -> None:
            server = await self.service.settings.get(interaction.guild_id)
            board = await self.service.standings.leaderboard(
                interaction.guild_id, variant or server.variant, interaction.user.id
            )
            await reply.private_embed(leaderboard_embed(board))

        await self.flows.run(interaction, work)

    async def history(
        self, interaction: discord.Interaction, user: discord.abc.User | None
    ) -> None:
        async def work(reply: Reply) -> None:
            games = await self.service.standings.history(
                interaction.guild_id, None if user is None else user.id
            )
            whose = None if user is None else user.display_name
            await reply.private_embed(history_embed(games, whose))

        await self.flows.run(interaction, work)

    async def replay(self, interaction: discord.Interaction, game_id: int | None) -> None:
        async def work(reply: Reply) -> None:
            row = await self.service.find_game(
                game_id=game_id,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
            )
            _, text = await self.service.pdn(game_id=row.id)
            await reply.think()  # a long game takes a moment to draw (in a worker process)
            replay = await self.flows.media.replay(text, flip=False)
            state = "so far" if row.status == "running" else ""
            caption = f"Replay of game #{row.id} ({row.white_name} v {row.black_name}) {state}"
            caption = caption.strip() + "."
            if replay.note:
                caption += f" {replay.note}"
            await reply.public(
                Outgoing(content=caption, files=[(f"game-{row.id}.gif", replay.data)])
            )

        await self.flows.run(interaction, work)

    async def settings(
        self,
        interaction: discord.Interaction,
        *,
        variant: str | None,
        move_time: int | None,
        threads: str | None,
        allow_channel: discord.abc.GuildChannel | None,
        disallow_channel: discord.abc.GuildChannel | None,
        all_channels: bool,
    ) -> None:
        async def work(reply: Reply) -> None:
            guild = interaction.guild_id
            wants_change = (
                any(
                    x is not None
                    for x in (variant, move_time, threads, allow_channel, disallow_channel)
                )
                or all_channels
            )
            if not wants_change:
                await reply.private_embed(
                    settings_embed(await self.service.settings.get(guild), False)
                )
                return
            if not is_moderator(interaction):
                raise ForbiddenError("only moderators (Manage Server) can change the settings")
            changed = await self.service.settings.change(
                guild,
                is_moderator=True,
                variant=variant,
                move_time=None if move_time is None else self.flows.seconds(move_time),
                threads=threads,
                allow=() if allow_channel is None else (allow_channel.id,),
                disallow=() if disallow_channel is None else (disallow_channel.id,),
                all_channels=all_channels,
            )
            await reply.private_embed(settings_embed(changed, True))

        await self.flows.run(interaction, work)
