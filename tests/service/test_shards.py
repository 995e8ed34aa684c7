"""Shards: which process runs which servers' background work, on each store.

- Discord's arithmetic (``(guild_id >> 22) % count``, DMs on shard 0), in Python and in the SQL
  both stores run, agree for any id (hypothesis, on SQLite and PostgreSQL).
- The store's background reads (due games, computer games, matches waiting, expired challenges,
  owed announcements) return only the servers of the shards asked for.
- Ownership on PostgreSQL: one owner per shard; a process with another ``SHARD_COUNT`` takes
  none; closing, or a ``kill -9`` of the owner, frees its shards at once.
- Two services for shards 0-1 and 2-3 of 4 on one database: each times out, reminds, expires and
  announces its own servers' games only, once; a second service for the same shards waits until
  the first is gone, then takes over what it left; a process's silence is measured per shard,
  so a restart gives back to its own players' clocks the time it was away, not to the others'.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import asyncpg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.service_harness import (
    ALICE,
    BOB,
    CAROL,
    MOVE_TIME,
    Clock,
    Database,
    Services,
    start_moved,
)
from support.store_backends import FINISHED, T0, new_challenge, new_game

from bot.results import Action, ActionResult
from bot.service import GameService
from bot.service.shards import ShardOwnership
from bot.store import EVERY_SHARD, NewEvent, Shards, Store, open_store, shard_of

FOUR = 4
LOW = Shards.of(FOUR, (0, 1))
HIGH = Shards.of(FOUR, (2, 3))


def guild_on(shard: int, count: int = FOUR, n: int = 1) -> int:
    """A realistic server id (a snowflake of 2024) on ``shard`` of ``count``."""
    base = (1_200_000_000_000 << 22) + n * 7919
    while shard_of(base, count) != shard:
        base += 1 << 22
    return base


# -- Discord's arithmetic -------------------------------------------------------------------------


def test_a_server_s_shard_is_discord_s_formula() -> None:
    # Discord's own example: guild 197038439483310086, 2 shards -> shard 0... computed by hand:
    # 197038439483310086 >> 22 = 46977654046, even.
    assert shard_of(197038439483310086, 2) == 46977654046 % 2
    assert shard_of(None, 16) == 0  # direct messages and games outside a server: shard 0
    assert [shard_of(guild_on(s), FOUR) for s in range(FOUR)] == [0, 1, 2, 3]


def test_shards_are_checked_and_shown() -> None:
    assert str(Shards.of(4, (0, 1, 3))) == "shards 0-1,3 of 4"
    assert str(EVERY_SHARD) == "every server"
    assert EVERY_SHARD.everything and EVERY_SHARD.global_work
    assert not HIGH.global_work and LOW.global_work
    assert LOW.none().empty and LOW.none().where() == "FALSE"
    with pytest.raises(ValueError, match="do not exist"):
        Shards.of(4, (4,))
    with pytest.raises(ValueError, match="at least one shard"):
        Shards.every(0)


SHARD_SETS = st.integers(1, 16).flatmap(
    lambda count: st.builds(
        Shards.of, st.just(count), st.frozensets(st.integers(0, count - 1), min_size=1)
    )
)
GUILD_IDS = st.one_of(st.none(), st.integers(0, 2**63 - 1))


@settings(max_examples=300, deadline=None)
@given(shards=SHARD_SETS, guilds=st.lists(GUILD_IDS, min_size=1, max_size=20))
def test_the_sql_condition_is_the_python_one_on_sqlite(
    shards: Shards, guilds: list[int | None]
) -> None:
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE t (n INTEGER, guild_id INTEGER)")
        db.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(guilds)))
        found = {n for (n,) in db.execute(f"SELECT n FROM t WHERE {shards.where()}")}
    assert found == {n for n, guild in enumerate(guilds) if shards.owns(guild)}


def every_shard_set(largest: int) -> list[Shards]:
    """Every non-empty set of shards of every count up to ``largest``, and none of each."""
    sets = []
    for count in range(1, largest + 1):
        for mask in range(1 << count):
            sets.append(Shards.of(count, (i for i in range(count) if mask >> i & 1)))
    return sets


async def test_the_sql_condition_is_the_python_one_on_postgresql(pg_dsn: str) -> None:
    rng = random.Random(16)
    guilds: list[int | None] = [None, 0, 1, (1 << 22) - 1, 1 << 22, 2**63 - 1]
    guilds += [rng.randrange(2**63) for _ in range(200)]
    guilds += [guild_on(s, 7, n) for s in range(7) for n in range(3)]
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("CREATE TEMPORARY TABLE t (n INTEGER, guild_id BIGINT)")
        await conn.executemany("INSERT INTO t VALUES ($1, $2)", list(enumerate(guilds)))
        for shards in every_shard_set(6):
            rows = await conn.fetch(f"SELECT n FROM t WHERE {shards.where()}")
            found = {int(r[0]) for r in rows}
            assert found == {n for n, g in enumerate(guilds) if shards.owns(g)}, shards
    finally:
        await conn.close()


# -- the store's background reads -----------------------------------------------------------------


def event(event_id: str, guild_id: int | None) -> NewEvent:
    return NewEvent(event_id, "moved", guild_id, 100, None, None, T0, T0)


async def test_background_reads_return_only_the_shards_asked_for(store: Store) -> None:
    games: dict[int, list[int]] = {}
    for shard in range(FOUR):
        guild = guild_on(shard)
        channel = 1000 + 10 * shard
        due = await store.start_game(new_game(channel, guild_id=guild, deadline=T0 + 5))
        reminded = await store.start_game(
            new_game(channel + 1, guild_id=guild, deadline=T0 + 90, remind_at=T0 + 5)
        )
        computer = await store.start_game(
            new_game(channel + 2, guild_id=guild, computer_id=999, deadline=None, remind_at=None)
        )
        first = await store.start_game(
            new_game(channel + 3, guild_id=guild, first_of_match=True),
            event=event(f"e{shard}", guild),
        )
        await store.update_game(first, 0, FINISHED)
        await store.insert_challenge(new_challenge(channel + 4, guild_id=guild))
        games[shard] = [due, reminded, computer, first]
    outside = await store.start_game(new_game(9000, guild_id=None, deadline=T0 + 5))
    await store.insert_challenge(new_challenge(9001, guild_id=None))
    await store.start_game(new_game(9002, guild_id=None), event=event("dm", None))

    for shards in (LOW, HIGH, Shards.of(FOUR, (3,)), EVERY_SHARD, LOW.none()):
        mine = sorted(s for s in range(FOUR) if s in shards.ids or shards.everything)
        zero = shards.everything or 0 in shards.ids
        timeouts, reminders = await store.due_games(T0 + 10, shards=shards)
        assert [g.id for g in timeouts] == [games[s][0] for s in mine] + ([outside] if zero else [])
        assert [g.id for g in reminders] == [games[s][1] for s in mine]
        waiting = await store.computer_games_waiting(shards=shards)
        assert [g.id for g in waiting] == [games[s][2] for s in mine]
        assert [g.id for g in await store.matches_waiting(shards=shards)] == [
            games[s][3] for s in mine
        ]
        expired = await store.expired_challenges(T0 + 10_000, shards=shards)
        assert sorted(c.guild_id or 0 for c in expired) == sorted(
            [guild_on(s) for s in mine] + ([0] if zero else [])
        )
        owed = await store.pending_events(T0 + 10, shards=shards)
        assert [e.id for e in owed] == [f"e{s}" for s in mine] + (["dm"] if zero else [])
    # One game's entries are read whatever the shards (the game is in the asker's hands).
    [mine_only] = await store.pending_events(T0 + 10, shards=LOW.none(), game_id=games[2][3])
    assert mine_only.id == "e2"


async def test_sqlite_grants_every_shard_asked_for(tmp_path: Path) -> None:
    """One process alone opens a SQLite file (the bot's lock), so it owns what it asks for."""
    store = await open_store(tmp_path / "draughts.db")
    try:
        assert await store.own_shards(LOW) == LOW
        assert await store.own_shards(EVERY_SHARD) == EVERY_SHARD
    finally:
        await store.close()


# -- ownership on PostgreSQL ----------------------------------------------------------------------


async def test_a_shard_has_one_owner_at_a_time(pg_dsn: str) -> None:
    first, second, third = [await open_store(pg_dsn) for _ in range(3)]
    try:
        assert await first.own_shards(LOW) == LOW
        assert await second.own_shards(LOW) == LOW.none()  # held by the first
        assert await second.own_shards(Shards.every(FOUR)) == HIGH  # the rest are free
        assert await first.own_shards(LOW) == LOW  # renewing keeps them
        # Another count covers the same servers differently: it gets nothing at all.
        assert await third.own_shards(Shards.of(2, (1,))) == Shards.of(2, ()).none()
        assert await third.own_shards(EVERY_SHARD) == EVERY_SHARD.none()
        await first.close()
        assert await second.own_shards(Shards.every(FOUR)) == Shards.every(FOUR)
        await second.close()
        assert await third.own_shards(Shards.of(2, (1,))) == Shards.of(2, (1,))
    finally:
        for store in (first, second, third):
            await store.close()


async def test_ownership_is_per_database(pg_server: object, pg_dsn: str) -> None:
    """Advisory locks belong to a database: bots on two databases of one server are apart."""
    from support.pg_server import PostgresServer

    assert isinstance(pg_server, PostgresServer)
    async with pg_server.fresh_database() as other_dsn:
        here, there = await open_store(pg_dsn), await open_store(other_dsn)
        try:
            assert await here.own_shards(LOW) == LOW
            assert await there.own_shards(LOW) == LOW
            assert await there.own_shards(Shards.of(2, (0,))) == Shards.of(2, (0,))
        finally:
            await here.close()
            await there.close()


HOLDER = textwrap.dedent(
    """
    import asyncio, sys, time
    from bot.store import Shards, open_store

    async def main() -> None:
        store = await open_store(sys.argv[1])
        owned = await store.own_shards(Shards.of(4, (0, 1)))
        print("owned", sorted(owned.ids), flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


async def test_a_killed_owner_frees_its_shards_at_once(pg_dsn: str) -> None:
    """``kill -9``: no shutdown runs, but the kernel closes the socket and PostgreSQL ends the
    session with its locks, so the restarted process owns its shards without waiting a lease."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, pg_dsn],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert holder.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(holder.stdout.readline), 30)
        assert line.strip() == "owned [0, 1]"
        store = await open_store(pg_dsn)
        try:
            assert await store.own_shards(LOW) == LOW.none()
            holder.send_signal(signal.SIGKILL)
            holder.wait(10)
            waited = 0.0
            while (owned := await store.own_shards(LOW)) != LOW and waited < 5.0:
                await asyncio.sleep(0.05)  # the server notices the closed socket at once
                waited += 0.05
            assert owned == LOW and waited < 5.0
        finally:
            await store.close()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


async def test_a_lost_connection_owns_nothing_until_it_is_back(pg_dsn: str) -> None:
    """If the session holding the locks ends (a server restart, a network cut), the process
    stops its background work at once, and takes its shards again on a new session."""
    store = await open_store(pg_dsn)
    try:
        assert await store.own_shards(LOW) == LOW
        admin = await asyncpg.connect(pg_dsn)
        try:
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = 'draughts-bot shards'"
                " AND datname = current_database()"  # the server may serve other tests too
            )
            assert ended == 1
        finally:
            await admin.close()
        assert await store.own_shards(LOW) == LOW.none()
        assert await store.own_shards(LOW) == LOW  # a new session
    finally:
        await store.close()


async def test_the_shards_held_elsewhere_are_those_whose_interactions_are_left(
    pg_dsn: str,
) -> None:
    """Another process's shards (its lock, or another count) are the other's to answer; a
    closed store's may be the next process's already; SQLite's are never another's."""
    first, second, third = [await open_store(pg_dsn) for _ in range(3)]
    try:
        assert first.shards_elsewhere(LOW) == LOW.none()  # nothing known yet
        assert await first.own_shards(LOW) == LOW
        assert first.shards_elsewhere(LOW) == LOW.none()
        assert await second.own_shards(Shards.of(FOUR, (1, 2))) == Shards.of(FOUR, (2,))
        assert second.shards_elsewhere(Shards.of(FOUR, (1, 2))) == Shards.of(FOUR, (1,))
        ownership = ShardOwnership(third, Shards.every(2))  # another count: every server
        assert not ownership.answers(guild_on(3)) and not ownership.answers(None)
        assert not await ownership.answers_now(guild_on(3))
        assert third.shards_elsewhere(Shards.every(2)) == Shards.every(2)
        await first.close()
        assert first.shards_elsewhere(LOW) == LOW  # let go: answered by the next owner
        assert await first.own_shards(LOW) == LOW.none()  # and never taken again
        await second.close()
        assert await ownership.answers_now(None) and ownership.answers(guild_on(3))
    finally:
        for store in (first, second, third):
            await store.close()


async def test_a_lost_connection_is_no_reason_to_leave_interactions(pg_dsn: str) -> None:
    """The database cannot say who holds the shards: the process answers (with an error
    rather than silence) until it knows."""
    store = await open_store(pg_dsn)
    try:
        await store.own_shards(LOW)
        admin = await asyncpg.connect(pg_dsn)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'draughts-bot shards'"
                " AND datname = current_database()"
            )
        finally:
            await admin.close()
        assert await store.own_shards(LOW) == LOW.none()
        assert store.shards_elsewhere(LOW) == LOW.none()
    finally:
        await store.close()


