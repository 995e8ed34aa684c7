"""The writes several transactions of :mod:`bot.store.sql_store` share (a new game, an outbox
entry, a guarded update, a keyed row of settings, a rated game's ladder rows), the conditions
its queries are built from, and the domain errors the schema's unique indexes stand for.

Written once in the store's SQL form (:mod:`bot.store.dialect`); kept apart so the store module
reads as the list of its queries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from .dialect import Params, Transaction
from .errors import ChallengeOpen, ChannelBusy, StaleVersion, WriteRefused
from .mapping import (
    DECODE,
    MOVE_COLUMNS,
    NEW_EVENT_FIELDS,
    NEW_GAME_FIELDS,
    RATING_FIELDS,
    row_values,
    select_from,
)
from .rows import (
    GameChanges,
    GameRow,
    LadderChange,
    NewEvent,
    NewGame,
    NewMove,
    RatedGame,
    RatingRow,
)


def marks(count: int) -> str:
    """``?, ?, ...``: ``count`` placeholders."""
    return ", ".join("?" * count)


def insert_into(
    table: str, columns: Sequence[str], tail: str = "", *, fixed: Mapping[str, str] | None = None
) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)`` then ``tail``: a placeholder a column, in
    order, but the columns ``fixed`` gives an SQL literal (a new row's status).  Written once,
    so a column list and its placeholders cannot drift apart."""
    literal = fixed or {}
    values = ", ".join(literal.get(column, "?") for column in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values}){tail}"


def upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """:func:`insert_into` that overwrites the row with the same ``key``: every other column
    takes the new value."""
    changed = ", ".join(f"{name} = excluded.{name}" for name in columns if name not in key)
    return insert_into(table, columns, f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {changed}")


GAMES = select_from(GameRow, "games")
ENDED = "status <> 'running'"
"""A finished or aborted game: the condition of the partial indexes on ended games."""

INSERT_EVENT = insert_into("outbox", NEW_EVENT_FIELDS)
INSERT_MOVE = insert_into("moves", ["game_id", *(f.name for f in fields(NewMove))])
INSERT_GAME = insert_into(
    "games", [*NEW_GAME_FIELDS, "status", "updated_at"], fixed={"status": "'running'"}
)
ARCHIVE_MOVES = (
    f"INSERT INTO taken_back_moves ({MOVE_COLUMNS}, taken_back_at)"
    f" SELECT {MOVE_COLUMNS}, CAST(? AS DOUBLE PRECISION) FROM moves WHERE game_id = ? AND ply > ?"
)
"""A takeback's moves into the archive (the cast: PostgreSQL cannot infer a selected
parameter's type; SQLite reads ``DOUBLE PRECISION`` as ``REAL``)."""
RATING_OF = (
    select_from(RatingRow, "ratings")
    + " WHERE guild_id = ? AND user_id = ? AND variant = ? AND pool = ?"
)
RATING_KEY = ("guild_id", "user_id", "variant", "pool")
UPSERT_RATING = upsert("ratings", RATING_FIELDS, RATING_KEY)
RECORD_RATINGS = (
    "UPDATE games SET white_rating = ?, white_rating_change = ?, black_rating = ?,"
    " black_rating_change = ? WHERE id = ?"
)

REFUSALS: dict[str, Callable[[], WriteRefused]] = {
    "games_one_running_per_channel": lambda: ChannelBusy(
        "a game is already running in that channel"
    ),
    "challenges_one_open": lambda: ChallengeOpen(
        "the challenger already has an open challenge in that channel"
    ),
}
"""The unique indexes whose violations mean something to players, by name."""


def domain_refusal(index: str | None, error: Exception) -> Exception:
    """The domain error a violation of the unique ``index`` stands for; other violations are
    bugs and stay what they are (``error``)."""
    refusal = REFUSALS.get(index or "")
    return error if refusal is None else refusal()


def guild_is(guild_id: int | None) -> tuple[str, Params]:
    """``guild_id`` matching a server, or no server (``IS NULL``: ``= NULL`` matches nothing),
    written so the indexes on ``guild_id`` serve both; the condition and its parameters."""
    if guild_id is None:
        return "guild_id IS NULL", ()
    return "guild_id = ?", (guild_id,)


async def insert_event(db: Transaction, event: NewEvent) -> None:
    await db.execute(INSERT_EVENT, row_values(event))


async def insert_game(db: Transaction, game: NewGame) -> int:
    """Insert a running game and its first moves; a game that opens a match is then named as
    the match's first game."""
    game_id = await db.insert(
        INSERT_GAME, (*(getattr(game, name) for name in NEW_GAME_FIELDS), game.created_at)
    )
    if game.first_of_match:
        await db.execute("UPDATE games SET match_id = id WHERE id = ?", (game_id,))
    await db.executemany(INSERT_MOVE, [(game_id, *row_values(move)) for move in game.moves])
    return game_id


async def guarded_update(db: Transaction, game_id: int, version: int, changes: GameChanges) -> None:
    """Apply ``changes`` to the game if it is still at ``version`` (bumping it);
    :class:`StaleVersion` otherwise, which rolls the caller's transaction back.  Where writers
    run concurrently, a writer of the same game holds its row until it commits; this update then
    finds the new version and matches nothing."""
    assignments = "".join(f"{column} = ?, " for column in changes)
    changed = await db.execute(
        f"UPDATE games SET {assignments}version = version + 1 WHERE id = ? AND version = ?",
        (*changes.values(), game_id, version),
    )
    if changed != 1:
        raise StaleVersion(f"game #{game_id} is no longer at version {version}")


async def save_keyed(
    db: Transaction,
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


async def rate_game(db: Transaction, game_id: int, rated: RatedGame) -> LadderChange:
    """Both players' ladder rows for one rated game, locked, read and written inside the
    caller's transaction, and the ratings recorded on the game; the change is returned.

    The rows are locked by name (a first rated game has no row to lock with ``FOR UPDATE``),
    in one order, so two games ending at once for one player are applied in turn, as SQLite's
    single writer applies them."""
    await db.lock_names(
        sorted(
            {
                f"{rated.guild_id}:{rated.variant}:{rated.pool}:{u}"
                for u in (rated.white_id, rated.black_id)
            }
        )
    )
    before = []
    for user_id in (rated.white_id, rated.black_id):
        row = await db.fetchrow(RATING_OF, (rated.guild_id, user_id, rated.variant, rated.pool))
        before.append(None if row is None else DECODE[RatingRow](row))
    change = rated.rate(before[0], before[1])
    await db.executemany(UPSERT_RATING, [row_values(change.white), row_values(change.black)])
    await db.execute(
        RECORD_RATINGS,
        (
            change.white.rating,
            change.white_change,
            change.black.rating,
            change.black_change,
            game_id,
        ),
    )
    return change
