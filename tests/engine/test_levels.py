"""The weakest levels against a beginner: the yardstick issue 17 sets for level 1.

A beginner "who sees one-move captures" (:mod:`engine.beginner`) must beat level 1 and lose to
level 2, in every variant.  Levels 1 and 2 search by depth alone here (no time limit), and the
beginner and the levels are seeded, so each match has one fixed outcome: these are regression
tests of the levels' strength, not samples (``bench/ladder.py`` measures the ratings).

Each match is 48 games: over 24 the beginner's score against level 1 has a spread of about
2.4 points, as large as its edge, and in spanish the first 24 seeds came out exactly even
(11 wins each, 2 draws) where 96 games give the beginner 61%.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest
from support.variant_sets import one_per_rules

from engine import LEVELS, Limits, best_move, native_search
from engine.api import native_best_move
from engine.beginner import beginner_move
from rules import Color, Game, find_variant, parse_fen
from rules.variants import VARIANTS

GAMES = 48
DISTINCT = sorted(v.key for v in one_per_rules(VARIANTS.values(), draws=True))
"""One variant of each set of rules (support/variant_sets.py): portuguese's seeded matches are
spanish's, game for game."""


@pytest.fixture(autouse=True, scope="module")
def small_tables() -> Iterator[None]:
    """Searchers with a 1 MB table for this module's matches, the process's own (32 MB) put
    back after them.  Levels 1 and 2 clear their table before every move (their choices depend
    on the position and their seed alone, ``native_search.root_scores``), and clearing 32 MB
    was nine tenths of these matches' CPU (35 s for the 12, 4 s with 1 MB); every match scores
    the same with either size (checked for all 12 when this was written)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(native_search, "HASH_MB", 1)
    patch.setattr(
        native_search, "native_searcher", cache(native_search.native_searcher.__wrapped__)
    )
    try:
        yield
    finally:
        patch.undo()


MAX_PLIES = 200


def match_plies(variant: str) -> int:
    """How long a match game may run: ``MAX_PLIES``, or 4 plies a square on a board larger than
    10x10 (12x12's 60 men make games of 190 plies on average against the beginner, and a cap
    of 200 cut 14 of the 48 games of level 1 short as draws; with 288 every one ends)."""
    return max(MAX_PLIES, 4 * find_variant(variant).geometry.squares)


def beginner_score(variant: str, level: int) -> float:
    """The beginner's points out of ``GAMES`` against ``level``, half the games with each
    colour; a game still running after :func:`match_plies` plies counts as a draw."""
    points = 0.0
    for number in range(GAMES):
        rng = random.Random(number)
        beginner = Color.WHITE if number % 2 else Color.BLACK
        game = Game(find_variant(variant))
        while not game.is_over and game.ply < match_plies(variant):
            if game.turn is beginner:
                game.play(beginner_move(game, rng))
            else:
                limits = Limits(movetime=None, level=level, seed=rng.getrandbits(32))
                game.play(best_move(game, limits).move)
        winner = game.outcome.winner if game.outcome is not None else None
        points += 0.5 if winner is None else 1.0 if winner is beginner else 0.0
    return points


@pytest.mark.parametrize("variant", DISTINCT)
def test_level_one_loses_to_a_beginner(variant: str) -> None:
    assert beginner_score(variant, 1) > GAMES / 2


@pytest.mark.parametrize("variant", DISTINCT)
def test_level_two_beats_a_beginner(variant: str) -> None:
    assert beginner_score(variant, 2) < GAMES / 2


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_whole_game_on_the_orthogonal_board(level: int) -> None:
    """Turkish (every square played, men stepping sideways, rook-like kings that may not turn
    back) by the native search alone at each level, against itself, to the end of the game or
    MAX_PLIES: every move one the referee lists.  Levels 4-6 are held to 4,000 nodes a move."""
    game = Game(find_variant("turkish"))
    kings = 0
    while not game.is_over and game.ply < MAX_PLIES:
        limits = Limits(movetime=None, level=level, nodes=4_000, seed=game.ply)
        move = native_best_move(game, limits).move
        assert move in game.legal_moves(), (level, game.position.fen())
        game.play(move)
        kings += bool(game.position.white_kings | game.position.black_kings)
    assert game.ply >= 40 and kings  # a real game, into the kings' part of it


@pytest.mark.parametrize("variant", ["frisian", "frysk"])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_frisian_whole_games(variant: str, level: int) -> None:
    """Frisian and Frysk! (captures along rows and columns, the capture of most value, at most
    three moves in a row by one king) by the native search alone at each level, against itself,
    to the end of the game or MAX_PLIES: every move one the referee lists (the kings' runs
    included).  Levels 4-6 are held to 4,000 nodes a move."""
    game = Game(find_variant(variant))
    while not game.is_over and game.ply < MAX_PLIES:
        limits = Limits(movetime=None, level=level, nodes=4_000, seed=game.ply)
        move = native_best_move(game, limits).move
        assert move in game.legal_moves(), (level, game.position.fen())
        game.play(move)
    assert game.ply >= 20


def test_level_one_is_careless_and_the_others_are_not() -> None:
    """Level 1's losses come from careless moves: without them it beats the beginner."""
    assert LEVELS[1].careless > 0
    assert all(LEVELS[n].careless == 0 for n in (3, 4, 5, 6))


def play(variant: str, fen: str) -> set[str]:
    """Every move the beginner chooses in ``fen`` over 200 seeds."""
    v = find_variant(variant)
    game = Game(v, parse_fen(fen, v))
    return {beginner_move(game, random.Random(seed)).pdn() for seed in range(200)}


def test_beginner_takes_the_biggest_capture() -> None:
    # English, White to move: 27x20 takes one man, 27x18x11 two and 28x19x10x1 three (the
    # longest is not compulsory in English; the beginner takes it).
    assert play("english", "W:W27,28:B23,24,15,6") == {"28x19x10x1"}


def test_beginner_avoids_giving_a_capture_and_is_random_otherwise() -> None:
    # English, White to move: 21-17 puts the man in front of 14 (14x21 follows); 30-25 and
    # 30-26 leave nothing to take, and the beginner plays both.
    assert play("english", "W:W21,30:B14") == {"30-25", "30-26"}


def test_beginner_moves_into_a_capture_only_when_every_move_does() -> None:
    # English, White's man on 22 between Black men on 13 and 15: both moves are taken.
    assert play("english", "W:W22:B13,15") == {"22-17", "22-18"}
