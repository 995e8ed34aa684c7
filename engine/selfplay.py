"""Games of the engine against itself, the same every time for a seed: the raw material of the
shipped puzzle sets (``tools/make_puzzles.py``) and of the puzzle benchmark (``bench/puzzles.py``).

A game opens with an ACF three-move ballot in English draughts (the openings its players are
dealt) and with :data:`RANDOM_PLIES` random plies elsewhere (no published ballot list), then each
side plays at a level drawn from ``levels``.  Puzzles come from mistakes, so the levels that make
them (2 and 3 choose among near-best moves, :data:`engine.api.LEVELS`) play beside level 4; every
search is limited by depth, not time (``Limits(movetime=None)``), so a seed gives one game
whatever the machine's load.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.ballots import draw_ballot
from rules.game import Game
from rules.variants import ENGLISH, Color, Variant

from .api import Limits, best_move

RANDOM_PLIES = 4
"""Random opening plies where there are no ballots."""
LEVELS = (2, 3, 4)
"""The levels a side is drawn from."""
MAX_PLIES = 200
"""A game still running after this many plies stops there (unfinished)."""
SEED_STRIDE = 100_000
"""Game ``i`` of a run with seed ``s`` is seed ``s * SEED_STRIDE + i`` (:func:`game_seed`)."""


def game_seed(run: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run``: runs with other seeds share no game."""
    return run * SEED_STRIDE + index


def opening(variant: Variant, rng: random.Random) -> list[str]:
    """The game's first moves: a cross-board ballot (English), else random plies."""
    if variant is ENGLISH:
        return list(draw_ballot(rng).moves)
    game = Game(variant)
    moves = []
    for _ in range(RANDOM_PLIES):
        moves.append(game.play(rng.choice(game.legal_moves())).pdn())
    return moves


def selfplay_game(
    variant: Variant,
    seed: int,
    *,
    levels: Sequence[int] = LEVELS,
    max_plies: int = MAX_PLIES,
) -> Game:
    """One game of the engine against itself from ``seed``'s opening and levels."""
    rng = random.Random(f"selfplay:{variant.key}:{seed}")
    game = Game(variant)
    for text in opening(variant, rng):
        game.play(text)
    level = {Color.WHITE: rng.choice(levels), Color.BLACK: rng.choice(levels)}
    while not game.is_over and game.ply < max_plies:
        limits = Limits(movetime=None, level=level[game.turn], seed=seed)
        game.play(best_move(game, limits).move)
    return game
