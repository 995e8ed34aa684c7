"""Move-generation benchmark: our perft against py-draughts on the same start positions.

Why it exists: the bot, the engine and the ``/moves`` autocomplete all stand on ``rules``' move
generator, so its speed is the ceiling for everything above it.  Perft (the number of move
sequences of a given length) is the standard way to measure a move generator and to prove it
right at the same time: every row is checked against the published count, and the script exits
non-zero if our count is wrong.  For scale it times py-draughts (a pure-Python library with a
bitboard core) on the same trees in the same process, through its public board API.

How to run (py-draughts is the optional ``bench`` extra; without it only our side is reported)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e ".[bench]"
    /tmp/bvenv/bin/python bench/perft.py                        # plain table
    /tmp/bvenv/bin/python bench/perft.py --markdown --repeat 7  # as in docs/BENCHMARKS.md
    /tmp/bvenv/bin/python bench/perft.py --rows english:6,brazilian:6

Method: both sides count the last ply in bulk (the number of legal moves of each position one
ply above the leaves, without playing them).  Each timing is the best of ``--repeat`` runs (the
median is printed too); the speed ratio is our nodes/s divided by py-draughts' nodes/s, so above
1 means we are faster.

py-draughts differences handled here:

* Its ``AmericanBoard`` makes captures optional, which is not English draughts.  The English row
  uses a small subclass that asks its move generator for compulsory captures
  (``_legal_moves_from_core(core, max_capture=False, captures_optional=False)``, an internal
  method); its count is checked against the published number like ours.  If that internal API
  is missing, the row falls back to ``AmericanBoard`` and says that its tree is different.
* For International it also has an internal, board-free ``turbo`` perft; it is reported as an
  extra reference row.

``--native`` times the engine's native core instead (``engine._core``, issue 17: move generation
and perft in C, built by ``pip install -e .``; on 12x12 its 128-bit build ``engine._core_wide``)
against ``rules``' pure-Python perft on the same trees in the same run, for every variant, then
the core alone ``--native-extra`` plies deeper (where the core's speed is measured over seconds
rather than milliseconds)::

    /work/venv/bin/python bench/perft.py --native --markdown --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/perft.py` without installing
    sys.path.insert(0, str(_ROOT))

from rules.perft import perft  # noqa: E402
from rules.position import Position  # noqa: E402
from rules.variants import find_variant  # noqa: E402

DEFAULT_ROWS = "english:8,international:6,russian:8"
NATIVE_ROWS = (
    "english:9,dame:9,pool:9,international:8,brazilian:9,russian:9,italian:9,spanish:9,"
    "portuguese:9,czech:9,thai:8,turkish:7,frisian:7,antidraughts:8,breakthrough:8,canadian:7"
)

_PUBLISHED_SERIES: dict[str, tuple[int, ...]] = {
    "english": (7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680),
    "russian": (7, 49, 302, 1_469, 7_482, 37_986, 190_146, 929_905),
    # From depth 8 on, the published International counts (6,483,961 at depth 8) treat capture
    # routes with the same start, end and captured pieces as one move; we count landing paths
    # (DESIGN.md), which gives 10 more at depth 8, so the series stops at depth 7 here.
    "international": (9, 81, 658, 4_265, 27_117, 167_140, 1_049_442),
    # The FMJD forum's "Perft on large boards" (laatste.info, viewtopic.php?f=53&t=4563; dctl's
    # test/src/ai/traversal/initial/large.cpp): 31,839,056 at depth 8 merges capture routes,
    # where our landing paths give 14 more (tests/engine/test_core_canadian.py counts both).
    "canadian": (11, 121, 1_222, 10_053, 79_049, 584_100, 4_369_366),
    # dctl's tables (tests/rules/test_perft.py cites them); at depth 10 they merge landing paths.
    "czech": (7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_671),
    "italian": (7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_875),
    "spanish": (7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_866),
    "portuguese": (7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_866),
    # Sanavesa/kish examples/perft.rs, lines 22-36.
    "turkish": (8, 64, 708, 7_538, 85_090, 931_312, 10_782_382, 123_290_300),
    # github rhalbersma/dctl, file board_10x10.cpp, around line 52 (Frisian, from the start).
    "frisian": (
        9,
        81,
        658,
        3_880,
        21_345,
        103_584,
        550_314,
        2_907_905,
        16_204_497,
        90_161_025,
        521_287_205,
    ),
}
PUBLISHED: dict[tuple[str, int], int] = {
    (key, depth): nodes
    for key, series in _PUBLISHED_SERIES.items()
    for depth, nodes in enumerate(series, start=1)
}
"""Published perft counts from the start position, by (variant key, depth)."""


@dataclass(frozen=True)
class Timing:
    """Node count and wall-clock seconds of repeated runs of one perft."""

    nodes: int
    best: float
    median: float

    @property
    def nps(self) -> float:
        return self.nodes / self.best if self.best > 0 else float("inf")


@dataclass
class Row:
    """One line of the result table."""

    label: str
    depth: int
    ours: Timing
    theirs: Timing | None = None
    theirs_name: str = ""


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failed: bool = False


def time_runs(runs: list[Callable[[], int]], repeat: int) -> list[Timing]:
    """Time each of ``runs`` ``repeat`` times, taking turns (ours, theirs, ours, ...) so that a
    slow spell of this shared virtual machine hits every contender alike; a run's node count must
    be the same every time."""
    seconds: list[list[float]] = [[] for _ in runs]
    nodes: list[int | None] = [None for _ in runs]
    for _ in range(repeat):
        for i, run in enumerate(runs):
            gc.collect()
            start = time.perf_counter()
            n = run()
            seconds[i].append(time.perf_counter() - start)
            if nodes[i] is not None and n != nodes[i]:
                raise RuntimeError(f"perft is not deterministic: {nodes[i]} then {n}")
            nodes[i] = n
    return [
        Timing(n, min(times), statistics.median(times))
        for n, times in zip(nodes, seconds, strict=True)
        if n is not None
    ]


# -- py-draughts ---------------------------------------------------------------------------------


def board_perft(board: Any, depth: int) -> int:
    """Perft through py-draughts' public API: ``legal_moves``, ``push``, ``pop``; last ply bulk."""
    moves = board.legal_moves
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for move in moves:
        board.push(move)
        total += board_perft(board, depth - 1)
        board.pop()
    return total


