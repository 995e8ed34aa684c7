"""Tournaments through the service on each database, with a clock moved by hand: each format
run from creation to final standings, and the moderators' and players' actions between rounds.
Games are opened as the Discord layer opens them (a thread each) and decided by real moves."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from support.service_harness import Clock, count_rows
from support.tournament_harness import (
    MODERATOR,
    PLAYERS,
    create,
    finish,
    open_games,
    play_round,
    white_wins,
    with_players,
)

from bot.enums import GameStatus, TournamentStatus
from bot.errors import TournamentError
from bot.results import Action, ActionResult, TimeControl
from bot.service import GameService
from bot.tournaments.model import CellKind, Format


async def start(service: GameService, tid: int) -> None:
    started = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    assert started[0].action is Action.TOURNAMENT_STARTED


async def test_a_swiss_of_7_over_3_rounds_runs_to_its_end(service: GameService) -> None:
    tid = await with_players(service, 7)
    started = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    assert [r.action for r in started] == [Action.TOURNAMENT_STARTED, Action.ROUND_PAIRED]
    view = started[-1].tournament
    assert view is not None and view.round == 1 and view.status is TournamentStatus.RUNNING
    assert [p.number for p in view.players] == list(range(1, 8))
    assert len(view.pairings) == 4  # three games and a bye
    bye = [p for p in view.pairings if p.black is None]
    assert len(bye) == 1 and bye[0].result == "1"
    met: set[frozenset[int]] = set()
    for round_no in (1, 2, 3):
        view = await service.tournaments.view(tid)
        for p in view.pairings:
            if p.black is not None:
                pair = frozenset((p.white.id, p.black.id))
                assert pair not in met  # no repeat pairings
                met.add(pair)
        view = await play_round(service, tid)
        assert view.round == (round_no + 1 if round_no < 3 else 3)
    assert view.status is TournamentStatus.FINISHED
    leader = view.table.rows[0]
    assert leader.entrant.id == PLAYERS[0].id and leader.points == 3
    assert [c.kind for c in leader.cells].count(CellKind.GAME) >= 2
    assert await count_rows(service, "tournament_pairings") == 12
    assert await count_rows(service, "tournament_pairings", "black_id IS NULL") == 3
    assert await count_rows(service, "games", "pairing_id IS NOT NULL") == 9
    # Performance ratings are kept on the event's record at the end.
    performances = await count_rows(
        service, "tournament_players", f"tournament_id = {tid} AND performance IS NOT NULL"
    )
    assert performances == 7
    # Tournament games are ordinary rated games in their pool.
    assert await count_rows(service, "ratings", "pool = 'correspondence'") == 7
    pdn = await service.tournaments.pdn(tid)
    assert pdn.count('[Event "Club night"]') == 9
    assert '[Round "3.1"]' in pdn


async def run_round_robin(service: GameService, players: int) -> None:
    tid = await with_players(service, players, Format.ROUND_ROBIN)
    await start(service, tid)
    view = await service.tournaments.view(tid)
    rounds = view.rounds
    assert rounds == (players - 1 if players % 2 == 0 else players)
    for _ in range(rounds):
        view = await play_round(service, tid, white_wins)
    assert view.status is TournamentStatus.FINISHED
    state = await service.store.tournament_state(tid)
    assert state is not None
    games = [p for p in state.pairings if p.black_id is not None]
    pairs = {frozenset((p.white_id, p.black_id)) for p in games}
    everyone = {frozenset(two) for two in itertools.combinations(PLAYERS[:players], 2)}
    assert pairs == {frozenset((a.id, b.id)) for a, b in map(tuple, everyone)}
    assert len(games) == len(pairs)  # each pair met exactly once
    byes = [p for p in state.pairings if p.black_id is None]
    assert len(byes) == (players if players % 2 else 0)
    assert all(p.white_points == 0 for p in byes)  # sitting out scores nothing
    assert sum(row.points for row in view.table.rows) == len(games)


async def test_a_round_robin_of_4(service: GameService) -> None:
    await run_round_robin(service, 4)


async def test_a_round_robin_of_5(service: GameService) -> None:
    await run_round_robin(service, 5)


async def test_an_arena_of_6_pairs_who_waits_and_ends_on_time(
    service: GameService, clock: Clock
) -> None:
    tid = await with_players(
        service,
        6,
        Format.ARENA,
        clock=TimeControl(7200, 0),
        berserk=True,
        duration=1800.0,
        forfeit_after=3600.0,
    )
    await start(service, tid)
    view = await service.tournaments.view(tid)
    assert len(view.pairings) == 3 and view.ends_at == clock.now + 1800
    await open_games(service, tid)
    view = await service.tournaments.view(tid)
    first = view.pairings[0]
    assert first.game_id is not None
    game = await service.game_view(first.game_id)
    assert game.clock is not None
    berserk = await service.tournaments.berserk(game.to_move.id, game_id=first.game_id)
    assert berserk.action is Action.BERSERK
    halved = await service.game_view(first.game_id)
    assert halved.clock is not None
    assert min(halved.clock.white, halved.clock.black) == 3600
    played = 0
    view = await play_round(service, tid, white_wins)
    # The second game's end left four waiting: they were paired at once, in that transaction;
    # the last two wait for the tick.
    assert await count_rows(service, "tournament_pairings", "white_points IS NULL") == 2
    assert [p.round for p in view.pairings if p.result is None] == [2, 2]
    for _ in range(3):  # more waves: those who finish are paired again
        await service.tick()
        view = await play_round(service, tid, white_wins)
        played = await count_rows(service, "tournament_pairings", "white_points IS NOT NULL")
    assert played >= 9
    await open_games(service, tid)  # games of the last wave run when the time is up
    running = await count_rows(service, "games", "status = 'running'")
    assert running > 0
    clock.advance(1800)
    ended = [r for r in await service.tick() if r.tournament is not None]
    assert [r.action for r in ended] == [Action.TOURNAMENT_FINISHED]
    view = await service.tournaments.view(tid)
    assert view.status is TournamentStatus.FINISHED
    # The games still running at the end do not count (lidraughts removes those pairings).
    assert await count_rows(service, "tournament_pairings", "white_points IS NULL") == 0
    assert sum(row.games for row in view.table.rows) == 2 * played
    assert view.table.rows[0].points > 0
    # Such a game ends later as an ordinary game and changes nothing in the event.
    before = await service.store.tournament_state(tid)
    (late, *_) = await service.games(view.guild_id)
    await finish(service, late.id, 1)
    assert await service.store.tournament_state(tid) == before


async def test_late_entry_and_withdrawal_between_swiss_rounds(service: GameService) -> None:
    tid = await with_players(service, 6)
    await start(service, tid)
    late = await service.tournaments.join(tid, PLAYERS[6])
    assert late.action is Action.TOURNAMENT_JOINED
    left = await service.tournaments.leave(tid, PLAYERS[5].id)
    assert left.action is Action.TOURNAMENT_JOINED
    view = await service.tournaments.view(tid)
    assert all(PLAYERS[6].id not in (p.white.id, p.black and p.black.id) for p in view.pairings)
    view = await play_round(service, tid)
    assert view.round == 2
    in_round_2 = {who for p in view.pairings for who in (p.white.id, p.black and p.black.id)}
    assert PLAYERS[6].id in in_round_2  # the late entry plays from round 2
    assert PLAYERS[5].id not in in_round_2  # the withdrawn player is paired no more
    entrant = next(e for e in view.players if e.id == PLAYERS[6].id)
    assert entrant.joined_round == 2 and entrant.number == 7


async def test_pause_holds_the_next_round_until_resumed(service: GameService) -> None:
    tid = await with_players(service, 4)
    await start(service, tid)
    paused = await service.tournaments.pause(tid, MODERATOR.id, is_moderator=True)
    assert paused.action is Action.TOURNAMENT_PAUSED
    view = await play_round(service, tid)  # the games being played go on
    assert view.round == 1 and view.status is TournamentStatus.PAUSED
    assert all(p.result is not None for p in view.pairings)
    resumed = await service.tournaments.resume(tid, MODERATOR.id, is_moderator=True)
    assert [r.action for r in resumed] == [Action.TOURNAMENT_RESUMED, Action.ROUND_PAIRED]
    assert resumed[-1].tournament is not None and resumed[-1].tournament.round == 2


async def test_drop_fix_and_cancel(service: GameService) -> None:
    tid = await with_players(service, 4)
    await start(service, tid)
    await open_games(service, tid)
    view = await service.tournaments.view(tid)
    board1, board2 = view.pairings
    assert board1.game_id is not None and board2.game_id is not None
    dropped = await service.tournaments.drop(tid, MODERATOR.id, board1.white.id, is_moderator=True)
    assert Action.PLAYER_DROPPED in [r.action for r in dropped]
    game = await service.game_view(board1.game_id)
    assert game.status is GameStatus.ABORTED
    view = await service.tournaments.view(tid)
    one = next(p for p in view.pairings if p.id == board1.id)
    assert one.result == "-/+" and one.forfeit
    fixed = await service.tournaments.fix_result(
        tid, MODERATOR.id, board2.id, 0.5, 0.5, "agreed in the chat", is_moderator=True
    )
    # The running game ends with the fixed result, which completes round 1.
    assert [r.action for r in fixed] == [
        Action.ABORTED,
        Action.RESULT_FIXED,
        Action.ROUND_PAIRED,
    ]
    assert "agreed in the chat" in str(fixed[1].text)
    view = await service.tournaments.view(tid)
    assert view.round == 2  # the fixed result completed round 1
    shown = await service.store.pairing(board2.id)
    assert shown is not None and shown.fixed_reason == "agreed in the chat"
    assert shown.fixed_by == MODERATOR.id
    assert all(p.white.id != board1.white.id for p in view.pairings)
    cancelled = await service.tournaments.cancel(tid, MODERATOR.id, is_moderator=True)
    assert cancelled.action is Action.TOURNAMENT_CANCELLED
    for p in view.pairings:  # nothing opens in a cancelled event
        assert await service.tournaments.open_game(p.id, 7000 + p.id) is None
    assert await count_rows(service, "games", "status = 'running'") == 0
    listed = await service.tournaments.listing(view.guild_id, finished=True)
    assert [v.id for v in listed] == [tid]


async def test_a_no_show_is_reminded_then_loses_by_forfeit(
    service: GameService, clock: Clock
) -> None:
    tid = await with_players(service, 4, forfeit_after=600.0)
    await start(service, tid)
    opened = await open_games(service, tid)
    assert len(opened) == 2
    view = await service.tournaments.view(tid)
    board1, board2 = view.pairings
    assert board2.game_id is not None
    await finish(service, board2.game_id, 1)  # board 2 plays; board 1's first mover never moves
    clock.advance(300)
    reminded = [r for r in await service.tick() if r.action is Action.REMINDER]
    assert len(reminded) == 1 and reminded[0].game is not None
    assert reminded[0].tournament is not None and "forfeit" in str(reminded[0].text)
    assert reminded[0].game.id == board1.game_id
    assert reminded[0].mentions == (reminded[0].game.to_move.id,)
    assert [r for r in await service.tick() if r.action is Action.REMINDER] == []  # once
    clock.advance(300)
    forfeits = [r for r in await service.tick() if r.action is Action.FORFEIT]
    assert len(forfeits) == 1 and forfeits[0].tournament is not None
    pairing = await service.store.pairing(board1.id)
    assert pairing is not None and pairing.forfeit and pairing.decided
    absent = reminded[0].game.to_move.id
    points = pairing.white_points if absent == pairing.white_id else pairing.black_points
    assert points == 0
    view = await service.tournaments.view(tid)
    assert view.round == 2  # the forfeit completed the round: paired with it


async def test_a_round_robin_player_who_withdraws_loses_the_games_left_by_forfeit(
    service: GameService,
) -> None:
    tid = await with_players(service, 4, Format.ROUND_ROBIN)
    await start(service, tid)
    await service.tournaments.leave(tid, PLAYERS[3].id)  # withdraws during round 1
    view = await play_round(service, tid, white_wins)  # their round 1 game is still played
    for _ in range(2):
        assert view.round in (2, 3)
        gone = [p for p in view.pairings if PLAYERS[3].id in (p.white.id, p.black and p.black.id)]
        assert len(gone) == 1 and gone[0].forfeit and gone[0].game_id is None
        assert gone[0].result in ("+/-", "-/+")
        view = await play_round(service, tid, white_wins)
    assert view.status is TournamentStatus.FINISHED
    assert await count_rows(service, "games", "pairing_id IS NOT NULL") == 4  # 2 + 1 + 1


async def test_the_next_round_a_game_end_pairs_is_owed_at_once_and_shown_once(
    service: GameService,
) -> None:
    tid = await with_players(service, 2, Format.SWISS, rounds=2)
    await start(service, tid)
    for owed in await service.owed():  # what the start itself announced, delivered
        await service.outbox.delivered(owed.event)
    await service.outbox.flush()
    (opened,) = await open_games(service, tid)
    assert opened.action is Action.GAME_STARTED and opened.game is not None
    ended = await finish(service, opened.game.id, 1)
    assert ended.tournament is None  # the game's own announcement is the game's
    owed = [o for o in await service.owed() if o.result is not None and o.result.tournament]
    assert [o.result.action for o in owed if o.result] == [Action.ROUND_PAIRED]
    assert owed[0].game_id is None
    view = owed[0].result.tournament if owed[0].result else None
    assert view is not None and view.round == 2 and view.pairings[0].game_id is None
    await service.outbox.delivered(owed[0].event)
    await service.outbox.flush()
    again = [o for o in await service.owed() if o.result is not None and o.result.tournament]
    assert again == []


async def test_the_tick_starts_an_event_at_its_time_or_cancels_it(
    service: GameService, clock: Clock
) -> None:
    full = await with_players(service, 3, starts_at=clock.now + 600)
    empty = await with_players(service, 1, starts_at=clock.now + 600)
    assert [r for r in await service.tick() if r.tournament is not None] == []
    clock.advance(600)
    results = [r for r in await service.tick() if r.tournament is not None]
    by_event = {(r.tournament.id, r.action) for r in results if r.tournament}
    assert by_event == {
        (full, Action.TOURNAMENT_STARTED),
        (full, Action.ROUND_PAIRED),
        (empty, Action.TOURNAMENT_CANCELLED),
    }
    assert [r for r in await service.tick() if r.tournament is not None] == []  # once


async def test_a_tournament_announcement_whose_post_failed_reads_back_as_built(
    service: GameService,
) -> None:
    tid = await with_players(service, 5)
    await start(service, tid)
    (paired,) = await play_round_and_pair(service, tid)
    assert paired.tournament is not None and paired.event is not None
    await service.failed(paired.event, paired)  # the first post failed: kept as it was built
    (owed,) = [o for o in await service.owed() if o.event == paired.event]
    assert owed.result == replace(paired, publishing=None)
    assert owed.result.tournament == paired.tournament  # standings, pairings and all


async def play_round_and_pair(service: GameService, tid: int) -> list[ActionResult]:
    """Play round 1, then let the owed announcements show the next round's pairing."""
    await play_round(service, tid)
    owed = await service.owed()
    return [o.result for o in owed if o.result is not None and o.result.tournament is not None]


async def test_a_round_robin_of_two_is_cancelled_at_its_start(service: GameService) -> None:
    tid = await with_players(service, 2, Format.ROUND_ROBIN)
    (cancelled,) = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    assert cancelled.action is Action.TOURNAMENT_CANCELLED
    assert "too few players" in str(cancelled.text)
    assert await count_rows(service, "tournament_pairings") == 0


async def test_a_swiss_bye_scores_what_the_event_says(service: GameService) -> None:
    """FIDE's bye is a point; an event created with a half point scores it so, in the
    pairing's result and in the standings; more than a win's point is refused."""
    tid = await with_players(service, 3, bye_points=0.5)
    await start(service, tid)
    view = await service.tournaments.view(tid)
    (bye,) = [p for p in view.pairings if p.black is None]
    assert bye.white_points == 0.5
    row = next(r for r in view.table.rows if r.entrant.id == bye.white.id)
    assert row.points == 0.5 and row.cells[0].kind is CellKind.BYE
    with pytest.raises(TournamentError):
        await create(service, bye_points=2.0)
