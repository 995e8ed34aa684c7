"""Time use of the engine: how much of its budget a level-6 move uses, and how often and by how much
it runs over, for this checkout's engine and an earlier commit's, in the same run.

Why it exists: issue 31 found the native search leaving about a quarter of its budget unused
(74-79%) while on a loaded machine 135 of 1,748 moves at 0.2 s ran more than 5% over.  A move's
time here is what the bot's worker spends on a request: from the moment it takes the request
(the game as :meth:`rules.Game.to_dict` gives it) to the chosen move's text, as
``bot.engine_player.choose`` does it; it is split into reading the game, the native search as
the C clock saw it, and the rest (the Python around the search).

How to run (the project's own install; the extension is built by ``pip install``)::

    python bench/time_use.py --before <commit> --movetime 0.2 --positions 150 --markdown

Method: positions from the engine's own games (:func:`engine.selfplay.selfplay_game`, fixed
depth, so the same for a seed on any machine; every fifth ply with at least two legal moves,
spread over the games), English and International.  Each engine runs in its own spawned worker
process (the earlier commit's ``engine`` and ``rules`` extracted and built as ``bench/arena.py``
does), which keeps its tables between requests as a bot worker does.  The two workers take turns
position by position, so a slow spell of the shared machine hits both alike.  Reported per
engine: the share of the budget used (median, 10th percentile, mean; and over the undecided
positions alone, those where the search found no forced win or loss), the moves more than 5% over
and the worst, the median depth, and the parts of the time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/time_use.py` without installing
    sys.path.insert(0, str(_ROOT))
if str(_ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(_ROOT / "bench"))

from arena import extract, import_engine_from  # noqa: E402
from tables import print_table  # noqa: E402

from engine.scores import WIN_BOUND  # noqa: E402
from engine.selfplay import selfplay_game  # noqa: E402
from rules import Game, find_variant  # noqa: E402

OVER_SHARE = 1.05
"""A move whose request took more than this share of its budget counts as over."""


class Spent(NamedTuple):
    """One request, timed in the worker (seconds)."""

    total: float
    """From taking the request to the move's text."""
    read: float
    """Reading the game (:meth:`rules.Game.from_dict`)."""
    search: float
    """The native search's own clock."""
    depth: int
    decided: bool
    """The search found a forced win or loss (it stops there, well inside its budget)."""


def _serve(source: str | None, requests: Any, answers: Any) -> None:
    """A worker: this checkout's engine, or the one extracted at ``source``."""
    import_engine_from(source)
    from engine import api
    from engine.api import Limits, best_move
    from rules.game import Game as WorkerGame

    clocks: list[float] = []
    native = api.native_search

    def timed_native(*args: Any, **kwargs: Any) -> Any:
        found = native(*args, **kwargs)
        clocks.append(found.seconds)
        return found

    api.native_search = timed_native
    while True:
        request = requests.get()
        if request is None:
            return
        record, movetime = request
        taken = time.monotonic()
        game = WorkerGame.from_dict(record)
        read = time.monotonic() - taken
        depths: list[Any] = []  # the iterations (engine.Iteration), last one deepest
        # As bot.engine_player.choose: the budget counts from taking the request, where the
        # engine knows how (issue 31's Limits.started).
        since = {"started": taken} if "started" in Limits.__dataclass_fields__ else {}
        found = best_move(
            game,
            Limits(movetime=movetime, level=6, **since),
            on_iteration=depths.append,
        )
        found.move.pdn()
        total = time.monotonic() - taken
        decided = abs(found.score) >= WIN_BOUND
        answers.put(Spent(total, read, clocks[-1], depths[-1].depth if depths else 0, decided))


