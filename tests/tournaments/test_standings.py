"""Standings and tiebreaks: a real round robin's published table, and small cases checked by
hand for what it does not show (Buchholz, median Buchholz, head-to-head, arena points)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.tournament_arad_2026 import ARAD_2026, ARAD_2026_MEDIAN_BUCHHOLZ, ARAD_2026_POINTS
from support.tournament_events import USSA_CLOSED_2026, player

from bot.tournaments.model import (
    Cell,
    CellKind,
    Entrant,
    Format,
    Pairing,
    Result,
    Tiebreak,
)
from bot.tournaments.standings import standings

# The published final table: pairing number -> (points, rank, Sonneborn-Berger, wins counting
# forfeits).  Its tie-breaks are direct encounter, wins, then Sonneborn-Berger.
USSA_PUBLISHED = {
    1: (6.5, 1, 22.0, 6),
    2: (5.0, 3, 20.0, 5),
    3: (3.0, 7, 8.5, 3),
    4: (5.0, 5, 15.0, 4),
    5: (3.5, 6, 10.5, 3),
    6: (5.0, 4, 16.0, 4),
    7: (0.0, 9, 0.0, 0),
    8: (2.5, 8, 5.5, 2),
    9: (5.5, 2, 18.0, 5),
}


def test_a_published_round_robin_table() -> None:
    event = USSA_CLOSED_2026
    results = [r for round_results in event.rounds for r in round_results]
    table = standings(Format.ROUND_ROBIN, event.entrants, results, rounds=9, bye_points=0.0)
    assert table.tiebreaks == (Tiebreak.SONNEBORN_BERGER, Tiebreak.HEAD_TO_HEAD, Tiebreak.WINS)
    assert table.rounds_played == 9
    rows = {row.entrant.number: row for row in table.rows}
    for number, (points, rank, sonneborn_berger, wins) in USSA_PUBLISHED.items():
        row = rows[number]
        assert (row.points, row.rank, row.tiebreaks[0]) == (points, rank, sonneborn_berger)
        # Our wins are over the board: number 2's forfeit win (round 9) is not one.
        assert row.tiebreaks[2] == wins - (number == 2)
    # 2, 4 and 6 tie on 5 points (and beat each other in a circle); Sonneborn-Berger already
    # orders them as the published table does, so head-to-head has no tie left to look at.
    assert [rows[n].tiebreaks[1] for n in (2, 4, 6)] == [0.0, 0.0, 0.0]
    assert [row.entrant.number for row in table.rows] == [1, 9, 2, 6, 4, 5, 3, 8, 7]
    # The crosstable: number 2's round 9 is a forfeit win with Black against 8, round 3 the
    # round off; 8 played 7 games over the board and lost one by forfeit.
    assert rows[2].cells[8] == Cell(9, CellKind.FORFEIT_WIN, player(8), "black", 1.0)
    assert rows[2].cells[2] == Cell(3, CellKind.BYE, score=0.0)
    assert rows[8].games == 7 and rows[2].games == 7


def test_a_published_swiss_tables_points_and_median_buchholz() -> None:
    """The 2026 Arad Open (209 players, 9 rounds, with byes, half-point byes, forfeits and
    players not paired): every player's points as published, and the published median
    Buchholz of every player who, like all their opponents, played all nine rounds over the
    board (FIDE's 2023 adjustments for unplayed rounds, which this table does not apply, play
    no part there; docs/TOURNAMENTS.md)."""
    results = [r for round_results in ARAD_2026.rounds for r in round_results]
    table = standings(Format.SWISS, ARAD_2026.entrants, results, rounds=9)
    rows = {row.entrant.number: row for row in table.rows}
    assert [rows[n].points for n in range(1, 210)] == ARAD_2026_POINTS
    assert {n: rows[n].tiebreaks[1] for n in ARAD_2026_MEDIAN_BUCHHOLZ} == (
        ARAD_2026_MEDIAN_BUCHHOLZ
    )
    assert len(ARAD_2026_MEDIAN_BUCHHOLZ) == 20 and table.rounds_played == 9


def _entrants(count: int, rating: float = 1500.0) -> list[Entrant]:
    return [Entrant(n, f"p{n}", rating + 100 * (count - n), n) for n in range(1, count + 1)]


def test_buchholz_median_buchholz_and_unplayed_rounds_by_hand() -> None:
    """Five players, three rounds.  Round 1: 1-2 and 3-4 drawn, 5 a bye (1 point); round 2:
    1 beats 3, 5 wins by forfeit against 4, 2 a bye; round 3: 1 beats 4, 3 beats 5, 2 a
    half-point bye.  Points: 1: 2.5, 2: 2, 3: 1.5, 4: 0.5, 5: 2.

    1 met 2 (2), 3 (1.5) and 4 (0.5): Buchholz 4, median Buchholz 1.5 (without 2 and 0.5),
    Sonneborn-Berger 0.5 * 2 + 1.5 + 0.5 = 3.  5's bye and forfeit win are two virtual
    opponents on 5's own 2 points, plus 3 (1.5): Buchholz 5.5, Sonneborn-Berger 2 + 2 + 0 = 4.
    2: 1 (2.5) and two virtual opponents (2 each): Buchholz 6.5, so 2 is ahead of 5."""
    results = [
        Result(1, 1, 2, 0.5, 0.5),
        Result(1, 3, 4, 0.5, 0.5),
        Result(1, 5, None, 1.0, 0.0),
        Result(2, 3, 1, 0.0, 1.0),
        Result(2, 4, 5, 0.0, 1.0, forfeit=True),
        Result(2, 2, None, 1.0, 0.0),
        Result(3, 1, 4, 1.0, 0.0),
        Result(3, 5, 3, 0.0, 1.0),
        Result(3, 2, None, 0.5, 0.0),
    ]
    table = standings(Format.SWISS, _entrants(5), results, rounds=3)
    rows = {row.entrant.id: row for row in table.rows}
    assert {p: rows[p].points for p in rows} == {1: 2.5, 2: 2.0, 3: 1.5, 4: 0.5, 5: 2.0}
    assert rows[1].tiebreaks[:3] == (4.0, 1.5, 3.0)
    assert rows[5].tiebreaks[0] == 5.5 and rows[5].tiebreaks[2] == 4.0
    assert rows[2].tiebreaks[0] == 6.5
    assert (rows[2].rank, rows[5].rank) == (2, 3)
    assert (rows[5].games, rows[4].games) == (1, 2)
    assert rows[4].cells[1] == Cell(2, CellKind.FORFEIT_LOSS, 5, "white", 0.0)


def test_equal_on_everything_shares_a_rank() -> None:
    results = [Result(1, 1, 2, 0.5, 0.5), Result(1, 3, 4, 0.5, 0.5)]
    table = standings(Format.SWISS, _entrants(4), results, rounds=5)
    assert [row.rank for row in table.rows] == [1, 1, 1, 1]
    assert [row.entrant.number for row in table.rows] == [1, 2, 3, 4]


def test_head_to_head_separates_two_tied_on_sonneborn_berger() -> None:
    """Four players, the Berger table: 1 beats 4, 2 beats 3 (round 1); 4 beats 3, 2 beats 1
    (round 2); 2-4 and 3-1 drawn (round 3).  1 and 4 end on 1.5 points with Sonneborn-Berger
    1.75 each (1: beat 4, 1.5, and drew 3, 0.25; 4: beat 3, 0.5, and drew 2, 1.25);
    head-to-head puts 1, who beat 4, ahead."""
    results = [
        Result(1, 1, 4, 1.0, 0.0),
        Result(1, 2, 3, 1.0, 0.0),
        Result(2, 4, 3, 1.0, 0.0),
        Result(2, 1, 2, 0.0, 1.0),
        Result(3, 2, 4, 0.5, 0.5),
        Result(3, 3, 1, 0.5, 0.5),
    ]
    table = standings(Format.ROUND_ROBIN, _entrants(4), results, rounds=3, bye_points=0.0)
    assert [(r.entrant.id, r.points, r.tiebreaks, r.rank) for r in table.rows] == [
        (2, 2.5, (2.75, 0.0, 2.0), 1),
        (1, 1.5, (1.75, 1.0, 1.0), 2),
        (4, 1.5, (1.75, 0.0, 1.0), 3),
        (3, 0.5, (0.75, 0.0, 0.0), 4),
    ]


def test_running_games_and_absences_in_the_crosstable() -> None:
    entrants = [*_entrants(3), Entrant(4, "late", 1200.0, 4, joined_round=2)]
    results = [Result(1, 1, 2, 1.0, 0.0), Result(1, 3, None, 1.0, 0.0)]
    pairings = [Pairing(2, 1, 3, 1), Pairing(2, 2, 4, None)]
    table = standings(Format.SWISS, entrants, results, rounds=3, bye_points=0.5, pairings=pairings)
    rows = {row.entrant.id: row for row in table.rows}
    assert rows[4].cells == (Cell(1, CellKind.ABSENT), Cell(2, CellKind.BYE, score=0.5))
    assert rows[1].cells[1] == Cell(2, CellKind.GAME, 3, "black", None)
    assert rows[4].points == 0.5 and table.rounds_played == 1


def test_performance_rating_is_fides() -> None:
    """Opponents 1600 and 1800 (average 1700); 1.5 of 2 is 75%: dp 193, so 1893.  A perfect
    score gets the table's +800."""
    entrants = [Entrant(1, "a", 1500.0, 1), Entrant(2, "b", 1600.0, 2), Entrant(3, "c", 1800.0, 3)]
    results = [Result(1, 1, 2, 1.0, 0.0), Result(2, 3, 1, 0.5, 0.5)]
    rows = {r.entrant.id: r for r in standings(Format.SWISS, entrants, results, rounds=2).rows}
    assert rows[1].performance == 1893
    assert rows[2].performance == 1500 - 800
    assert rows[3].performance == 1500


