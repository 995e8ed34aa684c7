"""The trainer of the learned evaluation (engine/training.py, tools/train_eval.py, the core's
learned_loss and learned_train in engine/core/patterns.c and learned_module.c).

- A sample is read by the core as the position it was packed from, on 8x8, 10x10 and the 12x12
  board of the wide build (boards past bit 64): the score learned_loss sees is the weighted sum
  of learned_features, and one step of learned_train moves exactly the weights of those
  features; samples that are not positions of the board are refused.
- The trainer runs end to end (self-play, then train) on English and on Canadian and lowers its
  loss.
- Data files of version 1 (``<4Qfii`` records, 64-bit boards, made before the 12x12 board
  trained) read as the records they hold and train to the very weights their version 2
  copy does; no version 1 file can be taken for version 2.
- Self-play labels positions as the rules end the game, and every family is trained.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import struct
import sys
from hashlib import sha256
from pathlib import Path
from types import ModuleType

import pytest
from support.rules_support import random_game_positions

from engine import _core, native_search, training
from engine.learned import family
from engine.native import core_module, core_rules, core_state
from rules import Color, Game, find_variant
from rules.variants import VARIANTS, Variant

ROOT = Path(__file__).resolve().parent.parent.parent
STATES = 6561
BoardsAndSide = tuple[int, int, int, int, int]


def train_eval() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_eval", ROOT / "tools" / "train_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_eval"] = module
    spec.loader.exec_module(module)
    return module


def self_play(tool: ModuleType, variant: Variant, games: int, nodes: int, seed: int) -> list[bytes]:
    """The records of ``games`` self-play games of ``variant`` (random starts of 2 to 8 plies);
    the process's cached searcher is left on the classic evaluation afterwards."""
    rng = random.Random(seed)
    records: list[bytes] = []
    for _ in range(games):
        records.extend(tool.play_game(variant, rng, nodes, rng.randint(2, 8), 0.05))
    native_search.native_searcher(variant).use_learned(False)
    return records


def train_args(family_name: str, data: list[Path], out: Path, **changes: object) -> object:
    """``train``'s arguments for a small run."""
    values: dict[str, object] = {
        "family": family_name,
        "data": [str(path) for path in data],
        "out": str(out),
        "epochs": 4,
        "batch": 64,
        "lr": 1.0,
        "decay": 0.8,
        "l2": 1e-4,
        "lam": 0.7,
        "scale": 0.0,
        "scale_sample": 2000,
        "validation": 0.2,
        "seed": 1,
    }
    values.update(changes)
    return argparse.Namespace(**values)


def one_step(variant: Variant, samples: bytes, weights: bytearray) -> None:
    """One Adam step of rate 1 over ``samples`` in one batch, from fresh moments, without L2, at
    scale 1: each weight a feature of the sample touches moves by exactly +-1."""
    moments = bytearray(len(weights)), bytearray(len(weights))
    training.train(
        variant, samples, weights, moments, 0, epochs=1, batch=1, lr=1.0, l2=0.0, scale=1.0, seed=1
    )


def random_states(key: str, games: int, seed: int) -> list[BoardsAndSide]:
    """The positions of ``games`` random games (up to 120 plies each), as the core sees them."""
    found: list[BoardsAndSide] = []
    for position in random_game_positions(find_variant(key), games, f"{key}:{seed}"):
        om, ok, tm, tk, side = core_state(position)[:5]
        found.append((om, ok, tm, tk, side))
        # Random play crowns few men on the big boards: the same with each side's highest man a
        # king, so kings stand on every board and past bit 64 on 12x12.
        mine, theirs = top_bit(om), top_bit(tm)
        found.append((om ^ mine, ok | mine, tm ^ theirs, tk | theirs, side))
    return found


def top_bit(board: int) -> int:
    return 1 << board.bit_length() >> 1


