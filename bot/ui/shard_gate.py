"""One answer to each interaction, however many processes Discord sends it to.

Discord sends a shard's events to every session identified on it: while a new process starts
beside the old one (a rolling restart), or one with another ``SHARD_COUNT`` runs, both get every
slash command and button press, and both would answer (the slower one with "The position
changed, try again." for a move the other played).  The database decides which process owns a
shard (:mod:`bot.service.shards`); this gate stands before discord.py's handling of
``INTERACTION_CREATE`` and leaves, unanswered, the interactions of servers whose shard another
process holds: their owner answers them.  The waiting process stays connected (its health check
passes, so a deploy that starts the new process before stopping the old one goes on) and asks the
database again at each interaction it leaves, so the first one after the owner lets go is already
its own.

discord.py has no hook before an interaction is dispatched (commands, buttons and ``on_interaction``
each get it separately), so the gate replaces the parser of that one event in the client's
connection state, the table its gateway reads events through.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ..service import GameService

log = logging.getLogger(__name__)

EVENT = "INTERACTION_CREATE"


def guild_of(data: dict[str, Any]) -> int | None:
    """The server an interaction came from (``None``: a direct message, shard 0's)."""
    guild_id = data.get("guild_id")
    return int(guild_id) if guild_id is not None else None


class InteractionGate:
    """Passes to discord.py the interactions this process answers."""

    def __init__(self, service: GameService, parsers: dict[str, Callable[[Any], None]]) -> None:
        """``parsers``: the client's connection state's table of event parsers."""
        self.service = service
        self._parsers = parsers
        self._parse = parsers[EVENT]
        self._asking: set[asyncio.Task[None]] = set()

    def install(self) -> None:
        self._parsers[EVENT] = self._admit

    def _admit(self, data: dict[str, Any]) -> None:
        guild_id = guild_of(data)
        if self.service.serves(guild_id):
            self._parse(data)
            return
        task = asyncio.create_task(self._ask_again(data, guild_id), name="shard-gate")
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    async def _ask_again(self, data: dict[str, Any], guild_id: int | None) -> None:
        if await self.service.serves_now(guild_id):
            self._parse(data)
        else:
            log.debug("interaction %s left to the process that owns its shard", data.get("id"))
