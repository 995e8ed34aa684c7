"""The learned evaluation's weights: which file a variant uses, its layout, and loading it.

The native core (``engine/core/patterns.c``) evaluates with pattern weights fitted on the
engine's own games by ``tools/train_eval.py``: regions of 8 playing squares (3^8 states of men)
every two rows and columns (4x4 squares of a diagonal board; 2x4 and 4x2 squares of the
orthogonal board, which plays them all), the squares the kings stand on, and a few counted
terms, each with an opening and an ending weight blended by the pieces left.  Weights are per
variant *family* (:attr:`rules.variants.Variant.family`): the variants whose board, kings and
game are alike enough to share them, for example

- ``short-8``: 8x8 with kings that step (English, Dame);
- ``flying-8``: 8x8 with flying kings (pool, Russian, Brazilian);
- ``flying-10``: 10x10 (International);
- ``orthogonal-flying-8``: the orthogonal 8x8 board (Turkish).

A family's weights ship as package data, ``engine/weights/<family>.bin`` with
``<family>.json`` beside it, the note of how they were made (commit, date, command lines, games,
positions, losses, match result).  A family without a file plays with the classic evaluation.

The file: a 40-byte header of little-endian fields, then the weights as little-endian int16 in
eighths of a centiman, the opening set then the ending set, each ``dense`` counted terms, one
weight per playing square (a king standing there), then ``windows`` x 6561 window states::

    magic b"DRLEARN\\0" | version u32 | board size u32 | flying kings u32 | windows u32 |
    dense u32 | weights u32 | unit u32 (8) | FNV-1a 32 of the weight bytes u32

The core checks every field against the variant it is loaded for and refuses a file that does
not fit (ValueError), so a corrupt or misplaced file leaves the classic evaluation in charge.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Sequence
from importlib import resources
from typing import NamedTuple

from rules.variants import Variant

from ._core import LEARNED_UNIT, LEARNED_VERSION, Searcher

log = logging.getLogger(__name__)

MAGIC = b"DRLEARN\0"
HEADER = struct.Struct("<8s8I")
UNIT = LEARNED_UNIT
"""Weights in a file are int16 in ``1 / UNIT`` centiman."""


class Header(NamedTuple):
    magic: bytes
    version: int
    size: int
    flying: int
    windows: int
    dense: int
    weights: int
    unit: int
    checksum: int


def family(variant: Variant) -> str:
    """The weight family of ``variant`` (:attr:`rules.variants.Variant.family`); the families
    with a file in ``engine/weights`` ship weights, the others play the classic evaluation."""
    return variant.family


def fnv1a(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def pack(size: int, flying: bool, windows: int, dense: int, weights: Sequence[int]) -> bytes:
    """A weight file of int16 ``weights`` (eighths of a centiman) for a board of ``size``."""
    body = struct.pack(f"<{len(weights)}h", *weights)
    head = HEADER.pack(
        MAGIC,
        LEARNED_VERSION,
        size,
        int(flying),
        windows,
        dense,
        len(weights),
        UNIT,
        fnv1a(body),
    )
    return head + body


def header(data: bytes) -> Header:
    """The header fields of a weight file (not checked: the core checks on loading)."""
    return Header(*HEADER.unpack_from(data))


def weight_file(name: str) -> bytes | None:
    """The shipped weights of family ``name``, or None when it has none."""
    path = resources.files("engine").joinpath("weights", f"{name}.bin")
    if not path.is_file():
        return None
    return path.read_bytes()


def load_into(searcher: Searcher, variant: Variant) -> bool:
    """Load ``variant``'s family weights into ``searcher``; False (the classic evaluation stays)
    when the family has none, or the file is refused (logged: a broken install)."""
    data = weight_file(family(variant))
    if data is None:
        return False
    try:
        searcher.load_weights(data)
    except ValueError:
        log.exception("the learned weights of %s were refused", family(variant))
        return False
    return True
