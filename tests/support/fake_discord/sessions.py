"""Gateway sessions: one per IDENTIFY, on the shard it named, keeping what it was sent for a
RESUME; and the failure of an interaction no session's shard covers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .guilds import shard_of


@dataclass(eq=False)
class GatewaySession:
    """One gateway session, on one shard: what it was sent, so that a RESUME can replay what it
    missed. An IDENTIFY without ``shard`` makes a session on shard ``(0, 1)``, which covers every
    guild (and DMs)."""

    id: str
    sequence: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    shard: tuple[int, int] = (0, 1)
    """``(shard_id, shard_count)`` as identified (``(0, 1)`` when IDENTIFY had no ``shard``)."""
    sharded: bool = False
    """Whether IDENTIFY carried a ``shard`` (an unsharded client sends none)."""
    identify: dict[str, Any] = field(default_factory=dict)
    """The ``d`` of the IDENTIFY that made the session."""

    @property
    def shard_id(self) -> int:
        return self.shard[0]

    @property
    def shard_count(self) -> int:
        return self.shard[1]

    @property
    def connected(self) -> bool:
        """A client is on the session now (else it is waiting for a RESUME)."""
        return self.ws is not None and not self.ws.closed

    def covers(self, guild_id: str | int | None) -> bool:
        """Whether the session gets the guild's events (``None``: a DM, or an event of no
        guild, which shard 0 gets), as Discord routes them."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    def interactions(self) -> list[dict[str, Any]]:
        """The interactions dispatched to this session (sent, or kept for its RESUME), oldest
        first among the last :data:`REPLAYED_EVENTS` events."""
        return [e["d"] for e in self.sent if e.get("t") == "INTERACTION_CREATE"]


class NoSessionForGuild(AssertionError):
    """:meth:`FakeDiscord.send_interaction` found gateway sessions, but none on the shard of the
    interaction's guild (shard 0 for a DM): on Discord the user would see "The application did
    not respond", and the test would wait in vain for an answer, so it fails at once instead."""


def shards_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether some guild is on shard ``a`` and on shard ``b`` (of their own counts)."""
    return (a[0] - b[0]) % math.gcd(a[1], b[1]) == 0
