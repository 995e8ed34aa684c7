"""SQLite store: schema, migrations and the queries the service needs (aiosqlite).

Durability rules: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives the process
being killed at any point; only a power cut can lose the last commits), foreign keys on, and a busy
timeout so a second connection waits instead of failing.  Every change to a game is one
transaction guarded by the game's ``version`` (and a move also by its ``ply``, the moves table's
key), so two racing commands can never both land: the loser's update matches no row.

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` are applied in order at
start-up, each in its own transaction, so an old file upgrades in place.  A file written by a newer
version of the bot is refused with :class:`SchemaTooNewError` rather than misread.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .service import ratings

SCHEMA_V1 = """
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER NOT NULL,
    opponent_name   TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    color           TEXT    NOT NULL CHECK (color IN ('random', 'white', 'black')),
    move_time       INTEGER NOT NULL CHECK (move_time > 0),
    thread          INTEGER NOT NULL DEFAULT 0,
    opening         TEXT    NOT NULL DEFAULT '',
    level           INTEGER,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         INTEGER REFERENCES games (id),
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
CREATE UNIQUE INDEX challenges_one_open ON challenges (challenger_id, channel_id)
    WHERE status = 'open';

CREATE TABLE games (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER,
    channel_id          INTEGER NOT NULL,
    white_id            INTEGER NOT NULL,
    white_name          TEXT    NOT NULL,
    black_id            INTEGER NOT NULL,
    black_name          TEXT    NOT NULL,
    computer_id         INTEGER,
    computer_level      INTEGER,
    variant             TEXT    NOT NULL,
    start_fen           TEXT    NOT NULL,
    opening             TEXT    NOT NULL DEFAULT '',
    status              TEXT    NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'finished', 'aborted')),
    result              TEXT,
    termination         TEXT,
    termination_detail  TEXT    NOT NULL DEFAULT '',
    winner              TEXT    CHECK (winner IN ('white', 'black')),
    ply                 INTEGER NOT NULL DEFAULT 0,
    fen                 TEXT    NOT NULL,
    move_time           INTEGER NOT NULL CHECK (move_time > 0),
    deadline            REAL,
    remind_at           REAL,
    draw_offer          TEXT    CHECK (draw_offer IN ('white', 'black')),
    advantage_side      TEXT    CHECK (advantage_side IN ('white', 'black')),
    advantage_start_ply INTEGER,
    version             INTEGER NOT NULL DEFAULT 0,
    created_at          REAL    NOT NULL,
    updated_at          REAL    NOT NULL
);
CREATE UNIQUE INDEX games_one_running_per_channel ON games (channel_id) WHERE status = 'running';
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    pdn       TEXT    NOT NULL,
    fen_after TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    played_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""

SCHEMA_V2 = """
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'running';
CREATE INDEX games_remind_at ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_finished_in_channel ON games (channel_id, updated_at) WHERE status != 'running';
CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'open';

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    rating     REAL    NOT NULL DEFAULT 1500,
    deviation  REAL    NOT NULL DEFAULT 350,
    volatility REAL    NOT NULL DEFAULT 0.06,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant)
) WITHOUT ROWID;
"""

SCHEMA_V3 = """
ALTER TABLE challenges ADD COLUMN message_id INTEGER;
"""
"""v3: the id of the message that shows a challenge, so its buttons can be taken away when it
expires or is answered."""

