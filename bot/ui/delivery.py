"""Delivering what a change announces: the posts everyone sees, and the outbox's bookkeeping.

What a result changed is shown the same way whatever caused it, a command, a button or the
scheduler (:meth:`Delivery.publish`, :meth:`Delivery.on_event`): the board after a move, the
result, record and replay after the end, otherwise the sentence, then the direct messages that go
with it.  Every announcement was written with the change (:mod:`bot.service.outbox`), so each
post is bookkept around it (:meth:`Delivery.handing`): older announcements of the same game
still owed go first, and the entry is marked delivered once players saw it, or kept with the
message for a later post when Discord refused it.  What is still owed after a failure or a
restart is posted by :meth:`Delivery.deliver_owed`, each message with a nonce so a repeat shows
once.  The service hands each result with what posting it needs (theme, record), so one post
costs the service a call before it (:meth:`GameService.delivering`) and one after
(:meth:`GameService.shown`).  No game rule lives here: the service decides, this posts.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import discord

from ..enums import GameStatus
from ..i18n import Arg, Text, _, render
from ..results import Action, ActionResult, AnswerBy, ChallengeView, GameView, Locales
from ..service import GameService
from ..workers import WorkersUnavailable
from .arrivals import Arrivals, nonce, post_marker
from .boards import Boards, message_id, pings, replay_alt
from .buttons import Buttons
from .embeds import challenge_call, challenge_embed, mention, relative_time
from .languages import Languages
from .media import Media, view_ending
from .posted import NotPostedYet, Posted, PostedLater, Send, ShownInPart
from .replies import Outgoing, Upload, shape_of
from .threads import archive_ended
from .wording import guild_of, say

log = logging.getLogger(__name__)


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


def shows_board(result: ActionResult) -> bool:
    """Whether ``result`` is shown with its game's board (after a move, and at the end)."""
    view = result.game
    return view is not None and (result.post_board or not view.running)


