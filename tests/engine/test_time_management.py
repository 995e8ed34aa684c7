"""The engine's use of its time budget (issue 31).

- The iteration decision (``engine/core/timeman.c``, exposed as ``engine._core.keep_going``) on
  its own cases: an iteration that fits is started; after a change of mind the search goes on to
  the deadline; while the best move holds it stops starting them only in the budget's last tenth.
- A real timed search of undecided positions uses at least nine tenths of its budget (the search
  reads the wall clock, so load makes it no shorter) and stops near it (a bound wide enough for
  a loaded machine: the assertion is about the deadline being kept, not about speed).
- The budget of a move counts from when the request was taken (``Limits.started``): the time
  spent before the search comes out of the search's, and the search keeps a floor.
"""

from __future__ import annotations

import time

import pytest

from engine._core import keep_going
from engine.api import ANSWER_RESERVE, LEAST_SEARCH_SHARE, _search_seconds
from engine.native_search import native_searcher, search
from rules import Game, find_variant

BUDGET = 1.0


@pytest.mark.parametrize("unstable", [False, True])
def test_an_iteration_expected_to_fit_is_started(unstable: bool) -> None:
    # 0.1 s so far, the last iteration 0.04 s, twice the one before: 0.08 s more fits in 0.9 s.
    assert keep_going(0.1, BUDGET, 0.04, 0.02, unstable)


def test_a_change_of_mind_goes_on_to_the_deadline() -> None:
    # The next iteration (0.4 s x 2) cannot fit, but the best move just changed.
    assert keep_going(0.6, BUDGET, 0.4, 0.2, True)
    assert keep_going(0.97, BUDGET, 0.4, 0.2, True)


def test_a_held_move_goes_on_until_the_last_tenth() -> None:
    # Neither fits; with more than a tenth left the search goes on, with less it hands back.
    assert keep_going(0.6, BUDGET, 0.4, 0.2, False)
    assert keep_going(0.85, BUDGET, 0.4, 0.2, False)
    assert not keep_going(0.92, BUDGET, 0.4, 0.2, False)


@pytest.mark.parametrize("unstable", [False, True])
def test_nothing_starts_after_the_budget(unstable: bool) -> None:
    assert not keep_going(BUDGET, BUDGET, 0.0, 0.0, unstable)
    assert not keep_going(1.2, BUDGET, 0.01, 0.01, unstable)


def test_the_first_iteration_s_growth_is_guessed() -> None:
    # No iteration before the last: its growth is taken as 4.  0.5 + 4 x 0.1 fits in 1 s...
    assert keep_going(0.5, BUDGET, 0.1, 0.0, False)
    # ...and 0.95 + 4 x 0.02 does not (with less than a tenth left, a held move stops).
    assert not keep_going(0.95, BUDGET, 0.02, 0.0, False)


def undecided_positions() -> list[Game]:
    """Quiet openings, far from any forced result at the depths 0.3 s reaches."""
    games = []
    for key, moves in (
        ("international", ("32-28", "19-23", "28x19", "14x23")),
        ("international", ()),
        ("english", ("11-15", "23-19", "8-11")),
        ("english", ("9-13", "22-18")),
    ):
        game = Game(find_variant(key))
        for text in moves:
            game.play(text)
        games.append(game)
    return games


@pytest.mark.parametrize("game", undecided_positions(), ids=lambda g: g.variant.key)
def test_a_timed_search_of_an_undecided_position_uses_its_budget(game: Game) -> None:
    seconds = 0.3
    native_searcher(game.variant).clear()
    found = search(
        game.position, quiet=0, past=(), max_depth=64, seconds=seconds, nodes=None, learned=True
    )
    assert found.move is not None and abs(found.score) < 5000  # still undecided
    assert found.seconds >= 0.9 * seconds
    assert found.seconds <= seconds + 0.1  # the deadline holds, bar a stall of the machine


def test_the_budget_counts_from_when_the_request_was_taken() -> None:
    budget = 0.5
    taken = time.monotonic() - 0.2  # the request was taken 0.2 s ago
    left = _search_seconds(budget, taken)
    assert left is not None
    assert LEAST_SEARCH_SHARE * budget <= left <= budget - 0.2 - ANSWER_RESERVE
    # A request taken long ago still gets a search, of the floor's length.
    assert _search_seconds(budget, time.monotonic() - 10) == LEAST_SEARCH_SHARE * budget
    assert _search_seconds(None, taken) is None
