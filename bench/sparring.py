"""Matches at equal time per move against the strongest public engines: Scan 2.0 (International)
and GuiNN 2.06 (English), with Elo and its 95% interval, depths, time use and where games are
decided.

Why it exists: issue 31 judges the engine by how it holds against these two, at 0.2 s and 1 s
per move; every engine change of the issue is measured here, on its own branch (``--ours-root``).

How to run (the two programs built as ``/work/shared/engines/README.md`` says)::

    .venv/bin/python bench/sparring.py --opponent scan --games 34 --movetime 0.2 --markdown
    .venv/bin/python bench/sparring.py --opponent guinn --games 34 --movetime 1 --pdn /tmp/g
    .venv/bin/python bench/sparring.py --opponent scan --ours-root /work/wt/search --no-book

Method (the "Matching fairly" rules of that README):

* **Players.**  Ours is ``engine.best_move`` at level 6 with ``Limits(movetime=...)`` in a worker
  process (``bench/arena.py``'s :class:`arena.Player`); ``--ours-root DIR`` runs the ``engine``
  and ``rules`` packages of another checkout instead (its native core must be built there:
  ``pip install -e .`` in it), so each branch can be measured.  Scan and GuiNN run in their own
  processes (``bench/sparring_engines.py``).  One game at a time; only the side to move thinks
  (neither program ponders: they are only sent ``go``).
* **Time.**  Each side gets ``--movetime`` per move.  Ours is timed in its worker around the
  search; theirs from the command to the answer (Scan never stops before depth 12, so its real
  time is what counts).  The time shares are over the moves that were searched: more than one
  legal move and not played from a book (or, for Scan, chosen by its bitbases without a search).
* **Referee, openings, Elo.**  ``rules.Game`` checks every move (one it does not list stops the
  run) and ends every game by the project's rules; a game still running after ``--max-plies``
  is adjudicated a draw and counted apart.  Openings as ``bench/arena.py`` draws them (English:
  ACF three-move ballots; International: distinct random starts of ``--opening-plies`` plies
  fixed by ``--seed``), each played with both colours.  Elo with the 95% Wilson interval on the
  score fraction (``bench/elo.py``), honest at scores near 0%.
* **Where games are decided.**  For a decisive game, the first ply from which the winner's own
  scores stayed at or above one and a half men (its own units: 150 for ours and Scan, 285 for
  GuiNN) to the end, and the pieces on the board then; plus the ply the game ended.
* **Book.**  Scan's book is on unless ``--no-book``, which also turns ours off
  (``Limits(book=False)``, for an engine that has the switch).
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/sparring.py` without installing
    sys.path.insert(0, str(_ROOT))
if str(_ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(_ROOT / "bench"))

from arena import OURS, ArenaError, Contender, Match, Player, Turn, play_match  # noqa: E402
from elo import shown, wilson_interval  # noqa: E402
from sparring_engines import GUINN, SCAN, GuinnPlayer, ScanPlayer  # noqa: E402

from rules import Color, find_variant, write_game  # noqa: E402

VARIANT = {"scan": "international", "guinn": "english"}
OUR_MAN = 100
"""Our scores are centimen."""
DECIDED_MEN = 1.5
"""A game is decided once the winner's scores stay at or above this many men."""
OVER_SHARE = 1.05
"""A move of ours over the budget by more than 5% is counted as an overrun."""


# -- what the games say ---------------------------------------------------------------------------


def searched(turns: Sequence[Turn], ours: bool) -> list[Turn]:
    """The side's moves that were searched: a choice, and not a book (or bitbase) move."""
    return [t for t in turns if t.ours is ours and t.legal > 1 and not t.answer.book]


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def decided_at(turns: Sequence[Turn], winner_ours: bool, man: int, start: int) -> int:
    """The ply (counted from the game's start; ``start`` plies of opening) from which the
    winner's own searched scores stayed at or above :data:`DECIDED_MEN` men, or the game's last
    ply.  Forced and book moves carry no search score (Scan answers 0) and are passed over."""
    ply = start + len(turns)
    for index in range(len(turns) - 1, -1, -1):
        turn = turns[index]
        if turn.ours is not winner_ours or turn.answer.score is None:
            continue
        if turn.legal == 1 or turn.answer.book:  # no search, so no score worth the name
            continue
        if turn.answer.score < DECIDED_MEN * man:
            break
        ply = start + index
    return ply


