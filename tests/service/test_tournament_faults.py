"""Tournaments when things go wrong, on each database: two games ending at once, a crash in the
middle of a game's final transaction, a crash between a round's pairing and its games, and
refusals (each changes nothing)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from support.service_harness import (
    CHANNEL,
    GUILD,
    Clock,
    Database,
    Services,
    both_moved,
    count_rows,
)
from support.tournament_harness import (
    MODERATOR,
    PLAYERS,
    THREADS,
    create,
    finish,
    open_games,
    spec,
    with_players,
)

from bot.errors import ForbiddenError, ServiceError, TournamentError
from bot.results import Action
from bot.service import GameService, tournament_rounds
from bot.service.events import HANDOFF_SECONDS
from bot.service.tournament_games import REOPEN_AFTER
from bot.store import sql_tournaments
from bot.tournaments.model import Format


async def started_round_robin(service: GameService) -> tuple[int, list[int]]:
    """A round robin of 4, its first round's two games opened and both players moved in each."""
    tid = await with_players(service, 4, Format.ROUND_ROBIN)
    await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    await open_games(service, tid)
    view = await service.tournaments.view(tid)
    games = [p.game_id for p in view.pairings if p.game_id is not None]
    assert len(games) == 2
    for game_id in games:
        await both_moved(service, await service.game_view(game_id))
    return tid, games


async def resign_white(service: GameService, game_id: int) -> None:
    game = await service.game_view(game_id)
    await service.resign(game.white.id, game_id=game_id)


