"""The timed search's selectivity (``engine/core/selective.h``) against the full search.

A timed search reduces late quiet moves, prunes quiet moves far down the list and those a margin
under alpha at shallow depth, and cuts nodes a shallower search predicts to fail high (ProbCut).
None of it may lose what the full search finds:

- Each rule alone, and all together, at a fixed depth with a fresh table: every shipped English
  and International puzzle (an only move that wins material, verified by an exact search at the
  puzzle's ``depth_verified``) is still solved at that depth.
- The defender's side of each puzzle, after the solver's first move (where the opponent usually
  has a capture pending, and the shot's sacrifice must not be cut): the selective search sees the
  loss the exact one sees.
- With every rule off, a search that is not exact is the exact search, node for node: the rules
  are all the difference, and an exact search (levels, puzzles, analysis) uses none of them.
"""

from __future__ import annotations

import pytest

from engine import _core
from engine.native import core_state
from engine.native_search import (
    SELECT_ALL,
    SELECT_FUTILITY,
    SELECT_MOVECOUNT,
    SELECT_PROBCUT,
    SELECT_REDUCE,
    new_searcher,
)
from engine.puzzle_search import AGREED
from engine.puzzles import Puzzle, starter_puzzles
from rules.fen import parse_fen
from rules.move import Move
from rules.notation import parse_move
from rules.position import Position
from rules.variants import find_variant

RULES = {
    "reductions": SELECT_REDUCE,
    "late-move pruning": SELECT_MOVECOUNT,
    "futility": SELECT_FUTILITY,
    "probcut": SELECT_PROBCUT,
    "all": SELECT_ALL,
}


def searcher_for(key: str, rules: int) -> _core.Searcher:
    """A searcher of our own (the process's one keeps its table and its rules) using ``rules``."""
    searcher = new_searcher(find_variant(key))
    searcher.set_selectivity(rules)
    return searcher


def search(
    searcher: _core.Searcher, position: Position, depth: int, exact: bool
) -> tuple[object, ...]:
    """A fixed-depth search of ``position`` from a fresh table: (move, score, nodes)."""
    searcher.clear()
    move, score, _depth, nodes, _seconds, _pv, _iterations = searcher.search(
        *core_state(position), 0, (), depth, 0.0, 0, exact
    )
    return move, score, nodes


def start(puzzle: Puzzle) -> tuple[Position, Move]:
    """The puzzle's position and its first move."""
    variant = find_variant(puzzle.variant)
    position = parse_fen(puzzle.fen, variant)
    return position, parse_move(position, puzzle.solution[0], position.legal_moves())


@pytest.mark.parametrize("key", ["english", "international"])
@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_puzzle_is_still_solved_at_its_depth(key: str, rule: str) -> None:
    searcher = searcher_for(key, RULES[rule])
    puzzles = starter_puzzles(key)
    assert len(puzzles) >= 30
    for puzzle in puzzles:
        position, answer = start(puzzle)
        move, _score, _nodes = search(searcher, position, puzzle.depth_verified, exact=False)
        assert isinstance(move, tuple), (rule, puzzle.fen)
        assert move[:3] == (answer.from_bit, answer.to_bit, answer.capture_mask), (rule, puzzle.fen)


@pytest.mark.parametrize("key", ["english", "international"])
def test_the_defender_still_sees_the_shot(key: str) -> None:
    """After the solver's first move the defender is lost: the exact search at the puzzle's
    depth less one says so (at least half a man down), and the selective one must as well."""
    exact, selective = searcher_for(key, 0), searcher_for(key, SELECT_ALL)
    checked = 0
    for puzzle in starter_puzzles(key):
        if puzzle.gain != "material":
            continue
        position, answer = start(puzzle)
        after = position.play(answer)
        depth = puzzle.depth_verified - 1
        _move, truth, _nodes = search(exact, after, depth, exact=True)
        if truth > -AGREED:
            continue  # the shot shows only with the solver's move searched first
        _move, seen, _nodes = search(selective, after, depth, exact=False)
        assert isinstance(seen, int) and seen <= -AGREED, (puzzle.fen, truth, seen)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("key", ["english", "international"])
def test_with_every_rule_off_the_search_is_the_exact_one(key: str) -> None:
    off, on = searcher_for(key, 0), searcher_for(key, SELECT_ALL)
    full = selective = 0
    for puzzle in starter_puzzles(key)[:10]:
        position, _answer = start(puzzle)
        exact = search(off, position, 7, exact=True)
        assert search(off, position, 7, exact=False) == exact, puzzle.fen
        assert search(on, position, 7, exact=True) == exact, puzzle.fen
        full += exact[2]
        selective += search(on, position, 7, exact=False)[2]
    assert selective < full / 2  # the rules do cut when on: the comparisons above have teeth