class Worker:
    def __init__(self, name: str, source: str | None) -> None:
        self.name = name
        context = multiprocessing.get_context("spawn")
        self._requests: Any = context.Queue()
        self._answers: Any = context.Queue()
        self._process = context.Process(
            target=_serve, args=(source, self._requests, self._answers), daemon=True
        )
        self._process.start()

    def ask(self, game: Game, movetime: float) -> Spent:
        self._requests.put((game.to_dict(), movetime))
        spent: Spent = self._answers.get(timeout=60 + 10 * movetime)
        return spent

    def close(self) -> None:
        self._requests.put(None)
        self._process.join(10)


def positions(variant_key: str, count: int, seed: int) -> list[Game]:
    """``count`` positions of the engine's own games (at least two legal moves each), taken
    every few plies so that they spread over opening, middlegame and ending."""
    variant = find_variant(variant_key)
    found: list[Game] = []
    index = 0
    while len(found) < count:
        played = selfplay_game(variant, seed * 1000 + index)
        index += 1
        game = Game(variant)
        for ply, move in enumerate(played.moves):
            if ply % 5 == 2 and len(game.legal_moves()) >= 2 and len(found) < count:
                found.append(Game.from_dict(game.to_dict()))
            game.play(move)
    return found


def summary(name: str, spent: list[Spent], movetime: float) -> tuple[str, ...]:
    used = sorted(s.total / movetime for s in spent)
    open_ = sorted(s.total / movetime for s in spent if not s.decided)
    over = [s for s in spent if s.total > OVER_SHARE * movetime]
    worst = max(spent, key=lambda s: s.total)
    return (
        name,
        str(len(spent)),
        f"{statistics.median(used):.0%}",
        f"{used[len(used) // 10]:.0%}",
        f"{statistics.mean(used):.0%}",
        f"{len(open_)}",
        f"{statistics.median(open_):.0%}",
        f"{open_[len(open_) // 10]:.0%}",
        f"{len(over)}",
        f"{worst.total:.3f}",
        f"{statistics.median(s.depth for s in spent):g}",
        f"{statistics.median(s.read for s in spent) * 1000:.1f}",
        f"{statistics.median(s.search for s in spent) / movetime:.0%}",
        f"{statistics.median(s.total - s.read - s.search for s in spent) * 1000:.1f}",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier commit to compare with")
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--positions", type=int, default=150, help="per variant")
    parser.add_argument("--variants", default="english,international")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    games = [g for v in args.variants.split(",") for g in positions(v, args.positions, args.seed)]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="time-use-") as tmp:
        workers = [
            Worker(f"before ({args.before})", str(extract(args.before, Path(tmp)))),
            Worker("after (this checkout)", None),
        ]
        spent: dict[str, list[Spent]] = {w.name: [] for w in workers}
        try:
            for number, game in enumerate(games):
                order = workers if number % 2 == 0 else workers[::-1]
                for worker in order:
                    spent[worker.name].append(worker.ask(game, args.movetime))
        finally:
            for worker in workers:
                worker.close()
    header = (
        "engine",
        "moves",
        "used (median)",
        "used (10th pct)",
        "used (mean)",
        "undecided",
        "undecided: used (median)",
        "undecided: used (10th pct)",
        "over 5%",
        "worst s",
        "depth (median)",
        "read ms",
        "C search",
        "rest ms",
    )
    rows = [summary(name, found, args.movetime) for name, found in spent.items()]
    print_table(header, rows, args.markdown)
    for name, found in spent.items():
        over = [s for s in found if s.total > OVER_SHARE * args.movetime]
        parts = ", ".join(
            f"{s.total * 1000:.0f} = {s.read * 1000:.1f} + {s.search * 1000:.1f} + "
            f"{(s.total - s.read - s.search) * 1000:.1f}"
            for s in sorted(over, key=lambda s: -s.total)
        )
        print(f"\n{name}, moves over 5% (ms: total = read + search + rest): {parts or 'none'}")
    print(
        f"\n{len(games)} positions ({args.variants}; self-play seed {args.seed}), "
        f"{args.movetime:g} s each at level 6; load average {load_before:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end; {os.cpu_count()} CPUs; Python "
        f"{platform.python_version()}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
