"""The shards whose background work is this process's, as the database grants them.

A process is configured for some shards (:class:`~bot.store.Shards` from ``SHARD_COUNT`` and
``SHARD_IDS``); it runs their servers' deadlines, reminders, computer replies and owed
announcements only while the store says it owns them (:meth:`~bot.store.Store.own_shards`), so
two processes configured for the same shard, as during a rolling restart, never both time a game
out or both post an announcement.  Each scheduler check renews the ownership first.
"""

from __future__ import annotations

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

    def on_gain(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever a shard is newly owned (what its previous owner left
        undone becomes this process's)."""
        self._on_gain.append(callback)

    async def current(self) -> Shards:
        """The shards owned, as last renewed (renewed now if never yet)."""
        return self.owned if self._renewed else await self.renew()

    async def renew(self) -> Shards:
        """Take or keep the configured shards; those owned now."""
        owned = await self.store.own_shards(self.configured)
        gained = owned.ids - self.owned.ids
        lost = self.owned.ids - owned.ids
        if lost:
            log.warning("no longer this process's to run: %s", Shards(owned.count, lost))
        missing = self.configured.ids - owned.ids
        if missing and not self._waiting_logged:
            log.warning(
                "held by another process, waiting for them: %s",
                Shards(self.configured.count, frozenset(missing)),
            )
        self._waiting_logged = bool(missing)
        self.owned = owned
        self._renewed = True
        if gained:
            for callback in self._on_gain:
                callback()
        return owned
