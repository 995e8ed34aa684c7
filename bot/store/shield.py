"""Writes that outlive a cancelled caller, and the operations that wait for them.

A write whose caller is cancelled (a command timing out, a shutdown) runs on to its end: a
transaction interrupted between statements would otherwise be rolled back half-way through the
caller's intent, or leave a shared connection inside ``BEGIN``.  The caller still sees the
cancellation, and the service, which drops its copy of a game when an action is cancelled,
rereads it; the store's later operations wait for such writes meanwhile.  On SQLite's one
connection a later statement would queue behind the write anyway; a pool would hand it another
connection at once, so the reread could find the game from before the write (and then refuse the
next move as "the position changed", or as not the player's turn).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar


class Orphans:
    """Writes still running whose callers were cancelled."""

    def __init__(self) -> None:
        self._running: set[asyncio.Future[Any]] = set()

    def adopt(self, write: asyncio.Future[Any]) -> None:
        self._running.add(write)
        write.add_done_callback(self._done)

    def _done(self, write: asyncio.Future[Any]) -> None:
        self._running.discard(write)
        if not write.cancelled():
            write.exception()  # its caller is gone; a failure is the write's own to log

    @property
    def running(self) -> bool:
        """Whether an adopted write has not ended yet (then wait until :meth:`settled`)."""
        return bool(self._running)

    async def settled(self) -> None:
        """Return once every adopted write has ended."""
        while self._running:
            await asyncio.wait(set(self._running))


class HasOrphans(Protocol):
    orphans: Orphans


S = TypeVar("S", bound=HasOrphans)
P = ParamSpec("P")
T = TypeVar("T")


def shielded_write(
    method: Callable[Concatenate[S, P], Awaitable[T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """Run the write ``method`` to completion even if its caller is cancelled, handing it to the
    store's :class:`Orphans` meanwhile (the store's reads wait for them)."""

    @functools.wraps(method)
    async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        write = asyncio.ensure_future(method(self, *args, **kwargs))
        try:
            return await asyncio.shield(write)
        except asyncio.CancelledError:
            if not write.done():
                self.orphans.adopt(write)
            raise

    return wrapper
