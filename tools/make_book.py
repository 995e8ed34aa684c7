"""Make the opening books (``engine/books/<variant>.json``) by deep searches of our own engine.

For each variant the book grows breadth first from its roots: the start position, every
position of the first ``--first-plies`` plies, and the balloted openings the benchmarks play
(English: the first ``--ballots`` ACF three-move ballots of ``bench/match.py``; the others: the
random starts ``bench/arena.py`` draws, ``--ballots`` of them, ``--ballot-plies`` plies, seed
``--ballot-seed``).  Each position's moves are scored in two steps, from an empty table so an
entry depends on the position and the arguments alone:

1. every legal move by an exact search (no reductions) to ``--filter-depth`` with the learned
   evaluation (the core's ``root_scores``);
2. each move within ``--filter-margin`` of that best, by the engine's own search (the level-6
   search, reductions and all, its table kept across the moves of the position) of the position
   after it to ``--depth`` - 1 plies: its deep score.

The moves within ``--margin`` of the best deep score are the book's choices (the engine plays
one of them at random, weighted towards the best) and the lines it follows: the position after
each is scored in its turn, down to ``--line-plies`` plies below its root, ``--max-positions``
positions at most (the shallowest first).  Every search is limited by depth, never by time, and
the endgame tables are off, so the same command writes the same file on any machine (the header
names the command, commit, date and depths).  Runs at a lower priority (``--nice``)::

    python tools/make_book.py --variants english --depth 16 --ballots 20
    python tools/make_book.py --variants international --depth 13 --ballots 17

The scores assume a fresh no-progress count (a book position is at most ``max_ply`` plies into
the game, and the book is not used once the count passes that), which the build checks cannot
reach the search's horizon where men's moves do not reset it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

os.environ["ENGINE_ENDGAME_DIR"] = "off"  # before the engine is imported: the same book anywhere

_ROOT = Path(__file__).resolve().parent.parent
for _folder in (_ROOT, _ROOT / "bench", _ROOT / "tools"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from arena import random_starts  # noqa: E402  (bench/: the openings the matches play)
from match import english_openings  # noqa: E402
from train_eval import git_commit  # noqa: E402

from engine.api import to_move  # noqa: E402
from engine.book import FORMAT, position_key  # noqa: E402
from engine.native import core_state  # noqa: E402
from engine.native_search import native_searcher, search  # noqa: E402
from rules import Game, Position, find_variant  # noqa: E402
from rules.variants import Variant  # noqa: E402

BOOKS = _ROOT / "engine" / "books"

Scored = list[tuple[str, int]]
"""A position's deep-searched moves: PDN and score (centimen, mover's side), best first."""


def score_moves(position: Position, args: argparse.Namespace) -> Scored:
    """``position``'s moves worth a deep search, with their deep scores (see the module's
    docstring), best first; ties in the order of the rules' move list."""
    searcher = native_searcher(position.variant)
    searcher.use_learned(True)
    searcher.clear()
    shallow = searcher.root_scores(*core_state(position), 0, (), args.filter_depth)
    best = max(score for score, _ in shallow)
    deep: Scored = []
    for score, raw in shallow:
        if score < best - args.filter_margin:
            continue
        move = to_move(position, raw)
        found = search(
            position.play(move),
            quiet=0,
            past=(position.key,),
            max_depth=args.depth - 1,
            seconds=None,
            nodes=None,
            learned=True,
        )
        deep.append((move.pdn(), -found.score))
    order = {move.pdn(): i for i, move in enumerate(position.legal_moves())}
    return sorted(deep, key=lambda item: (-item[1], order[item[0]]))


def roots(variant: Variant, args: argparse.Namespace) -> list[tuple[Position, int]]:
    """The build's roots and their plies from the start, without repeats, in a fixed order."""
    found: dict[str, tuple[Position, int]] = {}
    layer = [Position.start(variant)]
    for ply in range(args.first_plies + 1):
        for position in layer:
            found.setdefault(position_key(position), (position, ply))
        layer = [p.play(m) for p in layer for m in p.legal_moves()]
    if variant.key == "english":
        lines = [opening.moves for opening in english_openings(args.ballots)][: args.ballots]
    else:
        openings = random_starts(variant, args.ballots, args.ballot_plies, args.ballot_seed)
        lines = [opening.moves for opening in openings]
    for line in lines:
        game = Game(variant)
        for text in line:
            game.play(text)
        found.setdefault(position_key(game.position), (game.position, game.ply))
    return list(found.values())


class Built(NamedTuple):
    positions: dict[str, Scored]
    plies: dict[str, int]
    """Each position's ply from the start along the line that first reached it."""


