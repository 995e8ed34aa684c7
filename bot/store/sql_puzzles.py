"""The store's puzzle queries and transactions (schema v14), written once for every SQL backend
as :mod:`bot.store.sql_store` is, and mixed into its :class:`SqlStore`.

"Exactly once" is a unique key each time: one attempt per user and puzzle, one daily post per
server and day (written with its outbox entry), one mining per game (written with the puzzles
it found).  An attempt moves on only by a write guarded by the ply it was read at, so a stale
tap changes nothing; its end rates solver and puzzle under named locks on both, in one
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from .mapping import DECODE, select_from
from .puzzle_rows import (
    AttemptRow,
    DailyRow,
    NewPuzzle,
    PuzzleRating,
    PuzzleRatingRow,
    PuzzleRow,
    RatedAttempt,
)
from .rows import GameRow, NewEvent
from .shards import EVERY_SHARD, Shards
from .shield import shielded_write
from .sql_part import SqlPart
from .sql_writes import GAMES, insert_event, insert_into, upsert

PUZZLES = select_from(PuzzleRow, "puzzles")
ATTEMPTS = select_from(AttemptRow, "puzzle_attempts")
RATINGS = select_from(PuzzleRatingRow, "puzzle_ratings")
DAILY = select_from(DailyRow, "puzzle_daily")
NEW_PUZZLE_FIELDS = tuple(f.name for f in fields(NewPuzzle))
INSERT_PUZZLE = insert_into("puzzles", NEW_PUZZLE_FIELDS, " ON CONFLICT DO NOTHING")
RATING_FIELDS = tuple(f.name for f in fields(PuzzleRatingRow))
KEY = ("guild_id", "user_id", "family")
UPSERT_RATING = upsert("puzzle_ratings", RATING_FIELDS, KEY)
UPSERT_DAILY = upsert(
    "puzzle_daily", ("guild_id", "channel_id", "variant", "set_by", "updated_at"), ("guild_id",)
)
NEAR_FIRST = 300.0
"""A server's own puzzle within this many points of the solver's rating is served before any
starter puzzle; beyond it the nearest puzzle, whoever's, is."""


def _puzzle_values(puzzle: NewPuzzle) -> tuple[Any, ...]:
    return tuple(getattr(puzzle, n) for n in NEW_PUZZLE_FIELDS)