@dataclass
class Summary:
    """One match's figures, as the report prints them."""

    opponent: str
    variant: str
    games: int
    wdl: tuple[int, int, int]
    score: float
    elo: tuple[float, float, float]
    adjudicated: int
    depth: tuple[float | None, float | None]
    share: tuple[tuple[float | None, float | None], tuple[float | None, float | None]]
    """(median, mean) share of the budget used, ours then theirs."""
    overruns: tuple[int, int, float]
    """Our moves over the budget by more than 5%: count, of how many, the worst in seconds."""
    their_worst: float
    unsearched: tuple[int, int]
    """Moves played without a search though there was a choice (book, bitbase), ours/theirs."""
    nps: tuple[float | None, float | None]
    decided: tuple[int, float | None, float | None, float | None]
    """Decisive games: count, median ply decided, median pieces left then, median last ply."""


def summarize(match: Match, opponent: str, their_man: int, args: argparse.Namespace) -> Summary:
    moves = [t for game in match.turns for t in game]
    mine, theirs = searched(moves, True), searched(moves, False)

    def share(side: list[Turn]) -> tuple[float | None, float | None]:
        values = [t.answer.seconds / args.movetime for t in side]
        return median(values), (statistics.fmean(values) if values else None)

    def depth(side: list[Turn]) -> float | None:
        return median([t.answer.depth for t in side if t.answer.depth is not None])

    def nps(side: list[Turn]) -> float | None:
        seconds = sum(t.answer.seconds for t in side)
        return sum(t.answer.nodes or 0 for t in side) / seconds if seconds else None

    our_times = [t.answer.seconds for t in moves if t.ours]
    over = [s for s in our_times if s > OVER_SHARE * args.movetime]
    decisive = []
    for game, turns, result in zip(match.games, match.turns, match.results, strict=True):
        if result == 0.5:
            continue
        start = len(game.moves) - len(turns)
        ply = decided_at(turns, result == 1.0, OUR_MAN if result == 1.0 else their_man, start)
        position = game.positions[ply]
        pieces = bin(position.white_men | position.white_kings).count("1") + bin(
            position.black_men | position.black_kings
        ).count("1")
        decisive.append((ply, pieces, len(game.moves)))
    return Summary(
        opponent=opponent,
        variant=match.variant.key,
        games=len(match.results),
        wdl=match.wdl,
        score=sum(match.results) / len(match.results),
        elo=wilson_interval(match.results),
        adjudicated=match.adjudicated,
        depth=(depth(mine), depth(theirs)),
        share=(share(mine), share(theirs)),
        overruns=(len(over), len(our_times), max(our_times, default=0.0)),
        their_worst=max((t.answer.seconds for t in moves if not t.ours), default=0.0),
        unsearched=tuple(  # type: ignore[arg-type]
            sum(1 for t in moves if t.ours is side and t.legal > 1 and t.answer.book)
            for side in (True, False)
        ),
        nps=(nps(mine), nps(theirs)),
        decided=(
            len(decisive),
            median([d[0] for d in decisive]),
            median([d[1] for d in decisive]),
            median([d[2] for d in decisive]),
        ),
    )


# -- the run --------------------------------------------------------------------------------------


def opponent_for(args: argparse.Namespace) -> Contender:
    book = not args.no_book
    if args.opponent == "scan":
        return ScanPlayer(args.scan, book=book)
    return GuinnPlayer(args.guinn, book=book)


def ours_for(args: argparse.Namespace) -> Player:
    source = None
    if args.ours_root is not None:
        root = args.ours_root.resolve()
        cores = sorted((root / "engine").glob("_core*.so"))
        if not cores:
            raise ArenaError(f"{root}: no built engine/_core*.so (run pip install -e . there)")
        sources = list((root / "engine" / "core").glob("*.[ch]"))
        newest = max((p.stat().st_mtime for p in sources), default=0.0)
        if cores[-1].stat().st_mtime < newest:
            raise ArenaError(
                f"{cores[-1]} is older than engine/core: rebuild it (pip install -e .)"
            )
        source = str(root)
    return Player("ours", OURS, source=source, book=not args.no_book)


def run(args: argparse.Namespace) -> tuple[Match, str, int]:
    variant = find_variant(VARIANT[args.opponent])
    theirs = opponent_for(args)
    ours = ours_for(args)
    match = Match(variant)
    try:
        play_match(variant, ours, theirs, args, match)
    except KeyboardInterrupt:  # Ctrl-C or TERM (see main): report the finished games
        print(f"interrupted: reporting the {len(match.results)} finished games", file=sys.stderr)
        if not match.results:
            raise
    finally:
        ours.close()
        theirs.close()
    return match, theirs.name, getattr(theirs, "man", 100)