async def test_sqlite_leaves_nothing_to_another_process(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "one.db")
    try:
        ownership = ShardOwnership(store, LOW)
        assert await ownership.answers_now(guild_on(0)) and ownership.answers(None)
        await store.close()
        assert store.shards_elsewhere(LOW) == LOW.none()
    finally:
        await store.close()


# -- two services, one database -------------------------------------------------------------------


async def start_in(service: GameService, shard: int, channel: int) -> int:
    """A running game in a server on ``shard``, both players having moved (Alice to move)."""
    game = await start_moved(service, guild_id=guild_on(shard), channel_id=channel)
    return game.id


async def test_each_process_runs_its_own_servers_only(
    services: Services, database: Database, clock: Clock
) -> None:
    low = await services.open(database, shards=LOW)
    high = await services.open(database, shards=HIGH)
    on_zero = await start_in(low, 0, 501)
    on_three = await start_in(high, 3, 502)
    # A challenge on each side, left to expire.
    made = await low.challenge(
        guild_id=guild_on(1),
        channel_id=503,
        challenger=ALICE,
        opponent=CAROL,
        variant="english",
        color="black",
        move_time=MOVE_TIME,
    )
    made_high = await high.challenge(
        guild_id=guild_on(2),
        channel_id=504,
        challenger=BOB,
        opponent=CAROL,
        variant="english",
        color="black",
        move_time=MOVE_TIME,
    )
    assert made.challenge is not None and made_high.challenge is not None
    on_one, on_two = made.challenge.id, made_high.challenge.id
    clock.advance(MOVE_TIME + 1)
    low_events = await low.tick()
    high_events = await high.tick()

    def seen(events: list[ActionResult]) -> set[tuple[str, int | None]]:
        return {
            (e.action.value, e.game.id if e.game else e.challenge.id if e.challenge else None)
            for e in events
        }

    assert seen(low_events) == {("timeout", on_zero), ("challenge_expired", on_one)}
    assert seen(high_events) == {("timeout", on_three), ("challenge_expired", on_two)}
    assert await low.tick() == [] and await high.tick() == []  # once


