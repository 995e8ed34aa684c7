"""The native search (``engine._core.Searcher``, C; ``engine._core_wide``'s on 12x12) as the
engine's searcher.

One searcher per variant and process, built on first use: its transposition table (``HASH_MB``)
lives as long as the worker process, so the moves of a game share what earlier searches learnt.
Its Zobrist tables are ``rules.position``'s (the kings' runs of frisian's limit on a king's moves
in a row included), so its keys are ``Position.key`` and the game's repetition history is handed
over as the rules keep it.  A repeated position scores as a draw inside the search in every
variant, frisian's too (whose games have no repetition draw): a line that repeats makes no
progress, and the search cannot tell a cycle the opponent may leave from one it may not.  What
it returns are raw moves; the caller (:mod:`engine.api`) has the referee turn each into a legal
:class:`rules.Move` before it is played, and falls back to the reference search
(:mod:`engine.reference`) should the core ever return anything else.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import NamedTuple

from rules.movegen import RawMove
from rules.position import ZOBRIST, ZOBRIST_BLACK_TO_MOVE, ZOBRIST_RUN, Position
from rules.variants import Variant

from ._core import EndgameTable, Searcher
from .learned import load_into as load_learned
from .native import core_module, core_rules, core_state

HASH_MB = 32
"""The table of each variant's searcher, per process (pages are only used as they fill)."""

SELECT_REDUCE = 1
"""Selectivity rules of a search that is not exact (``engine/core/selective.h``'s CORE_SEL_*
bits, for ``Searcher.set_selectivity``): late-move reductions, at the root too;"""
SELECT_MOVECOUNT = 2
"""late-move pruning of quiet moves far down the list at depth 1-3;"""
SELECT_FUTILITY = 4
"""futility pruning at depth 1-2;"""
SELECT_PROBCUT = 8
"""ProbCut (a shallower search beating beta by a margin cuts the node);"""
SELECT_ALL = SELECT_REDUCE | SELECT_MOVECOUNT | SELECT_FUTILITY | SELECT_PROBCUT
"""all of them: what every timed search uses."""


class NativeIteration(NamedTuple):
    """One completed iteration: its depth, score, the nodes and seconds so far, its move."""

    depth: int
    score: int
    nodes: int
    seconds: float
    move: RawMove


class NativeResult(NamedTuple):
    move: RawMove | None
    """None when not even the first iteration finished (a tiny budget)."""
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[RawMove, ...]
    iterations: tuple[NativeIteration, ...]


_lock = threading.Lock()
"""A searcher is one C struct with one table: it runs one search at a time (the bot's workers
search one game at a time each; this keeps a thread of a test or a tool from entering twice)."""


@contextmanager
def _searching(variant: Variant) -> Iterator[Searcher]:
    with _lock:
        yield native_searcher(variant)


def new_searcher(variant: Variant) -> Searcher:
    """A native searcher for ``variant`` with its own table, the classic evaluation and no
    endgame tables (what :func:`native_searcher` starts from; tests that change a searcher's
    settings take their own)."""
    rule = variant.progress
    core = core_module(variant)
    bits = core.MAX_BITS  # Zobrist keys per piece kind: one per internal bit of its boards
    return core.Searcher(
        core_rules(variant),
        men_rows=variant.men_rows,
        hash_mb=HASH_MB,
        quiet_limit=rule.plies,  # 0: no such draw
        man_moves_progress=rule.man_moves,
        crownings_progress=rule.crownings,
        zobrist=[table[:bits] for table in ZOBRIST],
        black=ZOBRIST_BLACK_TO_MOVE,
        runs=[table[:bits] for table in ZOBRIST_RUN],
    )


@cache
def native_searcher(variant: Variant) -> Searcher:
    """The process's native searcher for ``variant``."""
    searcher = new_searcher(variant)
    load_learned(searcher, variant)  # the family's learned weights, if it has any
    # The endgame databases, built or loaded in the background and attached when ready (the
    # searcher works without them meanwhile; ENGINE_ENDGAME_DIR=off: never).
    from .endgame import attach_later  # here: `python -m engine.endgame` imports this module

    attach_later(variant, lambda table: set_endgame(variant, table))
    return searcher


