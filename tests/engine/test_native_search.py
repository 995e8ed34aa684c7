"""The native search (``engine._core.Searcher``) against the Python engine and the referee.

- Its evaluation equals ``engine.reference.evaluate`` and its keys equal ``Position.key``,
  position for position, in every variant (random games), so it judges and recognises positions
  as the Python engine did.
- An exact fixed-depth search (no reductions, a fresh table) finds the same score as the Python
  search at every depth tried, and a move of that score, in every variant.
- Timed and node-limited searches, with reductions and a table kept from move to move, return
  only moves the referee lists, in whole games played against itself.
- The game's history counts: a position repeating one of the game's is a draw to it.
- A move the referee does not list is never played: the engine searches again in Python.
- A cleared table forgets everything (what the weaker levels and fixed-depth searches rely on):
  a search after ``clear`` is the search of a new searcher, node for node.
"""

from __future__ import annotations

import dataclasses
import logging
import random

import pytest
from test_learned_eval import fresh_searcher

from engine import Limits, best_move, native_search
from engine import api as engine_api
from engine._core import Searcher
from engine.api import native_best_move, python_best_move
from engine.native import core_state
from engine.native_search import NativeResult, native_searcher
from engine.reference.board import state_of
from engine.reference.evaluate import evaluator
from rules import Color, Game, find_variant
from rules.fen import parse_fen
from rules.position import Position
from rules.variants import VARIANTS

VARIANT_KEYS = sorted(VARIANTS)