async def test_owed_announcements_go_to_their_server_s_process(
    services: Services, database: Database, clock: Clock
) -> None:
    """An announcement nobody delivered (its process died) is handed out by the process owning
    its server, and by no other."""
    low = await services.open(database, shards=LOW)
    high = await services.open(database, shards=HIGH)
    on_one = await start_in(low, 1, 601)
    on_two = await start_in(high, 2, 602)
    # A restart of each, after a minute: everything written before is owed.
    await low.close()
    await high.close()
    clock.advance(60)
    low = await services.open(database, shards=LOW)
    high = await services.open(database, shards=HIGH)
    low_owed = {o.game_id for o in await low.outbox.owed() if o.game_id is not None}
    high_owed = {o.game_id for o in await high.outbox.owed() if o.game_id is not None}
    assert low_owed == {on_one} and high_owed == {on_two}


async def test_a_second_process_for_the_same_shards_waits_then_takes_over(
    clock: Clock, pg_dsn: str
) -> None:
    """Two processes configured for the same shards (a rolling restart): only the first runs
    them; once it is gone the second times out what it left, once.  (PostgreSQL's: a SQLite
    file has one process, the bot's file lock refusing a second, see ``test_startup.py``.)"""
    services = Services(clock)
    try:
        old = await services.open(pg_dsn, shards=LOW)
        new = await services.open(pg_dsn, shards=LOW)
        game = await start_in(old, 0, 701)
        assert (await old.ownership.renew()) == LOW
        clock.advance(MOVE_TIME + 1)
        assert await new.tick() == []  # the old process still owns shard 0
        await old.close()
        [ended] = await new.tick()
        assert (ended.action, ended.game and ended.game.id) == (Action.TIMEOUT, game)
        assert await new.tick() == []
    finally:
        await services.close_all()


