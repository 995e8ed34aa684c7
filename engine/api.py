"""The engine's public face: ``best_move(game, limits) -> (move, score, pv)``.

Kept small on purpose: the bot's computer opponent calls it now, and hints and post-game
analysis can call it later with other limits.  Everything here is synchronous and pure CPU; the
bot runs it in a worker process.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rules.game import Game
from rules.move import Move
from rules.movegen import RawMove
from rules.position import Position
from rules.variants import Variant

from .book import book_entry
from .native_search import native_searcher
from .native_search import root_scores as native_root_scores
from .native_search import search as native_search
from .reference.board import board_for, state_of
from .reference.evaluate import evaluator
from .reference.search import Searcher
from .scores import Iteration

log = logging.getLogger(__name__)

DEFAULT_MOVETIME = 2.0
"""Seconds per move at level 6 (the bot's default)."""
ANSWER_RESERVE = 0.002
"""Seconds of a timed move's budget kept for the work after the search (the move and its line
checked by the referee, the answer sent back): measured at a median of 0.5 ms, a few ms on a
loaded machine (``bench/time_use.py``), so the whole answer fits the budget."""
LEAST_SEARCH_SHARE = 0.1
"""The native search gets at least this share of the budget, whatever the time already spent
before it (a request that waited too long still answers with a searched move)."""


@dataclass(frozen=True)
class Level:
    """How one level plays: a depth cap, a share of the time limit, and how far it strays from
    the best move (levels 1-3 pick at random among the moves within ``margin`` of the best of
    their ``choices`` best, which makes human-looking mistakes rather than absurd ones).
    ``careless``: the share of moves played without looking at all (any legal move, at random),
    the beginner's blunders; level 1 needs them to lose to a beginner who sees one-move captures
    (:mod:`engine.beginner`), which a 2-ply search alone already beats."""

    depth: int
    time_share: float
    choices: int
    margin: int
    careless: float = 0.0
    learned: bool = False
    """Evaluate with the family's learned weights (:mod:`engine.learned`) where it has them; the
    weaker levels keep the classic evaluation (their choices among near-equal moves are what
    makes them weak, and their ratings in docs/COMMANDS.md were measured with it)."""


LEVELS: dict[int, Level] = {
    1: Level(depth=2, time_share=0.10, choices=4, margin=250, careless=0.2),
    2: Level(depth=3, time_share=0.15, choices=3, margin=120, careless=0.05),
    3: Level(depth=4, time_share=0.25, choices=2, margin=40),
    4: Level(depth=8, time_share=0.50, choices=1, margin=0, learned=True),
    5: Level(depth=12, time_share=0.50, choices=1, margin=0, learned=True),
    6: Level(depth=64, time_share=1.00, choices=1, margin=0, learned=True),
}


@dataclass(frozen=True)
class Limits:
    """What a search may spend.  ``movetime`` in seconds is the level-6 budget (lower levels use
    a share of it); ``depth`` and ``nodes`` cap the search further (a fixed depth without a time
    limit makes the result depend only on the position and ``seed``)."""

    movetime: float | None = DEFAULT_MOVETIME
    level: int = 6
    depth: int | None = None
    nodes: int | None = None
    seed: int = 0
    classic: bool = False
    """Evaluate with the classic evaluation at every level (the reference search's: comparisons
    with it, and the learned evaluation's benchmarks)."""
    started: float | None = None
    """``time.monotonic()`` when the request was taken (the bot's worker: before it read the
    game); a timed move's budget counts from then, so the time spent reading the game comes out
    of the search's.  None: from the call of :func:`best_move`."""
    book: bool = True
    """Play from the opening book (:mod:`engine.book`) where it has the position, at levels 5
    and 6 in timed searches; off, the search decides every move (matches that measure the
    search set it off on both sides)."""


class Result(NamedTuple):
    move: Move
    score: int
    """Centimen (a man is 100) from the mover's side; wins are near ``engine.MATE``."""
    pv: tuple[Move, ...]


_searchers: dict[Variant, Searcher] = {}


def searcher_for(variant: Variant) -> Searcher:
    """The process's searcher for ``variant``."""
    searcher = _searchers.get(variant)
    if searcher is None:
        searcher = _searchers[variant] = Searcher(board_for(variant), evaluator(variant))
    return searcher


def repetition_history(game: Game) -> tuple[frozenset[int], int]:
    """Keys of the game's positions since its last progress move, and that many plies."""
    quiet = game.quiet_plies()
    keys = frozenset(p.key for p in game.positions[len(game.positions) - 1 - quiet : -1])
    return keys, quiet


def to_move(position: Position, raw: RawMove) -> Move:
    """The rules' :class:`Move` for a raw move of ``position``."""
    fb, tb, dead, _ = raw
    for move in position.legal_moves():
        if move.from_bit == fb and move.to_bit == tb and move.capture_mask == dead:
            return move
    raise ValueError(f"{raw} is not a legal move here")


def to_moves(position: Position, raws: tuple[RawMove, ...]) -> tuple[Move, ...]:
    """The rules' moves of a line of raw moves played from ``position`` (a principal
    variation)."""
    moves = []
    for raw in raws:
        move = to_move(position, raw)
        moves.append(move)
        position = position.play(move)
    return tuple(moves)


def best_move(
    game: Game,
    limits: Limits = Limits(),
    on_iteration: Callable[[Iteration], None] | None = None,
) -> Result:
    """The engine's move for the side to move of ``game`` (which must be running): the opening
    book's (:mod:`engine.book`) where it has the position and ``limits`` allow it (see
    :func:`_from_book`), else found by the native search (:mod:`engine.native_search`) and
    checked by the referee; the reference search
    (:func:`python_best_move`, :mod:`engine.reference`) stands in should the core ever return a
    move ``rules`` does not know."""
    played = _from_book(game, limits)
    if played is not None:
        return played
    try:
        return native_best_move(game, limits, on_iteration)
    except IllegalCoreMove:
        log.exception("the native search returned an illegal move; searching in Python")
        return python_best_move(game, limits, on_iteration)


_book_rng = random.Random()
"""The book's choices vary from game to game (seeded by the system, per process)."""


def _from_book(game: Game, limits: Limits) -> Result | None:
    """The opening book's move as a result (its deep score, a one-move line), or None: out of
    book, below level 5, or a search limited by depth or nodes or without a clock (analysis,
    puzzles, self-play and the tests: those stay deterministic and book-free)."""
    if (
        not limits.book
        or limits.level < 5
        or limits.depth is not None
        or limits.nodes is not None
        or limits.movetime is None
    ):
        return None
    entry = book_entry(game, _book_rng)
    if entry is None:
        return None
    move, score = entry
    return Result(move, score, (move,))


class IllegalCoreMove(ValueError):
    """A move from the core that the referee does not list: a bug in the core."""


def _checked(position: Position, raw: RawMove) -> Move:
    try:
        return to_move(position, raw)
    except ValueError as exc:
        raise IllegalCoreMove(str(exc)) from exc


def _budget(game: Game, limits: Limits, level: Level) -> float | None:
    budget = None if limits.movetime is None else limits.movetime * level.time_share
    if budget is not None and len(game.legal_moves()) == 1:
        budget /= 10  # the move is forced; search only for its score
    return budget


def _search_seconds(budget: float | None, started: float) -> float | None:
    """What is left of ``budget`` for the native search, the budget having started at
    ``started`` (``time.monotonic()``): the time already spent and :data:`ANSWER_RESERVE` come
    off it, down to :data:`LEAST_SEARCH_SHARE` of it."""
    if budget is None:
        return None
    left = budget - (time.monotonic() - started) - ANSWER_RESERVE
    return max(left, LEAST_SEARCH_SHARE * budget)


def _level(limits: Limits) -> Level:
    level = LEVELS.get(limits.level)
    if level is None:
        raise ValueError("the level must be between 1 and 6")
    return level


def native_best_move(
    game: Game,
    limits: Limits = Limits(),
    on_iteration: Callable[[Iteration], None] | None = None,
) -> Result:
    """:func:`best_move` by the native search alone (no fallback)."""
    started = time.monotonic() if limits.started is None else limits.started
    if game.is_over:
        raise ValueError("the game is over")
    position = game.position
    level = _level(limits)
    past, quiet = repetition_history(game)
    max_depth = min(level.depth, limits.depth or level.depth)
    if level.choices > 1:
        scored = native_root_scores(position, quiet=quiet, past=past, depth=max_depth)
        return _pick(position, scored, level, limits.seed, _checked)
    native_searcher(game.variant)  # built on a process's first search: before the time left is read
    found = native_search(
        position,
        quiet=quiet,
        past=past,
        max_depth=max_depth,
        seconds=_search_seconds(_budget(game, limits, level), started),
        nodes=limits.nodes,
        fresh=limits.movetime is None,
        exact=limits.movetime is None,
        learned=level.learned and not limits.classic,
    )
    if found.move is None:
        # Not even depth 1 finished (a tiny budget): the first legal move.
        move = game.legal_moves()[0]
        return Result(move, 0, (move,))
    if on_iteration is not None:
        for done in found.iterations:
            line = found.pv if done.depth == found.depth else (done.move,)
            on_iteration(Iteration(done.depth, done.score, done.nodes, done.seconds, line))
    move = _checked(position, found.move)
    pv = [move]
    after = position.play(move)
    for raw in found.pv[1:]:
        try:
            step = to_move(after, raw)
        except ValueError:
            break  # the line read back from the table ended in another position
        pv.append(step)
        after = after.play(step)
    return Result(move, found.score, tuple(pv))


def _pick(
    position: Position,
    scored: list[tuple[int, RawMove]],
    level: Level,
    seed: int,
    check: Callable[[Position, RawMove], Move] = to_move,
) -> Result:
    """The weaker levels' choice among the good moves (human-looking mistakes): at random, by
    ``seed`` and the position, among the ``level.choices`` best within ``level.margin`` of the
    best, or, for the ``level.careless`` share of positions, among all moves; ``scored`` is best
    first."""
    rng = random.Random((seed << 64) ^ position.key)
    best = scored[0][0]
    if level.careless and rng.random() < level.careless:
        pool = [m for _, m in scored]
    else:
        pool = [m for s, m in scored[: level.choices] if s >= best - level.margin]
    raw = rng.choice(pool)
    move = check(position, raw)
    return Result(move, next(s for s, m in scored if m == raw), (move,))


def python_best_move(
    game: Game,
    limits: Limits = Limits(),
    on_iteration: Callable[[Iteration], None] | None = None,
) -> Result:
    """:func:`best_move` by the reference search (:mod:`engine.reference`: the engine before the
    native core, kept as what the tests and benchmarks compare with and as the fallback)."""
    if game.is_over:
        raise ValueError("the game is over")
    position = game.position
    level = _level(limits)
    searcher = searcher_for(game.variant)
    state = state_of(position)
    past, quiet = repetition_history(game)
    budget = _budget(game, limits, level)
    deadline = float("inf") if budget is None else time.perf_counter() + budget
    max_depth = min(level.depth, limits.depth or level.depth)
    if level.choices > 1:
        scored = searcher.root_scores(state, max_depth, float("inf"), past, quiet)
        return _pick(position, scored, level, limits.seed)

    done = searcher.search(
        state,
        max_depth=max_depth,
        deadline=deadline,
        node_limit=limits.nodes,
        past=past,
        quiet=quiet,
        on_iteration=on_iteration,
    )
    if not done or not done[-1].pv:
        ordered = searcher.board.moves(state)
        move = to_move(position, ordered[0])
        return Result(move, 0, (move,))
    last = done[-1]
    pv = to_moves(position, last.pv)
    return Result(pv[0], last.score, pv)
