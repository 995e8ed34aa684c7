"""The SQLite store (``bot.store.sqlite``) on real files: connection settings, schema versions and
migrations, and how a damaged game record is contained.  What every store promises is tested
against the protocol in ``test_store_contract.py``."""

from __future__ import annotations

import random
import re
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import DamagedRecordError
from bot.results import Player
from bot.service import GameService
from bot.store import SchemaTooNewError, StoreUnavailable
from bot.store.sqlite import SqliteStore as Store
from bot.store.sqlite_schema import MIGRATIONS, SCHEMA_V1, SCHEMA_VERSION
from rules.game import Game
from rules.variants import find_variant

T0 = 1_700_000_000.0
ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
CAROL = Player(3, "Carol")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "draughts.db")
    yield opened
    await opened.close()


async def pragma(store: Store, name: str) -> object:
    """A PRAGMA as the store's own connection sees it (some are per connection)."""
    async with store.transaction() as db, db.execute(f"PRAGMA {name}") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return row[0]


def schema_objects(path: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(path) as db:
        return {
            (kind, name)
            for kind, name in db.execute("SELECT type, name FROM sqlite_master")
            if not name.startswith("sqlite_")
        }


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


# -- connection -----------------------------------------------------------------------------------


async def test_a_database_locked_past_the_busy_timeout_is_unavailable_then_usable(
    store: Store,
) -> None:
    """Another connection (a backup, an operator's shell) holding the write lock past the busy
    timeout: the write fails as "unavailable", as a hung PostgreSQL server does, not as a driver
    error, and works once the lock is gone."""
    with sqlite3.connect(store.path, isolation_level=None) as other:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.set_meta("probe", "held")
        other.execute("ROLLBACK")
    await store.set_meta("probe", "free")
    assert await store.meta("probe") == "free"


async def test_an_abandoned_connection_is_unavailable_and_its_thread_ends(tmp_path: Path) -> None:
    """A shutdown out of time drops the connection: later statements say so as the database
    being unavailable (not aiosqlite's ValueError), and aiosqlite's thread, which is not a
    daemon and would keep the process alive, ends."""
    before = set(threading.enumerate())
    opened = await Store.open(tmp_path / "draughts.db")
    [thread] = set(threading.enumerate()) - before  # aiosqlite's
    opened.abandon()
    with pytest.raises(StoreUnavailable, match="closed"):
        await opened.meta("probe")
    thread.join(timeout=10)
    assert not thread.is_alive()


async def test_open_creates_the_directory(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "draughts.db"
    store = await Store.open(path)
    try:
        assert path.is_file()
        assert store.path == path
    finally:
        await store.close()


async def test_wal_foreign_keys_and_busy_timeout(store: Store) -> None:
    assert str(await pragma(store, "journal_mode")).lower() == "wal"
    assert await pragma(store, "foreign_keys") == 1
    assert int(await pragma(store, "busy_timeout")) >= 1000  # type: ignore[call-overload]
    assert await pragma(store, "synchronous") == 1  # NORMAL
    # WAL is a property of the file: a second, plain connection sees it too.
    with sqlite3.connect(store.path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with store.transaction() as db:
            await db.execute(
                "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at) "
                "VALUES (4242, 1, '11-15', 'x', 1, 0)"
            )


# -- schema versions ------------------------------------------------------------------------------


async def test_new_database_is_at_the_latest_schema_version(store: Store) -> None:
    assert SCHEMA_VERSION == MIGRATIONS[-1][0] >= 2
    assert await store.schema_version() == SCHEMA_VERSION
    assert user_version(store.path) == SCHEMA_VERSION
    names = {name for _, name in schema_objects(store.path)}
    assert {"challenges", "games", "moves", "ratings", "games_deadline"} <= names


def build_v1_database(path: Path) -> None:
    """A file as version 1 of the bot left it: its schema, and a game with two moves."""
    game = Game(find_variant("english"))
    start = game.position.fen()
    fens = []
    for text in ("11-15", "23-19"):
        game.play(text)
        fens.append(game.position.fen())
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_V1)
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, white_id, white_name, black_id, "
            "black_name, variant, start_fen, status, ply, fen, move_time, deadline, remind_at, "
            "created_at, updated_at) VALUES (7, 10, 100, 2, 'Bob', 1, 'Alice', 'english', ?, "
            "'running', 2, ?, 3600, ?, ?, ?, ?)",
            (start, fens[-1], T0 + 3600, T0 + 1800, T0, T0),
        )
        db.executemany(
            "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at) "
            "VALUES (7, ?, ?, ?, ?, ?)",
            [(1, "11-15", fens[0], ALICE.id, T0), (2, "23-19", fens[1], BOB.id, T0)],
        )
    assert user_version(path) == 1


async def test_version_1_database_upgrades_in_place_keeping_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    build_v1_database(path)
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        row = await store.game(7)
        assert row is not None
        assert (row.white_name, row.black_name, row.ply, row.deadline) == (
            "Bob",
            "Alice",
            2,
            T0 + 3600,
        )
        assert [m.pdn for m in await store.moves(7)] == ["11-15", "23-19"]
        # v4's columns: a game from before ratings stays unrated and belongs to no match.
        assert (row.rated, row.match_id, row.takeback_offer) == (0, None, None)
    finally:
        await store.close()
    # The upgraded file has exactly the schema of a new one.
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()
    assert schema_objects(path) == schema_objects(fresh)
    # And the service plays on in the upgraded game.
    clock = [T0 + 60]
    service = await GameService.open(path, bot_user_id=999, clock=lambda: clock[0])
    try:
        view = await service.game_in(100)
        assert view is not None and view.id == 7 and view.to_move == ALICE
        moved = await service.move(ALICE.id, "8-11", channel_id=100)
        assert moved.game is not None and moved.game.ply == 3
    finally:
        await service.close()


def definitions(path: Path) -> dict[str, object]:
    """What every table and index of a file is, as SQLite reports it (columns with their types,
    defaults, keys; indexes with their columns, uniqueness and conditions; foreign keys; checks;
    row-id and autoincrement options), so two files compare by what they hold rather than by the
    statements that made them (``ALTER TABLE`` or one ``CREATE TABLE``, ``!=`` or ``<>``)."""
    found: dict[str, object] = {}
    with sqlite3.connect(path) as db:
        for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master"):
            if name.startswith("sqlite_"):
                continue
            text = " ".join((sql or "").replace("!=", "<>").split())
            if kind == "index":
                found[name] = (db.execute(f"PRAGMA index_xinfo({name})").fetchall(), text)
                continue
            found[name] = (
                db.execute(f"PRAGMA table_xinfo({name})").fetchall(),
                sorted(row[1:] for row in db.execute(f"PRAGMA index_list({name})")),
                db.execute(f"PRAGMA foreign_key_list({name})").fetchall(),
                sorted(re.findall(r"CHECK \((.*?\)?)\)", text)),
                "WITHOUT ROWID" in text,
                "AUTOINCREMENT" in text,
            )
    return found


async def test_a_file_upgraded_from_any_version_holds_what_a_new_file_holds(
    tmp_path: Path,
) -> None:
    # A new file is created from the schema both backends share, an old one upgraded by
    # SQLite's own history: they must end at the same tables.
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()
    assert len(definitions(fresh)) > 20
    for version in range(1, SCHEMA_VERSION):
        path = tmp_path / f"v{version}.db"
        with sqlite3.connect(path) as db:
            for number, sql in MIGRATIONS:
                if number <= version:
                    db.executescript(sql)
            db.execute(f"PRAGMA user_version = {version}")
        await (await Store.open(path)).close()
        assert user_version(path) == SCHEMA_VERSION
        assert definitions(path) == definitions(fresh), f"upgraded from version {version}"


async def test_reopening_a_current_database_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "draughts.db"
    clock = [T0]
    service = await GameService.open(path, bot_user_id=999, clock=lambda: clock[0])
    created = await service.challenge(
        guild_id=1, channel_id=5, challenger=ALICE, opponent=BOB, variant="english"
    )
    await service.close()
    objects = schema_objects(path)
    store = await Store.open(path)
    try:
        assert created.challenge is not None
        row = await store.challenge(created.challenge.id)
        assert row is not None and row.status == "open"
    finally:
        await store.close()
    assert schema_objects(path) == objects and user_version(path) == SCHEMA_VERSION


async def test_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE future_things (x)")
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(SchemaTooNewError) as info:
        await Store.open(path)
    message = str(info.value)
    assert "99" in message and str(SCHEMA_VERSION) in message and "upgrade" in message
    assert str(path) in message
    assert user_version(path) == 99  # left as it was
    assert schema_objects(path) == {("table", "future_things")}
    with pytest.raises(SchemaTooNewError):
        await GameService.open(path, bot_user_id=999)


# -- damaged records ------------------------------------------------------------------------------


CORRUPTIONS = {
    "missing ply": "DELETE FROM moves WHERE game_id = :id AND ply = 1",
    "nonsense move": "UPDATE moves SET pdn = '99-98' WHERE game_id = :id AND ply = 2",
    "illegal move": "UPDATE moves SET pdn = '12-16' WHERE game_id = :id AND ply = 2",
    "ply too high": "UPDATE games SET ply = 5 WHERE id = :id",
    "bad start": "UPDATE games SET start_fen = 'not a fen' WHERE id = :id",
    "unknown variant": "UPDATE games SET variant = 'chess' WHERE id = :id",
    "bad count": "UPDATE games SET advantage_side = 'white', advantage_start_ply = 9 "
    "WHERE id = :id",
}


@pytest.mark.parametrize("damage", sorted(CORRUPTIONS))
async def test_damaged_game_is_refused_alone(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "draughts.db"
    clock = [T0]

    async def open_service() -> GameService:
        return await GameService.open(
            path, bot_user_id=999, clock=lambda: clock[0], rng=random.Random(1)
        )

    service = await open_service()
    ids = []
    for channel, challenger in ((100, ALICE), (101, CAROL)):
        created = await service.challenge(
            guild_id=10,
            channel_id=channel,
            challenger=challenger,
            opponent=BOB,
            variant="english",
            color="black",
        )
        assert created.challenge is not None
        view = (await service.accept(created.challenge.id, BOB.id)).game
        assert view is not None
        await service.move(challenger.id, "11-15", game_id=view.id)
        await service.move(BOB.id, "23-19", game_id=view.id)
        ids.append(view.id)
    await service.close()
    damaged, healthy = ids
    with sqlite3.connect(path) as db:
        db.execute(CORRUPTIONS[damage], {"id": damaged})

    service = await open_service()
    try:
        row = await service.store.game(damaged)
        moves = await service.store.moves(damaged)
        with pytest.raises(DamagedRecordError, match=f"#{damaged}"):
            await service.game_view(damaged)
        with pytest.raises(DamagedRecordError):
            await service.game_in(100)
        with pytest.raises(DamagedRecordError):
            await service.move(ALICE.id, "8-11", channel_id=100)
        with pytest.raises(DamagedRecordError):
            await service.pdn(game_id=damaged)
        assert await service.legal_moves(100, ALICE.id) == []
        assert await service.store.game(damaged) == row
        assert await service.store.moves(damaged) == moves
        # The other game is untouched and still listed and playable.
        assert [g.id for g in await service.games(10)] == [healthy]
        moved = await service.move(CAROL.id, "8-11", channel_id=101)
        assert moved.game is not None and moved.game.ply == 3
        # The scheduler's check skips the damaged game instead of failing.
        clock[0] = T0 + 10 * 24 * 3600
        events = await service.tick()
        assert [e.game.id for e in events if e.game] == [healthy]
    finally:
        await service.close()


# -- schema v7 ------------------------------------------------------------------------------------


def build_v6_database(path: Path) -> None:
    """A file as version 6 of the bot left it: a running game with a move, a server's settings."""
    game = Game(find_variant("english"))
    start = game.position.fen()
    game.play("11-15")
    with sqlite3.connect(path) as db:
        for number, sql in MIGRATIONS:
            if number <= 6:
                db.executescript(sql)
        db.execute("PRAGMA user_version = 6")
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, white_id, white_name, black_id, "
            "black_name, variant, start_fen, status, ply, fen, move_time, deadline, remind_at, "
            "created_at, updated_at, rated) VALUES (3, 10, 100, 2, 'Bob', 1, 'Alice', 'english', "
            "?, 'running', 1, ?, 3600, ?, ?, ?, ?, 1)",
            (start, game.position.fen(), T0 + 3600, T0 + 1800, T0, T0),
        )
        db.execute(
            "INSERT INTO moves (game_id, ply, pdn, fen_after, user_id, played_at) "
            "VALUES (3, 1, '11-15', ?, 1, ?)",
            (game.position.fen(), T0),
        )
        db.execute(
            "INSERT INTO guild_settings (guild_id, variant, threads, updated_at) "
            "VALUES (10, 'dame', 'never', ?)",
            (T0,),
        )
    assert user_version(path) == 6


async def test_version_6_database_upgrades_to_7_keeping_its_data(tmp_path: Path) -> None:
    """v7 adds the game's orientation, ratings shown, last board and last warning, the server's
    orientation and theme, and users' preferences: old rows read as the defaults."""
    path = tmp_path / "v6.db"
    build_v6_database(path)
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 17
        row = await store.game(3)
        assert row is not None and (row.ply, row.deadline, row.remind_at) == (
            1,
            T0 + 3600,
            T0 + 1800,
        )
        assert (row.flip, row.white_rating_shown, row.black_rating_shown) == (False, None, None)
        assert (row.board_message_id, row.warn_at) == (None, None)
        settings = await store.settings(10)
        assert settings is not None
        assert (settings.variant, settings.orientation, settings.theme) == ("dame", "white", "")
        assert await store.prefs(1) is None
    finally:
        await store.close()
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()
    assert schema_objects(path) == schema_objects(fresh)
    # The service plays on in the upgraded game, and the next move sets its last warning.
    clock = [T0 + 60]
    service = await GameService.open(path, bot_user_id=999, clock=lambda: clock[0])
    try:
        view = await service.game_view(3)
        assert (view.flip, view.white_rating, view.to_move) == (False, None, BOB)
        moved = await service.move(BOB.id, "23-19", game_id=3)
        assert moved.game is not None and moved.game.recent_moves == "1. 11-15 23-19"
        stored = await service.store.game(3)
        assert stored is not None and stored.warn_at == T0 + 60 + 3600 - 360
        assert (await service.settings.get(10)).theme == "wood"
    finally:
        await service.close()


async def test_version_7_database_upgrades_to_8_keeping_its_data(tmp_path: Path) -> None:
    """v8 adds the server's chosen language and last seen locale, and each user's last seen
    locale: old rows read as "none chosen, none seen" (English until someone interacts)."""
    path = tmp_path / "v7.db"
    with sqlite3.connect(path) as db:
        for number, sql in MIGRATIONS:
            if number <= 7:
                db.executescript(sql)
        db.execute("PRAGMA user_version = 7")
        db.execute(
            "INSERT INTO guild_settings (guild_id, variant, move_time, threads, updated_at, "
            "orientation, theme) VALUES (10, 'dame', 3600, 'never', ?, 'black', 'green')",
            (T0,),
        )
        db.execute(
            "INSERT INTO user_prefs (user_id, theme, notation, dm_turn, last_warning, "
            "updated_at) VALUES (1, 'green', 'numeric', 1, 0, ?)",
            (T0,),
        )
    service = await GameService.open(path, bot_user_id=999, clock=lambda: T0)
    try:
        assert user_version(path) == SCHEMA_VERSION == 17
        settings = await service.store.settings(10)
        assert settings is not None
        assert (settings.theme, settings.language, settings.guild_locale) == ("green", "", "")
        prefs = await service.store.prefs(1)
        assert prefs is not None and (prefs.theme, prefs.dm_turn, prefs.locale) == (
            "green",
            True,
            "",
        )
        assert await service.readers.server_locale(10) is None
        assert await service.readers.user_locale(1) is None
        changed = await service.readers.remember_locales(
            user_id=1, locale="pt-BR", guild_id=10, guild_locale="fr"
        )
        assert changed
        assert (await service.readers.user_locale(1), await service.readers.server_locale(10)) == (
            "pt-BR",
            "fr",
        )
        assert (await service.readers.prefs(1)).theme == "green"  # the rest of the row is kept
        assert (await service.settings.get(10)).threads == "never"
    finally:
        await service.close()
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()
    assert schema_objects(path) == schema_objects(fresh)


async def test_version_9_database_upgrades_to_12_keeping_its_ratings(tmp_path: Path) -> None:
    """v12 adds Fischer clocks and keys the ratings by time class: every rating from before
    stands as a correspondence rating (its record and streak kept), running games and open
    challenges keep their time per move (no clock)."""
    path = tmp_path / "v9.db"
    with sqlite3.connect(path) as db:
        for number, sql in MIGRATIONS:
            if number <= 9:
                db.executescript(sql)
        db.execute("PRAGMA user_version = 9")
        db.execute(
            "INSERT INTO ratings (guild_id, user_id, variant, rating, deviation, volatility, "
            "games, updated_at, name, wins, draws, losses, streak, streak_length) "
            "VALUES (10, 1, 'english', 1612.5, 80, 0.06, 12, ?, 'Alice', 7, 2, 3, 'W', 2)",
            (T0,),
        )
    service = await GameService.open(path, bot_user_id=999, clock=lambda: T0)
    try:
        assert user_version(path) == SCHEMA_VERSION == 17
        row = await service.store.rating(10, 1, "english")
        assert row is not None
        assert (row.pool, row.rating, row.games, row.wins, row.streak_length) == (
            "correspondence",
            1612.5,
            12,
            7,
            2,
        )
        assert await service.store.rating(10, 1, "english", "blitz") is None
        stats = await service.stats(10, Player(1, "Alice"), "english")
        assert stats.pool == "correspondence" and stats.rating is not None
    finally:
        await service.close()
    fresh = tmp_path / "fresh.db"
    await (await Store.open(fresh)).close()
    assert schema_objects(path) == schema_objects(fresh)


async def test_damaged_preferences_and_settings_read_as_the_defaults(tmp_path: Path) -> None:
    """Words a later version wrote, or damage, never stop anything: each reads as its default."""
    path = tmp_path / "draughts.db"
    service = await GameService.open(path, bot_user_id=999, clock=lambda: T0)
    try:
        await service.readers.set_prefs(1, theme="green", notation="numeric", dm_turn=True)
        await service.settings.change(10, is_moderator=True, orientation="black", theme="green")
        with sqlite3.connect(path) as db:
            db.execute(
                "UPDATE user_prefs SET theme = 'purple', notation = 42, dm_turn = 'yes', "
                "last_warning = 7 WHERE user_id = 1"
            )
            db.execute("UPDATE guild_settings SET orientation = 'sideways', theme = 'plaid'")
        prefs = await service.readers.prefs(1)
        assert (prefs.theme, prefs.notation, prefs.dm_turn, prefs.last_warning) == (
            None,
            None,
            False,
            False,
        )
        settings = await service.settings.get(10)
        assert (settings.orientation, settings.theme) == ("white", "wood")
    finally:
        await service.close()
