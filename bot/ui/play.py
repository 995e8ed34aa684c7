"""Playing the game of a channel: ``/move`` (with its autocomplete), ``/board`` and ``/moves``.

A move is read and checked once, by the service: the autocomplete only suggests, an illegal move
is refused privately and nothing is posted.  Against the computer the move is answered at once and
the computer's reply follows as its own post when its search is done.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from ..errors import IllegalMoveError
from ..i18n import _
from ..service import GameService
from .cooldowns import Post
from .limits import autocomplete
from .presenter import Presenter
from .replies import Reply
from .texts import diagram_text, moves_text

log = logging.getLogger(__name__)

MAX_MOVE_TEXT = 100
"""Longer ``/move`` text is refused before it reaches the parser (the longest legal move of any
variant is far shorter)."""


class Play(commands.Cog):
    """Moves and boards."""

    def __init__(self, service: GameService, presenter: Presenter) -> None:
        self.service = service
        self.presenter = presenter

    @app_commands.command(name="move", description="Play a move in this channel's game")
    @app_commands.describe(move="Your move, e.g. 11-15 or 22x15 (start typing for suggestions)")
    @app_commands.guild_only()
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, MAX_MOVE_TEXT],
    ) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            if len(move) > MAX_MOVE_TEXT:
                raise IllegalMoveError(_("that is far too long to be a move"))
            result = await self.service.move(
                interaction.user.id, move, channel_id=interaction.channel_id
            )
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    @move.autocomplete("move")
    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None or self.presenter.closing:
            return []
        try:
            choices = await self.service.legal_moves(
                interaction.channel_id, interaction.user.id, current[:MAX_MOVE_TEXT]
            )
        except Exception:
            log.exception("autocomplete failed")
            return []
        return autocomplete(choices)

    @app_commands.command(name="board", description="Show this channel's game again")
    @app_commands.describe(
        flip="Show it from the other side",
        text="A text diagram for screen readers (only you see it)",
    )
    @app_commands.guild_only()
    async def board(
        self, interaction: discord.Interaction, flip: bool = False, text: bool = False
    ) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view = await self.presenter.channel_game(interaction.channel_id)
            side = view.flip != flip  # the option shows the other side
            if text:
                prefs = await self.service.readers.prefs(interaction.user.id)
                await reply.private(diagram_text(view, side, reply.language, prefs.notation))
                return
            boards = self.presenter.boards
            spectator = interaction.user.id not in (view.white.id, view.black.id)
            note = None
            if spectator and await boards.in_view(view):
                note = _(
                    "Only you see this board: the game's current board is just above in the "
                    "channel."
                )
            else:
                note = self.presenter.cooldowns.held_back(
                    Post.BOARD, interaction.user.id, interaction.channel_id
                )
            if note is not None:
                message = await boards.message(view, "", (), flip=side, code=reply.language)
                message.content = reply.words(note)
                message.view = None  # its buttons belong on the public board
                await reply.private_out(message)
                return
            message = await boards.message(view, "", (), flip=side)
            sent = await reply.public(message)
            await boards.posted(view, sent)

        await self.presenter.run(interaction, work)

    @app_commands.command(name="moves", description="List the legal moves (only you see it)")
    @app_commands.guild_only()
    async def moves(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            prefs = await self.service.readers.prefs(interaction.user.id)
            view, moves = await self.service.move_list(interaction.channel_id, prefs.notation)
            await reply.private(moves_text(view, moves, reply.language))

        await self.presenter.run(interaction, work)