@dataclass(frozen=True)
class Theirs:
    """How to build py-draughts' board for one of our variants."""

    make_board: Callable[[], Any]
    name: str
    same_rules: bool
    """False when py-draughts plays different rules, so its tree (and count) differ."""


def load_py_draughts() -> tuple[str, dict[str, Theirs]] | None:
    """py-draughts' version and boards by our variant key, or ``None`` if it is not installed."""
    try:
        import draughts
    except ImportError:
        return None
    boards: dict[str, Theirs] = {
        "international": Theirs(draughts.StandardBoard, "StandardBoard", True),
        "russian": Theirs(draughts.RussianBoard, "RussianBoard", True),
    }
    brazilian = getattr(draughts, "BrazilianBoard", None)
    if brazilian is not None:
        boards["brazilian"] = Theirs(brazilian, "BrazilianBoard", True)
    try:
        from draughts.boards.american import _CORE as american_core

        class EnglishBoard(draughts.AmericanBoard):
            """py-draughts' American board with compulsory captures: English draughts."""

            @property
            def legal_moves(self) -> list[Any]:
                return self._legal_moves_from_core(
                    american_core, max_capture=False, captures_optional=False
                )

        if not hasattr(draughts.AmericanBoard, "_legal_moves_from_core"):
            raise ImportError("no _legal_moves_from_core")
        boards["english"] = Theirs(EnglishBoard, "AmericanBoard, compulsory captures", True)
    except ImportError:
        optional = Theirs(draughts.AmericanBoard, "AmericanBoard, captures optional", False)
        boards["english"] = optional
    return draughts.__version__, boards


def turbo_perft() -> Callable[[int], int] | None:
    """py-draughts' internal International-only perft, if this version has it."""
    try:
        import draughts
        from draughts.engines.turbo import perft_from_board
    except ImportError:
        return None
    return lambda depth: perft_from_board(draughts.StandardBoard(), depth)


# -- the run -------------------------------------------------------------------------------------


def parse_rows(text: str) -> list[tuple[str, int]]:
    rows: list[tuple[str, int]] = []
    for item in text.split(","):
        name, sep, depth = item.strip().partition(":")
        if not sep or not depth.strip().isdigit():
            raise argparse.ArgumentTypeError(f"row {item!r} is not VARIANT:DEPTH")
        try:
            key = find_variant(name).key
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        rows.append((key, int(depth)))
    return rows