SCHEMA_V4 = """
ALTER TABLE challenges ADD COLUMN match_play INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating REAL;
ALTER TABLE games ADD COLUMN white_rating_change REAL;
ALTER TABLE games ADD COLUMN black_rating REAL;
ALTER TABLE games ADD COLUMN black_rating_change REAL;
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES games (id);
ALTER TABLE games ADD COLUMN takeback_offer TEXT CHECK (takeback_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_refused_ply INTEGER;

CREATE INDEX games_finished_by_guild ON games (guild_id, updated_at) WHERE status != 'running';
CREATE INDEX games_of_match ON games (match_id) WHERE match_id IS NOT NULL;
CREATE INDEX games_by_white ON games (guild_id, white_id, updated_at) WHERE status != 'running';
CREATE INDEX games_by_black ON games (guild_id, black_id, updated_at) WHERE status != 'running';

ALTER TABLE ratings ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE ratings ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN losses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN streak TEXT CHECK (streak IN ('W', 'D', 'L'));
ALTER TABLE ratings ADD COLUMN streak_length INTEGER NOT NULL DEFAULT 0;

CREATE TABLE taken_back_moves (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,
    pdn           TEXT    NOT NULL,
    fen_after     TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    played_at     REAL    NOT NULL,
    taken_back_at REAL    NOT NULL
);
CREATE INDEX taken_back_by_game ON taken_back_moves (game_id);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    variant    TEXT,
    move_time  INTEGER CHECK (move_time > 0),
    threads    TEXT    NOT NULL DEFAULT 'optional'
               CHECK (threads IN ('optional', 'always', 'never')),
    updated_at REAL    NOT NULL
);

CREATE TABLE guild_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;
"""
"""v4 (social play): matches (``match_id`` is the id of the match's first game, so a match needs
no table of its own); ratings written with the finished game, with the player's name, record and
streak, so ``/stats`` and ``/leaderboard`` read one row per player; takeback requests and the
archive of taken-back moves (a takeback moves rows there rather than losing them); server
settings."""

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, SCHEMA_V1),
    (2, SCHEMA_V2),
    (3, SCHEMA_V3),
    (4, SCHEMA_V4),
)
"""(version, SQL) in order; the database's ``user_version`` is the last one applied."""
SCHEMA_VERSION = MIGRATIONS[-1][0]


class StoreError(RuntimeError):
    """The database cannot be used; the message says what to do."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer version of the bot."""


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    color: str
    move_time: int
    thread: int
    opening: str
    level: int | None
    status: str
    game_id: int | None
    created_at: float
    expires_at: float
    updated_at: float
    message_id: int | None
    match_play: int


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    computer_id: int | None
    computer_level: int | None
    variant: str
    start_fen: str
    opening: str
    status: str
    result: str | None
    termination: str | None
    termination_detail: str
    winner: str | None
    ply: int
    fen: str
    move_time: int
    deadline: float | None
    remind_at: float | None
    draw_offer: str | None
    advantage_side: str | None
    advantage_start_ply: int | None
    version: int
    created_at: float
    updated_at: float
    rated: int
    white_rating: float | None
    white_rating_change: float | None
    black_rating: float | None
    black_rating_change: float | None
    match_id: int | None
    takeback_offer: str | None
    takeback_refused_ply: int | None


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    pdn: str
    fen_after: str
    user_id: int
    played_at: float


@dataclass(frozen=True)
class RatingRow:
    guild_id: int
    user_id: int
    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated_at: float
    name: str
    """The player's name in their latest rated game."""
    wins: int
    draws: int
    losses: int
    streak: str | None
    """``W``, ``D`` or ``L``: the latest rated result, repeated ``streak_length`` times in a row."""
    streak_length: int

    @property
    def glicko(self) -> ratings.Rating:
        return ratings.Rating(self.rating, self.deviation, self.volatility)


@dataclass(frozen=True)
class SettingsRow:
    guild_id: int
    variant: str | None
    move_time: int | None
    threads: str
    updated_at: float


@dataclass(frozen=True)
class RatedResult:
    """What a finished rated game feeds the ladder: White's score (1, 0.5 or 0)."""

    guild_id: int
    variant: str
    white_id: int
    black_id: int
    white_score: float
    white_name: str = ""
    black_name: str = ""


Row = TypeVar("Row", ChallengeRow, GameRow, MoveRow, RatingRow, SettingsRow)
T = TypeVar("T")

_COLUMNS = {
    cls: tuple(f.name for f in fields(cls))
    for cls in (ChallengeRow, GameRow, MoveRow, RatingRow, SettingsRow)
}
_MOVE_COLUMNS = "game_id, ply, pdn, fen_after, user_id, played_at"


def _row(cls: type[Row], row: sqlite3.Row | None) -> Row | None:
    return None if row is None else cls(*row)


def _select(cls: type[Any], table: str) -> str:
    return f"SELECT {', '.join(_COLUMNS[cls])} FROM {table}"


_RATING_OF = _select(RatingRow, "ratings") + " WHERE guild_id = ? AND user_id = ? AND variant = ?"


