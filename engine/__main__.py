"""``python -m engine --variant V [--fen FEN] --movetime MS [--level L] [--info] [--no-book]``.

Prints the chosen move (PDN) as the last line; with ``--info``, one line per completed iteration
before it: depth, score, nodes, nodes per second and the principal variation.  At levels 5 and 6
the opening book answers the positions it holds, without a search (so without info lines);
``--no-book`` searches them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rules.fen import FenError, parse_fen
from rules.game import Game
from rules.variants import find_variant

from .api import Limits, best_move, to_moves
from .scores import Iteration, describe_score


def _variant(name: str):  # type: ignore[no-untyped-def]
    try:
        return find_variant(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="Print the computer's move for a position."
    )
    parser.add_argument("--variant", required=True, type=_variant)
    parser.add_argument("--fen", help="position (default: the variant's start)")
    parser.add_argument(
        "--movetime", type=int, required=True, help="time limit in milliseconds (level 6 budget)"
    )
    parser.add_argument("--level", type=int, default=6, choices=range(1, 7), metavar="1-6")
    parser.add_argument("--depth", type=int, help="maximum depth in plies")
    parser.add_argument("--seed", type=int, default=0, help="seed for the weaker levels' choices")
    parser.add_argument("--info", action="store_true", help="print every completed iteration")
    parser.add_argument(
        "--no-book", action="store_true", help="search even where the opening book has the move"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    variant = args.variant
    if args.movetime <= 0:
        print("error: --movetime must be positive", file=sys.stderr)
        return 2
    try:
        start = parse_fen(args.fen, variant) if args.fen else None
    except FenError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    game = Game(variant, start)
    if game.is_over:
        print(f"error: no move to make ({game.status_line()})", file=sys.stderr)
        return 1

    def show(it: Iteration) -> None:
        pv = " ".join(m.pdn() for m in to_moves(game.position, it.pv))
        print(
            f"depth {it.depth} score {describe_score(it.score)} nodes {it.nodes} "
            f"nps {it.nps} time {it.seconds * 1000:.0f}ms pv {pv}"
        )

    limits = Limits(
        movetime=args.movetime / 1000,
        level=args.level,
        depth=args.depth,
        seed=args.seed,
        book=not args.no_book,
    )
    result = best_move(game, limits, show if args.info else None)
    print(result.move.pdn())
    return 0


if __name__ == "__main__":
    sys.exit(main())