def random_games(key: str, count: int, seed: int) -> list[Game]:
    """``count`` running games of random length (up to 80 plies), as positions."""
    rng = random.Random(f"{key}:{seed}")
    variant = find_variant(key)
    found = []
    while len(found) < count:
        game = Game(variant)
        for _ in range(rng.randint(0, 80)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            found.append(game)
    return found


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_evaluation_and_keys_equal_the_python_engine_s(key: str) -> None:
    evaluate = evaluator(find_variant(key))
    checked = 0
    for game in random_games(key, 150, seed=1):
        for position in game.positions[-20:]:
            assert native_search.evaluate(position) == evaluate(state_of(position)), position.fen()
            assert native_search.key(position) == position.key, position.fen()
            checked += 1
    assert checked > 1000


def test_the_evaluations_agree_on_kings_anywhere_on_the_orthogonal_board() -> None:
    """Random games rarely crown in turkish; kings and men placed at random (edges and corners
    included, where a shift along a row could wrap) are scored alike by the core and Python."""
    turkish = find_variant("turkish")
    g = turkish.geometry
    evaluate = evaluator(turkish)
    rng = random.Random(8)
    for _ in range(500):
        squares = rng.sample(range(1, g.squares + 1), rng.randint(2, 12))
        kinds: dict[str, list[int]] = {"wm": [], "wk": [], "bm": [], "bk": []}
        for square in squares:
            kind = rng.choice(list(kinds))
            if kind == "wm" and g.bit(square) & g.top_row:
                kind = "wk"
            if kind == "bm" and g.bit(square) & g.bottom_row:
                kind = "bk"
            kinds[kind].append(square)
        turn = rng.choice(list(Color))
        position = Position.from_squares(
            turkish, turn, kinds["wm"], kinds["wk"], kinds["bm"], kinds["bk"]
        )
        assert native_search.evaluate(position) == evaluate(state_of(position)), position.fen()


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_an_exact_search_scores_as_the_python_search(key: str) -> None:
    """Same evaluation (the classic one: ``classic=True``), same rules of search (capture
    search, forced replies, draws): with reductions off and a fresh table, the scores must agree
    exactly."""
    for n, game in enumerate(random_games(key, 12, seed=2)):
        fresh = Game(game.variant, game.position)  # no history: both see the same past
        for depth in (1, 2, 3, 4, 5):
            limits = Limits(movetime=None, depth=depth, level=6, classic=True)
            ours = native_best_move(fresh, limits)
            theirs = python_best_move(fresh, limits)
            assert ours.score == theirs.score, (fresh.position.fen(), depth, n)
            assert ours.move in fresh.legal_moves()


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_games_against_itself_play_only_legal_moves(key: str) -> None:
    """Timed and node-limited searches (reductions on, the table kept between moves): every move
    the engine chooses is the referee's (``best_move`` would fall back to Python otherwise, so
    the native search is asked directly)."""
    variant = find_variant(key)
    native_searcher(variant).clear()
    for seed in range(2):
        game = Game(variant)
        rng = random.Random(seed)
        while not game.is_over and game.ply < 120:
            if rng.random() < 0.2:  # some variety: a random move now and then
                game.play(rng.choice(game.legal_moves()))
                continue
            past, quiet = engine_api.repetition_history(game)
            found = native_search.search(
                game.position, quiet=quiet, past=past, max_depth=64, seconds=None, nodes=3000
            )
            assert found.move is not None
            move = engine_api.to_move(game.position, found.move)  # raises if not legal
            assert found.iterations and found.iterations[-1].depth == found.depth
            game.play(move)


def searched(searcher: Searcher, game: Game, depth: int) -> tuple[object, ...]:
    """An exact search of ``game``'s position to ``depth``: its move, score, depth, nodes, line
    and each iteration (all but the seconds)."""
    move, score, reached, nodes, _seconds, pv, iterations = searcher.search(
        *core_state(game.position), 0, (), depth, 0.0, 0, True
    )
    steps = tuple((i[0], i[1], i[2], i[4]) for i in iterations)
    return move, score, reached, nodes, tuple(pv), steps


@pytest.mark.parametrize("key", ["english", "international"])
def test_a_cleared_table_forgets_everything(key: str) -> None:
    """``clear`` starts a new epoch of the table instead of writing all of it: nothing the table
    held before may be read after it.  A deeper search of the same position first fills the
    table with entries that cut a later search short (fewer nodes); after ``clear`` the search is
    a new searcher's, node for node, with its move, score and line, clear after clear."""
    new, used = fresh_searcher(find_variant(key)), fresh_searcher(find_variant(key))
    for game in random_games(key, 4, seed=5):
        new.clear()
        expected = searched(new, game, 5)
        for _ in range(3):
            searched(used, game, 7)
            carried = searched(used, game, 5)
            assert carried[3] < expected[3]  # the table cut it short: the check has teeth
            used.clear()
            assert searched(used, game, 5) == expected, game.position.fen()


def test_a_repetition_of_the_game_is_a_draw_to_the_search() -> None:
    """White (one king) against Black (two kings) in English: a win for Black. If the only
    winning moves lead to positions of the game's history, the search must not count them as
    wins; here, one of the two positions after White's move is marked as already played."""
    english = find_variant("english")
    game = Game(english, parse_fen("W:WK32:BK1,K2", english))
    fresh = native_search.search(
        game.position, quiet=0, past=(), max_depth=6, seconds=None, nodes=None, fresh=True
    )
    after = {move.pdn(): game.position.play(move).key for move in game.position.legal_moves()}
    assert fresh.move is not None
    # Mark every reply's position as seen: any move repeats the game, a draw.
    repeated = native_search.search(
        game.position,
        quiet=0,
        past=tuple(after.values()),
        max_depth=6,
        seconds=None,
        nodes=None,
        fresh=True,
    )
    assert repeated.score == 0
    assert fresh.score != 0


def test_a_move_the_referee_does_not_list_is_never_played(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A core that returned a wrong move (a bug) must not reach the game: the engine logs it and
    searches in Python instead."""
    game = Game(find_variant("english"))
    wrong = (1, 1 << 20, 0, False)

    def broken(*args: object, **kwargs: object) -> NativeResult:
        return NativeResult(wrong, 0, 1, 1, 0.0, (wrong,), ())

    monkeypatch.setattr(engine_api, "native_search", broken)
    with caplog.at_level(logging.ERROR, logger="engine.api"):
        result = best_move(game, Limits(movetime=None, depth=3))
    assert result.move in game.legal_moves()
    assert result == python_best_move(game, Limits(movetime=None, depth=3))
    assert "illegal move" in caplog.text


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK29,K30,K31,K32:BK1,K2",  # the strong side in the far corner, the weak in its double
        "B:WK29,K30,K31,K32:BK3,K4",  # the weak side to move
        "W:WK17,K18,K22,K23:BK1,K5",
    ],
)
def test_four_kings_beat_two_in_english(fen: str) -> None:
    """The ending the Python engine failed to win in 200 plies (issue 17): White's four kings
    against two, the same engine defending. Searches limited by nodes (300,000 a move, about a
    twentieth of a second), so the game is the same on any machine."""
    english = find_variant("english")
    game = Game(english, parse_fen(fen, english))
    while not game.is_over and game.ply < 200:
        game.play(best_move(game, Limits(movetime=None, depth=64, nodes=300_000)).move)
    assert game.outcome is not None and game.outcome.winner is Color.WHITE, game.outcome
    assert game.ply < 60


def test_one_piece_each_is_a_draw_to_both_searches() -> None:
    """Turkish draws one piece against one at once. White's king on d1 must take d5 and is left
    alone against h7's man: both searches score the position 0, where the same rules without
    that draw see White a king up."""
    turkish = find_variant("turkish")
    without = dataclasses.replace(turkish, key="turkish-counted", endgames=())
    scores = {}
    for variant in (turkish, without):
        game = Game(variant, parse_fen("W:WK60:B28,16", variant))
        native = native_search.search(
            game.position, quiet=0, past=(), max_depth=6, seconds=None, nodes=None, fresh=True
        )
        python = python_best_move(game, Limits(movetime=None, depth=4))
        scores[variant.key] = (native.score, python.score)
    assert scores["turkish"] == (0, 0)
    assert min(scores["turkish-counted"]) > 100  # a king up, by the evaluation
