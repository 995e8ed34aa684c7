"""Which messages of an announcement reached its channel, asked of Discord after a crash, and
what makes them findable: a post written down before it goes out, a nonce on each message.

A process that dies with an interaction's message on its way never hears whether it arrived.
The interaction was written down first (:meth:`GameService.delivering`), so the next process asks
the channel: every message of an interaction is newer than the interaction and carries its id in
``interaction_metadata`` (answers and follow-ups alike), and the channel's history outlives the
interaction's token (15 minutes).  A post in the channel, made without an interaction, was
written down too, with the time: the next process finds it among the bot's posts since then by
what it shows (its text and its files' names).  What arrived is not posted again.
"""

from __future__ import annotations

import base64
import hashlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

import discord

from ..results import ActionResult, AnswerBy

log = logging.getLogger(__name__)

LOADING = 1 << 7
"""Message flag of a deferred answer still showing "thinking…"."""
HISTORY_PAGE = 100
"""Messages per request when looking for an interaction's messages (Discord's most)."""
HISTORY_PAGES = 5
"""Pages read at most: an interaction's messages come within seconds of it, so a channel
busier than that is a channel where it is not worth reading on (it is posted again)."""
CLOCK_SLACK_SECONDS = 5.0
"""How much earlier than the bot's clock said a post may carry Discord's time (its id)."""


class Asking(Protocol):
    """What looking needs of the client (a :class:`discord.Client` is one): who the bot is,
    and its HTTP client."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def application_id(self) -> int | None: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...


class Arrivals:
    """Looks for an interaction's messages through ``connection``."""

    def __init__(self, connection: Asking) -> None:
        self.connection = connection

    async def of(self, answer: AnswerBy) -> list[int]:
        """The messages of the interaction ``answer`` that reached its channel, oldest first
        (an answer or follow-ups; not a "thinking…" placeholder never filled in): those parts
        of the announcement are not posted again.  Read from the channel's history after the
        interaction (which also finds follow-ups, and outlives the token), else, while the
        token lives, by asking for the interaction's own message.  When Discord cannot say,
        nothing is taken as arrived: a repeat is better than a loss."""
        assert answer.interaction_id is not None, "a post is looked for with posts()"
        interaction = answer.interaction_id
        me = self._me()
        page_found = await self._history(
            answer.channel_id,
            interaction,
            lambda m: _answers(m, interaction, me),
        )
        found = None if page_found is None else [int(m["id"]) for m in page_found]
        if found or answer.token is None:
            return found or []
        route = discord.http.Route(
            "GET",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=self.connection.application_id,
            webhook_token=answer.token,
        )
        try:
            message = await self.connection.http.request(route)
        except discord.HTTPException as exc:
            log.info("an earlier answer could not be looked up (%s); posting it", exc.status)
            return []
        return [] if int(message.get("flags") or 0) & LOADING else [int(message["id"])]

    async def posts(self, answer: AnswerBy) -> list[dict[str, Any]]:
        """The bot's own posts (no interaction's) in ``answer``'s channel since ``answer.since``
        (a little before: clocks differ), oldest first: a post of the announcement found among
        them (by what it shows, see :func:`bot.ui.replies.Outgoing.shape`) is not posted again.
        Its nonce would have kept a repeat out only for a few minutes; this also holds after a
        long outage.  When Discord cannot say, none: a repeat is better than a loss."""
        me = self._me()
        after = discord.utils.time_snowflake(
            datetime.fromtimestamp(answer.since - CLOCK_SLACK_SECONDS, UTC)
        )
        found = await self._history(answer.channel_id, after, lambda m: _posted(m, me))
        return found or []

    def _me(self) -> int | None:
        return None if self.connection.user is None else self.connection.user.id

    async def _history(
        self, channel_id: int, after: int, wanted: Callable[[Any], bool]
    ) -> list[Any] | None:
        """The messages of the channel newer than the snowflake ``after`` that are ``wanted``,
        oldest first, read a page at a time (None: the history could not be read)."""
        found: list[Any] = []
        for _page in range(HISTORY_PAGES):
            try:
                page = await self.connection.http.logs_from(channel_id, HISTORY_PAGE, after=after)
            except discord.HTTPException as exc:
                log.info("channel %s's history could not be read (%s)", channel_id, exc)
                return None
            found += [message for message in page if wanted(message)]
            if len(page) < HISTORY_PAGE:
                break
            after = max(int(message["id"]) for message in page)
        return sorted(found, key=lambda message: int(message["id"]))


def _posted(message: Any, me: int | None) -> bool:
    """Whether ``message`` is the bot's own post (no interaction's message)."""
    author: dict[str, Any] = message.get("author") or {}
    return str(author.get("id")) == str(me) and not message.get("interaction_metadata")


def _answers(message: Any, interaction_id: int, me: int | None) -> bool:
    """Whether ``message`` (as Discord sends it) is the bot's own message answering the
    interaction ``interaction_id``, showing something ("thinking…" shows nothing)."""
    meta: dict[str, Any] = message.get("interaction_metadata") or {}
    author: dict[str, Any] = message.get("author") or {}
    return (
        str(meta.get("id")) == str(interaction_id)
        and str(author.get("id")) == str(me)
        and not int(message.get("flags") or 0) & LOADING
    )


def post_marker(result: ActionResult) -> AnswerBy | None:
    """What is written down before ``result`` is posted in its channel without an interaction
    (:meth:`GameService.delivering`): the channel, and (by the database) the time, so that a
    process that dies meanwhile is followed by one that looks for the post among the bot's
    posts there since (:meth:`Arrivals.posts`), where a nonce would only keep a repeat out for a
    few minutes."""
    if result.event is None:
        return None
    if result.game is not None:
        return AnswerBy(None, result.game.channel_id, None)
    where = result.challenge or result.tournament or result.puzzle
    if where is not None:
        return AnswerBy(None, where.channel_id, None)
    return None


def nonce(event: str, part: str) -> str:
    """The nonce of one message of an announcement: the same for a repost of that message (so
    Discord shows it once), distinct for its other messages; 24 characters (Discord takes 25)."""
    digest = hashlib.blake2b(f"{event}/{part}".encode(), digest_size=18).digest()
    return base64.urlsafe_b64encode(digest).decode()
