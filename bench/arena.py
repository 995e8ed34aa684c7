"""Engine matches at equal time per move: our engine against dame-rs, or against our own engine
as it was at an earlier commit, with an Elo estimate and its error bar.

Why it exists: issue 17 judges the computer opponent by two numbers, its score against a real
draughts engine (``dame-rs``, a Rust International engine on the package index, a bench-only
dependency) and its Elo gain over the pure-Python engine of ``aee848e`` in self-play.  Both come
from here (py-draughts' weaker SimpleEngine keeps its own harness, ``bench/match.py``).

How to run (``dame-rs`` is in the optional ``bench`` extra)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -c constraints.txt -e ".[bench]"
    /tmp/bvenv/bin/python bench/arena.py --opponent dame --games 34 --movetime 0.2
    /tmp/bvenv/bin/python bench/arena.py --opponent dame --games 34 --movetime 1 --markdown
    /tmp/bvenv/bin/python bench/arena.py --opponent aee848e --variants english,international \\
        --games 40 --movetime 0.2 --pdn /tmp/games
    /work/venv/bin/python bench/arena.py --opponent classic --variants russian --games 30 \
        --movetime 0.1 [--weights /tmp/learned/flying-8.bin]

``--opponent classic`` is this checkout's engine with its classic evaluation at every level
(``Limits(classic=True)``) against ours with the learned one (the shipped weights, or the
candidate ``--weights`` file): the match that decides whether a family's weights ship (issue 17).
``--no-book``: neither of our engines plays from the opening book (``Limits(book=False)``; an
earlier commit without a book needs nothing turned off): the matches that measure a search
change, where the book would answer the first moves for one side only (issue 31).

Method:

* **Players in processes of their own.**  Each engine thinks in a worker process
  (:mod:`multiprocessing`, spawned), so neither shares a core's interpreter with the other, nor
  with the referee; one game is played at a time and only the side to move thinks.  Our engine
  is ``engine.best_move`` at level 6 with ``movetime``.  An earlier commit's engine is its own
  ``engine`` and ``rules`` packages, extracted with ``git archive`` into a temporary folder that
  comes first on the worker's ``sys.path``: it plays exactly as it did then, rules included.
  dame-rs searches with ``Engine.search(board, time=movetime)`` (its table kept from move to
  move, as ours is within a game) in its worker.  The time of a move is measured in the worker,
  around the search alone.
* **The referee.**  ``rules.Game`` plays every move and ends every game (no pieces or moves,
  repetition, the variant's counts).  A move from a player is refused unless ``rules`` lists
  it, which stops the run.  Against dame-rs the two boards are compared before every move (the
  legal moves as from, to and captured squares, and the position).  A game still running after
  ``--max-plies`` plies is adjudicated a draw and counted as such.
* **Openings.**  English: the ACF three-move ballots :mod:`bench.match` plays.  The others have
  no published list: distinct random starts of ``--opening-plies`` plies drawn with ``--seed``
  ("balloted"), so a fixed set per seed.  Each opening is played twice, each engine taking each
  colour once.
* **Elo** (:mod:`elo`, shared with ``bench/sparring.py``).  From the score fraction ``p`` over
  ``n`` games: ``-400 log10(1/p - 1)``, with a 95% interval from the games' own spread of
  results (wins, draws and losses, so draws narrow it), ``p ± 1.96 sd/sqrt(n)``, each end turned
  into Elo the same way.  A score of 0 or 1 has no finite Elo: the interval is then one-sided
  and the report says so.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/arena.py` without installing
    sys.path.insert(0, str(_ROOT))
if str(_ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(_ROOT / "bench"))

from elo import elo_interval, shown  # noqa: E402
from match import Opening, english_openings  # noqa: E402

from rules import Color, Game, Move, find_variant, write_game  # noqa: E402
from rules.variants import Variant  # noqa: E402

OURS = "ours"
DAME = "dame"
CLASSIC = "classic"
"""Our engine (this checkout's) with the classic evaluation at every level: the opponent that
measures the learned evaluation (issue 17) at equal time."""


# -- players, each in a worker process ------------------------------------------------------------


Played = tuple[str, int, int, tuple[int, ...]]
"""A move as the workers are told it: PDN, origin, destination, captured squares (sorted)."""


def played(move: Move) -> Played:
    return (move.pdn(), move.path[0], move.path[-1], tuple(sorted(move.captured)))


@dataclass(frozen=True)
class Request:
    """What a worker is asked: the variant, the moves from the start, and the time."""

    variant: str
    moves: tuple[Played, ...]
    movetime: float


@dataclass(frozen=True)
class Answer:
    move: Played
    seconds: float
    """The search alone, timed in the worker."""
    depth: int | None
    nodes: int | None
    score: int | None = None
    """The mover's score for its move, in its engine's own units (ours: centimen)."""
    book: bool = False
    """Played from an opening book, without a search."""


def import_engine_from(source: str | None) -> None:
    """Have this worker process import ``engine`` and ``rules`` from ``source`` (an extracted
    commit or another checkout; None: the ones found first on ``sys.path``), forgetting any
    already imported, so each side of a comparison runs its own code."""
    if source is None:
        return
    sys.path.insert(0, source)
    for name in [m for m in sys.modules if m.split(".")[0] in ("engine", "rules")]:
        del sys.modules[name]


def _serve(
    kind: str,
    source: str | None,
    requests: Any,
    answers: Any,
    weights: str | None = None,
    book: bool = True,
) -> None:
    """A worker's loop: ``kind`` is ``ours`` (the engine found first on ``sys.path``: the
    installed one, or the checkout or extracted commit at ``source``) or ``dame``.  A failure
    is answered as the exception, which the referee raises."""
    import_engine_from(source)
    think = _dame_thinker() if kind == DAME else _our_thinker(kind == CLASSIC, weights, book)
    while True:
        request = requests.get()
        if request is None:
            return
        try:
            answers.put(think(request))
        except Exception as exc:
            answers.put(ArenaError(f"{kind} worker: {exc!r}"))


def _our_thinker(classic: bool = False, weights: str | None = None, book: bool = True) -> Any:
    """Our engine (this checkout's, or the extracted commit's), replaying the game with its own
    rules, which refuse a move they do not know; ``classic``: with the classic evaluation only;
    ``weights``: with these learned weights (a file not yet shipped) instead of the shipped
    ones; ``book=False``: with its opening book off, when its ``Limits`` has that switch (an
    engine without a book plays the same either way)."""
    from engine import Iteration, Limits, best_move
    from rules import Game as WorkerGame
    from rules import find_variant as worker_variant

    extra = {"classic": True} if classic else {}
    if not book and "book" in getattr(Limits, "__dataclass_fields__", {}):
        extra["book"] = False  # an engine from before the opening book has none to turn off
    loaded: set[str] = set()

    def think(request: Request) -> Answer:
        variant = worker_variant(request.variant)
        if weights is not None and variant.key not in loaded:
            from engine.native_search import native_searcher

            native_searcher(variant).load_weights(Path(weights).read_bytes())
            loaded.add(variant.key)
        game = WorkerGame(variant)
        for move in request.moves:
            game.play(move[0])
        iterations: list[Iteration] = []
        started = time.perf_counter()
        result = best_move(
            game,
            Limits(movetime=request.movetime, level=6, **extra),
            on_iteration=iterations.append,
        )
        seconds = time.perf_counter() - started
        last = iterations[-1] if iterations else None
        return Answer(
            played(result.move),
            seconds,
            last.depth if last else None,
            last.nodes if last else None,  # counted from the search's start: not a sum
            result.score,
            book=not iterations and len(game.legal_moves()) > 1,
        )

    return think


def _dame_thinker() -> Any:
    """dame-rs, its board kept in step with ours and compared with it before every search."""
    import dame

    engine = dame.Engine(hash_mb=64)
    board = dame.Board()
    seen: list[Played] = []

    def think(request: Request) -> Answer:
        nonlocal board, seen
        if list(request.moves[: len(seen)]) != seen:  # a new game
            board, seen = dame.Board(), []
            engine.clear()
        for move in request.moves[len(seen) :]:
            board.push(_dame_move(board, move))
            seen.append(move)
        _same_board(request, board)
        started = time.perf_counter()
        result = engine.search(board, time=request.movetime)
        seconds = time.perf_counter() - started
        chosen = result.best_move
        move = ("", chosen.from_square, chosen.to_square, tuple(sorted(chosen.captured)))
        return Answer(move, seconds, int(result.depth), int(result.nodes))

    return think


def _dame_move(board: Any, move: Played) -> Any:
    """dame-rs's move with the same origin, destination and captured squares."""
    _, origin, destination, captured = move
    for candidate in board.legal_moves:
        key = (candidate.from_square, candidate.to_square, tuple(sorted(candidate.captured)))
        if key == (origin, destination, captured):
            return candidate
    raise ArenaError(f"dame-rs has no move {move[0]}: {board.legal_moves}")


