"""Glicko-2 (``bot.ratings``) against the worked example of Glickman's paper, and its basic
properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ratings import Rating, update


def test_the_papers_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013): a 1500/200/0.06 player beats a
    # 1400/30 player and loses to 1550/100 and 1700/300, with tau = 0.5.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 80, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx((80**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_provisional_until_the_deviation_is_small() -> None:
    assert Rating().shown() == "1500?"
    assert Rating(1523.4, 60).shown() == "1523"


@given(
    st.floats(1000, 2200),
    st.floats(40, 350),
    st.floats(1000, 2200),
    st.floats(40, 350),
)
def test_a_win_raises_a_loss_lowers_and_a_game_narrows(
    r: float, rd: float, opp_r: float, opp_rd: float
) -> None:
    me, opp = Rating(r, rd), Rating(opp_r, opp_rd)
    won, drew, lost = (update(me, [(opp, s)]) for s in (1.0, 0.5, 0.0))
    assert won.rating > me.rating > lost.rating
    assert won.rating > drew.rating > lost.rating
    for after in (won, drew, lost):
        assert after.deviation < (rd**2 + (0.06 * 173.7178) ** 2) ** 0.5
