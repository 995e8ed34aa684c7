"""How the bot answers and what it posts, shared by every command and button.

Each command's work runs through :meth:`Presenter.run`, which turns a refusal into a private
answer (nothing changed, no traceback in the log) and counts the work as in flight until it has
posted everything, so a shutdown can wait for it (:meth:`Presenter.drain`).  What a result
changed is shown the same way whatever caused it, a command, a button or the scheduler
(:meth:`Presenter.publish`).  No game rule lives here: the service decides, this presents.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import discord

from ..enums import GameStatus
from ..errors import NotFoundError, ServiceError
from ..i18n import Arg, Text, _, as_text, join, render, verbatim
from ..results import Action, ActionResult, ChallengeView, GameView, Player
from ..service import GameService
from .boards import Boards, pings, replay_alt
from .buttons import Buttons
from .embeds import challenge_embed, mention, relative_time
from .languages import Languages
from .media import Media
from .replies import Outgoing, Reply, Upload
from .wording import guild_of, say, user_error

__all__ = [
    "Connection",
    "PostedLater",
    "Presenter",
    "nonce",
    "parent_of",
    "player_of",
    "user_error",
]

log = logging.getLogger(__name__)

LOADING = 1 << 7
"""Message flag of a deferred answer still showing "thinking…"."""

Send = Callable[[Outgoing], Awaitable[Any]]
"""Where a message goes: an interaction's answer, or a channel."""
Work = Callable[[Reply], Awaitable[None]]
"""One interaction's work, given the interaction's :class:`Reply`."""


