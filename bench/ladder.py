"""The levels' ladder: each level of the computer opponent against the next, from a beginner up,
for approximate ratings of levels 1 to 6.

Why it exists: issue 17 asks for the six levels to be calibrated, with ratings measured by a
ladder and written in docs/COMMANDS.md, and for level 1 to still lose to a beginner who sees
one-move captures.  The beginner is :mod:`engine.beginner`; the levels are ``engine.best_move``
at ``Limits(level=L)`` exactly as the bot plays them.

How to run (the project's own install)::

    python bench/ladder.py                                   # English, 40 games a rung, 0.5 s
    python bench/ladder.py --variants english,international --games 40 --movetime 0.5 --markdown

Method:

* **Rungs.**  Beginner against level 1, then level L against level L + 1 up to 6.  Each rung is
  a match like ``bench/arena.py``'s: its openings (English: the ACF three-move ballots; the
  others: random starts of ``--opening-plies`` plies), each played with both colours, the
  referee (``rules.Game``) ending every game, a game still running after ``--max-plies`` plies
  adjudicated a draw.
* **Players in processes of their own**, so each level keeps its own transposition table, as
  each of the bot's worker processes does, and only the side to move thinks.  A level gets
  ``--movetime`` seconds as the bot's level-6 budget (``ENGINE_MOVE_TIME_SECONDS``; each level
  uses its share of it) and a fresh seed per move, as the bot gives it.
* **Ratings.**  Each rung's score gives an Elo difference with a 95% interval (arena's
  formula); the ladder adds them up from the beginner, who is put at 1000.  Only differences are
  measured: the anchor is a convention, not a federation rating.  A rung won by every game (a
  sweep) has no finite estimate: its one-sided 95% bound stands in (the step is at least that),
  and every rating above it is a lower bound, shown ">=".
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/ladder.py` without installing
    sys.path.insert(0, str(_ROOT))
if str(_ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(_ROOT / "bench"))

from arena import openings_for, parse_variants  # noqa: E402
from elo import elo, elo_interval, shown  # noqa: E402

from rules import Color, Game, Move  # noqa: E402
from rules.variants import Variant  # noqa: E402

BEGINNER = 0
"""The beginner's rung number (levels are 1 to 6)."""
ANCHOR = 1000.0
"""The beginner's rating, by convention."""


def name(level: int) -> str:
    return "beginner" if level == BEGINNER else f"level {level}"


@dataclass(frozen=True)
class Request:
    variant: str
    moves: tuple[str, ...]
    movetime: float
    seed: int


def _serve(level: int, requests: Any, answers: Any) -> None:
    """A player's loop: replays the game and answers its move as PDN (or the exception)."""
    from engine import Limits, best_move
    from engine.beginner import beginner_move
    from rules import find_variant

    while True:
        request = requests.get()
        if request is None:
            return
        try:
            game = Game(find_variant(request.variant))
            for text in request.moves:
                game.play(text)
            if level == BEGINNER:
                move = beginner_move(game, random.Random(request.seed))
            else:
                limits = Limits(movetime=request.movetime, level=level, seed=request.seed)
                move = best_move(game, limits).move
            answers.put(move.pdn())
        except Exception as exc:
            answers.put(RuntimeError(f"{name(level)}: {exc!r}"))


class Player:
    """One level (or the beginner) in its worker process."""

    def __init__(self, level: int) -> None:
        self.level = level
        context = multiprocessing.get_context("spawn")
        self._requests: Any = context.Queue()
        self._answers: Any = context.Queue()
        self._process = context.Process(
            target=_serve, args=(level, self._requests, self._answers), daemon=True
        )
        self._process.start()

    def choose(self, game: Game, movetime: float, seed: int) -> Move:
        request = Request(game.variant.key, tuple(m.pdn() for m in game.moves), movetime, seed)
        self._requests.put(request)
        answer = self._answers.get(timeout=60 + 10 * movetime)
        if isinstance(answer, Exception):
            raise answer
        for move in game.legal_moves():
            if move.pdn() == answer:
                return move
        raise RuntimeError(f"{name(self.level)} played {answer}, which is not legal here")

    def close(self) -> None:
        self._requests.put(None)
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()


@dataclass
class Rung:
    variant: Variant
    weaker: int
    stronger: int
    results: list[float]
    """The stronger side's points per game."""
    adjudicated: int
    seconds: float