class SqlPuzzles(SqlPart):
    """The puzzle methods of :class:`~bot.store.protocol.Store` (mixed into
    :class:`~bot.store.sql_store.SqlStore`, whose helpers they use)."""

    # -- puzzles ---------------------------------------------------------------------------

    @shielded_write
    async def add_puzzles(self, puzzles: Sequence[NewPuzzle]) -> int:
        async with self._transaction() as db:
            added = 0
            for puzzle in puzzles:
                added += await db.execute(INSERT_PUZZLE, _puzzle_values(puzzle))
            return added

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self._fetch_one(PUZZLES + " WHERE id = ?", (puzzle_id,))
        return None if row is None else DECODE[PuzzleRow](row)

    async def count_puzzles(self, guild_id: int | None, variant: str) -> int:
        row = await self._fetch_one(
            "SELECT COUNT(*) FROM puzzles WHERE variant = ? AND "
            + ("guild_id IS NULL" if guild_id is None else "guild_id = ?"),
            (variant,) if guild_id is None else (variant, guild_id),
        )
        return 0 if row is None else int(row[0])

    async def next_puzzle(
        self, guild_id: int, user_id: int, variant: str, rating: float
    ) -> PuzzleRow | None:
        row = await self._fetch_one(
            PUZZLES + " WHERE variant = ? AND (guild_id IS NULL OR guild_id = ?)"
            " AND id NOT IN (SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ?)"
            " ORDER BY CASE WHEN guild_id IS NOT NULL AND ABS(rating - ?) <= ? THEN 0 ELSE 1 END,"
            " ABS(rating - ?), id LIMIT 1",
            (variant, guild_id, user_id, rating, NEAR_FIRST, rating),
        )
        return None if row is None else DECODE[PuzzleRow](row)

    # -- attempts --------------------------------------------------------------------------

    @shielded_write
    async def start_attempt(
        self, puzzle_id: int, guild_id: int, user_id: int, now: float
    ) -> int | None:
        async with self._transaction() as db:
            added = await db.execute(
                "INSERT INTO puzzle_attempts (puzzle_id, guild_id, user_id, started_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (puzzle_id, guild_id, user_id, now),
            )
            if not added:
                return None
            await db.execute("UPDATE puzzles SET plays = plays + 1 WHERE id = ?", (puzzle_id,))
            row = await db.fetchrow(
                "SELECT id FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?",
                (user_id, puzzle_id),
            )
            assert row is not None
            return int(row[0])

    async def attempt(self, attempt_id: int) -> AttemptRow | None:
        row = await self._fetch_one(ATTEMPTS + " WHERE id = ?", (attempt_id,))
        return None if row is None else DECODE[AttemptRow](row)

    async def open_attempt(self, user_id: int, guild_id: int) -> AttemptRow | None:
        row = await self._fetch_one(
            ATTEMPTS + " WHERE user_id = ? AND guild_id = ? AND status = 'open'"
            " ORDER BY id DESC LIMIT 1",
            (user_id, guild_id),
        )
        return None if row is None else DECODE[AttemptRow](row)

    @shielded_write
    async def advance_attempt(
        self, attempt_id: int, ply: int, new_ply: int, *, hinted: bool = False
    ) -> bool:
        async with self._transaction() as db:
            flag = ", hinted = ?" if hinted else ""
            changed = await db.execute(
                f"UPDATE puzzle_attempts SET ply = ?{flag}"
                " WHERE id = ? AND ply = ? AND status = 'open'",
                (new_ply, *((True,) if hinted else ()), attempt_id, ply),
            )
            return changed == 1

    @shielded_write
    async def end_attempt(
        self,
        attempt_id: int,
        ply: int,
        *,
        to_ply: int,
        solved: bool,
        wrong_move: str | None,
        now: float,
        rate: PuzzleRating,
    ) -> RatedAttempt | None:
        async with self._transaction() as db:
            status = "solved" if solved else "failed"
            changed = await db.execute(
                "UPDATE puzzle_attempts SET status = ?, ply = ?, wrong_move = ?, ended_at = ?"
                " WHERE id = ? AND ply = ? AND status = 'open'",
                (status, to_ply, wrong_move, now, attempt_id, ply),
            )
            if changed != 1:
                return None  # stale, or ended already: nothing is rated twice
            found = await db.fetchrow(ATTEMPTS + " WHERE id = ?", (attempt_id,))
            assert found is not None
            attempt = DECODE[AttemptRow](found)
            raw = await db.fetchrow(PUZZLES + " WHERE id = ?", (attempt.puzzle_id,))
            assert raw is not None
            puzzle = DECODE[PuzzleRow](raw)
            key = (attempt.guild_id, attempt.user_id, puzzle.family)
            await db.lock_names(
                [f"puzzle-rating:{key[0]}:{key[1]}:{key[2]}", f"puzzle:{puzzle.id}"]
            )
            mine = await db.fetchrow(
                RATINGS + " WHERE guild_id = ? AND user_id = ? AND family = ?", key
            )
            before = None if mine is None else DECODE[PuzzleRatingRow](mine)
            raw = await db.fetchrow(PUZZLES + " WHERE id = ?", (attempt.puzzle_id,))
            assert raw is not None
            after, rated = rate(before, DECODE[PuzzleRow](raw))
            await db.execute(UPSERT_RATING, tuple(getattr(after, n) for n in RATING_FIELDS))
            await db.execute(
                "UPDATE puzzles SET rating = ?, deviation = ?, volatility = ? WHERE id = ?",
                (rated.rating, rated.deviation, rated.volatility, rated.id),
            )
            await db.execute(
                "UPDATE puzzle_attempts SET rating_before = ?, rating_after = ? WHERE id = ?",
                (None if before is None else before.rating, after.rating, attempt_id),
            )
            return RatedAttempt(before, after, rated.rating)

    # -- ratings ---------------------------------------------------------------------------

    async def puzzle_rating(
        self, guild_id: int, user_id: int, family: str
    ) -> PuzzleRatingRow | None:
        row = await self._fetch_one(
            RATINGS + " WHERE guild_id = ? AND user_id = ? AND family = ?",
            (guild_id, user_id, family),
        )
        return None if row is None else DECODE[PuzzleRatingRow](row)

    async def puzzle_ratings_of(self, guild_id: int, user_id: int) -> list[PuzzleRatingRow]:
        rows = await self._fetch_all(
            RATINGS + " WHERE guild_id = ? AND user_id = ? ORDER BY family", (guild_id, user_id)
        )
        return [DECODE[PuzzleRatingRow](r) for r in rows]

    async def puzzle_leaderboard(
        self, guild_id: int, family: str, limit: int
    ) -> list[PuzzleRatingRow]:
        rows = await self._fetch_all(
            RATINGS + " WHERE guild_id = ? AND family = ?"
            " ORDER BY rating DESC, attempts DESC, user_id LIMIT ?",
            (guild_id, family, limit),
        )
        return [DECODE[PuzzleRatingRow](r) for r in rows]

    # -- the daily puzzle ------------------------------------------------------------------

    @shielded_write
    async def set_daily(
        self, guild_id: int, channel_id: int | None, variant: str, set_by: int, now: float
    ) -> None:
        async with self._transaction() as db:
            if channel_id is None:
                await db.execute("DELETE FROM puzzle_daily WHERE guild_id = ?", (guild_id,))
                return
            await db.execute(
                UPSERT_DAILY,
                (guild_id, channel_id, variant, set_by, now),
            )

    async def daily(self, guild_id: int) -> DailyRow | None:
        row = await self._fetch_one(DAILY + " WHERE guild_id = ?", (guild_id,))
        return None if row is None else DECODE[DailyRow](row)

    async def dailies_due(self, day: str, *, shards: Shards = EVERY_SHARD) -> list[DailyRow]:
        rows = await self._fetch_all(
            DAILY + f" WHERE {shards.where()} AND guild_id NOT IN"
            " (SELECT guild_id FROM puzzle_daily_posts WHERE day = ?) ORDER BY guild_id",
            (day,),
        )
        return [DECODE[DailyRow](r) for r in rows]

    async def daily_candidate(self, guild_id: int, variant: str) -> PuzzleRow | None:
        row = await self._fetch_one(
            PUZZLES + " WHERE variant = ? AND (guild_id IS NULL OR guild_id = ?)"
            " AND id NOT IN (SELECT puzzle_id FROM puzzle_daily_posts WHERE guild_id = ?)"
            " ORDER BY CASE WHEN guild_id IS NULL THEN 1 ELSE 0 END, id LIMIT 1",
            (variant, guild_id, guild_id),
        )
        return None if row is None else DECODE[PuzzleRow](row)

    @shielded_write
    async def post_daily(
        self, guild_id: int, day: str, puzzle_id: int, event: NewEvent, payload: str
    ) -> bool:
        async with self._transaction() as db:
            added = await db.execute(
                "INSERT INTO puzzle_daily_posts"
                " (guild_id, day, puzzle_id, channel_id, event_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, puzzle_id, event.channel_id, event.id, event.created_at),
            )
            if not added:
                return False  # posted today already (another process, or before a restart)
            await insert_event(db, event)
            await db.execute("UPDATE outbox SET payload = ? WHERE id = ?", (payload, event.id))
            return True

    async def daily_posted(self, guild_id: int, day: str) -> int | None:
        row = await self._fetch_one(
            "SELECT puzzle_id FROM puzzle_daily_posts WHERE guild_id = ? AND day = ?",
            (guild_id, day),
        )
        return None if row is None else int(row[0])

    # -- mining ----------------------------------------------------------------------------

    async def games_to_mine(
        self, min_plies: int, limit: int, *, shards: Shards = EVERY_SHARD
    ) -> list[GameRow]:
        rows = await self._fetch_all(
            GAMES + " WHERE status = 'finished' AND guild_id IS NOT NULL AND ply >= ?"
            f" AND {shards.where()}"
            " AND id NOT IN (SELECT game_id FROM puzzle_mined)"
            " ORDER BY updated_at, id LIMIT ?",
            (min_plies, limit),
        )
        return [DECODE[GameRow](r) for r in rows]

    @shielded_write
    async def mined(self, game_id: int, puzzles: Sequence[NewPuzzle], now: float) -> bool:
        async with self._transaction() as db:
            first = await db.execute(
                "INSERT INTO puzzle_mined (game_id, found, mined_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (game_id, len(puzzles), now),
            )
            if not first:
                return False  # mined already: its puzzles are there
            for puzzle in puzzles:
                await db.execute(INSERT_PUZZLE, _puzzle_values(puzzle))
            return True
