"""Post-game analysis: how long the analysis of one game takes, per variant.

Why it exists: issue 30 asks that a whole 60-move (120-ply) game be analysed in under about
30 seconds on the project's 2-core machine, one position per background job so live games'
replies keep their worker.  The bot runs those jobs one at a time in one worker process; this
runs the very same jobs (:func:`engine.analysis.evaluate_ply` per position, then
:func:`engine.analysis.assemble`) one at a time in this process, which is what one worker
does, with the bot's budget per position (:data:`engine.analysis.SECONDS_PER_POSITION`,
:data:`engine.analysis.NODES_PER_POSITION`).

How to run (the project's own install)::

    python bench/analysis.py                      # every variant, one 120-ply game each
    python bench/analysis.py --variants english international --games 2 --markdown

Method: per variant, ``--games`` games played by the engine against itself at level 3
(seeded, so the same games every run) until ``--plies`` plies or the game's end; each is
analysed whole.  Reported per variant: plies analysed, wall seconds per game and per 120
plies, CPU seconds of this process per game (the machine may be shared: CPU time is what the
analysis itself cost), the median depth the searches reached, and the judged moves found.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/analysis.py` without installing
    sys.path.insert(0, str(_ROOT))

from engine import Limits, best_move  # noqa: E402
from engine.analysis import (  # noqa: E402
    NODES_PER_POSITION,
    SECONDS_PER_POSITION,
    PositionScore,
    assemble,
    evaluate_ply,
)
from rules import Game  # noqa: E402
from rules.variants import VARIANTS, Variant  # noqa: E402


class Measured(NamedTuple):
    variant: str
    plies: int
    wall: float
    cpu: float
    depth: int
    judged: int


def self_play(variant: Variant, plies: int, seed: int) -> Game:
    """A game of the engine against itself at level 3 (seeded), ``plies`` long at most."""
    game = Game(variant)
    while not game.is_over and game.ply < plies:
        found = best_move(game, Limits(movetime=None, level=3, seed=seed * 1000 + game.ply))
        game.play(found.move)
    return game


def analyse(game: Game, seconds: float, nodes: int) -> Measured:
    record = game.to_dict()
    wall, cpu = time.perf_counter(), time.process_time()
    found = [
        PositionScore.from_dict(evaluate_ply(record, ply, seconds, nodes))
        for ply in range(game.ply + 1)
    ]
    analysis = assemble(record, found)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    judged = sum(1 for p in analysis.plies if p.judgement is not None)
    return Measured(game.variant.key, game.ply, wall, cpu, analysis.depth, judged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=SECONDS_PER_POSITION)
    parser.add_argument("--nodes", type=int, default=NODES_PER_POSITION)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"budget per position: {args.seconds} s, {args.nodes:,} nodes")
    rows = []
    for key in args.variants:
        variant = VARIANTS[key]
        runs = [
            analyse(self_play(variant, args.plies, seed), args.seconds, args.nodes)
            for seed in range(1, args.games + 1)
        ]
        plies = statistics.mean(r.plies for r in runs)
        wall = statistics.mean(r.wall for r in runs)
        cpu = statistics.mean(r.cpu for r in runs)
        per_120 = statistics.mean(r.wall * 120 / max(1, r.plies) for r in runs)
        depth = round(statistics.median(r.depth for r in runs))
        judged = statistics.mean(r.judged for r in runs)
        rows.append((key, plies, wall, per_120, cpu, depth, judged))
    if args.markdown:
        print(
            "| variant | plies | wall s / game | wall s / 120 plies | CPU s / game | depth "
            "| judged |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for key, plies, wall, per_120, cpu, depth, judged in rows:
            print(
                f"| {key} | {plies:.0f} | {wall:.1f} | {per_120:.1f} | {cpu:.1f} | {depth} "
                f"| {judged:.0f} |"
            )
    else:
        for key, plies, wall, per_120, cpu, depth, judged in rows:
            print(
                f"{key:14} {plies:4.0f} plies  {wall:5.1f} s wall ({per_120:5.1f} s / 120 plies)"
                f"  {cpu:5.1f} s CPU  depth {depth}  {judged:.0f} judged"
            )


if __name__ == "__main__":
    main()