class Connection(Protocol):
    """What the Discord layer needs of the client: who the bot is, and where it can post
    without an interaction (a :class:`discord.Client` is one)."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> object: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    @property
    def application_id(self) -> int | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...


def player_of(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name)


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel a thread hangs off (None outside threads): a server's list of game channels
    names channels, and their threads count as them."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return None


class Presenter:
    """One per client, handed to every command group and to the scheduler's events.  Each
    message goes out in its reader's language (``languages``): an interaction's private answer
    in the user's (:attr:`Reply.language`), a public post in the server's, a direct message in
    the recipient's."""

    def __init__(
        self,
        service: GameService,
        media: Media,
        connection: Connection,
        buttons: Buttons,
        *,
        languages: Languages,
        closing: Callable[[], bool],
        move_time_scale: float,
    ) -> None:
        self.service = service
        self.media = media
        self.connection = connection
        self.buttons = buttons
        self.languages = languages
        self.boards = Boards(service, media, buttons, connection, languages)
        self._closing = closing
        self.move_time_scale = move_time_scale
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._delivery_locks: dict[tuple[str, object], asyncio.Lock] = {}

    @property
    def closing(self) -> bool:
        """The bot is shutting down: new work is turned away."""
        return self._closing()

    # -- answering an interaction ----------------------------------------------------------

    async def run(self, interaction: discord.Interaction, work: Work) -> None:
        """Run one interaction's ``work`` with the refusal handling of :meth:`_answering`,
        counted as in flight until it has posted everything (see :meth:`drain`)."""
        self.languages.note(interaction)  # the server's language, even for its first message
        reply = Reply(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            with contextlib.suppress(_Stop):
                async with self._answering(reply):
                    await work(reply)
            await self._remember_locales(interaction)
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _remember_locales(self, interaction: discord.Interaction) -> None:
        """Store the locales the interaction came with, for the messages sent later without
        one (after its answer, so nobody waits for it; a failure only costs a language guess)."""
        try:
            await self.languages.seen(interaction)
        except Exception as exc:
            log.warning("could not store the locales of an interaction: %s", exc or type(exc))

    @contextlib.asynccontextmanager
    async def _answering(self, reply: Reply) -> AsyncIterator[None]:
        """Turn refusals into a private answer (and no log noise); anything else is a bug,
        logged with its traceback, and the user is told without details."""
        if self.closing:
            await reply.private(_("I am restarting; try again in a moment."))
            raise _Stop
        try:
            yield
        except ServiceError as error:
            with contextlib.suppress(discord.HTTPException):
                await reply.private(user_error(error, reply.language))
        except PostedLater as error:
            log.warning("Discord refused an answer (%s); it is posted in the channel", error)
            with contextlib.suppress(discord.HTTPException):
                await reply.private(PostedLater.TEXT)
        except discord.HTTPException as error:
            log.warning("Discord refused a request: %s", error)
            with contextlib.suppress(discord.HTTPException):
                await reply.private(_("Discord refused one of my messages; please try again."))
        except Exception:
            log.exception("interaction %s failed", reply.interaction.id)
            with contextlib.suppress(discord.HTTPException):
                await reply.private(_("Sorry, something went wrong on my side. Please try again."))

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

    async def channel_game(self, channel_id: int) -> GameView:
        """The game running in ``channel_id``, or the refusal saying there is none."""
        view = await self.service.game_in(channel_id)
        if view is None:
            raise NotFoundError(_("there is no game running in this channel"))
        return view

    # -- what everyone sees ----------------------------------------------------------------

    async def answer(self, reply: Reply, result: ActionResult) -> None:
        """:meth:`publish` ``result`` as the interaction's public answer.  When the answer is the
        interaction's own message, its token is kept with the announcement while the answer is
        on its way: if the process dies meanwhile, the next one asks Discord whether the answer
        arrived (:meth:`_answer_arrived`) instead of posting it a second time."""
        guild_id = reply.interaction.guild_id
        if result.event is None or not reply.answers_in_original:
            await self.publish(reply.public, result, guild_id=guild_id)
            return
        # Written while the answer is drawn and sent, not before: should the process die before
        # the token is stored, the next one posts the answer again, as it would without it.
        keeping = asyncio.ensure_future(
            self.service.outbox.answering(result.event, reply.interaction.token)
        )
        try:
            await self.publish(reply.public, result, guild_id=guild_id)
        finally:
            try:
                await keeping
            except Exception:
                log.exception("the token of announcement %s was not kept", result.event)

    async def public_language(self, result: ActionResult, guild_id: int | None = None) -> str:
        """The language ``result`` is posted in: its server's (``guild_id`` where the result
        names no game or challenge)."""
        guild = guild_of(result) if result.game or result.challenge else guild_id
        return await self.languages.public(guild)

    async def publish(
        self, send: Send, result: ActionResult, *, guild_id: int | None = None
    ) -> None:
        """Post what ``result`` changed for everyone, in the server's language: the board after
        a move, the result and record after the end, otherwise the sentence; its announcement is
        then delivered (with the direct messages that go with it).  When the action set the
        computer thinking, its reply follows in the channel (after this answer, even a failed
        one, so the channel reads in order)."""
        try:
            async with self.handing(result):
                await self._show(send, result, guild_id)
                await self._send_dms(result)
        finally:
            if result.game is not None and result.game.computer_id is not None:
                task = asyncio.create_task(self._computer_reply(result.game.id))
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)

    async def _computer_reply(self, game_id: int) -> None:
        """Post the computer's reply claimed by an action just shown (in the background: no
        answer waits for a search; :meth:`drain` waits for the post)."""
        reply = await self.service.computer_reply(game_id)
        if reply is None:
            return
        try:
            await self.on_event(reply)
        except Exception:  # it stays owed; the scheduler posts it
            log.exception("the computer's reply in game %s could not be posted", game_id)

    async def _show(self, send: Send, result: ActionResult, guild_id: int | None = None) -> None:
        view = result.game
        code = await self.public_language(result, guild_id)
        if view is not None and (result.post_board or not view.running):
            record = None if view.running else await self.service.pdn(game_id=view.id)
            sent = await send(
                await self.boards.message(view, result.text, result.mentions, record=record)
            )
            await self.boards.posted(view, sent)
            if record is not None and view.status == GameStatus.FINISHED:
                await self._send_replay(send, view, record[1], code)
        else:
            content = f"{pings(result.mentions)} {say(result.text, code)}".strip()
            await send(Outgoing(content=content, mentions=result.mentions))
        if result.follow_up is not None:  # a match's second game, in the same channel
            try:
                await self._show(send, result.follow_up, guild_id)
            except Exception as exc:  # the first part was shown: only the rest is owed
                raise _ShownInPart(result.follow_up) from exc

    async def _send_replay(self, send: Send, view: GameView, pdn_text: str, code: str) -> None:
        """The animated replay of a finished game (rendered in a worker process), in the
        language ``code``."""
        try:
            replay = await self.media.replay(pdn_text, flip=False, code=code)
        except Exception:
            log.exception("the replay of game %s could not be made", view.id)
            return
        caption = render(_("Replay of game #{id}.", id=view.id), code)
        if replay.note:
            caption += f" {say(replay.note, code)}"
        ending = join((verbatim(view.result or ""), as_text(view.termination or "")))
        try:
            await send(
                Outgoing(
                    content=caption,
                    files=[
                        Upload(
                            f"game-{view.id}.gif",
                            replay.data,
                            replay_alt(view.id, view.white.name, view.black.name, ending, code),
                        )
                    ],
                    part=f"replay-{view.id}",
                )
            )
        except discord.HTTPException as exc:  # a nicety: the result is shown; /replay makes it
            log.warning("the replay of game %s was not posted: %s", view.id, exc)

    # -- without an interaction ------------------------------------------------------------

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.abc.Messageable:
        """Where to post about a game without an interaction (scheduler, start-up): a partial
        channel needs no cache, so threads work after a restart too."""
        known = self.connection.get_channel(channel_id)
        if isinstance(known, discord.abc.Messageable):
            return known
        return self.connection.get_partial_messageable(channel_id, guild_id=guild_id)

    async def show_closed(self, challenge: ChallengeView) -> None:
        """Take the buttons off a challenge's message once it is answered elsewhere or expired."""
        if challenge.message_id is None:
            return
        channel = self.connection.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        message = channel.get_partial_message(challenge.message_id)
        code = await self.languages.public(challenge.guild_id)
        try:
            await message.edit(embed=challenge_embed(challenge, code=code), view=None)
        except discord.HTTPException as exc:  # deleted meanwhile: nothing left to update
            log.info("challenge %s message not updated: %s", challenge.id, exc)

    async def post_challenge(
        self, send: Send, challenge: ChallengeView, mentions: tuple[int, ...]
    ) -> None:
        """The open challenge with its buttons, in the server's language, remembered so its
        buttons can be taken off when it is answered elsewhere or expires."""
        code = await self.languages.public(challenge.guild_id)
        called = _("{opponent}, you have been challenged!", opponent=mention(challenge.opponent))
        out = Outgoing(
            content=render(called, code),
            embed=challenge_embed(challenge, code=code),
            view=self.buttons.challenge(challenge.id, code),
            mentions=mentions,
        )
        message_id = await send(out)
        if isinstance(message_id, discord.Message):
            message_id = message_id.id
        if isinstance(message_id, int):
            await self.service.set_challenge_message(challenge.id, message_id)

    async def on_event(self, result: ActionResult) -> None:
        """A scheduler event or a computer reply nobody claimed, posted in its channel.  A post
        Discord refuses stays owed and is retried (a warning, not an error: a channel may well
        refuse for a while)."""
        try:
            async with self.handing(result):
                await self._post(result)
        except PostedLater as refused:
            log.warning("announcement %s not delivered (%s); will retry", result.event, refused)

    # -- announcements owed: the outbox ----------------------------------------------------

    @contextlib.asynccontextmanager
    async def handing(self, result: ActionResult) -> AsyncIterator[None]:
        """Deliver ``result``'s announcement by the body of the ``with``: older announcements of
        the same game still owed go first (in the channel), and the entry is marked delivered
        when the body succeeds, or kept with the message for a later post when it fails (raising
        :class:`PostedLater`: the change stands, so the user must not be told to try again)."""
        event = result.event
        if event is None:
            yield
            return
        async with self._delivery_lock(result):
            game = result.game
            if game is not None and self.service.outbox.may_owe(game.id):
                await self._deliver_owed(game_id=game.id, skip=event, covered=True)
            try:
                yield
            except _ShownInPart as part:
                with contextlib.suppress(Exception):
                    game_id = None if game is None else game.id
                    await self.service.outbox.failed(event, part.rest, game_id=game_id)
                raise PostedLater(str(part.__cause__)) from part.__cause__
            except Exception as exc:
                with contextlib.suppress(Exception):
                    await self.service.outbox.failed(event, result)
                raise PostedLater(str(exc)) from exc
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.service.outbox.failed(event, result)
                raise
            await self.service.outbox.delivered(event)

    def _delivery_lock(self, result: ActionResult) -> asyncio.Lock:
        key: tuple[str, object]
        if result.game is not None:
            key = ("game", result.game.id)
        elif result.challenge is not None:
            key = ("challenge", result.challenge.id)
        else:
            key = ("event", result.event or "")
        lock = self._delivery_locks.get(key)
        if lock is None:
            lock = self._delivery_locks[key] = asyncio.Lock()
        return lock

    async def deliver_owed(self) -> int:
        """Post the announcements still owed (a failed answer, a failed post, a restart
        between a change and its announcement), oldest first; how many were posted."""
        return await self._deliver_owed()

    async def _deliver_owed(
        self, *, game_id: int | None = None, skip: str | None = None, covered: bool = False
    ) -> int:
        posted = 0
        for owed in await self.service.outbox.owed(game_id=game_id, covered=covered):
            if owed.event == skip:
                continue
            if owed.result is None:
                await self.service.outbox.delivered(owed.event)
                continue
            if owed.answer_token is not None and await self._answer_arrived(owed.answer_token):
                await self.service.outbox.delivered(owed.event)
                continue
            try:
                await self._post(owed.result)
            except Exception as exc:
                log.warning("announcement %s not delivered (%s); will retry", owed.event, exc)
                await self.service.outbox.failed(
                    owed.event, owed.result, owed.attempts + 1, game_id=owed.game_id
                )
                if game_id is not None:
                    break  # keep the game's order: its later announcements wait
                continue
            await self.service.outbox.delivered(owed.event)
            posted += 1
        else:  # nothing of the game was left behind
            if game_id is not None:
                self.service.outbox.settled(game_id)
        return posted

    async def _answer_arrived(self, token: str) -> bool:
        """Whether the interaction answer of ``token`` reached the channel (its message exists
        and is not a "thinking…" placeholder).  When Discord cannot say, the announcement is
        posted: a repeat is better than a loss."""
        route = discord.http.Route(
            "GET",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=self.connection.application_id,
            webhook_token=token,
        )
        try:
            message = await self.connection.http.request(route)
        except discord.HTTPException as exc:
            log.info("an earlier answer could not be looked up (%s); posting it", exc.status)
            return False
        return not int(message.get("flags") or 0) & LOADING

    async def _post(self, result: ActionResult) -> None:
        """Post ``result`` in its channel, without an interaction.  Each message carries a
        nonce made from its announcement, so a post repeated after a lost answer from Discord
        is not shown twice."""
        if result.challenge is not None and result.game is None:
            challenge = result.challenge
            if result.action is Action.CHALLENGE_CREATED:
                send = self._channel_sender(challenge.channel_id, challenge.guild_id, result.event)
                await self.post_challenge(send, challenge, result.mentions)
                return
            await self.show_closed(challenge)
            if result.action is not Action.CHALLENGE_EXPIRED:
                send = self._channel_sender(challenge.channel_id, challenge.guild_id, result.event)
                code = await self.languages.public(challenge.guild_id)
                content = f"{pings(result.mentions)} {say(result.text, code)}".strip()
                await send(Outgoing(content=content, mentions=result.mentions))
            return
        view = result.game
        if view is None:
            return
        send = self._channel_sender(view.channel_id, view.guild_id, result.event)
        if result.action in (Action.REMINDER, Action.LAST_WARNING):
            assert view.to_move is not None and view.deadline is not None
            code = await self.languages.public(view.guild_id)
            await send(
                Outgoing(content=render(reminder(result, view), code), mentions=result.mentions)
            )
        else:
            await self._show(send, result)
        await self._send_dms(result)

    async def _send_dms(self, result: ActionResult) -> None:
        """The direct messages that go with ``result`` (to players who asked for them), each
        with a link to the game.  A nicety next to the channel's message: one Discord refuses
        (DMs closed, or any other failure) is logged and not retried, so it never holds up or
        repeats the announcement itself."""
        for dm in result.dms:
            where = dm.guild_id if dm.guild_id is not None else "@me"
            try:
                code = await self.languages.direct(dm.user_id)
            except Exception:  # a nicety: in English rather than not at all
                log.exception("the language of user %s could not be read", dm.user_id)
                code = "en"
            text = f"{say(dm.text, code)}\nhttps://discord.com/channels/{where}/{dm.channel_id}"
            kwargs = Outgoing(content=text).send_kwargs()
            if result.event is not None:
                kwargs["nonce"] = nonce(result.event, f"dm-{dm.user_id}")
            try:
                channel = await self.connection.create_dm(discord.Object(id=dm.user_id))
                await channel.send(**kwargs)
            except discord.HTTPException as exc:
                log.info(
                    "no direct message to user %s about game %s: %s", dm.user_id, dm.game_id, exc
                )

    def _channel_sender(self, channel_id: int, guild_id: int | None, event: str | None) -> Send:
        """A :data:`Send` posting in a channel, each message with its own nonce."""
        channel = self.channel(channel_id, guild_id)
        numbers = itertools.count()

        async def send(out: Outgoing) -> discord.Message:
            kwargs = out.send_kwargs()
            if event is not None:
                kwargs["nonce"] = nonce(event, out.part or f"#{next(numbers)}")
            return await channel.send(**kwargs)

        return send


