"""``GameService.puzzles``: the puzzle actions the Discord layer calls, each written out with
its signature and handed to the room doing the work (:mod:`bot.service.puzzles`, solving and
ratings; :mod:`bot.service.puzzle_daily`, the daily puzzle; :mod:`bot.service.puzzle_mining`,
the puzzles of the server's games).  A face of its own, as tournaments have, keeps the game
service's face from growing; it is reached as a property, so the Discord layer still uses
methods only.
"""

from __future__ import annotations

from ..results import ActionResult, Player, PuzzleBoard, PuzzleStanding, PuzzleTurn
from ..store import DailyRow
from .puzzle_daily import DailyPuzzles
from .puzzle_mining import Mining
from .puzzles import Puzzles
from .shards import ShardOwnership


class PuzzleFace:
    """Every puzzle action: refusals raise :class:`~bot.errors.ServiceError` (nothing
    changed)."""

    def __init__(
        self,
        puzzles: Puzzles,
        daily: DailyPuzzles,
        mining: Mining,
        ownership: ShardOwnership,
    ) -> None:
        self._puzzles = puzzles
        self._daily = daily
        self._mining = mining
        self._ownership = ownership

    async def start(
        self,
        guild_id: int | None,
        user: Player,
        variant: str | None = None,
        *,
        puzzle_id: int | None = None,
        after: int | None = None,
    ) -> PuzzleTurn:
        """The user's open puzzle, else a new one (:meth:`Puzzles.start`)."""
        return await self._puzzles.start(guild_id, user, variant, puzzle_id=puzzle_id, after=after)

    async def move(self, attempt_id: int, user: Player, ply: int, text: str) -> PuzzleTurn:
        """A move in the attempt, guarded by its ply (:meth:`Puzzles.move`)."""
        return await self._puzzles.move(attempt_id, user, ply, text)

    async def hint(self, attempt_id: int, user: Player, ply: int) -> PuzzleTurn:
        """The piece to move (:meth:`Puzzles.hint`)."""
        return await self._puzzles.hint(attempt_id, user, ply)

    async def look(self, attempt_id: int, user: Player, ply: int) -> PuzzleTurn:
        """The open attempt at ``ply``, unchanged (:meth:`Puzzles.look`)."""
        return await self._puzzles.look(attempt_id, user, ply)

    async def standings(self, guild_id: int | None, user_id: int) -> list[PuzzleStanding]:
        """The user's puzzle ratings and streaks (:meth:`Puzzles.standings`)."""
        return await self._puzzles.standings(guild_id, user_id)

    async def leaderboard(
        self, guild_id: int | None, user_id: int, variant: str | None = None
    ) -> PuzzleBoard:
        """The server's puzzle leaderboard in a variant's family (:meth:`Puzzles.leaderboard`)."""
        return await self._puzzles.leaderboard(guild_id, user_id, variant)

    async def set_daily(
        self,
        guild_id: int | None,
        channel_id: int | None,
        moderator_id: int,
        variant: str | None = None,
        *,
        is_moderator: bool = False,
    ) -> DailyRow | None:
        """Moderators choose the daily puzzle's channel (:meth:`DailyPuzzles.set_channel`)."""
        return await self._daily.set_channel(
            guild_id, channel_id, moderator_id, variant, is_moderator=is_moderator
        )

    async def daily_setting(self, guild_id: int | None) -> DailyRow | None:
        """Where the server's daily puzzle is posted, if anywhere."""
        return await self._daily.setting(guild_id)

    async def tick(self) -> list[ActionResult]:
        """Today's daily posts due in this process's servers, and a round of mining started
        in the background when none is running (:meth:`Mining.start`)."""
        mine = await self._ownership.current()
        if mine.empty:
            return []
        posts = await self._daily.tick(mine)
        self._mining.start()
        return posts

    async def mine(self, games: int) -> int:
        """Mine up to ``games`` finished games now (tests and tools; the tick mines on its
        own): how many were mined."""
        return await self._mining.mine(games)

    async def settle(self) -> None:
        """Wait for the mining running in the background (tests)."""
        await self._mining.settle()

    async def close(self) -> None:
        await self._mining.close()