def coefficients(variant: Variant, state: BoardsAndSide) -> tuple[float, dict[int, int]]:
    """The opening phase's share and each weight's coefficient within a phase (the index of
    the weight in a phase's set), from learned_features: what a sample of ``state`` must be
    trained on."""
    shape = training.layout(variant)
    phase, windows, dense, kings = core_module(variant).learned_features(
        core_rules(variant), variant.men_rows, *state
    )
    found = {d: value for d, value in enumerate(dense) if value}
    found.update({shape.dense + q: n for q, n in enumerate(kings) if n})
    first = shape.dense + shape.squares
    found.update({first + k * STATES + w: 1 for k, w in enumerate(windows)})
    return phase / shape.start_pieces, found


@pytest.mark.parametrize("key", ["english", "international", "canadian"])
def test_learned_loss_reads_a_sample_as_the_position_packed(key: str) -> None:
    """With random weights, the score of a sample (the loss with target 0 minus that with
    target 1 is the score over the scale) is the blend of the weighted features."""
    variant = find_variant(key)
    per_phase = training.layout(variant).per_phase
    rng = random.Random(key)
    values = [rng.uniform(-40.0, 40.0) for _ in range(2 * per_phase)]
    weights = bytearray(struct.pack(f"<{2 * per_phase}d", *values))
    scale = 500.0
    states = random_states(key, 4, seed=8)
    high = 0
    for state in states:
        share, found = coefficients(variant, state)
        opening = sum(values[j] * c for j, c in found.items())
        ending = sum(values[per_phase + j] * c for j, c in found.items())
        expected = (opening * share + ending * (1 - share)) / scale
        lost, won = (
            training.loss(
                variant, training.pack_sample(*state[:4], target, state[4]), weights, scale
            )
            for target in (0.0, 1.0)
        )
        assert lost - won == pytest.approx(expected, abs=1e-9), state
        high += bool((state[1] | state[3]) >> 64)
    assert len(states) > 200
    assert (high > 100) == (key == "canadian")  # kings in the high halves (men in all)


@pytest.mark.parametrize("key", ["english", "international", "canadian"])
def test_one_step_of_learned_train_moves_the_weights_of_the_sample_s_features(key: str) -> None:
    """From zero weights, Adam's first step on one sample the mover won moves each weight whose
    feature the sample has by the rate, in the direction of the feature's sign (scaled by the
    phase's share), and no other weight."""
    variant = find_variant(key)
    per_phase = training.layout(variant).per_phase
    states = random_states(key, 2, seed=9)[::9]
    for state in states:
        weights = bytearray(16 * per_phase)
        sample = training.pack_sample(*state[:4], 1.0, state[4])
        one_step(variant, sample, weights)
        moved = {
            j: round(x, 2) for j, (x,) in enumerate(struct.iter_unpack("<d", weights)) if x != 0.0
        }
        share, found = coefficients(variant, state)
        expected = {}
        for base, part in ((0, share), (per_phase, 1 - share)):
            if part:
                expected.update({base + j: math.copysign(1.0, c) for j, c in found.items()})
        assert moved == expected, state
    assert len(states) > 10


def test_the_core_refuses_samples_that_are_not_positions_of_its_board() -> None:
    international, canadian = find_variant("international"), find_variant("canadian")
    for variant, off_board in (
        (international, 1 << 64),
        (international, 1 << 60),
        (canadian, 1 << 100),
    ):
        om, ok, tm, tk, side = random_states(variant.key, 1, seed=1)[0]
        weights = bytearray(16 * training.layout(variant).per_phase)
        assert training.loss(variant, training.pack_sample(om, ok, tm, tk, 1.0, side), weights, 1.0)
        bad = [
            training.pack_sample(om | off_board, ok, tm, tk, 1.0, side),
            training.pack_sample(om, ok | om, tm, tk, 1.0, side),  # a man and a king on a square
            training.pack_sample(om, ok, tm | om, tk, 1.0, side),
            training.pack_sample(om, ok, tm, tk, 1.0, 2),
        ]
        for sample in bad:
            with pytest.raises(ValueError, match="not a position of this board"):
                training.loss(variant, sample, weights, 1.0)
            with pytest.raises(ValueError, match="not a position of this board"):
                one_step(variant, sample, weights)
    with pytest.raises(ValueError, match=f"records of {_core.LEARNED_SAMPLE_SIZE} bytes"):
        training.loss(
            international, b"\0" * 40, bytearray(16 * training.layout(international).per_phase), 1.0
        )


