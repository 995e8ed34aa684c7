"""Arena pairing: who plays whom among the players waiting, and with which colour."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.arena import arena_scores, pair_arena
from bot.tournaments.model import Pairing, Result

RATINGS = {1: 1900.0, 2: 1800.0, 3: 1700.0, 4: 1600.0, 5: 1500.0}


def test_closest_scores_meet_and_the_odd_one_waits() -> None:
    """3 beat 5 twice (4 points), 4 beat 5 (2), 1 and 2 drew (1 each), 5 has nothing.  The
    list: 3, 4, 1, 2 (1 is rated higher), 5.  3 meets 4; 1's last opponent was 2 and 5 is
    waiting, so 1 meets 5 and 2 waits.  Colours: 3 and 4 have had White once each, 3 had
    Black last, so 3 has White; 1 and 5 have had White once each and White last, so the
    higher one on the list, 1, has White."""
    results = [
        Result(1, 3, 5, 1.0, 0.0, moves=40),
        Result(2, 1, 2, 0.5, 0.5, moves=40),
        Result(3, 4, 5, 1.0, 0.0, moves=40),
        Result(4, 5, 3, 0.0, 1.0, moves=40),
    ]
    scores = arena_scores(results)
    assert {p: s.points for p, s in scores.items()} == {1: 1, 2: 1, 3: 4, 4: 2, 5: 0}
    assert scores[3].on_fire and not scores[4].on_fire
    pairings = pair_arena([1, 2, 3, 4, 5], results, RATINGS, first_number=5)
    assert pairings == [Pairing(5, 1, 3, 4), Pairing(6, 2, 1, 5)]


def test_the_last_opponent_is_avoided_only_when_someone_else_waits() -> None:
    results = [Result(1, 1, 2, 1.0, 0.0, moves=30)]
    two = pair_arena([1, 2], results, RATINGS, first_number=2)
    assert [(p.white, p.black) for p in two] == [(2, 1)]
    three = pair_arena([1, 2, 3], results, RATINGS, first_number=2)
    assert [(p.white, p.black) for p in three] == [(3, 1)]


@pytest.mark.parametrize(
    "games",
    [
        # 1 had White twice, 2 once: 2 has White though 1 is higher on the list (more draws).
        [(1, 3), (1, 4), (2, 5)],
        # 1: Black then White; 2: White then Black (equal points, 1 higher by rating): the one
        # who had Black last, 2, has White.
        [(2, 1), (1, 3), (3, 2)],
    ],
    ids=["fewer whites", "black last"],
)
def test_colours_follow_each_players_history(games: list[tuple[int, int]]) -> None:
    results = [Result(n, w, b, 0.5, 0.5) for n, (w, b) in enumerate(games, start=1)]
    pairings = pair_arena([1, 2], results, RATINGS, first_number=4)
    assert [(p.white, p.black) for p in pairings] == [(2, 1)]


@settings(max_examples=40)
@given(
    st.lists(st.sampled_from(sorted(RATINGS)), min_size=0, max_size=5, unique=True),
    st.lists(
        st.tuples(
            st.sampled_from(sorted(RATINGS)),
            st.sampled_from(sorted(RATINGS)),
            st.sampled_from([1.0, 0.5, 0.0]),
        ),
        max_size=12,
    ),
)
def test_everyone_waiting_is_paired_once_but_one(
    waiting: list[int], games: list[tuple[int, int, float]]
) -> None:
    results = [
        Result(n, w, b, points, 1.0 - points, moves=20)
        for n, (w, b, points) in enumerate(games, start=1)
        if w != b
    ]
    pairings = pair_arena(waiting, results, RATINGS, first_number=100)
    seated = [p.white for p in pairings] + [p.black for p in pairings if p.black is not None]
    assert len(seated) == len(set(seated)) == len(waiting) - len(waiting) % 2
    assert set(seated) <= set(waiting)
    assert [p.round for p in pairings] == list(range(100, 100 + len(pairings)))
    assert pair_arena(waiting, results, RATINGS, first_number=100) == pairings
