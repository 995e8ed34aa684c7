"""Make the shipped puzzle sets (``engine/puzzles/<variant>.json``) from the engine's own games.

For each variant: ``--games`` games of the engine against itself (:mod:`engine.selfplay`: an ACF
ballot or random opening plies, then levels 2 to 4, every search limited by depth), each mined by
:func:`engine.puzzles.find_puzzles` exactly as the bot mines its servers' finished games; a
position found twice is kept once.  Game ``i`` of a variant is seed ``--seed * 100000 + i``
(:func:`engine.selfplay.game_seed`), every search is limited by depth and the endgame tables are
turned off (``ENGINE_ENDGAME_DIR=off``: a cache that happens to hold them would add puzzles), so
the same command writes the same files on any machine.  The file carries a note of how it was
made (command, commit, date, games, seconds), as ``engine/weights/*.json`` do::

    python tools/make_puzzles.py --games 70 --variants english,dame,pool,brazilian,russian
    python tools/make_puzzles.py --games 50 --variants international

Runs at a lower priority (``--nice``) in ``--workers`` processes; ``--variants`` picks some.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

os.environ["ENGINE_ENDGAME_DIR"] = "off"  # before the engine is imported: the same set anywhere

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from train_eval import git_commit  # noqa: E402  (tools/: the script's own folder)

from engine.puzzle_search import depths_for  # noqa: E402
from engine.puzzles import find_puzzles  # noqa: E402
from engine.selfplay import LEVELS, MAX_PLIES, RANDOM_PLIES, game_seed, selfplay_game  # noqa: E402
from rules.variants import ENGLISH, VARIANTS, find_variant  # noqa: E402

FIND_SECONDS = 3600.0
"""Per game: enough that no game is cut short (the set must not depend on the machine)."""


def mine(job: tuple[str, int]) -> dict[str, object]:
    """Worker: one self-play game and its puzzles, with the seconds each half took."""
    key, seed = job
    started = time.perf_counter()
    game = selfplay_game(find_variant(key), seed)
    played = time.perf_counter()
    puzzles = find_puzzles(game.to_dict(), FIND_SECONDS, source=f"self-play seed {seed}")
    return {
        "seed": seed,
        "plies": game.ply,
        "finished": game.is_over,
        "puzzles": puzzles,
        "play_seconds": played - started,
        "find_seconds": time.perf_counter() - played,
    }


def make_set(key: str, args: argparse.Namespace, pool: multiprocessing.pool.Pool) -> Path:
    """Mine ``args.games`` games of variant ``key`` and write its set; the file's path."""
    started = time.perf_counter()
    load = os.getloadavg()
    jobs = [(key, game_seed(args.seed, i)) for i in range(args.games)]
    seen: set[str] = set()
    puzzles: list[dict[str, object]] = []
    play = find = 0.0
    finished = 0
    for done in pool.imap(mine, jobs):
        play += float(str(done["play_seconds"]))
        find += float(str(done["find_seconds"]))
        finished += bool(done["finished"])
        found = done["puzzles"]
        assert isinstance(found, list)
        for puzzle in found:
            if puzzle["fen"] not in seen:
                seen.add(puzzle["fen"])
                puzzles.append(puzzle)
    variant = find_variant(key)
    depths = depths_for(variant)
    note = {
        "variant": key,
        "command": "python tools/make_puzzles.py " + " ".join(sys.argv[1:]),
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "games": args.games,
        "finished_games": finished,
        "selfplay": {
            "levels": list(LEVELS),
            "opening": "ACF cross-board ballot"
            if variant is ENGLISH
            else f"{RANDOM_PLIES} random plies",
            "max_plies": MAX_PLIES,
        },
        "depth_found": depths.found,
        "depth_verified": depths.verified,
        "endgame_tables": "off",
        "puzzles": len(puzzles),
        "seconds": {
            "wall": round(time.perf_counter() - started, 1),
            # Summed over the games, as each worker's clock ran (the machine may be shared).
            "selfplay_in_workers": round(play, 1),
            "finding_in_workers": round(find, 1),
        },
        "workers": args.workers,
        "nice": args.nice,
        "load_average_at_start": [round(x, 2) for x in load],
    }
    out = Path(args.out) / f"{key}.json"
    out.write_text(
        json.dumps({"made": note, "puzzles": puzzles}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(f"{key}: {len(puzzles)} puzzles from {args.games} games in {note['seconds']}", flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated keys")
    parser.add_argument("--games", type=int, default=60, help="self-play games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nice", type=int, default=10, help="added to the process's niceness")
    parser.add_argument("--out", default=str(_ROOT / "engine" / "puzzles"))
    args = parser.parse_args(argv)
    os.nice(args.nice)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    with multiprocessing.Pool(args.workers) as pool:
        for key in args.variants.split(","):
            make_set(find_variant(key.strip()).key, args, pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
