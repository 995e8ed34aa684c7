"""The store's transactions and queries, written once for every SQL backend.

:class:`SqlStore` implements the reads and writes of :class:`~bot.store.protocol.Store` over a
:class:`~bot.store.dialect.Database`, in the one SQL form both backends run
(:mod:`bot.store.dialect`); the backends add how they open, migrate, check and share their
database (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`).

Every change to a game is one transaction guarded by the game's ``version`` (and a move also by
its ``ply``, the moves table's key), so two racing commands can never both land: the loser's
update matches no row (:class:`StaleVersion`).  Unique-index violations that mean something to
players become the domain errors of :mod:`bot.store.errors`.

A write whose caller is cancelled runs on to its end (:func:`~bot.store.shield.shielded_write`);
until it ends, every later operation of this store waits for it, so the process reads its own
writes whether the backend is one connection or a pool.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Any

from ..enums import ChallengeStatus, TimePool
from .dialect import Database, Params, Transaction
from .errors import ChallengeClosed, StoreUnavailable
from .mapping import DECODE, NEW_CHALLENGE_FIELDS, Row, row_values, select_from
from .rows import (
    ChallengeRow,
    EventAnswer,
    EventRow,
    FollowUp,
    GameChanges,
    GameRow,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsChanges,
    PrefsRow,
    RatedGame,
    RatingRow,
    SettingsChanges,
    SettingsRow,
    TakenBackMove,
)
from .shards import EVERY_SHARD, Shards
from .shield import Orphans, shielded_write
from .sql_analyses import SqlAnalyses
from .sql_imports import SqlImports
from .sql_puzzles import SqlPuzzles
from .sql_tournaments import SqlTournaments, step_pairing_tournament
from .sql_writes import (
    ARCHIVE_MOVES,
    ENDED,
    GAMES,
    INSERT_MOVE,
    RATING_OF,
    guarded_update,
    guild_is,
    insert_event,
    insert_game,
    insert_into,
    rate_game,
    save_keyed,
    upsert,
)
from .tournament_rows import TournamentUpdate

ReadObserver = Callable[[str, Params], None]
"""Told each query the store reads with outside a transaction (its SQL in the store's form, with
``?`` placeholders, and its parameters), before it runs."""

CHALLENGES = select_from(ChallengeRow, "challenges")
ACCEPT_CHALLENGE = (
    "UPDATE challenges SET status = 'accepted', game_id = g.id, updated_at = ?,"
    " opponent_id = CASE WHEN challenges.challenger_id = g.white_id THEN g.black_id"
    " ELSE g.white_id END,"
    " opponent_name = CASE WHEN challenges.challenger_id = g.white_id THEN g.black_name"
    " ELSE g.white_name END"
    " FROM games g WHERE g.id = ? AND challenges.id = ? AND challenges.status = 'open'"
)
"""A challenge accepted by the game just started (parameters: the time, the game, the
challenge).  The guard is the status: of two racing accepts (an open
challenge pressed by two people at once) only one finds it open, and the other's game is
rolled back with it.  The game's player who is not the challenger is written in as the
opponent: the accepter of an open challenge (a named opponent stays as it was)."""
OPEN_CHALLENGES_LISTED = 100
"""At most this many open challenges of a server are listed (the oldest first): a server has
one per challenger and channel, and a lobby of more is read a page at a time anyway."""
INSERT_CHALLENGE = insert_into(
    "challenges", [*NEW_CHALLENGE_FIELDS, "status", "updated_at"], fixed={"status": "'open'"}
)
NO_ANSWER = (
    "answer_token = NULL, answer_interaction = NULL, answer_channel = NULL, answer_at = NULL"
)
"""An announcement delivered or refused has no interaction message left to look for."""
NEWEST_FIRST = " ORDER BY updated_at DESC, id DESC LIMIT ?"


class SqlStore(SqlTournaments, SqlAnalyses, SqlImports, SqlPuzzles):
    """The queries of a :class:`~bot.store.protocol.Store` on ``database``; a backend's class
    adds opening, closing, the schema version, the integrity check and shard ownership."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self.orphans = Orphans()
        """Writes still running whose callers were cancelled (:func:`shielded_write`)."""
        self._observer: ReadObserver | None = None
        self._board_of = "SELECT board_message_id FROM games WHERE id = ?" + database.row_lock
        self._offer_of = (
            "SELECT offer_message_id, draw_offer, status FROM games WHERE id = ?"
            + database.row_lock
        )

    async def close(self) -> None:
        await self.orphans.settled()
        await self._database.close()

    def abandon(self) -> None:
        self._database.abandon()

    async def ping(self, seconds: float) -> None:
        """Not after the writes in flight: the answer says whether the database answers now."""
        try:
            async with asyncio.timeout(seconds):
                await self._database.fetchrow("SELECT 1")
        except TimeoutError:
            raise StoreUnavailable(f"the database did not answer within {seconds:g} s") from None

    @contextmanager
    def observing_reads(self, observer: ReadObserver) -> Iterator[None]:
        """Tell ``observer`` every query read outside a transaction while in this block (for a
        benchmark that lists and explains the statements a command runs)."""
        self._observer = observer
        try:
            yield
        finally:
            self._observer = None

    def _transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One transaction of the backend (a unique-index violation that means something to
        players leaves it as its domain error), after the writes left running by cancelled
        callers."""
        if self.orphans.running:
            return self._after_orphans()
        return self._database.transaction()

    @asynccontextmanager
    async def _after_orphans(self) -> AsyncIterator[Transaction]:
        await self.orphans.settled()
        async with self._database.transaction() as db:
            yield db

    async def _fetch_one(self, sql: str, params: Params = ()) -> Sequence[Any] | None:
        if self.orphans.running:
            await self.orphans.settled()
        if self._observer is not None:
            self._observer(sql, params)
        return await self._database.fetchrow(sql, params)

    async def _fetch_all(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        if self.orphans.running:
            await self.orphans.settled()
        if self._observer is not None:
            self._observer(sql, params)
        return await self._database.fetchall(sql, params)

    async def _one(self, cls: type[Row], sql: str, params: Params = ()) -> Row | None:
        row = await self._fetch_one(sql, params)
        return None if row is None else DECODE[cls](row)

    async def _all(self, cls: type[Row], sql: str, params: Params = ()) -> list[Row]:
        decode = DECODE[cls]
        return [decode(row) for row in await self._fetch_all(sql, params)]

    # -- challenges ------------------------------------------------------------------------------

    @shielded_write
    async def insert_challenge(self, challenge: NewChallenge, event: NewEvent | None = None) -> int:
        async with self._transaction() as db:
            challenge_id = await db.insert(
                INSERT_CHALLENGE, (*row_values(challenge), challenge.created_at)
            )
            if event is not None:
                await insert_event(db, replace(event, challenge_id=challenge_id))
            return challenge_id

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        return await self._one(ChallengeRow, CHALLENGES + " WHERE id = ?", (challenge_id,))

    async def open_challenge_of(self, challenger_id: int, channel_id: int) -> ChallengeRow | None:
        sql = CHALLENGES + " WHERE challenger_id = ? AND channel_id = ? AND status = 'open'"
        return await self._one(ChallengeRow, sql, (challenger_id, channel_id))

    @shielded_write
    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: float,
        event: NewEvent | None = None,
    ) -> bool:
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE challenges SET status = ?, updated_at = ? WHERE id = ? AND status = 'open'",
                (str(status), now, challenge_id),
            )
            if changed != 1:
                return False
            if event is not None:
                await insert_event(db, event)
            return True

    @shielded_write
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def open_challenges_in(self, guild_id: int, now: float) -> list[ChallengeRow]:
        sql = CHALLENGES + (
            " WHERE guild_id = ? AND status = 'open' AND opponent_id IS NULL AND expires_at > ?"
            f" ORDER BY created_at, id LIMIT {OPEN_CHALLENGES_LISTED}"
        )
        return await self._all(ChallengeRow, sql, (guild_id, now))

    async def expired_challenges(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> list[ChallengeRow]:
        sql = CHALLENGES + (
            f" WHERE status = 'open' AND expires_at <= ? AND {shards.where()} ORDER BY expires_at"
        )
        return await self._all(ChallengeRow, sql, (now,))

    # -- games -----------------------------------------------------------------------------------

    @shielded_write
    async def start_game(
        self, game: NewGame, challenge_id: int | None = None, event: NewEvent | None = None
    ) -> int:
        async with self._transaction() as db:
            game_id = await insert_game(db, game)
            if challenge_id is not None:
                changed = await db.execute(
                    ACCEPT_CHALLENGE, (game.created_at, game_id, challenge_id)
                )
                if changed != 1:
                    raise ChallengeClosed("the challenge is no longer open")
            if event is not None:
                await insert_event(db, replace(event, game_id=game_id))
            return game_id

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(GameRow, GAMES + " WHERE id = ?", (game_id,))

    async def running_game_in(self, channel_id: int) -> GameRow | None:
        sql = GAMES + " WHERE channel_id = ? AND status = 'running'"
        return await self._one(GameRow, sql, (channel_id,))

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        sql = GAMES + f" WHERE channel_id = ? AND {ENDED} ORDER BY updated_at DESC, id DESC LIMIT 1"
        return await self._one(GameRow, sql, (channel_id,))

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        guild, params = guild_is(guild_id)
        sql = GAMES + f" WHERE status = 'running' AND {guild} ORDER BY id"
        return await self._all(GameRow, sql, params)

    async def computer_games_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = GAMES + (
            " WHERE status = 'running' AND computer_id IS NOT NULL AND deadline IS NULL"
            f" AND {shards.where()} ORDER BY id"
        )
        return await self._all(GameRow, sql)

    async def moves(self, game_id: int) -> list[MoveRow]:
        sql = select_from(MoveRow, "moves") + " WHERE game_id = ? ORDER BY ply"
        return await self._all(MoveRow, sql, (game_id,))

    @shielded_write
    async def update_game(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        move: NewMove | None = None,
        *,
        rated: RatedGame | None = None,
        follow_up: NewGame | FollowUp | None = None,
        event: NewEvent | None = None,
        tournament: TournamentUpdate | None = None,
    ) -> None:
        async with self._transaction() as db:
            await guarded_update(db, game_id, version, changes)
            if move is not None:
                await db.execute(INSERT_MOVE, (game_id, *row_values(move)))
            change = None if rated is None else await rate_game(db, game_id, rated)
            if follow_up is not None:
                if not isinstance(follow_up, NewGame):
                    follow_up = follow_up(change)
                await insert_game(db, follow_up)
            if event is not None:
                await insert_event(db, event)
            if tournament is not None:
                await step_pairing_tournament(db, tournament.pairing_id, tournament.step)

    @shielded_write
    async def take_back(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        ply: int,
        when: float,
        event: NewEvent | None = None,
    ) -> None:
        async with self._transaction() as db:
            await guarded_update(db, game_id, version, changes)
            await db.execute(ARCHIVE_MOVES, (when, game_id, ply))
            await db.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
            if event is not None:
                await insert_event(db, event)

    async def taken_back_moves(self, game_id: int) -> list[TakenBackMove]:
        rows = await self._fetch_all(
            "SELECT ply, pdn, taken_back_at FROM taken_back_moves WHERE game_id = ?"
            " ORDER BY taken_back_at, ply",
            (game_id,),
        )
        return [TakenBackMove(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def due_games(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> tuple[list[GameRow], list[GameRow]]:
        mine = shards.where()
        timeouts = await self._all(
            GameRow,
            GAMES + " WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= ?"
            f" AND {mine} ORDER BY id",
            (now,),
        )
        reminders = await self._all(
            GameRow,
            GAMES + " WHERE status = 'running' AND (remind_at <= ? OR warn_at <= ?)"
            f" AND (deadline IS NULL OR deadline > ?) AND {mine} ORDER BY id",
            (now, now, now),
        )
        return timeouts, reminders

    async def running_clocks(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        return await self._all(
            GameRow,
            GAMES + " WHERE status = 'running' AND clock_base IS NOT NULL"
            f" AND deadline IS NOT NULL AND {shards.where()} ORDER BY id",
            (),
        )

    @shielded_write
    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        async with self._transaction() as db:
            row = await db.fetchrow(self._board_of, (game_id,))
            previous = None if row is None or row[0] is None else int(row[0])
            if previous is not None and previous >= message_id:
                return None if previous == message_id else message_id
            await db.execute(
                "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
            )
            return previous

    @shielded_write
    async def offer_posted(self, game_id: int, message_id: int) -> bool:
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE games SET offer_message_id = ? WHERE id = ? AND draw_offer IS NOT NULL"
                " AND status = 'running'",
                (message_id, game_id),
            )
            return changed == 1

    async def offer_over(self, game_id: int) -> int | None:
        # Nearly every board asks, and nearly always nothing is remembered: a plain read
        # first, the locked read and write only when there is a message to give back.
        known = await self._fetch_one("SELECT offer_message_id FROM games WHERE id = ?", (game_id,))
        if known is None or known[0] is None:
            return None
        return await self._offer_taken(game_id)

    @shielded_write
    async def _offer_taken(self, game_id: int) -> int | None:
        async with self._transaction() as db:
            row = await db.fetchrow(self._offer_of, (game_id,))
            if row is None or row[0] is None:
                return None  # another process took it first
            if row[1] is not None and row[2] == "running":
                return None  # the offer stands
            await db.execute("UPDATE games SET offer_message_id = NULL WHERE id = ?", (game_id,))
            return int(row[0])

    # -- matches, history, ratings ---------------------------------------------------------------

    async def match_games(self, match_id: int) -> list[GameRow]:
        return await self._all(GameRow, GAMES + " WHERE match_id = ? ORDER BY id", (match_id,))

    async def matches_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        sql = select_from(GameRow, "games g") + (
            " WHERE g.match_id = g.id AND g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM games h WHERE h.match_id = g.id AND h.id <> g.id)"
            f" AND {shards.where('g.guild_id')} ORDER BY g.id"
        )
        return await self._all(GameRow, sql)

    async def finished_games(
        self,
        guild_id: int | None,
        *,
        user_id: int | None = None,
        variant: str | None = None,
        limit: int = 10,
    ) -> list[GameRow]:
        """One player's games are read colour by colour, each side from its own index
        (``games_by_white``/``games_by_black``), so the cost follows the player's games, not
        the server's."""
        guild, params = guild_is(guild_id)
        where = f" WHERE {guild} AND {ENDED}"
        extra: Params = ()
        if variant is not None:
            where += " AND variant = ?"
            extra = (variant,)
        if user_id is None:
            return await self._all(GameRow, GAMES + where + NEWEST_FIRST, (*params, *extra, limit))
        sides = [
            f"SELECT * FROM ({GAMES}{where} AND {side} = ?{NEWEST_FIRST}) AS {alias}"
            for side, alias in (("white_id", "w"), ("black_id", "b"))
        ]
        sql = "SELECT * FROM (" + " UNION ALL ".join(sides) + ") AS g" + NEWEST_FIRST
        side_params = (*params, *extra, user_id, limit)
        return await self._all(GameRow, sql, (*side_params, *side_params, limit))

    async def rating(
        self, guild_id: int, user_id: int, variant: str, pool: str = TimePool.CORRESPONDENCE
    ) -> RatingRow | None:
        return await self._one(RatingRow, RATING_OF, (guild_id, user_id, variant, pool))

    async def leaderboard(
        self, guild_id: int, variant: str, limit: int = 10, pool: str = TimePool.CORRESPONDENCE
    ) -> list[RatingRow]:
        sql = select_from(RatingRow, "ratings") + (
            " WHERE guild_id = ? AND variant = ? AND pool = ?"
            " ORDER BY rating DESC, games DESC, user_id LIMIT ?"
        )
        return await self._all(RatingRow, sql, (guild_id, variant, pool, limit))

    async def rank(self, mine: RatingRow) -> tuple[int, int]:
        rating, games = mine.rating, mine.games
        row = await self._fetch_one(
            "SELECT COUNT(*) FILTER (WHERE rating > ? OR (rating = ? AND games > ?)"
            " OR (rating = ? AND games = ? AND user_id < ?)), COUNT(*)"
            " FROM ratings WHERE guild_id = ? AND variant = ? AND pool = ?",
            (
                *(rating, rating, games, rating, games, mine.user_id),
                *(mine.guild_id, mine.variant, mine.pool),
            ),
        )
        assert row is not None
        return int(row[0]) + 1, int(row[1])

    # -- the outbox and what the process keeps between runs -------------------------------------

    async def pending_events(
        self,
        now: float,
        *,
        shards: Shards = EVERY_SHARD,
        game_id: int | None = None,
        limit: int = 100,
    ) -> list[EventRow]:
        sql = select_from(EventRow, "outbox") + (
            " WHERE delivered_at IS NULL AND next_attempt_at <= ?"
        )
        params: tuple[Any, ...] = (now,)
        if game_id is not None:  # a game in this process's hands, wherever it is
            sql += " AND game_id = ?"
            params += (game_id,)
        else:
            sql += f" AND {shards.where()}"
        return await self._all(EventRow, sql + " ORDER BY seq LIMIT ?", (*params, limit))

    @shielded_write
    async def event_answering(self, event_id: str, answer: EventAnswer) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET answer_token = ?, answer_at = ?, answer_interaction = ?,"
                " answer_channel = ? WHERE id = ? AND delivered_at IS NULL",
                (answer.token, answer.at, answer.interaction_id, answer.channel_id, event_id),
            )

    @shielded_write
    async def mark_events(self, delivered: Sequence[tuple[str, float]]) -> None:
        async with self._transaction() as db:
            await db.executemany(
                f"UPDATE outbox SET delivered_at = ?, payload = NULL, {NO_ANSWER} WHERE id = ?",
                [(at, event_id) for event_id, at in delivered],
            )

    @shielded_write
    async def event_failed(self, event_id: str, payload: str | None, retry_at: float) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?,"
                f" payload = coalesce(payload, ?), {NO_ANSWER}"
                " WHERE id = ? AND delivered_at IS NULL",
                (retry_at, payload, event_id),
            )

    @shielded_write
    async def prune_events(self, delivered_before: float) -> int:
        async with self._transaction() as db:
            return await db.execute(
                "DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?",
                (delivered_before,),
            )

    async def meta(self, key: str) -> str | None:
        row = await self._fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    @shielded_write
    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                upsert("meta", ("key", "value"), ("key",)),
                (key, value),
            )

    # -- user preferences ------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> PrefsRow | None:
        sql = select_from(PrefsRow, "user_prefs") + " WHERE user_id = ?"
        return await self._one(PrefsRow, sql, (user_id,))

    @shielded_write
    async def save_prefs(self, user_id: int, changes: PrefsChanges, *, when: float) -> None:
        async with self._transaction() as db:
            await save_keyed(db, "user_prefs", ("user_id", user_id), changes, when)

    # -- server settings -------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SettingsRow | None:
        sql = select_from(SettingsRow, "guild_settings") + " WHERE guild_id = ?"
        return await self._one(SettingsRow, sql, (guild_id,))

    async def game_channels(self, guild_id: int) -> list[int]:
        rows = await self._fetch_all(
            "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    @shielded_write
    async def save_settings(
        self,
        guild_id: int,
        changes: SettingsChanges,
        *,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        when: float,
    ) -> None:
        async with self._transaction() as db:
            await save_keyed(db, "guild_settings", ("guild_id", guild_id), changes, when)
            if all_channels:
                await db.execute("DELETE FROM guild_channels WHERE guild_id = ?", (guild_id,))
            await db.executemany(
                "INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT DO NOTHING",
                [(guild_id, c) for c in allow],
            )
            await db.executemany(
                "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?",
                [(guild_id, c) for c in disallow],
            )