_computing: dict[Variant, threading.Thread] = {}
"""The threads computing distances for a variant's endgame table (one pair at a time)."""


def set_endgame(variant: Variant, table: EndgameTable | None) -> None:
    """Have ``variant``'s searcher probe ``table`` (None: no tables) from its next search on."""
    with _searching(variant) as searcher:
        searcher.set_endgame(table)


def _distances_later(variant: Variant, searcher: Searcher, slice: int) -> threading.Thread | None:
    """Compute the distances of the won root's material ``slice`` in a thread at the idle
    priority, for the game's next moves (the C core's pair is too large to compute within a
    move: egdb_search.h).  Without them the search keeps the win but may not bring it closer
    before the no-progress count draws it; with them every move brings the conversion closer.
    The search goes on probing meanwhile; the distances are swapped in between two searches.
    None when they are at hand or being computed already.  (Called under ``_lock``.)"""
    table = searcher.endgame()
    if table is None or variant in _computing or table.has_distances(slice):
        return None

    def run() -> None:
        from .endgame import lower_priority  # here: `python -m engine.endgame` imports this

        lower_priority()
        try:
            if table.compute_distances(slice):
                with _lock:
                    table.keep_distances()
        finally:
            _computing.pop(variant, None)

    thread = threading.Thread(target=run, name=f"distances-{variant.key}", daemon=True)
    _computing[variant] = thread
    thread.start()
    return thread


def wait_for_distances(variant: Variant, timeout: float | None = None) -> bool:
    """Wait for the distances ``variant``'s last searches had computed in the background, if
    any (benches and tests that want the settled engine's play; the bot never waits); whether
    there were any."""
    thread = _computing.get(variant)
    if thread is None:
        return False
    thread.join(timeout)
    return True


def search(
    position: Position,
    *,
    quiet: int,
    past: Iterable[int],
    max_depth: int,
    seconds: float | None,
    nodes: int | None,
    fresh: bool = False,
    exact: bool = False,
    learned: bool = False,
) -> NativeResult:
    """Search ``position`` (``quiet`` plies since the game's last progress move, ``past`` the
    keys of the positions since then) to ``max_depth``, ``seconds`` and ``nodes`` at most.
    ``fresh``: forget the table first, so the result depends on the position alone (a search
    limited by depth or nodes, not by time, promises that); ``exact``: no late-move reductions,
    a full alpha-beta search to the depth (its scores are the true ones at that depth);
    ``learned``: with the family's learned evaluation when it has weights (:mod:`engine.learned`),
    else the classic one."""
    with _searching(position.variant) as searcher:
        searcher.use_learned(learned)
        if fresh:
            searcher.clear()
        move, score, depth, counted, spent, pv, iterations = searcher.search(
            *core_state(position),
            quiet,
            tuple(past),
            max_depth,
            seconds or 0.0,
            nodes or 0,
            exact,
        )
        wanted = searcher.endgame_wanted()
        if wanted >= 0 and seconds:  # a search by nodes or depth stays the position's alone
            _distances_later(position.variant, searcher, wanted)
    done = tuple(NativeIteration(*iteration) for iteration in iterations)
    return NativeResult(move, score, depth, counted, spent, tuple(pv), done)


def root_scores(
    position: Position, *, quiet: int, past: Iterable[int], depth: int
) -> list[tuple[int, RawMove]]:
    """Every root move with its exact score at ``depth``, best first (from an empty table, so
    the weaker levels' choices depend on the position and their seed alone)."""
    with _searching(position.variant) as searcher:
        searcher.use_learned(False)  # the weaker levels play with the classic evaluation
        searcher.clear()
        scored = searcher.root_scores(*core_state(position), quiet, tuple(past), depth)
    return sorted(scored, key=lambda item: -item[0])


def evaluate(position: Position, learned: bool = False) -> int:
    """The core's static evaluation of ``position`` (centimen, from the side to move): the
    classic one, or with ``learned`` the learned one where the family has weights."""
    with _searching(position.variant) as searcher:
        searcher.use_learned(learned)
        return searcher.evaluate(*core_state(position))


def key(position: Position) -> int:
    """The core's key of ``position`` (equal to ``position.key``)."""
    with _searching(position.variant) as searcher:
        return searcher.key(*core_state(position))