class Delivery:
    """One per client, shared by the command groups (through the presenter) and the
    scheduler.  A public post is in its server's language, a direct message in its
    recipient's (``languages``).  ``in_flight``: the tasks a shutdown waits for, to which the
    posts of the computer's replies are added."""

    def __init__(
        self,
        service: GameService,
        media: Media,
        connection: Connection,
        buttons: Buttons,
        boards: Boards,
        *,
        languages: Languages,
        in_flight: set[asyncio.Task[Any]],
    ) -> None:
        self.service = service
        self.media = media
        self.connection = connection
        self.buttons = buttons
        self.boards = boards
        self.languages = languages
        self._in_flight = in_flight
        self._delivery_locks: dict[tuple[str, object], asyncio.Lock] = {}
        self._arrivals = Arrivals(connection)
        self.tournaments: Callable[[ActionResult, Send], Awaitable[None]] | None = None
        """Who posts a tournament's announcements (:mod:`bot.ui.tournament_delivery`)."""
        self.puzzles: Callable[[ActionResult, Send], Awaitable[None]] | None = None
        """Who posts the daily puzzles (:mod:`bot.ui.puzzle_delivery`)."""

    # -- what everyone sees ----------------------------------------------------------------

    async def public_language(self, result: ActionResult, guild_id: int | None = None) -> str:
        """The language ``result`` is posted in: its server's (``guild_id`` where the result
        names no game or challenge)."""
        guild = guild_of(result) if result.game or result.challenge else guild_id
        return await self.languages.public(guild)

    async def publish(
        self,
        send: Send,
        result: ActionResult,
        *,
        guild_id: int | None = None,
        answer: AnswerBy | None = None,
        locales: Locales | None = None,
    ) -> bool:
        """Post what ``result`` changed for everyone, in the server's language, bookkept as
        :meth:`handing` says (``answer``: the interaction whose messages these are;
        ``locales``: the interaction's, kept with the announcement).  When the action set the
        computer thinking, its reply follows in the channel (after this answer, even a failed
        one, so the channel reads in order).  True when ``locales`` were kept."""
        try:
            async with self.handing(result, answer=answer, locales=locales) as posted:
                await self._show(posted.counting(send), result, guild_id, posted)
                await self._send_dms(result)
        finally:
            if result.game is not None and result.game.computer_id is not None:
                task = asyncio.create_task(self._computer_reply(result.game.id))
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)
        return locales is not None

    async def _computer_reply(self, game_id: int) -> None:
        """Post the computer's reply claimed by an action just shown (in the background: no
        answer waits for a search; a shutdown waits for the post)."""
        reply = await self.service.computer_reply(game_id)
        if reply is None:
            return
        try:
            await self.on_event(reply)
        except Exception:  # it stays owed; the scheduler posts it
            log.exception("the computer's reply in game %s could not be posted", game_id)

    async def _show(
        self, send: Send, result: ActionResult, guild_id: int | None, posted: Posted
    ) -> None:
        if result.publishing is None and shows_board(result):  # an announcement kept for later
            result = await self.service.with_publishing(result)
        view = result.game
        code = await self.public_language(result, guild_id)
        if view is not None and (view.draw_offer is None or not view.running):
            posted.settled.append(view)
        if view is not None and shows_board(result):
            publishing = result.publishing
            message = await self.boards.message(
                view, result.text, result.mentions, publishing=publishing
            )
            sent = message_id(await send(message))
            if sent is not None:
                posted.boards.append((view, sent))
            record = None if publishing is None else publishing.record
            if record is not None and view.status == GameStatus.FINISHED and view.last_move:
                await self._send_replay(send, view, record[1], code)
        else:
            content = f"{pings(result.mentions)} {say(result.text, code)}".strip()
            await send(Outgoing(content=content, mentions=result.mentions))
        if result.follow_up is not None:  # a match's second game, in the same channel
            try:
                await self._show(send, result.follow_up, guild_id, posted)
            except Exception as exc:  # the first part was shown: only the rest is owed
                raise ShownInPart(result.follow_up) from exc

    async def _send_replay(self, send: Send, view: GameView, pdn_text: str, code: str) -> None:
        """The animated replay of a finished game with moves (an aborted one has none), in
        the language ``code``, rendered in a worker process."""
        try:
            replay = await self.media.replay(pdn_text, flip=False, code=code)
        except WorkersUnavailable as exc:  # logged once by the pool; the result is shown
            log.info("the replay of game %s could not be made: %s", view.id, exc)
            return
        except Exception:
            log.exception("the replay of game %s could not be made", view.id)
            return
        caption = render(_("Replay of game #{id}.", id=view.id), code)
        if replay.note:
            caption += f" {say(replay.note, code)}"
        ending = view_ending(view)
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
        out = Outgoing(
            content=render(challenge_call(challenge), code),
            embed=challenge_embed(challenge, code=code),
            view=self.buttons.challenge(challenge.id, code, open_to_all=challenge.opponent is None),
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
            async with self.handing(result, answer=post_marker(result)) as posted:
                await self._post(result, posted)
        except PostedLater as refused:
            log.warning("announcement %s not delivered (%s); will retry", result.event, refused)

    # -- announcements owed: the outbox ----------------------------------------------------

    @contextlib.asynccontextmanager
    async def handing(
        self,
        result: ActionResult,
        *,
        answer: AnswerBy | None = None,
        locales: Locales | None = None,
    ) -> AsyncIterator[Posted]:
        """Deliver ``result``'s announcement by the body of the ``with`` (which sends through
        :meth:`Posted.counting` and notes the board messages it posts in the :class:`Posted`
        it is given): older announcements of the same game still owed go first (in the
        channel), and ``answer``, the interaction whose messages the body sends, is written
        down before (so a later process can look for them, see :class:`Arrivals`).

        Once a message went out the announcement is delivered, whatever fails after it (a
        later part, the database): marked at once in this process, written as soon as the
        database takes it, and never posted again.  When the body fails before sending
        anything the change still stands, so the user is never told to try again: Discord
        refused (:class:`PostedLater`: the message is kept for a later post in the channel),
        or it could not be made or the database did not answer (:class:`NotPostedYet`: the
        entry stays owed and is posted from the database once it answers)."""
        posted = Posted()
        event = result.event
        if event is None:
            yield posted
            await self._record(None, posted, locales)
            return
        async with self._delivery_lock(result):
            game_id = None if result.game is None else result.game.id
            try:
                if (game_id is not None or answer is not None) and await self.service.delivering(
                    event, game_id, answer
                ):
                    await self._deliver_owed(game_id=game_id, skip=event, covered=True)
            except Exception as exc:  # the database: nothing of this one was sent
                log.warning("announcement %s not posted yet: %s", event, exc or type(exc))
                with contextlib.suppress(Exception):  # due at once, posted once it can be
                    await self._failed(event, result, posted)
                raise NotPostedYet(str(exc)) from exc
            try:
                yield posted
            except ShownInPart as part:
                with contextlib.suppress(Exception):
                    await self._failed(event, part.rest, posted, game_id=game_id)
                raise PostedLater(str(part.__cause__)) from part.__cause__
            except Exception as exc:
                if posted.sent:  # players saw it: the rest was a nicety, or bookkeeping
                    log.exception("announcement %s shown, but what followed failed", event)
                else:
                    with contextlib.suppress(Exception):
                        await self._failed(event, result, posted)
                    if isinstance(exc, discord.HTTPException):
                        raise PostedLater(str(exc)) from exc
                    log.exception("announcement %s not posted yet", event)
                    raise NotPostedYet(str(exc)) from exc
            except BaseException:
                # Cut off (a stop) with the rest of the announcement unsent: it stays owed for
                # the next process, which looks for an interaction's messages in the channel
                # before posting what is missing (:class:`Arrivals`), or repeats a channel
                # post with the same nonces, which Discord shows once.
                with contextlib.suppress(Exception):
                    if posted.sent and answer is not None:
                        await self._record(None, posted, None, whole=False)
                    else:
                        await self._failed(event, result, posted)
                raise
            await self._record(event, posted, locales)

    async def _record(
        self, event: str | None, posted: Posted, locales: Locales | None, *, whole: bool = True
    ) -> None:
        """The service's bookkeeping of a post that went out (nothing to write: no call), then
        the buttons off the board messages the new ones replaced and an ended draw offer's, then,
        when the announcement went out ``whole`` (not a part kept for a retry), the threads of
        the games it ended archived.  Never raises: the post went out, and its delivery mark is
        kept until the database takes it."""
        if event is None and not posted.boards and not posted.settled and locales is None:
            return
        boards = [(view.id, sent) for view, sent in posted.boards]
        views = {view.id: view for view in [*(v for v, _ in posted.boards), *posted.settled]}
        try:
            stale = await self.service.shown(event, boards, locales, [v.id for v in posted.settled])
            for game_id, messages in stale.items():
                for message in messages:
                    await self.boards.strip(views[game_id], message)
        except Exception:
            log.exception("the bookkeeping of announcement %s failed after its post", event)
        if whole:
            await archive_ended(self.connection, [view for view, _sent in posted.boards])

    async def _failed(
        self,
        event: str,
        rest: ActionResult | None,
        posted: Posted,
        attempts: int = 0,
        *,
        game_id: int | None = None,
    ) -> None:
        """A post of ``event`` failed after showing ``posted``'s boards (recorded: they are the
        games' board messages now); what is left, ``rest``, is kept for a later post."""
        if posted.boards:
            await self._record(None, posted, None, whole=False)
        await self.service.failed(event, rest, attempts, game_id=game_id)

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
        for owed in await self.service.owed(game_id=game_id, covered=covered):
            if owed.event == skip:
                continue
            if owed.result is None:
                await self.service.shown(owed.event)
                continue
            arrived: list[int] = []
            earlier: list[Any] = []
            if owed.answer is not None and owed.answer.interaction_id is not None:
                arrived = await self._arrivals.of(owed.answer)
            elif owed.answer is not None:  # a post of a process that died: found by its shape
                earlier = await self._arrivals.posts(owed.answer)
            elif not await self._marked(owed.event, owed.result):
                continue  # the database did not take the mark: posted once it does
            boards = Posted()
            try:
                await self._post(owed.result, boards, arrived, earlier)
            except Exception as exc:
                if boards.sent:  # shown (in part): delivered, never posted again
                    log.exception("announcement %s shown, but what followed failed", owed.event)
                    await self._record(owed.event, boards, None)
                    posted += 1
                    continue
                log.warning("announcement %s not delivered (%s); will retry", owed.event, exc)
                await self._failed(
                    owed.event, owed.result, boards, owed.attempts + 1, game_id=owed.game_id
                )
                if game_id is not None:
                    break  # keep the game's order: its later announcements wait
                continue
            await self._record(owed.event, boards, None)
            posted += 1
        else:  # nothing of the game was left behind
            if game_id is not None:
                self.service.settled(game_id)
        return posted

    async def _marked(self, event: str, result: ActionResult) -> bool:
        """Write down that ``result`` is about to be posted in its channel (see
        :func:`post_marker`); False when the database did not take it (then nothing is sent)."""
        marker = post_marker(result)
        if marker is None:
            return True
        try:
            await self.service.delivering(event, None, marker)
        except Exception as exc:
            log.warning("announcement %s not posted yet: %s", event, exc or type(exc))
            return False
        return True

    async def _post(
        self,
        result: ActionResult,
        posted: Posted,
        arrived: list[int] | None = None,
        earlier: list[Any] | None = None,
    ) -> None:
        """Post ``result`` in its channel, without an interaction.  Each message carries a
        nonce made from its announcement, so a post repeated after a lost answer from Discord
        is not shown twice.  ``arrived``: messages an interaction already showed, in order;
        they stand for the announcement's first messages, which are not posted again.
        ``earlier``: the bot's posts in the channel since a process that died began posting
        it; a message found among them (by its shape) is not posted again."""
        skip = list(arrived or ())
        seen = list(earlier or ())
        where = result.game or result.tournament or result.challenge or result.puzzle
        if where is None:
            return
        send = self._channel_sender(
            where.channel_id, where.guild_id, result.event, posted, skip, seen
        )
        if result.game is None and result.tournament is not None and self.tournaments:
            return await self.tournaments(result, send)
        if result.puzzle is not None and self.puzzles:
            return await self.puzzles(result, send)
        if result.challenge is not None and result.game is None:
            challenge = result.challenge
            if result.action is Action.CHALLENGE_CREATED:
                await self.post_challenge(send, challenge, result.mentions)
                return
            await self.show_closed(challenge)
            if result.action is not Action.CHALLENGE_EXPIRED:
                code = await self.languages.public(challenge.guild_id)
                content = f"{pings(result.mentions)} {say(result.text, code)}".strip()
                await send(Outgoing(content=content, mentions=result.mentions))
            return
        view = result.game
        assert view is not None
        if result.action in (Action.REMINDER, Action.LAST_WARNING) and not result.tournament:
            assert view.to_move is not None and view.deadline is not None
            code = await self.languages.public(view.guild_id)
            await send(
                Outgoing(content=render(reminder(result, view), code), mentions=result.mentions)
            )
        else:
            await self._show(send, result, None, posted)
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

    def channel_sender(self, channel_id: int, guild_id: int | None, event: str | None) -> Send:
        """A :data:`Send` posting in a channel without an interaction, each message with a
        nonce made from ``event`` (a game's first board in the thread its accept opened: a
        repeat after a crash, within Discord's few minutes, shows once)."""
        return self._channel_sender(channel_id, guild_id, event, Posted(), [])

    def _channel_sender(
        self,
        channel_id: int,
        guild_id: int | None,
        event: str | None,
        posted: Posted,
        arrived: list[int],
        earlier: list[Any] | None = None,
    ) -> Send:
        """A :data:`Send` posting in a channel, each message with its own nonce, counted in
        ``posted``; the first messages stand for themselves when ``arrived`` holds them already
        (their ids, taken from it as they come), and a message whose shape is among
        ``earlier`` (posts found in the channel) is that post."""
        channel = self.channel(channel_id, guild_id)
        numbers = itertools.count()
        found = list(earlier or ())

        async def send(out: Outgoing) -> discord.Message | int:
            if arrived:
                return arrived.pop(0)
            shape = out.shape()
            for message in found:
                if shape_of(message) == shape:
                    found.remove(message)
                    return int(message["id"])
            kwargs = out.send_kwargs()
            if event is not None:
                kwargs["nonce"] = nonce(event, out.part or f"#{next(numbers)}")
            return await channel.send(**kwargs)

        return posted.counting(send)


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