async def test_two_games_ending_at_once_pair_the_next_round_once(
    database: Database, services: Services, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await services.open(database)
    tid, games = await started_round_robin(first)
    # On PostgreSQL a second process ends the other game, each in its own transaction; on
    # SQLite (one process per file) the two ends race inside one process.
    second = await services.open(database) if backend == "postgresql" else first
    both_read = asyncio.Barrier(2)
    real_read = sql_tournaments.read_state

    async def read_then_wait(db: Any, tournament_id: int) -> Any:
        """Each final transaction waits, once it has read the tournament, for the other to
        have read it too (a second at most): without the tournament's lock both would
        decide on a round with one game still undecided, and nobody would pair round 2."""
        state = await real_read(db, tournament_id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(both_read.wait(), 1.0)
        return state

    if backend == "postgresql":  # SQLite's one writer runs the transactions one after the other
        monkeypatch.setattr(sql_tournaments, "read_state", read_then_wait)
    await asyncio.gather(resign_white(first, games[0]), resign_white(second, games[1]))
    assert (
        await count_rows(first, "tournament_pairings", f"tournament_id = {tid} AND round = 2") == 2
    )
    assert await count_rows(first, "tournament_pairings", "round = 3") == 0
    paired = await count_rows(first, "outbox", f"tournament_id = {tid} AND kind = 'round_paired'")
    assert paired == 2  # round 1's and round 2's, each once
    view = await first.tournaments.view(tid)
    assert view.round == 2 and all(p.result is None for p in view.pairings)


async def test_a_crash_inside_a_games_final_transaction_loses_nothing_and_repeats_nothing(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, games = await started_round_robin(service)
    await resign_white(service, games[0])
    events_before = await count_rows(service, "outbox")
    state_before = await service.store.tournament_state(tid)
    real_write = sql_tournaments.write_step

    async def crash_half_way(db: Any, tournament: Any, writes: Any) -> None:
        await db.executemany(  # the next round's pairings go in, then the process "dies"
            sql_tournaments.INSERT_PAIRING,
            [
                (tournament.id, *(getattr(p, n) for n in sql_tournaments.NEW_PAIRING_FIELDS))
                for p in writes.new_pairings
            ],
        )
        raise RuntimeError("killed between two statements")

    monkeypatch.setattr(sql_tournaments, "write_step", crash_half_way)
    with pytest.raises(RuntimeError):
        await resign_white(service, games[1])
    assert await service.store.tournament_state(tid) == state_before
    assert await count_rows(service, "outbox") == events_before
    game = await service.game_view(games[1])
    assert game.running  # the game's end was rolled back with its tournament step
    monkeypatch.setattr(sql_tournaments, "write_step", real_write)
    await resign_white(service, games[1])
    assert await count_rows(service, "tournament_pairings", "round = 2") == 2
    paired = await count_rows(service, "outbox", f"tournament_id = {tid} AND kind = 'round_paired'")
    assert paired == 2


async def test_a_crash_between_pairing_and_opening_opens_every_game_once(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    tid = await with_players(first, 4)
    await first.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    await first.close()  # as good as a crash: nothing delivered, no game opened

    clock.advance(HANDOFF_SECONDS)
    again = await services.open(database)
    owed = await again.outbox.owed()
    shown = [o for o in owed if o.result is not None and o.result.tournament is not None]
    assert [o.result.action for o in shown if o.result] == [Action.ROUND_PAIRED]
    view = shown[0].result.tournament if shown[0].result else None
    assert view is not None and view.round == 1
    assert [p.game_id for p in view.pairings] == [None, None]
    opened = await open_games(again, tid)
    assert len(opened) == 2
    for p in view.pairings:  # the Discord layer retrying after another crash opens nothing
        assert await again.tournaments.open_game(p.id, THREADS + p.id) is None
    assert await count_rows(again, "games", "pairing_id IS NOT NULL") == 2
    for o in owed:
        await again.outbox.delivered(o.event)
    await again.outbox.flush()
    left = [o for o in await again.outbox.owed() if o.result is not None]
    assert all(o.result.action is Action.GAME_STARTED for o in left if o.result)


async def snapshot(service: GameService, tid: int) -> tuple[Any, ...]:
    return (await service.store.tournament_state(tid), await count_rows(service, "outbox"))


async def refused(service: GameService, tid: int, action: Any, error: type[ServiceError]) -> str:
    before = await snapshot(service, tid)
    with pytest.raises(error) as caught:
        await action
    assert await snapshot(service, tid) == before
    return str(caught.value)


async def test_refusals_change_nothing(service: GameService) -> None:
    with pytest.raises(ForbiddenError):
        await service.tournaments.create(GUILD, CHANNEL, PLAYERS[0], spec())
    tid = await create(service, max_players=3, min_rating=1400, max_rating=1600)
    faces = service.tournaments
    await faces.join(tid, PLAYERS[0])
    said = await refused(service, tid, faces.join(tid, PLAYERS[0]), TournamentError)
    assert "already joined" in said
    await faces.join(tid, PLAYERS[1])
    await faces.join(tid, PLAYERS[2])
    said = await refused(service, tid, faces.join(tid, PLAYERS[3]), TournamentError)
    assert "is full (3 players)" in said
    await faces.leave(tid, PLAYERS[2].id)
    await service.store.set_meta("unused", "x")  # the rating range is read from the ladder
    narrow = await create(service, min_rating=1600)
    said = await refused(service, narrow, faces.join(narrow, PLAYERS[4]), TournamentError)
    assert "1600 and above; yours is 1500" in said
    for moderated in (
        faces.start_now(tid, PLAYERS[0].id),
        faces.pause(tid, PLAYERS[0].id),
        faces.resume(tid, PLAYERS[0].id),
        faces.drop(tid, PLAYERS[0].id, PLAYERS[1].id),
        faces.fix_result(tid, PLAYERS[0].id, 1, 1, 0, "because"),
        faces.cancel(tid, PLAYERS[0].id),
    ):
        said = await refused(service, tid, moderated, ForbiddenError)
        assert "only moderators" in said
    said = await refused(
        service, tid, faces.pause(tid, MODERATOR.id, is_moderator=True), TournamentError
    )
    assert "is not running" in said
    said = await refused(service, tid, faces.leave(tid, PLAYERS[5].id), TournamentError)
    assert "not playing" in said
    with pytest.raises(TournamentError):
        await faces.create(GUILD, CHANNEL, MODERATOR, spec(rounds=None), is_moderator=True)
    with pytest.raises(TournamentError):
        await faces.create(
            GUILD, CHANNEL, MODERATOR, spec(Format.SWISS, berserk=True), is_moderator=True
        )
    for wrong in (
        spec(Format.ARENA, duration=0.0),
        spec(Format.ARENA, duration=8 * 24 * 3600.0),
        spec(forfeit_after=-1.0),
        spec(min_rating=1700, max_rating=1600),
        spec(max_players=1),
    ):
        with pytest.raises(TournamentError):
            await faces.create(GUILD, CHANNEL, MODERATOR, wrong, is_moderator=True)
    # Times already scaled down by the Discord layer (MOVE_TIME_SCALE) are taken as they are.
    quick = spec(Format.ARENA, duration=6.0, forfeit_after=3.0)
    assert (await faces.create(GUILD, CHANNEL, MODERATOR, quick, is_moderator=True)).tournament


async def test_one_player_joining_twice_at_once_joins_once(service: GameService) -> None:
    tid = await create(service, max_players=2)
    joins = await asyncio.gather(
        service.tournaments.join(tid, PLAYERS[0]),
        service.tournaments.join(tid, PLAYERS[0]),
        service.tournaments.join(tid, PLAYERS[1]),
        service.tournaments.join(tid, PLAYERS[2]),
        return_exceptions=True,
    )
    errors = [j for j in joins if isinstance(j, BaseException)]
    assert len(errors) == 2 and all(isinstance(e, TournamentError) for e in errors)
    assert await count_rows(service, "tournament_players", f"tournament_id = {tid}") == 2
    joined = await count_rows(service, "outbox", "kind = 'tournament_joined'")
    assert joined == 2


async def test_a_fixed_result_after_a_game_replaces_it_with_its_reason(
    service: GameService,
) -> None:
    tid, games = await started_round_robin(service)
    await resign_white(service, games[0])
    view = await service.tournaments.view(tid)
    decided = next(p for p in view.pairings if p.game_id == games[0])
    assert decided.result == "0-1"
    fixed = await service.tournaments.fix_result(
        tid,
        MODERATOR.id,
        decided.id,
        1,
        0,
        "Black played on a phone that misclicked",
        is_moderator=True,
    )
    assert [r.action for r in fixed] == [Action.RESULT_FIXED]
    view = await service.tournaments.view(tid)
    shown = next(p for p in view.pairings if p.id == decided.id)
    assert shown.result == "1-0" and shown.fixed_reason == "Black played on a phone that misclicked"
    with pytest.raises(TournamentError):
        await service.tournaments.fix_result(
            tid, MODERATOR.id, decided.id, 1, 1, "x", is_moderator=True
        )
    with pytest.raises(TournamentError):
        await service.tournaments.fix_result(
            tid, MODERATOR.id, decided.id, 1, 0, "  ", is_moderator=True
        )
    await finish(service, games[1], 0.5)
    assert (await service.tournaments.view(tid)).round == 2


async def test_a_game_is_not_opened_where_another_runs(service: GameService) -> None:
    _, games = await started_round_robin(service)
    busy = (await service.game_view(games[0])).channel_id
    other = await with_players(service, 2)
    await service.tournaments.start_now(other, MODERATOR.id, is_moderator=True)
    (pairing,) = (await service.tournaments.view(other)).pairings
    said = await refused(
        service, other, service.tournaments.open_game(pairing.id, busy), TournamentError
    )
    assert "already running" in said
    assert (await service.tournaments.open_game(pairing.id, 9999)) is not None


async def test_games_left_unopened_are_announced_again_once(
    service: GameService, clock: Clock
) -> None:
    """The Discord layer showed the round and stopped before opening every game: two minutes
    later the tick announces the round again (once), and opening what is missing opens only
    that."""
    tid = await with_players(service, 4)
    started = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    for result in started:
        assert result.event is not None
        await service.outbox.delivered(result.event)
    await service.outbox.flush()  # the round's own announcement is delivered, and said so
    first, second = started[-1].tournament.pairings if started[-1].tournament else ()
    assert await service.tournaments.open_game(first.id, THREADS + first.id) is not None
    clock.advance(60)
    assert [r for r in await service.tick() if r.tournament is not None] == []
    clock.advance(60)
    again = [r for r in await service.tick() if r.tournament is not None]
    assert [r.action for r in again] == [Action.ROUND_PAIRED]
    assert again[0].tournament is not None
    missing = [p for p in again[0].tournament.pairings if p.game_id is None]
    assert [p.id for p in missing] == [second.id]
    assert again[0].mentions == (second.white.id, second.black.id if second.black else 0)
    assert [r for r in await service.tick() if r.tournament is not None] == []
    opened = await open_games(service, tid)
    assert len(opened) == 1
    assert await count_rows(service, "games", "pairing_id IS NOT NULL") == 2


async def test_a_round_still_being_delivered_is_not_announced_again(
    service: GameService, clock: Clock
) -> None:
    """The round's own announcement is still owed (its delivery stopped half-way, or the bot
    restarted before it was done): it goes on where it stopped, so the tick adds no second
    announcement that would post the missing pairings' messages beside it."""
    tid = await with_players(service, 4)
    started = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    paired = [r for r in started if r.action is Action.ROUND_PAIRED]
    assert len(paired) == 1 and paired[0].event is not None
    for result in started:
        if result is not paired[0]:
            assert result.event is not None
            await service.outbox.delivered(result.event)
    clock.advance(REOPEN_AFTER * 3)
    assert [r for r in await service.tick() if r.tournament is not None] == []
    await service.outbox.delivered(paired[0].event)
    await service.outbox.flush()
    again = [r for r in await service.tick() if r.tournament is not None]
    assert [r.action for r in again] == [Action.ROUND_PAIRED]


async def test_a_fault_in_the_pairing_never_stops_a_game_from_ending(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await with_players(service, 4)
    await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    await open_games(service, tid)
    games = [p.game_id for p in (await service.tournaments.view(tid)).pairings if p.game_id]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the pairing")

    monkeypatch.setattr(tournament_rounds, "pair_swiss", broken)
    for game_id in games:
        await finish(service, game_id, 1)
    view = await service.tournaments.view(tid)
    assert view.round == 1 and all(p.result == "1-0" for p in view.pairings)  # results kept
    assert [r for r in await service.tick() if r.tournament is not None] == []  # logged
    monkeypatch.undo()
    paired = [r for r in await service.tick() if r.tournament is not None]
    assert [r.action for r in paired] == [Action.ROUND_PAIRED]
    assert (await service.tournaments.view(tid)).round == 2


async def test_a_restart_between_rounds_carries_on(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    tid = await with_players(first, 5)
    await first.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    await open_games(first, tid)
    games = [p.game_id for p in (await first.tournaments.view(tid)).pairings if p.game_id]
    await finish(first, games[0], 1)
    await first.close()  # a restart in the middle of round 1

    again = await services.open(database)
    await finish(again, games[1], 0)  # the round's last game, in the new process
    view = await again.tournaments.view(tid)
    assert view.round == 2 and len(view.pairings) == 3
    clock.advance(HANDOFF_SECONDS)
    owed = [o.result for o in await again.owed() if o.result and o.result.tournament]
    assert [r.action for r in owed] == [Action.ROUND_PAIRED]  # what the crash left is covered
    assert await count_rows(again, "tournament_pairings", "round = 2") == 3
