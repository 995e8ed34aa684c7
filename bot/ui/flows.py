"""Every user action and scheduler event, from a Discord interaction to the messages it causes.

The slash commands (:mod:`bot.ui.cogs`) and buttons (:mod:`bot.ui.buttons`) only read their
options and call a method here.  Each method follows the same shape: check with the service
first, answer any refusal privately (nothing changed), defer only what may be slow, act, then
post what everyone should see.  No game rule lives here; the service decides, this module
presents.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from ..errors import (
    ChallengeError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    ServiceError,
    ThreadRequired,
)
from ..results import Action, ActionResult, ChallengeView, GameView, Player
from ..service import GameService
from .buttons import (
    challenge_buttons,
    draw_buttons,
    rematch_buttons,
    resign_buttons,
    takeback_buttons,
)
from .embeds import challenge_embed, game_embed, mention, relative_time
from .media import Media, default_flip
from .replies import Outgoing, Reply, send_to
from .texts import HELP_TEXT, plural, rules_summary

if TYPE_CHECKING:
    from .client import DraughtsBot

log = logging.getLogger(__name__)

MAX_MOVE_TEXT = 100
"""Longer ``/move`` text is refused before it reaches the parser (the longest legal move of any
variant is far shorter)."""
THREAD_ARCHIVE_MINUTES = 10080
MAX_LISTED_GAMES = 20
MAX_MESSAGE = 1900

Send = Callable[[Outgoing], Awaitable[Any]]


def user_error(error: ServiceError) -> str:
    """The refusal as a sentence for the user, with a hint where one helps."""
    reason = error.reason.strip() or "that is not possible now"
    text = reason[0].upper() + reason[1:]
    if not text.endswith((".", "!", "?")):
        text += "."
    if isinstance(error, IllegalMoveError):
        text += " Type `/move` and pick from the suggestions, or see `/moves`."
    elif isinstance(error, NotFoundError) and "channel" in reason:
        text += " Start one with `/challenge`."
    return text


def pings(user_ids: tuple[int, ...]) -> str:
    """Mentions of ``user_ids``, space-separated (they ping only if the message allows it)."""
    return " ".join(f"<@{uid}>" for uid in user_ids)


def player_of(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name)


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel a thread hangs off (None outside threads): a server's list of game channels
    names channels, and their threads count as them."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return None


class Flows:
    """The bot's actions.  One instance, owned by :class:`~bot.ui.client.DraughtsBot`."""

    def __init__(
        self, bot: DraughtsBot, service: GameService, media: Media, move_time_scale: float
    ) -> None:
        self.bot = bot
        self.service = service
        self.media = media
        self.move_time_scale = move_time_scale
        self._challenge_locks: dict[int, asyncio.Lock] = {}
        self._in_flight: set[asyncio.Task[Any]] = set()

    # -- plumbing ----------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _answering(self, reply: Reply) -> AsyncIterator[None]:
        """Turn refusals into a private answer (and no log noise); anything else is a bug,
        logged with its traceback, and the user is told without details."""
        if self.bot.closing:
            await reply.private("I am restarting; try again in a moment.")
            raise _Stop
        try:
            yield
        except ServiceError as error:
            with contextlib.suppress(discord.HTTPException):
                await reply.private(user_error(error))
        except discord.HTTPException as error:
            log.warning("Discord refused a request: %s", error)
            with contextlib.suppress(discord.HTTPException):
                await reply.private("Discord refused one of my messages; please try again.")
        except Exception:
            log.exception("interaction %s failed", reply.interaction.id)
            with contextlib.suppress(discord.HTTPException):
                await reply.private("Sorry, something went wrong on my side. Please try again.")

    async def run(self, interaction: discord.Interaction, work: Callable[[Reply], Any]) -> None:
        """Run one interaction's ``work`` with the refusal handling of :meth:`_answering`,
        counted as in flight until it has posted everything (see :meth:`drain`)."""
        reply = Reply(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            with contextlib.suppress(_Stop):
                async with self._answering(reply):
                    await work(reply)
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the interactions still posting, so a shutdown
        does not cut a game's last messages (its record, its replay) off mid-send."""
        pending = [t for t in self._in_flight if t is not asyncio.current_task()]
        if pending:
            log.info("waiting for %d interaction(s) to finish", len(pending))
            await asyncio.wait(pending, timeout=timeout)

    def seconds(self, move_time: int) -> int:
        """A chosen time per move as the bot runs it (tests shrink times with a scale)."""
        return max(1, round(move_time * self.move_time_scale))

    # -- building messages ---------------------------------------------------------------------

    async def game_message(
        self,
        view: GameView,
        headline: str,
        mentions: tuple[int, ...],
        flip: bool | None = None,
        record: tuple[str, str] | None = None,
    ) -> Outgoing:
        """The board message of ``view``; a finished game adds its PDN (``record``, the
        service's ``(file name, text)``, read here if not given) and a Rematch button."""
        png = await self.media.board(view, flip)
        image = f"game-{view.id}-{view.ply}.png"
        out = Outgoing(
            embed=game_embed(view, headline, image),
            files=[(image, png)],
            mentions=mentions,
        )
        if view.running and view.to_move is not None and view.to_move.id in mentions:
            out.content = f"{mention(view.to_move)}, your move."
        elif mentions:
            out.content = pings(mentions)
        if not view.running:
            name, text = record or await self.service.pdn(game_id=view.id)
            out.files.append((name, text.encode()))
            if view.status == "finished" and view.match_game != 1:
                out.view = rematch_buttons(view.id)
        return out

    async def publish(self, send: Send, result: ActionResult) -> None:
        """Post what ``result`` changed for everyone: the board after a move, the result and
        record after the end, otherwise the sentence."""
        view = result.game
        if view is not None and (result.post_board or not view.running):
            record = None if view.running else await self.service.pdn(game_id=view.id)
            await send(await self.game_message(view, result.text, result.mentions, record=record))
            if record is not None and view.status == "finished":
                await self._send_replay(send, view, record[1])
        else:
            content = f"{pings(result.mentions)} {result.text}".strip()
            await send(Outgoing(content=content, mentions=result.mentions))
        if result.follow_up is not None:  # a match's second game, in the same channel
            await self.publish(send, result.follow_up)

    async def _send_replay(self, send: Send, view: GameView, pdn_text: str) -> None:
        """The animated replay of a finished game (rendered in a worker process)."""
        try:
            replay = await self.media.replay(pdn_text, flip=False)
        except Exception:
            log.exception("the replay of game %s could not be made", view.id)
            return
        caption = f"Replay of game #{view.id}."
        if replay.note:
            caption += f" {replay.note}"
        await send(Outgoing(content=caption, files=[(f"game-{view.id}.gif", replay.data)]))

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.abc.Messageable:
        """Where to post about a game without an interaction (scheduler, start-up): a partial
        channel needs no cache, so threads work after a restart too."""
        known = self.bot.get_channel(channel_id)
        if isinstance(known, discord.abc.Messageable):
            return known
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    # -- threads -------------------------------------------------------------------------------

    def _thread_home(self, interaction: discord.Interaction, busy: bool) -> discord.TextChannel:
        """The channel a new game thread can hang off, or a refusal saying why there is none.
        ``busy``: the thread is needed because this channel already has a game (otherwise it
        was asked for, or the server plays every game in a thread)."""
        why = "a game is already running here" if busy else "the game needs its own thread"
        channel = interaction.channel
        if isinstance(channel, discord.Thread) or (
            channel is not None
            and getattr(channel, "type", None)
            in (discord.ChannelType.public_thread, discord.ChannelType.private_thread)
        ):
            if busy:
                raise ChallengeError(
                    "a game is already running in this thread and a thread cannot hold another "
                    "thread: start the game from a channel"
                )
            raise ChallengeError(
                "this is a thread already: leave out `thread` to play here, or challenge from a "
                "channel"
            )
        if not isinstance(channel, discord.TextChannel):
            raise ChallengeError(f"{why}, and I can only open game threads in text channels")
        perms = interaction.app_permissions
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            raise ChallengeError(
                f"{why}, but I lack the Create Public Threads and Send Messages in Threads "
                "permissions in this channel to open a thread for the game"
            )
        return channel

    @staticmethod
    async def _open_thread(
        home: discord.TextChannel, name: str, message: discord.Message | None = None
    ) -> discord.Thread:
        name = name[:100]
        if message is not None:
            return await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        return await home.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )

    # -- /challenge and its buttons ------------------------------------------------------------

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User,
        variant: str | None,
        color: str,
        move_time: int | None,
        thread: bool,
        level: int | None,
        opening: str = "none",
        match: bool = False,
    ) -> None:
        async def work(reply: Reply) -> None:
            bot_user = self.bot.user
            assert bot_user is not None and interaction.channel_id is not None
            against_computer = opponent.id == bot_user.id
            if opponent.bot and not against_computer:
                raise ChallengeError(
                    f"{opponent.display_name} is a bot; to play the computer, challenge me"
                )
            if level is not None and not against_computer:
                raise ChallengeError("the level is for games against me (the computer) only")
            terms: dict[str, Any] = {
                "channel_id": interaction.channel_id,
                "challenger": player_of(interaction.user),
                "opponent": player_of(opponent),
                "variant": variant,
                "color": color,
                "move_time": None if move_time is None else self.seconds(move_time),
                "thread": thread,
                "level": level,
                "ballot": opening == "ballot",
                "match": match,
                "parent_id": parent_of(interaction),
            }
            guild_id = interaction.guild_id
            # A thread that was not asked for is needed because the channel is busy, unless the
            # server plays every game in a thread.
            forced = (await self.service.settings.get(guild_id)).threads == "always" and (
                parent_of(interaction) is None
            )
            busy = not thread and not forced
            try:
                needs_thread = await self.service.check_challenge(guild_id=guild_id, **terms)
            except ThreadRequired:
                home = self._thread_home(interaction, busy=busy)
                await reply.think()
                name = f"{interaction.user.display_name} v {opponent.display_name}"
                room = await self._open_thread(home, name)
                result = await self.service.challenge(guild_id=guild_id, thread_id=room.id, **terms)
                await self.publish(lambda out: send_to(room, out), result)
                assert result.game is not None
                await reply.public(
                    Outgoing(
                        content=f"Game #{result.game.id} against me started in {room.mention}."
                    )
                )
                return
            if needs_thread:
                # Refuse now, not when the opponent accepts, if no thread can be opened here.
                self._thread_home(interaction, busy=busy)
            if against_computer:
                await reply.think()  # the computer may move first
            result = await self.service.challenge(guild_id=guild_id, **terms)
            if result.challenge is None:
                await self.publish(reply.public, result)
                return
            out = self._challenge_message(result.challenge, result.mentions)
            message_id = await reply.public(out)
            if message_id is not None:
                await self.service.set_challenge_message(result.challenge.id, message_id)

        await self.run(interaction, work)

    @staticmethod
    def _challenge_message(challenge: ChallengeView, mentions: tuple[int, ...]) -> Outgoing:
        return Outgoing(
            content=f"{mention(challenge.opponent)}, you have been challenged!",
            embed=challenge_embed(challenge),
            view=challenge_buttons(challenge.id),
            mentions=mentions,
        )

    async def challenge_button(
        self, interaction: discord.Interaction, action: str, challenge_id: int
    ) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            if action == "decline":
                result = await self.service.decline(challenge_id, user)
            elif action == "cancel":
                result = await self.service.cancel(challenge_id, user)
            else:
                lock = self._challenge_locks.setdefault(challenge_id, asyncio.Lock())
                async with lock:
                    await self._accept(reply, interaction, challenge_id)
                self._challenge_locks.pop(challenge_id, None)
                return
            assert result.challenge is not None
            await reply.update(embed=challenge_embed(result.challenge), view=None)
            if action == "decline":
                await reply.public(
                    Outgoing(
                        content=f"{mention(result.challenge.challenger)} {result.text}",
                        mentions=result.mentions,
                    )
                )

        await self.run(interaction, work)

    async def _accept(
        self, reply: Reply, interaction: discord.Interaction, challenge_id: int
    ) -> None:
        user = interaction.user.id
        try:
            result = await self.service.accept(challenge_id, user)
        except ThreadRequired:
            challenge = await self.service.challenge_view(challenge_id)
            home = self._thread_home(interaction, busy=not challenge.thread)
            await reply.hold()
            name = f"{challenge.challenger.name} v {challenge.opponent.name}"
            room = await self._open_thread(home, name, interaction.message)
            result = await self.service.accept(challenge_id, user, thread_id=room.id)
            closed = await self.service.challenge_view(challenge_id)
            await reply.update(embed=challenge_embed(closed, game_channel=room.id), view=None)
            await self.publish(lambda out: send_to(room, out), result)
            return
        closed = await self.service.challenge_view(challenge_id)
        await reply.update(embed=challenge_embed(closed), view=None)
        await self.publish(reply.public, result)

    async def rematch_button(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            parent = parent_of(interaction)
            try:
                result = await self.service.rematch(game_id, user, parent_id=parent)
            except ThreadRequired:
                home = self._thread_home(interaction, busy=True)
                await reply.hold()
                room = await self._open_thread(home, f"Rematch of game #{game_id}")
                result = await self.service.rematch(
                    game_id, user, thread_id=room.id, parent_id=parent
                )
                await self.publish(lambda out: send_to(room, out), result)
                return
            if result.action is Action.CHALLENGE_CREATED:
                assert result.challenge is not None
                message_id = await reply.public(
                    self._challenge_message(result.challenge, result.mentions)
                )
                if message_id is not None:
                    await self.service.set_challenge_message(result.challenge.id, message_id)
                return
            if result.challenge is not None:  # this press accepted the other player's rematch
                await self._show_closed(result.challenge)
            await self.publish(reply.public, result)

        await self.run(interaction, work)

    async def _show_closed(self, challenge: ChallengeView) -> None:
        """Take the buttons off a challenge's message once it is answered elsewhere or expired."""
        if challenge.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        message = channel.get_partial_message(challenge.message_id)
        try:
            await message.edit(embed=challenge_embed(challenge), view=None)
        except discord.HTTPException as exc:  # deleted meanwhile: nothing left to update
            log.info("challenge %s message not updated: %s", challenge.id, exc)

    # -- moves ---------------------------------------------------------------------------------

    async def move(self, interaction: discord.Interaction, text: str) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            user = interaction.user.id
            if len(text) > MAX_MOVE_TEXT:
                raise IllegalMoveError("that is far too long to be a move")

            async def valid(view: GameView) -> None:
                if view.computer_id is not None:
                    await reply.think()  # the computer answers in the same message

            result = await self.service.move(
                user, text, channel_id=interaction.channel_id, on_valid=valid
            )
            await self.publish(reply.public, result)

        await self.run(interaction, work)

    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None or self.bot.closing:
            return []
        try:
            choices = await self.service.legal_moves(
                interaction.channel_id, interaction.user.id, current[:MAX_MOVE_TEXT]
            )
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=c.name[:100], value=c.value) for c in choices]

    async def board(self, interaction: discord.Interaction, flip: bool) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view = await self._channel_game(interaction.channel_id)
            assert view.to_move is not None
            headline = f"Move {view.move_number}: {view.to_move.name} to move."
            side = default_flip(view) != flip  # the option shows the other side
            await reply.public(await self.game_message(view, headline, (), flip=side))

        await self.run(interaction, work)

    async def _channel_game(self, channel_id: int) -> GameView:
        view = await self.service.game_in(channel_id)
        if view is None:
            raise NotFoundError("there is no game running in this channel")
        return view

    async def moves(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view, moves = await self.service.move_list(interaction.channel_id)
            assert view.to_move is not None
            listed = ", ".join(f"`{m}`" for m in moves)
            if len(listed) > MAX_MESSAGE:
                listed = listed[: listed.rfind(",", 0, MAX_MESSAGE)] + ", …"
            captures = " (capturing is compulsory)" if moves and "x" in moves[0] else ""
            await reply.private(
                f"{view.to_move.name} ({view.turn.capitalize()}) has "
                f"{plural(len(moves), 'legal move')}{captures}: {listed}"
            )

        await self.run(interaction, work)

    # -- draws, resignation, abort -------------------------------------------------------------

    async def draw(self, interaction: discord.Interaction, action: str) -> None:
        async def work(reply: Reply) -> None:
            channel, user = interaction.channel_id, interaction.user.id
            if action == "offer":
                result = await self.service.offer_draw(user, channel_id=channel)
            elif action == "accept":
                result = await self.service.accept_draw(user, channel_id=channel)
            else:
                result = await self.service.decline_draw(user, channel_id=channel)
            await self._post_draw(reply, result)

        await self.run(interaction, work)

    async def _post_draw(self, reply: Reply, result: ActionResult) -> None:
        if result.action is Action.DRAW_OFFERED:
            assert result.game is not None
            await reply.public(
                Outgoing(
                    content=f"{pings(result.mentions)} {result.text}".strip(),
                    view=draw_buttons(result.game.id),
                    mentions=result.mentions,
                )
            )
            return
        await self.publish(reply.public, result)

    async def draw_button(
        self, interaction: discord.Interaction, action: str, game_id: int
    ) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            if action == "accept":
                result = await self.service.accept_draw(user, game_id=game_id)
                await reply.update(content=f"{result.text}", view=None)
                await self.publish(reply.public, result)
            else:
                result = await self.service.decline_draw(user, game_id=game_id)
                await reply.update(content=result.text, view=None)

        await self.run(interaction, work)

    async def resign(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            assert interaction.channel_id is not None
            view = await self._channel_game(interaction.channel_id)
            me = interaction.user.id
            if me not in (view.white.id, view.black.id):
                raise NotAPlayerError(
                    f"you are not playing in this game ({view.white.name} v {view.black.name})"
                )
            other = view.black if me == view.white.id else view.white
            await reply.private(
                f"Resign game #{view.id} against {other.name}? This cannot be undone.",
                view=resign_buttons(view.id),
            )

        await self.run(interaction, work)

    async def resign_button(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            result = await self.service.resign(interaction.user.id, game_id=game_id)
            await reply.update(content=f"You resigned game #{game_id}.", view=None)
            await self.publish(reply.public, result)

        await self.run(interaction, work)

    # -- takebacks -----------------------------------------------------------------------------

    async def takeback(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            result = await self.service.request_takeback(
                interaction.user.id, channel_id=interaction.channel_id
            )
            await self._post_takeback(reply, result)

        await self.run(interaction, work)

    async def _post_takeback(self, reply: Reply, result: ActionResult) -> None:
        if result.action is Action.TAKEBACK_OFFERED:
            assert result.game is not None
            await reply.public(
                Outgoing(
                    content=f"{pings(result.mentions)} {result.text}".strip(),
                    view=takeback_buttons(result.game.id, result.game.ply),
                    mentions=result.mentions,
                )
            )
            return
        await self.publish(reply.public, result)

    async def takeback_button(
        self, interaction: discord.Interaction, action: str, game_id: int, ply: int
    ) -> None:
        async def work(reply: Reply) -> None:
            result = await self.service.answer_takeback(
                interaction.user.id, action == "accept", game_id=game_id, expected_ply=ply
            )
            await reply.update(content=result.text, view=None)
            if result.action is Action.TAKEBACK_ACCEPTED:
                await self.publish(reply.public, result)

        await self.run(interaction, work)

    async def abort(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            perms = interaction.permissions
            result = await self.service.abort(
                interaction.user.id,
                is_moderator=perms.manage_messages or perms.administrator,
                channel_id=interaction.channel_id,
            )
            await self.publish(reply.public, result)

        await self.run(interaction, work)

    # -- information ---------------------------------------------------------------------------

    async def pdn(self, interaction: discord.Interaction, game_id: int | None) -> None:
        async def work(reply: Reply) -> None:
            name, text = await self.service.pdn(
                game_id=game_id,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                check_guild=True,
            )
            await reply.private_file(
                f"The record of {name.removesuffix('.pdn')}.", name, text.encode()
            )

        await self.run(interaction, work)

    async def games(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            views = await self.service.games(interaction.guild_id)
            if not views:
                await reply.private(
                    "No games are running in this server. Start one with `/challenge`."
                )
                return
            lines = []
            for v in views[:MAX_LISTED_GAMES]:
                assert v.to_move is not None
                line = (
                    f"**#{v.id}** {v.white.name} v {v.black.name} · {v.variant_title} · "
                    f"<#{v.channel_id}> · move {v.move_number}, {v.to_move.name} to move"
                )
                if v.deadline is not None:
                    line += f" (due {relative_time(v.deadline)})"
                lines.append(line)
            if len(views) > MAX_LISTED_GAMES:
                lines.append(f"… and {len(views) - MAX_LISTED_GAMES} more.")
            embed = discord.Embed(
                title=f"Running games ({len(views)})", description="\n".join(lines)
            )
            await reply.private_embed(embed)

        await self.run(interaction, work)

    async def rules(self, interaction: discord.Interaction, variant: str) -> None:
        async def work(reply: Reply) -> None:
            title, lines = rules_summary(variant)
            embed = discord.Embed(title=title, description="\n".join(f"• {x}" for x in lines))
            embed.set_footer(
                text="Notation: squares are numbered on the board image; "
                "11-15 is a step, 22x15 a capture."
            )
            await reply.private_embed(embed)

        await self.run(interaction, work)

    async def help(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.private_embed(discord.Embed(title="How to play", description=HELP_TEXT))

        await self.run(interaction, work)

    # -- without an interaction ----------------------------------------------------------------

    async def on_event(self, result: ActionResult) -> None:
        """A scheduler event (or a computer move made at start-up), posted in its channel."""
        if result.action is Action.CHALLENGE_EXPIRED:
            if result.challenge is not None:
                await self._show_closed(result.challenge)
            return
        view = result.game
        if view is None:
            return
        channel = self.channel(view.channel_id, view.guild_id)
        if result.action is Action.REMINDER:
            assert view.to_move is not None and view.deadline is not None
            await send_to(
                channel,
                Outgoing(
                    content=(
                        f"{mention(view.to_move)}, it is your move in game #{view.id}: half of "
                        f"your time has passed; the game is lost on time "
                        f"{relative_time(view.deadline)}."
                    ),
                    mentions=result.mentions,
                ),
            )
            return
        await self.publish(lambda out: send_to(channel, out), result)


class _Stop(Exception):
    """The bot is shutting down; the interaction has been told."""