@pytest.mark.parametrize(
    ("games", "expected_points", "on_fire"),
    [
        # win, win (on fire), win 4, draw 2 (streak over), win 2
        (["1", "1", "1", "=", "1"], 2 + 2 + 4 + 2 + 2, False),
        (["1", "1"], 4, True),
        (["1", "0", "1", "1", "1"], 2 + 0 + 2 + 2 + 4, True),
        (["=", "=", "0"], 2, False),
    ],
)
def test_arena_points_and_streaks(games: list[str], expected_points: int, on_fire: bool) -> None:
    points = {"1": 1.0, "=": 0.5, "0": 0.0}
    results = [
        Result(n, 1, 2, points[g], 1.0 - points[g], moves=40) for n, g in enumerate(games, start=1)
    ]
    table = standings(Format.ARENA, _entrants(2), results, rounds=None)
    row = next(r for r in table.rows if r.entrant.id == 1)
    assert (row.points, row.on_fire) == (expected_points, on_fire)
    assert len(row.cells) == len(games) and table.rounds_played == len(games)
    assert table.tiebreaks == (Tiebreak.PERFORMANCE,)


@pytest.mark.parametrize(("plies", "bonus"), [(13, 1), (12, 0), (14, 1)])
def test_berserk_adds_a_point_to_a_win_after_seven_own_moves(plies: int, bonus: int) -> None:
    """Player 1 wins twice, berserking: with White (own moves after ``plies``: (plies + 1) // 2)
    and then with Black (after ``plies + 1``: (plies + 1) // 2).  Neither win is on fire (the
    fire starts after the second), so each is 2 plus the bonus when 7 own moves were made."""
    results = [
        Result(1, 1, 2, 1.0, 0.0, white_berserk=True, moves=plies),
        Result(2, 2, 1, 0.0, 1.0, black_berserk=True, moves=plies + 1),
    ]
    row = next(
        r
        for r in standings(Format.ARENA, _entrants(2), results, rounds=None).rows
        if r.entrant.id == 1
    )
    assert row.points == 2 + bonus + 2 + bonus
    assert row.on_fire


