"""How rows cross between SQLite and the store's row types, for :mod:`bot.store.sqlite`: the
writes several transactions share (a new game, an outbox entry, a guarded update, a rated game's
ladder rows) in SQLite's dialect, and the domain errors its unique indexes stand for.  The
decoding of rows and the column lists every implementation shares are in
:mod:`bot.store.mapping`.  Kept apart so the store module reads as the list of its queries.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import aiosqlite

from .errors import (
    ChallengeOpen,
    ChannelBusy,
    StaleVersion,
)
from .mapping import (
    DECODE,
    MOVE_COLUMNS,
    NEW_EVENT_COLUMNS,
    NEW_GAME_FIELDS,
    RATING_COLUMNS,
    row_values,
    select_from,
)
from .rows import (
    GameChanges,
    LadderChange,
    NewEvent,
    NewGame,
    RatedGame,
    RatingRow,
)

INSERT_EVENT = (
    f"INSERT INTO outbox ({NEW_EVENT_COLUMNS}) VALUES ({', '.join('?' for _ in fields(NewEvent))})"
)


RATING_OF = (
    select_from(RatingRow, "ratings") + " WHERE guild_id = ? AND user_id = ? AND variant = ?"
)


def domain_refusal(error: sqlite3.IntegrityError) -> Exception:
    """The domain error a unique-index violation stands for; other integrity errors are bugs
    and stay what they are."""
    text = str(error)
    if "games.channel_id" in text:
        return ChannelBusy("a game is already running in that channel")
    if "challenges.challenger_id, challenges.channel_id" in text:
        return ChallengeOpen("the challenger already has an open challenge in that channel")
    return error


async def insert_event(db: aiosqlite.Connection, event: NewEvent) -> None:
    await db.execute(INSERT_EVENT, row_values(event))


async def insert_game(db: aiosqlite.Connection, game: NewGame) -> int:
    """Insert a running game and its first moves; a game that opens a match is then named as
    the match's first game."""
    marks = ", ".join("?" for _ in NEW_GAME_FIELDS)
    cursor = await db.execute(
        f"INSERT INTO games ({', '.join(NEW_GAME_FIELDS)}, status, updated_at)"
        f" VALUES ({marks}, 'running', ?)",
        (*(getattr(game, name) for name in NEW_GAME_FIELDS), game.created_at),
    )
    game_id = int(cursor.lastrowid or 0)
    if game.first_of_match:
        await db.execute("UPDATE games SET match_id = id WHERE id = ?", (game_id,))
    await db.executemany(
        f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, *row_values(move)) for move in game.moves],
    )
    return game_id


async def guarded_update(
    db: aiosqlite.Connection, game_id: int, version: int, changes: GameChanges
) -> None:
    """Apply ``changes`` to the game if it is still at ``version`` (bumping it);
    :class:`StaleVersion` otherwise, which rolls the caller's transaction back."""
    assignments = "".join(f"{column} = ?, " for column in changes)
    cursor = await db.execute(
        f"UPDATE games SET {assignments}version = version + 1 WHERE id = ? AND version = ?",
        (*changes.values(), game_id, version),
    )
    if cursor.rowcount != 1:
        raise StaleVersion(f"game #{game_id} is no longer at version {version}")


async def save_keyed(
    db: aiosqlite.Connection,
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
        f"INSERT INTO {table} ({column}, updated_at) VALUES (?, ?)"
        f" ON CONFLICT ({column}) DO NOTHING",
        (value, when),
    )
    assignments = ", ".join(f"{name} = ?" for name in [*changes, "updated_at"])
    await db.execute(
        f"UPDATE {table} SET {assignments} WHERE {column} = ?", (*changes.values(), when, value)
    )


async def rate_game(db: aiosqlite.Connection, game_id: int, rated: RatedGame) -> LadderChange:
    """Both players' ladder rows for one rated game, read and written inside the caller's
    transaction, and the ratings recorded on the game; the change is returned."""
    before = []
    for user_id in (rated.white_id, rated.black_id):
        async with db.execute(RATING_OF, (rated.guild_id, user_id, rated.variant)) as cursor:
            row = await cursor.fetchone()
        before.append(None if row is None else DECODE[RatingRow](row))
    change = rated.rate(before[0], before[1])
    marks = ", ".join("?" for _ in fields(RatingRow))
    await db.executemany(
        f"INSERT OR REPLACE INTO ratings ({RATING_COLUMNS}) VALUES ({marks})",
        [row_values(change.white), row_values(change.black)],
    )
    await db.execute(
        "UPDATE games SET white_rating = ?, white_rating_change = ?, black_rating = ?,"
        " black_rating_change = ? WHERE id = ?",
        (
            change.white.rating,
            change.white_change,
            change.black.rating,
            change.black_change,
            game_id,
        ),
    )
    return change


def split_statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]
