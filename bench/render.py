"""Rendering benchmark: ms per board PNG and per GIF frame, against a naive Pillow baseline.

Why it exists: every move the bot posts is a freshly drawn PNG and every finished game can be sent
as an animated GIF, so the renderer sits on the path of every reply.  The renderer draws much more
than a plain board (a frame with coordinates and square numbers, shaded antialiased men, kings
with crowns, the last move's squares, capture path and ghosts of the captured pieces, a status
strip), and the target is that all of that costs no more than the simplest thing one could write
with Pillow: squares and ellipses drawn straight onto a fresh image and saved as a PNG.  This
script measures both in the same run and prints the ratio.

How to run (the project's own dependencies are enough)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/render.py                          # plain tables
    /tmp/bvenv/bin/python bench/render.py --markdown --repeat 50   # as in docs/BENCHMARKS.md

Method: the PNG rows draw one midgame position per board size at 640 px: an English position
(18 pieces, kings of both sides, last move a king's double capture) and an International one
(30 pieces, kings of both sides, last move a capture).  For each, "ours, all features" is
``render_png`` with the last move, the position before it (for the ghosts) and the status strip;
"ours, pieces only" is ``render_png`` of the same position without them; "naive" is a fresh
``Image.new``, ``ImageDraw`` rectangles for the dark squares and ellipses for the pieces, saved as
PNG with Pillow's defaults (no coordinates, numbers, shading, crowns or highlights).  An extra
row saves ours (all features) as a truecolour PNG with Pillow's defaults, like the naive one, to
show what the palette encoding is worth.  The GIF rows time ``render_gif`` of a 100-ply English
and International game (random legal moves from a fixed seed) and divide by the frame count.
Every contender is called once before timing so that the caches are warm, then
``--repeat`` times, taking turns, so that a slow spell of this shared virtual machine hits all of
them alike; median and 90th percentile are printed.  The ratio is the naive median divided by
ours, so above 1 means ours is faster.

The first render of a theme and size builds the caches (background, piece sprites, palette).  That
cold-start cost is measured separately, in fresh processes (``--cold-runs`` of them per row) so
that the caches are really empty; each child first saves a tiny PNG and GIF so that Pillow's own
lazy plugin loading is not counted as ours.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
# Runnable as `python bench/render.py` without installing.  This file is itself called render.py,
# so bench/ (which Python puts first on the path) must go, or `import render` would find it.
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() not in (_HERE, _ROOT)]

import PIL  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from render.board import render_board, status_text  # noqa: E402
from render.encoding import render_png  # noqa: E402
from render.gif import GIF_WIDTH, render_gif  # noqa: E402
from render.themes import DEFAULT_THEME, THEMES, Theme, find_theme  # noqa: E402
from rules import Game, Move, Position, find_variant, parse_fen, parse_move  # noqa: E402
from rules.position import WHITE_KING, WHITE_MAN  # noqa: E402

WIDTH = 640
"""PNG width for every PNG row, ours and naive alike (render.board's default)."""
GIF_PLIES = 100


# -- what is drawn -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """A midgame position reached by ``move`` from ``before``, with its status-strip move number."""

    key: str
    label: str
    variant: str
    before: str
    move: str
    move_number: int
    captures: int
    """How many pieces ``move`` captures (checked, so an edited FEN cannot quietly drift)."""


SCENES = (
    Scene(
        "english",
        "8x8 english",
        "english",
        "B:W14,17,22,23,24,25,29,30,32,K1:B2,3,4,5,8,11,12,13,20,K27",
        "27x18x9",
        21,
        2,
    ),
    Scene(
        "international",
        "10x10 international",
        "international",
        "B:W21,30,32,36,37,38,39,41,42,45,46,47,48,50,K5:B1,2,4,6,7,8,9,11,15,16,17,18,19,22,23,K49",
        "16x27",
        16,
        1,
    ),
)
GIF_VARIANTS = ("english", "international")


@dataclass(frozen=True)
class Board:
    """A scene made ready to draw."""

    scene: Scene
    before: Position
    move: Move
    after: Position
    status: str

    @property
    def pieces(self) -> int:
        return sum(1 for _ in self.after.iter_pieces())


def build(scene: Scene) -> Board:
    before = parse_fen(scene.before, find_variant(scene.variant))
    move = parse_move(before, scene.move)
    if len(move.captured) != scene.captures:
        raise RuntimeError(f"{scene.key}: {move} should capture {scene.captures} pieces")
    after = before.play(move)
    if not (after.white_kings and after.black_kings):
        raise RuntimeError(f"{scene.key}: the position should have kings of both sides")
    return Board(scene, before, move, after, status_text(after, scene.move_number))


def sample_game(variant: str, plies: int = GIF_PLIES) -> tuple[Game, int]:
    """A game of exactly ``plies`` random legal moves, and the seed that gave it: seeds are tried
    from 0 up until a game does not end earlier."""
    for seed in range(1000):
        rng = random.Random(seed)
        game = Game(find_variant(variant))
        while game.ply < plies and not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.ply == plies:
            return game, seed
    raise RuntimeError(f"no random {variant} game of {plies} plies in 1000 seeds")


# -- contenders ----------------------------------------------------------------------------------


def ours_all(board: Board, theme: Theme) -> bytes:
    """Everything the bot draws: last move (squares, capture path, ghosts) and status strip."""
    return render_png(
        board.after,
        last_move=board.move,
        previous=board.before,
        theme=theme,
        width=WIDTH,
        status=board.status,
    )


def ours_truecolour(board: Board, theme: Theme) -> bytes:
    """As :func:`ours_all`, but saved as a truecolour PNG with Pillow's defaults, like the naive
    baseline: shows what the palette encoding saves."""
    img = render_board(
        board.after,
        last_move=board.move,
        previous=board.before,
        theme=theme,
        width=WIDTH,
        status=board.status,
    )
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def ours_plain(board: Board, theme: Theme) -> bytes:
    """The same position with no last move and no strip: like-for-like with the naive baseline
    (still with the frame, coordinates, numbers, shaded sprites and crowns)."""
    return render_png(board.after, theme=theme, width=WIDTH)


def naive(board: Board, theme: Theme) -> bytes:
    """The simplest board one could write: squares and ellipses on a fresh image, default PNG."""
    position = board.after
    size = position.variant.size
    geo = position.variant.geometry
    sq = WIDTH // size
    pad = sq // 8
    img = Image.new("RGB", (WIDTH, WIDTH), theme.light_square)
    draw = ImageDraw.Draw(img)
    for square in range(1, geo.squares + 1):
        column, row = geo.coordinates(square)
        x, y = column * sq, row * sq
        draw.rectangle((x, y, x + sq - 1, y + sq - 1), fill=theme.dark_square)
    for square, kind in position.iter_pieces():
        column, row = geo.coordinates(square)
        x, y = column * sq, row * sq
        fill = theme.white_piece if kind in (WHITE_MAN, WHITE_KING) else theme.black_piece
        draw.ellipse((x + pad, y + pad, x + sq - 1 - pad, y + sq - 1 - pad), fill=fill)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


# -- timing --------------------------------------------------------------------------------------


@dataclass
class Timing:
    """Seconds of each timed run of one contender, and what the last run produced."""

    seconds: list[float]
    data: bytes

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p90(self) -> float:
        if len(self.seconds) < 2:
            return self.seconds[0]
        return statistics.quantiles(self.seconds, n=10, method="inclusive")[-1]


def time_runs(runs: list[Callable[[], bytes]], repeat: int) -> list[Timing]:
    """Call each of ``runs`` once untimed (warm caches, loaded codecs), then ``repeat`` timed times,
    taking turns (a, b, c, a, b, c...) so that a slow spell of this shared virtual machine hits
    every contender alike."""
    data = [run() for run in runs]
    seconds: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for i, run in enumerate(runs):
            gc.collect()
            start = time.perf_counter()
            data[i] = run()
            seconds[i].append(time.perf_counter() - start)
    return [Timing(s, d) for s, d in zip(seconds, data, strict=True)]


def image_size(data: bytes) -> str:
    with Image.open(io.BytesIO(data)) as img:
        return f"{img.width}x{img.height}"


# -- cold start (fresh processes) ----------------------------------------------------------------


def _warm_pillow() -> None:
    """Load Pillow's PNG and GIF writers, which the first save of any program pays for."""
    img = Image.new("RGB", (8, 8))
    img.save(io.BytesIO(), "PNG")
    img.convert("P").save(io.BytesIO(), "GIF")


def cold_child(name: str, theme: Theme) -> float:
    """In a fresh process: seconds of the first render of row ``name``."""
    if name.startswith("gif-"):
        game, _ = sample_game(name.removeprefix("gif-"))

        def draw() -> object:
            return render_gif(game, theme=theme)

    else:
        board = build(next(s for s in SCENES if s.key == name))

        def draw() -> object:
            return ours_all(board, theme)

    _warm_pillow()
    gc.collect()
    start = time.perf_counter()
    draw()
    return time.perf_counter() - start


def cold_runs(name: str, theme: Theme, runs: int) -> list[float]:
    """First-render seconds of row ``name`` in ``runs`` fresh processes."""
    firsts = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--cold-child", name, "--theme", theme.name],
            check=True,
            capture_output=True,
            text=True,
        )
        firsts.append(json.loads(out.stdout))
    return firsts


