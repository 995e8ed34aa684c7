"""The daily puzzle: a moderator chooses the channel, and every UTC day the tick posts one
puzzle there (the server's own first, never the same one twice), with a thread for answers.

Exactly once a day, across restarts and processes: the store writes the day's post (keyed by
server and day) together with its outbox entry, carrying the announcement whole, so a tick
after a restart finds the day posted and writes nothing, and an entry not yet delivered is
delivered by the outbox like any other (:mod:`bot.service.outbox`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from rules.variants import find_variant

from ..errors import ForbiddenError, NotFoundError
from ..i18n import _
from ..results import Action, ActionResult
from ..store import DailyRow, Shards, Store
from .events import encode, new_event
from .puzzle_mining import Library
from .puzzle_terms import daily_view
from .settings import SettingsBook

log = logging.getLogger(__name__)


def day_of(now: float) -> str:
    """The UTC day of ``now``: ``2026-11-28``."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


class DailyPuzzles:
    def __init__(
        self,
        store: Store,
        settings: SettingsBook,
        library: Library,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.settings = settings
        self.library = library
        self.clock = clock
        self._none_left: set[tuple[int, str]] = set()
        """Servers with no puzzle left to post on a day (asked again the next day, or after a
        restart: not at every tick)."""

    async def set_channel(
        self,
        guild_id: int | None,
        channel_id: int | None,
        moderator_id: int,
        variant: str | None = None,
        *,
        is_moderator: bool = False,
    ) -> DailyRow | None:
        """Moderators choose where the daily puzzle is posted (None: no daily puzzle), and of
        which variant (the server's by default); the setting as it now stands."""
        if guild_id is None:
            raise NotFoundError(_("the daily puzzle is posted in a server's channel"))
        if not is_moderator:
            raise ForbiddenError(_("only moderators (Manage Server) can set the daily puzzle"))
        key = find_variant(variant).key if variant else (await self.settings.get(guild_id)).variant
        await self.store.set_daily(guild_id, channel_id, key, moderator_id, self.clock())
        self._none_left = {seen for seen in self._none_left if seen[0] != guild_id}
        return await self.store.daily(guild_id)

    async def setting(self, guild_id: int | None) -> DailyRow | None:
        return None if guild_id is None else await self.store.daily(guild_id)

    async def tick(self, shards: Shards) -> list[ActionResult]:
        """Post today's puzzle in every server of ``shards`` that has a daily channel and no
        post today; the posts, each with its outbox entry."""
        now = self.clock()
        day = day_of(now)
        posted = []
        self._none_left = {seen for seen in self._none_left if seen[1] == day}
        for daily in await self.store.dailies_due(day, shards=shards):
            if (daily.guild_id, day) in self._none_left:
                continue
            await self.library.ensure(daily.variant)
            puzzle = await self.store.daily_candidate(daily.guild_id, daily.variant)
            if puzzle is None:
                log.info("no puzzle left for the daily of server %s", daily.guild_id)
                self._none_left.add((daily.guild_id, day))
                continue
            view = daily_view(puzzle, daily.guild_id, daily.channel_id, day)
            event = new_event(
                Action.DAILY_PUZZLE, channel_id=daily.channel_id, guild_id=daily.guild_id, now=now
            )
            result = ActionResult(
                Action.DAILY_PUZZLE,
                _("Puzzle of the day, {day}: find the best move.", day=day),
                puzzle=view,
                event=event.id,
            )
            if await self.store.post_daily(daily.guild_id, day, puzzle.id, event, encode(result)):
                posted.append(result)
        return posted