def run(rows: list[tuple[str, int]], repeat: int) -> Report:
    report = Report()
    loaded = load_py_draughts()
    if loaded is None:
        report.notes.append(
            'py-draughts is not installed (pip install -e ".[bench]"); only our side is timed.'
        )
        theirs_boards: dict[str, Theirs] = {}
    else:
        version, theirs_boards = loaded
        report.notes.append(f"py-draughts {version}.")
    turbo = turbo_perft() if loaded is not None else None

    for key, depth in rows:
        start = Position.start(find_variant(key))
        spec = theirs_boards.get(key)
        runs: list[Callable[[], int]] = [lambda start=start, depth=depth: perft(start, depth)]
        if spec is not None:
            runs.append(lambda spec=spec, depth=depth: board_perft(spec.make_board(), depth))
        with_turbo = key == "international" and turbo is not None
        if with_turbo:
            runs.append(lambda depth=depth: turbo(depth))
        timings = time_runs(runs, repeat)
        ours = timings[0]
        published = PUBLISHED.get((key, depth))
        if published is None:
            report.notes.append(f"{key} d{depth}: no published count to check ours against.")
        elif ours.nodes != published:
            report.failed = True
            report.notes.append(
                f"FAIL {key} d{depth}: our count {ours.nodes} != published {published}."
            )
        row = Row(key, depth, ours)
        report.rows.append(row)

        if spec is None:
            if loaded is not None:
                report.notes.append(f"{key}: py-draughts has no board for this variant.")
            continue
        row.theirs = timings[1]
        row.theirs_name = spec.name
        expected = published if published is not None else ours.nodes
        if not spec.same_rules:
            report.notes.append(
                f"{key}: py-draughts' {spec.name} plays different rules, so it walks a different "
                f"tree ({row.theirs.nodes} nodes at depth {depth}); compare nodes/s, not seconds."
            )
        elif row.theirs.nodes != expected:
            report.notes.append(
                f"{key} d{depth}: py-draughts ({spec.name}) counts {row.theirs.nodes}, "
                f"{row.theirs.nodes - expected:+d} against {expected}."
            )

        if with_turbo:
            timing = timings[-1]
            report.rows.append(Row(key, depth, ours, timing, "py-draughts turbo internal perft"))
            if timing.nodes != expected:
                report.notes.append(
                    f"{key} d{depth}: py-draughts turbo perft counts {timing.nodes}, "
                    f"{timing.nodes - expected:+d} against {expected}."
                )
    return report


# -- output --------------------------------------------------------------------------------------

HEADER = (
    "variant",
    "depth",
    "nodes",
    "ours s",
    "ours nodes/s",
    "py-draughts nodes",
    "py-draughts s",
    "py-draughts nodes/s",
    "ratio",
)


def cells(row: Row) -> list[str]:
    name = row.theirs_name
    if name and not name.startswith("py-draughts"):
        name = f"py-draughts: {name}"
    label = f"{row.label} ({name})" if name else row.label
    out = [
        label,
        str(row.depth),
        f"{row.ours.nodes:,}",
        f"{row.ours.best:.3f}",
        f"{row.ours.nps:,.0f}",
    ]
    if row.theirs is None:
        return [*out, "n/a", "n/a", "n/a", "n/a"]
    return [
        *out,
        f"{row.theirs.nodes:,}",
        f"{row.theirs.best:.3f}",
        f"{row.theirs.nps:,.0f}",
        f"{row.ours.nps / row.theirs.nps:.2f}x",
    ]


def format_markdown(report: Report) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * 2 + "---:|" * (len(HEADER) - 2)]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in report.rows]
    if report.notes:
        lines.append("")
        lines += [f"- {note}" for note in report.notes]
    return "\n".join(lines)


