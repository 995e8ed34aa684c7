"""The writes several transactions of :mod:`bot.store.postgres` share, in PostgreSQL's dialect
(``$n`` placeholders, ``RETURNING``, ``ON CONFLICT``), and the domain errors its unique
indexes stand for.  Row decoding and column lists are shared with SQLite
(:mod:`bot.store.mapping`).  Kept apart so the store module reads as the list of its queries.

asyncpg has no type information, so connections are seen through :class:`Connection`, the
few methods the store uses, typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import asyncpg

from .errors import ChallengeOpen, ChannelBusy, StaleVersion, WriteRefused
from .mapping import (
    DECODE,
    MOVE_COLUMNS,
    NEW_EVENT_COLUMNS,
    NEW_EVENT_FIELDS,
    NEW_GAME_FIELDS,
    RATING_COLUMNS,
    RATING_FIELDS,
    row_values,
    select_from,
)
from .rows import GameChanges, LadderChange, NewEvent, NewGame, RatedGame, RatingRow


class Connection(Protocol):
    """The methods of an ``asyncpg.Connection`` (or pool) the store calls."""

    async def execute(self, query: str, *args: Any) -> str: ...

    async def executemany(self, command: str, args: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, query: str, *args: Any) -> list[Any]: ...

    async def fetchrow(self, query: str, *args: Any) -> Any: ...

    async def fetchval(self, query: str, *args: Any) -> Any: ...


def marks(count: int, start: int = 1) -> str:
    """``$start, $start+1, ...``: ``count`` placeholders."""
    return ", ".join(f"${n}" for n in range(start, start + count))


def affected(status: str) -> int:
    """The row count of a command's status (``UPDATE 1``, ``DELETE 3``, ``INSERT 0 1``)."""
    return int(status.rsplit(" ", 1)[-1])


INSERT_EVENT = f"INSERT INTO outbox ({NEW_EVENT_COLUMNS}) VALUES ({marks(len(NEW_EVENT_FIELDS))})"
INSERT_MOVE = f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES ({marks(6)})"
INSERT_GAME = (
    f"INSERT INTO games ({', '.join(NEW_GAME_FIELDS)}, status, updated_at)"
    f" VALUES ({marks(len(NEW_GAME_FIELDS))}, 'running', ${len(NEW_GAME_FIELDS) + 1})"
    " RETURNING id"
)
RATING_OF = (
    select_from(RatingRow, "ratings") + " WHERE guild_id = $1 AND user_id = $2 AND variant = $3"
)
UPSERT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({marks(len(RATING_FIELDS))})"
    " ON CONFLICT (guild_id, user_id, variant) DO UPDATE SET "
    + ", ".join(
        f"{name} = EXCLUDED.{name}"
        for name in RATING_FIELDS
        if name not in ("guild_id", "user_id", "variant")
    )
)
LADDER_LOCK = 0x4C44  # "LD": the class of the two-key advisory locks on ladder rows
"""A rated game's end locks both players' ladder rows by name (a first rated game has no row
to lock with ``FOR UPDATE``), in one order, so two games ending at once for one player are
applied in turn, as SQLite's single writer does."""

REFUSALS: dict[str, Callable[[], WriteRefused]] = {
    "games_one_running_per_channel": lambda: ChannelBusy(
        "a game is already running in that channel"
    ),
    "challenges_one_open": lambda: ChallengeOpen(
        "the challenger already has an open challenge in that channel"
    ),
}


def domain_refusal(error: asyncpg.UniqueViolationError) -> Exception:
    """The domain error a unique-index violation stands for; other violations are bugs and stay
    what they are."""
    refusal = REFUSALS.get(getattr(error, "constraint_name", None) or "")
    return error if refusal is None else refusal()


async def insert_event(db: Connection, event: NewEvent) -> None:
    await db.execute(INSERT_EVENT, *row_values(event))


async def insert_game(db: Connection, game: NewGame) -> int:
    """Insert a running game and its first moves; a game that opens a match is then named as
    the match's first game."""
    game_id = int(
        await db.fetchval(
            INSERT_GAME, *(getattr(game, name) for name in NEW_GAME_FIELDS), game.created_at
        )
    )
    if game.first_of_match:
        await db.execute("UPDATE games SET match_id = id WHERE id = $1", game_id)
    if game.moves:
        await db.executemany(INSERT_MOVE, [(game_id, *row_values(move)) for move in game.moves])
    return game_id


async def guarded_update(db: Connection, game_id: int, version: int, changes: GameChanges) -> None:
    """Apply ``changes`` to the game if it is still at ``version`` (bumping it);
    :class:`StaleVersion` otherwise, which rolls the caller's transaction back.  A concurrent
    writer of the same game holds its row until it commits; this update then finds the new
    version and matches nothing."""
    assignments = "".join(f"{column} = ${n}, " for n, column in enumerate(changes, start=3))
    status = await db.execute(
        f"UPDATE games SET {assignments}version = version + 1 WHERE id = $1 AND version = $2",
        game_id,
        version,
        *changes.values(),
    )
    if affected(status) != 1:
        raise StaleVersion(f"game #{game_id} is no longer at version {version}")


async def save_keyed(
    db: Connection,
    table: str,
    key: tuple[str, int],
    changes: Mapping[str, Any],
    when: float,
) -> None:
    """Create the row of ``table`` keyed by ``key`` (column, value) if there is none, its other
    columns at their defaults, then apply ``changes`` and ``updated_at`` to it: a server's
    settings, a user's preferences."""
    column, value = key
    await db.execute(
        f"INSERT INTO {table} ({column}, updated_at) VALUES ($1, $2)"
        f" ON CONFLICT ({column}) DO NOTHING",
        value,
        when,
    )
    assignments = ", ".join(
        f"{name} = ${n}" for n, name in enumerate([*changes, "updated_at"], start=2)
    )
    await db.execute(
        f"UPDATE {table} SET {assignments} WHERE {column} = $1", value, *changes.values(), when
    )


async def rate_game(db: Connection, game_id: int, rated: RatedGame) -> LadderChange:
    """Both players' ladder rows for one rated game, locked, read and written inside the
    caller's transaction, and the ratings recorded on the game; the change is returned."""
    keys = sorted(
        {f"{rated.guild_id}:{rated.variant}:{u}" for u in (rated.white_id, rated.black_id)}
    )
    for key in keys:
        await db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LADDER_LOCK, key)
    before = []
    for user_id in (rated.white_id, rated.black_id):
        row = await db.fetchrow(RATING_OF, rated.guild_id, user_id, rated.variant)
        before.append(None if row is None else DECODE[RatingRow](row))
    change = rated.rate(before[0], before[1])
    await db.executemany(UPSERT_RATING, [row_values(change.white), row_values(change.black)])
    await db.execute(
        "UPDATE games SET white_rating = $2, white_rating_change = $3, black_rating = $4,"
        " black_rating_change = $5 WHERE id = $1",
        game_id,
        change.white.rating,
        change.white_change,
        change.black.rating,
        change.black_change,
    )
    return change


def guild_is(guild_id: int | None, mark: str) -> tuple[str, tuple[Any, ...]]:
    """``guild_id`` matching a server, or no server (``IS NULL``: ``= NULL`` matches nothing),
    written so the indexes on ``guild_id`` serve both; the condition and its parameters."""
    if guild_id is None:
        return "guild_id IS NULL", ()
    return f"guild_id = {mark}", (guild_id,)
