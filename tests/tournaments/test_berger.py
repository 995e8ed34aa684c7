"""Round robin: the Berger tables against FIDE's published ones and a real event, and their
properties for every size the bot offers (3-16 players, single and double)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from support.tournament_events import USSA_CLOSED_2026

from bot.tournaments.berger import BYE, berger_schedule, pair_round_robin, round_robin_rounds
from bot.tournaments.model import Entrant, Pairing

# FIDE Handbook C.05, Annex 1 ("Berger Tables for Round-Robin Tournaments"), as printed there:
# one line per round, boards left to right, White first.
FIDE_TABLES = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
}


def _table(text: str) -> list[list[tuple[int, int]]]:
    return [
        [(int(w), int(b)) for w, b in (board.split("-") for board in line.split())]
        for line in text.strip().splitlines()
    ]


@pytest.mark.parametrize("players", sorted(FIDE_TABLES))
def test_the_schedule_is_fides_table(players: int) -> None:
    assert berger_schedule(players) == _table(FIDE_TABLES[players])


def test_an_odd_field_plays_the_next_even_table_with_the_dummy_as_the_round_off() -> None:
    """Nine players play the ten-player table; whoever meets number 10 has the round off."""
    ten = _table(FIDE_TABLES[10])
    nine = berger_schedule(9)
    for with_dummy, with_bye in zip(ten, nine, strict=True):
        (sitting_out,) = [w if b == 10 else b for w, b in with_dummy if 10 in (w, b)]
        assert with_bye[0] == (sitting_out, BYE)
        assert with_bye[1:] == [pair for pair in with_dummy if 10 not in pair]


def test_a_real_round_robin_was_paired_by_this_table() -> None:
    """The 2026 USSA Closed (9 players, 9 rounds) as published: every round's games and who
    had the round off (support/tournament_events.py cites it)."""
    event = USSA_CLOSED_2026
    for number, published in enumerate(event.rounds, start=1):
        pairings = pair_round_robin(event.entrants, number)
        games = [(p.white, p.black) for p in pairings if p.black is not None]
        assert games == [(r.white, r.black) for r in published if r.black is not None]
        assert [p.white for p in pairings if p.black is None] == [
            r.white for r in published if r.black is None
        ]


@pytest.mark.parametrize("players", range(3, 17))
@pytest.mark.parametrize("double", [False, True])
def test_everyone_meets_everyone_once_per_cycle_with_balanced_colours(
    players: int, double: bool
) -> None:
    schedule = berger_schedule(players, double=double)
    assert len(schedule) == round_robin_rounds(players, double=double)
    cycle = len(schedule) // (2 if double else 1)
    for start in range(0, len(schedule), cycle):
        rounds = schedule[start : start + cycle]
        met = Counter(frozenset(pair) for boards in rounds for pair in boards if BYE not in pair)
        assert set(met) == {frozenset(p) for p in combinations(range(1, players + 1), 2)}
        assert set(met.values()) == {1}
        for boards in rounds:
            seated = [n for pair in boards for n in pair if n != BYE]
            assert sorted(seated) == list(range(1, players + 1))
        whites = Counter(w for boards in rounds for w, b in boards if b != BYE)
        blacks = Counter(b for boards in rounds for _, b in boards if b != BYE)
        for player in range(1, players + 1):
            assert abs(whites[player] - blacks[player]) <= 1
        byes = Counter(w for boards in rounds for w, b in boards if b == BYE)
        assert set(byes.values()) <= {1} and len(byes) == players % 2 * players


def test_the_second_cycle_swaps_every_colour() -> None:
    single = berger_schedule(6)
    assert berger_schedule(6, double=True)[5:] == [[(b, w) for w, b in r] for r in single]


def test_a_withdrawn_players_opponent_gets_a_round_without_a_game() -> None:
    entrants = [Entrant(100 + n, f"p{n}", 1500.0, n) for n in range(1, 5)]
    entrants[2] = Entrant(103, "p3", 1500.0, 3, withdrawn=True)
    # Round 1 of four: 1-4, 2-3; player 3 has left.
    assert pair_round_robin(entrants, 1) == [Pairing(1, 1, 101, 104), Pairing(1, 2, 102, None)]


@pytest.mark.parametrize("players", [2, 17])
def test_sizes_outside_the_tables_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="3-16"):
        berger_schedule(players)


def test_pairing_numbers_must_be_one_to_n() -> None:
    entrants = [Entrant(1, "a", 1500.0, 1), Entrant(2, "b", 1500.0, 3), Entrant(3, "c", 0.0, 4)]
    with pytest.raises(ValueError, match=r"1\.\.n"):
        pair_round_robin(entrants, 1)
