"""Standings picture benchmark: ms to word and draw a tournament's standings, 16 and 64 players.

Why it exists: after every round of a tournament (and at its end) the bot posts the standings as
one PNG per 16 players, with alt text and a text version (``bot.ui.standings_sheet.
draw_standings``), in a worker thread beside the board images of the round's new games.  A
standings page is a much bigger picture than a board (640 x 1,800 px for 16 players after 5
rounds, a chip per round per player), so this measures what it costs.

How to run (the project's own dependencies are enough; about half a minute)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/standings_image.py                # plain table
    /tmp/bvenv/bin/python bench/standings_image.py --markdown     # as in docs/BENCHMARKS.md

Method: the sample events of ``tests/support/standings_samples.py`` (seeded: the same tables every
run): a 16-player Swiss after 5 of 7 rounds, a 64-player Swiss with round 8 of 9 in play (four
pages), an 8-player round robin after its 7 rounds and a 64-player arena of 600 games, each in
English on the default theme.  Each row is timed ``--repeat`` times, the rows taking turns so
that a slow spell of the shared machine hits them alike: "PNG" is every page drawn and encoded
(``render_standings`` of an already worded sheet), "all" is ``draw_standings`` (the words from
the catalogs, every page drawn and encoded, the alt texts and the text version).  Median and
90th percentile in ms of wall time, and the median CPU time of "all" (this process's own,
so less swayed by the machine's other work; the load average is printed); the PNG bytes are
the sum over the pages.  "cold" is the first
``draw_standings`` in a fresh process (fonts, the theme's palette, the catalogs' first use),
after Pillow's own plugins have loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
for entry in (str(_ROOT), str(_ROOT / "tests")):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from support.standings_samples import arena, round_robin, swiss  # noqa: E402

from bot.tournaments.model import Table  # noqa: E402
from bot.ui.standings_sheet import Event, draw_standings, standings_sheet  # noqa: E402
from render.standings import render_standings  # noqa: E402

ROWS: dict[str, Callable[[], Table]] = {
    "Swiss, 16 players, after round 5": swiss,
    "Swiss, 64 players, round 8 of 9 in play": lambda: swiss(64, 7, 9, running=True),
    "Round robin, 8 players, 7 rounds": round_robin,
    "Arena, 64 players, 600 games": lambda: arena(64, 600),
}
EVENT = Event("Benchmark Open", "international")


def draw_only(table: Table) -> Callable[[], object]:
    sheet = standings_sheet(table, EVENT, "en")
    return lambda: render_standings(sheet)


def everything(table: Table) -> Callable[[], object]:
    return lambda: draw_standings(table, EVENT, "en")


def cold(name: str) -> float:
    """ms of the first ``draw_standings`` of row ``name`` in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", name],
        capture_output=True,
        text=True,
        check=True,
        cwd=_ROOT,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def child(name: str) -> None:
    import io

    from PIL import Image

    Image.new("RGB", (4, 4)).save(io.BytesIO(), "PNG")  # Pillow's own plugins, not ours
    table = ROWS[name]()
    start = time.perf_counter()
    draw_standings(table, EVENT, "en")
    print(json.dumps((time.perf_counter() - start) * 1000))


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    tables = {name: build() for name, build in ROWS.items()}
    runs = {name: (draw_only(t), everything(t)) for name, t in tables.items()}
    times: dict[str, tuple[list[float], ...]] = {name: ([], [], []) for name in tables}
    for draw, full in runs.values():  # warm: caches, palette, catalogs
        draw()
        full()
    for _ in range(args.repeat):
        for name, (draw, full) in runs.items():
            for slot, fn in enumerate((draw, full)):
                start, cpu = time.perf_counter(), time.process_time()
                fn()
                times[name][slot].append((time.perf_counter() - start) * 1000)
                if slot:
                    times[name][2].append((time.process_time() - cpu) * 1000)
    header = (
        "sheet",
        "pages",
        "PNG KB",
        "PNG p50",
        "PNG p90",
        "all p50",
        "all p90",
        "all CPU p50",
        "cold",
    )
    body = []
    for name, table in tables.items():
        drawn = draw_standings(table, EVENT, "en")
        draw_t, full_t, cpu_t = times[name]
        body.append(
            [
                name,
                str(len(drawn.pages)),
                f"{sum(len(p) for p in drawn.pages) / 1024:.0f}",
                f"{statistics.median(draw_t):.0f}",
                f"{statistics.quantiles(draw_t, n=10)[-1]:.0f}",
                f"{statistics.median(full_t):.0f}",
                f"{statistics.quantiles(full_t, n=10)[-1]:.0f}",
                f"{statistics.median(cpu_t):.0f}",
                f"{cold(name):.0f}",
            ]
        )
    load = (
        " ".join(Path("/proc/loadavg").read_text().split()[:3])
        if os.path.exists("/proc/loadavg")
        else "?"
    )
    print(
        f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}, ms"
    )
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in body:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in [list(header), *body]) for i in range(len(header))]
        for row in [list(header), *body]:
            print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