# -- the tool, end to end --------------------------------------------------------------------------


def test_the_trainer_runs_end_to_end_and_lowers_its_loss(tmp_path: Path) -> None:
    tool = train_eval()
    variant = find_variant("english")
    records = self_play(tool, variant, games=30, nodes=300, seed=1)
    data = tmp_path / "english.data"
    data.write_bytes(tool.file_header() + b"".join(records))
    out = tmp_path / "short-8.bin"
    note = tool.train(train_args("short-8", [data], out))
    loss = note["loss"]
    assert loss["learned_validation"] < loss["material_only_validation"]
    history = loss["history"]
    assert history[-1][0] < history[0][0]  # the training loss falls
    assert 30 < note["scale"] < 2000
    blob = out.read_bytes()
    _core.learned_check(core_rules(variant), variant.men_rows, blob)
    assert json.loads(out.with_suffix(".json").read_text())["sha256"] == sha256(blob).hexdigest()


def test_canadian_self_play_and_training_run_on_the_wide_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands as run by hand: self-play in a worker process writes a version 2 file whose
    boards pass bit 64, and training on it lowers the loss and makes weights Canadian loads."""
    tool = train_eval()
    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # the spawned worker imports the tool
    data, out = tmp_path / "canadian.g0", tmp_path / "flying-12.bin"
    play = ["selfplay", "--variants", "canadian", "--games", "3", "--nodes", "300"]
    assert tool.main([*play, "--workers", "1", "--seed", "2", "--out", str(data)]) == 0
    assert data.read_bytes().startswith(tool.MAGIC)
    records = tool.read_records([str(data)])
    assert len(records) > 200
    assert json.loads(Path(f"{data}.json").read_text())["positions"] == len(records)
    assert sum(any(board >> 64 for board in record[:4]) for record in records) > 100
    canadian = find_variant("canadian")
    assert tool.main(["train", "--family", "flying-12", "--data", str(data), "--out", str(out),
                      "--epochs", "4", "--lr", "1.0", "--batch", "32"]) == 0  # fmt: skip
    note = json.loads(out.with_suffix(".json").read_text())
    history = note["loss"]["history"]
    assert history[-1][0] < history[0][0]  # the training loss falls
    assert note["positions"]["train"] + note["positions"]["validation"] == len(records)
    searcher = native_search.new_searcher(canadian)
    searcher.load_weights(out.read_bytes())
    assert searcher.use_learned(True)


# -- the data files --------------------------------------------------------------------------------


def test_version_1_data_reads_as_its_records_and_trains_as_version_2(tmp_path: Path) -> None:
    """The files self-play wrote before the 12x12 board trained (``<4Qfii``, no header) read as
    the very records they hold, and train to the same weights, byte for byte, as the same
    records written in version 2."""
    tool = train_eval()
    variant = find_variant("russian")
    written = self_play(tool, variant, games=12, nodes=200, seed=4)
    records = []
    for raw in written:
        row = tool.RECORD.unpack(raw)
        records.append((*training.joined(row[:8]), *row[8:]))
    old, new = tmp_path / "flying-8.g1", tmp_path / "flying-8.g2"
    old.write_bytes(b"".join(tool.LEGACY_RECORD.pack(*record) for record in records))
    new.write_bytes(tool.file_header() + b"".join(written))
    assert len(records) > 300 and old.stat().st_size == 44 * len(records)
    assert tool.read_records([str(old)]) == records == tool.read_records([str(new)])
    assert tool.read_records([str(old), str(new)]) == records + records
    blobs = []
    for data in (old, new):
        out = tmp_path / f"{data.suffix[1:]}.bin"
        note = tool.train(train_args("flying-8", [data], out, epochs=2))
        blobs.append((out.read_bytes(), note["loss"], note["scale"]))
    assert blobs[0] == blobs[1]


def test_no_version_1_file_can_be_taken_for_version_2(tmp_path: Path) -> None:
    """A version 1 file starts with the own men of a diagonal board of at most 10x10 (no
    version 1 file was written for the orthogonal board, which had no learned features then):
    never the magic, read as that number.  A file of neither format is refused, not misread."""
    tool = train_eval()
    magic = int.from_bytes(tool.MAGIC, "little")
    for variant in VARIANTS.values():
        if variant.size <= 10 and not variant.orthogonal:
            squares = variant.geometry.mask_of(range(1, variant.geometry.squares + 1))
            assert squares < magic, variant.key
    bad = {
        "odd.g1": b"\0" * 45,
        "short.g2": tool.file_header() + b"\0" * 75,
        "v3.g2": tool.HEADER.pack(tool.MAGIC, 3, tool.RECORD.size),
    }
    for name, content in bad.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(SystemExit, match="version"):
            tool.read_records([str(tmp_path / name)])


# -- self-play and families ------------------------------------------------------------------------


def test_the_trainer_knows_every_family_and_how_each_goal_ends_a_game() -> None:
    tool = train_eval()
    assert set(tool.FAMILY_VARIANTS) == {family(v) for v in VARIANTS.values()}
    assert all(
        family(VARIANTS[key]) == name for name, keys in tool.FAMILY_VARIANTS.items() for key in keys
    )
    international, anti, first_king = (
        VARIANTS[key] for key in ("international", "antidraughts", "breakthrough")
    )
    # White (side 0) to move and stuck: it has lost, or won where the goal is to give away.
    assert tool.winner_after(international, 0, False, False) == 1
    assert tool.winner_after(anti, 0, False, False) == 0
    # Black has just crowned: in breakthrough it has won; elsewhere the game goes on.
    assert tool.winner_after(first_king, 0, True, True) == 1
    assert tool.winner_after(international, 0, True, True) is None
    assert tool.winner_after(first_king, 0, True, False) is None


def test_self_play_labels_its_positions_as_the_rules_end_the_game() -> None:
    """Each self-play game of breakthrough and antidraughts, replayed by the rules' own game
    record, ends there where the trainer stopped it and with the winner its positions are
    labelled with (before the trainer knew goals, breakthrough played on past the first king and
    antidraughts gave the win to the wrong side)."""
    tool = train_eval()
    decided = 0
    for key in ("breakthrough", "antidraughts"):
        variant = find_variant(key)
        rng = random.Random(3)
        for _ in range(4):
            played: list[tuple[int, int, int, bool]] = []
            records = tool.play_game(variant, rng, 200, 4, 0.05, played)
            game = Game(variant)
            for raw in played:
                assert game.outcome is None, (key, game.outcome)
                legal = {
                    (m.from_bit, m.to_bit, m.capture_mask, m.crowns): m for m in game.legal_moves()
                }
                game.play(legal[raw])
            if game.outcome is None or game.outcome.winner is None or not records:
                continue
            decided += 1
            white_won = game.outcome.winner is Color.WHITE
            for *_, result, side, _score in map(tool.RECORD.unpack, records):
                assert result == (1.0 if (side == 0) == white_won else 0.0), key
        native_search.native_searcher(variant).use_learned(False)
    assert decided >= 4


def test_training_moves_a_weight_towards_the_results() -> None:
    """One feature, perfectly predictive: its weight must grow (through engine.training, the
    face tools/train_eval.py uses)."""
    variant = find_variant("english")
    per_phase = training.layout(variant).per_phase
    start = Game(variant).position
    # The mover (White) has one man more than at the start, and always wins.
    om, ok, tm, tk, side = core_state(start)
    extra = variant.geometry.bit(20)
    sample = training.pack_sample(om | extra, ok, tm, tk, 1.0, side)
    weights = bytearray(8 * 2 * per_phase)
    moments = bytearray(len(weights)), bytearray(len(weights))
    before = training.loss(variant, sample * 10, weights, 100.0)
    loss, step = training.train(
        variant,
        sample * 10,
        weights,
        moments,
        0,
        epochs=5,
        batch=4,
        lr=0.5,
        l2=0.0,
        scale=100.0,
        seed=1,
    )
    after = training.loss(variant, sample * 10, weights, 100.0)
    assert step == 15 and after < before and loss > 0
    men_weight = struct.unpack_from("<d", weights, 8 * 1)[0]
    assert men_weight > 0
