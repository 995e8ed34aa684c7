"""What a server has played and how it is set up: ``/stats``, ``/leaderboard``, ``/history``,
``/replay`` and ``/settings``.

Lists are private (they are lookups, like ``/games``) and written in the user's own language;
``/replay`` is public because it shows a game to the channel, so it is written in the server's.
Anyone may read the settings; changing them is for moderators.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..enums import GameStatus, Side
from ..errors import ForbiddenError, NotFoundError
from ..i18n import _, as_text, render, verbatim
from ..markdown import shown
from ..service import GameService
from ..words import ending_words
from .boards import replay_alt
from .buttons import view_of
from .choices import (
    FOLLOW_DISCORD,
    MAX_GAME_ID,
    LanguageOption,
    MoveTimeOption,
    OrientationOption,
    PoolOption,
    ThemeOption,
    ThreadsOption,
    VariantOption,
)
from .cooldowns import Post
from .languages import interaction_language
from .presenter import Presenter, player_of
from .replies import Outgoing, Reply, Upload
from .social_embeds import history_embed, leaderboard_embed, settings_embed, stats_embed
from .tournament_buttons import TournamentAction, TournamentKit
from .tournament_embeds import events_embed

MAX_EVENTS = 25
"""Finished tournaments on the ``/history`` event page: a PDN button each, Discord's most."""


def is_moderator(interaction: discord.Interaction) -> bool:
    """Server settings are for those who may manage the server (or administrators)."""
    perms = interaction.permissions
    return perms.manage_guild or perms.administrator


