"""Train the learned evaluation (engine/core/patterns.c) on the engine's own games.

Two steps, rerunnable (issue 17):

``selfplay``
    Games of the native engine against itself, ``--nodes`` per move, each starting with a few
    random plies (``--random-plies``, drawn per game) and with a small chance of a random move in
    the opening (``--epsilon``), so the games spread over many middlegames.  Every quiet position
    the engine searched (no capture pending: captures are compulsory, so those are never
    evaluated) is written with the game's result and the search's score.  ``--weights`` plays
    with learned weights instead of the classic evaluation (the next generation).  Runs in
    ``--workers`` processes::

        nice -n 5 python tools/train_eval.py selfplay --variants russian,brazilian,pool \\
            --games 3000 --nodes 3000 --out /tmp/learned/flying-8.g1

``train``
    Logistic regression of the game result on the features (mini-batch Adam with L2, in C:
    ``engine.training``, on the extractor the search uses).  The score is in centimen: the
    sigmoid's scale is fitted first on the classic evaluation, so 100 stays about a man and the
    search's margins keep their meaning.  The target blends the result with the search's score
    (``--lam`` the result's share).  Writes ``engine/weights/<family>.bin`` and its note
    ``<family>.json``::

        python tools/train_eval.py train --family flying-8 --data /tmp/learned/flying-8.g1

Data files (``selfplay`` writes them, ``train`` reads them) come in two formats, told apart by
their first eight bytes (the choice for the 12x12 board, whose boards need 77 bits):

- version 2, what ``selfplay`` writes for every board: a header ``<8sII`` (:data:`MAGIC`, the
  version, the record's size), then records ``<8Qfii``: own men, own kings, their men, their
  kings (the position from the side to move, as the core sees it), each as its low and its high
  64 bits (``engine.training.halves``, the layout of the trainer's samples too), the result for
  the mover (1, 0.5, 0), the side to move and the search's score;
- version 1, the files made before it: records of ``<4Qfii`` (64-bit boards), no header.  A
  file that does not start with the magic is one: its first eight bytes are the own men of a
  board of at most 10x10 (bits below 2 ** 54), never the magic (above 2 ** 62 as that number).
  ``train`` reads them as it always did, so data already made trains to the same weights.

Both become the same records in memory (:func:`read_records`); from there on one path serves
every board.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import multiprocessing
import os
import random
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from engine import training  # noqa: E402
from engine.learned import UNIT, family, header, pack  # noqa: E402
from engine.native import core_rules, core_state  # noqa: E402
from engine.native_search import native_searcher  # noqa: E402
from engine.scores import WIN_BOUND  # noqa: E402
from engine.training import halves, joined, pack_sample, unpack_samples  # noqa: E402
from rules import Game, find_variant  # noqa: E402
from rules.variants import VARIANTS, Goal, Variant  # noqa: E402

MAGIC = b"DRSELFPL"
HEADER = struct.Struct("<8sII")
"""A version 2 data file's header: the magic, the version and the size of a record."""
VERSION = 2
RECORD = struct.Struct("<8Qfii")
"""A version 2 record: the four boards as (low, high) 64-bit halves, result, side, score."""
LEGACY_RECORD = struct.Struct("<4Qfii")
"""A version 1 record (no header): the four boards in 64 bits, result, side, score."""
Record = tuple[int, int, int, int, float, int, int]
"""A record as read: own men, own kings, their men, their kings, result, side, score."""

MAX_PLIES = 300
FAMILY_VARIANTS: dict[str, tuple[str, ...]] = {}
"""Every weight family and its variants, in the order they are offered (engine.learned.family;
the weights' layout is the family's, so any of them serves ``train``)."""
for _variant in VARIANTS.values():
    FAMILY_VARIANTS[family(_variant)] = (*FAMILY_VARIANTS.get(family(_variant), ()), _variant.key)


def winner_after(variant: Variant, side: int, can_move: bool, crowned: bool) -> int | None:
    """Who has won when ``side`` is to move (``can_move``: it has a legal move) right after the
    other side's move (``crowned``: it made a king), or None while the game goes on: the
    variant's goal decides (the side with no piece or no move loses, or wins when giving
    everything away; the first crowning wins in breakthrough)."""
    if crowned and variant.goal is Goal.FIRST_KING:
        return side ^ 1
    if can_move:
        return None
    return side if variant.goal is Goal.GIVE_AWAY else side ^ 1


