"""The one harness of the game-service tests (``test_service*.py``): who plays, where, when, and
the helpers that start games and check that a refusal changed nothing.

The service runs on a real database of each store implementation in turn (a SQLite file, or a
fresh schema on the session's PostgreSQL server, :mod:`support.pg_schemas`: :class:`Databases`,
:data:`Database`) with a
clock the tests move by hand (:class:`Clock`), a seeded random source and a seeded
:class:`~bot.service.computer.RandomComputer`, so every deadline is an exact number and every
"random" choice repeats.  The fixtures built on it (``clock``, ``backend``, ``databases``,
``database``, ``service``, ``services``, and the SQLite-only ``db_path``) are in
``tests/conftest.py``; a test about the SQLite file itself is marked
``@pytest.mark.sqlite_only(reason=...)`` and runs once, on SQLite.

Imported as ``from support.service_harness import ...`` (pytest puts ``tests/`` on ``sys.path``,
see ``tests/support/__init__.py``).
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.results import ActionResult, GameView, Player
from bot.service import GameService
from bot.service.computer import RandomComputer
from rules.game import Game
from rules.move import Move
from support.pg_schemas import migrated_schema, release_schema
from support.pg_server import PostgresServer

T0 = 1_700_000_000.0
MOVE_TIME = 3600
EXPIRY = 600.0
GUILD, OTHER_GUILD = 10, 20
CHANNEL, OTHER_CHANNEL, THREAD = 100, 101, 500
BOT_ID = 999

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
CAROL = Player(3, "Carol")
DAVE = Player(4, "Dave")
EVE = Player(5, "Eve")
FAY = Player(6, "Fay")
GUS = Player(7, "Gus")
HAL = Player(8, "Hal")
STRANGER = Player(77, "Stranger")
BOT = Player(BOT_ID, "Draughts Bot")

# English, Black first: after these nine plies White must capture, by 23x16 or by the double
# jump 24x15x8 (short form 24x8).
CAPTURE_LINE = ["11-16", "24-20", "8-11", "22-17", "9-13", "28-24", "13x22", "26x17", "16-19"]


class Clock:
    """The service's clock, moved only by the test: deadlines, reminders and expiries become
    exact numbers, and a test steps over them (or just short of them) at will."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move on by ``seconds``; returns the new time."""
        self.now += seconds
        return self.now


Database = Path | str
"""Where a service's data lives: a SQLite file, or a PostgreSQL DSN (``postgresql://...``);
``GameService.open`` takes either."""


def is_postgres(location: Database) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


class Databases:
    """Fresh, empty databases of one backend for one test: files in its ``tmp_path`` for SQLite,
    schemas on the session's server for PostgreSQL, each as good as a database of its own and
    already migrated as the store would on opening it (:mod:`support.pg_schemas`; given back
    emptied by :meth:`drop_all`)."""

    def __init__(self, backend: str, folder: Path, server: PostgresServer | None) -> None:
        if (backend == "postgresql") != (server is not None):
            raise ValueError(f"backend {backend!r} with server {server!r}")
        self.backend = backend
        self.folder = folder
        self.server = server
        self._created: list[str] = []

    async def new(self, name: str = "draughts") -> Database:
        """A new empty database (``name`` names the SQLite file; each call is a new one)."""
        if self.server is None:
            path = self.folder / f"{name}.db"
            if path.exists():
                raise ValueError(f"{path} was handed out already")
            return path
        # A schema, already migrated as the store would (emptied, from a pool): see
        # support.pg_schemas.
        created = await migrated_schema(self.server, name)
        self._created.append(created)
        return created

    async def drop_all(self) -> None:
        if self.server is not None:
            for dsn in self._created:
                await release_schema(self.server, dsn)


def location_of(service: GameService) -> Database:
    """Where ``service``'s store keeps its data."""
    store: Any = service.store
    return str(store.dsn) if hasattr(store, "dsn") else Path(store.path)


