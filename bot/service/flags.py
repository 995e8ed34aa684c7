"""A precise timer per running clocked game: its flag falls within moments of its time running
out, not at the scheduler's next check.

Every write that moves a clocked game's flag time tells :class:`FlagTimers` (the
:attr:`LiveGames.on_deadline` hook), which keeps one ``loop.call_later`` per game of this
process's servers.  When it fires, the flag falls through the same guarded path as a
correspondence timeout (:meth:`Deadlines.flag`: under the game's lock, by its version, with its
announcement in the outbox), so it falls exactly once, whoever gets there first: the timer, the
scheduler's check (the backstop), or another process.  After a start and whenever this process
gains a shard, the next scheduler check arms a timer for every clocked game it serves
(:meth:`ticked`), so a restart loses no flag.

While players cannot reach the bot no flag falls (the gateway is down: :attr:`hearing`); once
they can, the timer waits for the scheduler's next check, which stops the clocks for the
silence first (:mod:`bot.service.downtime`).

A clocked game's turn starts again when its board was shown (:meth:`shown`, from the service's
``shown`` bookkeeping after the post), so the time Discord took to show it is not charged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..enums import GameStatus, Side
from ..results import ActionResult
from ..store import Store
from . import clocks
from .deadlines import Deadlines
from .live import LiveGames
from .shards import ShardOwnership

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How soon a flag that could not fall (players unheard, the database away) is tried again."""


class FlagTimers:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        deadlines: Deadlines,
        ownership: ShardOwnership,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.live = live
        self.deadlines = deadlines
        self.ownership = ownership
        self.clock = clock
        self.deliver: Callable[[ActionResult], Awaitable[None]] | None = None
        """Where a fallen flag is shown (the Discord layer's channel post)."""
        self.hearing: Callable[[], bool] = lambda: True
        """Whether players can reach the bot now (the Discord layer's gateway)."""
        self.armed: dict[int, tuple[float, float]] = {}
        """Per game, its flag time and the delay its timer was set for then."""
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._falling: set[asyncio.Task[ActionResult | None]] = set()
        self._stale = True
        """Arm every clocked game at the next check (after a start, or a shard gained)."""
        self._deaf_seen = False
        self._closed = False
        live.on_deadline = self.arm
        ownership.on_gain(self.renew)

    def arm(self, game_id: int, flag_at: float | None) -> None:
        """Have ``game_id``'s flag fall at ``flag_at`` (wall time; None: no clock runs)."""
        self._cancel(game_id)
        if flag_at is None or self._closed:
            self.armed.pop(game_id, None)
            return
        delay = max(0.0, flag_at - self.clock())
        self.armed[game_id] = (flag_at, delay)
        self._later(game_id, delay)

    def renew(self) -> None:
        """This process gained servers: arm their clocked games at the next check."""
        self._stale = True

    async def ticked(self) -> None:
        """The scheduler's check ran (the silence it found was given back): flags may fall
        again; after a start or a shard gained, every clocked game served here is armed."""
        self._deaf_seen = False
        if not self._stale or self._closed:
            return
        self._stale = False
        rows = await self.store.running_clocks(shards=await self.ownership.current())
        for game_id in set(self._handles) - {row.id for row in rows}:
            self.arm(game_id, None)  # its server is another process's now
        for row in rows:
            self.arm(row.id, row.deadline)

    async def fall(self, game_id: int) -> ActionResult | None:
        """Let ``game_id``'s flag fall if its time has run out (and show it); else set the
        timer again for the flag time the database holds.  A game that ended, or whose server
        is another process's now, is let go."""
        self._cancel(game_id)  # this is its timer's work (or the check's), done now
        if not self.hearing() or self._deaf_seen:
            # Unheard players lose no time: wait until the scheduler's check has stopped the
            # clocks for the silence (:meth:`ticked`).
            self._deaf_seen = True
            self._later(game_id, RETRY_SECONDS)
            return None
        try:
            row = await self.store.game(game_id)
            mine = await self.ownership.current()
            if row is None or row.status is not GameStatus.RUNNING or not mine.owns(row.guild_id):
                self.arm(game_id, None)
                return None
            result = await self.deadlines.flag(game_id)
        except Exception:
            log.exception("the flag of game %s could not fall; tried again", game_id)
            self._later(game_id, RETRY_SECONDS)
            return None
        if result is None:
            if game_id not in self._handles and row.deadline is not None:
                # Not due after all (the wall clock behind the loop's): set again for its flag
                # time; one already past (a race lost to a write elsewhere) after a pause.
                if row.deadline > self.clock():
                    self.arm(game_id, row.deadline)
                else:
                    self._later(game_id, RETRY_SECONDS)
            return None
        self.armed.pop(game_id, None)
        if self.deliver is not None:
            try:
                await self.deliver(result)
            except Exception:  # it stays owed in the outbox, posted later
                log.exception("showing the flag of game %s failed", game_id)
        return result

    async def shown(self, event: str, at: float) -> None:
        """The board announced by ``event`` was shown at ``at``: if it began a clocked game's
        turn that is still running unplayed, that turn's time starts then (the time Discord took
        to show it is not charged)."""
        noted = self.live.turns_shown.pop(event, None)
        if noted is None:
            return
        game_id, ply = noted
        async with self.live.lock(game_id):
            live = await self.live.load_quietly(game_id)
            if live is None or live.game.ply != ply or live.game.is_over:
                return
            row = live.row
            if row.clock_started is None or row.clock_started >= at:
                return
            await self.live.save_row(live, clocks.restart_turn(row, Side.of(live.game.turn), at))

    async def close(self) -> None:
        """Stop every timer (the flags fall after the restart) and let falling ones finish."""
        self._closed = True
        for game_id in list(self._handles):
            self._cancel(game_id)
        if self._falling:
            await asyncio.gather(*list(self._falling), return_exceptions=True)

    def _later(self, game_id: int, delay: float) -> None:
        if self._closed:
            return
        self._cancel(game_id)
        loop = asyncio.get_running_loop()
        self._handles[game_id] = loop.call_later(delay, self._fire, game_id)

    def _cancel(self, game_id: int) -> None:
        handle = self._handles.pop(game_id, None)
        if handle is not None:
            handle.cancel()

    def _fire(self, game_id: int) -> None:
        self._handles.pop(game_id, None)
        task = asyncio.create_task(self.fall(game_id), name=f"flag-{game_id}")
        self._falling.add(task)
        task.add_done_callback(self._falling.discard)