# -- self-play -----------------------------------------------------------------------------------


def play_game(
    variant: Variant,
    rng: random.Random,
    nodes: int,
    random_plies: int,
    epsilon: float,
    played: list[tuple[int, int, int, bool]] | None = None,
) -> list[bytes]:
    """One game of the engine against itself; its quiet searched positions as records (and its
    moves appended to ``played``, when given, for a referee to replay)."""
    rules = core_rules(variant)
    searcher = native_searcher(variant)
    searcher.clear()
    state = core_state(Game(variant).position)
    past: list[int] = []
    seen: list[tuple[tuple[int, int, int, int, int], int]] = []
    winner = -1  # side, or -1 for a draw
    quiet_limit = variant.progress.plies or 100
    crowned = False
    for ply in range(MAX_PLIES):
        moves = rules.legal_moves(*state)
        over = winner_after(variant, state[4], bool(moves), crowned)
        if over is not None:
            winner = over
            break
        if ply < random_plies or (ply < 30 and rng.random() < epsilon):
            move = rng.choice(moves)
        else:
            found = searcher.search(*state, len(past), tuple(past), 64, 0.0, nodes, False)
            move, score = found[0], found[1]
            if move is None:
                move = moves[0]
            elif not moves[0][2] and abs(score) < WIN_BOUND:
                seen.append((state, score))
        if played is not None:
            played.append(move)
        progress = bool(move[2]) or bool(state[0] & move[0])
        crowned = bool(move[3])
        key = searcher.key(*state)
        state = rules.make(*state, move)
        if progress:
            past = []
        else:
            past.append(key)
            if len(past) >= quiet_limit or past.count(searcher.key(*state)) >= 2:
                break
    records = []
    for (om, ok, tm, tk, side, *_runs), score in seen:
        result = 0.5 if winner < 0 else (1.0 if winner == side else 0.0)
        records.append(RECORD.pack(*halves(om, ok, tm, tk), result, side, score))
    return records


def _selfplay_worker(job: tuple[str, int, int, int, int, float, str | None]) -> list[bytes]:
    key, seed, games, nodes, max_random, epsilon, weights = job
    variant = find_variant(key)
    if weights is not None:
        searcher = native_searcher(variant)
        searcher.load_weights(Path(weights).read_bytes())
        searcher.use_learned(True)
    rng = random.Random(seed)
    records: list[bytes] = []
    for _ in range(games):
        records.extend(play_game(variant, rng, nodes, rng.randint(2, max_random), epsilon))
    return records


def selfplay(args: argparse.Namespace) -> None:
    keys = args.variants.split(",")
    jobs = []
    chunk = 20
    for n in range(0, args.games, chunk):
        key = keys[(n // chunk) % len(keys)]
        size = find_variant(key).size
        max_random = args.random_plies or (10 if size >= 10 else 8)
        jobs.append(
            (
                key,
                args.seed * 1_000_003 + n,
                min(chunk, args.games - n),
                args.nodes,
                max_random,
                args.epsilon,
                args.weights,
            )
        )
    started = time.perf_counter()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with out.open("wb") as f, multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        f.write(file_header())
        for done, records in enumerate(pool.imap(_selfplay_worker, jobs), 1):
            f.write(b"".join(records))
            written += len(records)
            print(
                f"{done}/{len(jobs)} chunks, {written} positions, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
            )
    meta = {
        "variants": keys,
        "games": args.games,
        "nodes": args.nodes,
        "positions": written,
        "format": VERSION,
        "seconds": round(time.perf_counter() - started, 1),
        "weights": args.weights,
        "command": " ".join(sys.argv),
    }
    Path(str(out) + ".json").write_text(json.dumps(meta, indent=2) + "\n")


# -- training --------------------------------------------------------------------------------------


def file_header() -> bytes:
    """What a version 2 data file starts with, before its records (``selfplay`` writes it)."""
    return HEADER.pack(MAGIC, VERSION, RECORD.size)


def read_records(paths: Sequence[str]) -> list[Record]:
    """The records of the data files, of either format (the module's docstring)."""
    records: list[Record] = []
    for path in paths:
        data = Path(path).read_bytes()
        if data.startswith(MAGIC):
            _, version, size = HEADER.unpack_from(data)
            body = memoryview(data)[HEADER.size :]
            if (version, size) != (VERSION, RECORD.size) or len(body) % size:
                raise SystemExit(
                    f"{path}: version {version} records of {size} bytes ({len(body)} bytes), "
                    f"not version {VERSION} records of {RECORD.size} bytes"
                )
            for row in RECORD.iter_unpack(body):
                om, ok, tm, tk = joined(row[:8])
                records.append((om, ok, tm, tk, *row[8:]))
        else:
            if len(data) % LEGACY_RECORD.size:
                raise SystemExit(
                    f"{path}: no version 2 header, and not records of {LEGACY_RECORD.size} "
                    "bytes (version 1)"
                )
            records.extend(LEGACY_RECORD.iter_unpack(data))
    return records


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))


