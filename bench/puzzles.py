"""Puzzle finding (issue 30): puzzles found per 100 finished games and the time it takes per game.

    nice -n 10 python bench/puzzles.py                         # 20 games per variant
    nice -n 10 python bench/puzzles.py --games 40 --variants english,international --markdown

The games are the engine's own (:func:`engine.selfplay.selfplay_game`, seeds ``--seed * 100000 +
i``, the same games as ``tools/make_puzzles.py --seed`` plays), there being no archive of real
games in the repository; only finished games count (one still running at the self-play's ply
limit is left out and counted aside).  Each is mined by :func:`engine.puzzles.find_puzzles` as the
bot mines a server's finished game, with no time limit, and timed on its own (the self-play is not
counted).  The endgame tables are off, as for the shipped sets.  Figures in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ["ENGINE_ENDGAME_DIR"] = "off"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.puzzles import Puzzle, find_puzzles
from engine.selfplay import game_seed, selfplay_game
from rules.variants import VARIANTS, find_variant


def measure(key: str, games: int, seed: int) -> dict[str, float]:
    """Mine ``games`` self-play games of ``key``; the figures of the finished ones."""
    variant = find_variant(key)
    seconds: list[float] = []
    plies: list[int] = []
    found: list[Puzzle] = []
    unfinished = 0
    for i in range(games):
        game = selfplay_game(variant, game_seed(seed, i))
        if not game.is_over:
            unfinished += 1
            continue
        started = time.perf_counter()
        puzzles = find_puzzles(game.to_dict(), float("inf"), source=f"seed {i}")
        seconds.append(time.perf_counter() - started)
        plies.append(game.ply)
        found.extend(Puzzle.from_dict(item) for item in puzzles)
    finished = len(seconds)
    return {
        "finished": finished,
        "unfinished": unfinished,
        "per_100": 100 * len(found) / finished if finished else 0.0,
        "win": sum(p.gain == "win" for p in found),
        "material": sum(p.gain == "material" for p in found),
        "plies": statistics.mean(plies) if plies else 0.0,
        "mean_s": statistics.mean(seconds) if seconds else 0.0,
        "max_s": max(seconds, default=0.0),
        "per_ply_ms": 1000 * sum(seconds) / sum(plies) if plies else 0.0,
        "rating": statistics.mean(p.rating for p in found) if found else 0.0,
        "line": statistics.mean(len(p.solution) for p in found) if found else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, ", end="")
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at start, seed {args.seed}")
    head = (
        "variant",
        "finished games",
        "puzzles / 100 games",
        "win / material",
        "plies / game",
        "s / game (mean, max)",
        "ms / ply",
        "mean rating",
        "mean line (plies)",
    )
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("  ".join(head))
    for key in args.variants.split(","):
        r = measure(key.strip(), args.games, args.seed)
        cells = (
            key,
            f"{r['finished']:.0f} (+{r['unfinished']:.0f} unfinished)",
            f"{r['per_100']:.0f}",
            f"{r['win']:.0f} / {r['material']:.0f}",
            f"{r['plies']:.0f}",
            f"{r['mean_s']:.1f}, {r['max_s']:.1f}",
            f"{r['per_ply_ms']:.0f}",
            f"{r['rating']:.0f}",
            f"{r['line']:.1f}",
        )
        print(("| " + " | ".join(cells) + " |") if args.markdown else "  ".join(cells), flush=True)
    print(f"# load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
