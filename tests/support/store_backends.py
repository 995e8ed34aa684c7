"""The store implementations the contract tests run against, and records to feed them.

Each backend names the fixture giving a fresh place for a database and a function that opens an
empty, migrated store there; a new backend is one more entry in :data:`BACKENDS`, and
``tests/store/test_store_contract.py`` runs unchanged against it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.enums import GameStatus, Side
from bot.store import GameChanges, NewChallenge, NewGame, NewMove, Store, open_store
from rules.game import Game
from rules.variants import find_variant

T0 = 1_700_000_000.0


@dataclass(frozen=True)
class Backend:
    """How to open a fresh store of one implementation."""

    location: str
    """The fixture that gives a fresh, empty place for the database: ``tmp_path`` (a folder)
    for SQLite, ``pg_dsn`` (a new database on the session's server,
    ``tests/support/pg_fixtures.py``) for PostgreSQL."""
    open: Callable[[Any], Awaitable[Store]]
    """Opens (creating and migrating) the store at what that fixture gave."""


async def sqlite_store(tmp_path: Path) -> Store:
    return await open_store(tmp_path / "draughts.db")


async def postgres_store(dsn: str) -> Store:
    return await open_store(dsn)


BACKENDS: dict[str, Backend] = {
    "sqlite": Backend("tmp_path", sqlite_store),
    "postgresql": Backend("pg_dsn", postgres_store),
}

START_FEN = Game(find_variant("english")).start.fen()

FINISHED: GameChanges = {
    "status": GameStatus.FINISHED,
    "result": "1-0",
    "termination": "resignation",
    "termination_detail": "resignation",
    "winner": Side.WHITE,
    "deadline": None,
    "remind_at": None,
    "warn_at": None,
    "updated_at": T0 + 100,
}
"""The columns a game's end changes (White won by resignation)."""


def new_game(channel_id: int = 100, **changes: object) -> NewGame:
    """A running English game between users 1 (White) and 2 (Black) in server 10."""
    values: dict[str, object] = {
        "guild_id": 10,
        "channel_id": channel_id,
        "white_id": 1,
        "white_name": "Alice",
        "black_id": 2,
        "black_name": "Bob",
        "computer_id": None,
        "computer_level": None,
        "variant": "english",
        "start_fen": START_FEN,
        "opening": "",
        "ply": 0,
        "fen": START_FEN,
        "move_time": 3600,
        "deadline": T0 + 3600,
        "remind_at": T0 + 1800,
        "created_at": T0,
        "rated": True,
        "match_id": None,
    }
    values.update(changes)
    return NewGame(**values)  # type: ignore[arg-type]


def new_challenge(channel_id: int = 100, challenger_id: int = 1, **changes: object) -> NewChallenge:
    values: dict[str, object] = {
        "guild_id": 10,
        "channel_id": channel_id,
        "challenger_id": challenger_id,
        "challenger_name": "Alice",
        "opponent_id": 2,
        "opponent_name": "Bob",
        "variant": "english",
        "color": "random",
        "move_time": 3600,
        "thread": False,
        "opening": "",
        "match_play": False,
        "created_at": T0,
        "expires_at": T0 + 900,
    }
    values.update(changes)
    return NewChallenge(**values)  # type: ignore[arg-type]


def first_move() -> NewMove:
    game = Game(find_variant("english"))
    game.play("11-15")
    return NewMove(1, "11-15", game.position.fen(), 1, T0 + 10)
