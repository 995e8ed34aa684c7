"""The store contract of tournaments (schema v13), on every backend: an event and its
announcement written together, a step under the tournament's lock that writes all it answers
or (raising) nothing, exactly one game per pairing however often and however concurrently it is
opened, and a game's final write carrying its tournament's step.
"""

from __future__ import annotations

import asyncio

import pytest
from support.store_backends import FINISHED, T0, new_game

from bot.enums import GameStatus, TournamentStatus
from bot.store import (
    NewEvent,
    NewPairing,
    NewTournament,
    Shards,
    Store,
    TournamentPlayerRow,
    TournamentState,
    TournamentUpdate,
    TournamentWrites,
    shard_of,
)

GUILD = 10


def new_tournament(**changes: object) -> NewTournament:
    values: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": 100,
        "name": "Club night",
        "format": "swiss",
        "variant": "english",
        "move_time": 3600,
        "clock_base": None,
        "clock_increment": None,
        "rated": True,
        "rounds": 3,
        "double_round_robin": False,
        "duration": None,
        "starts_at": None,
        "min_rating": None,
        "max_rating": None,
        "max_players": None,
        "forfeit_after": 600.0,
        "berserk": False,
        "bye_points": 1.0,
        "created_by": 90,
        "created_at": T0,
    }
    values.update(changes)
    return NewTournament(**values)  # type: ignore[arg-type]


def announcement(name: str, kind: str = "tournament_created", **changes: object) -> NewEvent:
    values: dict[str, object] = {
        "id": name,
        "kind": kind,
        "guild_id": GUILD,
        "channel_id": 100,
        "game_id": None,
        "challenge_id": None,
        "created_at": T0,
        "next_attempt_at": T0,
    }
    values.update(changes)
    return NewEvent(**values)  # type: ignore[arg-type]


def player(user_id: int, number: int) -> TournamentPlayerRow:
    return TournamentPlayerRow(0, user_id, f"P{user_id}", 1500.0, number, T0)


def round_one(state: TournamentState) -> TournamentWrites:
    return TournamentWrites(
        tournament={"status": TournamentStatus.RUNNING, "round": 1, "started_at": T0},
        new_players=(player(1, 1), player(2, 2), player(3, 3)),
        new_pairings=(
            NewPairing(1, 1, 1, 2, T0),
            NewPairing(1, 2, 3, None, T0, 1.0, 0.0, False, T0),
        ),
        events=(announcement("paired", "round_paired"),),
    )


async def running(store: Store) -> int:
    tid = await store.create_tournament(new_tournament(), announcement("created"))
    assert await store.change_tournament(tid, round_one) is not None
    return tid


async def test_a_tournament_and_its_announcement_are_written_together(store: Store) -> None:
    tid = await store.create_tournament(new_tournament(), announcement("created"))
    row = await store.tournament(tid)
    assert row is not None and row.status is TournamentStatus.OPEN and row.round == 0
    assert (row.name, row.rated, row.forfeit_after, row.version) == ("Club night", True, 600.0, 0)
    (event,) = await store.pending_events(T0 + 1)
    assert (event.id, event.tournament_id, event.game_id) == ("created", tid, None)
    assert [t.id for t in await store.tournaments_in(GUILD, finished=False)] == [tid]
    assert await store.tournaments_in(GUILD, finished=True) == []
    mine = Shards.of(2, {shard_of(GUILD, 2)})
    theirs = Shards.of(2, {1 - shard_of(GUILD, 2)})
    assert [t.id for t in await store.live_tournaments(shards=mine)] == [tid]
    assert await store.live_tournaments(shards=theirs) == []
    assert await store.tournament(tid + 1) is None
    assert await store.change_tournament(tid + 1, round_one) is None


