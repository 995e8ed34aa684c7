"""The periodic check for reminders, timeouts and expired challenges.

It asks the service what is due (the service reads deadlines from the database, so a restart loses
nothing) and hands each event to a callback, the Discord layer's "post this in the game's channel".
Then it has the announcements still owed delivered (the outbox: answers that failed, posts that
failed, changes a dead process never announced).  A failing callback is logged and does not stop
the loop; what it failed to post stays owed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .results import ActionResult
from .service import GameService

log = logging.getLogger(__name__)


class Scheduler:
    """Runs :meth:`GameService.tick` every ``interval`` seconds in a background task."""

    def __init__(
        self,
        service: GameService,
        on_event: Callable[[ActionResult], Awaitable[None]],
        interval: float,
        deliver_owed: Callable[[], Awaitable[int]] | None = None,
    ) -> None:
        self.service = service
        self.on_event = on_event
        self.interval = interval
        self.deliver_owed = deliver_owed
        self._task: asyncio.Task[None] | None = None

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
        events = await self.service.tick()
        for event in events:
            try:
                await self.on_event(event)
            except Exception:
                log.exception("posting a %s event failed", event.action.value)
        if self.deliver_owed is not None:
            try:
                await self.deliver_owed()
            except Exception:
                log.exception("delivering the announcements owed failed")
        return len(events)

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("scheduler check failed; retrying in %ss", self.interval)
            await asyncio.sleep(self.interval)
