"""The shards this process serves, as the database grants them.

A process is configured for some shards (:class:`~bot.store.Shards` from ``SHARD_COUNT`` and
``SHARD_IDS``); it runs their servers' deadlines, reminders, computer replies and owed
announcements only while the store says it owns them (:meth:`~bot.store.Store.own_shards`), so
two processes configured for the same shard, as during a rolling restart, never both time a game
out or both post an announcement.  Each scheduler check renews the ownership first.

Discord sends a shard's interactions to every process connected for it: those of a shard that
another process holds are that process's to answer (:meth:`ShardOwnership.answers`), so each is
answered once.  The waiting process asks again when one arrives
(:meth:`ShardOwnership.answers_now`), so it takes over with the first interaction after the owner
lets go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..store import EVERY_SHARD, Shards, Store

log = logging.getLogger(__name__)


class ShardOwnership:
    """The configured shards and, of them, those owned at the last check."""

    def __init__(self, store: Store, configured: Shards = EVERY_SHARD) -> None:
        self.store = store
        self.configured = configured
        self.owned = configured.none()
        self._on_gain: list[Callable[[], None]] = []
        self._waiting_logged = False
        self._renewed = False
        self._renewing = asyncio.Lock()

    def on_gain(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever a shard is newly owned (what its previous owner left
        undone becomes this process's)."""
        self._on_gain.append(callback)

    async def current(self) -> Shards:
        """The shards owned, as last renewed (renewed now if never yet)."""
        return self.owned if self._renewed else await self.renew()

    def answers(self, guild_id: int | None) -> bool:
        """Whether this process answers the interactions of server ``guild_id`` (``None``:
        outside any server, shard 0): not while another process holds its shard, which answers
        them.  When the database could not say, it does (an error is better than silence).
        Before the first renewal nothing is known: false, and :meth:`answers_now` decides."""
        return self._renewed and not self.store.shards_elsewhere(self.configured).owns(guild_id)

    async def answers_now(self, guild_id: int | None) -> bool:
        """:meth:`answers`, after asking the database again (the owner may have let go)."""
        await self.renew()
        return self.answers(guild_id)

    async def renew(self) -> Shards:
        """Take or keep the configured shards; those owned now."""
        async with self._renewing:  # the scheduler's and an interaction's: one gain, one log
            owned = await self.store.own_shards(self.configured)
            gained = owned.ids - self.owned.ids
            lost = self.owned.ids - owned.ids
            if lost:
                log.warning("no longer this process's to run: %s", Shards(owned.count, lost))
            missing = self.configured.ids - owned.ids
            if missing and not self._waiting_logged:
                log.warning(
                    "held by another process, which answers their servers; waiting for them: %s",
                    Shards(self.configured.count, frozenset(missing)),
                )
            self._waiting_logged = bool(missing)
            self.owned = owned
            self._renewed = True
            if gained:
                for callback in self._on_gain:
                    callback()
            return owned
