"""Engine strength: matches of our engine against py-draughts' SimpleEngine at equal time per move.

Why it exists: the bot's computer opponent is ``engine.best_move``; this measures how it plays
against an independent alpha-beta engine, py-draughts' ``SimpleEngine`` (iterative deepening,
transposition table, quiescence, killer/history ordering, PVS with late-move reductions), with
both held to the same wall-clock time per move.  The target is at least 75% of the points over
at least 30 games per variant for English, International and Russian at 0.2 s per move.

How to run (py-draughts is the optional ``bench`` extra)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e ".[bench]"
    /tmp/bvenv/bin/python bench/match.py                              # 30 games per variant
    /tmp/bvenv/bin/python bench/match.py --markdown --pdn /tmp/games  # table + PDN files
    /tmp/bvenv/bin/python bench/match.py --variants russian --games 6 --movetime 0.5
    /tmp/bvenv/bin/python bench/match.py --games 10 --their-movetime 0.4  # time odds for them

Method:

* Both engines run in this process, one after the other, and stay warm for the whole match (our
  per-variant searcher, which starts each search with an empty table, and one ``SimpleEngine``
  per variant, which keeps its table from move to move and game to game).  Our engine plays at
  level 6 with ``movetime`` seconds; ``SimpleEngine`` gets ``time_limit=movetime`` (or
  ``--their-movetime``, to give it time odds) and no depth cap that matters (64).  Each move is
  timed with ``time.perf_counter`` around the engine call.
* ``SimpleEngine`` reads its clock only every 2048 nodes, which at its speed (about 20,000
  nodes/s here) let it overrun a 0.2 s budget by 0.02 to 0.24 s in a trial.  So that both sides
  get the same time, a subclass checks the same deadline at every node and then stops the search
  exactly as its own check does (the iteration in progress is abandoned and the last completed
  one's move is played); its search is otherwise untouched.  ``--native-clock`` keeps
  py-draughts' own check instead.  Our engine is run as shipped: it reads the clock every
  512 nodes, which at its 25,000-60,000 nodes/s is 0.01-0.02 s, so a move can overrun by that
  much (it also stops early once a search proves a win or loss, and spends a tenth of the time
  on a forced move).  The table gives each side's mean and largest time per move, so the real
  split of time is visible.
* Openings.  English: ACF three-move ballots (numbered as in the 174-entry ACF list that
  :mod:`rules.ballots` ships); :data:`ENGLISH_BALLOTS` takes 20 cross-board ones spread
  over the list, in that order.  International and Russian have no list here: the openings are
  random two-ply starts (both first moves), distinct, drawn from ``--seed`` (so fixed for a
  given seed).  Each opening is played twice, our engine taking each side once; with an odd
  ``--games`` the last opening is played once.
* Garbage collection.  Both transposition tables are large (hundreds of thousands of entries),
  and a full collection by Python's cyclic collector walks all of them: 0.1 s and more, landing
  on whichever engine happens to be searching.  So after every move, outside the timing, the
  script collects and then freezes the survivors (``gc.freeze``): collections during a search
  only walk objects made since the last move.  (Table entries are freed by reference counting
  as before; freezing only keeps the collector from walking them.)
* Game end: ``rules.Game``'s own rules (no pieces or no moves, threefold repetition, the
  variant's no-progress and endgame counts).  To keep games short a game still running after
  ``--max-plies`` plies (default 200, openings included) is adjudicated a draw (written to PDN
  as a draw by agreement with a ``Termination`` tag); the report says how many were.
* Boards kept in step.  py-draughts numbers squares 0..N-1 in the same order as our 1..N (both
  start at b8 / b10, row by row from Black's side), and its colours are ours.  py-draughts'
  ``AmericanBoard`` makes captures optional and lets White move first, which is not English
  draughts, so English uses a subclass asking py-draughts' own move generator for compulsory
  captures (the internal ``_legal_moves_from_core``, as ``bench/perft.py`` does), started with
  Black to move.  Before every move both legal move sets are compared as sets of (from square,
  to square, captured squares), and after every move the two positions are compared square by
  square; any difference stops the run with an error.  (Capture routes with the same start, end
  and captured pieces leave the same position; we list each landing path, py-draughts may list
  one of them, e.g. both directions of a Russian man's round trip ``10x17x26x19x10``, so the
  comparison counts such routes once and a move is translated to a route with that outcome, the
  same path where there is one.)
* py-draughts' own draw rules differ a little from ours (its English board calls 40 plies of
  king moves a draw where the rule is 40 moves each, and its Russian endgame counts are not
  ours).  Its English board here uses the 40-moves-each count, and the position ``SimpleEngine``
  is asked about is never treated as drawn by its board (the game is on by our rules); deeper
  in its search its own rules apply.
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/match.py` without installing
    sys.path.insert(0, str(_ROOT))

from engine import Iteration, Limits, best_move  # noqa: E402
from engine.api import searcher_for  # noqa: E402
from rules import Color, Game, Move, find_variant, write_game  # noqa: E402
from rules.ballots import ACF_BALLOTS  # noqa: E402
from rules.variants import Variant  # noqa: E402

DEFAULT_VARIANTS = "english,international,russian"

ENGLISH_BALLOTS: tuple[int, ...] = (1, 8, 27, 36, 42, 53, 64, 73, 92, 101, 116, 126, 140, 149, 173)
ENGLISH_BALLOTS += (15, 47, 66, 121, 163)  # used by matches of more than 30 games
"""ACF numbers of the three-move ballots played (:data:`rules.ballots.ACF_BALLOTS` has the
moves): cross-board openings spread over the list; the first 15 (a 30-game match) cover all
seven first moves."""

RANDOM_OPENING_PLIES = 2


class MatchError(RuntimeError):
    """The two boards disagree, or a move cannot be translated: the run stops."""


# -- openings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    name: str
    moves: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.moves)


def english_openings(count: int) -> list[Opening]:
    """The first ``count`` ballots of :data:`ENGLISH_BALLOTS` (cycling if more are needed)."""
    ballots = [ACF_BALLOTS[ENGLISH_BALLOTS[i % len(ENGLISH_BALLOTS)] - 1] for i in range(count)]
    return [Opening(f"ACF #{b.number}", b.moves) for b in ballots]


def random_openings(variant: Variant, count: int, seed: int) -> list[Opening]:
    """``count`` distinct random starts of :data:`RANDOM_OPENING_PLIES` plies (repeating only
    when there are fewer distinct ones than ``count``)."""
    rng = random.Random(f"{variant.key}:{seed}")
    found: list[tuple[str, ...]] = []
    attempts = 0
    while len(found) < count:
        game = Game(variant)
        line = []
        for _ in range(RANDOM_OPENING_PLIES):
            move = rng.choice(game.legal_moves())
            line.append(game.play(move).pdn())
        attempts += 1
        if tuple(line) not in found or attempts > 100 * count:
            found.append(tuple(line))
    return [Opening(f"random #{i + 1}", moves) for i, moves in enumerate(found)]


def openings_for(variant: Variant, games: int, seed: int) -> list[Opening]:
    count = math.ceil(games / 2)
    if variant.key == "english":
        openings = english_openings(count)
    else:
        openings = random_openings(variant, count, seed)
    for opening in openings:  # every ballot must be legal (rules.Game raises otherwise)
        game = Game(variant)
        for text in opening.moves:
            game.play(text)
        if game.is_over:
            raise MatchError(f"{variant.key} opening {opening.text} ends the game")
    return openings


# -- py-draughts ---------------------------------------------------------------------------------


@dataclass
class Theirs:
    """py-draughts for one variant: how to make its board, and its engine."""

    make_board: Callable[[], Any]
    engine: Any
    board_name: str


def load_py_draughts() -> tuple[str, Any]:
    try:
        import draughts
    except ImportError:
        sys.exit('bench/match.py needs py-draughts: pip install -e ".[bench]"')
    return draughts.__version__, draughts


def build_theirs(draughts: Any, variant: Variant, movetime: float, native_clock: bool) -> Theirs:
    from draughts.models import Color as TheirColor

    class RootNotDrawn:
        """Mixin: the position the engine is asked about is never a draw for its board (the
        game goes on by our rules, which decide); deeper in the search its own rules apply."""

        search_root = -1

        @property
        def is_draw(self) -> bool:
            if len(self._moves_stack) == self.search_root:  # type: ignore[attr-defined]
                return False
            return super().is_draw  # type: ignore[misc]

    if variant.key == "english":
        try:
            from draughts.boards.american import _CORE as american_core
        except ImportError as exc:
            raise MatchError(f"py-draughts {draughts.__version__}: no American core") from exc
        if not hasattr(draughts.AmericanBoard, "_legal_moves_from_core"):
            raise MatchError("py-draughts has no _legal_moves_from_core: captures stay optional")

        class EnglishBoard(RootNotDrawn, draughts.AmericanBoard):
            """py-draughts' American board with compulsory captures and the 40-moves-each
            no-progress draw: English draughts."""

            @property
            def legal_moves(self) -> list[Any]:
                return self._legal_moves_from_core(
                    american_core, max_capture=False, captures_optional=False
                )

            @property
            def is_draw(self) -> bool:
                if len(self._moves_stack) == self.search_root:
                    return False
                return self.halfmove_clock >= 80 or self.is_threefold_repetition

        def make_board() -> Any:
            return EnglishBoard(turn=TheirColor.BLACK)

        name = "AmericanBoard, compulsory captures, Black first"
    elif variant.key == "international":

        class InternationalBoard(RootNotDrawn, draughts.StandardBoard):
            pass

        make_board, name = InternationalBoard, "StandardBoard"
    elif variant.key == "russian":

        class RussianBoard(RootNotDrawn, draughts.RussianBoard):
            pass

        make_board, name = RussianBoard, "RussianBoard"
    else:
        raise MatchError(f"py-draughts has no board here for {variant.key}")
    return Theirs(make_board, timed_engine(draughts, movetime, native_clock), name)


def timed_engine(draughts: Any, movetime: float, native_clock: bool) -> Any:
    """A ``SimpleEngine`` that records the depth of its last completed iteration and (unless
    ``native_clock``) checks its deadline at every node instead of every 2048."""

    class TimedSimpleEngine(draughts.SimpleEngine):
        def __init__(self) -> None:
            super().__init__(depth_limit=64, time_limit=movetime)
            self.depth_done = 0
            self._in_root = False

        def get_best_move(self, board: Any, with_evaluation: bool = False) -> Any:
            self.depth_done = 0
            self._in_root = False
            return super().get_best_move(board, with_evaluation)

        def _out_of_time(self) -> bool:
            if (
                not native_clock
                and not self.stop_search
                and time.time() - self.start_time > self.time_limit
            ):
                self.stop_search = True
            return self.stop_search

        def negamax(self, board: Any, depth: int, alpha: float, beta: float, h: int) -> float:
            self._out_of_time()
            if self._in_root:
                return super().negamax(board, depth, alpha, beta, h)
            self._in_root = True  # this call is an iteration's root
            try:
                value = super().negamax(board, depth, alpha, beta, h)
            finally:
                self._in_root = False
            if not self.stop_search:
                self.depth_done = depth
            return value

        def quiescence_search(
            self, board: Any, alpha: float, beta: float, h: int, qs_depth: int = 0
        ) -> float:
            if not native_clock and self._out_of_time():
                return alpha  # discarded: every caller returns at once once stop_search is set
            return super().quiescence_search(board, alpha, beta, h, qs_depth)

    return TimedSimpleEngine()


# -- keeping the boards in step ------------------------------------------------------------------

Key = tuple[int, int, frozenset[int]]


def our_key(move: Move) -> Key:
    return move.path[0], move.path[-1], frozenset(move.captured)


def their_key(move: Any) -> Key:
    squares = move.square_list
    return squares[0] + 1, squares[-1] + 1, frozenset(c + 1 for c in move.captured_list)


def their_path(move: Any) -> tuple[int, ...]:
    return tuple(s + 1 for s in move.square_list)


def describe(key: Key) -> str:
    start, end, captured = key
    if not captured:
        return f"{start}-{end}"
    return f"{start}x{end} (takes {','.join(map(str, sorted(captured)))})"


@dataclass
class Step:
    """Both sides' legal moves of the current position, by key."""

    ours: dict[Key, list[Move]]
    theirs: dict[Key, list[Any]]


