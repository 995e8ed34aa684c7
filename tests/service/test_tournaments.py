"""Tournaments through the service on each database: the life cycle, rounds paired with the
results that complete them, standings and the end."""

from __future__ import annotations

from support.service_harness import count_rows
from support.tournament_harness import MODERATOR, PLAYERS, play_round, with_players

from bot.enums import TournamentStatus
from bot.results import Action
from bot.service import GameService


async def test_a_swiss_of_7_over_3_rounds_runs_to_its_end(service: GameService) -> None:
    tid = await with_players(service, 7)
    started = await service.tournaments.start_now(tid, MODERATOR.id, is_moderator=True)
    assert [r.action for r in started] == [Action.TOURNAMENT_STARTED, Action.ROUND_PAIRED]
    view = started[-1].tournament
    assert view is not None and view.round == 1 and view.status is TournamentStatus.RUNNING
    assert len(view.pairings) == 4  # three games and a bye
    for round_no in (1, 2, 3):
        view = await play_round(service, tid)
        assert view.round == (round_no + 1 if round_no < 3 else 3)
    assert view.status is TournamentStatus.FINISHED
    assert view.table.rows[0].entrant.id == PLAYERS[0].id
    assert view.table.rows[0].points == 3
    assert await count_rows(service, "tournament_pairings") == 12
    byes = await count_rows(service, "tournament_pairings", "black_id IS NULL")
    assert byes == 3
