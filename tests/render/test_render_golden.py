"""Golden images: one fixed midgame per variant (tests/support/render_cases.py), drawn with a
capture highlight, kings of both sides and a mix of themes, flips, arrows and status strips,
compared with the PNGs in tests/render/golden/ after decoding both.

The global tolerance absorbs antialiasing differences between Pillow/FreeType versions (a few
pixels along the edges of discs, crowns and text): mean absolute difference per channel at most
1.0, and at most 0.5% of the pixels off by more than 48.  On its own that would let one missing
man on a 10x10 board through (about 0.4% of the pixels at 480 px), so the flat interiors of every
square -- the centre, the face beside a king's crown, and the highlight corner -- must also agree
closely: they are far from any edge, so antialiasing does not move them.

After an intended change run ``python tests/render/golden/regenerate.py`` and look at the new images
before committing them.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops
from support.render_cases import (
    CASES,
    GOLDEN_WIDTH,
    Case,
    centre_point,
    corner_point,
    decode,
    distance,
    face_point,
    render_case,
)

from render.board import render_board
from rules.position import Position
from rules.variants import VARIANTS

MAX_MEAN_DIFF = 1.0
"""Mean absolute difference per channel (0-255)."""
BIG_DIFF = 48
MAX_BIG_FRACTION = 0.005
"""At most this share of pixels may differ by more than ``BIG_DIFF`` in some channel."""
MAX_INTERIOR_DIFF = 24.0
"""RGB distance allowed at the interior sample points of each square."""
HINT = (
    "if the change is intended, run python tests/render/golden/regenerate.py and review the images"
)


def global_difference(fresh: Image.Image, golden: Image.Image) -> tuple[float, float]:
    """(mean absolute per-channel difference, share of pixels differing by > BIG_DIFF)."""
    assert fresh.size == golden.size, f"size {fresh.size} != golden {golden.size}"
    diff = ImageChops.difference(fresh, golden)
    hist = diff.histogram()
    pixels = fresh.width * fresh.height
    total = sum(v * n for c in range(3) for v, n in enumerate(hist[c * 256 : (c + 1) * 256]))
    r, g, b = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(r, g), b)
    big = peak.point(lambda v: 255 if v > BIG_DIFF else 0).histogram()[255]
    return total / (3 * pixels), big / pixels


def interior_differences(
    fresh: Image.Image, golden: Image.Image, position: Position, flip: bool
) -> list[str]:
    size = position.variant.size
    out = []
    for square in range(1, position.variant.geometry.squares + 1):
        for name, where in (
            ("centre", centre_point),
            ("face", face_point),
            ("corner", corner_point),
        ):
            point = where(
                size,
                GOLDEN_WIDTH,
                square,
                flip,
                position.variant.mirrored,
                position.variant.orthogonal,
            )
            d = distance(fresh.getpixel(point), golden.getpixel(point))
            if d > MAX_INTERIOR_DIFF:
                out.append(
                    f"square {square} {name}: {golden.getpixel(point)} -> {fresh.getpixel(point)}"
                )
    return out


def mismatches(fresh: Image.Image, golden: Image.Image, case: Case) -> list[str]:
    """Why ``fresh`` does not pass for ``golden`` (empty: it does)."""
    mean, big = global_difference(fresh, golden)
    out = []
    if mean > MAX_MEAN_DIFF:
        out.append(f"mean difference {mean:.2f} > {MAX_MEAN_DIFF}")
    if big > MAX_BIG_FRACTION:
        out.append(f"{big:.2%} of pixels differ by more than {BIG_DIFF}")
    out += interior_differences(fresh, golden, case.after, case.flip)
    return out


def test_one_golden_per_variant() -> None:
    assert sorted(case.variant for case in CASES) == sorted(VARIANTS)
    for case in CASES:
        assert case.golden.exists(), (
            f"missing {case.golden}: run python tests/render/golden/regenerate.py"
        )


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.variant)
def test_golden(case: Case) -> None:
    golden = decode(case.golden.read_bytes())
    fresh = decode(render_case(case))
    assert golden.width == GOLDEN_WIDTH
    assert fresh.size == golden.size, f"{case.variant}: size {fresh.size} != {golden.size}"
    problems = mismatches(fresh, golden, case)
    assert not problems, f"{case.variant}: {problems[:5]}; {HINT}"


def without(position: Position, square: int) -> Position:
    """``position`` with the piece on ``square`` taken off."""
    bit = position.variant.geometry.bit(square)
    return Position(
        position.variant,
        position.white_men & ~bit,
        position.white_kings & ~bit,
        position.black_men & ~bit,
        position.black_kings & ~bit,
        position.turn,
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.variant)
def test_comparison_catches_small_real_changes(case: Case) -> None:
    """The tolerance is not so loose that a different picture passes: the same case drawn without
    its highlight, or with any single piece taken off the board, fails the comparison."""
    golden = decode(case.golden.read_bytes())
    options = case.options()
    assert mismatches(
        render_board(case.after, width=GOLDEN_WIDTH, **{**options, "last_move": None}), golden, case
    )
    for square, _kind in case.after.iter_pieces():
        fewer = render_board(without(case.after, square), width=GOLDEN_WIDTH, **options)
        assert mismatches(fewer, golden, case), f"{case.variant}: piece on {square} not missed"