def _same_board(request: Request, board: Any) -> None:
    """Our position and legal moves, by our rules, equal dame-rs's (else the run stops)."""
    import dame

    game = Game(find_variant(request.variant))
    for move in request.moves:
        game.play(move[0])
    ours = {(m.path[0], m.path[-1], tuple(sorted(m.captured))) for m in game.legal_moves()}
    theirs = {(m.from_square, m.to_square, tuple(sorted(m.captured))) for m in board.legal_moves}
    if ours != theirs:
        raise ArenaError(f"legal moves differ after {len(request.moves)} plies: {ours ^ theirs}")
    position = game.position
    pieces = {
        square: (colour, king)
        for colour, men, kings in (
            ("white", position.white_men, position.white_kings),
            ("black", position.black_men, position.black_kings),
        )
        for bits, king in ((men, False), (kings, True))
        for square in position.variant.geometry.squares_in(bits)
    }
    mapped = {
        square: ("white" if piece.color == dame.Color.WHITE else "black", bool(piece.is_king))
        for square, piece in board.piece_map().items()
    }
    if pieces != mapped:
        raise ArenaError(f"the boards differ after {len(request.moves)} plies")


class ArenaError(RuntimeError):
    """A player's move the referee does not know, or boards that disagree: the run stops."""


class Contender(Protocol):
    """What a game needs of a player: a name, its move in a game (checked by the referee) with
    how it was found, and an end.  :class:`Player` (a worker process) and the external engines
    of ``bench/sparring_engines.py`` (a process speaking the engine's own protocol) are both."""

    name: str

    def choose(self, game: Game, movetime: float) -> tuple[Move, Answer]: ...

    def close(self) -> None: ...


