"""What the Discord layer needs to post a result, handed out with it, and the bookkeeping once
it is posted, written together.

Posting a result takes more than the result: a board is drawn in the server's theme, a finished
game's record goes with it; before it goes out the interaction whose message carries it is kept
with its outbox entry, and the game's older announcements still owed go first; once players saw
it the entry is marked delivered, the new board message is remembered (so the previous one
loses its buttons) and the interaction's locales are kept.  Asked for one by one, each was a
call back into the service after the action.  Here the reads are made with the action
(:meth:`Announcing.ready`, which every action's result passes through) and the rest is one call
before the post (:meth:`Announcing.delivering`) and one after it (:meth:`Announcing.shown`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from ..results import ActionResult, AnswerBy, Locales, Publishing
from .flags import FlagTimers
from .languages import LanguageBook
from .outbox import Outbox
from .queries import Queries
from .settings import SettingsBook

log = logging.getLogger(__name__)


class Announcing:
    def __init__(
        self,
        settings: SettingsBook,
        queries: Queries,
        outbox: Outbox,
        languages: LanguageBook,
        flags: FlagTimers,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.flags = flags
        self.clock = clock
        self.settings = settings
        self.queries = queries
        self.outbox = outbox
        self.languages = languages

    async def ready(self, result: ActionResult) -> ActionResult:
        """``result`` (and the match game it started in turn) with its :class:`Publishing`:
        the server's theme when a board is shown, the record when the game ended."""
        follow_up = None if result.follow_up is None else await self.ready(result.follow_up)
        view = result.game
        publishing = Publishing()
        if view is not None and (result.post_board or not view.running):
            theme = await self.settings.theme(view.guild_id)
            record = None if view.running else await self.queries.pdn(game_id=view.id)
            publishing = Publishing(theme, record)
        return replace(result, follow_up=follow_up, publishing=publishing)

    async def ready_or_bare(self, result: ActionResult) -> ActionResult:
        """:meth:`ready`, or ``result`` as it is when the reads fail: the change was made, so the
        action must not look failed; its poster reads them again (and, failing too, leaves the
        announcement to the outbox)."""
        try:
            return await self.ready(result)
        except Exception:
            log.exception("what posting a %s result needs could not be read", result.action.value)
            return result

    async def delivering(
        self, event: str, game_id: int | None, answer: AnswerBy | None = None
    ) -> bool:
        """The announcement ``event`` is about to be shown: keep ``answer``, the interaction
        whose message carries it (:meth:`Outbox.answering`, written before it returns);
        whether ``game_id`` has older announcements that must go first (:meth:`Outbox.may_owe`)."""
        if answer is not None:
            await self.outbox.answering(event, answer)
        return game_id is not None and self.outbox.may_owe(game_id)

    async def shown(
        self,
        event: str | None,
        boards: Iterable[tuple[int, int]] = (),
        locales: Locales | None = None,
        settled: Iterable[int] = (),
    ) -> dict[int, list[int]]:
        """Players saw the announcement ``event`` (None: a post that announces nothing): it is
        marked delivered (:meth:`Outbox.delivered`); ``boards``, ``(game id, message id)``, are
        the games' board messages now (:meth:`Queries.board_posted`); ``settled`` games were
        shown with no draw offer pending, so an offer's message is over
        (:meth:`Queries.offer_over`); ``locales`` are kept
        (:meth:`LanguageBook.remember_locales`); a clocked game's turn it began starts now
        (:meth:`FlagTimers.shown`).  Returns, per game, the messages whose buttons should go:
        the previous board message, an ended offer's.  The boards, offers and locales are
        bookkeeping: a failure is logged (it costs an old message its buttons, or a language
        guess), never the delivery's."""
        if event is not None:
            shown_at = self.clock()
            await self.outbox.delivered(event)
            try:  # a clocked game's turn starts now that its board is seen
                await self.flags.shown(event, shown_at)
            except Exception:  # it then runs from when the move was stored
                log.exception("the clock of announcement %s was not started again", event)
        stale: dict[int, list[int]] = {}
        for game_id, message_id in boards:
            try:
                old = await self.queries.board_posted(game_id, message_id)
            except Exception:  # the old buttons still answer for the current position
                log.exception("the board message of game %s was not recorded", game_id)
                continue
            if old is not None and old != message_id:
                stale.setdefault(game_id, []).append(old)
        for game_id in dict.fromkeys(settled):
            try:
                offer = await self.queries.offer_over(game_id)
            except Exception:  # a press on the old offer is still refused clearly
                log.exception("the draw offer message of game %s was not cleared", game_id)
                continue
            if offer is not None:
                stale.setdefault(game_id, []).append(offer)
        if locales is not None:
            await self.remember(locales)
        return stale

    async def remember(self, locales: Locales) -> None:
        """Keep the locales an interaction came with (a failure only costs a language guess)."""
        try:
            await self.languages.remember_locales(
                user_id=locales.user_id,
                locale=locales.locale,
                guild_id=locales.guild_id,
                guild_locale=locales.guild_locale,
            )
        except Exception as exc:
            log.warning("could not store the locales of an interaction: %s", exc or type(exc))