def write_pdn(match: Match, opponent: str, args: argparse.Namespace) -> None:
    args.pdn.mkdir(parents=True, exist_ok=True)
    for i, (game, colour) in enumerate(zip(match.games, match.our_colours, strict=True), 1):
        white, black = ("ours", opponent) if colour is Color.WHITE else (opponent, "ours")
        tags = {"Event": f"sparring {args.movetime:g} s/move", "White": white, "Black": black}
        name = f"{args.opponent}-{args.movetime:g}s-{i:03d}.pdn"
        (args.pdn / name).write_text(write_game(game, tags))


# -- the report -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _num(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def checkout(root: Path) -> str:
    """The checkout whose engine played: its folder, branch and commit (``+`` if changed)."""

    def git(*command: str) -> str:
        done = subprocess.run(["git", "-C", str(root), *command], capture_output=True, text=True)
        return done.stdout.strip()

    changed = "+" if git("status", "--porcelain", "--", "engine", "rules") else ""
    branch = git("branch", "--show-current") or "?"
    return f"{root} ({branch} at {git('log', '-1', '--format=%h') or '?'}{changed})"


def machine() -> str:
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def report(s: Summary, args: argparse.Namespace, load: tuple[tuple[float, ...], ...]) -> str:
    w, d, l_ = s.wdl
    value, low, high = s.elo
    decisive, ply, pieces, last = s.decided
    (om, oa), (tm, ta) = s.share
    count, of, worst = s.overruns
    rows = [
        ("opponent", f"{s.opponent} ({s.variant})"),
        ("time per move", f"{args.movetime:g} s each"),
        ("games", f"{s.games}" + (f" of {args.games} (stopped)" if s.games < args.games else "")),
        ("W-D-L (ours)", f"{w}-{d}-{l_}"),
        ("score", _pct(s.score)),
        ("Elo (Wilson 95%)", f"{shown(value)} ({shown(low)} to {shown(high)})"),
        ("adjudicated draws (ply cap)", f"{s.adjudicated} at {args.max_plies} plies"),
        ("median depth ours / theirs", f"{_num(s.depth[0], 1)} / {_num(s.depth[1], 1)}"),
        ("our time used (median / mean)", f"{_pct(om)} / {_pct(oa)}"),
        ("their time used (median / mean)", f"{_pct(tm)} / {_pct(ta)}"),
        ("our moves >5% over", f"{count} of {of} (worst {worst:.3f} s)"),
        ("their longest move", f"{s.their_worst:.3f} s"),
        ("moves without a search, ours / theirs", f"{s.unsearched[0]} / {s.unsearched[1]}"),
        ("nodes/s ours (to its last iteration) / theirs", f"{_num(s.nps[0])} / {_num(s.nps[1])}"),
        (
            "decisive games: decided at ply (median), pieces then, last ply",
            f"{decisive}: {_num(ply)}, {_num(pieces)}, {_num(last)}",
        ),
        (
            "load (1/5/15 min) at start / end",
            " / ".join(", ".join(f"{x:.2f}" for x in la) for la in load),
        ),
        ("machine", machine()),
    ]
    setup = (
        f"ours: {args.ours}, "
        f"level 6; books {'off (--no-book)' if args.no_book else 'on'}; openings: "
        + (
            "ACF three-move ballots"
            if s.variant == "english"
            else f"{args.opening_plies}-ply random starts (seed {args.seed})"
        )
        + ", each with both colours"
    )
    if args.markdown:
        lines = ["| figure | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
        return "\n".join([*lines, "", setup])
    return "\n".join([*(f"{k}: {v}" for k, v in rows), setup])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=sorted(VARIANT), required=True)
    parser.add_argument("--games", type=int, default=34)
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--ours-root", type=Path, help="run the engine of this checkout")
    parser.add_argument("--no-book", action="store_true", help="books off, ours and Scan's")
    parser.add_argument("--max-plies", type=int, default=250)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pdn", type=Path, help="write each game to this folder as PDN")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--scan", type=Path, default=SCAN, help="Scan's binary")
    parser.add_argument("--guinn", type=Path, default=GUINN, help="guinn_cli's binary")
    args = parser.parse_args(argv)
    binary = args.scan if args.opponent == "scan" else args.guinn
    if not binary.exists():
        parser.error(f"{binary} is not built (see /work/shared/engines/README.md)")
    # Ctrl-C, or a TERM signal (a deadline), stops the match between moves with a report of the
    # finished games; set here because a shell's background job inherits SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    args.ours = checkout(args.ours_root or _ROOT)  # as it was when the match started
    start_load = os.getloadavg()
    started = time.monotonic()
    match, opponent, their_man = run(args)
    if args.pdn is not None:
        write_pdn(match, opponent, args)
    summary = summarize(match, opponent, their_man, args)
    print(report(summary, args, (start_load, os.getloadavg())))
    print(f"({(time.monotonic() - started) / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
