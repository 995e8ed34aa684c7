"""Tournament pairing benchmark: a 200-player Swiss over 9 rounds, paired and ranked.

Why it exists: issue 29 asks for the pairing time of 200 players and 9 rounds.  The service
pairs a round in the same transaction that records its last result, and rebuilds the standings
after every result, so both must stay well under the time a player notices.  This runs the
pure package (``bot.tournaments``) the service calls, with nothing around it.

How to run (the project's own dependencies are enough; a few seconds)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/pairing.py                 # 200 players, 9 rounds, seed 1
    /tmp/bvenv/bin/python bench/pairing.py --markdown      # as in docs/BENCHMARKS.md

Method: ``--players`` entrants rated 2400 down in steps of 2 (pairing numbers by rating), each
with a hidden strength (the rating plus noise, seeded by ``--seed``); every game's result
follows the strengths by the Elo formula, with 20% of the decided games turned into draws and 1%
into forfeits (which spend no colour, as in the bot). Each round is paired with ``pair_swiss``
from every earlier result, timed ``--repeat`` times in CPU time (the median is reported, with
the slowest), then its results are played, and the standings (``standings``: points, Buchholz,
median Buchholz, Sonneborn-Berger, head-to-head, performance ratings, the crosstable's cells)
are timed the same way. Each round also reports what the pairing gave away: games between
players due the same colour, and players paired outside their score group (floaters). The script
exits 1 if any round repeats a pairing or breaks the colour rules (a check, not a timing).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.swiss_rules import breaches, quality  # noqa: E402

from bot.tournaments.model import Entrant, Format, Pairing, Result  # noqa: E402
from bot.tournaments.standings import standings  # noqa: E402
from bot.tournaments.swiss import pair_swiss  # noqa: E402


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """Median and slowest milliseconds of CPU time of ``repeat`` calls, and the last call's
    answer.  CPU time, not wall time: on a shared machine another process's turn on the core
    would otherwise count as ours."""
    times, answer = [], None
    for _ in range(repeat):
        start = time.process_time()
        answer = call()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), max(times), answer


def play(pairings: list[Pairing], strength: dict[int, float], rng: random.Random) -> list[Result]:
    results = []
    for p in pairings:
        if p.black is None:
            results.append(Result(p.round, p.white, None, 1.0, 0.0))
            continue
        expected = 1 / (1 + 10 ** ((strength[p.black] - strength[p.white]) / 400))
        white = 1.0 if rng.random() < expected else 0.0
        if rng.random() < 0.2:
            white = 0.5
        forfeit = white != 0.5 and rng.random() < 0.01
        results.append(Result(p.round, p.white, p.black, white, 1.0 - white, forfeit=forfeit))
    return results


def audit(pairings: list[Pairing], before: list[Result]) -> tuple[int, int, list[str]]:
    """Floaters, same-colour-due games, and rule breaches of one round."""
    games = [(p.white, p.black) for p in pairings]
    across, clashes = quality(games, before)
    number = pairings[0].round if pairings else 0
    return clashes, 2 * across, [f"round {number}: {found}" for found in breaches(games, before)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    entrants = [Entrant(10_000 + n, f"p{n}", 2400.0 - 2 * n, n) for n in range(1, args.players + 1)]
    strength = {e.id: e.rating + rng.gauss(0, 150) for e in entrants}
    results: list[Result] = []
    rows, problems = [], []
    for number in range(1, args.rounds + 1):
        before = list(results)
        pair_ms, pair_max, answer = timed(
            partial(pair_swiss, entrants, before, number), args.repeat
        )
        assert isinstance(answer, list)
        pairings: list[Pairing] = answer
        clashes, floaters, found = audit(pairings, results)
        problems += found
        results += play(pairings, strength, rng)
        ranked = partial(standings, Format.SWISS, entrants, list(results), rounds=args.rounds)
        table_ms, table_max, _ = timed(ranked, args.repeat)
        rows.append((number, pair_ms, pair_max, table_ms, table_max, clashes, floaters))
    header = (
        "| round | pairing ms (median) | slowest | standings ms (median) | slowest "
        "| same colour due | floaters |"
    )
    lines = [header, "|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [
        f"| {n} | {p:.1f} | {pm:.1f} | {t:.1f} | {tm:.1f} | {c} | {f} |"
        for n, p, pm, t, tm, c, f in rows
    ]
    total = sum(r[1] for r in rows)
    lines.append(
        f"\n{args.players} players, {args.rounds} rounds, seed {args.seed}, {args.repeat} runs "
        f"a round: all rounds paired in {total:.0f} ms (medians added up); "
        f"{len(problems)} rule breaches."
    )
    text = "\n".join(lines)
    print(text if args.markdown else text.replace("|", " "))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
