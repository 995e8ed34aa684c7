"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), for issue 7's
per-server, per-variant ladders.

Pure functions of plain numbers.  A rating is shown on the familiar Glicko scale (start 1500,
deviation 350); the update works on the Glicko-2 scale internally, exactly as the paper's steps
1-8, with the volatility found by the Illinois algorithm of step 5.  Every rated game is its own
rating period here (the bot updates after each game), which is how online servers use Glicko-2.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""System constant: how much the volatility may change (the paper suggests 0.3-1.2)."""
EPSILON = 1e-6
PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is shown as provisional ("1500?"), as lichess does."""


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """``1523`` or ``1500?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``games`` as (opponent, score) pairs,
    score 1 for a win, 0.5 for a draw, 0 for a loss.  No games: only the deviation grows."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    played = [
        ((opp.rating - START_RATING) / SCALE, opp.deviation / SCALE, score) for opp, score in games
    ]
    if not played:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, phi_star * SCALE, sigma)
    # Step 3: estimated variance; step 4: estimated improvement.
    v_inv = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in played:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    # Step 5: the new volatility (Illinois algorithm).
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    # Steps 6-8: new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(SCALE * mu_new + START_RATING, SCALE * phi_new, sigma_new)


IDLE_PERIOD_SECONDS = 24 * 3600
"""An idle day counts as one rating period without games (the deviation grows)."""


def idle(player: Rating, seconds: float) -> Rating:
    """``player`` after ``seconds`` without games: Glicko-2's step 6 once per idle day
    (fractions included), so a rating that has not been tested for a while is trusted less and
    moves more in the next game; the deviation never exceeds a newcomer's."""
    periods = max(0.0, seconds) / IDLE_PERIOD_SECONDS
    if periods == 0:
        return player
    phi = player.deviation / SCALE
    phi_idle = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(START_DEVIATION, phi_idle * SCALE), player.volatility)