def logloss(pairs: Sequence[tuple[float, float]], scale: float) -> float:
    """Mean cross-entropy of sigmoid(score / scale) against targets, over (score, target)."""
    total = 0.0
    for score, target in pairs:
        p = min(max(sigmoid(score / scale), 1e-12), 1 - 1e-12)
        total -= target * math.log(p) + (1 - target) * math.log(1 - p)
    return total / len(pairs)


def fit_scale(pairs: Sequence[tuple[float, float]]) -> float:
    """The sigmoid scale that fits the classic evaluation best (golden-section search)."""
    lo, hi = 20.0, 2000.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if logloss(pairs, a) < logloss(pairs, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def git_commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=_ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+uncommitted changes" if dirty else "")


def train(args: argparse.Namespace) -> dict[str, object]:
    variant = find_variant(FAMILY_VARIANTS[args.family][0])
    if family(variant) != args.family:
        raise SystemExit(f"{variant.key} is not of family {args.family}")
    shape = training.layout(variant)
    per_phase = shape.per_phase
    records = read_records(args.data)
    if not records:
        raise SystemExit("no positions in the data")
    rng = random.Random(args.seed)
    # Validation: a tail of the data (whole games, as files are written game after game).
    cut = int(len(records) * (1 - args.validation))
    train_records, valid_records = records[:cut], records[cut:] or records[-1:]

    started = time.perf_counter()
    searcher = native_searcher(variant)
    searcher.use_learned(False)
    sample = rng.sample(train_records, min(len(train_records), args.scale_sample))
    classic = [(float(searcher.evaluate(*r[:4], r[5])), r[4]) for r in sample]
    scale = args.scale or fit_scale(classic)

    def samples(rows: Sequence[Record]) -> bytes:
        out = bytearray()
        for om, ok, tm, tk, result, side, score in rows:
            target = args.lam * result + (1 - args.lam) * sigmoid(score / scale)
            out += pack_sample(om, ok, tm, tk, target, side)
        return bytes(out)

    train_data, valid_data = samples(train_records), samples(valid_records)
    valid_targets = unpack_samples(valid_data)
    classic_valid = logloss(
        [(float(searcher.evaluate(*r[:4], r[5])), r[4]) for r in valid_targets], scale
    )

    count = 2 * per_phase
    weights = struct.pack(f"<{count}d", *([0.0] * count))
    w = bytearray(weights)
    king = 150.0 if not variant.flying_kings else (300.0 if variant.size >= 10 else 250.0)
    for phase in (0, 1):
        struct.pack_into("<d", w, 8 * (phase * per_phase + 1), 100.0)  # men
        struct.pack_into("<d", w, 8 * (phase * per_phase + 2), king)  # kings
    m, v = bytearray(8 * count), bytearray(8 * count)
    initial = training.loss(variant, valid_data, w, scale)
    best, best_w, step = initial, bytes(w), 0
    history = []
    lr = args.lr
    for epoch in range(args.epochs):
        seen, step = training.train(
            variant,
            train_data,
            w,
            (m, v),
            step,
            epochs=1,
            batch=args.batch,
            lr=lr,
            l2=args.l2,
            scale=scale,
            seed=args.seed + epoch,
        )
        valid = training.loss(variant, valid_data, w, scale)
        history.append((round(seen, 5), round(valid, 5)))
        print(f"epoch {epoch + 1}: train {seen:.5f} valid {valid:.5f} lr {lr:.3f}", file=sys.stderr)
        if valid < best:
            best, best_w = valid, bytes(w)
        lr *= args.decay
    final = struct.unpack(f"<{count}d", best_w)
    ints = [max(-32767, min(32767, round(x * UNIT))) for x in final]
    data = pack(variant.size, variant.flying_kings, shape.windows, shape.dense, ints)
    seconds = time.perf_counter() - started
    out = Path(args.out or _ROOT / "engine" / "weights" / f"{args.family}.bin")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    metas = []
    for path in args.data:
        meta_path = Path(str(path) + ".json")
        if meta_path.exists():
            metas.append(json.loads(meta_path.read_text()))
    note: dict[str, object] = {
        "family": args.family,
        "file": out.name,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "header": {
            "version": header(data).version,
            "size": variant.size,
            "flying": int(variant.flying_kings),
            "windows": shape.windows,
            "dense": shape.dense,
            "weights": len(ints),
            "unit": UNIT,
        },
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": "python " + " ".join(sys.argv),
        "selfplay": metas,
        "positions": {"train": len(train_records), "validation": len(valid_records)},
        "scale": round(scale, 2),
        "lam": args.lam,
        "l2": args.l2,
        "epochs": args.epochs,
        "lr": args.lr,
        "decay": args.decay,
        "batch": args.batch,
        "loss": {
            "classic_validation": round(classic_valid, 5),
            "material_only_validation": round(initial, 5),
            "learned_validation": round(best, 5),
            "history": history,
        },
        "training_seconds": round(seconds, 1),
        "match": None,
    }
    note_path = out.with_suffix(".json")
    note_path.write_text(json.dumps(note, indent=2) + "\n")
    print(json.dumps({k: note[k] for k in ("scale", "loss", "training_seconds")}), file=sys.stderr)
    return note


def record_match(args: argparse.Namespace) -> None:
    note_path = _ROOT / "engine" / "weights" / f"{args.family}.json"
    note = json.loads(note_path.read_text())
    note["match"] = args.result
    note_path.write_text(json.dumps(note, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="generate positions from the engine's own games")
    play.add_argument("--variants", required=True, help="comma-separated variant keys")
    play.add_argument("--games", type=int, default=200)
    play.add_argument("--nodes", type=int, default=3000)
    play.add_argument("--random-plies", type=int, default=0, help="at most (0: 8, 10 on 10x10)")
    play.add_argument("--epsilon", type=float, default=0.02)
    play.add_argument("--workers", type=int, default=2)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--weights", help="play with these learned weights (a .bin file)")
    play.add_argument("--out", required=True)
    fit = sub.add_parser("train", help="fit a family's weights on self-play data")
    fit.add_argument("--family", required=True, choices=sorted(FAMILY_VARIANTS))
    fit.add_argument("--data", nargs="+", required=True)
    fit.add_argument("--out", help="default: engine/weights/<family>.bin")
    fit.add_argument("--epochs", type=int, default=10)
    fit.add_argument("--batch", type=int, default=256)
    fit.add_argument("--lr", type=float, default=0.3)
    fit.add_argument("--decay", type=float, default=0.85)
    fit.add_argument("--l2", type=float, default=1e-8)
    fit.add_argument("--lam", type=float, default=0.7, help="the result's share of the target")
    fit.add_argument("--scale", type=float, default=0.0, help="0: fit on the classic evaluation")
    fit.add_argument("--scale-sample", type=int, default=20000)
    fit.add_argument("--validation", type=float, default=0.1)
    fit.add_argument("--seed", type=int, default=1)
    note = sub.add_parser("record-match", help="write a match result into a family's note")
    note.add_argument("--family", required=True, choices=sorted(FAMILY_VARIANTS))
    note.add_argument("--result", required=True)
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        selfplay(args)
    elif args.command == "train":
        train(args)
    else:
        record_match(args)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