def compare_moves(game: Game, board: Any) -> Step:
    ours: dict[Key, list[Move]] = {}
    for move in game.legal_moves():
        ours.setdefault(our_key(move), []).append(move)
    theirs: dict[Key, list[Any]] = {}
    for move in board.legal_moves:
        theirs.setdefault(their_key(move), []).append(move)
    if ours.keys() != theirs.keys():
        raise MatchError(
            f"{game.variant.key}: the legal moves differ after "
            f"{' '.join(m.pdn() for m in game.moves) or 'no moves'} "
            f"(FEN {game.position.fen()}): only ours "
            f"{sorted(map(describe, ours.keys() - theirs.keys()))}, only py-draughts' "
            f"{sorted(map(describe, theirs.keys() - ours.keys()))}"
        )
    return Step(ours, theirs)


def to_theirs(step: Step, move: Move) -> Any:
    candidates = step.theirs.get(our_key(move))
    if not candidates:
        raise MatchError(f"our move {move.pdn()} has no py-draughts counterpart")
    exact = [m for m in candidates if their_path(m) == move.path]
    return (exact or candidates)[0]


def to_ours(step: Step, move: Any) -> Move:
    candidates = step.ours.get(their_key(move))
    if not candidates:
        raise MatchError(f"py-draughts' move {move} is not one of ours")
    exact = [m for m in candidates if m.path == their_path(move)]
    return (exact or candidates)[0]


