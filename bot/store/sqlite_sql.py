"""How rows cross between SQLite and the store's row types, for :mod:`bot.store.sqlite`: decoding
rows into dataclasses (enums and booleans restored), column lists and inserts built once from the
dataclasses' fields, and the writes several transactions share (a new game, an outbox entry, a
guarded update, a rated game's ladder rows).  Kept apart so the store module reads as the list of
its queries.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, ParamSpec, TypeVar

import aiosqlite

from ..enums import ChallengeStatus, ColorChoice, GameStatus, Side, ThreadMode
from .errors import (
    ChallengeOpen,
    ChannelBusy,
    StaleVersion,
)
from .rows import (
    ChallengeRow,
    EventRow,
    GameChanges,
    GameRow,
    LadderChange,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsRow,
    RatedGame,
    RatingRow,
    SettingsRow,
)

Row = TypeVar("Row", ChallengeRow, EventRow, GameRow, MoveRow, PrefsRow, RatingRow, SettingsRow)
P = ParamSpec("P")
T = TypeVar("T")


def enum_of(kind: type[StrEnum]) -> Callable[[str], StrEnum]:
    """The member stored as a word, by a dict lookup (``kind(word)`` goes through the enum
    machinery, several times slower, and rows are decoded on every move); a word that is no
    member still raises ``ValueError``."""
    members: dict[str, StrEnum] = {member.value: member for member in kind}
    return lambda word: members.get(word) or kind(word)


def _on(value: Any) -> bool:
    """A stored flag: only 1 is on, so a damaged value reads as off (the default)."""
    return bool(value == 1)


def decoder(cls: type[Row], **kinds: Callable[[Any], Any]) -> Callable[[Sequence[Any]], Row]:
    """A function from a ``SELECT`` of ``cls``'s columns (in field order) to a ``cls``, with the
    columns named in ``kinds`` converted (enums from their stored words, flags from 0/1)."""
    names = [f.name for f in fields(cls)]
    convert = [(names.index(name), kind) for name, kind in kinds.items()]

    def decode(raw: Sequence[Any]) -> Row:
        values = list(raw)
        for index, kind in convert:
            if values[index] is not None:
                values[index] = kind(values[index])
        return cls(*values)

    return decode


DECODE: dict[type[Any], Callable[[Sequence[Any]], Any]] = {
    ChallengeRow: decoder(
        ChallengeRow,
        color=enum_of(ColorChoice),
        status=enum_of(ChallengeStatus),
        thread=bool,
        match_play=bool,
    ),
    GameRow: decoder(
        GameRow,
        status=enum_of(GameStatus),
        winner=enum_of(Side),
        draw_offer=enum_of(Side),
        advantage_side=enum_of(Side),
        takeback_offer=enum_of(Side),
        rated=bool,
        flip=bool,
    ),
    MoveRow: decoder(MoveRow),
    EventRow: decoder(EventRow),
    RatingRow: decoder(RatingRow),
    SettingsRow: decoder(
        SettingsRow,
        threads=enum_of(ThreadMode),
        orientation=str,
        theme=str,
        language=str,
        guild_locale=str,
    ),
    PrefsRow: decoder(PrefsRow, theme=str, notation=str, dm_turn=_on, last_warning=_on, locale=str),
}
COLUMNS = {cls: ", ".join(f.name for f in fields(cls)) for cls in DECODE}
NEW_MOVE_COLUMNS = ", ".join(f.name for f in fields(NewMove))
MOVE_COLUMNS = f"game_id, {NEW_MOVE_COLUMNS}"
NEW_GAME_FIELDS = tuple(
    f.name for f in fields(NewGame) if f.name not in ("first_of_match", "moves")
)
NEW_CHALLENGE_FIELDS = tuple(f.name for f in fields(NewChallenge))
RATING_COLUMNS = COLUMNS[RatingRow]


VALUE_GETTERS: dict[type[Any], Callable[[Any], tuple[Any, ...]]] = {
    cls: attrgetter(*(f.name for f in fields(cls)))
    for cls in (NewChallenge, NewMove, RatingRow, NewEvent)
}
NEW_EVENT_COLUMNS = ", ".join(f.name for f in fields(NewEvent))
INSERT_EVENT = (
    f"INSERT INTO outbox ({NEW_EVENT_COLUMNS}) VALUES ({', '.join('?' for _ in fields(NewEvent))})"
)


def row_values(record: NewChallenge | NewMove | RatingRow | NewEvent) -> tuple[Any, ...]:
    """A record's field values in order, for an ``INSERT`` (``dataclasses.astuple`` deep-copies
    each one, and ``fields()`` is slow enough to show in a move's cost)."""
    return VALUE_GETTERS[type(record)](record)


def select_from(cls: type[Any], table: str) -> str:
    return f"SELECT {COLUMNS[cls]} FROM {table}"


RATING_OF = (
    select_from(RatingRow, "ratings") + " WHERE guild_id = ? AND user_id = ? AND variant = ?"
)


def shielded(method: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Run a write to completion even if the caller is cancelled (a command timing out, a
    shutdown): a transaction interrupted between statements would otherwise leave the shared
    connection inside ``BEGIN`` for the next caller.  The caller still sees the cancellation and
    the service drops its in-memory copy, so it rereads whatever the write did."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.shield(asyncio.ensure_future(method(*args, **kwargs)))

    return wrapper


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