def play_rung(variant: Variant, weaker: int, args: argparse.Namespace, rng: random.Random) -> Rung:
    stronger = weaker + 1
    players = {weaker: Player(weaker), stronger: Player(stronger)}
    results: list[float] = []
    adjudicated = 0
    started = time.perf_counter()
    try:
        number = 0
        for opening in openings_for(variant, args):
            for colour in (Color.WHITE, Color.BLACK):  # the stronger side's colour
                if number == args.games:
                    break
                number += 1
                game = Game(variant)
                for text in opening.moves:
                    game.play(text)
                while not game.is_over and game.ply < args.max_plies:
                    mover = players[stronger if game.turn is colour else weaker]
                    game.play(mover.choose(game, args.movetime, rng.getrandbits(32)))
                if not game.is_over:
                    adjudicated += 1
                winner = game.outcome.winner if game.outcome is not None else None
                results.append(0.5 if winner is None else 1.0 if winner is colour else 0.0)
                print(
                    f"{variant.key} {name(weaker)} v {name(stronger)} game {number}: "
                    f"{name(stronger)} scored {results[-1]:g}",
                    file=sys.stderr,
                )
    finally:
        for player in players.values():
            player.close()
    return Rung(variant, weaker, stronger, results, adjudicated, time.perf_counter() - started)


def sweep_bound(games: int) -> float:
    """The Elo step a rung won by all of its ``games`` shows at 95% confidence: the lowest score
    per game under which a clean sweep still has a 5% chance, 0.05 ** (1 / games) (draws counted
    as losses, so it is an underestimate)."""
    return elo(0.05 ** (1 / games))


def step_of(results: list[float]) -> tuple[float, bool]:
    """The rung's Elo step for the ratings, and whether it is only a lower bound (a sweep, which
    has no finite estimate; its 95% bound stands in)."""
    value, _, _ = elo_interval(results)
    if math.isfinite(value):
        return value, False
    if value > 0:
        return sweep_bound(len(results)), True
    return -sweep_bound(len(results)), True


def report(rungs: list[Rung], args: argparse.Namespace) -> str:
    columns = ("variant", "rung", "games", "stronger +/=/-", "score", "Elo step (95%)", "rating")
    lines = ["| " + " | ".join(columns) + " |", "|---|---|" + "---:|" * (len(columns) - 2)]
    rating: dict[str, float] = {}
    bounded: dict[str, str] = {}
    for rung in rungs:
        key = rung.variant.key
        base = rating.setdefault(key, args.base)
        value, low, high = elo_interval(rung.results)
        step, bound = step_of(rung.results)
        if bound:
            bounded[key] = ">=" if step > 0 else "<="
        rating[key] = base + step
        wins, draws = rung.results.count(1.0), rung.results.count(0.5)
        losses = len(rung.results) - wins - draws
        shown_step = f"{shown(value)} ({shown(low)} to {shown(high)})"
        if bound:
            shown_step = f"sweep: {'>=' if step > 0 else '<='} {shown(step)}"
        lines.append(
            f"| {key} | {name(rung.weaker)} v {name(rung.stronger)} | {len(rung.results)} | "
            f"{wins}/{draws}/{losses} | {100 * sum(rung.results) / len(rung.results):.0f}% | "
            f"{shown_step} | {bounded.get(key, '')}{rating[key]:.0f} |"
        )
    lines += [
        "",
        f"{args.movetime:g} s per move as the level-6 budget (each level uses its share); "
        f"openings played with both colours; a draw adjudicated after {args.max_plies} plies "
        f"({sum(r.adjudicated for r in rungs)} were). Ratings: {name(rungs[0].weaker)} at "
        f"{args.base:g}, each level the one below plus its step; a sweep (every game won) has "
        f"no estimate, so its 95% lower bound stands in and the ratings above it are lower "
        f"bounds (>=). {sum(r.seconds for r in rungs) / 60:.0f} minutes.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=parse_variants, default=parse_variants("english"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.5)
    parser.add_argument("--rungs", default="0-5", help="weaker sides, e.g. 0-5 or 3,4")
    parser.add_argument(
        "--base",
        type=float,
        default=ANCHOR,
        help="the rating of the first rung's weaker side (the beginner's is 1000; give a "
        "level's measured rating to go on from it)",
    )
    parser.add_argument("--max-plies", type=int, default=250)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if "-" in args.rungs:
        low, high = (int(part) for part in args.rungs.split("-"))
        weakers = list(range(low, high + 1))
    else:
        weakers = [int(part) for part in args.rungs.split(",")]
    rng = random.Random(args.seed)
    rungs = [play_rung(v, w, args, rng) for v in args.variants for w in weakers]
    print(report(rungs, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