async def query(
    location: Database | GameService, sql: str, params: tuple[Any, ...] = ()
) -> list[tuple[Any, ...]]:
    """Rows through a separate connection of their own (plain ``sqlite3``, or a new asyncpg
    connection): what is really committed, not what the service's connection or caches say.
    ``sql`` uses ``?`` placeholders on both backends."""
    if isinstance(location, GameService):
        location = location_of(location)
    if not is_postgres(location):
        return read_db(Path(location), sql, params)
    numbers = itertools.count(1)
    sql = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)
    conn = await asyncpg.connect(str(location))
    try:
        return [tuple(row) for row in await conn.fetch(sql, *params)]
    finally:
        await conn.close()


async def execute(location: Database, sql: str, params: tuple[Any, ...] = ()) -> None:
    """One statement committed through a separate connection (``?`` placeholders): what a crash
    or an older version could have left in the database."""
    if not is_postgres(location):
        with contextlib.closing(sqlite3.connect(location)) as db, db:
            db.execute(sql, params)
        return
    numbers = itertools.count(1)
    sql = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)
    conn = await asyncpg.connect(str(location))
    try:
        await conn.execute(sql, *params)
    finally:
        await conn.close()


async def open_service(path: Database, clock: Clock, seed: int = 1, **options: Any) -> GameService:
    """A service on ``path`` whose randomness (colours, ballots, the computer's moves) repeats
    with ``seed``; ``options`` override ``GameService``'s (``computer=`` for a crashing one)."""
    options.setdefault("computer", RandomComputer(seed=seed))
    options.setdefault("monotonic", clock)  # the test's clock is all the time there is
    # Every challenge lasts EXPIRY, whatever its time per move (test_service_phone.py opens
    # services with the production cap to test the longer life).
    options.setdefault("challenge_expiry", EXPIRY)
    options.setdefault("challenge_expiry_cap", EXPIRY)
    return await GameService.open(
        path,
        bot_user_id=BOT_ID,
        bot_name=BOT.name,
        clock=clock,
        rng=random.Random(seed),
        **options,
    )


@asynccontextmanager
async def opened(path: Database, clock: Clock, **options: Any) -> AsyncIterator[GameService]:
    """``open_service`` for one ``async with`` block: leaving it is a restart's first half."""
    service = await open_service(path, clock, **options)
    try:
        yield service
    finally:
        await service.close()


class Services:
    """Opens services that a test closes and reopens as it goes (restarts, two services on one
    file), and closes whatever is still open at the end even when the test failed: a connection
    left open keeps aiosqlite's thread, and so pytest, alive."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._opened: list[GameService] = []

    async def open(self, path: Database, seed: int = 1, **options: Any) -> GameService:
        """:func:`open_service` on ``path`` with the test's clock."""
        service = await open_service(path, self.clock, seed, **options)
        self._opened.append(service)
        return service

    async def close_all(self) -> None:
        for service in self._opened:
            with contextlib.suppress(Exception):  # most were closed by the test already
                await service.close()


def terms(**overrides: Any) -> dict[str, Any]:
    """The terms of the usual challenge: Alice challenges Bob to english in CHANNEL, an hour a
    move, playing Black (so she moves first); ``overrides`` change any of them."""
    values: dict[str, Any] = {
        "channel_id": CHANNEL,
        "challenger": ALICE,
        "opponent": BOB,
        "variant": "english",
        "color": "black",
        "move_time": MOVE_TIME,
    }
    values.update(overrides)
    return values


async def challenge(service: GameService, **overrides: Any) -> ActionResult:
    """The challenge of :func:`terms`, made in GUILD unless ``overrides`` say otherwise."""
    return await service.challenge(**terms(**{"guild_id": GUILD, **overrides}))


async def start_result(service: GameService, **overrides: Any) -> ActionResult:
    """The challenge of :func:`challenge`, accepted by its opponent: the start announcement."""
    created = await challenge(service, **overrides)
    assert created.challenge is not None
    assert created.challenge.opponent is not None
    return await service.accept(created.challenge.id, created.challenge.opponent.id)


async def start(service: GameService, **overrides: Any) -> GameView:
    """The game :func:`start_result` started."""
    started = await start_result(service, **overrides)
    assert started.game is not None
    return started.game


BOTH_MOVED = ["11-15", "23-19"]
"""English, Alice (Black) first: a move each, so Alice is to move again having moved already
(a player who never moved does not lose on time: the game is aborted)."""