@settings(max_examples=40)
@given(
    st.sampled_from([Format.SWISS, Format.ROUND_ROBIN, Format.ARENA]),
    st.lists(
        st.tuples(
            st.integers(1, 6),
            st.integers(1, 6),
            st.sampled_from([1.0, 0.5, 0.0]),
            st.booleans(),
        ),
        max_size=15,
    ),
)
def test_the_table_is_ordered_and_adds_up(
    format: Format, games: list[tuple[int, int, float, bool]]
) -> None:
    """Ranks follow points then tiebreaks, equal keys share a rank, and a game or crosstable
    point is never lost or made up (game formats)."""
    results = [
        Result(n, w, b, points, 1.0 - points, forfeit=forfeit and points != 0.5, moves=20)
        for n, (w, b, points, forfeit) in enumerate(games, start=1)
        if w != b
    ]
    table = standings(format, _entrants(6), results, rounds=None if format is Format.ARENA else 9)
    keys = [(row.points, *row.tiebreaks) for row in table.rows]
    assert keys == sorted(keys, reverse=True)
    assert table.rows[0].rank == 1
    for i in range(1, len(table.rows)):
        same = keys[i] == keys[i - 1]
        assert table.rows[i].rank == (table.rows[i - 1].rank if same else i + 1)
    if format is not Format.ARENA:
        assert sum(row.points for row in table.rows) == len(results)
        assert all(sum(c.score or 0 for c in row.cells) == row.points for row in table.rows)