class Social(commands.Cog):
    """Ratings, history, replays and server settings."""

    def __init__(
        self, service: GameService, presenter: Presenter, tournament_kit: TournamentKit
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.tournament_kit = tournament_kit

    @app_commands.command(name="stats", description="Rating and record of a player")
    @app_commands.describe(
        user="Whose (default: you)",
        variant="Which variant (default: the server's)",
        pool="Which time class (default: that of their latest rated game)",
    )
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        variant: VariantOption | None = None,
        pool: PoolOption | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            if user is not None and user.bot:
                raise NotFoundError(
                    _(
                        "{name} is a bot: bots have no rating",
                        name=verbatim(shown(user.display_name)),
                    )
                )
            server = await self.service.server_settings(interaction.guild_id)
            who = player_of(user or interaction.user)
            stats = await self.service.stats(
                interaction.guild_id, who, variant or server.variant, pool
            )
            await reply.private_embed(stats_embed(stats, interaction_language(interaction)))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's ranking in a variant")
    @app_commands.describe(
        variant="Which variant (default: the server's)",
        pool="Which time class (default: that of your latest rated game)",
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: VariantOption | None = None,
        pool: PoolOption | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            server = await self.service.server_settings(interaction.guild_id)
            board = await self.service.leaderboard(
                interaction.guild_id, variant or server.variant, interaction.user.id, pool
            )
            await reply.private_embed(leaderboard_embed(board, interaction_language(interaction)))

        await self.presenter.run(interaction, work)

    @app_commands.command(name="history", description="Recent finished games and their ids")
    @app_commands.describe(
        user="Only this player's games (default: everyone's)",
        tournaments="Finished tournaments instead, with their winners and PDN files",
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        tournaments: bool = False,
    ) -> None:
        async def work(reply: Reply) -> None:
            if tournaments:
                await self._events(reply, interaction.guild_id)
                return
            me = self.presenter.connection.user
            if user is not None and user.bot and (me is None or user.id != me.id):
                # (my own games are those against the computer)
                raise NotFoundError(
                    _(
                        "{name} is a bot and plays no games here",
                        name=verbatim(shown(user.display_name)),
                    )
                )
            games = await self.service.history(
                interaction.guild_id, None if user is None else user.id
            )
            whose = None if user is None else user.display_name
            await reply.private_embed(
                history_embed(games, whose, interaction_language(interaction))
            )

        await self.presenter.run(interaction, work)

    async def _events(self, reply: Reply, guild_id: int | None) -> None:
        """The server's finished tournaments, privately, with a PDN button each."""
        assert guild_id is not None
        views = (await self.service.tournaments.listing(guild_id, finished=True))[:MAX_EVENTS]
        code = reply.language
        buttons = [
            self.tournament_kit.button(TournamentAction.PDN, v.id, code, f"PDN #{v.id}")
            for v in views
        ]
        await reply.private_out(Outgoing(embed=events_embed(views, code), view=view_of(*buttons)))

    @app_commands.command(name="replay", description="A game as an animated GIF")
    @app_commands.describe(game="Game number (default: this channel's game, or its last one)")
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            row = await self.service.find_game(
                game_id=game,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
            )
            note = None
            if interaction.user.id not in (row.white_id, row.black_id):
                note = _(
                    "Only you see this replay: replays of games you do not play in are private, "
                    "to keep the channel quiet."
                )
            else:
                note = self.presenter.cooldowns.held_back(
                    Post.REPLAY, interaction.user.id, interaction.channel_id
                )
            _name, text = await self.service.pdn(game_id=row.id)
            # a long game takes a moment to draw (in a worker process)
            await reply.think(private=note is not None)
            if note is None:
                code = await self.presenter.languages.public(interaction.guild_id)
            else:
                code = reply.language
            replay = await self.presenter.media.replay(text, flip=False, code=code)
            white, black = verbatim(shown(row.white_name)), verbatim(shown(row.black_name))
            if row.status == GameStatus.RUNNING:
                ending = None
                caption = _(
                    "Replay of game #{id} ({white} v {black}) so far.",
                    id=row.id,
                    white=white,
                    black=black,
                )
            else:
                winner = {Side.WHITE: row.white_name, Side.BLACK: row.black_name}
                ending = ending_words(
                    row.status, row.result, None if row.winner is None else winner[row.winner]
                )
                caption = _(
                    "Replay of game #{id} ({white} v {black}).", id=row.id, white=white, black=black
                )
            words = render(caption, code)
            if replay.note:
                words += f" {render(as_text(replay.note), code)}"
            if note is not None:
                words += f"\n{render(note, code)}"
            out = Outgoing(
                content=words,
                files=[
                    Upload(
                        f"game-{row.id}.gif",
                        replay.data,
                        replay_alt(row.id, row.white_name, row.black_name, ending, code),
                    )
                ],
            )
            if note is None:
                await reply.public(out)
            else:
                await reply.private_out(out)

        await self.presenter.run(interaction, work)

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
        orientation="Which side is at the bottom of the public board (new games)",
        theme="Board theme of the public images",
        language="The language of the bot's public messages here (private ones follow each user)",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        variant: VariantOption | None = None,
        move_time: MoveTimeOption | None = None,
        threads: ThreadsOption | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool = False,
        orientation: OrientationOption | None = None,
        theme: ThemeOption | None = None,
        language: LanguageOption | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            guild = interaction.guild_id
            code = interaction_language(interaction)
            options = (variant, move_time, threads, allow_channel, disallow_channel, orientation)
            wants_change = any(x is not None for x in (*options, theme, language)) or all_channels
            if not wants_change:
                current = await self.service.server_settings(guild)
                chosen = await self.service.readers.chosen_language(guild)
                await reply.private_embed(settings_embed(current, False, code, chosen))
                return
            if not is_moderator(interaction):
                raise ForbiddenError(_("only moderators (Manage Server) can change the settings"))
            if language is not None:
                await self.service.readers.set_server_language(
                    guild, "" if language == FOLLOW_DISCORD else language, is_moderator=True
                )
                if guild is not None:
                    self.presenter.languages.forget_server(guild)
            changed = await self.service.change_settings(
                guild,
                is_moderator=True,
                variant=variant,
                move_time=None if move_time is None else self.presenter.seconds(move_time),
                threads=threads,
                allow=() if allow_channel is None else (allow_channel.id,),
                disallow=() if disallow_channel is None else (disallow_channel.id,),
                all_channels=all_channels,
                orientation=orientation,
                theme=theme,
            )
            chosen = await self.service.readers.chosen_language(guild)
            await reply.private_embed(settings_embed(changed, True, code, chosen))

        await self.presenter.run(interaction, work)
