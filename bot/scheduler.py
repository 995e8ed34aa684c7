"""The periodic check for reminders, timeouts and expired challenges (paused while players
cannot reach the bot).

It asks the service what is due (the service reads deadlines from the database, so a restart loses
nothing) and hands each event to a callback, the Discord layer's "post this in the game's channel".
Then it has the announcements still owed delivered (the outbox: answers that failed, posts that
failed, changes a dead process never announced).  A failing callback is logged and does not stop
the loop; what it failed to post stays owed.  A database that does not answer skips the checks
until it does, said in one line when it starts and one when it ends (no traceback per check).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from .results import ActionResult
from .service import GameService, StoreUnavailable

log = logging.getLogger(__name__)


class Scheduler:
    """Runs :meth:`GameService.tick` every ``interval`` seconds in a background task."""

    def __init__(
        self,
        service: GameService,
        on_event: Callable[[ActionResult], Awaitable[None]],
        interval: float,
        deliver_owed: Callable[[], Awaitable[int]] | None = None,
        hearing: Callable[[], bool] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``hearing()``: whether players can reach the bot now (the gateway is up).  While they
        cannot, no check runs (nobody loses on time unheard); how long that lasted is reported
        to the service, which extends the deadlines it cost (:mod:`bot.service.downtime`)."""
        self.service = service
        self.on_event = on_event
        self.interval = interval
        self.deliver_owed = deliver_owed
        self.hearing = hearing
        self.monotonic = monotonic
        self._task: asyncio.Task[None] | None = None
        self._deaf_since: float | None = None
        self._heard_at: float | None = None

    @property
    def running(self) -> bool:
        """Whether the periodic check is alive (the heartbeat of ``healthcheck`` needs it)."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="draughts-scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_once(self) -> int:
        """One check; returns how many events were handed on."""
        if self.hearing is not None and not self.hearing():
            # Deaf since the last check that could hear.  Before the first one (the bot is
            # connecting), the service measures the silence from its database instead.
            if self._deaf_since is None and self._heard_at is not None:
                self._deaf_since = self._heard_at
            return 0
        if self._deaf_since is not None:
            self.service.deaf(self.monotonic() - self._deaf_since)
            self._deaf_since = None
        self._heard_at = self.monotonic()
        events = await self.service.tick()
        for event in events:
            try:
                await self.on_event(event)
            except StoreUnavailable:
                raise  # the next events would fail alike; they stay owed
            except Exception:
                log.exception("posting a %s event failed", event.action.value)
        if self.deliver_owed is not None:
            try:
                await self.deliver_owed()
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("delivering the announcements owed failed")
        return len(events)

    async def _run(self) -> None:
        unavailable = False
        while True:
            try:
                await self.run_once()
                if unavailable:
                    log.info("the database answers again; scheduler checks resume")
                unavailable = False
            except StoreUnavailable as exc:
                if not unavailable:
                    log.warning("scheduler checks wait for the database: %s", exc)
                unavailable = True
            except Exception:
                log.exception("scheduler check failed; retrying in %ss", self.interval)
            await asyncio.sleep(self.interval)
