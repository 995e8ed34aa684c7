"""``/puzzle``: a puzzle solved privately by taps, your puzzle rating and streaks, the server's
puzzle leaderboard, and the daily puzzle's channel (moderators); and the answers to the puzzle
board's menu and buttons and to the daily post's Solve.

A puzzle is only ever the solver's: ``/puzzle solve`` answers privately with the board from the
solver's side and its menu (:mod:`bot.ui.puzzle_board`); each tap redraws that message in place
with the bot's forced reply, until the line ends (the solution drawn as arrows, the rating
change, and Next).  A tap on a board the attempt has moved on from is refused privately by the
ply it carries.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from ..errors import ForbiddenError, IllegalMoveError
from ..i18n import Text, _, join, listed
from ..markdown import shown
from ..results import PuzzleTurn
from ..service import GameService
from .choices import VariantOption
from .permissions import ATTACH, CREATE_THREADS, SEND, VIEW
from .presenter import Presenter, player_of
from .puzzle_board import ALL, legal, standings_lines, turn_message
from .puzzle_items import PuzzleAction, PuzzleKit
from .replies import Outgoing, Reply
from .social import is_moderator
from .validation import checked_id

Stage = Callable[[Reply], Awaitable[PuzzleTurn]]


class Puzzles(commands.Cog):
    """Puzzles: solved privately by taps, rated, and one a day in a channel."""

    puzzle = app_commands.Group(
        name="puzzle",
        description="Draughts puzzles: solve one, your rating, the leaderboard, the daily puzzle",
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(self, service: GameService, presenter: Presenter, kit: PuzzleKit) -> None:
        self.service = service
        self.presenter = presenter
        self.kit = kit

    @puzzle.command(name="solve", description="A puzzle for you alone, near your puzzle rating")
    @app_commands.describe(variant="Which draughts variant (default: the server's)")
    async def solve(
        self, interaction: discord.Interaction, variant: VariantOption | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            user = player_of(interaction.user)
            turn = await self.service.puzzles.start(interaction.guild_id, user, variant)
            await reply.private_out(await self._message(interaction, turn, ALL, 0))

        await self.presenter.run(interaction, work)

    @puzzle.command(name="rating", description="Your puzzle rating and streaks in this server")
    async def rating(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            found = await self.service.puzzles.standings(interaction.guild_id, interaction.user.id)
            if not found:
                await reply.private(
                    _("You have no puzzle rating yet: /puzzle solve gives you one.")
                )
                return
            await reply.private(join((_("Your puzzle ratings:"), *standings_lines(found)), "\n"))

        await self.presenter.run(interaction, work)

    @puzzle.command(name="leaderboard", description="This server's best puzzle solvers")
    @app_commands.describe(variant="A variant of the family to show (default: the server's)")
    async def leaderboard(
        self, interaction: discord.Interaction, variant: VariantOption | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            board = await self.service.puzzles.leaderboard(
                interaction.guild_id, interaction.user.id, variant
            )
            lines: list[Text] = [_("**Puzzle leaderboard**, {family}", family=board.family_title)]
            if not board.top:
                lines.append(_("Nobody has solved a puzzle of these variants here yet."))
            for rank, line in enumerate(board.top, 1):
                lines.append(
                    _(
                        "{rank}. {name}: {rating} ({solved} solved, best streak {best})",
                        rank=rank,
                        name=shown(line.name),
                        rating=line.rating,
                        solved=line.solved,
                        best=line.best_streak,
                    )
                )
            if board.mine is not None:
                lines.append(_("You: {rating}.", rating=board.mine.rating))
            await reply.private(join(tuple(lines), "\n"))

        await self.presenter.run(interaction, work)

    @puzzle.command(name="daily", description="Post a puzzle every day in a channel (moderators)")
    @app_commands.describe(
        channel="Where to post the daily puzzle, with a thread for answers",
        off="Stop posting the daily puzzle",
        variant="Which draughts variant (default: the server's)",
    )
    async def daily(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        off: bool = False,
        variant: VariantOption | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            puzzles = self.service.puzzles
            guild = interaction.guild_id
            if channel is None and not off:
                setting = await puzzles.daily_setting(guild)
                if setting is None:
                    await reply.private(_("No daily puzzle is posted in this server."))
                else:
                    await reply.private(
                        _("The daily puzzle is posted in <#{channel}>.", channel=setting.channel_id)
                    )
                return
            where = None if off else channel
            if where is not None:
                check_daily_channel(interaction, where)
            setting = await puzzles.set_daily(
                guild,
                None if where is None else where.id,
                interaction.user.id,
                variant,
                is_moderator=is_moderator(interaction),
            )
            if setting is None:
                await reply.private(_("The daily puzzle is off."))
            else:
                said = _(
                    "From today, a puzzle is posted every day in <#{channel}>.",
                    channel=setting.channel_id,
                )
                await reply.private(said)

        await self.presenter.run(interaction, work)

    # -- the board's menu and buttons -----------------------------------------------------------

    async def picked(
        self, interaction: discord.Interaction, attempt_id: int, ply: int, origin: int, value: str
    ) -> None:
        """A pick in the board's menu: a piece (its moves, drawn), or a move (played)."""
        user = player_of(interaction.user)
        if value.isdigit() and len(value) <= 3:
            square = int(value)

            async def look(reply: Reply) -> PuzzleTurn:
                turn = await self.service.puzzles.look(checked_id(attempt_id, "puzzle"), user, ply)
                if not any(m.startswith(value) for m in piece_moves(turn, square)):
                    raise IllegalMoveError(_("That piece cannot move; pick one from the list."))
                return turn

            await self._in_place(interaction, look, square, 0)
            return

        async def move(reply: Reply) -> PuzzleTurn:
            return await self.service.puzzles.move(
                checked_id(attempt_id, "puzzle"), user, ply, value
            )

        await self._in_place(interaction, move, ALL, 0)

    async def pressed(
        self,
        interaction: discord.Interaction,
        action: PuzzleAction,
        target: int,
        ply: int,
        origin: int,
        page: int,
    ) -> None:
        user = player_of(interaction.user)
        puzzles = self.service.puzzles
        if action is PuzzleAction.SOLVE:  # on the public daily post: a private board

            async def solve(reply: Reply) -> None:
                turn = await puzzles.start(
                    interaction.guild_id, user, puzzle_id=checked_id(target, "puzzle")
                )
                await reply.private_out(await self._message(interaction, turn, ALL, 0))

            await self.presenter.run(interaction, solve)
            return
        stage: Stage
        if action is PuzzleAction.HINT:

            async def stage(reply: Reply) -> PuzzleTurn:
                return await puzzles.hint(checked_id(target, "puzzle"), user, ply)

        elif action is PuzzleAction.PAGE:

            async def stage(reply: Reply) -> PuzzleTurn:
                return await puzzles.look(checked_id(target, "puzzle"), user, ply)

        else:

            async def stage(reply: Reply) -> PuzzleTurn:  # of the variant just played
                return await puzzles.start(interaction.guild_id, user, after=target)

        await self._in_place(interaction, stage, origin, page)

    async def _in_place(
        self, interaction: discord.Interaction, stage: Stage, origin: int, page: int
    ) -> None:
        """Run a step on the private board it was tapped on and redraw that board."""
        message = interaction.message
        if message is not None and not message.flags.ephemeral:

            async def refuse(reply: Reply) -> None:
                await reply.private(_("That menu is not one I showed you; use /puzzle solve."))

            await self.presenter.run(interaction, refuse)
            return

        async def work(reply: Reply) -> None:
            turn = await stage(reply)
            out = await self._message(interaction, turn, origin, page)
            await reply.update(
                content=out.content,
                attachments=[upload.file() for upload in out.files],
                view=out.view,
            )

        await self.presenter.run(interaction, work)

    async def _message(
        self, interaction: discord.Interaction, turn: PuzzleTurn, origin: int, page: int
    ) -> Outgoing:
        """The board of ``turn`` in the solver's language, theme and notation."""
        code = self.presenter.languages.private(interaction)
        prefs = await self.service.readers.prefs(interaction.user.id)
        server = await self.service.server_settings(interaction.guild_id)
        return await turn_message(
            turn,
            self.presenter.media,
            self.kit,
            theme=str(prefs.theme or server.theme),
            notation=str(prefs.notation or turn.view.notation),
            code=code,
            origin=origin,
            page=page,
        )