def check_same(game: Game, board: Any, draughts: Any) -> None:
    pos = game.position
    squares = pos.variant.geometry.squares_in

    def theirs(bits: int) -> list[int]:
        return [i + 1 for i in range(bits.bit_length()) if bits >> i & 1]

    pairs = (
        ("white men", squares(pos.white_men), theirs(board.white_men)),
        ("white kings", squares(pos.white_kings), theirs(board.white_kings)),
        ("black men", squares(pos.black_men), theirs(board.black_men)),
        ("black kings", squares(pos.black_kings), theirs(board.black_kings)),
    )
    for what, ours, their in pairs:
        if ours != their:
            raise MatchError(
                f"{game.variant.key}: the boards differ after "
                f"{' '.join(m.pdn() for m in game.moves)}: {what} {ours} here, {their} in "
                f"py-draughts"
            )
    their_turn = Color.WHITE if board.turn == draughts.Color.WHITE else Color.BLACK
    if their_turn is not game.turn:
        raise MatchError(f"{game.variant.key}: the side to move differs after ply {game.ply}")


# -- playing -------------------------------------------------------------------------------------


@dataclass
class Side:
    """One engine's clock and search figures over a match."""

    seconds: list[float] = field(default_factory=list)
    searched_seconds: float = 0.0
    nodes: int = 0
    depths: list[int] = field(default_factory=list)

    def add(self, seconds: float, nodes: int | None, depth: int | None) -> None:
        self.seconds.append(seconds)
        if nodes is not None and depth is not None:
            self.searched_seconds += seconds
            self.nodes += nodes
            self.depths.append(depth)

    @property
    def nps(self) -> float:
        return self.nodes / self.searched_seconds if self.searched_seconds else 0.0


