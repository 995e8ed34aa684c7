"""The periodic check for reminders, timeouts and expired challenges.

It asks the service what is due (the service reads deadlines from the database, so a restart loses
nothing) and hands each event to a callback, the Discord layer's "post this in the game's channel".
A failing callback is logged and does not stop the loop.
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
    ) -> None:
        self.service = service
        self.on_event = on_event
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

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
        return len(events)

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("scheduler check failed; retrying in %ss", self.interval)
            await asyncio.sleep(self.interval)
