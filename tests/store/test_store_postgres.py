"""What only the PostgreSQL store has to show, against a real server
(``tests/support/pg_fixtures.py``): the choice of backend by address, migrations when several
processes start at once, a database written by a newer bot, an unreachable server, and races between
two processes (two pools on one database) that the contract tests run inside one.  The behaviour
shared with SQLite is in ``test_store_contract.py``, which runs against both.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from support.store_backends import FINISHED, T0, first_move, new_game

from bot.store import (
    LadderChange,
    RatedGame,
    RatingRow,
    SchemaTooNewError,
    StaleVersion,
    StoreError,
    open_store,
)
from bot.store.addresses import is_postgres_url, redact_url
from bot.store.postgres import PostgresStore
from bot.store.postgres_schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.sqlite import SqliteStore
from bot.store.sqlite_schema import SCHEMA_VERSION as SQLITE_SCHEMA_VERSION


@pytest.fixture
async def two(pg_dsn: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database, each with its own pool: two bot processes."""
    first = await PostgresStore.open(pg_dsn)
    second = await PostgresStore.open(pg_dsn)
    yield first, second
    await first.close()
    await second.close()


async def test_the_address_chooses_the_backend(pg_dsn: str, tmp_path: Path) -> None:
    for dsn in (pg_dsn, pg_dsn.replace("postgresql://", "postgres://", 1)):
        store = await open_store(dsn)
        assert isinstance(store, PostgresStore)
        assert await store.integrity_check() == "ok"
        await store.close()
    store = await open_store(f"{tmp_path}/draughts.db")
    assert isinstance(store, SqliteStore)
    await store.close()


async def test_both_backends_number_their_schema_alike() -> None:
    assert SCHEMA_VERSION == SQLITE_SCHEMA_VERSION


async def test_processes_starting_at_once_migrate_once(pg_dsn: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(pg_dsn) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
        conn = await asyncpg.connect(pg_dsn)
        try:
            versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_version")]
        finally:
            await conn.close()
        assert versions == [number for number, _ in MIGRATIONS]
    finally:
        for store in stores:
            await store.close()


async def test_a_database_from_a_newer_bot_is_refused(pg_dsn: str) -> None:
    await (await PostgresStore.open(pg_dsn)).close()
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNewError, match=f"version {SCHEMA_VERSION + 1}"):
        await PostgresStore.open(pg_dsn)


async def test_a_wrong_schema_version_fails_the_integrity_check(pg_dsn: str) -> None:
    store = await PostgresStore.open(pg_dsn)
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:
            await conn.execute("DELETE FROM schema_version")
        finally:
            await conn.close()
        assert await store.integrity_check() == f"schema version 0, expected {SCHEMA_VERSION}"
    finally:
        await store.close()


async def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot open the database") as caught:
        await open_store("postgresql://bot:secret@127.0.0.1:1/draughts")
    assert "secret" not in str(caught.value)
    assert redact_url("postgresql://bot:secret@db:5432/x") == "postgresql://bot:***@db:5432/x"
    assert redact_url("postgresql://bot@db/x") == "postgresql://bot@db/x"


async def test_discord_snowflakes_fit(pg_dsn: str) -> None:
    store = await PostgresStore.open(pg_dsn)
    try:
        big = 1_234_567_890_123_456_789
        game_id = await store.start_game(new_game(channel_id=big, guild_id=big, white_id=big))
        row = await store.game(game_id)
        assert row is not None and (row.channel_id, row.guild_id, row.white_id) == (big, big, big)
        assert await store.board_posted(game_id, big) is None
    finally:
        await store.close()


async def test_racing_moves_from_two_processes_land_once(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    first, second = two
    game_id = await first.start_game(new_game())
    move = first_move()
    for _ in range(3):
        outcomes = await asyncio.gather(
            first.update_game(game_id, 0, {"ply": 1}, move),
            second.update_game(game_id, 0, {"ply": 1}, move),
            return_exceptions=True,
        )
        if any(isinstance(o, StaleVersion) for o in outcomes):
            break
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleVersion"]
    row = await second.game(game_id)
    assert row is not None and (row.version, row.ply) == (1, 1)
    assert len(await first.moves(game_id)) == 1


async def test_two_rated_games_ending_at_once_are_applied_in_turn(
    two: tuple[PostgresStore, PostgresStore],
) -> None:
    """Player 1 ends two rated games at the same moment, one in each process: the second
    rating sees the first (one game more), as SQLite's single writer would have it."""
    first, second = two
    games = [await first.start_game(new_game(channel_id=100 + n, black_id=2 + n)) for n in (0, 1)]
    seen: list[int] = []

    def rate(white: RatingRow | None, black: RatingRow | None) -> LadderChange:
        played = 0 if white is None else white.games
        seen.append(played)
        after = RatingRow(
            10, 1, "english", 1500.0, 300.0, 0.06, played + 1, T0, "", 0, 0, 0, None, 0
        )
        opponent = RatingRow(10, 9, "english", 1500.0, 300.0, 0.06, 1, T0, "", 0, 0, 0, None, 0)
        return LadderChange(after, opponent, 0.0, 0.0)

    await asyncio.gather(
        *(
            store.update_game(game, 0, FINISHED, rated=RatedGame(10, "english", 1, 9, rate))
            for store, game in zip((first, second), games, strict=True)
        )
    )
    assert sorted(seen) == [0, 1]
    rating = await second.rating(10, 1, "english")
    assert rating is not None and rating.games == 2


def test_the_settings_and_open_store_agree_on_what_is_a_postgresql_url() -> None:
    """One test for both: a URL the settings accept, in any case, is never opened as a file."""
    assert is_postgres_url("postgresql://bot@db/x") and is_postgres_url("POSTGRES://bot@db/x")
    assert not is_postgres_url("./data/draughts.db")
    assert not is_postgres_url("sqlite://draughts.db")
    assert not is_postgres_url(Path("postgresql://bot@db/x"))  # a Path is always a file
