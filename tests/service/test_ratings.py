"""Glicko-2 (``bot.service.ratings``) against the worked example of Glickman's paper, and its basic
properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.ratings import (
    IDLE_PERIOD_SECONDS,
    SCALE,
    START_DEVIATION,
    Rating,
    idle,
    update,
)


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


def test_idle_days_widen_the_deviation_by_step_6_per_day() -> None:
    settled = Rating(1700.0, 60.0, 0.06)
    assert idle(settled, 0) == settled
    assert idle(settled, -5) == settled  # a clock step back changes nothing
    phi = 60.0 / SCALE
    day = idle(settled, IDLE_PERIOD_SECONDS)
    assert day.rating == 1700.0 and day.volatility == 0.06
    assert math.isclose(day.deviation, math.sqrt(phi * phi + 0.06 * 0.06) * SCALE)
    # A hundred idle days: about as uncertain as a provisional rating again.
    assert idle(settled, 100 * IDLE_PERIOD_SECONDS).provisional
    # Never wider than a newcomer's.
    assert idle(settled, 10**9).deviation == START_DEVIATION


@given(
    deviation=st.floats(30, 350),
    first=st.floats(0, 400 * 86400),
    second=st.floats(0, 400 * 86400),
)
def test_idle_time_adds_up(deviation: float, first: float, second: float) -> None:
    """Two idle stretches widen the deviation as much as one stretch of their total length."""
    start = Rating(1500.0, deviation, 0.06)
    assert (
        math.isclose(
            idle(idle(start, first), second).deviation,
            idle(start, first + second).deviation,
            rel_tol=1e-9,
        )
        or idle(start, first + second).deviation == START_DEVIATION
    )
