"""The store's tournament queries and transactions (schema v13), written once for every SQL
backend as :mod:`bot.store.sql_store` is, and mixed into its :class:`SqlStore`.

Every change to a tournament is a *step* (:mod:`bot.store.tournament_rows`) run under a lock on
the tournament: :func:`step_tournament` takes the dialect's named lock (PostgreSQL's advisory
lock; SQLite's one writer holds it already), reads the tournament whole, asks the service's
step what to write, and writes it, all in the caller's transaction.  A game's end runs the same
function inside the game's own final transaction (:meth:`SqlStore.update_game`).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from .dialect import Transaction
from .mapping import DECODE, select_from
from .rows import GameRow, NewEvent, NewGame
from .shards import EVERY_SHARD, Shards
from .shield import shielded_write
from .sql_part import SqlPart
from .sql_writes import GAMES, insert_event, insert_game, insert_into
from .tournament_rows import (
    NewPairing,
    NewTournament,
    PairingRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentState,
    TournamentStep,
    TournamentWrites,
)

TOURNAMENTS = select_from(TournamentRow, "tournaments")
PLAYERS = select_from(TournamentPlayerRow, "tournament_players")
PAIRINGS = select_from(PairingRow, "tournament_pairings")
NEW_TOURNAMENT_FIELDS = tuple(f.name for f in fields(NewTournament))
INSERT_TOURNAMENT = insert_into("tournaments", NEW_TOURNAMENT_FIELDS)
PLAYER_FIELDS = tuple(f.name for f in fields(TournamentPlayerRow))
INSERT_PLAYER = insert_into("tournament_players", PLAYER_FIELDS)
NEW_PAIRING_FIELDS = tuple(f.name for f in fields(NewPairing))
INSERT_PAIRING = insert_into("tournament_pairings", ["tournament_id", *NEW_PAIRING_FIELDS])
LIVE = "status IN ('open', 'running', 'paused')"
LISTED = 25
"""At most this many tournaments of a server are listed (newest first)."""


def lock_name(tournament_id: int) -> str:
    """The named lock a tournament's steps are taken under, in every transaction that takes
    them (a game's end, a moderator's action, the tick), so they are applied in turn."""
    return f"tournament:{tournament_id}"


async def read_state(db: Transaction, tournament_id: int) -> TournamentState | None:
    """The tournament whole, read inside ``db``'s transaction."""
    row = await db.fetchrow(TOURNAMENTS + " WHERE id = ?", (tournament_id,))
    if row is None:
        return None
    players = await _rows(db, TournamentPlayerRow, PLAYERS, "number, user_id", tournament_id)
    pairings = await _rows(db, PairingRow, PAIRINGS, "round, board", tournament_id)
    return TournamentState(DECODE[TournamentRow](row), tuple(players), tuple(pairings))


async def _rows(
    db: Transaction, cls: type[Any], select: str, order: str, tournament_id: int
) -> list[Any]:
    raw = await db.fetchall(f"{select} WHERE tournament_id = ? ORDER BY {order}", (tournament_id,))
    return [DECODE[cls](r) for r in raw]


async def step_tournament(
    db: Transaction, tournament_id: int, step: TournamentStep
) -> TournamentWrites | None:
    """Run ``step`` on the tournament under its lock and write its answer (None: no such
    tournament, nothing written)."""
    await db.lock_names([lock_name(tournament_id)])
    state = await read_state(db, tournament_id)
    if state is None:
        return None
    writes = step(state)
    if not writes.empty:
        await write_step(db, state.tournament, writes)
    return writes


async def step_pairing_tournament(db: Transaction, pairing_id: int, step: TournamentStep) -> None:
    """:func:`step_tournament` on the tournament of ``pairing_id`` (a game's end)."""
    found = await db.fetchrow(
        "SELECT tournament_id FROM tournament_pairings WHERE id = ?", (pairing_id,)
    )
    if found is not None:
        await step_tournament(db, int(found[0]), step)


async def write_step(db: Transaction, tournament: TournamentRow, writes: TournamentWrites) -> None:
    """Write one step's answer; the tournament's version moves on with every step."""
    tid = tournament.id
    changes = dict(writes.tournament)
    assignments = "".join(f"{column} = ?, " for column in changes)
    await db.execute(
        f"UPDATE tournaments SET {assignments}version = version + 1 WHERE id = ?",
        (*(_stored(v) for v in changes.values()), tid),
    )
    await db.executemany(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
        [(tid, user) for user in writes.removed_players],
    )
    await db.executemany(
        INSERT_PLAYER,
        [
            tuple(getattr(replace(p, tournament_id=tid), n) for n in PLAYER_FIELDS)
            for p in writes.new_players
        ],
    )
    for user_id, player in writes.players:
        sets = ", ".join(f"{column} = ?" for column in player)
        await db.execute(
            f"UPDATE tournament_players SET {sets} WHERE tournament_id = ? AND user_id = ?",
            (*player.values(), tid, user_id),
        )
    for pairing_id, pairing in writes.pairings:
        sets = ", ".join(f"{column} = ?" for column in pairing)
        await db.execute(
            f"UPDATE tournament_pairings SET {sets} WHERE id = ? AND tournament_id = ?",
            (*pairing.values(), pairing_id, tid),
        )
    await db.executemany(
        "DELETE FROM tournament_pairings WHERE id = ? AND tournament_id = ?",
        [(pairing_id, tid) for pairing_id in writes.removed_pairings],
    )
    await db.executemany(
        INSERT_PAIRING,
        [(tid, *(getattr(p, n) for n in NEW_PAIRING_FIELDS)) for p in writes.new_pairings],
    )
    for event in writes.events:
        await insert_event(db, replace(event, tournament_id=tid))


