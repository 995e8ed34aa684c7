"""``Game.copy``: the computer searches a copy while the game itself goes on changing, so the
copy must be the same game and share nothing that either side mutates.

A property over random legal games of every variant: play on both after copying, in different
directions, and each must still equal a game rebuilt from its own record.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.game import Game
from rules.variants import VARIANTS


def random_game(variant_key: str, plies: int, rng: random.Random) -> Game:
    game = Game(VARIANTS[variant_key])
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


def rebuilt(game: Game) -> Game:
    return Game.from_dict(game.to_dict())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    plies=st.integers(0, 80),
    later=st.integers(1, 30),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_copy_is_the_same_game_and_independent(
    variant: str, plies: int, later: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(variant, plies, rng)
    before = game.to_dict()
    twin = game.copy()
    assert twin.to_dict() == before
    assert [m.pdn() for m in twin.legal_moves()] == [m.pdn() for m in game.legal_moves()]
    assert twin.result() == game.result()

    # The copy plays on (and offers a draw); the original is untouched...
    for _ in range(later):
        moves = twin.legal_moves()
        if not moves:
            break
        twin.play(rng.choice(moves))
    if not twin.is_over:
        twin.offer_draw(twin.turn)
    assert game.to_dict() == before
    assert rebuilt(twin).to_dict() == twin.to_dict()

    # ...and the original plays on differently (or takes back); the copy is untouched.
    after_twin = twin.to_dict()
    if game.ply and not game.is_over:
        game.take_back(1)
    for _ in range(later):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[-1])
    assert twin.to_dict() == after_twin
    assert rebuilt(game).to_dict() == game.to_dict()
    assert rebuilt(game).result() == game.result()
