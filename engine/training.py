"""Training the learned evaluation: the engine's public face of the trainer in the core.

``tools/train_eval.py`` fits the weights that :mod:`engine.learned` loads.  The fitting runs in C
(``engine/core/patterns.c``) on the very feature extractor the search evaluates with, so the
weights mean in play what they meant in training; this module gives it per variant: the layout
of the weights (:func:`layout`), the loss of a set of weights on samples (:func:`loss`) and
epochs of mini-batch Adam with L2 (:func:`train`).

Weights, and Adam's two moment vectors, are ``bytearray``s of ``2 * per_phase`` float64 values
in centimen: the opening set then the ending set, each ``dense`` counted terms, a weight per
dark square for a king there, then ``windows`` x 6561 window states (:class:`Layout`).  Samples
are :data:`SAMPLE` records (:func:`pack_sample`), one position seen from the side to move with
the target probability that the mover wins.  A sample holds each board as two 64-bit halves,
low then high, in both builds of the core: the 12x12 board's 77 bits fit, and one packer and one
reader serve every board (the 64-bit build refuses a sample with a high half, as a board it
cannot hold).  The core checks every buffer's size and every sample's boards against the rules
and refuses a wrong one (ValueError).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from rules.variants import Variant

from . import _core, _core_wide
from .native import core_module, core_rules

SAMPLE = struct.Struct("<8Qfi")
"""One training sample: own men, own kings, their men, their kings (each as its low and its high
64 bits: :func:`halves`), the target (0 to 1) and the side to move (0 White, 1 Black)."""
for _build in (_core, _core_wide):  # a core built from other sources than this file
    if SAMPLE.size != _build.LEARNED_SAMPLE_SIZE:
        raise ImportError(
            f"{_build.__name__} reads samples of {_build.LEARNED_SAMPLE_SIZE} bytes, "
            f"not {SAMPLE.size}"
        )

_LOW = (1 << 64) - 1


def halves(*boards: int) -> tuple[int, ...]:
    """Each board as its low and its high 64 bits, in turn: how samples (and the self-play
    records of tools/train_eval.py) store boards of up to 128 bits."""
    return tuple(part for board in boards for part in (board & _LOW, board >> 64))


def joined(parts: tuple[int, ...]) -> tuple[int, ...]:
    """The boards of :func:`halves`' output, each ``low | high << 64``."""
    return tuple(parts[i] | parts[i + 1] << 64 for i in range(0, len(parts), 2))


def pack_sample(
    own_men: int, own_kings: int, their_men: int, their_kings: int, target: float, side: int
) -> bytes:
    """One :data:`SAMPLE` record."""
    return SAMPLE.pack(*halves(own_men, own_kings, their_men, their_kings), target, side)


def unpack_samples(data: bytes) -> list[tuple[int, int, int, int, float, int]]:
    """The samples in ``data``: boards, target and side, as :func:`pack_sample` took them."""
    rows = []
    for row in SAMPLE.iter_unpack(data):
        own_men, own_kings, their_men, their_kings = joined(row[:8])
        rows.append((own_men, own_kings, their_men, their_kings, row[8], row[9]))
    return rows


class Layout(NamedTuple):
    """How a variant's weights are laid out."""

    windows: int
    """Board regions with a weight per state of their men."""
    dense: int
    """Counted terms (material and the like), first in each phase."""
    squares: int
    """Dark squares: a weight per square for the kings standing there, after the dense terms."""
    per_phase: int
    """Weights per phase (opening, ending): ``dense + squares + windows * 6561``."""
    start_pieces: int
    """Pieces at the start: the blend of the two phases counts down from here."""


def layout(variant: Variant) -> Layout:
    """The layout of ``variant``'s weights."""
    return Layout(*core_module(variant).learned_layout(core_rules(variant), variant.men_rows))


def loss(variant: Variant, samples: bytes, weights: bytearray, scale: float) -> float:
    """The mean cross-entropy of ``weights`` on ``samples``, an evaluation (centimen) being read
    as the probability ``sigmoid(evaluation / scale)``."""
    core = core_module(variant)
    return core.learned_loss(core_rules(variant), variant.men_rows, samples, weights, scale)


def train(
    variant: Variant,
    samples: bytes,
    weights: bytearray,
    moments: tuple[bytearray, bytearray],
    step: int,
    *,
    epochs: int,
    batch: int,
    lr: float,
    l2: float,
    scale: float,
    seed: int,
) -> tuple[float, int]:
    """Train ``weights`` in place for ``epochs`` passes over ``samples`` (shuffled by ``seed``)
    in batches of ``batch``, Adam's ``moments`` and ``step`` carried from call to call; the mean
    loss of the last epoch and the step reached."""
    first, second = moments
    return core_module(variant).learned_train(
        core_rules(variant),
        variant.men_rows,
        samples,
        weights,
        first,
        second,
        step,
        epochs,
        batch,
        lr,
        l2,
        scale,
        seed,
    )