async def test_a_process_s_silence_is_measured_from_its_own_shards_records(
    services: Services, database: Database, clock: Clock
) -> None:
    """B (shards 2-3) is down for 50 minutes while A (shards 0-1) runs on: B's players could not
    move, so B's restart gives their clocks the silence back; A's players were heard all along
    and keep their deadlines."""
    low = await services.open(database, shards=LOW)
    high = await services.open(database, shards=HIGH)
    on_low = await start_in(low, 1, 801)
    on_high = await start_in(high, 3, 802)
    await low.tick()
    await high.tick()
    await high.close()
    seen_by_low = []
    for _ in range(50):  # A checks every minute meanwhile
        clock.advance(60)
        seen_by_low += [(e.action, e.game and e.game.id) for e in await low.tick()]
    assert seen_by_low == [(Action.REMINDER, on_low)]  # half time: A's clock ran, heard
    high = await services.open(database, shards=HIGH)
    [extended] = await high.tick()
    assert (extended.action, extended.game and extended.game.id) == (
        Action.CLOCK_EXTENDED,
        on_high,
    )
    assert extended.game is not None and extended.game.deadline is not None
    assert extended.game.deadline >= clock() + 600  # the ten minutes left, and then some
    assert (await low.game_view(on_low)).deadline == T0 + MOVE_TIME


async def test_the_first_sharded_start_measures_the_silence_of_the_single_process(
    services: Services, database: Database, clock: Clock
) -> None:
    """Moving from one process to shards (a stop, perhaps a migration, then the new processes):
    no shard has a record of its own yet, so the single process's last check tells how long the
    players were unheard."""
    single = await services.open(database)
    game = await start_in(single, 2, 901)
    await single.tick()
    await single.close()
    clock.advance(50 * 60)
    high = await services.open(database, shards=HIGH)
    [extended] = await high.tick()
    assert (extended.action, extended.game and extended.game.id) == (Action.CLOCK_EXTENDED, game)