async def start_moved(service: GameService, **overrides: Any) -> GameView:
    """The game :func:`start` started (English), after :data:`BOTH_MOVED`: Alice to move, and
    running out of time would lose it."""
    return await play(service, await start(service, **overrides), BOTH_MOVED)


async def play(service: GameService, game: GameView, moves: list[str]) -> GameView:
    """Play ``moves`` in order, each by whoever is to move."""
    view = game
    for text in moves:
        assert view.to_move is not None
        view = (await service.move(view.to_move.id, text, game_id=game.id)).game
        assert view is not None
    return view


async def both_moved(service: GameService, game: GameView) -> GameView:
    """``game`` after a move by each player (the first legal one, in any variant): a game
    ends with a result only once both players have moved (before, resigning aborts it)."""
    view = game
    for _ in range(2):
        assert view.to_move is not None
        if view.to_move.id == view.computer_id:
            played = await replied(service, game.id)
        else:
            moves = await service.legal_moves(view.channel_id, view.to_move.id)
            played = await service.move(view.to_move.id, moves[0].value, game_id=game.id)
        assert played.game is not None
        view = played.game
    return view


async def resigns(service: GameService, user_id: int, game_id: int) -> ActionResult:
    """``user_id`` resigns ``game_id`` after :func:`both_moved`, so the game has a result."""
    await both_moved(service, await service.game_view(game_id))
    return await service.resign(user_id, game_id=game_id)


async def snapshot(service: GameService, game_id: int) -> tuple[Any, ...]:
    """Everything a game action may write: the row, the moves, the taken-back moves, and the
    in-memory view."""
    row = await service.store.game(game_id)
    assert row is not None
    return (
        row,
        await service.store.moves(game_id),
        await service.store.taken_back_moves(game_id),
        await service.game_view(game_id),
    )


@asynccontextmanager
async def unchanged(service: GameService, game_id: int) -> AsyncIterator[None]:
    """The block must leave the game's row (and its version), moves and view as they were."""
    before = await snapshot(service, game_id)
    yield
    after = await snapshot(service, game_id)
    assert after[0].version == before[0].version
    assert after == before


@asynccontextmanager
async def challenge_unchanged(service: GameService, challenge_id: int) -> AsyncIterator[None]:
    """The block must leave the challenge's row as it was."""
    before = await service.store.challenge(challenge_id)
    yield
    assert await service.store.challenge(challenge_id) == before


def read_db(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows straight from the file through a separate plain sqlite3 connection: what is really
    committed, not what the service's connection or caches say."""
    db = sqlite3.connect(path)
    try:
        return db.execute(sql, params).fetchall()
    finally:
        db.close()


async def count_rows(service: GameService, table: str, where: str = "true") -> int:
    """Rows in ``table`` (matching ``where``), read through :func:`query`."""
    return int((await query(service, f"SELECT count(*) FROM {table} WHERE {where}"))[0][0])


class CrashingComputer:
    """A real ComputerPlayer whose move search dies, like an engine process that crashed."""

    def __init__(self) -> None:
        self.calls = 0

    async def choose_move(self, game: Game, level: int) -> Move:
        self.calls += 1
        raise RuntimeError("the engine process died")

    async def answer_draw(self, game: Game, level: int) -> bool:
        return False


async def replied(service: GameService, game_id: int) -> ActionResult:
    """The computer's reply that the action just made in ``game_id`` claimed (it thinks off the
    game's lock and the caller shows its reply next, as the Discord layer does)."""
    reply = await service.computer_reply(game_id)
    assert reply is not None, "the computer did not reply"
    return reply


class Background:
    """What ``service`` shows in the background (the computer's replies no action claimed, e.g.
    made after a restart), collected the way the Discord layer would post them."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.shown: list[ActionResult] = []
        service.on_background = self._show

    async def _show(self, result: ActionResult) -> None:
        self.shown.append(result)

    async def settle(self) -> list[ActionResult]:
        """Wait until the computer is done thinking; what it showed since the last call."""
        await self.service.settle()
        shown, self.shown = self.shown, []
        return shown