class Player:
    """One engine in its worker process."""

    def __init__(
        self,
        name: str,
        kind: str,
        source: str | None = None,
        weights: str | None = None,
        book: bool = True,
    ) -> None:
        self.name = name
        self.kind = kind
        context = multiprocessing.get_context("spawn")
        self._requests: Any = context.Queue()
        self._answers: Any = context.Queue()
        self._process = context.Process(
            target=_serve,
            args=(kind, source, self._requests, self._answers, weights, book),
            daemon=True,
        )
        self._process.start()

    def choose(self, game: Game, movetime: float) -> tuple[Move, Answer]:
        """The player's move in ``game`` (checked by the referee), and how it was found."""
        request = Request(game.variant.key, tuple(played(m) for m in game.moves), movetime)
        self._requests.put(request)
        answer = self._answers.get(timeout=60 + 10 * movetime)
        if isinstance(answer, Exception):
            raise answer
        return referee_move(game, answer.move), answer

    def close(self) -> None:
        self._requests.put(None)
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()


def referee_move(game: Game, move: Played) -> Move:
    """The legal move of ``game`` that a worker named: by its PDN from our engines, by origin,
    destination and captured squares from dame-rs (routes with the same captures leave the same
    position)."""
    text, origin, destination, captured = move
    for legal in game.legal_moves():
        if text and legal.pdn() == text:
            return legal
        if not text and played(legal)[1:] == (origin, destination, captured):
            return legal
    raise ArenaError(f"{text or (origin, destination, captured)} is not legal here")


# -- openings and games ---------------------------------------------------------------------------


def random_starts(variant: Variant, count: int, plies: int, seed: int) -> list[Opening]:
    """``count`` distinct random starts of ``plies`` plies (the game still running)."""
    import random

    rng = random.Random(f"arena:{variant.key}:{seed}")
    found: list[tuple[str, ...]] = []
    attempts = 0
    while len(found) < count and attempts < 1000 * count:
        attempts += 1
        game = Game(variant)
        line = []
        for _ in range(plies):
            move = rng.choice(game.legal_moves())
            line.append(game.play(move).pdn())
        if not game.is_over and tuple(line) not in found:
            found.append(tuple(line))
    return [Opening(f"ballot #{i + 1}", moves) for i, moves in enumerate(found)]