def _shielded(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Run a write to completion even if the caller is cancelled (a command timing out, a
    shutdown): a transaction interrupted between statements would otherwise leave the shared
    connection inside ``BEGIN`` for the next caller.  The caller still sees the cancellation and
    the service drops its in-memory copy, so it rereads whatever the write did."""

    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        return await asyncio.shield(asyncio.ensure_future(method(*args, **kwargs)))

    return wrapper


class Store:
    """One aiosqlite connection and the queries on it.  Use :meth:`open`.

    The connection is shared by every coroutine of the process, so access is serialised by one
    :class:`asyncio.Lock`: a transaction holds it from ``BEGIN`` to ``COMMIT`` and reads take it
    too, so no coroutine ever starts a transaction inside another's or reads its uncommitted rows.
    """

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating the directory and file if needed), configure and migrate."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        store = cls(db, path)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"{self.path} has schema version {version}, newer than this bot knows "
                f"({SCHEMA_VERSION}); upgrade the bot or use a backup made by this version"
            )
        for number, sql in MIGRATIONS:
            if number <= version:
                continue
            async with self.transaction() as db:
                for statement in _statements(sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception (including
        cancellation), so a change lands whole or not at all."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _fetch_one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _fetch_all(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def schema_version(self) -> int:
        row = await self._fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        row = await self._fetch_one("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"

    # -- challenges ----------------------------------------------------------------------------

    @_shielded
    async def insert_challenge(self, values: dict[str, Any]) -> int:
        """Insert an open challenge; ``sqlite3.IntegrityError`` if the challenger already has
        one open in that channel (the unique index decides, race-free)."""
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO challenges ({columns}) VALUES ({marks})", tuple(values.values())
            )
            return int(cursor.lastrowid or 0)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        sql = _select(ChallengeRow, "challenges") + " WHERE id = ?"
        return _row(ChallengeRow, await self._fetch_one(sql, (challenge_id,)))

    async def open_challenge_of(self, challenger_id: int, channel_id: int) -> ChallengeRow | None:
        sql = _select(ChallengeRow, "challenges") + (
            " WHERE challenger_id = ? AND channel_id = ? AND status = 'open'"
        )
        return _row(ChallengeRow, await self._fetch_one(sql, (challenger_id, channel_id)))

    @_shielded
    async def close_challenge(
        self, challenge_id: int, status: str, now: float, game_id: int | None = None
    ) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = ?, game_id = ?, updated_at = ? "
                "WHERE id = ? AND status = 'open'",
                (status, game_id, now, challenge_id),
            )
            return cursor.rowcount == 1

    @_shielded
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        sql = _select(ChallengeRow, "challenges") + (
            " WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at"
        )
        return [ChallengeRow(*row) for row in await self._fetch_all(sql, (now,))]

    # -- games ---------------------------------------------------------------------------------

    @_shielded
    async def start_game(
        self,
        values: dict[str, Any],
        moves: Iterable[tuple[int, str, str, int, float]] = (),
        challenge_id: int | None = None,
    ) -> int:
        """Insert a running game (with its opening moves) and, in the same transaction, mark
        ``challenge_id`` accepted.  ``sqlite3.IntegrityError`` if the channel already has a
        running game; :class:`StoreError` if the challenge was no longer open."""
        async with self.transaction() as db:
            game_id = await self._insert_game(db, values, moves)
            if challenge_id is not None:
                cursor = await db.execute(
                    "UPDATE challenges SET status = 'accepted', game_id = ?, updated_at = ? "
                    "WHERE id = ? AND status = 'open'",
                    (game_id, values["created_at"], challenge_id),
                )
                if cursor.rowcount != 1:
                    raise StoreError("the challenge is no longer open")
            return game_id

    @staticmethod
    async def _insert_game(
        db: aiosqlite.Connection,
        values: dict[str, Any],
        moves: Iterable[tuple[int, str, str, int, float]],
    ) -> int:
        """Insert a game row and its opening moves.  ``match_id`` ``"self"`` makes the game the
        first of a new match (a match is named by its first game)."""
        values = dict(values)
        first_of_match = values.get("match_id") == "self"
        if first_of_match:
            values["match_id"] = None
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cursor = await db.execute(
            f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(values.values())
        )
        game_id = int(cursor.lastrowid or 0)
        if first_of_match:
            await db.execute("UPDATE games SET match_id = id WHERE id = ?", (game_id,))
        await db.executemany(
            f"INSERT INTO moves ({_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, *move) for move in moves],
        )
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + " WHERE id = ?"
        return _row(GameRow, await self._fetch_one(sql, (game_id,)))

    async def running_game_in(self, channel_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + " WHERE channel_id = ? AND status = 'running'"
        return _row(GameRow, await self._fetch_one(sql, (channel_id,)))

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        sql = _select(GameRow, "games") + (
            " WHERE channel_id = ? AND status != 'running' ORDER BY updated_at DESC, id DESC"
            " LIMIT 1"
        )
        return _row(GameRow, await self._fetch_one(sql, (channel_id,)))

    async def running_games(self) -> list[GameRow]:
        """Every running game (for start-up work such as the computer's pending replies)."""
        sql = _select(GameRow, "games") + " WHERE status = 'running' ORDER BY id"
        return [GameRow(*row) for row in await self._fetch_all(sql)]

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        """Running games of one server (``None``: games outside any server, e.g. DMs)."""
        sql = _select(GameRow, "games") + " WHERE status = 'running' AND guild_id IS ? ORDER BY id"
        return [GameRow(*row) for row in await self._fetch_all(sql, (guild_id,))]

    async def computer_games_waiting(self) -> list[GameRow]:
        """Running games against the computer where nobody's clock runs: the computer's turn."""
        sql = _select(GameRow, "games") + (
            " WHERE status = 'running' AND computer_id IS NOT NULL AND deadline IS NULL ORDER BY id"
        )
        return [GameRow(*row) for row in await self._fetch_all(sql)]

    async def moves(self, game_id: int) -> list[MoveRow]:
        sql = _select(MoveRow, "moves") + " WHERE game_id = ? ORDER BY ply"
        return [MoveRow(*row) for row in await self._fetch_all(sql, (game_id,))]

    @_shielded
    async def update_game(
        self,
        game_id: int,
        version: int,
        changes: dict[str, Any],
        move: tuple[int, str, str, int, float] | None = None,
        *,
        rated: RatedResult | None = None,
        follow_up: tuple[dict[str, Any], list[tuple[int, str, str, int, float]]] | None = None,
    ) -> bool:
        """Apply ``changes`` (and append ``move``: ply, pdn, fen after, user, time) in one
        transaction if the game is still at ``version``; False, with nothing written, if
        something else changed it first.

        A game that ends here lands together with what its end causes, so a kill between
        statements cannot leave half of it: ``rated`` updates both players' ratings (and records
        them on the game), ``follow_up`` starts the next game of a match (values and opening
        moves as for :meth:`start_game`)."""
        try:
            async with self.transaction() as db:
                await _guarded_update(db, game_id, version, changes)
                if move is not None:
                    await db.execute(
                        f"INSERT INTO moves ({_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, *move),
                    )
                if rated is not None:
                    await self._rate(db, game_id, rated, changes.get("updated_at", now()))
                if follow_up is not None:
                    await self._insert_game(db, *follow_up)
        except _Stale:
            return False
        return True

    async def _rate(
        self, db: aiosqlite.Connection, game_id: int, result: RatedResult, when: float
    ) -> None:
        """Both players' Glicko-2 update for one game, read and written inside the caller's
        transaction (so two games ending at once for the same player are applied in turn), with
        their record and streak."""
        players = (
            (result.white_id, result.white_name, result.white_score),
            (result.black_id, result.black_name, 1 - result.white_score),
        )
        before: dict[int, tuple[ratings.Rating, RatingRow | None]] = {}
        for user_id, _, _ in players:
            async with db.execute(_RATING_OF, (result.guild_id, user_id, result.variant)) as cursor:
                row = _row(RatingRow, await cursor.fetchone())
            rating = (
                ratings.Rating() if row is None else ratings.idle(row.glicko, when - row.updated_at)
            )
            before[user_id] = (rating, row)
        white, black = before[result.white_id][0], before[result.black_id][0]
        after = {
            result.white_id: ratings.update(white, [(black, result.white_score)]),
            result.black_id: ratings.update(black, [(white, 1 - result.white_score)]),
        }
        for user_id, name, score in players:
            new, old = after[user_id], before[user_id][1]
            letter = "W" if score == 1 else ("L" if score == 0 else "D")
            wins, draws, losses = (0, 0, 0) if old is None else (old.wins, old.draws, old.losses)
            run = 1 if old is None or old.streak != letter else old.streak_length + 1
            await db.execute(
                "INSERT OR REPLACE INTO ratings (guild_id, user_id, variant, rating, deviation,"
                " volatility, games, updated_at, name, wins, draws, losses, streak,"
                " streak_length) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.guild_id,
                    user_id,
                    result.variant,
                    new.rating,
                    new.deviation,
                    new.volatility,
                    (0 if old is None else old.games) + 1,
                    when,
                    name or (old.name if old else ""),
                    wins + (letter == "W"),
                    draws + (letter == "D"),
                    losses + (letter == "L"),
                    letter,
                    run,
                ),
            )
        new_white, new_black = after[result.white_id], after[result.black_id]
        await db.execute(
            "UPDATE games SET white_rating = ?, white_rating_change = ?, black_rating = ?,"
            " black_rating_change = ? WHERE id = ?",
            (
                new_white.rating,
                new_white.rating - white.rating,
                new_black.rating,
                new_black.rating - black.rating,
                game_id,
            ),
        )

    @_shielded
    async def take_back(
        self, game_id: int, version: int, changes: dict[str, Any], ply: int, when: float
    ) -> bool:
        """Take the game back to ``ply`` moves (with ``changes`` for the game row) in one
        guarded transaction.  The moves after ``ply`` are moved to ``taken_back_moves``, so the
        record of what was played and taken back is kept; False if the game changed first."""
        try:
            async with self.transaction() as db:
                await _guarded_update(db, game_id, version, changes)
                await db.execute(
                    f"INSERT INTO taken_back_moves ({_MOVE_COLUMNS}, taken_back_at) "
                    f"SELECT {_MOVE_COLUMNS}, ? FROM moves WHERE game_id = ? AND ply > ?",
                    (when, game_id, ply),
                )
                await db.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
        except _Stale:
            return False
        return True

    async def taken_back_moves(self, game_id: int) -> list[tuple[int, str, float]]:
        """(ply, move, when taken back) of a game's taken-back moves, oldest first."""
        rows = await self._fetch_all(
            "SELECT ply, pdn, taken_back_at FROM taken_back_moves WHERE game_id = ?"
            " ORDER BY taken_back_at, ply",
            (game_id,),
        )
        return [(int(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def due_games(self, now: float) -> tuple[list[GameRow], list[GameRow]]:
        """Running games whose deadline has passed, and those due a half-time reminder."""
        timeouts = await self._fetch_all(
            _select(GameRow, "games")
            + " WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= ? ORDER BY id",
            (now,),
        )
        reminders = await self._fetch_all(
            _select(GameRow, "games")
            + " WHERE status = 'running' AND remind_at IS NOT NULL AND remind_at <= ?"
            " AND (deadline IS NULL OR deadline > ?) ORDER BY id",
            (now, now),
        )
        return [GameRow(*row) for row in timeouts], [GameRow(*row) for row in reminders]

    # -- matches, history, ratings -----------------------------------------------------------

    async def match_games(self, match_id: int) -> list[GameRow]:
        """The games of a match, first game first."""
        sql = _select(GameRow, "games") + " WHERE match_id = ? ORDER BY id"
        return [GameRow(*row) for row in await self._fetch_all(sql, (match_id,))]

    async def matches_waiting(self) -> list[GameRow]:
        """First games of matches that finished without their second game having started (the
        second normally starts in the same transaction; this is the safety net)."""
        sql = _select(GameRow, "games g") + (
            " WHERE g.match_id = g.id AND g.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM games h WHERE h.match_id = g.id AND h.id != g.id) ORDER BY g.id"
        )
        return [GameRow(*row) for row in await self._fetch_all(sql)]

    async def finished_games(
        self,
        guild_id: int | None,
        *,
        user_id: int | None = None,
        variant: str | None = None,
        limit: int = 10,
    ) -> list[GameRow]:
        """Ended games of a server (finished or aborted), newest first; only ``user_id``'s and
        only one variant when given.  One player's games are read colour by colour, each side
        from its own index (``games_by_white``/``games_by_black``), so the cost follows the
        player's games, not the server's."""
        order = " ORDER BY updated_at DESC, id DESC LIMIT ?"
        where = " WHERE guild_id IS ? AND status != 'running'"
        extra = "" if variant is None else " AND variant = ?"
        if user_id is None:
            sql = _select(GameRow, "games") + where + extra + order
            params: tuple[Any, ...] = (guild_id, *([] if variant is None else [variant]), limit)
        else:
            sides = []
            params = ()
            for side in ("white_id", "black_id"):
                sides.append(
                    "SELECT * FROM ("
                    + _select(GameRow, "games")
                    + f"{where} AND {side} = ?{extra}{order})"
                )
                params += (guild_id, user_id, *([] if variant is None else [variant]), limit)
            sql = "SELECT * FROM (" + " UNION ALL ".join(sides) + ")" + order
            params += (limit,)
        return [GameRow(*row) for row in await self._fetch_all(sql, params)]

    async def rating(self, guild_id: int, user_id: int, variant: str) -> RatingRow | None:
        return _row(RatingRow, await self._fetch_one(_RATING_OF, (guild_id, user_id, variant)))

    async def leaderboard(self, guild_id: int, variant: str, limit: int = 10) -> list[RatingRow]:
        """The server's ladder for one variant, best first (ties: more games first)."""
        sql = _select(RatingRow, "ratings") + (
            " WHERE guild_id = ? AND variant = ? ORDER BY rating DESC, games DESC, user_id LIMIT ?"
        )
        return [RatingRow(*row) for row in await self._fetch_all(sql, (guild_id, variant, limit))]

    async def rank(self, mine: RatingRow) -> tuple[int, int]:
        """``(rank, players on the ladder)`` of a rated player, in :meth:`leaderboard`'s order."""
        row = await self._fetch_one(
            "SELECT COUNT(*) FILTER (WHERE rating > ? OR (rating = ? AND games > ?)"
            " OR (rating = ? AND games = ? AND user_id < ?)), COUNT(*)"
            " FROM ratings WHERE guild_id = ? AND variant = ?",
            (
                mine.rating,
                mine.rating,
                mine.games,
                mine.rating,
                mine.games,
                mine.user_id,
                mine.guild_id,
                mine.variant,
            ),
        )
        assert row is not None
        return int(row[0]) + 1, int(row[1])

    # -- server settings -----------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SettingsRow | None:
        sql = _select(SettingsRow, "guild_settings") + " WHERE guild_id = ?"
        return _row(SettingsRow, await self._fetch_one(sql, (guild_id,)))

    async def game_channels(self, guild_id: int) -> list[int]:
        """The channels games may be hosted in; empty means all of them."""
        rows = await self._fetch_all(
            "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    @_shielded
    async def save_settings(
        self,
        guild_id: int,
        changes: dict[str, Any],
        *,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        when: float,
    ) -> None:
        """Change a server's settings and channel list together (one transaction)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, when),
            )
            assignments = ", ".join(f"{column} = ?" for column in [*changes, "updated_at"])
            await db.execute(
                f"UPDATE guild_settings SET {assignments} WHERE guild_id = ?",
                (*changes.values(), when, guild_id),
            )
            if all_channels:
                await db.execute("DELETE FROM guild_channels WHERE guild_id = ?", (guild_id,))
            await db.executemany(
                "INSERT OR IGNORE INTO guild_channels (guild_id, channel_id) VALUES (?, ?)",
                [(guild_id, c) for c in allow],
            )
            await db.executemany(
                "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?",
                [(guild_id, c) for c in disallow],
            )


class _Stale(Exception):
    """The guarded row changed since it was read (rolls the transaction back)."""


async def _guarded_update(
    db: aiosqlite.Connection, game_id: int, version: int, changes: dict[str, Any]
) -> None:
    """Apply ``changes`` to the game if it is still at ``version`` (bumping it); :class:`_Stale`
    otherwise, which rolls the caller's transaction back."""
    assignments = ", ".join(f"{column} = ?" for column in changes)
    cursor = await db.execute(
        f"UPDATE games SET {assignments}, version = version + 1 WHERE id = ? AND version = ?",
        (*changes.values(), game_id, version),
    )
    if cursor.rowcount != 1:
        raise _Stale


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]


def now() -> float:
    """Wall-clock seconds; deadlines are stored as such so they survive restarts."""
    return time.time()
