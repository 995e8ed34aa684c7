"""PDN import benchmark: games read per second by the import reader, and the time of the worst
files it must refuse.

Why it exists: issue 30 asks for the import speed (games per second).  ``/import`` reads a
player's file in a thread while the bot serves everyone else, so a file of the largest size
accepted (1 MB) must be read, or refused, in about a second, and a hostile file never take
longer than the reader's bound (``rules.pdn_import.MAX_SECONDS``).

How to run (the project's own dependencies are enough; a few seconds)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/pdn_import.py              # 300 games a variant, seed 1
    /tmp/bvenv/bin/python bench/pdn_import.py --markdown   # as in docs/BENCHMARKS.md

Method: ``--games`` games of each variant are played by a seeded random choice of legal moves
(up to ``--plies`` plies, the length of a long real game) and written by ``rules.write_game``,
each with an Event tag, a remark line between its tags and moves, and every third game's
square numbers padded (``1- 7``), so the recovery paths run too.  The whole file is read by
``read_import`` (parsed and every game replayed) ``--repeat`` times in CPU time, the median
reported as games per second; then the parse alone (``count=0``: a listing's cost before any
game is replayed).  Hostile files of about 1 MB (a thousand games past the bound, variations
nested ten thousand deep, one word of a megabyte, short padded moves filling the file) are each
timed once, with what the reader answered.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from rules import Game, find_variant, write_game  # noqa: E402
from rules.pdn_import import ImportRefused, read_import  # noqa: E402

VARIANTS = ("english", "international", "russian", "brazilian", "pool", "dame")


def sample_file(variant: str, games: int, plies: int, seed: int) -> str:
    rng = random.Random(seed)
    texts = []
    for n in range(games):
        game = Game(find_variant(variant))
        for _ in range(plies):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        text = write_game(game, {"Event": f"Bench {n}"})
        head, _blank, moves = text.partition("\n\n")
        if n % 3 == 0:  # the result (the last word) keeps its form: "1-0" is no move
            body, result = moves.rstrip().rsplit(" ", 1)
            moves = (
                re.sub(r"(?<![0-9.])([0-9])(?=[-x])|(?<=[-x])([0-9])(?![0-9])", r" \1\2", body)
                + f" {result}\n"
            )
        texts.append(f"{head}\nA remark between the tags and the moves\n\n{moves}")
    return "\n".join(texts)


def timed(call: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median seconds of CPU time of ``repeat`` calls, and the last answer."""
    times, answer = [], None
    for _ in range(repeat):
        start = time.process_time()
        answer = call()
        times.append(time.process_time() - start)
    return statistics.median(times), answer


def hostile_files() -> dict[str, str]:
    return {
        "1,001+ games": '[Event "x"]\n1. 11-15 *\n' * 40_000,
        "variations 10,000 deep": "1. 11-15 " + "(23-19 " * 10_000 + ") " * 10_000 + "*\n",
        "one word of 1 MB": "1-" * 499_999,
        "padded moves filling 1 MB": "1- 2 " * 199_999,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    rows = []
    for variant in VARIANTS:
        text = sample_file(variant, args.games, args.plies, args.seed)
        seconds, answer = timed(lambda t=text: read_import(t, seconds=600), args.repeat)
        assert not isinstance(answer, Exception)
        read = answer.games  # type: ignore[attr-defined]
        refused = [g.refusal for g in read if not g.ok]
        if refused:
            print(f"{variant}: a sample game was refused: {refused[0]}", file=sys.stderr)
            return 1
        parse, _ = timed(lambda t=text: read_import(t, count=0, seconds=600), args.repeat)
        size = len(text.encode())
        rows.append((variant, len(read), size, len(read) / seconds, args.games / parse))

    hostile = []
    for name, text in hostile_files().items():
        start = time.process_time()
        try:
            file = read_import(text)
            what = f"read: {len(file.readable)} of {file.total} games importable"
        except ImportRefused as refused:
            what = f"refused: {str(refused)[:70]}"
        hostile.append((name, len(text.encode()), time.process_time() - start, what))

    if args.markdown:
        print("| variant | games | file | games/s (read and replayed) | games/s (parsed only) |")
        print("|---|---:|---:|---:|---:|")
        for variant, games, size, rate, parse_rate in rows:
            print(
                f"| {variant} | {games} | {size / 1000:.0f} kB | {rate:,.0f} | {parse_rate:,.0f} |"
            )
        print()
        print("| hostile file | size | CPU s | answer |")
        print("|---|---:|---:|---|")
        for name, size, seconds, what in hostile:
            print(f"| {name} | {size / 1_000_000:.2f} MB | {seconds:.2f} | {what} |")
    else:
        for variant, games, size, rate, parse_rate in rows:
            print(
                f"{variant:14} {games:5} games {size / 1000:7.0f} kB {rate:8,.0f} games/s "
                f"(parse only {parse_rate:,.0f})"
            )
        for name, size, seconds, what in hostile:
            print(f"{name:28} {size / 1_000_000:5.2f} MB {seconds:6.2f} s  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