@dataclass
class Side:
    """One engine's moves in a match: times, depths, nodes."""

    seconds: list[float] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    nodes: int = 0

    def add(self, answer: Answer) -> None:
        self.seconds.append(answer.seconds)
        if answer.depth is not None:
            self.depths.append(answer.depth)
        self.nodes += answer.nodes or 0


@dataclass(frozen=True)
class Turn:
    """One move of a game as the referee saw it: whose it was, how many legal moves the mover
    had (1: forced, nothing to judge a search by), and the mover's answer."""

    ours: bool
    legal: int
    answer: Answer


@dataclass
class Match:
    variant: Variant
    ours: Side = field(default_factory=Side)
    theirs: Side = field(default_factory=Side)
    results: list[float] = field(default_factory=list)
    """Our points per game: 1, 0.5 or 0."""
    adjudicated: int = 0
    games: list[Game] = field(default_factory=list)
    turns: list[list[Turn]] = field(default_factory=list)
    """Per game, its moves after the opening, in order."""
    our_colours: list[Color] = field(default_factory=list)

    @property
    def wdl(self) -> tuple[int, int, int]:
        return (
            self.results.count(1.0),
            self.results.count(0.5),
            self.results.count(0.0),
        )


def play(
    variant: Variant,
    opening: Opening,
    our_colour: Color,
    ours: Contender,
    theirs: Contender,
    args: argparse.Namespace,
    match: Match,
) -> None:
    game = Game(variant)
    for text in opening.moves:
        game.play(text)
    turns: list[Turn] = []
    while not game.is_over and game.ply < args.max_plies:
        mover, side = (ours, match.ours) if game.turn is our_colour else (theirs, match.theirs)
        legal = len(game.legal_moves())
        move, answer = mover.choose(game, args.movetime)
        side.add(answer)
        turns.append(Turn(mover is ours, legal, answer))
        game.play(move)
    if not game.is_over:
        match.adjudicated += 1
        game.offer_draw(game.turn)
        game.accept_draw(game.turn.other)
    winner = game.outcome.winner if game.outcome is not None else None
    match.results.append(0.5 if winner is None else 1.0 if winner is our_colour else 0.0)
    match.games.append(game)
    match.turns.append(turns)
    match.our_colours.append(our_colour)


# -- the run --------------------------------------------------------------------------------------


