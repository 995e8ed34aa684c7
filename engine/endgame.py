"""Endgame databases: win/loss/draw of every position with few pieces, for the native search.

The tables are solved by our own retrograde solver in C (``engine/core/egdb.c``, exposed as
``engine._core.EndgameTable``, and ``engine._core_wide``'s on 12x12) from a variant's rule data
alone, so variants that move and capture alike share one file (English and German Dame do).
They are built at first use into a cache directory and kept there:

- ``ENGINE_ENDGAME_DIR`` names the directory (default: ``$XDG_CACHE_HOME/draughts-bot/endgame``,
  i.e. ``~/.cache/draughts-bot/endgame``); ``off`` turns the tables off.
- ``ENGINE_ENDGAME_PIECES`` sets their size (:func:`pieces_for`): by default what a minute or
  two of idle CPU builds (5 pieces on 8x8, 4 on 10x10, 3 on the orthogonal 8x8 board, whose 64
  squares make 4 pieces a three-minute build, and 3 on 12x12); up to 6 on 8x8, 5 on 10x10 and 4
  on the orthogonal board and on 12x12 for an operator who gives them the disk and the build
  time.  While a larger
  table is built, a smaller one already in the directory is used.
- A searcher starts without tables; :func:`attach_later` builds or loads them in a background
  thread (the C solver releases the GIL) and attaches them when they are ready, so no search and
  no answer ever waits for them.  A file lock makes one process build while the others wait for
  its file; the file is written to a temporary name and renamed, so a reader never sees half a
  file.  ``python -m engine.endgame build`` builds them ahead (the Dockerfile does not: see
  docs/OPERATIONS.md).
- A file starts with a header of 4096 bytes (magic, format version, the rule data, the slice list
  with each slice's size and distance, the value bytes' length and BLAKE2b checksum) followed by
  the values, 2 bits per position, mapped into memory so every worker process shares the pages.
  A file whose header or checksum does not match is rebuilt.

Table values are pure game-theoretic results under the move and capture rules.  Counting rules
can turn a table win into a draw (FMJD's 16- and 5-move endgame rules, the no-progress counts of
:class:`rules.variants.NoProgressRule`); :func:`counted_slices` tells the core which slices they
govern, and the core then believes only the draws there (see egdb_set_policy in engine/core/egdb.h).
The solver follows the variant's goal (antidraughts: no piece or no move wins; breakthrough: the
first crowning wins, so its tables hold men alone).  Where a king's moves in a row are limited
while its side has men (frisian, frysk), the kings' runs decide the positions with men and an
index has no room for them: the tables hold the endings of kings alone, which have no runs.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import logging
import mmap
import os
import struct
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rules.variants import VARIANTS, Variant, find_variant

from ._core import EGDB_MAX_PIECES, EndgameTable
from .native import core_module, core_rules

log = logging.getLogger(__name__)

MAGIC = b"DRGTEGDB"
VERSION = 1
HEADER = 4096
"""Bytes before the values (a page, so the values can be mapped on their own)."""

WIN, LOSS, DRAW = 1, 2, 3
"""What :meth:`EndgameTable.probe` returns for the side to move (0: not in the table)."""

ENV = "ENGINE_ENDGAME_DIR"
PIECES_ENV = "ENGINE_ENDGAME_PIECES"
OFF = "off"


class CorruptTable(ValueError):
    """A table file that does not match what it claims, or what this build would make."""


def default_pieces(variant: Variant) -> int:
    """How many pieces a variant's tables hold unless ``ENGINE_ENDGAME_PIECES`` says otherwise:
    what is built at first use in a minute or two of idle CPU.  5 on 8x8 (151 million positions,
    38 MB, 55-85 s of CPU), 4 on 10x10 (43 million, 11 MB, 16 s; 5 pieces there are 413 MB and
    18 minutes).  docs/BENCHMARKS.md has each size's cost.  The orthogonal 8x8 board plays all 64
    squares: 3 pieces there are 1.7 million positions (0.4 MB, 2 s), 4 pieces 113 million (28 MB,
    three minutes).  12x12 (72 squares, the core's wide build): 3 pieces, 2.6 million positions in
    about 2 s; its 4 pieces are 199 million positions (50 MB), several minutes.  The cost grows
    as the playing squares to the power of the pieces, so the squares decide."""
    squares = variant.geometry.squares
    return 5 if squares <= 32 else 4 if squares <= 50 else 3


def largest_pieces(variant: Variant) -> int:
    """The most pieces a variant's tables may hold: 6 on 8x8 (2.7 billion positions, 679 MB), 5 on
    10x10 (1.65 billion, 413 MB); a 6-piece table on 10x10 would be some 20 times that.  4 on the
    orthogonal board, whose 5 pieces would be 5.5 billion positions (1.4 GB), and on 12x12, whose
    5 pieces would be some 10 billion: decided by the playing squares, as :func:`default_pieces`."""
    squares = variant.geometry.squares
    return min(EGDB_MAX_PIECES, 6 if squares <= 32 else 5 if squares <= 50 else 4)


def configured_pieces(env: Mapping[str, str] | None = None) -> int | None:
    """``ENGINE_ENDGAME_PIECES``: the most pieces of the tables the engine uses and builds (each
    variant at most :func:`largest_pieces`), or None when unset (each variant's
    :func:`default_pieces`); ValueError when it is not a whole number from 2 to 6."""
    raw = (os.environ if env is None else env).get(PIECES_ENV, "").strip()
    if not raw:
        return None
    try:
        pieces = int(raw)
    except ValueError:
        raise ValueError(f"{PIECES_ENV} must be a whole number, not {raw!r}") from None
    if not 2 <= pieces <= EGDB_MAX_PIECES:
        raise ValueError(f"{PIECES_ENV} must be from 2 to {EGDB_MAX_PIECES}, not {pieces}")
    return pieces


def pieces_for(
    variant: Variant, asked: int | None = None, env: Mapping[str, str] | None = None
) -> int:
    """How many pieces ``variant``'s table holds when ``asked`` for at most that many (None:
    what ``ENGINE_ENDGAME_PIECES`` asks, else the variant's default)."""
    asked = configured_pieces(env) if asked is None else asked
    if asked is None:
        return default_pieces(variant)
    return min(asked, largest_pieces(variant))


def signature(variant: Variant) -> str:
    """The part of a file name that says which move rules the table is for (the variants of
    before capture precedence and men that spare kings keep their files' names; each later flag
    appears only where a variant differs from before, so the older files keep theirs)."""
    r = core_rules(variant)
    flags = (
        ("b" if r.men_capture_backward else "")
        + ("f" if r.flying_kings else "")
        + ("m" if r.majority_only else "")
    )
    if r.precedence and not r.majority_only:
        flags += "p" + "".join(str(code) for code in r.precedence)
    if not r.men_capture_kings:
        flags += "s"
    if r.mirrored:
        flags += "i"
    if r.king_stops_behind:
        flags += "l"
    if r.captures_removed_at_once:
        flags += "r"
    if r.orthogonal:
        flags += "o"
    if not r.king_turns_back:
        flags += "u"  # no U-turn
    if r.lone_pieces_draw:
        flags += "d"
    if r.captures_in_eight_directions:
        flags += "e"
    if r.king_move_limit:
        flags += f"k{r.king_move_limit}"
    if r.goal:
        flags += f"g{r.goal}"  # the goal's core code (engine.native.GOAL_CODES)
    return f"{r.size}x{r.size}{flags}-c{r.crowning}"


def directory(env: dict[str, str] | None = None) -> Path | None:
    """Where the tables live (``ENGINE_ENDGAME_DIR``), or None when they are turned off."""
    env = dict(os.environ) if env is None else env
    value = env.get(ENV, "").strip()
    if value.lower() == OFF:
        return None
    if value:
        return Path(value).expanduser()
    cache = env.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "draughts-bot" / "endgame"


def path_for(variant: Variant, pieces: int, where: Path) -> Path:
    return where / f"egdb-{signature(variant)}-{pieces}.bin"


def new_table(variant: Variant, pieces: int) -> EndgameTable:
    """An empty table of ``variant`` (of the core's build that plays it: :func:`core_module`)."""
    return core_module(variant).EndgameTable(core_rules(variant), pieces)


def _rule_data(variant: Variant) -> dict[str, int | bool | list[int]]:
    """The rules a file's header names (the fields added with capture precedence appear only
    where they differ from before, so that the files built earlier still match)."""
    r = core_rules(variant)
    data: dict[str, int | bool | list[int]] = {
        "size": r.size,
        "men_capture_backward": r.men_capture_backward,
        "flying_kings": r.flying_kings,
        "majority": r.majority_only,
        "crowning": r.crowning,
    }
    if r.precedence and not r.majority_only:
        data["precedence"] = list(r.precedence)
    if not r.men_capture_kings:
        data["men_capture_kings"] = False
    if r.mirrored:
        data["mirrored"] = True
    if r.king_stops_behind:
        data["king_stops_behind"] = True
    if r.captures_removed_at_once:
        data["captures_removed_at_once"] = True
    if r.orthogonal:
        data["orthogonal"] = True
    if not r.king_turns_back:
        data["king_turns_back"] = False
    if r.lone_pieces_draw:
        data["lone_pieces_draw"] = True
    if r.captures_in_eight_directions:
        data["captures_in_eight_directions"] = True
    if r.king_move_limit:
        data["king_move_limit"] = r.king_move_limit  # and so kings-only slices
    if r.goal:
        data["goal"] = r.goal
    return data


def _checksum(data: bytes | memoryview) -> str:
    return hashlib.blake2b(data, digest_size=32).hexdigest()


def write(table: EndgameTable, variant: Variant, path: Path) -> None:
    """Write a built table to ``path`` atomically (a temporary file, then a rename)."""
    data = table.tobytes()
    meta = {
        "rules": _rule_data(variant),
        "max_pieces": table.max_pieces,
        "slices": [list(s[:6]) for s in table.slices()],
        "nbytes": len(data),
        "blake2b": _checksum(data),
    }
    text = json.dumps(meta, separators=(",", ":")).encode()
    head = MAGIC + struct.pack("<II", VERSION, len(text)) + text
    if len(head) > HEADER:
        raise ValueError("the table's header does not fit")
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(head.ljust(HEADER, b"\0"))
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def read(variant: Variant, pieces: int, path: Path) -> EndgameTable:
    """The table in ``path``, mapped into memory; :class:`CorruptTable` if anything is off,
    ``OSError`` if it cannot be read."""
    table = new_table(variant, pieces)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < HEADER:
            raise CorruptTable(f"{path} is shorter than its header")
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    head = mapped[:HEADER]
    if head[: len(MAGIC)] != MAGIC:
        raise CorruptTable(f"{path} is not an endgame table")
    version, length = struct.unpack_from("<II", head, len(MAGIC))
    if version != VERSION:
        raise CorruptTable(f"{path} has format version {version}, not {VERSION}")
    try:
        meta = json.loads(head[len(MAGIC) + 8 : len(MAGIC) + 8 + length])
    except ValueError as exc:
        raise CorruptTable(f"{path} has an unreadable header") from exc
    expected = [list(s[:5]) for s in table.slices()]
    if (
        not isinstance(meta, dict)
        or meta.get("rules") != _rule_data(variant)
        or meta.get("max_pieces") != pieces
        or [s[:5] for s in meta.get("slices", [])] != expected
        or meta.get("nbytes") != table.nbytes
        or size != HEADER + table.nbytes
    ):
        raise CorruptTable(f"{path} is for other rules or slices, or truncated")
    values = memoryview(mapped)[HEADER:]
    if _checksum(values) != meta.get("blake2b"):
        raise CorruptTable(f"{path} fails its checksum")
    table.load(values, [s[5] for s in meta["slices"]])
    return table


def counted_slices(variant: Variant, table: EndgameTable) -> list[bool]:
    """Per slice of ``table``: whether one of the variant's endgame counting rules governs its
    material (then its wins and losses depend on a move count the position does not show).  A
    rule of no moves is no count: it draws at once, and the table is solved with it
    (``Rules.lone_pieces_draw``)."""
    counts = [rule for rule in variant.endgames if rule.moves]
    flags = []
    for men, kings, opp_men, opp_kings, *_ in table.slices():
        # EndgameRule.strong reads (own kings, own men, opponent kings, opponent men).
        one = (kings, men, opp_kings, opp_men)
        other = (opp_kings, opp_men, kings, men)
        flags.append(any(rule.strong(one) or rule.strong(other) for rule in counts))
    return flags


def apply_policy(variant: Variant, table: EndgameTable) -> None:
    """Tell ``table`` which wins and losses the search may believe under ``variant``'s draw
    rules (the same table serves variants with different draw rules: one object per variant)."""
    table.set_policy(counted_slices(variant, table), variant.progress.plies)


def obtain(
    variant: Variant,
    pieces: int | None = None,
    where: Path | None = None,
    *,
    build: bool = True,
    on_build: Callable[[float], None] | None = None,
) -> EndgameTable | None:
    """The variant's table: loaded from the cache, else (``build``) built and stored there first,
    under a file lock so that one process builds while the others wait.  A corrupt file is
    rebuilt.  None when the tables are off or absent and not to be built.  ``on_build`` hears the
    seconds a build took."""
    pieces = pieces_for(variant) if pieces is None else pieces
    where = directory() if where is None else where
    if where is None:
        return None
    path = path_for(variant, pieces, where)
    where.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                table = read(variant, pieces, path)
            except FileNotFoundError:
                table = None
            except CorruptTable as exc:
                log.warning("rebuilding the endgame table: %s", exc)
                table = None
            if table is None:
                if not build:
                    return None
                started = time.monotonic()
                log.info(
                    "building the %s endgame table (%d pieces) into %s; the computer plays "
                    "without it until it is ready",
                    variant.key,
                    pieces,
                    path,
                )
                built = new_table(variant, pieces)
                built.build()
                write(built, variant, path)
                took = time.monotonic() - started
                log.info(
                    "built the %s endgame table in %.1f s: %s (%.1f MB)",
                    variant.key,
                    took,
                    path,
                    path.stat().st_size / 1e6,
                )
                if on_build is not None:
                    on_build(took)
                del built
                table = read(variant, pieces, path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    apply_policy(variant, table)
    return table


IDLE_NICE = 19
"""The build thread's nice value where the idle policy is not available."""


def lower_priority() -> None:
    """Make the calling thread run only on CPU time nobody else wants (Linux schedules each
    thread on its own; elsewhere this does nothing).

    A build is a minute or two of pure CPU.  At nice 10 it still took a weighted share from
    everything else on the machine; ``SCHED_IDLE`` gives it only what is idle, so the bot's event
    loop, the searches and the database always come first.  An unprivileged thread may choose it
    (Linux 2.6.39 on); where it cannot, the lowest nice value is the fallback.  (discord.py's
    "Can't keep up, websocket is 41.3s behind" seen during builds is not this: it is one heartbeat
    interval, measured from the previous heartbeat when the gateway's answer is handled before
    the heartbeat thread has noted its send; docs/BENCHMARKS.md, issue 27.)"""
    thread = threading.get_native_id()
    try:
        os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, thread, IDLE_NICE)


def smaller_present(variant: Variant, pieces: int, where: Path) -> EndgameTable | None:
    """The largest good table of ``variant`` with fewer than ``pieces`` pieces already in
    ``where``: what the engine plays with while a larger one is built (after
    ``ENGINE_ENDGAME_PIECES`` was raised, that build takes up to half an hour)."""
    for smaller in range(pieces - 1, 1, -1):
        if path_for(variant, smaller, where).exists():
            table = obtain(variant, smaller, where, build=False)
            if table is not None:
                return table
    return None


_started: set[Variant] = set()
_started_lock = threading.Lock()


def attach_later(
    variant: Variant,
    attach: Callable[[EndgameTable], None],
    where: Path | None = None,
    pieces: int | None = None,
) -> threading.Thread | None:
    """Obtain the variant's table in a background thread and hand it to ``attach`` (once per
    variant and process); None when the tables are off or they were started already."""
    where = directory() if where is None else where
    if where is None:
        return None
    with _started_lock:
        if variant in _started:
            return None
        _started.add(variant)

    def run() -> None:
        lower_priority()
        try:
            size = pieces_for(variant) if pieces is None else pieces
            if not path_for(variant, size, where).exists():
                interim = smaller_present(variant, size, where)
                if interim is not None:
                    attach(interim)  # play with it while the larger one is built
            table = obtain(variant, size, where)
        except Exception:  # a full disk or a read-only cache must not take the engine down
            log.exception("the %s endgame tables could not be made", variant.key)
            return
        if table is not None:
            attach(table)

    thread = threading.Thread(target=run, name=f"endgame-{variant.key}", daemon=True)
    thread.start()
    return thread


def table_variants(names: Sequence[str], pieces: int | None = None) -> list[Variant]:
    """One variant per distinct table among the variants ``names`` (all when empty) asked for
    at most ``pieces`` pieces: variants with the same move rules and table size share a file, so
    each is built or shown once."""
    chosen = [find_variant(n) for n in names] if names else list(VARIANTS.values())
    seen: set[tuple[str, int]] = set()
    unique = []
    for v in chosen:
        table = (signature(v), pieces_for(v, pieces))
        if table not in seen:
            seen.add(table)
            unique.append(v)
    return unique


def describe(variant: Variant, table: EndgameTable, path: Path) -> str:
    positions = sum(s[4] for s in table.slices())
    longest = max(s[5] for s in table.slices())
    return (
        f"{variant.key}: {path}: {len(table.slices())} slices, {positions} indices, "
        f"{path.stat().st_size / 1e6:.1f} MB, longest conversion {longest} plies"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.endgame",
        description="Build, describe or check the endgame databases (win/loss/draw tables).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("build", "build the tables not built yet"),
        ("info", "describe them"),
        ("check", "check built tables against the rules' moves on sampled positions"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--variant", action="append", default=[], help="variant (repeatable)")
        p.add_argument(
            "--pieces",
            type=int,
            default=None,
            choices=range(2, EGDB_MAX_PIECES + 1),
            help=f"most pieces (default: ${PIECES_ENV}, else per board)",
        )
        p.add_argument("--dir", type=Path, default=None, help=f"directory (default: ${ENV})")
        if name == "check":
            p.add_argument("--samples", type=int, default=200, help="positions per slice")
    args = parser.parse_args(argv)
    try:
        configured_pieces()
    except ValueError as exc:
        parser.error(str(exc))
    where = args.dir or directory()
    if where is None:
        print(f"{ENV}=off: the endgame tables are turned off", file=sys.stderr)
        return 1
    failed = False
    for variant in table_variants(args.variant, args.pieces):
        pieces = pieces_for(variant, args.pieces)
        path = path_for(variant, pieces, where)
        if args.command == "build":
            took: list[float] = []
            table = obtain(variant, pieces, where, on_build=took.append)
            assert table is not None
            what = f"built in {took[0]:.1f} s" if took else "present"
            print(f"{variant.key}: {path} ({path.stat().st_size / 1e6:.1f} MB) {what}")
            continue
        try:
            table = read(variant, pieces, path)
        except FileNotFoundError:
            print(
                f"{variant.key}: {path}: not built yet (the bot builds it at first use, or "
                f"run: python -m engine.endgame build --variant {variant.key} --pieces {pieces})"
            )
            failed |= args.command == "check"
            continue
        except (OSError, CorruptTable) as exc:
            reason = getattr(exc, "strerror", None) or exc
            print(f"{variant.key}: {path}: cannot be read: {reason}")
            failed |= args.command == "check"
            continue
        if args.command == "info":
            print(describe(variant, table, path))
            continue
        from .endgame_check import check  # here: it imports the rules' move generator

        started = time.monotonic()
        found = check(table, variant, args.samples)
        verdict = "all agree" if not found.wrong else f"{len(found.wrong)} WRONG"
        print(
            f"{variant.key}: {path}: {found.positions} positions checked against the rules' "
            f"moves in {time.monotonic() - started:.1f} s: {verdict}"
        )
        for state, value, successors in found.wrong[:10]:
            print(f"  {state}: {value}, successors {successors}")
        failed |= bool(found.wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
