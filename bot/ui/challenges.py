"""``/challenge`` and the answers to it: Accept, Decline and Cancel, and Rematch after a game.

A challenge is public in its channel with its buttons; challenging the bot starts a game against
the computer at once.  Every check runs before anything is deferred or posted, so a refusal is
private; a game that needs a thread gets one here, named after its players.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
from discord import app_commands
from discord.ext import commands

from ..enums import ColorChoice, Opening, ThreadMode
from ..errors import ChallengeError, ThreadRequired
from ..i18n import _, render
from ..markdown import shown
from ..results import MAX_RATING, MIN_RATING, Action, ActionResult, ChallengeTerms, TimeControl
from ..service import GameService
from .arrivals import post_marker
from .buttons import Buttons, ChallengeAnswer
from .choices import (
    MAX_CLOCK_TEXT,
    ColorOption,
    MoveTimeOption,
    OpeningOption,
    VariantOption,
    clock_choices,
)
from .delivery import Connection
from .embeds import challenge_embed, mention
from .permissions import check_room
from .presenter import Presenter, parent_of, player_of
from .replies import Outgoing, Reply
from .threads import open_thread, thread_home, thread_name
from .validation import checked_id
from .wording import say

MAX_FEN_TEXT = 400
"""The longest ``position:`` accepted: an International position with every square named, a
king mark on each, fits with room to spare."""


class Challenges(commands.Cog):
    """Starting games."""

    def __init__(
        self,
        service: GameService,
        presenter: Presenter,
        buttons: Buttons,
        connection: Connection,
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.buttons = buttons
        self.connection = connection
        self._accepting: dict[int, asyncio.Lock] = {}
        """One acceptance at a time per challenge: a double click must not start two games."""

    @app_commands.command(name="challenge", description="Challenge someone (or me) to a game")
    @app_commands.describe(
        opponent="Who you want to play; pick me to play the computer; leave out: anyone may accept",
        variant="Which draughts variant (default: the server's, else English)",
        color="Your colour (default: random)",
        move_time="Time for each move (default: the server's, else 1 day)",
        clock="A clock for a live game: minutes + seconds added per move, like 3+2",
        thread="Play in a new thread (default: no)",
        opening="Start from a random ACF three-move ballot (English only)",
        match="Play a two-game match: same opening, colours swapped",
        level="Computer strength, 1 (beginner) to 6 (strongest); only against me",
        min_rating="Open challenge: the lowest rating that may accept",
        max_rating="Open challenge: the highest rating that may accept",
        position="Start from this position (FEN, like W:W21,22:B9,K30); unrated",
    )
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        variant: VariantOption | None = None,
        color: ColorOption = ColorChoice.RANDOM,
        move_time: MoveTimeOption | None = None,
        thread: bool = False,
        opening: OpeningOption = Opening.NONE,
        match: bool = False,
        level: app_commands.Range[int, 1, 6] | None = None,
        clock: app_commands.Range[str, 1, MAX_CLOCK_TEXT] | None = None,
        min_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        max_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        position: app_commands.Range[str, 1, MAX_FEN_TEXT] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            bot_user = self.connection.user
            assert bot_user is not None and interaction.channel_id is not None
            against_computer = opponent is not None and opponent.id == bot_user.id
            if opponent is not None and opponent.bot and not against_computer:
                raise ChallengeError(
                    _(
                        "{name} is a bot; to play the computer, challenge me",
                        name=shown(opponent.display_name),
                    )
                )
            if level is not None and not against_computer:
                raise ChallengeError(_("the level is for games against me (the computer) only"))
            if clock is not None and move_time is not None:
                raise ChallengeError(_("choose a clock or a time per move, not both"))
            control = None if clock is None else TimeControl.parse(clock)
            parent = parent_of(interaction)
            terms = ChallengeTerms(
                channel_id=interaction.channel_id,
                challenger=player_of(interaction.user),
                opponent=None if opponent is None else player_of(opponent),
                variant=variant,
                color=color,
                move_time=None if move_time is None else self.presenter.seconds(move_time),
                clock=None if control is None else control.scaled(self.presenter.move_time_scale),
                thread=thread,
                level=level,
                ballot=opening is Opening.BALLOT,
                match=match,
                parent_id=parent,
                min_rating=min_rating,
                max_rating=max_rating,
                start_fen=position,
            )
            await self.issue(interaction, reply, terms)

        await self.presenter.run(interaction, work)

    async def issue(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        terms: ChallengeTerms,
    ) -> None:
        """Post the challenge of ``terms`` as ``reply``, or start the game against me at once
        (in a new thread when the channel needs one): what ``/challenge`` does once its options
        are read, and what an imported game's Play buttons do."""
        thread = bool(terms.get("thread", False))
        opponent = terms["opponent"]
        guild_id = interaction.guild_id
        # A thread that was not asked for is needed because the channel is busy, unless the
        # server plays every game in a thread.
        forced = (await self.service.server_settings(guild_id)).threads == ThreadMode.ALWAYS and (
            terms.get("parent_id") is None
        )
        busy = not thread and not forced
        try:
            needs_thread = await self.service.check_challenge(guild_id=guild_id, **terms)
        except ThreadRequired:  # a game against me, which starts at once
            assert opponent is not None
            home = thread_home(interaction, busy=busy)
            check_room(interaction, new_thread=True)
            await reply.think()
            code = await self.presenter.languages.public(guild_id)
            name = _(
                "{challenger} v {opponent}",
                challenger=interaction.user.display_name,
                opponent=opponent.name,
            )
            room = await open_thread(home, render(name, code))
            terms["thread_id"] = room.id
            result = await self.service.challenge(guild_id=guild_id, **terms)
            delivery = self.presenter.delivery
            send = delivery.channel_sender(room.id, guild_id, result.event)
            await delivery.publish(send, result, answer=post_marker(result))
            assert result.game is not None
            started = _(
                "Game #{id} against me started in {thread}.",
                id=result.game.id,
                thread=room.mention,
            )
            await reply.public(Outgoing(content=render(started, code)))
            return
        if needs_thread:
            # Refuse now, not when the opponent accepts, if no thread can be opened here.
            thread_home(interaction, busy=busy)
        check_room(interaction, new_thread=needs_thread)
        result = await self.service.challenge(guild_id=guild_id, **terms)
        if result.challenge is None:
            await self.presenter.answer(reply, result)
            return
        await self._post_challenge(reply, result)

    @challenge.autocomplete("clock")
    async def clock_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return clock_choices(current, self.presenter.languages.private(interaction))

    async def _post_challenge(self, reply: Reply, result: ActionResult) -> None:
        """The new challenge with its buttons, as this interaction's answer."""
        assert result.challenge is not None
        async with self.presenter.delivery.handing(result):
            await self.presenter.delivery.post_challenge(
                reply.public, result.challenge, result.mentions
            )

    # -- the buttons -------------------------------------------------------------------------

    async def answer_challenge(
        self, interaction: discord.Interaction, answer: ChallengeAnswer, challenge_id: int
    ) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            checked_id(challenge_id, "challenge")
            match answer:
                case ChallengeAnswer.ACCEPT:
                    async with self.accepting(challenge_id):
                        await self._accept(reply, interaction, challenge_id)
                case ChallengeAnswer.DECLINE:
                    result = await self.service.decline(challenge_id, user)
                    closed = result.challenge
                    assert closed is not None
                    code = await self.presenter.languages.public(closed.guild_id)
                    async with self.presenter.delivery.handing(result):
                        await reply.update(embed=challenge_embed(closed, code=code), view=None)
                        said = say(result.text, code)
                        await reply.public(
                            Outgoing(
                                content=f"{mention(closed.challenger)} {said}",
                                mentions=result.mentions,
                            )
                        )
                case ChallengeAnswer.CANCEL:
                    result = await self.service.cancel(challenge_id, user)
                    closed = result.challenge
                    assert closed is not None
                    code = await self.presenter.languages.public(closed.guild_id)
                    async with self.presenter.delivery.handing(result):
                        await reply.update(embed=challenge_embed(closed, code=code), view=None)

        await self.presenter.run(interaction, work)

    @contextlib.asynccontextmanager
    async def accepting(self, challenge_id: int) -> AsyncIterator[None]:
        """One acceptance at a time per challenge in this process, from its message or from
        the lobby (the store decides between processes)."""
        lock = self._accepting.setdefault(challenge_id, asyncio.Lock())
        async with lock:
            yield
        self._accepting.pop(challenge_id, None)

    async def _accept(
        self, reply: Reply, interaction: discord.Interaction, challenge_id: int
    ) -> None:
        user = interaction.user.id
        name = interaction.user.display_name
        # The channel may have changed since the challenge was made: the game must be postable.
        new_thread = await self.service.needs_thread(challenge_id)
        if new_thread:
            asked = (await self.service.challenge_view(challenge_id)).thread
            thread_home(interaction, busy=not asked)
        check_room(interaction, new_thread=new_thread)
        code = await self.presenter.languages.public(interaction.guild_id)
        try:
            result = await self.service.accept(challenge_id, user, name=name)
        except ThreadRequired:
            challenge = await self.service.challenge_view(challenge_id)
            home = thread_home(interaction, busy=not challenge.thread)
            await reply.hold()
            room = await open_thread(home, thread_name(challenge, name, code), interaction.message)
            result = await self.service.accept(challenge_id, user, name=name, thread_id=room.id)
            closed = await self.service.challenge_view(challenge_id)
            embed = challenge_embed(closed, game_channel=room.id, code=code)
            await reply.update(embed=embed, view=None)
            delivery = self.presenter.delivery
            send = delivery.channel_sender(room.id, room.guild.id, result.event)
            await delivery.publish(send, result, answer=post_marker(result))
            return
        closed = await self.service.challenge_view(challenge_id)
        await reply.update(embed=challenge_embed(closed, code=code), view=None)
        await self.presenter.answer(reply, result)

    async def answer_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            parent = parent_of(interaction)
            checked_id(game_id, "game")
            check_room(interaction)
            try:
                result = await self.service.rematch(game_id, user, parent_id=parent)
            except ThreadRequired:
                home = thread_home(interaction, busy=True)
                check_room(interaction, new_thread=True)
                await reply.hold()
                code = await self.presenter.languages.public(interaction.guild_id)
                title = render(_("Rematch of game #{id}", id=game_id), code)
                room = await open_thread(home, title)
                result = await self.service.rematch(
                    game_id, user, thread_id=room.id, parent_id=parent
                )
                delivery = self.presenter.delivery
                send = delivery.channel_sender(room.id, room.guild.id, result.event)
                await delivery.publish(send, result, answer=post_marker(result))
                return
            if result.action is Action.CHALLENGE_CREATED:
                assert result.challenge is not None
                await self._post_challenge(reply, result)
                return
            if result.challenge is not None:  # this press accepted the other player's rematch
                await self.presenter.delivery.show_closed(result.challenge)
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)