def piece_moves(turn: PuzzleTurn, square: int) -> list[str]:
    """The moves of the piece on ``square`` in the attempt's position (PDN)."""
    view = turn.view
    return [m.pdn() for m in legal(view.fen, view.variant) if m.path[0] == square]


DAILY_NEEDS = (VIEW, SEND, ATTACH, CREATE_THREADS)
"""What the daily post needs in its channel: to post the board, and to open its thread."""


def check_daily_channel(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
    """Refuse, before anything is written, a daily channel the bot could not post in (the post
    would fail later, unseen), naming what it lacks there."""
    guild = interaction.guild
    me = None if guild is None else guild.me
    if me is None:
        return  # the member list is not known: the outbox retries and logs a refused post
    # The option's channel is built from the interaction's partial data (no overwrites): the
    # cached channel has them.
    cached = guild.get_channel(channel.id) if guild is not None else None
    permissions = (cached or channel).permissions_for(me)
    lacking = [name for attribute, name in DAILY_NEEDS if not getattr(permissions, attribute)]
    if lacking:
        raise ForbiddenError(
            _(
                "I cannot post the daily puzzle in <#{channel}>; I lack these permissions "
                "there: {names} (a moderator can grant them)",
                channel=channel.id,
                names=listed(lacking),
            )
        )