def _stored(value: Any) -> Any:
    return value.value if hasattr(value, "value") else value


class SqlTournaments(SqlPart):
    """The tournament methods of :class:`~bot.store.protocol.Store` (mixed into
    :class:`~bot.store.sql_store.SqlStore`, whose helpers they use)."""

    @shielded_write
    async def create_tournament(self, tournament: NewTournament, event: NewEvent) -> int:
        async with self._transaction() as db:
            values = (_stored(getattr(tournament, n)) for n in NEW_TOURNAMENT_FIELDS)
            tournament_id = await db.insert(INSERT_TOURNAMENT, tuple(values))
            await insert_event(db, replace(event, tournament_id=tournament_id))
            return tournament_id

    @shielded_write
    async def change_tournament(
        self, tournament_id: int, step: TournamentStep
    ) -> TournamentWrites | None:
        async with self._transaction() as db:
            return await step_tournament(db, tournament_id, step)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._fetch_one(TOURNAMENTS + " WHERE id = ?", (tournament_id,))
        return None if row is None else DECODE[TournamentRow](row)

    async def tournament_state(self, tournament_id: int) -> TournamentState | None:
        row = await self._fetch_one(TOURNAMENTS + " WHERE id = ?", (tournament_id,))
        if row is None:
            return None
        players = await self._fetch_all(
            PLAYERS + " WHERE tournament_id = ? ORDER BY number, user_id", (tournament_id,)
        )
        pairings = await self._fetch_all(
            PAIRINGS + " WHERE tournament_id = ? ORDER BY round, board", (tournament_id,)
        )
        return TournamentState(
            DECODE[TournamentRow](row),
            tuple(DECODE[TournamentPlayerRow](p) for p in players),
            tuple(DECODE[PairingRow](p) for p in pairings),
        )

    async def tournaments_in(self, guild_id: int, *, finished: bool) -> list[TournamentRow]:
        where = "NOT " + LIVE if finished else LIVE
        rows = await self._fetch_all(
            TOURNAMENTS + f" WHERE guild_id = ? AND {where}"
            f" ORDER BY created_at DESC, id DESC LIMIT {LISTED}",
            (guild_id,),
        )
        return [DECODE[TournamentRow](r) for r in rows]

    async def live_tournaments(self, *, shards: Shards = EVERY_SHARD) -> list[TournamentRow]:
        rows = await self._fetch_all(
            TOURNAMENTS + f" WHERE {LIVE} AND {shards.where()} ORDER BY id"
        )
        return [DECODE[TournamentRow](r) for r in rows]

    async def pairing(self, pairing_id: int) -> PairingRow | None:
        row = await self._fetch_one(PAIRINGS + " WHERE id = ?", (pairing_id,))
        return None if row is None else DECODE[PairingRow](row)

    async def tournament_games(self, tournament_id: int) -> list[GameRow]:
        rows = await self._fetch_all(
            GAMES + " WHERE pairing_id IN"
            " (SELECT id FROM tournament_pairings WHERE tournament_id = ?) ORDER BY id",
            (tournament_id,),
        )
        return [DECODE[GameRow](r) for r in rows]

    async def tournament_games_unstarted(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        rows = await self._fetch_all(
            GAMES + " WHERE status = 'running' AND pairing_id IS NOT NULL AND ply < 2"
            f" AND {shards.where()} ORDER BY id"
        )
        return [DECODE[GameRow](r) for r in rows]

    async def tournament_announcement_owed(self, tournament_id: int, kind: str) -> bool:
        row = await self._fetch_one(
            "SELECT 1 FROM outbox WHERE tournament_id = ? AND kind = ? AND delivered_at IS NULL"
            " LIMIT 1",
            (tournament_id, kind),
        )
        return row is not None

    @shielded_write
    async def open_tournament_game(
        self, pairing_id: int, game: NewGame, event: NewEvent
    ) -> int | None:
        async with self._transaction() as db:
            found = await db.fetchrow(
                "SELECT tournament_id FROM tournament_pairings WHERE id = ?", (pairing_id,)
            )
            if found is None:
                return None
            await db.lock_names([lock_name(int(found[0]))])
            row = await db.fetchrow(
                "SELECT p.game_id, p.white_points, t.status FROM tournament_pairings p"
                " JOIN tournaments t ON t.id = p.tournament_id WHERE p.id = ?",
                (pairing_id,),
            )
            if row is None or row[0] is not None or row[1] is not None:
                return None  # opened already, or decided meanwhile
            if row[2] not in ("running", "paused"):
                return None  # the event is over
            game_id = await insert_game(db, replace(game, pairing_id=pairing_id))
            await db.execute(
                "UPDATE tournament_pairings SET game_id = ? WHERE id = ?", (game_id, pairing_id)
            )
            await insert_event(db, replace(event, game_id=game_id, tournament_id=int(found[0])))
            return game_id