async def test_a_step_writes_everything_it_answers_or_nothing(store: Store) -> None:
    tid = await running(store)
    state = await store.tournament_state(tid)
    assert state is not None
    assert state.tournament.version == 1 and state.tournament.round == 1
    assert [p.user_id for p in state.players] == [1, 2, 3]
    game, bye = state.pairings
    assert (game.white_id, game.black_id, game.decided) == (1, 2, False)
    assert (bye.black_id, bye.white_points, bye.decided) == (None, 1.0, True)
    assert [e.tournament_id for e in await store.pending_events(T0 + 1)] == [tid, tid]

    def refuse(state: TournamentState) -> TournamentWrites:
        raise ValueError("refused")

    with pytest.raises(ValueError):
        await store.change_tournament(tid, refuse)
    assert await store.tournament_state(tid) == state

    def half_written(state: TournamentState) -> TournamentWrites:  # the board is taken
        return TournamentWrites(
            players=((1, {"withdrawn": True}),), new_pairings=(NewPairing(1, 1, 3, 2, T0),)
        )

    with pytest.raises(Exception):  # noqa: B017 -- the driver's unique-index error
        await store.change_tournament(tid, half_written)
    assert await store.tournament_state(tid) == state

    def decided(state: TournamentState) -> TournamentWrites:
        return TournamentWrites(
            pairings=((game.id, {"white_points": 1.0, "black_points": 0.0, "decided_at": T0}),),
            players=((2, {"withdrawn": True, "performance": 1400}),),
            removed_players=(3,),
        )

    await store.change_tournament(tid, decided)
    after = await store.tournament_state(tid)
    assert after is not None and after.tournament.version == 2
    assert [(p.user_id, p.withdrawn, p.performance) for p in after.players] == [
        (1, False, None),
        (2, True, 1400),
    ]
    assert after.pairings[0].white_points == 1.0
    assert await store.change_tournament(tid, lambda s: TournamentWrites()) == TournamentWrites()
    unchanged = await store.tournament_state(tid)
    assert unchanged is not None and unchanged.tournament.version == 2


async def test_a_pairing_gets_exactly_one_game(store: Store) -> None:
    tid = await running(store)
    state = await store.tournament_state(tid)
    assert state is not None
    pairing, bye = state.pairings
    opened = await asyncio.gather(
        *(
            store.open_tournament_game(
                pairing.id, new_game(500 + n), announcement(f"start{n}", "game_started")
            )
            for n in range(3)
        )
    )
    games = [g for g in opened if g is not None]
    assert len(games) == 1
    row = await store.game(games[0])
    assert row is not None and row.pairing_id == pairing.id
    again = await store.open_tournament_game(pairing.id, new_game(600), announcement("again"))
    assert again is None
    assert await store.open_tournament_game(bye.id, new_game(601), announcement("bye")) is None
    assert [g.id for g in await store.tournament_games(tid)] == games
    assert [g.id for g in await store.tournament_games_unstarted()] == games
    theirs = Shards.of(2, {1 - shard_of(GUILD, 2)})
    assert await store.tournament_games_unstarted(shards=theirs) == []
    started = [e for e in await store.pending_events(T0 + 1) if e.kind == "game_started"]
    assert [(e.game_id, e.tournament_id) for e in started] == [(games[0], tid)]


async def test_a_games_final_write_carries_its_tournaments_step(store: Store) -> None:
    tid = await running(store)
    state = await store.tournament_state(tid)
    assert state is not None
    pairing = state.pairings[0]
    game_id = await store.open_tournament_game(pairing.id, new_game(500), announcement("s"))
    assert game_id is not None

    def result(state: TournamentState) -> TournamentWrites:
        return TournamentWrites(
            pairings=((pairing.id, {"white_points": 1.0, "black_points": 0.0, "moves": 12}),),
            tournament={"status": TournamentStatus.FINISHED, "ended_at": T0 + 100},
            events=(announcement("finished", "tournament_finished"),),
        )

    def broken(state: TournamentState) -> TournamentWrites:
        raise RuntimeError("the step failed")

    with pytest.raises(RuntimeError):
        await store.update_game(
            game_id, 0, FINISHED, tournament=TournamentUpdate(pairing.id, broken)
        )
    game = await store.game(game_id)
    assert game is not None and game.status is GameStatus.RUNNING and game.version == 0
    await store.update_game(game_id, 0, FINISHED, tournament=TournamentUpdate(pairing.id, result))
    after = await store.tournament_state(tid)
    assert after is not None and after.tournament.status is TournamentStatus.FINISHED
    assert (after.pairings[0].white_points, after.pairings[0].moves) == (1.0, 12)
    finished = [e for e in await store.pending_events(T0 + 1) if e.id == "finished"]
    assert [e.tournament_id for e in finished] == [tid]
    # A pairing that no longer counts (an arena's game still running at its end) takes no
    # step: the game ends as an ordinary game.
    other = await store.start_game(new_game(501))
    await store.update_game(other, 0, FINISHED, tournament=TournamentUpdate(10_000, result))
    ended = await store.game(other)
    assert ended is not None and ended.status is GameStatus.FINISHED
    assert await store.tournament_state(tid) == after