# -- the run -------------------------------------------------------------------------------------


@dataclass
class Row:
    label: str
    timing: Timing
    per: int = 1
    """Divide times by this (frames of a GIF)."""
    size: str = ""
    baseline: Timing | None = None
    """The naive row this one is compared with."""

    @property
    def median_ms(self) -> float:
        return self.timing.median * 1000 / self.per

    @property
    def p90_ms(self) -> float:
        return self.timing.p90 * 1000 / self.per


@dataclass
class ColdRow:
    label: str
    first_ms: float
    warm_ms: float
    unit: str = "ms per image"


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    cold: list[ColdRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run(repeat: int, cold: int, theme: Theme) -> Report:
    report = Report()
    report.notes.append(
        f"{cpu_name()}, {os.cpu_count()} CPUs; Python {platform.python_version()}; "
        f"Pillow {PIL.__version__}; theme {theme.name}; {repeat} timed runs per row."
    )
    boards = [build(scene) for scene in SCENES]
    games = {variant: sample_game(variant) for variant in GIF_VARIANTS}

    runs: list[Callable[[], bytes]] = []
    for board in boards:
        runs += [
            lambda b=board: ours_all(b, theme),
            lambda b=board: ours_truecolour(b, theme),
            lambda b=board: ours_plain(b, theme),
            lambda b=board: naive(b, theme),
        ]
    gifs: dict[str, int] = {}
    for variant, (game, _) in games.items():

        def gif(game: Game = game, variant: str = variant) -> bytes:
            result = render_gif(game, theme=theme)
            gifs[variant] = result.frames
            if result.note:
                raise RuntimeError(f"{variant} GIF was shrunk: {result.note}")
            return result.data

        runs.append(gif)
    timings = iter(time_runs(runs, repeat))

    for board in boards:
        ours, truecolour, plain, base = (next(timings) for _ in range(4))
        name = board.scene.label
        report.rows += [
            Row(f"{name}: ours, all features", ours, size=image_size(ours.data), baseline=base),
            Row(
                f"{name}: ours, all features, truecolour PNG",
                truecolour,
                size=image_size(truecolour.data),
                baseline=base,
            ),
            Row(f"{name}: ours, pieces only", plain, size=image_size(plain.data), baseline=base),
            Row(f"{name}: naive baseline", base, size=image_size(base.data)),
        ]
        move = board.move
        report.notes.append(
            f"{name}: {board.pieces} pieces, {board.after.fen()}; last move {move} "
            f"({len(move.captured)} captured, drawn as ghosts); status strip {board.status!r}."
        )
    for variant, (game, seed) in games.items():
        timing = next(timings)
        frames = gifs[variant]
        label = f"{find_variant(variant).size}x{find_variant(variant).size} {variant} GIF"
        report.rows.append(
            Row(f"{label}, per frame", timing, per=frames, size=image_size(timing.data))
        )
        captures = sum(1 for m in game.moves if m.is_capture)
        report.notes.append(
            f"{label}: {game.ply} random plies (seed {seed}, {captures} captures), {frames} "
            f"frames at {GIF_WIDTH} px with status strip; whole GIF median "
            f"{timing.median:.3f} s."
        )

    if cold > 0:
        warm = {row.label: row for row in report.rows}
        for board in boards:
            firsts = cold_runs(board.scene.key, theme, cold)
            label = f"{board.scene.label}: ours, all features"
            report.cold.append(
                ColdRow(label, statistics.median(firsts) * 1000, warm[label].median_ms)
            )
        for variant in GIF_VARIANTS:
            firsts = cold_runs(f"gif-{variant}", theme, cold)
            size = find_variant(variant).size
            row = warm[f"{size}x{size} {variant} GIF, per frame"]
            report.cold.append(
                ColdRow(
                    f"{size}x{size} {variant} GIF, whole game",
                    statistics.median(firsts) * 1000,
                    row.timing.median * 1000,
                    "ms per GIF",
                )
            )
        report.notes.append(
            f"Cold: median of {cold} fresh processes, first call after imports and a Pillow "
            f"warm-up; warm: the median above."
        )

    for board in boards:
        name = board.scene.label
        ours_ms = next(r for r in report.rows if r.label == f"{name}: ours, all features")
        base_ms = next(r for r in report.rows if r.label == f"{name}: naive baseline")
        met = "met" if ours_ms.median_ms <= base_ms.median_ms else "NOT met"
        report.notes.append(
            f"Target {met} for {name}: ours with all features {ours_ms.median_ms:.2f} ms, "
            f"naive {base_ms.median_ms:.2f} ms."
        )
    return report


# -- output --------------------------------------------------------------------------------------

HEADER = ("row", "image px", "median ms", "p90 ms", "bytes", "naive/ours")
COLD_HEADER = ("cold start", "unit", "first (cold)", "warm median", "cache build")


def cells(row: Row) -> list[str]:
    if row.baseline is not None:
        ratio = f"{row.baseline.median * 1000 / row.median_ms:.2f}x"
    else:
        ratio = "n/a" if row.per > 1 else "baseline"
    return [
        row.label,
        row.size,
        f"{row.median_ms:.2f}",
        f"{row.p90_ms:.2f}",
        f"{len(row.timing.data):,}",
        ratio,
    ]


def cold_cells(row: ColdRow) -> list[str]:
    return [
        row.label,
        row.unit,
        f"{row.first_ms:.1f}",
        f"{row.warm_ms:.1f}",
        f"{row.first_ms - row.warm_ms:.1f}",
    ]


def markdown_table(header: tuple[str, ...], body: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|---|---|" + "---:|" * (len(header) - 2)]
    return lines + ["| " + " | ".join(r) + " |" for r in body]


def plain_table(header: tuple[str, ...], body: list[list[str]]) -> list[str]:
    table = [list(header), *body]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]

    def line(r: list[str]) -> str:
        cols = enumerate(zip(r, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in cols).rstrip()

    return [line(r) for r in table]


def format_report(report: Report, markdown: bool) -> str:
    table = markdown_table if markdown else plain_table
    lines = table(HEADER, [cells(r) for r in report.rows])
    if report.cold:
        lines.append("")
        lines += table(COLD_HEADER, [cold_cells(r) for r in report.cold])
    lines.append("")
    lines += [f"- {note}" if markdown else note for note in report.notes]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="timed runs per row (default 50)")
    parser.add_argument(
        "--cold-runs",
        type=int,
        default=5,
        help="fresh processes per cold-start row (default 5; 0 skips the cold start)",
    )
    parser.add_argument(
        "--theme",
        type=find_theme,
        default=find_theme(DEFAULT_THEME),
        help=f"one of {', '.join(THEMES)} (default {DEFAULT_THEME})",
    )
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--cold-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold_child:
        print(json.dumps(cold_child(args.cold_child, args.theme)))
        return 0
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.cold_runs < 0:
        parser.error("--cold-runs must not be negative")

    report = run(args.repeat, args.cold_runs, args.theme)
    print(format_report(report, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
