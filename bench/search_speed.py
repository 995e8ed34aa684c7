"""Search speed: nodes per second and depth reached by the native search (C, ``engine._core``)
and the pure-Python search, in the same run, per variant.

Why it exists: issue 17 asks for at least 2 M nodes/s in search (from about 40 k in Python) and
for the depth that buys at the bot's think times.  Both searchers here are the engine's own:
``engine.api.native_best_move`` and ``engine.api.python_best_move`` (the engine as it was before
the core, kept as the reference and the fallback), at level 6 with the same time per move.

How to run (the project's own install; the extension is built by ``pip install``)::

    python bench/search_speed.py                        # 1 s per position, 8 positions a variant
    python bench/search_speed.py --movetime 0.2 --positions 20 --markdown

Method: per variant the start position and ``--positions - 1`` positions of random games
(20-60 plies, seeded, still running with at least two legal moves); each is searched once by
each searcher for ``--movetime`` seconds, one after the other in this process, the native search
with a fresh table (as a new game's first move).  A node is a position the search visited
(interior, leaf or capture search), counted the same way by both.  Reported: nodes/s over all
positions (total nodes / total time), the median depth of the last completed iteration, and the
speed-up, and the share of its time budget the native search used (its clock, wall time
around the whole call).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/search_speed.py` without installing
    sys.path.insert(0, str(_ROOT))

from engine import Iteration, Limits  # noqa: E402
from engine.api import native_best_move, python_best_move  # noqa: E402
from engine.native_search import native_searcher  # noqa: E402
from rules import Game, find_variant  # noqa: E402
from rules.variants import VARIANTS, Variant  # noqa: E402


def positions(variant: Variant, count: int, seed: int) -> list[Game]:
    rng = random.Random(f"{variant.key}:{seed}")
    found = [Game(variant)]
    while len(found) < count:
        game = Game(variant)
        for _ in range(rng.randint(20, 60)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over and len(game.legal_moves()) >= 2:
            found.append(Game(variant, game.position))
    return found


class Measured(NamedTuple):
    nodes: int
    """Nodes of the last completed iterations, summed over the positions."""
    seconds: float
    """Their seconds (the nodes/s figure is nodes over these)."""
    depths: list[int]
    """The last completed iteration's depth, per position."""
    used: float
    """Wall time of the whole search (unfinished last iteration included) over the budget."""


def measure(games: list[Game], movetime: float, native: bool) -> Measured:
    nodes, seconds, depths, wall = 0, 0.0, [], 0.0
    for game in games:
        if native:
            native_searcher(game.variant).clear()
        iterations: list[Iteration] = []
        search = native_best_move if native else python_best_move
        started = time.perf_counter()
        search(game, Limits(movetime=movetime, level=6), on_iteration=iterations.append)
        wall += time.perf_counter() - started
        last = iterations[-1]
        nodes += last.nodes
        seconds += last.seconds
        depths.append(last.depth)
    return Measured(nodes, seconds, depths, wall / (movetime * len(games)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    for key in args.variants.split(","):
        variant = find_variant(key.strip())
        games = positions(variant, args.positions, args.seed)
        py = measure(games, args.movetime, native=False)
        c = measure(games, args.movetime, native=True)
        py_rate, c_rate = py.nodes / py.seconds, c.nodes / c.seconds
        rows.append(
            (
                variant.key,
                f"{py_rate:,.0f}",
                f"{statistics.median(py.depths):g}",
                f"{c_rate:,.0f}",
                f"{statistics.median(c.depths):g}",
                f"{c_rate / py_rate:.0f}x",
                f"{c.used:.0%}",
            )
        )
    header = (
        "variant",
        "Python nodes/s",
        "Python depth",
        "native nodes/s",
        "native depth",
        "",
        "native time used",
    )
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|" + "---:|" * (len(header) - 1))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
    print(
        f"\n{args.positions} positions per variant (the start and random games, seed "
        f"{args.seed}), {args.movetime:g} s each, level 6; depth: median of the last completed "
        f"iteration; time used: the native searches' wall time over their budget. Python "
        f"{platform.python_version()}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
