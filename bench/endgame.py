"""Endgame databases (issue 17): build time, size and positions per variant family, and the
search's speed with and without probing.

    python bench/endgame.py                       # every family at its default size, fresh
    python bench/endgame.py --variant english --pieces 4
    python bench/endgame.py --search --dir DIR    # nodes/s with and without the tables in DIR

Builds go to a temporary directory unless ``--dir`` is given (an existing good file there is
read, not rebuilt: its time is then the load time).  Figures in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import endgame, native_search
from rules.fen import parse_fen
from rules.variants import VARIANTS, find_variant

SEARCH_POSITIONS = {
    # Endings just above the tables' size, where probes cut the tree off.
    "english": ["W:WK22,K23,K30:BK18,K1,K5", "B:W21,22,K30:B9,K1,K5", "W:W25,26,27:B5,6,7"],
    "international": ["W:WK28,K33,K50:BK5,K45", "W:W31,32,33:B18,19,20", "B:WK46,35:B5,15,16"],
}


def build(names: list[str], pieces: int | None, where: Path) -> None:
    print(f"{'variant':<14} {'pieces':>6} {'slices':>6} {'indices':>13} {'MB':>7} {'s':>7} dtc")
    for variant in endgame.table_variants(names, pieces):
        size = endgame.pieces_for(variant, pieces)
        took: list[float] = []
        started = time.monotonic()
        table = endgame.obtain(variant, size, where, on_build=took.append)
        elapsed = took[0] if took else time.monotonic() - started
        assert table is not None
        slices = table.slices()
        indices = sum(s[4] for s in slices)  # unused ones (two men on a square) included
        megabytes = endgame.path_for(variant, size, where).stat().st_size / 1e6
        print(
            f"{variant.key:<14} {size:>6} {len(slices):>6} {indices:>13,} {megabytes:>7.1f} "
            f"{elapsed:>7.1f} {max(s[5] for s in slices)}"
        )


def speed(where: Path, nodes: int) -> None:
    for key, fens in SEARCH_POSITIONS.items():
        variant = VARIANTS[key]
        table = endgame.obtain(variant, None, where, build=False)
        if table is None:
            print(f"{key}: no table in {where}")
            continue
        for label, attached in (("without", None), ("with", table)):
            native_search.set_endgame(variant, attached)
            total_nodes = 0
            total_seconds = 0.0
            depths = []
            for fen in fens:
                found = native_search.search(
                    parse_fen(fen, variant),
                    quiet=0,
                    past=(),
                    max_depth=64,
                    seconds=None,
                    nodes=nodes,
                    fresh=True,
                    exact=False,
                )
                total_nodes += found.nodes
                total_seconds += found.seconds
                depths.append(found.depth)
            print(
                f"{key:<14} {label:<8} {total_nodes / total_seconds / 1e6:6.2f} M nodes/s, "
                f"depths {depths}"
            )
        native_search.set_endgame(variant, None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--pieces", type=int, default=None)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--search", action="store_true", help="measure nodes/s instead")
    parser.add_argument("--nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    for name in args.variant:
        find_variant(name)
    if args.search:
        if args.dir is None:
            parser.error("--search needs --dir with built tables")
        speed(args.dir, args.nodes)
        return 0
    if args.dir is not None:
        build(args.variant, args.pieces, args.dir)
    else:
        with tempfile.TemporaryDirectory() as where:
            build(args.variant, args.pieces, Path(where))
    return 0


if __name__ == "__main__":
    sys.exit(main())
