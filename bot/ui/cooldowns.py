"""How often a command may post in public: a quiet channel.

A board or a replay anyone asks for is a new message for everyone in the channel, so what is
asked for again and again is shown to the one who asked instead (privately, saying from when
a public post is possible again), never refused outright:

- each user posts a ``/board`` publicly at most once every 30 seconds and a ``/replay`` once
  every 10 minutes;
- a channel gets at most 4 ``/board`` posts a minute and 2 ``/replay`` GIFs every 10 minutes,
  whoever asks (so many users together cannot flood it either);
- a spectator's ``/board`` is private while the game's board is in view: it was posted under
  :data:`BOARD_FRESH_SECONDS` ago, or is the channel's latest message (a player's goes out,
  within their limit: it brings the board they play on back under a chat);
- a spectator's ``/replay`` is always private (a long game's GIF is over a megabyte);
- a tournament's standings asked for by one of its players go out at most once every 5 minutes
  per user and twice every 5 minutes per channel; anyone else's are private (the round's
  standings are posted by the bot anyway).

The counts live in the memory of the process that serves the server (one process serves a
server), so checking them costs no database round trip; a restart forgets them, which lets one
post through early at most.  Moves and the game's own announcements are never limited.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from discord.utils import snowflake_time

from ..i18n import Text, _


@dataclass(frozen=True)
class Limit:
    """A user posts once every ``user_seconds``; a channel gets ``channel_posts`` posts every
    ``channel_seconds``."""

    user_seconds: float
    channel_posts: int
    channel_seconds: float


class Post(Enum):
    """A kind of public post some command makes, with its limit."""

    BOARD = Limit(user_seconds=30, channel_posts=4, channel_seconds=60)
    REPLAY = Limit(user_seconds=600, channel_posts=2, channel_seconds=600)
    STANDINGS = Limit(user_seconds=300, channel_posts=2, channel_seconds=300)

    @property
    def limit(self) -> Limit:
        limit: Limit = self.value
        return limit


BOARD_FRESH_SECONDS: Final = 120.0
"""A board posted less than this long ago is still in view for a spectator, even if a few chat
messages came after it."""

SWEEP_AT: Final = 1024
"""Forgotten users and channels are swept out once this many are kept."""


def board_in_view(board_id: int | None, latest_id: int | None, now: float) -> bool:
    """Whether the game's board message ``board_id`` is still in front of everyone: posted
    under :data:`BOARD_FRESH_SECONDS` before ``now`` (its id says when), or the channel's
    latest message (``latest_id``)."""
    if board_id is None:
        return False
    return board_id == latest_id or now - snowflake_time(board_id).timestamp() < BOARD_FRESH_SECONDS


class Cooldowns:
    """The public posts of one process's users and channels, counted against :class:`Post`'s
    limits (``clock``: seconds since the epoch, so the time a refusal names is a Discord
    timestamp)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._users: dict[tuple[Post, int], float] = {}
        """When each user may post each kind again."""
        self._channels: dict[tuple[Post, int], deque[float]] = {}
        """When each channel's recent posts of each kind were made, oldest first."""

    def claim(self, post: Post, user_id: int, channel_id: int) -> float | None:
        """Count one public ``post`` by ``user_id`` in ``channel_id`` and return None if the
        limits allow it; otherwise count nothing and return the time from which they will."""
        now = self._clock()
        limit = post.limit
        recent = self._recent(post, channel_id, now)
        waits = []
        free = self._users.get((post, user_id), 0.0)
        if free > now:
            waits.append(free)
        if len(recent) >= limit.channel_posts:
            waits.append(recent[0] + limit.channel_seconds)
        if waits:
            return max(waits)
        if len(self._users) >= SWEEP_AT or len(self._channels) >= SWEEP_AT:
            self._sweep(now)
        self._users[post, user_id] = now + limit.user_seconds
        self._channels.setdefault((post, channel_id), recent).append(now)
        return None

    def held_back(self, post: Post, user_id: int, channel_id: int) -> Text | None:
        """:meth:`claim` one public ``post``: None if it may go out (it is counted), else the
        line telling the user it is shown to them alone, and from when a public one may go."""
        until = self.claim(post, user_id, channel_id)
        if until is None:
            return None
        when = f"<t:{int(until) + (until % 1 > 0)}:R>"  # rounded up: never too early
        if post is Post.BOARD:
            return _(
                "Only you see this board: boards were just posted here; you can post one for "
                "everyone again {when}.",
                when=when,
            )
        if post is Post.STANDINGS:
            return _(
                "Only you see these standings: standings were just posted here; you can post "
                "them for everyone again {when}.",
                when=when,
            )
        return _(
            "Only you see this replay: replays were just posted here; you can post one for "
            "everyone again {when}.",
            when=when,
        )

    def _recent(self, post: Post, channel_id: int, now: float) -> deque[float]:
        recent = self._channels.get((post, channel_id), deque())
        while recent and recent[0] <= now - post.limit.channel_seconds:
            recent.popleft()
        return recent

    def _sweep(self, now: float) -> None:
        """Forget the users and channels whose limits have all run out."""
        self._users = {key: free for key, free in self._users.items() if free > now}
        self._channels = {
            key: recent
            for key, recent in self._channels.items()
            if self._recent(key[0], key[1], now)
        }