def extract(commit: str, into: Path, packages: Sequence[str] = ("engine", "rules")) -> Path:
    """The ``packages`` of ``commit`` (``engine`` and ``rules``; ``bench/replies_load.py`` adds
    ``bot``), unpacked under ``into``, with the native core built when the commit has one."""
    archive = subprocess.run(
        ["git", "-C", str(_ROOT), "archive", "--format=tar", commit, *packages],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    core = into / "engine" / "core"
    if core.is_dir():  # a commit with the native core: build its extension in place
        subprocess.run(
            [sys.executable, "-c", _BUILD_CORE, "build_ext", "--inplace", "--quiet"],
            cwd=into,
            check=True,
            capture_output=True,
        )
    return into


_BUILD_CORE = """
from pathlib import Path
from setuptools import Extension, setup
core = Path("engine") / "core"
setup(
    script_args=__import__("sys").argv[1:],
    ext_modules=[Extension(
        "engine._core",
        sources=sorted(str(p) for p in core.glob("*.c")),
        extra_compile_args=["-std=c11", "-O2"],
    )],
)
"""
"""The build of an extracted commit's ``engine._core``, as its setup.py declares it (the
commit's own setup.py is not extracted: the oldest commits have none)."""


def openings_for(variant: Variant, args: argparse.Namespace) -> list[Opening]:
    count = math.ceil(args.games / 2)
    if variant.key == "english":
        return english_openings(count)
    return random_starts(variant, count, args.opening_plies, args.seed)


def play_match(
    variant: Variant,
    ours: Contender,
    theirs: Contender,
    args: argparse.Namespace,
    match: Match | None = None,
) -> Match:
    """``args.games`` games of ``variant``, each opening of :func:`openings_for` played with ours
    White then Black (the last one once when the count is odd); a line per game on stderr.  The
    games are added to ``match`` (a new one by default) as each ends, so a caller that stops the
    run early still holds the finished ones."""
    match = Match(variant) if match is None else match
    number = 0
    for opening in openings_for(variant, args):
        for colour in (Color.WHITE, Color.BLACK):
            if number == args.games:
                return match
            number += 1
            play(variant, opening, colour, ours, theirs, args, match)
            w, d, l_ = match.wdl
            print(
                f"{variant.key} game {number}/{args.games} ({opening.name}, ours {colour.label}): "
                f"{match.results[-1]:g} in {match.games[-1].ply} plies; so far +{w} ={d} -{l_}",
                file=sys.stderr,
                flush=True,
            )
    return match


def run(args: argparse.Namespace) -> list[Match]:
    matches: list[Match] = []
    with tempfile.TemporaryDirectory(prefix="arena-") as tmp:
        if args.opponent == DAME:
            theirs = Player("dame-rs 0.2.0", DAME)
        elif args.opponent == CLASSIC:
            theirs = Player("ours, classic evaluation", CLASSIC, book=args.book)
        else:
            source = str(extract(args.opponent, Path(tmp)))
            theirs = Player(f"engine at {args.opponent}", OURS, source, book=args.book)
        ours = Player("ours", OURS, weights=args.weights, book=args.book)
        try:
            matches = [play_match(variant, ours, theirs, args) for variant in args.variants]
        finally:
            ours.close()
            theirs.close()
    return matches


def report(matches: list[Match], args: argparse.Namespace) -> str:
    columns = (
        "variant",
        "games",
        "ours +/=/-",
        "score",
        "Elo (95%)",
        "adjudicated",
        "our depth",
        "their depth",
        "our s/move",
        "their s/move",
    )
    lines = ["| " + " | ".join(columns) + " |", "|---|" + "---:|" * (len(columns) - 1)]
    for m in matches:
        w, d, l_ = m.wdl
        n = len(m.results)
        value, low, high = elo_interval(m.results)

        def mean(xs: list[float] | list[int]) -> str:
            return f"{sum(xs) / len(xs):.1f}" if xs else "-"

        lines.append(
            f"| {m.variant.key} | {n} | {w}/{d}/{l_} | {100 * sum(m.results) / n:.0f}% | "
            f"{shown(value)} ({shown(low)} to {shown(high)}) | {m.adjudicated} | "
            f"{mean(m.ours.depths)} | {mean(m.theirs.depths)} | "
            f"{sum(m.ours.seconds) / max(1, len(m.ours.seconds)):.2f} | "
            f"{sum(m.theirs.seconds) / max(1, len(m.theirs.seconds)):.2f} |"
        )
    opponent = (
        "dame-rs 0.2.0"
        if args.opponent == DAME
        else "this checkout with the classic evaluation"
        if args.opponent == CLASSIC
        else f"our engine at {args.opponent}"
    )
    kinds = []
    if any(m.variant.key == "english" for m in matches):
        kinds.append("English: ACF three-move ballots")
    if any(m.variant.key != "english" for m in matches):
        kinds.append(f"{args.opening_plies}-ply random starts (seed {args.seed})")
    lines += [
        "",
        f"Opponent: {opponent}; {args.movetime:g} s per move each; openings: "
        f"{'; '.join(kinds)}, each played with both colours; a draw is adjudicated after "
        f"{args.max_plies} plies.",
    ]
    return "\n".join(lines)


def parse_variants(text: str) -> list[Variant]:
    return [find_variant(name.strip()) for name in text.split(",") if name.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponent",
        default=DAME,
        help="dame (dame-rs, International only), classic (this checkout with the classic "
        "evaluation) or a git commit of this repository",
    )
    parser.add_argument(
        "--weights",
        help="our engine plays with these learned weights (a .bin from tools/train_eval.py)",
    )
    parser.add_argument(
        "--no-book",
        dest="book",
        action="store_false",
        help="neither of our engines plays from the opening book (Limits(book=False)): the "
        "matches that measure a search change",
    )
    parser.add_argument("--variants", type=parse_variants, default=None)
    parser.add_argument("--games", type=int, default=34)
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--max-plies", type=int, default=250)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pdn", type=Path, help="write each game to this folder as PDN")
    args = parser.parse_args(argv)
    if args.variants is None:
        args.variants = parse_variants("international" if args.opponent == DAME else "english")
    if args.opponent == DAME and any(v.key != "international" for v in args.variants):
        parser.error("dame-rs plays International draughts only")
    matches = run(args)
    if args.pdn is not None:
        args.pdn.mkdir(parents=True, exist_ok=True)
        for m in matches:
            for i, game in enumerate(m.games, 1):
                (args.pdn / f"{m.variant.key}-{i:03d}.pdn").write_text(write_game(game))
    print(report(matches, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