def format_plain(report: Report) -> str:
    table = [list(HEADER), *(cells(row) for row in report.rows)]
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADER))]

    def line(r: list[str]) -> str:
        cols = enumerate(zip(r, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in cols)

    lines = [line(r) for r in table]
    lines.append("")
    for row in report.rows:
        medians = f"ours median {row.ours.median:.3f} s"
        if row.theirs is not None:
            medians += f", py-draughts median {row.theirs.median:.3f} s"
        lines.append(f"{row.label} d{row.depth}: {medians}")
    lines += report.notes
    return "\n".join(lines)


# -- the native core against rules ---------------------------------------------------------------


@dataclass
class NativeRow:
    """One variant: rules and the core on the same tree, then the core alone deeper."""

    key: str
    depth: int
    rules: Timing
    core: Timing
    deeper: Timing | None
    extra: int
    interior: int
    """Positions above the leaves of the deeper tree (perft 0 .. depth - 1): each had its moves
    generated (or counted, one ply above the leaves) and was reached by a make-move, so
    ``interior / seconds`` is the rate of the work a search does per node, without evaluation."""


def run_native(
    rows: list[tuple[str, int]], repeat: int, extra: int
) -> tuple[list[NativeRow], list[str], bool]:
    """Time ``rules.perft`` and the core's perft taking turns; every count is checked against the
    other side and against the published figure where there is one."""
    from engine.native import perft as core_perft  # needs the compiled extension

    out: list[NativeRow] = []
    notes: list[str] = []
    matched: list[str] = []
    failed = False
    for key, depth in rows:
        start = Position.start(find_variant(key))
        python, core = time_runs(
            [partial(perft, start, depth), partial(core_perft, start, depth)], repeat
        )
        deeper = (
            time_runs([partial(core_perft, start, depth + extra)], repeat)[0] if extra else None
        )
        if python.nodes != core.nodes:
            failed = True
            notes.append(f"FAIL {key} d{depth}: core {core.nodes} != rules {python.nodes}.")
        for d, timing in ((depth, core), (depth + extra, deeper)):
            published = PUBLISHED.get((key, d))
            if timing is None or published is None:
                continue
            if timing.nodes != published:
                failed = True
                notes.append(f"FAIL {key} d{d}: {timing.nodes} != published {published}.")
            else:
                matched.append(f"{key} d{d}")
        interior = sum(core_perft(start, d) for d in range(depth + extra))
        out.append(NativeRow(key, depth, python, core, deeper, extra, interior))
    notes.append("Published counts matched: " + (", ".join(matched) or "none in these rows") + ".")
    return out, notes, failed


NATIVE_HEADER = (
    "variant",
    "depth",
    "nodes",
    "rules s",
    "rules nodes/s",
    "core s",
    "core nodes/s",
    "speed-up",
    "core alone: depth",
    "nodes",
    "s",
    "nodes/s",
    "positions/s",
)


def native_cells(row: NativeRow) -> list[str]:
    out = [
        row.key,
        str(row.depth),
        f"{row.core.nodes:,}",
        f"{row.rules.best:.3f}",
        f"{row.rules.nps:,.0f}",
        f"{row.core.best:.4f}",
        f"{row.core.nps:,.0f}",
        f"{row.core.nps / row.rules.nps:.0f}x",
    ]
    if row.deeper is None:
        return [*out, "", "", "", "", ""]
    return [
        *out,
        str(row.depth + row.extra),
        f"{row.deeper.nodes:,}",
        f"{row.deeper.best:.3f}",
        f"{row.deeper.nps:,.0f}",
        f"{row.interior / row.deeper.best:,.0f}",
    ]


def format_native(rows: list[NativeRow], notes: list[str], markdown: bool) -> str:
    table = [list(NATIVE_HEADER), *(native_cells(row) for row in rows)]
    if markdown:
        lines = ["| " + " | ".join(r) + " |" for r in table]
        lines.insert(1, "|" + "---|" + "---:|" * (len(NATIVE_HEADER) - 1))
        return "\n".join([*lines, "", *(f"- {note}" for note in notes)])
    widths = [max(len(r[i]) for r in table) for i in range(len(NATIVE_HEADER))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in table]
    return "\n".join([*lines, "", *notes])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rows",
        type=parse_rows,
        default=None,
        help=f"comma-separated VARIANT:DEPTH list (default {DEFAULT_ROWS}; "
        f"with --native {NATIVE_ROWS})",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per measurement; the best is reported"
    )
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument(
        "--native",
        action="store_true",
        help="time the native core (engine._core) against rules instead of py-draughts",
    )
    parser.add_argument(
        "--native-extra",
        type=int,
        default=2,
        help="with --native: plies deeper for the core alone (0: none; default 2)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    if args.native:
        rows = args.rows or parse_rows(NATIVE_ROWS)
        native_rows, notes, failed = run_native(rows, args.repeat, max(args.native_extra, 0))
        print(format_native(native_rows, notes, args.markdown))
        return 1 if failed else 0
    report = run(args.rows or parse_rows(DEFAULT_ROWS), args.repeat)
    print(format_markdown(report) if args.markdown else format_plain(report))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
