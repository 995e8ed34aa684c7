"""Which servers a process looks after: Discord's shard of a guild, and the shards a process owns.

Discord splits a bot's servers into ``count`` shards by ``(guild_id >> 22) % count``, and sends
direct messages (and everything outside a server) on shard 0.  A bot process connected for some
of the shards hears only their servers' players, so it is the one that runs their deadlines,
reminders, computer replies and owed announcements: the background queries of the store take a
:class:`Shards` and return only the rows of its servers.  The arithmetic is Discord's own
(https://discord.com/developers/docs/topics/gateway#sharding), written once here for Python and
once for SQL, and both stores use the SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SNOWFLAKE_TIME_SHIFT = 22
"""A snowflake's low 22 bits are worker, process and increment: the shard comes from the rest."""


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a server's events come on (outside any server: shard 0)."""
    return 0 if guild_id is None else (guild_id >> SNOWFLAKE_TIME_SHIFT) % count


@dataclass(frozen=True)
class Shards:
    """Some of the ``count`` shards of the bot (all of them: :meth:`every`)."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a bot has at least one shard, not {self.count}")
        wrong = sorted(i for i in self.ids if not 0 <= i < self.count)
        if wrong:
            raise ValueError(f"shards {wrong} do not exist among {self.count}")

    @classmethod
    def every(cls, count: int = 1) -> Shards:
        """All shards of ``count`` (one process for the whole bot)."""
        return cls(count, frozenset(range(count)))

    @classmethod
    def of(cls, count: int, ids: Iterable[int]) -> Shards:
        return cls(count, frozenset(ids))

    def none(self) -> Shards:
        """No shard of the same count (a process that owns nothing yet)."""
        return Shards(self.count, frozenset())

    @property
    def everything(self) -> bool:
        return len(self.ids) == self.count

    @property
    def empty(self) -> bool:
        return not self.ids

    @property
    def global_work(self) -> bool:
        """Whether these shards carry the bot's global work (shard 0: direct messages, command
        registration, pruning what every server shares)."""
        return 0 in self.ids

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def where(self, column: str = "guild_id") -> str:
        """An SQL condition on ``column`` (a guild id, NULL outside any server) true for the rows
        of these shards; the same on SQLite and PostgreSQL.  Only integers validated by the
        constructor are written into it."""
        if self.everything:
            return "TRUE"
        if self.empty:
            return "FALSE"
        ids = ", ".join(str(i) for i in sorted(self.ids))
        return f"((COALESCE({column}, 0) >> {SNOWFLAKE_TIME_SHIFT}) % {self.count}) IN ({ids})"

    def __str__(self) -> str:
        if self.count == 1:
            return "every server" if self.ids else "no server"
        return f"shards {_ranges(sorted(self.ids))} of {self.count}"


def _ranges(ids: list[int]) -> str:
    """``[0, 1, 2, 5]`` as ``0-2,5``."""
    if not ids:
        return "none"
    parts: list[str] = []
    start = prev = ids[0]
    for i in [*ids[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts)


EVERY_SHARD = Shards.every()
"""The whole bot in one process: every server, no filter."""
