"""How the engine plays the endings a larger endgame table holds (issue 31): positions of the
largest table's full piece count, played out by the native search (classic evaluation, a fresh
table each move) on both sides at a fixed time a move, once with each table size attached, under
the variant's whole rules (the no-progress count, repetitions, endgame counts).  A won root too
large to measure within a move has its distances computed in the background, as in the bot;
here the game waits for them before its next move (the bot plays on meanwhile, and they come
within 10-30 s for 5 pieces, 1-2 minutes for 6: the cost is measured apart, in
docs/BENCHMARKS.md), so the figures are those of a settled engine.

    python bench/endgame_play.py --variant english --dir DIR --sizes 0,5,6 --positions 12

Positions are drawn at random from a few materials (slices) only the largest table holds whose
longest conversion is long, first among those whose wins the search believes (no counting rule
governs them, their conversions fit the no-progress count), then among the others (there the
search believes the table's draws only; in the flying-king variants that is every material): as
many won for the side to move by the table, at least
``--far`` plies from their conversion, as drawn; all quiet (no capture for either side).  Random
won positions are mostly easy (a capture, a short run), which any search converts.  Per size: how
many won positions were won (and in how many plies, median), how many drawn ones stayed drawn.
Size 0 is no table.  Tables are read from ``--dir`` (build them first: ``python -m engine.endgame
build``).  Figures in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import endgame, native_search
from engine._core import EndgameTable
from engine.api import repetition_history, to_move
from engine.endgame import DRAW, WIN
from rules.game import Game
from rules.position import Position
from rules.variants import Color, Variant, find_variant

MOST_PLIES = 400
"""A game still running after this many plies counts as not won (the no-progress counts end
every real one long before)."""


def materials(table: EndgameTable, far: int, count: int, rng: random.Random) -> list[int]:
    """Up to ``count`` slices of ``table``'s full piece count whose longest conversion is at least
    ``far`` plies (the hard ones), at random: first those whose wins the search believes, then the
    others (where a counting rule or a conversion longer than the no-progress count may be
    reached, the table gives the search its draws only: all of them in the flying-king
    variants)."""
    full = [
        (number, dtc, trusted)
        for number, (men, kings, opp_men, opp_kings, _size, dtc, trusted) in enumerate(
            table.slices()
        )
        if men + kings + opp_men + opp_kings == table.max_pieces
    ]
    believed = [n for n, dtc, trusted in full if trusted and dtc >= far]
    others = [n for n, dtc, trusted in full if not trusted and dtc >= far]
    rng.shuffle(believed)
    rng.shuffle(others)
    return (believed + others)[:count]


def sample(
    table: EndgameTable,
    variant: Variant,
    slices: list[int],
    far: int,
    count: int,
    rng: random.Random,
) -> tuple[list[Position], list[Position]]:
    """``count`` won positions for White to move, at least ``far`` plies from their conversion
    when the slice's wins are believed, and ``count`` drawn ones, all quiet, from ``slices`` in
    turn (the distances of one slice pair computed at a time)."""
    won: list[Position] = []
    drawn: list[Position] = []
    every = table.slices()
    for turn, number in enumerate(slices):
        size, trusted = every[number][4], every[number][6]
        share = (count * (turn + 1)) // len(slices)
        tries = 0
        while (len(won) < share or len(drawn) < share) and tries < 200_000:
            tries += 1
            state = table.position(number, rng.randrange(size))
            if state is None:
                continue
            value = table.probe(*state)
            wanted = won if value == WIN else drawn if value == DRAW else None
            if wanted is None or len(wanted) >= share:
                continue
            own_men, own_kings, opp_men, opp_kings, _side = state
            position = Position(variant, own_men, own_kings, opp_men, opp_kings, Color.WHITE)
            if not quiet(position):
                continue
            if value == WIN and trusted and (table.distance(*state) or 0) < far:
                continue
            wanted.append(position)
    return won, drawn


def quiet(position: Position) -> bool:
    """Whether neither side could capture in ``position``."""
    turned = Position(
        position.variant,
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.turn.other,
    )
    return not any(m.is_capture for p in (position, turned) for m in p.legal_moves())


def play_out(variant: Variant, start: Position, seconds: float) -> Game:
    """The engine against itself from ``start`` to the game's end (or :data:`MOST_PLIES`)."""
    game = Game(variant, start)
    while not game.is_over and game.ply < MOST_PLIES:
        past, since_progress = repetition_history(game)
        found = native_search.search(
            game.position,
            quiet=since_progress,
            past=past,
            max_depth=64,
            seconds=seconds,
            nodes=None,
            fresh=True,
            exact=False,
        )
        assert found.move is not None
        if not native_search.wait_for_distances(variant):  # else again, with its distances
            game.play(to_move(game.position, found.move))
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--dir", type=Path, required=True, help="folder of built tables")
    parser.add_argument("--sizes", default="0,5,6", help="table sizes to compare (0: none)")
    parser.add_argument("--positions", type=int, default=24, help="won ones, and as many drawn")
    parser.add_argument("--materials", type=int, default=4, help="slices to draw them from")
    parser.add_argument("--far", type=int, default=20, help="plies from conversion, at least")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    variant = find_variant(args.variant)
    sizes = [int(s) for s in args.sizes.split(",")]
    tables: dict[int, EndgameTable | None] = {0: None}
    for size in sizes:
        if size:
            tables[size] = endgame.obtain(variant, size, args.dir, build=False)
            if tables[size] is None:
                parser.error(f"no {size}-piece table of {variant.key} in {args.dir}")
    largest = tables[max(sizes)]
    assert largest is not None
    rng = random.Random(args.seed)
    slices = materials(largest, args.far, args.materials, rng)
    won, drawn = sample(largest, variant, slices, args.far, args.positions, rng)
    names = ", ".join("{}+{}k v {}+{}k".format(*largest.slices()[n][:4]) for n in slices)
    print(
        f"{variant.key}: {len(won)} won and {len(drawn)} drawn positions of {max(sizes)} pieces "
        f"({names}; men+kings), {args.movetime} s a move"
    )
    for size in sizes:
        native_search.set_endgame(variant, tables[size])
        started = time.monotonic()
        wins = [play_out(variant, p, args.movetime) for p in won]
        converted = [g.ply for g in wins if g.outcome and g.outcome.winner is Color.WHITE]
        held = sum(
            1
            for g in (play_out(variant, p, args.movetime) for p in drawn)
            if g.outcome is not None and g.outcome.winner is None
        )
        plies = f"median {statistics.median(converted):.0f} plies" if converted else "-"
        print(
            f"  table {size or 'none':>4}: won {len(converted)}/{len(won)} ({plies}), "
            f"drawn held {held}/{len(drawn)}  [{time.monotonic() - started:.0f} s]"
        )
    native_search.set_endgame(variant, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
