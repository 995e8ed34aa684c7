"""Copying a SQLite database into PostgreSQL, verified (``python -m bot migrate-db``).

The copy is one PostgreSQL transaction: the schema is created (or found current), the target
checked empty and its tables locked, every table copied with ``COPY`` (rows keep their ids, then
the identity sequences continue after the highest id SQLite ever gave), and the copy verified
before it commits: the row count of every table on both sides, every game replayed from its
moves by the caller's ``check_game`` (the rules live in the service, which the store must not
import), and the ratings compared row by row.  Anything wrong, or an interruption, rolls the
whole copy back, so the target is left as empty as it was and running the command again is the
way to resume.  A target that already holds games is refused and left untouched.

The source is read inside one SQLite read transaction (a consistent snapshot) while holding the
single-bot lock of the file, so no bot can write to it during the copy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from .addresses import redact_url
from .errors import StoreError
from .mapping import DECODE, select_from
from .postgres import UNREACHABLE
from .postgres_schema import SCHEMA_VERSION
from .postgres_schema import migrate as migrate_schema
from .rows import GameRow, MoveRow
from .sqlite_guard import DatabaseLock, check_database

GameCheck = Callable[[GameRow, Sequence[MoveRow]], "str | None"]
"""Given a copied game and its moves, what is wrong with it (None: it replays to its row)."""

TABLES = (
    "games",
    "challenges",
    "moves",
    "taken_back_moves",
    "ratings",
    "guild_settings",
    "guild_channels",
    "outbox",
    "meta",
    "user_prefs",
    "tournaments",
    "tournament_players",
    "tournament_pairings",
    "analyses",
    "imports",
)
"""Every table of the schema, in an order that respects the foreign keys."""

IDENTITIES = (
    ("games", "id"),
    ("challenges", "id"),
    ("outbox", "seq"),
    ("tournaments", "id"),
    ("tournament_pairings", "id"),
    ("imports", "id"),
)
"""Columns whose values PostgreSQL generates: their sequences continue after the copied ids."""

RATINGS_ORDER = "guild_id, user_id, variant, pool"
MOVES = select_from(MoveRow, "moves") + " ORDER BY game_id, ply"
GAMES = select_from(GameRow, "games") + " ORDER BY id"
MOST_PROBLEMS = 10
"""How many damaged games a failed verification names."""


class MigrationRefused(StoreError):
    """The copy was not made (or was rolled back); the message says why and what to do."""


@dataclass
class Migrated:
    """What was copied and verified."""

    counts: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    ratings_compared: int = 0

    def lines(self, source: Path, target: str) -> list[str]:
        per_table = ", ".join(f"{table} {n}" for table, n in self.counts.items())
        return [
            f"copied {source} into {redact_url(target)} (schema version {SCHEMA_VERSION})",
            f"rows per table, equal on both sides: {per_table}",
            f"verified: {self.games_replayed} games replayed from their moves to their stored "
            f"position, status and result; {self.ratings_compared} ratings equal",
            "next: set DATABASE_URL to this database and start the bot; keep the SQLite file as "
            "a backup, and do not start a bot on it again (its games would fork)",
        ]


# -- reading the source ------------------------------------------------------------------------


def _open_source(path: Path) -> sqlite3.Connection:
    state = check_database(path)
    if not state.exists:
        raise MigrationRefused(f"there is no SQLite database at {path} (DATABASE_PATH) to copy")
    if state.schema_version != SCHEMA_VERSION:
        raise MigrationRefused(
            f"the SQLite database {path} has schema version {state.schema_version}, this bot's "
            f"PostgreSQL schema is version {SCHEMA_VERSION}: start this version of the bot on the "
            "SQLite file once (it upgrades the schema), stop it, then run migrate-db again"
        )
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")  # one snapshot for the whole copy
    return db


def _sqlite_columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _sqlite_count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def _highest_id(db: sqlite3.Connection, table: str, column: str) -> int:
    """The highest id SQLite has given in ``table``: its largest row, or for an
    ``AUTOINCREMENT`` table the counter, which never goes back even when rows were deleted."""
    high = db.execute(f"SELECT max({column}) FROM {table}").fetchone()[0] or 0
    has_counter = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ).fetchone()
    if has_counter:
        counter = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        if counter is not None and counter[0] is not None:
            high = max(high, int(counter[0]))
    return int(high)


# -- converting values -------------------------------------------------------------------------


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """SQLite's value as PostgreSQL's column type takes it (flags are 0/1 in SQLite, and a
    ``REAL`` column may hold an integer)."""
    if pg_type == "boolean":
        return bool
    if pg_type == "double precision":
        return float
    if pg_type in ("bigint", "integer"):
        return int
    return lambda value: value


def _converted(
    rows: Iterator[Sequence[Any]], converters: Sequence[Callable[[Any], Any]]
) -> Iterator[tuple[Any, ...]]:
    for row in rows:
        yield tuple(
            None if value is None else convert(value)
            for value, convert in zip(row, converters, strict=True)
        )


# -- the copy ----------------------------------------------------------------------------------


async def _pg_columns(conn: Any) -> dict[str, list[tuple[str, str]]]:
    rows = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    columns: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        columns.setdefault(row["table_name"], []).append((row["column_name"], row["data_type"]))
    return columns


async def _refuse_non_empty(conn: Any, where: str) -> None:
    filled = []
    for table in TABLES:
        if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            filled.append(table)
    if filled:
        raise MigrationRefused(
            f"{where} is not empty (rows in {', '.join(filled)}): migrate-db copies only into an "
            "empty database, and nothing was changed. An interrupted migrate-db leaves nothing "
            "behind (the copy is one transaction), so these rows come from a finished migration "
            "or a bot that ran on it: use a new database (createdb), or drop this one's tables "
            "if its contents are not wanted"
        )


async def _copy_table(
    db: sqlite3.Connection, conn: Any, table: str, pg_columns: list[tuple[str, str]]
) -> int:
    names = [name for name, _ in pg_columns]
    missing = sorted(set(names) ^ set(_sqlite_columns(db, table)))
    if missing:
        raise MigrationRefused(
            f"the table {table} has different columns in SQLite and PostgreSQL "
            f"({', '.join(missing)}); nothing was copied"
        )
    converters = [_converter(kind) for _, kind in pg_columns]
    cursor = db.execute(f"SELECT {', '.join(names)} FROM {table}")
    status = await conn.copy_records_to_table(
        table, records=_converted(iter(cursor), converters), columns=names
    )
    return int(str(status).rsplit(" ", 1)[-1])


async def _continue_identities(db: sqlite3.Connection, conn: Any) -> None:
    for table, column in IDENTITIES:
        high = _highest_id(db, table, column)
        if high > 0:
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence($1, $2), $3)", table, column, high
            )


# -- verifying ---------------------------------------------------------------------------------


async def _verify_counts(db: sqlite3.Connection, conn: Any, copied: dict[str, int]) -> None:
    for table, n in copied.items():
        source = _sqlite_count(db, table)
        target = int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
        if not source == target == n:
            raise MigrationRefused(
                f"verification failed: {table} has {source} rows in SQLite, {target} in "
                f"PostgreSQL ({n} copied); nothing was kept"
            )


async def _verify_ratings(
    db: sqlite3.Connection, conn: Any, pg_columns: list[tuple[str, str]]
) -> int:
    names = ", ".join(name for name, _ in pg_columns)
    converters = [_converter(kind) for _, kind in pg_columns]
    query = f"SELECT {names} FROM ratings ORDER BY {RATINGS_ORDER}"
    source = list(_converted(iter(db.execute(query)), converters))
    target = [tuple(row) for row in await conn.fetch(query)]
    for mine, theirs in zip(source, target, strict=False):
        if mine != theirs:
            raise MigrationRefused(
                f"verification failed: the rating {mine[:3]} reads {theirs} in PostgreSQL, "
                f"{mine} in SQLite; nothing was kept"
            )
    if len(source) != len(target):
        raise MigrationRefused("verification failed: the ratings differ in number")
    return len(source)


async def _verify_games(conn: Any, check_game: GameCheck) -> int:
    """Replay every copied game (as PostgreSQL holds it) from its moves."""
    games = [DECODE[GameRow](row) for row in await conn.fetch(GAMES)]
    moves_of: dict[int, list[MoveRow]] = {}
    async for row in conn.cursor(MOVES, prefetch=2000):
        move = DECODE[MoveRow](row)
        moves_of.setdefault(move.game_id, []).append(move)
    problems = []
    for game in games:
        problem = check_game(game, moves_of.pop(game.id, []))
        if problem is not None:
            problems.append(f"game #{game.id}: {problem}")
    if problems:
        shown = "; ".join(problems[:MOST_PROBLEMS])
        extra = len(problems) - MOST_PROBLEMS
        more = f" (and {extra} more)" if extra > 0 else ""
        raise MigrationRefused(
            f"verification failed, nothing was kept: {shown}{more}. These games are damaged in "
            "the SQLite database itself: restore a backup, or abort them with the bot, then run "
            "migrate-db again"
        )
    return len(games)


# -- the whole ---------------------------------------------------------------------------------


async def copy_to_postgres(source: Path, dsn: str, check_game: GameCheck) -> Migrated:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``dsn`` and
    verify it, in one transaction; :class:`StoreError` (nothing kept) if it cannot be done."""
    where = redact_url(dsn)
    if not source.is_file():
        raise MigrationRefused(f"there is no SQLite database at {source} (DATABASE_PATH) to copy")
    lock = DatabaseLock.acquire(source, purpose="migrate-db")
    try:
        db = _open_source(source)
        try:
            return await _copy(db, dsn, where, check_game)
        finally:
            db.close()
    finally:
        lock.release()


async def _copy(db: sqlite3.Connection, dsn: str, where: str, check_game: GameCheck) -> Migrated:
    try:
        conn = await asyncpg.connect(dsn)
    except UNREACHABLE as exc:
        raise StoreError(f"cannot connect to {where}: {exc}") from exc
    try:
        migrated = Migrated()
        async with conn.transaction():
            await migrate_schema(conn, where)
            await _refuse_non_empty(conn, where)
            # Bots starting on the target meanwhile wait for the copy instead of seeing half.
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN ACCESS EXCLUSIVE MODE")
            columns = await _pg_columns(conn)
            for table in TABLES:
                migrated.counts[table] = await _copy_table(db, conn, table, columns[table])
            await _continue_identities(db, conn)
            await _verify_counts(db, conn, migrated.counts)
            migrated.ratings_compared = await _verify_ratings(db, conn, columns["ratings"])
            migrated.games_replayed = await _verify_games(conn, check_game)
        return migrated
    except asyncpg.PostgresError as exc:
        raise StoreError(f"the copy into {where} failed and was rolled back: {exc}") from exc
    finally:
        await conn.close()