@dataclass
class GameRecord:
    number: int
    opening: Opening
    our_color: Color
    game: Game
    adjudicated: bool
    seconds: float

    @property
    def points(self) -> float:
        winner = self.game.outcome.winner if self.game.outcome else None
        if winner is None:
            return 0.5
        return 1.0 if winner is self.our_color else 0.0

    @property
    def how(self) -> str:
        if self.adjudicated:
            return "ply cap"
        outcome = self.game.outcome
        return outcome.words if outcome else "?"


@dataclass
class VariantResult:
    variant: Variant
    theirs_board: str
    records: list[GameRecord] = field(default_factory=list)
    ours: Side = field(default_factory=Side)
    theirs: Side = field(default_factory=Side)

    def wdl(self, color: Color | None = None) -> tuple[int, int, int]:
        rs = [r for r in self.records if color is None or r.our_color is color]
        return (
            sum(r.points == 1.0 for r in rs),
            sum(r.points == 0.5 for r in rs),
            sum(r.points == 0.0 for r in rs),
        )

    @property
    def score(self) -> float:
        return sum(r.points for r in self.records) / len(self.records) if self.records else 0.0


def play_game(
    variant: Variant,
    opening: Opening,
    our_color: Color,
    theirs: Theirs,
    draughts: Any,
    args: argparse.Namespace,
    result: VariantResult,
    number: int,
) -> GameRecord:
    started = time.perf_counter()
    game = Game(variant)
    board = theirs.make_board()
    check_same(game, board, draughts)
    searcher = searcher_for(variant)
    limits = Limits(movetime=args.movetime, level=6, seed=args.seed)

    for text in opening.moves:
        step = compare_moves(game, board)
        move = game.play(text)
        board.push(to_theirs(step, move))
        check_same(game, board, draughts)

    while not game.is_over and game.ply < args.max_plies:
        step = compare_moves(game, board)
        if game.turn is our_color:
            iterations: list[Iteration] = []
            searched = len(game.legal_moves()) > 1
            t0 = time.perf_counter()
            move = best_move(game, limits, on_iteration=iterations.append).move
            elapsed = time.perf_counter() - t0
            if searched:
                depth = iterations[-1].depth if iterations else 0
                result.ours.add(elapsed, searcher.nodes, depth)
            else:
                result.ours.add(elapsed, None, None)  # a forced move: a token search
            their_move = to_theirs(step, move)
        else:
            board.search_root = len(board._moves_stack)
            t0 = time.perf_counter()
            their_move = theirs.engine.get_best_move(board)
            elapsed = time.perf_counter() - t0
            board.search_root = -1
            result.theirs.add(elapsed, theirs.engine.nodes, theirs.engine.depth_done)
            move = to_ours(step, their_move)
        game.play(move)
        board.push(their_move)
        check_same(game, board, draughts)
        gc.collect()  # outside the timing: see "Garbage collection" in the docstring
        gc.freeze()

    adjudicated = not game.is_over
    if adjudicated:
        game.offer_draw(game.turn)
        game.accept_draw(game.turn.other)
    return GameRecord(number, opening, our_color, game, adjudicated, time.perf_counter() - started)