def reminder(result: ActionResult, view: GameView) -> Text:
    """The scheduler's reminder (half the time gone) or last warning to the player to move."""
    assert view.to_move is not None and view.deadline is not None
    args: dict[str, Arg] = {
        "player": mention(view.to_move),
        "id": view.id,
        "deadline": relative_time(view.deadline),
    }
    if result.action is Action.REMINDER:
        return _(
            "{player}, it is your move in game #{id}: half of your time has passed; "
            "the game is lost on time {deadline}.",
            **args,
        )
    return _(
        "{player}, it is your move in game #{id}: this is your last warning; "
        "the game is lost on time {deadline}.",
        **args,
    )


def nonce(event: str, part: str) -> str:
    """The nonce of one message of an announcement: the same for a repost of that message (so
    Discord shows it once), distinct for its other messages; 24 characters (Discord takes 25)."""
    digest = hashlib.blake2b(f"{event}/{part}".encode(), digest_size=18).digest()
    return base64.urlsafe_b64encode(digest).decode()


class _Stop(Exception):
    """The bot is shutting down; the interaction has been told."""


class _ShownInPart(Exception):
    """The first part of a result was shown and ``rest`` (a match's next game) was not."""

    def __init__(self, rest: ActionResult) -> None:
        super().__init__("shown in part")
        self.rest = rest


class PostedLater(Exception):
    """Discord refused the message announcing a change that was made; the outbox posts it in
    the channel instead.  Told to the user as :data:`TEXT`, never as "try again" (the retry
    would be refused: the move, say, was already played)."""

    TEXT = _(
        "Done, but Discord refused my message about it; "
        "I will post it in the channel as soon as I can."
    )