def build(variant: Variant, args: argparse.Namespace) -> Built:
    """The book's positions, breadth first from the roots (see the module's docstring)."""
    book = Built({}, {})
    layer = [(position, ply, 0) for position, ply in roots(variant, args)]
    while layer and len(book.positions) < args.max_positions:
        following = []
        for position, ply, below in layer:
            key = position_key(position)
            if key in book.positions or len(book.positions) >= args.max_positions:
                continue
            if not position.legal_moves():
                continue
            scored = book.positions[key] = score_moves(position, args)
            book.plies[key] = ply
            print(
                f"{variant.key} {len(book.positions)}: ply {ply} {key} {scored[:3]} "
                f"({time.process_time():.0f} s CPU)",
                file=sys.stderr,
                flush=True,
            )
            if below >= args.line_plies:
                continue
            legal = {move.pdn(): move for move in position.legal_moves()}
            for pdn, score in scored:
                if score >= scored[0][1] - args.margin:
                    following.append((position.play(legal[pdn]), ply + 1, below + 1))
        layer = following
    return book


def book_file(variant: Variant, book: Built, args: argparse.Namespace) -> str:
    """The file's text: the header, then one line per position (diffs stay readable)."""
    header = {
        "format": FORMAT,
        "variant": variant.key,
        "margin": args.margin,
        "max_ply": max(book.plies.values(), default=0),
        "made": {
            "command": args.command,
            "commit": args.commit,
            "date": args.date,
            "depth": args.depth,
            "filter_depth": args.filter_depth,
            "filter_margin": args.filter_margin,
            "line_plies": args.line_plies,
            "max_positions": args.max_positions,
            "evaluation": "learned (engine/weights), endgame tables off",
        },
        "count": len(book.positions),
    }
    lines = [json.dumps(header, indent=1)[:-2] + ',\n "positions": {']
    entries = [
        f"  {json.dumps(key)}: {json.dumps(scored)}" for key, scored in book.positions.items()
    ]
    return "\n".join(lines) + "\n" + ",\n".join(entries) + "\n }\n}\n"


def check_horizon(variant: Variant, args: argparse.Namespace, deepest_root: int) -> None:
    """Where men's moves do not reset the no-progress count, the book's scores (searched from a
    fresh count) hold only if the count cannot reach the horizon within the book."""
    rule = variant.no_progress
    reach = deepest_root + args.line_plies + args.depth
    if rule is not None and not rule.man_moves and reach >= rule.plies:
        raise SystemExit(
            f"{variant.key}: the book reaches {reach} plies with its searches, the no-progress "
            f"draw is at {rule.plies}: fewer --line-plies or --depth"
        )


WHERE_AND_HOW = ("--out", "--nice", "--commit", "--date")
"""Arguments that do not change a book's content, left out of the command its header names
(so the same build writes the same bytes wherever it writes them)."""


def content_arguments(argv: Sequence[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in WHERE_AND_HOW:
            skip = True
        elif not arg.startswith(WHERE_AND_HOW):  # the --out=DIR form
            kept.append(arg)
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", required=True, help="comma-separated variant keys")
    parser.add_argument("--depth", type=int, required=True, help="plies of the deep search")
    parser.add_argument("--filter-depth", type=int, default=8)
    parser.add_argument("--filter-margin", type=int, default=40)
    parser.add_argument("--margin", type=int, default=10, help="centimen; the book's choices")
    parser.add_argument("--first-plies", type=int, default=1)
    parser.add_argument("--ballots", type=int, default=20)
    parser.add_argument("--ballot-plies", type=int, default=4)
    parser.add_argument("--ballot-seed", type=int, default=1)
    parser.add_argument("--line-plies", type=int, default=6)
    parser.add_argument("--max-positions", type=int, default=200)
    parser.add_argument("--out", type=Path, default=BOOKS)
    parser.add_argument("--commit", help="the header's commit (default: this checkout's)")
    parser.add_argument("--date", help="the header's date (default: today, UTC)")
    parser.add_argument("--nice", type=int, default=19)
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    args.command = "python tools/make_book.py " + " ".join(content_arguments(given))
    args.commit = args.commit or git_commit()
    args.date = args.date or datetime.datetime.now(datetime.UTC).date().isoformat()
    os.nice(args.nice)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.variants.split(","):
        variant = find_variant(name)
        check_horizon(variant, args, max(ply for _, ply in roots(variant, args)))
        started = time.process_time()
        book = build(variant, args)
        path = args.out / f"{variant.key}.json"
        path.write_text(book_file(variant, book, args), encoding="utf-8")
        print(
            f"{variant.key}: {len(book.positions)} positions, {path.stat().st_size} bytes, "
            f"{time.process_time() - started:.0f} s CPU",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