def pdn_of(record: GameRecord, args: argparse.Namespace, version: str) -> str:
    ours = f"our engine (level 6, {args.movetime:g} s/move)"
    theirs = f"py-draughts {version} SimpleEngine ({args.their_movetime:g} s/move)"
    white, black = (ours, theirs) if record.our_color is Color.WHITE else (theirs, ours)
    tags = {
        "Event": "bench/match.py",
        "Round": str(record.number),
        "White": white,
        "Black": black,
        "Opening": f"{record.opening.name}: {record.opening.text}",
    }
    if record.adjudicated:
        tags["Termination"] = f"adjudicated draw after {args.max_plies} plies"
    return write_game(record.game, tags)


def run_variant(
    variant: Variant, draughts: Any, version: str, args: argparse.Namespace
) -> VariantResult:
    theirs = build_theirs(draughts, variant, args.their_movetime, args.native_clock)
    result = VariantResult(variant, theirs.board_name)
    openings = openings_for(variant, args.games, args.seed)
    pdn_file = None
    if args.pdn is not None:
        args.pdn.mkdir(parents=True, exist_ok=True)
        pdn_file = args.pdn / f"{variant.key}.pdn"
        pdn_file.write_text("")
    for i in range(args.games):
        opening = openings[i // 2]
        first = variant.first
        our_color = first if i % 2 == 0 else first.other
        record = play_game(variant, opening, our_color, theirs, draughts, args, result, i + 1)
        result.records.append(record)
        if pdn_file is not None:
            with pdn_file.open("a") as fh:
                fh.write(pdn_of(record, args, version) + "\n")
        w, d, lost = result.wdl()
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[record.points]
        print(
            f"{variant.key} {i + 1}/{args.games}: {opening.name} ({opening.text}), ours "
            f"{our_color.label}: {outcome} ({record.how}, {record.game.ply} plies, "
            f"{record.seconds:.0f} s); total +{w} ={d} -{lost}, {100 * result.score:.0f}%",
            file=sys.stderr,
            flush=True,
        )
    return result


# -- output --------------------------------------------------------------------------------------

HEADER = (
    "variant",
    "games",
    "W",
    "D",
    "L",
    "score",
    "as 1st mover W-D-L",
    "as 2nd mover W-D-L",
    "ours s/move mean (max)",
    "py-draughts s/move mean (max)",
    "ours nodes/s",
    "ours depth median (max)",
    "py-draughts nodes/s",
    "py-draughts depth median (max)",
)


def _timing(side: Side) -> str:
    if not side.seconds:
        return "n/a"
    return f"{statistics.fmean(side.seconds):.3f} ({max(side.seconds):.3f})"


def _depth(side: Side) -> str:
    if not side.depths:
        return "n/a"
    return f"{statistics.median(side.depths):g} ({max(side.depths)})"


def cells(r: VariantResult) -> list[str]:
    w, d, lost = r.wdl()
    first = r.variant.first
    return [
        r.variant.key,
        str(len(r.records)),
        str(w),
        str(d),
        str(lost),
        f"{100 * r.score:.1f}%",
        "-".join(map(str, r.wdl(first))),
        "-".join(map(str, r.wdl(first.other))),
        _timing(r.ours),
        _timing(r.theirs),
        f"{r.ours.nps:,.0f}",
        _depth(r.ours),
        f"{r.theirs.nps:,.0f}",
        _depth(r.theirs),
    ]


def notes(results: list[VariantResult], args: argparse.Namespace, version: str) -> list[str]:
    if args.their_movetime == args.movetime:
        time_use = f"{args.movetime:g} s per move for both sides"
    else:
        time_use = (
            f"{args.movetime:g} s per move for ours, {args.their_movetime:g} s for py-draughts"
        )
    out = [
        f"py-draughts {version} SimpleEngine; {time_use}; Python {platform.python_version()}.",
        "Clock: py-draughts' own check every 2048 nodes (--native-clock)."
        if args.native_clock
        else "Clock: SimpleEngine's deadline checked at every node (see the docstring).",
        f"Games still running after {args.max_plies} plies are adjudicated draws.",
        "Nodes/s and depth leave out our forced moves (a single legal move, searched for a "
        "tenth of the time); depth is the last completed iteration (py-draughts' can reach its "
        "cap of 64 when its table already holds the answer, hence the median).",
    ]
    for r in results:
        ends = Counter(rec.how for rec in r.records)
        summary = ", ".join(f"{how} {n}" for how, n in ends.most_common())
        capped = ends.get("ply cap", 0)
        out.append(
            f"{r.variant.key}: py-draughts board {r.theirs_board}; endings: {summary}; "
            f"{capped} adjudicated at the ply cap; mean game length "
            f"{statistics.fmean(rec.game.ply for rec in r.records):.0f} plies."
        )
    return out


def format_markdown(results: list[VariantResult], note_lines: list[str]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * (len(HEADER) - 1)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in results]
    lines.append("")
    lines += [f"- {line}" for line in note_lines]
    return "\n".join(lines)


def format_plain(results: list[VariantResult], note_lines: list[str]) -> str:
    table = [list(HEADER), *(cells(r) for r in results)]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]

    def line(row: list[str]) -> str:
        cols = enumerate(zip(row, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in cols)

    lines = [line(row) for row in table]
    return "\n".join([*lines, "", *note_lines])


def parse_variants(text: str) -> list[Variant]:
    out = []
    for name in text.split(","):
        try:
            out.append(find_variant(name.strip()))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variants",
        type=parse_variants,
        default=parse_variants(DEFAULT_VARIANTS),
        help=f"comma-separated variants (default {DEFAULT_VARIANTS})",
    )
    parser.add_argument("--games", type=int, default=30, help="games per variant (default 30)")
    parser.add_argument(
        "--movetime", type=float, default=0.2, help="seconds per move, both sides (default 0.2)"
    )
    parser.add_argument(
        "--their-movetime",
        type=float,
        help="seconds per move for py-draughts (default: --movetime; more gives it time odds)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the random openings (default 1)"
    )
    parser.add_argument(
        "--max-plies", type=int, default=200, help="adjudicate a draw after this many plies"
    )
    parser.add_argument("--pdn", type=Path, help="directory for the games (VARIANT.pdn)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument(
        "--native-clock",
        action="store_true",
        help="let SimpleEngine check its clock its own way (every 2048 nodes)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.their_movetime is None:
        args.their_movetime = args.movetime
    if args.movetime <= 0 or args.their_movetime <= 0:
        parser.error("--movetime and --their-movetime must be positive")
    if args.max_plies < 10:
        parser.error("--max-plies must be at least 10")

    version, draughts = load_py_draughts()
    results = []
    try:
        for variant in args.variants:
            results.append(run_variant(variant, draughts, version, args))
    except MatchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    note_lines = notes(results, args, version)
    print(
        format_markdown(results, note_lines) if args.markdown else format_plain(results, note_lines)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
