"""Reliability of the game service on real databases (each store backend in turn), with no mocks.

- Restart: everything a game holds (moves, draw offers, counts, deadlines, open challenges,
  finished games) is the same after closing the service and opening a new one on the same file,
  and the deadlines still fire.
- Race: many coroutines submit moves for the same ply at once (the same move, different moves,
  with and without ``expected_ply``, through one service or two services on the same file):
  exactly one lands per ply, every other attempt gets a :class:`ServiceError`, and the moves table
  has no gap or duplicate.
- Crash: a subprocess (``tests/support/crash_player.py``) plays moves and acknowledges each one; it
  is killed with SIGKILL at random moments; every acknowledged move is in the database, the records
  replay, and ``PRAGMA integrity_check`` is ok.
- Bad input: fuzzed move text and refused actions (non-players, finished games, wrong turn) raise a
  :class:`ServiceError` with a readable reason and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from support.service_harness import (
    ALICE,
    BOB,
    BOT_ID,
    CAROL,
    DAVE,
    EVE,
    FAY,
    GUILD,
    GUS,
    HAL,
    STRANGER,
    T0,
    Clock,
    Database,
    Services,
    is_postgres,
    open_service,
    query,
    read_db,
    replied,
    start,
)

from bot.errors import (
    ChallengeError,
    ConflictError,
    ForbiddenError,
    GameOverError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    ServiceError,
)
from bot.results import Action, ActionResult, GameView, Player
from bot.service import GameService
from rules.fen import parse_fen
from rules.game import Game
from rules.notation import MoveError
from rules.variants import find_variant

SUPPORT = Path(__file__).resolve().parent.parent / "support"


async def start_game(
    svc: GameService, channel: int, white: Player, black: Player, **terms: Any
) -> GameView:
    """A game started the ordinary way: ``white`` challenges ``black``, who accepts (the
    harness's terms otherwise: English, an hour a move)."""
    return await start(
        svc, channel_id=channel, challenger=white, opponent=black, color="white", **terms
    )


async def play_random(svc: GameService, game_id: int, plies: int, rng: random.Random) -> GameView:
    """Play ``plies`` random legal moves (fewer if the game ends) and return the last view."""
    view = await svc.game_view(game_id)
    for _ in range(plies):
        if not view.running:
            break
        assert view.to_move is not None
        choices = await svc.legal_moves(view.channel_id, view.to_move.id)
        result = await svc.move(view.to_move.id, rng.choice(choices).value, game_id=game_id)
        assert result.game is not None
        view = result.game
    return view


async def next_move(svc: GameService, game_id: int, rng: random.Random) -> tuple[GameView, str]:
    """The current view of a running game and a random legal move for its player to move."""
    view = await svc.game_view(game_id)
    assert view.running and view.to_move is not None
    choices = await svc.legal_moves(view.channel_id, view.to_move.id)
    return view, rng.choice(choices).value


async def db_snapshot(path: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables the service writes, for "nothing changed" checks."""
    return {
        table: await query(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("games", "moves", "challenges")
    }


async def assert_records_sound(path: Database) -> int:
    """Every game of the database: moves numbered 1..ply with no gap or duplicate, the games
    row's ply equal to the number of moves, each move legal and its stored position right when
    replayed by the rules, the stored FEN the replayed one; and for a SQLite file
    ``PRAGMA integrity_check`` and ``foreign_key_check`` ok (PostgreSQL enforces its foreign keys
    on every write).  Returns the number of moves checked."""
    if not is_postgres(path):
        assert await query(path, "PRAGMA integrity_check") == [("ok",)]
        assert await query(path, "PRAGMA foreign_key_check") == []
    duplicates = await query(
        path, "SELECT game_id, ply, COUNT(*) FROM moves GROUP BY game_id, ply HAVING COUNT(*) > 1"
    )
    assert duplicates == []
    total = 0
    for game_id, variant_key, start_fen, ply, fen in await query(
        path, "SELECT id, variant, start_fen, ply, fen FROM games ORDER BY id"
    ):
        moves = await query(
            path, "SELECT ply, pdn, fen_after FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        assert [m[0] for m in moves] == list(range(1, ply + 1)), f"game {game_id}: plies"
        variant = find_variant(variant_key)
        game = Game(variant, parse_fen(start_fen, variant))
        for number, pdn, fen_after in moves:
            game.play(pdn)
            assert game.position.fen() == fen_after, f"game {game_id} ply {number}"
        assert game.position.fen() == fen, f"game {game_id}: stored position"
        total += len(moves)
    return total


async def race(attempts: list[Callable[[], Awaitable[ActionResult]]]) -> list[Any]:
    """Run every attempt at once (released together by one event) and return results and
    exceptions.  Anything raised that is not a :class:`ServiceError` fails the test."""
    go = asyncio.Event()

    async def one(attempt: Callable[[], Awaitable[ActionResult]]) -> ActionResult:
        await go.wait()
        return await attempt()

    tasks = [asyncio.create_task(one(a)) for a in attempts]
    await asyncio.sleep(0)
    go.set()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    escaped = [
        o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, ServiceError)
    ]
    assert escaped == [], f"non-service exceptions escaped: {escaped!r}"
    return outcomes


def winners(outcomes: list[Any]) -> list[ActionResult]:
    return [o for o in outcomes if isinstance(o, ActionResult)]


# -- restart ---------------------------------------------------------------------------------------


async def test_restart_keeps_everything(
    services: Services, database: Database, clock: Clock
) -> None:
    path = database
    rng = random.Random(7)
    svc = await services.open(path)

    # A: a few moves, then a draw offer left pending.
    a = await start_game(svc, 100, ALICE, BOB)
    a = await play_random(svc, a.id, 5, rng)
    assert a.to_move is not None
    offered_by = a.to_move
    await svc.offer_draw(offered_by.id, game_id=a.id)

    # B: a declined offer starts english's 40-move count, which then runs for a few moves.
    b = await start_game(svc, 101, CAROL, DAVE, move_time=100)
    b = await play_random(svc, b.id, 4, rng)
    assert b.to_move is not None
    await svc.offer_draw(b.to_move.id, game_id=b.id)
    decliner = b.black if b.to_move == b.white else b.white
    declined = await svc.decline_draw(decliner.id, game_id=b.id)
    assert declined.game is not None and declined.game.advantage_left == 40
    b = await play_random(svc, b.id, 5, rng)
    assert b.advantage_left is not None and b.advantage_left < 40

    # C: another variant, with a short move time.
    c = await start_game(svc, 102, EVE, FAY, variant="russian", move_time=60)
    c = await play_random(svc, c.id, 7, rng)

    # D: finished by resignation.  E: an open challenge.  F: a game against the computer.
    d = await start_game(svc, 103, GUS, HAL, variant="international")
    d = await play_random(svc, d.id, 3, rng)
    await svc.resign(GUS.id, game_id=d.id)
    e = await svc.challenge(
        guild_id=GUILD,
        channel_id=104,
        challenger=ALICE,
        opponent=CAROL,
        variant="pool",
        move_time=600,
    )
    assert e.challenge is not None
    f = await svc.challenge(
        guild_id=GUILD,
        channel_id=105,
        challenger=BOB,
        opponent=Player(BOT_ID, "Computer"),
        variant="brazilian",
        color="white",
        level=2,
    )
    assert f.game is not None
    f = await svc.move(BOB.id, (await svc.legal_moves(105, BOB.id))[0].value, channel_id=105)
    assert f.game is not None
    f = await replied(svc, f.game.id)
    assert f.game is not None and f.game.ply == 2  # the computer replied

    game_ids = [a.id, b.id, c.id, d.id, f.game.id]
    views = [await svc.game_view(g) for g in game_ids]
    pdns = [await svc.pdn(game_id=g) for g in game_ids]
    challenge = await svc.challenge_view(e.challenge.id)
    running = [v.id for v in await svc.games(GUILD)]
    files = await db_snapshot(path)
    await svc.close()

    # A new service (fresh caches, fresh connection) on the same file sees the same thing.
    svc = await services.open(path)
    assert [await svc.game_view(g) for g in game_ids] == views
    assert [await svc.pdn(game_id=g) for g in game_ids] == pdns
    assert await svc.challenge_view(e.challenge.id) == challenge
    assert [v.id for v in await svc.games(GUILD)] == running == [a.id, b.id, c.id, f.game.id]
    assert await db_snapshot(path) == files
    assert views[0].draw_offer == _color(offered_by, views[0])
    assert views[1].advantage_left == b.advantage_left
    assert views[1].deadline == T0 + 100 and views[2].deadline == T0 + 60
    assert views[3].status == "finished" and views[3].winner == HAL
    assert await svc.resume_computer_games() == 0  # it is Bob's move, not the computer's

    # The deadlines still work: at T0+61, C times out and B is reminded (half of its 100 s).
    clock.now = T0 + 61
    events = await svc.tick()
    assert [(ev.action, ev.game.id if ev.game else None) for ev in events] == [
        (Action.TIMEOUT, c.id),
        (Action.REMINDER, b.id),
    ]
    # The pending offer survived: the other player accepts it.
    other = views[0].black if offered_by == views[0].white else views[0].white
    accepted = await svc.accept_draw(other.id, game_id=a.id)
    assert accepted.action is Action.DRAW_ACCEPTED
    # The 40-move count goes on from where it was.
    count = views[1].advantage_left
    b_after = await play_random(svc, b.id, 2, rng)
    assert b_after.advantage_left == count - 1
    await svc.close()

    # And what the tick did was stored: a third service sees it, and the challenge expires.
    svc = await services.open(path)
    assert (await svc.game_view(c.id)).termination is not None
    assert (await svc.game_view(a.id)).result == "1/2-1/2"
    assert (await svc.store.game(b.id)).remind_at == T0 + 61 + 50  # type: ignore[union-attr]
    # The bot was away from T0+61 (its last check) to T0+901: B's deadline (T0+161) passed
    # unheard, so its clock is moved on by the 840 s of silence instead of B losing on time.
    clock.now = T0 + 15 * 60 + 1
    events = await svc.tick()
    assert [(ev.action, ev.game.id if ev.game else None) for ev in events] == [
        (Action.CLOCK_EXTENDED, b.id),
        (Action.CHALLENGE_EXPIRED, None),
    ]
    assert (await svc.store.game(b.id)).deadline == T0 + 161 + 840  # type: ignore[union-attr]
    clock.now = T0 + 161 + 840
    (timeout,) = await svc.tick()
    assert (timeout.action, timeout.game.id if timeout.game else None) == (Action.TIMEOUT, b.id)
    assert await svc.store.integrity_check() == "ok"
    await svc.close()
    await assert_records_sound(path)


def _color(player: Player, view: GameView) -> str:
    return "white" if player == view.white else "black"


# -- races -----------------------------------------------------------------------------------------

RACERS = 50


@pytest.mark.parametrize("with_expected_ply", [True, False], ids=["expected_ply", "no_ply"])
async def test_race_same_move_two_games(
    services: Services, database: Database, with_expected_ply: bool
) -> None:
    """50 coroutines submit the same next move in one game and 50 in another, ply after ply:
    exactly one lands per ply in each game."""
    path = database
    svc = await services.open(path)
    rng = random.Random(11)
    games = [
        await start_game(svc, 200, ALICE, BOB),
        await start_game(svc, 201, CAROL, DAVE, variant="international"),
    ]
    played: dict[int, list[str]] = {g.id: [] for g in games}
    for _ in range(12):
        attempts: list[Callable[[], Awaitable[ActionResult]]] = []
        spans = {}
        for g in games:
            view, text = await next_move(svc, g.id, rng)
            assert view.to_move is not None
            ply = view.ply if with_expected_ply else None
            by_channel = g.id == games[0].id  # one game addressed by channel, one by id
            start = len(attempts)
            for _ in range(RACERS):
                where = {"channel_id": view.channel_id} if by_channel else {"game_id": g.id}
                attempts.append(
                    lambda u=view.to_move.id, t=text, w=where, p=ply: svc.move(
                        u, t, **w, expected_ply=p
                    )
                )
            spans[g.id] = (start, len(attempts), text, view.ply)
        outcomes = await race(attempts)
        for game_id, (start, end, text, ply) in spans.items():
            mine = outcomes[start:end]
            landed = winners(mine)
            assert len(landed) == 1, f"game {game_id} ply {ply + 1}: {len(landed)} landed"
            assert landed[0].moves[0].pdn == text and landed[0].moves[0].ply == ply + 1
            expected = ConflictError if with_expected_ply else NotYourTurnError
            losers = [o for o in mine if not isinstance(o, ActionResult)]
            assert all(isinstance(o, expected | GameOverError) for o in losers), losers
            played[game_id].append(text)
            if landed[0].finished:
                games = [g for g in games if g.id != game_id]
        if not games:
            break
    for game_id, texts in played.items():
        assert [m.pdn for m in await svc.store.moves(game_id)] == texts
        assert (await svc.store.game(game_id)).ply == len(texts)  # type: ignore[union-attr]
    await svc.close()
    await assert_records_sound(path)


async def test_race_different_moves_same_player(services: Services, database: Database) -> None:
    """The player to move submits every legal move at once, many times over (half of them with
    ``expected_ply``), while the opponent also tries to move: one move lands per ply."""
    path = database
    svc = await services.open(path)
    rng = random.Random(12)
    game = await start_game(svc, 300, ALICE, BOB, variant="russian")
    texts_played = []
    for _ in range(15):
        view = await svc.game_view(game.id)
        if not view.running:
            break
        assert view.to_move is not None
        mover = view.to_move.id
        waiter = view.white.id if mover == view.black.id else view.black.id
        choices = [c.value for c in await svc.legal_moves(view.channel_id, mover)]
        attempts: list[Callable[[], Awaitable[ActionResult]]] = []
        for i in range(RACERS):
            text = choices[i % len(choices)]
            ply = view.ply if i % 2 else None
            attempts.append(
                lambda u=mover, t=text, p=ply: svc.move(u, t, game_id=game.id, expected_ply=p)
            )
        # The opponent tries too, in the position it saw: always refused (turn, then ply).
        attempts += [
            lambda u=waiter, t=t, p=view.ply: svc.move(u, t, game_id=game.id, expected_ply=p)
            for t in ("a3-b4", "11-15", "c3-d4")
        ]
        rng.shuffle(attempts)
        outcomes = await race(attempts)
        landed = winners(outcomes)
        assert len(landed) == 1, f"ply {view.ply + 1}: {len(landed)} landed"
        assert landed[0].moves[0].by.id == mover and landed[0].moves[0].pdn in choices
        losers = [o for o in outcomes if not isinstance(o, ActionResult)]
        assert all(isinstance(o, ConflictError | NotYourTurnError | GameOverError) for o in losers)
        texts_played.append(landed[0].moves[0].pdn)
    assert [m.pdn for m in await svc.store.moves(game.id)] == texts_played
    await svc.close()
    await assert_records_sound(path)


async def test_race_two_services_on_one_file(services: Services, database: Database) -> None:
    """Two services (two connections, two in-memory caches) on the same file race for the same
    ply: the store's version guard lets exactly one write land, and the losing service answers
    with :class:`ConflictError`, never a crash or a second row."""
    path = database
    first = await services.open(path, seed=1)
    second = await services.open(path, seed=2)
    rng = random.Random(13)
    game = await start_game(first, 400, ALICE, BOB)
    services = (first, second)
    conflicts = 0
    texts = []
    for _ in range(16):
        # Both services hold the current game in memory, so both reach the write at once.
        views = [await s.game_view(game.id) for s in services]
        assert views[0] == views[1]
        view, text = await next_move(first, game.id, rng)
        if not view.running:
            break
        assert view.to_move is not None
        user = view.to_move.id
        attempts: list[Callable[[], Awaitable[ActionResult]]] = []
        for i in range(RACERS):
            attempts.append(lambda s=services[i % 2], u=user, t=text: s.move(u, t, game_id=game.id))
        outcomes = await race(attempts)
        landed = winners(outcomes)
        assert len(landed) == 1, f"ply {view.ply + 1}: {len(landed)} landed"
        losers = [o for o in outcomes if not isinstance(o, ActionResult)]
        assert all(isinstance(o, ConflictError | NotYourTurnError | GameOverError) for o in losers)
        conflicts += sum(isinstance(o, ConflictError) for o in losers)
        texts.append(text)
        if landed[0].finished:
            break
    # Without expected_ply, a ConflictError can only come from the version guard.
    assert conflicts >= 1
    # A service whose copy is stale (the other played meanwhile) cannot write from it: the same
    # move, legal in its copy, is refused with ConflictError and its copy is reloaded.
    view, text = await next_move(first, game.id, rng)
    if view.running:
        assert view.to_move is not None
        await second.game_view(game.id)
        await first.move(view.to_move.id, text, game_id=game.id)
        texts.append(text)
        with pytest.raises(ConflictError):
            await second.move(view.to_move.id, text, game_id=game.id)
        with pytest.raises(NotYourTurnError):
            await second.move(view.to_move.id, text, game_id=game.id)
        assert await second.game_view(game.id) == await first.game_view(game.id)
    for s in services:
        assert [m.pdn for m in await s.store.moves(game.id)] == texts
    await first.close()
    await second.close()
    await assert_records_sound(path)


async def test_a_stale_service_does_not_keep_refusing_the_player_to_move(
    services: Services, database: Database
) -> None:
    """A second service on the file (e.g. the old process during a deploy) holds the game from
    before the other one played.  The player really to move may be told "the position changed,
    try again" once (the service's contract for a second process), but must not be refused for
    ever with the stale copy's "it is Bob's turn".

    Fails at b0a5535: ``move`` refuses from the cached copy (NotYourTurnError) before anything
    is written, so the version guard never runs and the stale copy is never reloaded."""
    path = database
    first = await services.open(path)
    second = await services.open(path)
    game = await start_game(first, 450, ALICE, BOB)  # Bob (Black) moves first in English
    await second.game_view(game.id)  # the second service now holds the game at ply 0
    await first.move(BOB.id, "11-15", game_id=game.id)  # Alice to move
    errors: list[ServiceError] = []
    for _ in range(3):
        try:
            await second.move(ALICE.id, "22-18", game_id=game.id)
            break
        except ServiceError as exc:
            errors.append(exc)
    assert all(isinstance(e, ConflictError) for e in errors), errors
    assert len(errors) <= 1, errors
    assert [m.pdn for m in await first.store.moves(game.id)] == ["11-15", "22-18"]
    await first.close()
    await second.close()
    await assert_records_sound(path)


async def test_race_accepting_one_challenge(services: Services, database: Database) -> None:
    """50 accepts of one challenge at once, half of them into new threads: one game starts, and
    the losers' transactions leave no game behind."""
    path = database
    svc = await services.open(path)
    offer = await svc.challenge(
        guild_id=GUILD, channel_id=500, challenger=ALICE, opponent=BOB, variant="english"
    )
    assert offer.challenge is not None
    cid = offer.challenge.id
    attempts: list[Callable[[], Awaitable[ActionResult]]] = [
        (lambda t=(600 + i if i % 2 else None): svc.accept(cid, BOB.id, thread_id=t))
        for i in range(RACERS)
    ]
    outcomes = await race(attempts)
    started = winners(outcomes)
    assert len(started) == 1
    losers = [o for o in outcomes if not isinstance(o, ActionResult)]
    unexpected = [
        o for o in losers if not isinstance(o, ChallengeError | ConflictError | GameOverError)
    ]
    assert unexpected == []
    assert await query(path, "SELECT COUNT(*) FROM games") == [(1,)]
    assert (await svc.challenge_view(cid)).game_id == started[0].game.id  # type: ignore[union-attr]
    await svc.close()


# -- crash -----------------------------------------------------------------------------------------

CRASH_ROUNDS = 6


def _kill_at_random(path: Path, seed: int, delay: float) -> list[tuple[int, int, str]]:
    """Run the crash player, SIGKILL it ``delay`` seconds after it is ready, and return the moves
    it acknowledged."""
    proc = subprocess.Popen(
        [sys.executable, str(SUPPORT / "crash_player.py"), str(path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line == "READY\n":
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(30):
            raise AssertionError("the crash player never got ready")
        time.sleep(delay)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
        reader.join(30)
    errors = [line for line in lines if line.startswith("ERROR")]
    stderr = proc.stderr.read() if proc.stderr else ""
    assert errors == [], f"the crash player failed by itself: {errors}\n{stderr}"
    assert proc.returncode == -signal.SIGKILL, stderr
    acks = []
    for line in lines:
        if line.startswith("ACK ") and line.endswith("\n"):
            _, game_id, ply, pdn = line.split()
            acks.append((int(game_id), int(ply), pdn))
    return acks


def test_crash_loses_no_acknowledged_move(tmp_path: Path, clock: Clock) -> None:
    """SQLite only (no ``database`` fixture): this is the durability of the SQLite file when the
    writing process is killed; a PostgreSQL commit's durability is the server's (its WAL), and
    the bot killed mid-game on PostgreSQL is covered end to end (``E2E_DATABASE=postgresql``)."""
    path = tmp_path / "crash.db"
    rng = random.Random(2026)
    acknowledged: list[tuple[int, int, str]] = []
    for round_ in range(CRASH_ROUNDS):
        delay = rng.uniform(0.05, 0.8)
        acks = _kill_at_random(path, seed=round_, delay=delay)
        acknowledged += acks
        stored = {
            (game_id, ply): pdn
            for game_id, ply, pdn in read_db(path, "SELECT game_id, ply, pdn FROM moves")
        }
        missing = [a for a in acknowledged if stored.get((a[0], a[1])) != a[2]]
        assert missing == [], f"round {round_} (killed after {delay:.2f} s): lost {missing[:5]}"
        asyncio.run(assert_records_sound(path))
    assert len(acknowledged) >= 20, "the crash player hardly played: the test proved little"
    # A service opened on the file afterwards reads every game back.
    assert len({game_id for game_id, _, _ in acknowledged}) >= 3

    async def reread() -> None:
        svc = await open_service(path, clock)
        try:
            for (game_id,) in read_db(path, "SELECT id FROM games"):
                view = await svc.game_view(game_id)
                stored = read_db(path, "SELECT ply FROM games WHERE id = ?", (game_id,))
                assert view.ply == stored[0][0]
            assert await svc.store.integrity_check() == "ok"
        finally:
            await svc.close()

    asyncio.run(reread())


async def test_cancelling_an_action_leaves_the_service_usable(
    services: Services, database: Database
) -> None:
    """A command cancelled part-way (a timeout, a shutdown) must leave the move either stored or
    not, and the service able to write afterwards: the store promises a rollback "on any
    exception (including cancellation)".

    Fails at b0a5535: cancelled while awaiting ``BEGIN IMMEDIATE`` (one event-loop step into the
    write), the transaction is begun in aiosqlite's thread but neither committed nor rolled back
    (``BEGIN`` is outside the ``try``), so every later write on the shared connection raises
    ``sqlite3.OperationalError: cannot start a transaction within a transaction``."""
    path = database
    svc = await services.open(path)
    for steps in range(12):
        view = await start_game(svc, 900 + steps, ALICE, BOB)
        task = asyncio.create_task(svc.move(BOB.id, "11-15", game_id=view.id))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # The move landed or not, but the game and the service go on.
        row = await svc.store.game(view.id)
        assert row is not None
        moves = await svc.store.moves(view.id)
        assert [m.ply for m in moves] == list(range(1, row.ply + 1)), f"after {steps} steps"
        if row.ply == 0:
            await svc.move(BOB.id, "11-15", game_id=view.id)
        await svc.move(ALICE.id, "22-18", game_id=view.id)
        assert [m.pdn for m in await svc.store.moves(view.id)] == ["11-15", "22-18"]
    await svc.close()
    await assert_records_sound(path)


# -- bad input -------------------------------------------------------------------------------------

NASTY = (
    "",
    " ",
    "x" * 10_000,
    "1" * 10_000,
    "\x00\x1b[31m",
    "11-15\x00",
    "🎲🎲",
    "'; DROP TABLE games; --",
    "11\u200d-\u200d15",
    "\u200d11-15\u200d",
    "11\u200b-15",
    "11-15\n22-18",
    "１１－１５",  # full width: NFKC folds it to a real move, which must then be legal or refused
    "99-100",
    "0-0",
    "11-15-19-23-27-31",
    "x11x15",
    "%s%s%n",
    "\ud800",  # a lone surrogate (Discord would never send one, but it must not crash anything)
)


MOVE_LIKE = st.builds(
    "{}{}{}".format,
    st.integers(0, 40),
    st.sampled_from(["-", "x", ":", " ", "--"]),
    st.integers(0, 40),
)
"""Texts shaped like moves, a few of them legal: the fuzz also checks legal text is played."""


DECORATIONS = (
    "{}",
    " {} ",
    "{}!?",
    "{}\u200d",
    "\u00a0{}\n",
    "({})",
    "{}\x00",
    "'{}'; --",
)
"""Ways to wrap a legal move's text: some are still read as the move, some are refused."""


@pytest.fixture
def fuzz_game(tmp_path: Path, clock: Clock):
    """A running english game a few moves in, on a real file, driven by one event loop that lives
    as long as the test (hypothesis calls the test body synchronously, many times).  SQLite only
    (not the parametrised ``database``): the fuzzing is of the move text the rules read, and a
    refusal writing nothing is checked on both backends by the refusal tests below.  Yields
    ``(runner, service, state, path)``; ``state["game_id"]`` is the game to fuzz."""
    with asyncio.Runner() as runner:
        path = tmp_path / "fuzz.db"
        svc = runner.run(open_service(path, clock))
        view = runner.run(start_game(svc, 700, ALICE, BOB))
        view = runner.run(play_random(svc, view.id, 4, random.Random(3)))
        yield runner, svc, {"game_id": view.id}, path
        runner.run(svc.close())


def _rules_copy(row: Any, moves: list[Any]) -> Game:
    variant = find_variant(row.variant)
    game = Game(variant, parse_fen(row.start_fen, variant))
    for m in moves:
        game.play(m.pdn)
    return game


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    text=st.text()
    | st.text(alphabet="0123456789-x: ", max_size=12)
    | MOVE_LIKE
    | st.sampled_from(NASTY),
    who=st.sampled_from(["to_move", "to_move", "to_move", "waiting", "stranger"]),
    decorated=st.none() | st.tuples(st.integers(0, 99), st.sampled_from(DECORATIONS)),
)
@example(text="", who="to_move", decorated=None)
@example(text="x" * 10_000, who="to_move", decorated=None)
@example(text="\x00\x1b[31m", who="to_move", decorated=None)
@example(text="🎲🎲", who="to_move", decorated=None)
@example(text="'; DROP TABLE games; --", who="to_move", decorated=None)
@example(text="11\u200d-\u200d15", who="to_move", decorated=None)
def test_fuzzed_move_text_is_refused_cleanly(
    fuzz_game: Any, text: str, who: str, decorated: tuple[int, str] | None
) -> None:
    """Whatever the text, ``move`` either plays exactly the move the rules read from it or
    raises a :class:`ServiceError` with a short, printable reason and changes nothing.
    (``decorated`` replaces the text by a legal move wrapped in noise.)"""
    runner, svc, state, path = fuzz_game
    game_id = state["game_id"]
    row = runner.run(svc.store.game(game_id))
    moves = runner.run(svc.store.moves(game_id))
    assert row is not None and row.status == "running"
    view = runner.run(svc.game_view(game_id))
    assert view.to_move is not None
    user = {
        "to_move": view.to_move.id,
        "waiting": view.white.id if view.to_move == view.black else view.black.id,
        "stranger": STRANGER.id,
    }[who]
    model = _rules_copy(row, moves)
    if decorated is not None:
        index, decoration = decorated
        legal = model.legal_moves()
        text = decoration.format(legal[index % len(legal)].pdn())
    try:
        expected = model.play(text).pdn() if who == "to_move" else None
    except MoveError:
        expected = None
    before = runner.run(db_snapshot(path))
    try:
        result = runner.run(svc.move(user, text, game_id=game_id))
    except ServiceError as exc:
        assert expected is None, f"{text!r} is legal ({expected}) but was refused: {exc}"
        event(f"refused: {type(exc).__name__}")
        reason = str(exc.reason)
        assert reason and len(reason) <= 500 and reason.isprintable(), repr(reason)
        assert runner.run(db_snapshot(path)) == before
        assert runner.run(svc.game_view(game_id)) == view
        return
    assert expected is not None, f"{text!r} was played as {result.moves[0].pdn}"
    assert result.moves[0].pdn == expected
    event("played")
    assert [m.pdn for m in runner.run(svc.store.moves(game_id))] == [m.pdn for m in moves] + [
        expected
    ]
    if result.game is None or not result.game.running:  # a new game for the next examples
        state["game_id"] = runner.run(start_game(svc, 700, ALICE, BOB)).id


def _actions(svc: GameService) -> dict[str, Callable[..., Awaitable[ActionResult]]]:
    return {
        "move": lambda user, **where: svc.move(user, "11-15", **where),
        "move 22-18": lambda user, **where: svc.move(user, "22-18", **where),
        "offer_draw": svc.offer_draw,
        "accept_draw": svc.accept_draw,
        "decline_draw": svc.decline_draw,
        "resign": svc.resign,
        "abort": lambda user, **where: svc.abort(user, is_moderator=False, **where),
        "abort as moderator": lambda user, **where: svc.abort(user, is_moderator=True, **where),
    }


async def _refused(
    path: Database, svc: GameService, attempt: Awaitable[ActionResult], errors: Any, game_id: int
) -> ServiceError:
    before = await db_snapshot(path)
    view = await svc.game_view(game_id)
    with pytest.raises(errors) as info:
        await attempt
    assert await db_snapshot(path) == before
    assert await svc.game_view(game_id) == view
    assert str(info.value.reason)
    return info.value


async def test_non_players_are_refused(services: Services, database: Database) -> None:
    path = database
    svc = await services.open(path)
    game = await start_game(svc, 800, ALICE, BOB)
    await play_random(svc, game.id, 3, random.Random(5))
    for name, action in _actions(svc).items():
        expected: Any = NotAPlayerError
        if name == "abort":
            expected = ForbiddenError
        elif name == "abort as moderator":
            continue  # a moderator may abort any game
        for where in ({"game_id": game.id}, {"channel_id": 800}):
            await _refused(path, svc, action(STRANGER.id, **where), expected, game.id)
    assert await svc.legal_moves(800, STRANGER.id) == []
    await svc.close()


async def test_wrong_turn_and_bad_draw_answers_are_refused(
    services: Services, database: Database
) -> None:
    path = database
    svc = await services.open(path)
    game = await start_game(svc, 801, ALICE, BOB)
    view = await play_random(svc, game.id, 2, random.Random(6))
    assert view.to_move is not None
    mover = view.to_move
    waiter = view.white if mover == view.black else view.black
    # Moves submitted out of turn (whether or not they would be legal for that side).
    for text in ("11-15", "22-18", "9-14", "24-20"):
        await _refused(
            path, svc, svc.move(waiter.id, text, game_id=game.id), NotYourTurnError, game.id
        )
    assert await svc.legal_moves(801, waiter.id) == []
    # Answering an offer that was never made, and offering twice.
    for who in (mover, waiter):
        await _refused(path, svc, svc.accept_draw(who.id, game_id=game.id), ServiceError, game.id)
        await _refused(path, svc, svc.decline_draw(who.id, game_id=game.id), ServiceError, game.id)
    await svc.offer_draw(mover.id, game_id=game.id)
    await _refused(path, svc, svc.offer_draw(mover.id, game_id=game.id), ServiceError, game.id)
    await _refused(path, svc, svc.accept_draw(mover.id, game_id=game.id), ServiceError, game.id)
    await _refused(path, svc, svc.decline_draw(mover.id, game_id=game.id), ServiceError, game.id)
    # A stale expected_ply is refused even for a legal move.
    choice = (await svc.legal_moves(801, mover.id))[0].value
    await _refused(
        path,
        svc,
        svc.move(mover.id, choice, game_id=game.id, expected_ply=view.ply - 1),
        ConflictError,
        game.id,
    )
    await svc.close()
    await assert_records_sound(path)


async def test_finished_games_refuse_everything(services: Services, database: Database) -> None:
    path = database
    svc = await services.open(path)
    game = await start_game(svc, 802, ALICE, BOB)
    await play_random(svc, game.id, 3, random.Random(8))
    offer = await svc.challenge(
        guild_id=GUILD, channel_id=803, challenger=CAROL, opponent=DAVE, variant="english"
    )
    assert offer.challenge is not None
    await svc.accept(offer.challenge.id, DAVE.id)
    await svc.resign(BOB.id, game_id=game.id)

    async def check(service: GameService) -> None:
        for action in _actions(service).values():
            for user in (ALICE.id, BOB.id, STRANGER.id):
                with pytest.raises(ServiceError):
                    # by id: the game is over (or the user is no player); by channel: no game.
                    before = await db_snapshot(path)
                    try:
                        await action(user, game_id=game.id)
                    finally:
                        assert await db_snapshot(path) == before
                before = await db_snapshot(path)
                with pytest.raises((NotFoundError, ForbiddenError)):
                    await action(user, channel_id=802)
                assert await db_snapshot(path) == before
        # The accepted challenge cannot be answered again.
        cid = offer.challenge.id  # type: ignore[union-attr]
        before = await db_snapshot(path)
        for attempt in (
            service.accept(cid, DAVE.id),
            service.decline(cid, DAVE.id),
            service.cancel(cid, CAROL.id),
        ):
            with pytest.raises(GameOverError):
                await attempt
        assert await db_snapshot(path) == before
        assert await service.legal_moves(802, ALICE.id) == []
        assert await service.legal_moves(802, BOB.id) == []

    await check(svc)  # the finished game was just dropped from the cache
    await svc.close()
    svc = await services.open(path)  # and from a fresh start, read from the file
    await check(svc)
    await svc.close()
    await assert_records_sound(path)
