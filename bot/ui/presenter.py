"""Running an interaction: how the bot answers every command and button.

Each command's work runs through :meth:`Presenter.run`, which turns a refusal into a private
answer (nothing changed, no traceback in the log) and counts the work as in flight until it has
posted everything, so a shutdown can wait for it (:meth:`Presenter.drain`).  Work that has not
answered within :data:`ACKNOWLEDGE_AFTER` seconds (a slow database, a long draw) is acknowledged
meanwhile, so Discord's 3-second window is always met; a database that does not answer at all
ends in a private "try again in a moment" (one warning line in the log).  A result the work
made is answered publicly through :meth:`Presenter.answer`, which hands it to the delivery
(:mod:`bot.ui.delivery`) as the interaction's own message.  No game rule lives here: the service
decides, this presents.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from ..errors import NotFoundError, ServiceError
from ..i18n import _
from ..results import ActionResult, AnswerBy, GameView, Player
from ..service import GameService, StoreUnavailable
from .boards import Boards
from .buttons import Buttons
from .cooldowns import Cooldowns
from .delivery import Connection, Delivery
from .languages import Languages, locales_of
from .media import Media
from .posted import PostedLater
from .replies import Reply
from .wording import user_error

log = logging.getLogger(__name__)

Work = Callable[[Reply], Awaitable[None]]
"""One interaction's work, given the interaction's :class:`Reply`."""

ACKNOWLEDGE_AFTER = 1.5
"""Seconds after which work that has not answered yet is acknowledged ("thinking…", or a held
button press): Discord fails an interaction not answered within 3 seconds of its arrival, and
the event may reach the bot a moment after that clock started."""


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
    """One per client, handed to every command group.  Each message goes out in its reader's
    language (``languages``): an interaction's private answer in the user's
    (:attr:`Reply.language`), a public post in the server's.  What the work publishes goes
    through :attr:`delivery`, which shares the tasks in flight."""

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
        self.languages = languages
        self.boards = Boards(service, media, buttons, connection, languages)
        self.cooldowns = Cooldowns()
        """What this process's users and channels have posted publicly on request."""
        self._closing = closing
        self.move_time_scale = move_time_scale
        self._in_flight: set[asyncio.Task[Any]] = set()
        self.delivery = Delivery(
            service,
            media,
            connection,
            buttons,
            self.boards,
            languages=languages,
            in_flight=self._in_flight,
        )

    @property
    def closing(self) -> bool:
        """The bot is shutting down: new work is turned away."""
        return self._closing()

    async def run(self, interaction: discord.Interaction, work: Work) -> None:
        """Run one interaction's ``work`` with the refusal handling of :meth:`_answering`,
        counted as in flight until it has posted everything (see :meth:`drain`).  The locales
        the interaction came with are kept afterwards, unless its answer's announcement took
        them along."""
        self.languages.note(interaction)  # the server's language, even for its first message
        reply = Reply(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        watchdog = asyncio.create_task(_acknowledge_when_slow(reply), name="acknowledge-slow")
        try:
            with contextlib.suppress(_Stop):
                async with self._answering(reply):
                    await work(reply)
            watchdog.cancel()
            if not reply.locales_kept:
                await self._remember_locales(interaction)
        finally:
            watchdog.cancel()
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
        except StoreUnavailable as error:
            log.warning("interaction %s not done: %s", reply.interaction.id, error)
            with contextlib.suppress(discord.HTTPException):
                await reply.private(_("My database is not answering; try again in a moment."))
        except PostedLater as error:
            log.warning("an answer was not sent (%s); it is posted in the channel", error)
            with contextlib.suppress(discord.HTTPException):
                await reply.private(type(error).TEXT)
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

    async def answer(self, reply: Reply, result: ActionResult) -> None:
        """Publish ``result`` as the interaction's public answer (:meth:`Delivery.publish`).
        The interaction is kept with the announcement before its messages go out (with its
        token when the answer is its own message): if the process dies meanwhile, the next
        one looks for them instead of posting the announcement a second time."""
        interaction = reply.interaction
        answer = None
        if result.event is not None and interaction.channel_id is not None:
            token = interaction.token if reply.answers_in_original else None
            answer = AnswerBy(interaction.id, interaction.channel_id, token)
        reply.locales_kept = await self.delivery.publish(
            reply.public,
            result,
            guild_id=interaction.guild_id,
            answer=answer,
            locales=locales_of(interaction),
        )


async def _acknowledge_when_slow(reply: Reply) -> None:
    """Acknowledge the interaction if its work has not answered within
    :data:`ACKNOWLEDGE_AFTER` seconds (cancelled once the work is done)."""
    await asyncio.sleep(ACKNOWLEDGE_AFTER)
    try:
        await reply.acknowledge()
    except discord.HTTPException as error:
        log.warning("could not acknowledge interaction %s: %s", reply.interaction.id, error)


class _Stop(Exception):
    """The bot is shutting down; the interaction has been told."""
