"""``python -m bot migrate-db``: a SQLite database made by the real service, copied into a real
PostgreSQL server (``pg_dsn``), verified, and played on from there.

The source holds what a server's database holds after a while: finished rated games (ratings), a
match whose second game runs, a running game with a takeback, a computer game, an open
challenge, the announcements of all of it in the outbox, server settings and user preferences.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from support.migrate_cli import migrate_cli
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    CAPTURE_LINE,
    CAROL,
    DAVE,
    EVE,
    FAY,
    GUILD,
    GUS,
    HAL,
    OTHER_CHANNEL,
    Clock,
    challenge,
    open_service,
    play,
    read_db,
    start,
    start_moved,
)
from support.tournament_harness import MODERATOR, create, open_games, with_players

from bot.migrate_db import migrate_to_postgres
from bot.store import StoreError
from bot.store.migrate import TABLES
from bot.tournaments.model import Format

TAKEBACK_CHANNEL, COMPUTER_CHANNEL, OPEN_CHANNEL = 102, 103, 104
PASSWORD = "migr4te-s3cret"


async def make_source(path: Path, clock: Clock) -> dict[str, int]:
    """A SQLite database written by the service; the ids of its games by role."""
    service = await open_service(path, clock)
    try:
        finished = await start_moved(service)
        clock.advance(60)
        await service.resign(BOB.id, game_id=finished.id)

        first = await start(
            service, channel_id=OTHER_CHANNEL, challenger=CAROL, opponent=DAVE, match=True
        )
        first = await play(service, first, ["11-15", "23-19"])
        clock.advance(60)
        ended = await service.resign(DAVE.id, game_id=first.id)
        second = await service.game_in(OTHER_CHANNEL)
        assert second is not None and second.id != first.id, ended

        running = await start(service, channel_id=TAKEBACK_CHANNEL, challenger=EVE, opponent=FAY)
        running = await play(service, running, CAPTURE_LINE[:4])
        await service.request_takeback(FAY.id, game_id=running.id)
        await service.answer_takeback(EVE.id, True, game_id=running.id)

        computer = await challenge(
            service, channel_id=COMPUTER_CHANNEL, challenger=GUS, opponent=BOT, level=1
        )
        assert computer.game is not None
        await challenge(service, channel_id=OPEN_CHANNEL, challenger=HAL, opponent=ALICE)

        await service.settings.change(GUILD, is_moderator=True, variant="russian", theme="green")
        await service.readers.set_prefs(ALICE.id, theme="green", dm_turn=True)
        event = await with_players(service, 3, Format.ROUND_ROBIN)
        await service.tournaments.start_now(event, MODERATOR.id, is_moderator=True)
        await open_games(service, event)
        return {
            "finished": finished.id,
            "match_first": first.id,
            "match_second": second.id,
            "running": running.id,
            "computer": computer.game.id,
        }
    finally:
        await service.close()


def sqlite_counts(path: Path) -> dict[str, int]:
    return {table: read_db(path, f"SELECT count(*) FROM {table}")[0][0] for table in TABLES}


async def pg_rows(dsn: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(dsn)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def pg_counts(dsn: str) -> dict[str, int]:
    return {table: (await pg_rows(dsn, f"SELECT count(*) FROM {table}"))[0][0] for table in TABLES}


def with_password(dsn: str) -> str:
    """The DSN with a password (the test server trusts every local connection, so any works)."""
    return dsn.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@", 1)


async def test_a_migrated_database_is_verified_and_the_games_go_on(
    tmp_path: Path, pg_dsn: str
) -> None:
    source = tmp_path / "draughts.db"
    clock = Clock()
    ids = await make_source(source, clock)
    counts = sqlite_counts(source)
    for table in ("games", "challenges", "moves", "taken_back_moves", "ratings", "outbox"):
        assert counts[table] > 0, table
    for table in ("tournaments", "tournament_players", "tournament_pairings"):
        assert counts[table] > 0, table
    assert counts["guild_settings"] == 1 and counts["user_prefs"] >= 1

    report = await migrate_to_postgres(source, pg_dsn)

    assert await pg_counts(pg_dsn) == counts
    assert f"{counts['games']} games replayed" in "\n".join(report)
    ratings = "SELECT guild_id, user_id, variant, rating, deviation, volatility, games, wins, "
    ratings += "draws, losses, streak, streak_length FROM ratings ORDER BY 1, 2, 3"
    assert await pg_rows(pg_dsn, ratings) == read_db(source, ratings)
    games = "SELECT id, status, fen, ply, result, match_id, version FROM games ORDER BY id"
    assert await pg_rows(pg_dsn, games) == read_db(source, games)
    flags = "SELECT id, rated, flip FROM games ORDER BY id"
    assert [(i, int(r), int(f)) for i, r, f in await pg_rows(pg_dsn, flags)] == read_db(
        source, flags
    )
    outbox = "SELECT seq, id, kind, game_id, delivered_at FROM outbox ORDER BY seq"
    assert await pg_rows(pg_dsn, outbox) == read_db(source, outbox)
    prefs = await pg_rows(pg_dsn, "SELECT user_id, theme, dm_turn FROM user_prefs")
    assert (ALICE.id, "green", True) in prefs
    assert await pg_rows(pg_dsn, "SELECT variant, theme FROM guild_settings") == [
        ("russian", "green")
    ]

    # The bot, now on PostgreSQL, plays on: the running game after its takeback, the second
    # game of the match, and new rows take ids after the copied ones.
    service = await open_service(pg_dsn, clock)
    try:
        running = await service.game_view(ids["running"])
        assert running is not None and running.ply == 3
        moved = await play(service, running, [CAPTURE_LINE[3]])
        assert moved.ply == 4
        second = await service.game_view(ids["match_second"])
        assert second is not None and second.to_move is not None
        assert (await play(service, second, ["11-15"])).ply == 1
        computer = await service.game_view(ids["computer"])
        assert computer is not None and computer.status == "running"
        new = await start(service, channel_id=999, challenger=HAL, opponent=EVE)
        assert new.id == max(ids.values()) + 2  # after the tournament's game too
        (event,) = await service.tournaments.listing(GUILD, finished=False)
        assert event.round == 1 and len(event.players) == 3
        assert [p.channel_id is not None for p in event.pairings] == [True, False]  # a bye
        later = await create(service)  # the ids of tournaments go on after the copied ones
        assert later == event.id + 1
    finally:
        await service.close()
    sqlite_db = sqlite3.connect(source)
    try:
        assert sqlite_db.execute("SELECT count(*) FROM moves").fetchone()[0] == counts["moves"]
    finally:
        sqlite_db.close()


async def test_the_command_reports_without_the_password_and_refuses_a_filled_target(
    tmp_path: Path, pg_dsn: str
) -> None:
    source = tmp_path / "draughts.db"
    await make_source(source, Clock())
    target = with_password(pg_dsn)

    done = migrate_cli(source, target, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout and "postgresql://postgres:***@127.0.0.1" in done.stdout
    assert PASSWORD not in done.stdout + done.stderr
    before = await pg_counts(pg_dsn)

    again = migrate_cli(source, target, tmp_path)
    assert again.returncode == 1
    assert "is not empty" in again.stderr and "nothing was changed" in again.stderr
    assert again.stderr.count("\n") == 1 and "Traceback" not in again.stderr
    assert PASSWORD not in again.stdout + again.stderr
    assert await pg_counts(pg_dsn) == before


async def test_a_game_that_does_not_replay_rolls_the_whole_copy_back(
    tmp_path: Path, pg_dsn: str
) -> None:
    source = tmp_path / "draughts.db"
    ids = await make_source(source, Clock())
    db = sqlite3.connect(source)
    with db:
        db.execute(
            "UPDATE games SET fen = (SELECT fen_after FROM moves WHERE game_id = ? AND ply = 1) "
            "WHERE id = ?",
            (ids["running"], ids["running"]),
        )
    db.close()

    with pytest.raises(StoreError, match=rf"game #{ids['running']}: .*position"):
        await migrate_to_postgres(source, pg_dsn)
    # Nothing kept, not even the schema (it was made in the same transaction): fix the source
    # and run it again.
    tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
    assert await pg_rows(pg_dsn, tables) == [(0,)]


async def test_a_missing_source_or_a_closed_server_is_one_line(tmp_path: Path) -> None:
    missing = migrate_cli(tmp_path / "none.db", "postgresql://u:pw@127.0.0.1:1/db", tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: there is no SQLite database at")
    source = tmp_path / "draughts.db"
    await make_source(source, Clock())
    closed = migrate_cli(source, f"postgresql://u:{PASSWORD}@127.0.0.1:1/db", tmp_path)
    assert closed.returncode == 1 and closed.stderr.count("\n") == 1
    assert "cannot connect to postgresql://u:***@127.0.0.1:1/db" in closed.stderr
    assert PASSWORD not in closed.stderr
    assert not (tmp_path / "draughts.db-lock").exists()  # released and removed
