"""Training the learned evaluation: the engine's public face of the trainer in the core.

``tools/train_eval.py`` fits the weights that :mod:`engine.learned` loads.  The fitting runs in C
(``engine/core/patterns.c``) on the very feature extractor the search evaluates with, so the
weights mean in play what they meant in training; this module gives it per variant: the layout
of the weights (:func:`layout`), the loss of a set of weights on samples (:func:`loss`) and
epochs of mini-batch Adam with L2 (:func:`train`).

Weights, and Adam's two moment vectors, are ``bytearray``s of ``2 * per_phase`` float64 values
in centimen: the opening set then the ending set, each ``dense`` counted terms, a weight per
dark square for a king there, then ``windows`` x 6561 window states (:class:`Layout`).  Samples
are :data:`SAMPLE` records, one position seen from the side to move with the target probability
that the mover wins.  The core checks every
buffer's size and refuses a wrong one (ValueError).  Samples hold 64-bit boards, so the 12x12
board (the core's wide build) has no training: the core refuses it (ValueError), and its variants
play the classic evaluation.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from rules.variants import Variant

from ._core import LEARNED_SAMPLE_SIZE
from .native import core_module, core_rules

SAMPLE = struct.Struct("<4Qfi")
"""One training sample: own men, own kings, their men, their kings, the target (0 to 1) and the
side to move (0 White, 1 Black)."""
if SAMPLE.size != LEARNED_SAMPLE_SIZE:  # a core built from other sources than this file
    raise ImportError(f"the core reads samples of {LEARNED_SAMPLE_SIZE} bytes, not {SAMPLE.size}")


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
