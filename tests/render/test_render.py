"""The board renderer (render/): every image is decoded from the bytes it would be sent as, and
checked by what it shows — sizes, which piece stands on every square, the flipped orientation,
the last-move highlight, ghosts, capture paths, arrows, themes, colour-blind contrast, labels
readable on a phone (size and WCAG contrast, read back from the pixels), GIFs (timing, captions,
players' names), the alt text and text diagram (render.description), the command line, and
rendering from several threads.

Squares are read back with the classifier in ``render_cases``: the colour at the centre of a
square (a man's flat face, a king's crown, or the bare dark square) and at a point on the face
beside the crown, each matched to the nearest theme colour within a tolerance.
"""

from __future__ import annotations

import dataclasses
import doctest
import io
import itertools
import random
import re
import subprocess
import sys
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageStat
from support.render_cases import (
    CASES,
    MAX_SAMPLE_DISTANCE,
    RGB,
    Case,
    centre_point,
    classify,
    corner_point,
    decode,
    distance,
    expected_samples,
    face_point,
    long_game,
    mix,
    square_colour,
)

import render
from render import board as board_module
from render import description as description_module
from render import encoding as encoding_module
from render import gif as gif_module
from render import labels as labels_module
from render import words as words_module
from render.board import (
    DEFAULT_WIDTH,
    GHOST_OPACITY,
    Label,
    board_labels,
    layout,
    render_board,
    square_centre,
    square_origin,
    status_text,
)
from render.colorblind import DEUTERANOPIA, PROTANOPIA, delta_e, simulate
from render.description import MAX_ALT_TEXT, describe, square_list, text_diagram
from render.encoding import encode_png, render_png
from render.gif import (
    CAPTURE_MS,
    FINAL_MS,
    FRAME_MS,
    GIF_WIDTH,
    MAX_GIF_BYTES,
    clean_name,
    frame_status,
    names_header,
    render_gif,
)
from render.legibility import (
    DISPLAY_WIDTH,
    MIN_CAP_HEIGHT,
    MIN_CONTRAST,
    contrast_ratio,
    display_pixels,
    measure_label,
    relative_luminance,
)
from render.themes import THEMES, Theme
from rules.game import Game
from rules.move import Move
from rules.pdn import write_game
from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import VARIANTS, Color, Variant, find_variant

ROOT = Path(__file__).resolve().parent.parent.parent
KIND_NAMES = {
    None: "nothing recognisable",
    EMPTY: "empty",
    WHITE_MAN: "white man",
    WHITE_KING: "white king",
    BLACK_MAN: "black man",
    BLACK_KING: "black king",
}
CASE_BY_VARIANT = {case.variant: case for case in CASES}
SMALL = 480
"""A second width besides the default (and the size of the goldens and GIF frames)."""
MIN_GIF_WIDTH = 320
"""The smallest width a GIF is drawn at to fit the size limit (``MIN_WIDTH * 2``)."""


def png(position: Position, **options: object) -> Image.Image:
    """``render_png`` decoded back to RGB pixels."""
    return decode(render_png(position, **options))


def pattern(variant: Variant, shift: int) -> Position:
    """Every piece kind spread over the whole board: square ``s`` holds kind ``(s + shift) % 5``
    (0 = empty); over shifts 0-4 every square holds every kind once."""
    by_kind: dict[int, list[int]] = {WHITE_MAN: [], WHITE_KING: [], BLACK_MAN: [], BLACK_KING: []}
    for square in range(1, variant.geometry.squares + 1):
        kind = (square + shift) % 5
        if kind:
            by_kind[kind].append(square)
    return Position.from_squares(
        variant,
        Color.WHITE,
        white_men=by_kind[WHITE_MAN],
        white_kings=by_kind[WHITE_KING],
        black_men=by_kind[BLACK_MAN],
        black_kings=by_kind[BLACK_KING],
    )


def positions(variant: Variant) -> list[Position]:
    return [
        Position.start(variant),
        CASE_BY_VARIANT[variant.key].after,
        *(pattern(variant, shift) for shift in range(5)),
    ]


def misread_squares(
    img: Image.Image,
    position: Position,
    width: int,
    flip: bool,
    theme: Theme,
    skip: frozenset[int] | set[int] = frozenset(),
) -> list[str]:
    """Squares whose pixels do not show what ``position`` has there (``skip``: not checked)."""
    size = position.variant.size
    wrong = []
    for square in range(1, position.variant.geometry.squares + 1):
        if square in skip:
            continue
        want = position.piece_at(square)
        got, off = classify(
            img,
            size,
            width,
            square,
            flip,
            theme,
            position.variant.mirrored,
            position.variant.orthogonal,
        )
        if got != want:
            wrong.append(
                f"{square}: {KIND_NAMES[want]} read as {KIND_NAMES[got]} (off by {off:.0f})"
            )
    return wrong


def first_step(position: Position) -> Move:
    return min((m for m in position.legal_moves() if not m.is_capture), key=lambda m: m.path)


def blank_squares(
    img: Image.Image,
    size: int,
    width: int,
    squares: set[int],
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> None:
    """Paint ``squares`` black (to compare two images everywhere else)."""
    sq = layout(size, width).square
    draw = ImageDraw.Draw(img)
    for square in squares:
        x, y = square_origin(size, width, square, flip, mirrored, orthogonal)
        draw.rectangle((x, y, x + sq - 1, y + sq - 1), fill=(0, 0, 0))


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0-255)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


# -- size ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["english", "international"])
@pytest.mark.parametrize("width", [DEFAULT_WIDTH, 400])
def test_dimensions(variant: str, width: int) -> None:
    rules = find_variant(variant)
    pos = Position.start(rules)
    plain = png(pos, width=width)
    assert plain.size == (width, width)
    with_status = png(pos, width=width, status=status_text(pos, 1))
    strip = layout(rules.size, width).strip
    assert strip > 0
    assert with_status.size == (width, width + strip)
    # The board part is the same picture with or without the strip.
    assert mean_difference(with_status.crop((0, 0, width, width)), plain) < 0.5


def test_default_width_and_limits() -> None:
    pos = Position.start(find_variant("english"))
    assert png(pos).size == (DEFAULT_WIDTH, DEFAULT_WIDTH)
    for bad in (100, 5000):
        with pytest.raises(ValueError, match="width"):
            render_png(pos, width=bad)


def test_board_is_centred_and_squares_tile_it() -> None:
    for variant in ("english", "international"):
        size = find_variant(variant).size
        for width in (DEFAULT_WIDTH, SMALL):
            lay = layout(size, width)
            assert lay.margin * 2 + lay.square * size == width
            xs = sorted(
                {square_origin(size, width, s, False)[0] for s in range(1, size**2 // 2 + 1)}
            )
            assert xs == [lay.margin + i * lay.square for i in range(size)]


@pytest.mark.parametrize("theme", list(THEMES))
def test_status_strip_shows_the_side_to_move(theme: str) -> None:
    th = THEMES[theme]
    rules = find_variant("english")
    black = Position.start(rules)  # Black moves first in English draughts
    white = black.play(first_step(black))
    lay = layout(rules.size, DEFAULT_WIDTH)
    disc = round(lay.strip * 0.9)
    point = (lay.margin + disc // 2, DEFAULT_WIDTH + lay.strip // 2)
    for pos, want, other in (
        (black, th.black_piece, th.white_piece),
        (white, th.white_piece, th.black_piece),
    ):
        img = png(pos, theme=theme, status=status_text(pos, 3))
        seen = img.getpixel(point)
        assert distance(seen, want) <= MAX_SAMPLE_DISTANCE, (pos.turn, seen, want)
        assert distance(seen, other) > 3 * MAX_SAMPLE_DISTANCE
    assert status_text(white, 3) == "White to move · move 3"
    assert status_text(black) == "Black to move"


# -- what stands where -----------------------------------------------------------------------------


@pytest.mark.parametrize("theme", list(THEMES))
def test_classifier_colours_are_far_apart(theme: str) -> None:
    """The classifier can only be trusted if the five (centre, face) colour pairs it matches
    against are further apart than twice its tolerance."""
    samples = expected_samples(THEMES[theme])
    for (a, (ca, fa)), (b, (cb, fb)) in combinations(samples.items(), 2):
        gap = max(distance(ca, cb), distance(fa, fb))
        assert gap > 2 * MAX_SAMPLE_DISTANCE, (KIND_NAMES[a], KIND_NAMES[b], gap)


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_square_shows_its_piece(variant: str, theme: str) -> None:
    """Every dark square of several positions (start, a midgame, and five boards that between
    them put every kind on every square), both orientations, two widths."""
    rules = find_variant(variant)
    th = THEMES[theme]
    for pos in positions(rules):
        for flip, width in ((False, DEFAULT_WIDTH), (True, SMALL)):
            img = png(pos, theme=theme, flip=flip, width=width)
            wrong = misread_squares(img, pos, width, flip, th)
            assert not wrong, f"{pos.fen()} flip={flip} width={width}: {wrong[:6]}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_centre_colour_alone_tells_kind_and_side(theme: str) -> None:
    """The issue asks that "the colour at each square centre says man/king/empty and which
    side": classify by the centre pixel only (nearest of the five theme colours)."""
    th = THEMES[theme]
    rules = find_variant("english")
    centres = {kind: centre for kind, (centre, _face) in expected_samples(th).items()}
    for shift in range(5):
        pos = pattern(rules, shift)
        img = png(pos, theme=theme)
        for square in range(1, rules.geometry.squares + 1):
            pixel = img.getpixel(centre_point(rules.size, DEFAULT_WIDTH, square, False))
            ranked = sorted(centres, key=lambda kind: distance(pixel, centres[kind]))
            want = pos.piece_at(square)
            clash = [k for k in centres if k != want and centres[k] == centres[want]]
            assert not clash and ranked[0] == want, (
                f"theme {theme}, square {square}: the centre of a {KIND_NAMES[want]} is "
                f"{pixel}, nearest {KIND_NAMES[ranked[0]]}; same centre colour as "
                f"{[KIND_NAMES[k] for k in clash]}"
            )


# -- flipping --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["english", "international", "russian", "italian"])
@pytest.mark.parametrize("width", [DEFAULT_WIDTH, SMALL])
def test_flip_maps_each_square_to_its_mirror(variant: str, width: int) -> None:
    rules = find_variant(variant)
    size, mirrored = rules.size, rules.mirrored
    pos = CASE_BY_VARIANT[variant].after
    upright = png(pos, width=width, theme="wood")
    flipped = png(pos, width=width, theme="wood", flip=True)
    moved = 0
    for square in range(1, rules.geometry.squares + 1):
        x, y = square_centre(size, width, square, False, mirrored)
        fx, fy = square_centre(size, width, square, True, mirrored)
        # Mirrored through the image centre: pixel x maps to width-1-x.  square_centre is the
        # pixel just right of/below the geometric centre when a square has an even number of
        # pixels, so the mirror of that pixel is one off: allow 1 px.
        assert abs(fx - (width - 1 - x)) <= 1 and abs(fy - (width - 1 - y)) <= 1, (square, x, fx)
        moved += (x, y) != (fx, fy)
        got, _ = classify(flipped, size, width, square, True, THEMES["wood"], mirrored)
        assert got == pos.piece_at(square), (square, KIND_NAMES[got])
        # The same pixels show up at the mirrored place.
        assert distance(flipped.getpixel((fx, fy)), upright.getpixel((x, y))) <= 20
    assert moved == rules.geometry.squares
    # Square 1 is at the top (Black's side) upright, at the bottom flipped.
    assert (
        square_centre(size, width, 1, False)[1] < width / 2 < square_centre(size, width, 1, True)[1]
    )


def test_spanish_plates_count_from_white_s_near_right() -> None:
    """Spanish plays on italian's board and pieces, numbered from the other end: 1 on h1 and 32
    on a8, where italian has 32 and 1.  The two start images differ on the plates and nowhere
    else."""
    spanish, italian = find_variant("spanish"), find_variant("italian")
    g = spanish.geometry
    labels = board_labels(8, mirrored=True, numbering=spanish.numbering)
    written = {label.square: label.text for label in labels if label.kind == "number"}
    assert written[g.square_by_name["h1"]] == "1" and written[g.square_by_name["a8"]] == "32"
    assert written[g.square_by_name["b1"]] == "4" and written[g.square_by_name["g2"]] == "5"
    theme = THEMES["wood"]
    plates = [
        entry
        for variant in (spanish, italian)
        for entry in board_module.number_plates(variant.geometry, theme, False, DEFAULT_WIDTH)
        if entry is not None
    ]
    outside = Image.new("L", (DEFAULT_WIDTH, DEFAULT_WIDTH), 255)
    draw = ImageDraw.Draw(outside)
    for (x, y), image in plates:
        draw.rectangle((x, y, x + image.width - 1, y + image.height - 1), fill=0)
    upright = [png(Position.start(v), theme="wood").convert("RGB") for v in (spanish, italian)]
    difference = ImageChops.difference(*upright).convert("L")
    assert difference.getbbox() is not None
    assert ImageChops.multiply(difference, outside).getbbox() is None


def test_flipped_coordinates_are_different_labels() -> None:
    pos = Position.start(find_variant("english"))
    upright, flipped = png(pos), png(pos, flip=True)
    lay = layout(8, DEFAULT_WIDTH)
    frame = (0, lay.margin + 8 * lay.square, DEFAULT_WIDTH, DEFAULT_WIDTH)  # the a-h strip
    assert mean_difference(upright.crop(frame), flipped.crop(frame)) > 0.5


# -- last move: highlight, ghosts, path ------------------------------------------------------------


def free_corner(
    size: int,
    width: int,
    square: int,
    flip: bool,
    path: tuple[int, ...],
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    """A point near a corner of ``square`` (see ``CORNER_OFFSET``) that the capture ``path``
    drawn over the board does not cross: the bottom-left one, else the top-right one, else the
    bottom-right one (the top-left one holds the square's number).  A segment that ends on the
    square covers the corner it leaves by; one that crosses it (a king turning back over its own
    squares) covers both corners of its diagonal."""

    def centre(s: int) -> tuple[int, int]:
        return square_centre(size, width, s, flip, mirrored, orthogonal)

    def sign(v: int) -> int:
        return (v > 0) - (v < 0)

    cx, cy = centre(square)
    covered: set[tuple[int, int]] = set()
    for a, b in itertools.pairwise(path):
        (ax, ay), (bx, by) = centre(a), centre(b)
        way = (sign(bx - ax), sign(by - ay))
        back = (-way[0], -way[1])
        if square == a:
            covered.add(way)
        elif square == b:
            covered.add(back)
        elif sign(cx - ax) == way[0] and sign(bx - cx) == way[0]:
            on_line = (cx - ax) * (by - ay) == (cy - ay) * (bx - ax)
            if on_line:
                covered |= {way, back}
    sq = layout(size, width).square
    ox, oy = square_origin(size, width, square, flip, mirrored, orthogonal)
    corners = {
        (-1, 1): corner_point(size, width, square, flip, mirrored, orthogonal),
        (1, -1): (ox + sq - 1 - 3, oy + 4),
        (1, 1): (ox + sq - 1 - 3, oy + sq - 1 - 4),
    }
    return next(point for corner, point in corners.items() if corner not in covered)


def check_highlight(
    lit: Image.Image,
    plain: Image.Image,
    point: tuple[int, int],
    th: Theme,
    square: RGB | None = None,
) -> None:
    """The highlight at ``point`` over a square of colour ``square`` (the dark one unless
    given: only the orthogonal board plays on light squares too)."""
    bare = th.dark_square if square is None else square
    before, after = plain.getpixel(point), lit.getpixel(point)
    assert distance(before, bare) <= 12, (point, before)
    want = mix(bare, th.highlight, th.highlight_alpha / 255)
    assert distance(after, want) <= 20, (point, after, want)
    assert distance(after, th.highlight) < distance(before, th.highlight) - 20


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_step_highlights_from_and_to_and_nothing_else(variant: str, theme: str) -> None:
    rules = find_variant(variant)
    th = THEMES[theme]
    before = Position.start(rules)
    move = first_step(before)
    after = before.play(move)
    for flip in (False, True):
        lit = png(after, last_move=move, previous=before, theme=theme, flip=flip)
        plain = png(after, theme=theme, flip=flip)
        for square in (move.start, move.end):
            point = corner_point(
                rules.size, DEFAULT_WIDTH, square, flip, rules.mirrored, rules.orthogonal
            )
            bare = square_colour(rules.size, square, th, rules.mirrored, rules.orthogonal)
            check_highlight(lit, plain, point, th, bare)
        ends = {move.start, move.end}
        blank_squares(lit, rules.size, DEFAULT_WIDTH, ends, flip, rules.mirrored, rules.orthogonal)
        blank_squares(
            plain, rules.size, DEFAULT_WIDTH, ends, flip, rules.mirrored, rules.orthogonal
        )
        assert ImageChops.difference(lit, plain).getbbox() is None, "highlight elsewhere"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.variant)
def test_capture_highlights_from_and_to(case: Case) -> None:
    rules = case.rules
    th = THEMES[case.theme]
    move = case.last_move
    options = {**case.options(), "arrows": (), "status": None}
    lit = png(case.after, **options)
    plain = png(case.after, theme=case.theme, flip=case.flip)
    for square in (move.path[0], move.path[-1]):
        point = free_corner(
            rules.size,
            DEFAULT_WIDTH,
            square,
            case.flip,
            move.path,
            rules.mirrored,
            rules.orthogonal,
        )
        bare = square_colour(rules.size, square, th, rules.mirrored, rules.orthogonal)
        check_highlight(lit, plain, point, th, bare)
    # Squares the move never touched look the same with or without it (a flying king's jump
    # passes over the empty squares on its way: its line crosses them).
    untouched = set(range(1, rules.geometry.squares + 1)) - passed_over(rules, move.path)
    for square in untouched:
        point = corner_point(
            rules.size, DEFAULT_WIDTH, square, case.flip, rules.mirrored, rules.orthogonal
        )
        if distance(plain.getpixel(point), th.dark_square) <= 12:
            assert lit.getpixel(point) == plain.getpixel(point), square


def passed_over(rules: Variant, path: tuple[int, ...]) -> set[int]:
    """Every playing square on the lines a landing path runs along, its ends included (a row
    or column of a diagonal board, where frisian captures, crosses light squares too)."""
    g = rules.geometry
    by_place = {g.coordinates(s): s for s in range(1, g.squares + 1)}
    out = {path[0]}
    for start, end in itertools.pairwise(path):
        (x, y), (tx, ty) = g.coordinates(start), g.coordinates(end)
        dx, dy = (tx > x) - (tx < x), (ty > y) - (ty < y)
        while (x, y) != (tx, ty):
            x, y = x + dx, y + dy
            if (x, y) in by_place:
                out.add(by_place[(x, y)])
    return out


def segment_through(
    move: Move, square: int, centre: Callable[[int], tuple[int, int]]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (start, end) centres of the path segment that jumps over ``square``."""
    cx, cy = centre(square)
    for a, b in pairwise(move.path):
        (ax, ay), (bx, by) = centre(a), centre(b)
        cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        # Between the ends (along a row or column of the orthogonal board one coordinate stays).
        inside = (
            min(ax, bx) <= cx <= max(ax, bx)
            and min(ay, by) <= cy <= max(ay, by)
            and (cx, cy) not in ((ax, ay), (bx, by))
        )
        if abs(cross) <= 2 * max(abs(bx - ax), abs(by - ay)) and inside:
            return (ax, ay), (bx, by)
    raise AssertionError(f"{square} is not on the path of {move}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.variant)
def test_captured_pieces_show_as_ghosts(case: Case) -> None:
    """Each captured piece is still drawn, faintly: on its face (beside the capture line, above
    the centre so clear of a king's crown, or below it where the square's number plate reaches
    that far, as on 12x12's small squares) the colour is the square's covered by the piece's at
    the ghost opacity — neither the bare square nor the full piece."""
    rules, th, move = case.rules, THEMES[case.theme], case.last_move
    size, flip = rules.size, case.flip
    sq = layout(size, DEFAULT_WIDTH).square
    plates = board_module.number_plates(rules.geometry, th, flip, DEFAULT_WIDTH)
    img = png(case.after, **{**case.options(), "arrows": ()})
    assert move.captured
    for square in move.captured:
        assert case.after.piece_at(square) == EMPTY
        kind = case.before.piece_at(square)
        face = th.white_piece if kind in (WHITE_MAN, WHITE_KING) else th.black_piece

        def centre(s: int) -> tuple[int, int]:
            return square_centre(
                size, DEFAULT_WIDTH, s, flip, case.rules.mirrored, case.rules.orthogonal
            )

        (ax, ay), (bx, by) = segment_through(move, square, centre)
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        nx, ny = -(by - ay) / length, (bx - ax) / length
        if ny > 0:
            nx, ny = -nx, -ny
        cx, cy = centre(square)
        point = (round(cx + 0.15 * sq * nx), round(cy + 0.15 * sq * ny))
        plate = plates[square]
        if plate is not None:
            (px, py), tile = plate
            if px <= point[0] < px + tile.width and py <= point[1] < py + tile.height:
                assert kind in (WHITE_MAN, BLACK_MAN), (square, "a king under its plate")
                point = (round(cx - 0.15 * sq * nx), round(cy - 0.15 * sq * ny))
        seen = img.getpixel(point)
        bare = square_colour(size, square, th, case.rules.mirrored, case.rules.orthogonal)
        want = mix(bare, face, GHOST_OPACITY)
        assert distance(seen, want) <= 25, (square, seen, want)
        assert distance(seen, bare) > 25, (square, seen)
        assert distance(seen, face) > 60, (square, seen)


def test_previous_position_tells_king_ghosts_from_men() -> None:
    case = CASE_BY_VARIANT["brazilian"]  # captures a king on 23 and a man on 15
    kinds = {s: case.before.piece_at(s) for s in case.last_move.captured}
    assert BLACK_KING in kinds.values() and BLACK_MAN in kinds.values()
    options = {**case.options(), "arrows": ()}
    with_previous = png(case.after, **options)
    without = png(case.after, **{**options, "previous": None})
    size = case.rules.size
    sq = layout(size, DEFAULT_WIDTH).square
    for square, kind in kinds.items():
        x, y = square_origin(size, DEFAULT_WIDTH, square, case.flip)
        box = (x, y, x + sq, y + sq)
        diff = mean_difference(with_previous.crop(box), without.crop(box))
        if kind == BLACK_KING:
            assert diff > 1.0, "a captured king is drawn as a man"
        else:
            assert diff == 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.variant)
def test_capture_path_is_drawn_between_landing_squares(case: Case) -> None:
    """Points on the straight line between consecutive landing squares, away from any disc, from
    the square numbers and from the highlighted squares, take the path colour."""
    rules, th, move = case.rules, THEMES[case.theme], case.last_move
    size, flip = rules.size, case.flip
    sq = layout(size, DEFAULT_WIDTH).square
    lit = png(case.after, **{**case.options(), "arrows": (), "status": None})
    plain = png(case.after, theme=case.theme, flip=flip)
    boxes = {
        s: square_origin(size, DEFAULT_WIDTH, s, flip, rules.mirrored, rules.orthogonal)
        for s in range(1, rules.geometry.squares + 1)
    }
    for a, b in pairwise(move.path):
        (ax, ay) = square_centre(size, DEFAULT_WIDTH, a, flip, rules.mirrored, rules.orthogonal)
        (bx, by) = square_centre(size, DEFAULT_WIDTH, b, flip, rules.mirrored, rules.orthogonal)
        checked = 0
        for i in range(1, 200):
            t = i / 200
            x, y = round(ax + (bx - ax) * t), round(ay + (by - ay) * t)
            square = next(
                (
                    s
                    for s, (ox, oy) in boxes.items()
                    if ox + 2 <= x < ox + sq - 2 and oy + 2 <= y < oy + sq - 2
                ),
                None,
            )
            if square is None or square in (move.start, move.end):
                continue
            sx, sy = boxes[square][0] + sq / 2, boxes[square][1] + sq / 2
            disc = square in move.captured or case.after.piece_at(square) != EMPTY
            if disc and ((x - sx) ** 2 + (y - sy) ** 2) ** 0.5 < 0.45 * sq:
                continue  # a piece or a ghost under the line
            bare = square_colour(size, square, th, rules.mirrored, rules.orthogonal)
            if distance(plain.getpixel((x, y)), bare) > 12:
                continue  # a square number
            want = mix(bare, th.path, 225 / 255)
            seen = lit.getpixel((x, y))
            assert distance(seen, want) <= 30, (a, b, (x, y), seen, want)
            checked += 1
        assert checked >= 6, f"only {checked} points checked between {a} and {b}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_arrows_are_drawn_and_nothing_else_changes(theme: str) -> None:
    th = THEMES[theme]
    rules = find_variant("international")
    pos = Position.start(rules)
    size = rules.size
    sq = layout(size, DEFAULT_WIDTH).square
    plain = png(pos, theme=theme)
    for start, end in ((32, 28), (33, 24), (31, 22), (20, 29)):
        img = png(pos, theme=theme, arrows=[(start, end)])
        (ax, ay), (bx, by) = (square_centre(size, DEFAULT_WIDTH, s, False) for s in (start, end))
        shaft = (round(ax + (bx - ax) * 0.3), round(ay + (by - ay) * 0.3))
        before, after = plain.getpixel(shaft), img.getpixel(shaft)
        assert distance(after, th.arrow) < distance(before, th.arrow) - 30, (start, end)
        box = ImageChops.difference(img, plain).getbbox()
        assert box is not None
        left, top = min(ax, bx) - sq, min(ay, by) - sq
        right, bottom = max(ax, bx) + sq, max(ay, by) + sq
        assert left <= box[0] and top <= box[1] and box[2] <= right and box[3] <= bottom, box
    both = png(pos, theme=theme, arrows=[(32, 28), (33, 29)])
    one = png(pos, theme=theme, arrows=[(32, 28)])
    assert mean_difference(both, one) > 0


# -- themes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), list(combinations(THEMES, 2)))
def test_themes_differ(a: str, b: str) -> None:
    """Whole images differ by a clear margin.  The closest pair, wood and green, shares cream
    light squares and near-white men, so their difference comes mostly from the dark squares and
    the frame: about 18 per channel; the same theme twice gives 0."""
    for variant in ("english", "international"):
        case = CASE_BY_VARIANT[variant]
        options = case.options()
        one = png(case.after, **{**options, "theme": a})
        two = png(case.after, **{**options, "theme": b})
        assert mean_difference(one, two) > 10, (variant, a, b)


IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
VISIONS = {"normal": IDENTITY, "protanopia": PROTANOPIA, "deuteranopia": DEUTERANOPIA}


def seen_delta(a: RGB, b: RGB, matrix: Sequence[Sequence[float]]) -> float:
    return delta_e(simulate(a, matrix), simulate(b, matrix))


def theme_pairs(th: Theme) -> list[tuple[str, RGB, RGB, float]]:
    """Pairs a player must tell apart, with the least CIE76 ΔE each needs.

    ΔE ≈ 2 is a just-noticeable difference between large patches side by side; the usual rule of
    thumb for "different at a glance" is 20+, which is the bar for the large flat areas (squares,
    pieces on squares, highlighted against plain squares).  Two pairs ask for more: the two sides
    (40) because that is the one distinction the whole game depends on and is judged piece by
    piece across the board, and a crown against its own disc (40) because the crown is a small
    shape and small fields need a larger difference to be seen (small-field colour vision is
    weaker, especially along the blue-yellow axis).  The highlight is what the viewer sees, the
    highlight laid over the square at its alpha, compared with the bare squares.
    """
    alpha = th.highlight_alpha / 255
    on_dark = mix(th.dark_square, th.highlight, alpha)
    on_light = mix(th.light_square, th.highlight, alpha)
    return [
        ("white piece / black piece", th.white_piece, th.black_piece, 40),
        ("white piece / dark square", th.white_piece, th.dark_square, 20),
        ("black piece / dark square", th.black_piece, th.dark_square, 20),
        ("light square / dark square", th.light_square, th.dark_square, 20),
        ("highlighted dark square / dark square", on_dark, th.dark_square, 20),
        ("highlighted dark square / light square", on_dark, th.light_square, 20),
        ("highlight / dark square", th.highlight, th.dark_square, 20),
        ("highlight / light square", th.highlight, th.light_square, 20),
        ("highlighted light square / light square", on_light, th.light_square, 20),
        ("white crown / white piece", th.white_crown, th.white_piece, 40),
        ("black crown / black piece", th.black_crown, th.black_piece, 40),
    ]


@pytest.mark.parametrize("vision", list(VISIONS))
def test_contrast_theme_is_distinguishable_under_colour_blindness(vision: str) -> None:
    th = THEMES["contrast"]
    matrix = VISIONS[vision]
    weak = [
        f"{name}: ΔE {seen_delta(a, b, matrix):.1f} < {least}"
        for name, a, b, least in theme_pairs(th)
        if seen_delta(a, b, matrix) < least
    ]
    assert not weak, weak


@pytest.mark.parametrize("vision", list(VISIONS))
def test_wood_theme_sides_stay_distinguishable(vision: str) -> None:
    th = THEMES["wood"]
    assert seen_delta(th.white_piece, th.black_piece, VISIONS[vision]) >= 40


def test_simulation_is_not_the_identity() -> None:
    """The colour-blind check means something: red and green, far apart for normal vision,
    collapse under both simulations, while the contrast theme's blue/orange stays apart."""
    red, green = (200, 40, 40), (40, 160, 40)
    assert delta_e(red, green) > 80
    for matrix in (PROTANOPIA, DEUTERANOPIA):
        assert seen_delta(red, green, matrix) < 0.6 * delta_e(red, green)
        assert seen_delta(THEMES["contrast"].highlight, THEMES["contrast"].dark_square, matrix) > 80


# -- labels: readable on a phone -------------------------------------------------------------------


def label_problems(img: Image.Image, labels: Sequence[Label], where: str) -> list[str]:
    """Labels of ``img`` that a phone user could not read: read back from the pixels, every label
    must show ink, have a contrast of at least 3:1 with every pixel round and under its text, and
    a square number's digits must be at least 8 px tall when the image is shown 330 px wide."""
    out = []
    for label in labels:
        seen = measure_label(img, label.box, label.ink)
        name = f"{where}: {label.kind} {label.text!r} at {label.box}"
        if seen is None:
            out.append(f"{name}: no ink or nothing round it")
            continue
        if seen.contrast < MIN_CONTRAST:
            out.append(
                f"{name}: contrast {seen.contrast:.2f} (ink {seen.ink} on {seen.worst_backing})"
            )
        tall = display_pixels(seen.ink_height, img.width)
        if label.kind == "number" and tall < MIN_CAP_HEIGHT:
            out.append(f"{name}: digits {tall:.1f} px tall at {DISPLAY_WIDTH} px")
    return out


def label_scenes(variant: Variant) -> list[tuple[str, Position, dict[str, object]]]:
    """Real positions drawn as the bot and the GIF draw them: the start (upright at the bot's
    width, flipped at the GIF's), a first step with its squares highlighted, the variant's capture
    case (ghosts, kings, the capture path, arrows, status strip) both ways up, and a board with
    kings and men on every other square."""
    case = CASE_BY_VARIANT[variant.key]
    start = Position.start(variant)
    step = first_step(start)
    capture = {**case.options(), "arrows": (*case.arrows, (1, variant.geometry.squares))}
    return [
        ("start", start, {"status": status_text(start, 1)}),
        ("start, flipped", start, {"flip": True, "width": SMALL}),
        ("first step", start.play(step), {"last_move": step, "previous": start, "flip": True}),
        ("capture", case.after, {**capture, "flip": False}),
        ("capture, flipped", case.after, {**capture, "flip": True, "width": SMALL}),
        ("kings and men", pattern(variant, 2), {"status": "Kings · move 99"}),
    ]


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_label_is_readable_on_a_phone(variant: str, theme: str) -> None:
    """Issue 14: every square number, coordinate and status text, in every theme, on both board
    sizes and both ways up, on bare, highlighted and ghost squares and where a number meets a
    piece, checked on the decoded PNG."""
    rules = find_variant(variant)
    problems = []
    under: dict[str, set[int]] = {"highlight": set(), "ghost": set(), "piece": set()}
    for where, pos, options in label_scenes(rules):
        move = options.get("last_move")
        if isinstance(move, Move):
            under["highlight"] |= {move.start, move.end}
            under["ghost"] |= set(move.captured)
        under["piece"] |= {square for square, _ in pos.iter_pieces()}
        flip = bool(options.get("flip", False))
        width = int(options.get("width", DEFAULT_WIDTH))  # type: ignore[call-overload]
        status = options.get("status")
        labels = board_labels(
            rules.size,
            width,
            flip=flip,
            theme=theme,
            status=status if isinstance(status, str) else None,
            mirrored=rules.mirrored,
            numbering=rules.numbering,
            orthogonal=rules.orthogonal,
        )
        assert sum(label.kind == "number" for label in labels) == rules.geometry.squares
        assert sum(label.kind in ("file", "rank") for label in labels) == 2 * rules.size
        img = png(pos, **{**options, "theme": theme})
        problems += label_problems(img, labels, where)
    assert not problems, problems[:8]
    assert all(under.values()), under


def old_style_board(theme: Theme, size: int) -> tuple[Image.Image, list[Label]]:
    """A board drawn the way square numbers were drawn before issue 14: the bundled font at 18% of
    a square in the theme's old number colour, straight on the square, a man over some numbers and
    the last-move tint over one; with the labels where those numbers are."""
    old_ink = {
        "wood": (0xE2, 0xC2, 0x9A),
        "green": (0xCD, 0xDC, 0xB9),
        "contrast": (0xA9, 0xC4, 0xEA),
    }
    lay = layout(size, DEFAULT_WIDTH)
    sq = lay.square
    img = Image.new("RGB", (DEFAULT_WIDTH, DEFAULT_WIDTH), theme.frame)
    draw = ImageDraw.Draw(img)
    font = board_module._font(round(sq * 0.18))
    labels = []
    tint = Image.new("RGBA", (sq, sq), (*theme.highlight, theme.highlight_alpha))
    for square in range(1, size * size // 2 + 1):
        x, y = square_origin(size, DEFAULT_WIDTH, square, False)
        draw.rectangle((x, y, x + sq - 1, y + sq - 1), fill=theme.dark_square)
        if square % 3 == 1:
            img.paste(tint, (x, y), tint)
        pad = max(1, round(sq * 0.04))
        at = (x + pad, y + pad * 0.6)
        draw.text(at, str(square), fill=old_ink[theme.name], font=font)
        left, top, right, bottom = draw.textbbox(at, str(square), font=font)
        box = (int(left) - 1, int(top) - 1, int(right) + 2, int(bottom) + 2)
        labels.append(Label("number", str(square), box, old_ink[theme.name], theme.dark_square))
        if square % 3 == 2:
            man = board_module.sprite(theme, sq, WHITE_MAN)
            img.paste(man, (x, y), man)
    return img, labels


@pytest.mark.parametrize("theme", list(THEMES))
def test_label_check_fails_for_the_old_numbers(theme: str) -> None:
    """The check above can fail: the numbers as they were drawn before are too small on both
    boards (about 4.6 px of digit at 330 px on 8x8, 3.6 px on 10x10) and too faint on the
    last-move tint (1.3-1.4:1) and where a white man covers them, in every theme."""
    for size in (8, 10):
        img, labels = old_style_board(THEMES[theme], size)
        encoded = decode(encode_png(img, theme))
        problems = label_problems(encoded, labels, f"old {size}x{size}")
        small = [p for p in problems if "tall" in p]
        faint = [p for p in problems if "contrast" in p]
        assert len(small) == len(labels), problems[:4]
        assert faint, problems[:4]


def test_label_check_fails_for_a_faint_plate() -> None:
    """The same renderer with the plate in the square's own colour and the old pale digits fails
    the contrast check (2.2:1 on wood's dark squares)."""
    th = dataclasses.replace(
        THEMES["wood"],
        name="faint",
        square_number=(0xE2, 0xC2, 0x9A),
        number_plate=(0xA9, 0x7A, 0x50),
    )
    pos = Position.start(find_variant("english"))
    img = decode(render_png(pos, theme=th))
    problems = label_problems(img, board_labels(8, DEFAULT_WIDTH, theme=th), "faint")
    assert any("contrast 2.2" in p for p in problems), problems[:4]


def test_wcag_contrast_maths() -> None:
    """Relative luminance and contrast ratio as WCAG 2 defines them, on known values."""
    assert relative_luminance((255, 255, 255)) == pytest.approx(1.0)
    assert relative_luminance((0, 0, 0)) == 0.0
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((120, 40, 200), (120, 40, 200)) == 1.0
    # Well-known pairs: #777 on white is just under 4.5:1, #767676 just over; pure red on white 4.0.
    assert contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio((255, 0, 0), (255, 255, 255)) == pytest.approx(4.0, abs=0.01)


@pytest.mark.parametrize("theme", list(THEMES))
def test_plate_colours_have_headroom(theme: str) -> None:
    """The colours themselves, before any antialiasing or palette: digits on their plate and
    coordinates and status text on the frame well above 3:1 (so the pixel check has room)."""
    th = THEMES[theme]
    assert contrast_ratio(th.square_number, th.number_plate) >= 7
    assert contrast_ratio(th.coordinates, th.frame) >= 7
    assert contrast_ratio(th.strip_text, th.strip) >= 7


@pytest.mark.parametrize("variant", ["english", "international", "canadian"])
@pytest.mark.parametrize("width", [DEFAULT_WIDTH, SMALL, 400])
def test_numbers_leave_the_pieces_visible(variant: str, width: int) -> None:
    """A number plate stays in its square's top-left corner: it covers about a fifth of the square
    at most (three tenths of 12x12's smaller squares, where the digits keep their size) and never
    the points the pieces are read by (centre, face beside a crown, the highlight corner); the
    digits are the same size on every board, and every square is numbered."""
    rules = find_variant(variant)
    sq = layout(rules.size, width).square
    cap = labels_module.number_cap(width)
    assert display_pixels(cap, width) >= MIN_CAP_HEIGHT
    share = 0.3 if rules.size == 12 else 0.22
    padding = board_module.plate_padding_for(rules.geometry, width)
    assert padding is not None
    for flip in (False, True):
        labels = board_labels(rules.size, width, flip=flip)
        assert sum(label.kind == "number" for label in labels) == rules.geometry.squares
        for label in labels:
            if label.kind != "number":
                continue
            assert label.square is not None
            x, y = square_origin(rules.size, width, label.square, flip)
            w, h = labels_module.plate_size(label.text, cap, padding)
            assert w * h <= share * sq * sq, (label.text, w, h, sq)
            left, top, right, bottom = label.box
            assert x <= left and y <= top and right <= x + sq and bottom <= y + sq
            for point in (
                centre_point(rules.size, width, label.square, flip),
                face_point(rules.size, width, label.square, flip),
                corner_point(
                    rules.size, width, label.square, flip, rules.mirrored, rules.orthogonal
                ),
            ):
                assert not (x <= point[0] < x + w and y <= point[1] < y + h), (label.text, point)


def test_plates_are_tight_only_where_the_usual_do_not_fit() -> None:
    """The 8x8 and 10x10 boards keep the usual plates at every width the bot draws; the 12x12
    board's 36 px squares at 480 px (the picker, the GIF) take the tight ones, which fit where
    the usual (a pixel too wide for ``72``) would have left the board without numbers."""
    cap = labels_module.number_cap(SMALL)
    usual = labels_module.plate_padding(cap)
    tight = (labels_module.TIGHT_PADDING, usual[1])
    for rules in VARIANTS.values():
        for width in (DEFAULT_WIDTH, SMALL, 400):
            padding = board_module.plate_padding_for(rules.geometry, width)
            if rules.size == 12 and width == SMALL:
                assert padding == tight
            else:
                assert padding == labels_module.plate_padding(labels_module.number_cap(width))
    texts = [str(n) for n in range(1, 73)]
    square = layout(12, SMALL).square
    assert not labels_module.fits(square, cap, texts, usual)
    assert labels_module.fitting_padding(square, cap, texts) == tight
    assert labels_module.fitting_padding(square - 3, cap, texts) is None  # 20 px > 0.6 x 33


def test_digits_are_drawn_for_every_digit() -> None:
    """Each digit has its own strokes (no two masks alike), and anything else is refused."""
    masks = {d: labels_module.digits_mask(d, 17).tobytes() for d in "0123456789"}
    assert len(set(masks.values())) == 10
    with pytest.raises(ValueError, match="digit"):
        labels_module.digit_strokes("x", 10, 17, 3)


# -- GIF -------------------------------------------------------------------------------------------

GALLERY_GAME = (
    "12-16 24-20 8-12 21-17 4-8 25-21 9-14 27-24 10-15 17x10 7x14 32-27 5-9 29-25 14-18 "
    "23x14x5 15-18 22x15 11x18 20x11x4 2-7 26-22 7-10 22x15"
)
"""The docs gallery's English game (docs/images/make_gallery.py): captures and a crowning."""


def gallery_game() -> Game:
    game = Game(find_variant("english"))
    for text in GALLERY_GAME.split():
        game.play(text)
    return game


def gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of a GIF as RGB with its duration in ms."""
    img = Image.open(io.BytesIO(data))
    frames = []
    for index in range(img.n_frames):
        img.seek(index)
        frames.append((img.convert("RGB"), img.info["duration"]))
    return frames


def assert_frame_shows(
    frame: Image.Image, pos: Position, width: int, skip: set[int], top: int = 0
) -> None:
    """``frame`` (whose board starts ``top`` pixels down, below a names header) shows ``pos``."""
    board = frame.crop((0, top, frame.width, frame.height))
    wrong = misread_squares(board, pos, width, False, THEMES["wood"], skip)
    assert not wrong, wrong


def last_move_squares(game: Game) -> set[int]:
    """Squares of the final frame that show the highlight or a ghost, not a plain square."""
    move = game.moves[-1]
    return {move.start, *move.captured}


def test_gif_has_one_frame_per_ply_plus_the_start() -> None:
    game = long_game(12)
    result = render_gif(game)
    assert (result.frames, result.plies, result.width, result.note) == (13, 12, GIF_WIDTH, "")
    frames = gif_frames(result.data)
    assert len(frames) == 13
    strip = layout(8, GIF_WIDTH).strip
    assert all(frame.size == (GIF_WIDTH, GIF_WIDTH + strip) for frame, _ in frames)
    assert_frame_shows(frames[0][0], game.positions[0], GIF_WIDTH, set())
    assert_frame_shows(
        frames[6][0], game.positions[6], GIF_WIDTH, {game.moves[5].start, *game.moves[5].captured}
    )
    assert_frame_shows(frames[-1][0], game.positions[-1], GIF_WIDTH, last_move_squares(game))
    # Consecutive frames differ (each shows a move).
    for (a, _), (b, _) in pairwise(frames):
        assert ImageChops.difference(a, b).getbbox() is not None


def test_gif_timing_pauses_on_captures_and_at_the_end() -> None:
    """About 0.6 s a ply, twice that for a capture, 4 s on the final position."""
    assert 500 <= FRAME_MS <= 700 and CAPTURE_MS >= 2 * FRAME_MS and FINAL_MS >= 4000
    game = gallery_game()
    assert sum(move.is_capture for move in game.moves) >= 5
    durations = [ms for _, ms in gif_frames(render_gif(game).data)]
    want = [FRAME_MS] + [
        CAPTURE_MS if game.moves[ply - 1].is_capture else FRAME_MS
        for ply in range(1, len(game.moves) + 1)
    ]
    want[-1] = FINAL_MS
    assert durations == want


def test_gif_of_a_200_ply_game_stays_under_the_limit() -> None:
    game = long_game(200)
    assert len(game.moves) == 200 and len(game.positions) == 201
    result = render_gif(game, names=("Alice", "Bob"))
    assert result.frames == 201 and result.plies == 200
    assert result.note == "" and result.width == GIF_WIDTH
    assert len(result.data) <= MAX_GIF_BYTES
    img = Image.open(io.BytesIO(result.data))
    assert img.n_frames == 201
    img.seek(200)
    header = layout(8, GIF_WIDTH).strip
    assert_frame_shows(
        img.convert("RGB"), game.positions[-1], GIF_WIDTH, last_move_squares(game), top=header
    )


def test_gif_shrinks_before_dropping_frames() -> None:
    game = long_game(60)
    full = render_gif(game)
    assert full.frames == 61 and full.note == ""
    limit = int(len(full.data) * 0.8)
    smaller = render_gif(game, max_bytes=limit)
    assert len(smaller.data) <= limit
    assert smaller.frames == 61, "frames dropped although shrinking was enough"
    assert smaller.width < GIF_WIDTH
    assert str(smaller.width) in smaller.note and "instead of" in smaller.note
    frames = gif_frames(smaller.data)
    assert len(frames) == 61 and frames[0][0].width == smaller.width


def test_gif_drops_frames_when_shrinking_is_not_enough() -> None:
    game = long_game(60)
    result = render_gif(game, max_bytes=60_000, names=("Alice", "Bob"))
    assert len(result.data) <= 60_000
    assert 2 <= result.frames < 61
    assert result.plies == 60
    assert result.width < GIF_WIDTH
    assert "instead of" in result.note and f"of {61}" in result.note
    frames = gif_frames(result.data)
    assert len(frames) == result.frames
    assert frames[0][0].width == result.width
    assert frames[-1][1] == FINAL_MS
    # The first and the last position are always there.
    top = layout(8, result.width).strip
    assert_frame_shows(frames[0][0], game.positions[0], result.width, set(), top)
    assert_frame_shows(
        frames[-1][0], game.positions[-1], result.width, last_move_squares(game), top
    )


def strip_differs(frame: Image.Image, want: Image.Image, top: int, width: int) -> bool:
    """Whether the status strips (the rows below the board) of two images differ visibly."""
    lay = layout(8, width)
    box = (0, width, width, width + lay.strip)
    a = frame.crop((0, top, width, frame.height)).crop(box)
    changed = ImageChops.difference(a, want.crop(box))
    return changed.convert("L").point(lambda v: 255 if v > 40 else 0).getbbox() is not None


def test_gif_captions_name_the_side_that_moved() -> None:
    """Frame captions read like the PDN of the game with the side that moved before each move:
    ``1. 11-15 23-19 2. 8-11`` gives ``1. Black 11-15``, ``1... White 23-19``, ``2. Black 8-11``,
    each beside a disc of the mover.  Each frame is compared with the same board drawn with the
    expected caption and disc."""
    game = Game(find_variant("english"))
    for text in ("11-15", "23-19", "8-11"):
        game.play(text)
    assert "1. 11-15 23-19 2. 8-11" in write_game(game)
    frames = gif_frames(render_gif(game).data)
    captions = [
        ("Start · Black to move", Color.BLACK),
        ("1. Black 11-15", Color.BLACK),
        ("1... White 23-19", Color.WHITE),
        ("2. Black 8-11", Color.BLACK),
    ]
    assert [frame_status(game, ply) for ply in range(4)] == [c for c, _ in captions]
    wrong = []
    for ply, (caption, side) in enumerate(captions):
        want = png(
            game.positions[ply],
            last_move=game.moves[ply - 1] if ply else None,
            previous=game.positions[ply - 1] if ply else None,
            width=GIF_WIDTH,
            status=caption,
            status_side=side,
        )
        if strip_differs(frames[ply][0], want, 0, GIF_WIDTH):
            wrong.append(f"frame {ply} is not captioned {caption!r}")
        other = png(game.positions[ply], width=GIF_WIDTH, status=caption, status_side=side.other)
        if ply and not strip_differs(frames[ply][0], other, 0, GIF_WIDTH):
            wrong.append(f"frame {ply}: the disc does not show who moved")
    assert not wrong, wrong


def test_gif_captions_in_coordinates_for_russian_draughts() -> None:
    rules = find_variant("russian")
    game = Game(rules)
    for text in ("c3-d4", "f6-g5", "d4-e5"):
        game.play(text)
    assert frame_status(game, 1, "algebraic") == "1. White c3-d4"
    assert frame_status(game, 2, "algebraic") == "1... Black f6-g5"
    assert frame_status(game, 3, "numeric") == f"2. White {game.moves[2].pdn()}"
    assert frame_status(game, 3, rules.notation) == "2. White d4-e5"
    frames = gif_frames(render_gif(game, notation="algebraic").data)
    want = png(
        game.positions[2],
        last_move=game.moves[1],
        previous=game.positions[1],
        width=GIF_WIDTH,
        status="1... Black f6-g5",
        status_side=Color.BLACK,
    )
    assert not strip_differs(frames[2][0], want, 0, GIF_WIDTH)
    with pytest.raises(ValueError):
        render_gif(game, notation="roman")


def test_gif_final_caption_fits_in_the_strip() -> None:
    """The last frame's caption carries the result; it must not run off the image.  An English
    game drawn by the 40-move rule: ``41... White 6-2 · 1/2-1/2 40 moves each without a man move
    or capture``."""
    from support.rules_support import walk_game

    rules = find_variant("english")
    game = Game(
        rules, Position.from_squares(rules, Color.WHITE, white_kings=[29, 30], black_kings=[3, 4])
    )
    walk_game(game, 80)
    assert game.outcome is not None and game.outcome.winner is None
    result = render_gif(game)
    frames = gif_frames(result.data)
    last = frames[-1][0]
    lay = layout(8, result.width)
    background = THEMES["wood"].strip
    edge = range(result.width - lay.margin // 2, result.width)
    ink = [
        (x, y)
        for x in edge
        for y in range(result.width, result.width + lay.strip)
        if distance(last.getpixel((x, y)), background) > 60
    ]
    assert not ink, f"caption text reaches the right edge of the image at {len(ink)} pixels"


def test_gif_header_shows_the_names_beside_their_colours() -> None:
    """With ``names`` every frame has a header line: White's name after a white disc on the
    left, Black's before a black disc on the right, readable (3:1 or more) on the strip colour;
    the board and strip below are the frames without a header."""
    game = long_game(4)
    th = THEMES["wood"]
    plain = gif_frames(render_gif(game).data)
    named = gif_frames(render_gif(game, names=("Alice", "Bob")).data)
    lay = layout(8, GIF_WIDTH)
    header = lay.strip
    assert len(named) == len(plain)
    image, labels = names_header(("Alice", "Bob"), th, GIF_WIDTH)
    assert [label.text for label in labels] == ["Alice", "Bob"]
    assert image.size == (GIF_WIDTH, header)
    for (frame, _), (bare, _) in zip(named, plain, strict=True):
        assert frame.size == (GIF_WIDTH, GIF_WIDTH + lay.strip + header)
        assert mean_difference(frame.crop((0, header, GIF_WIDTH, frame.height)), bare) < 0.5
        top = frame.crop((0, 0, GIF_WIDTH, header))
        assert not label_problems(top, labels, "header")
        white_label, black_label = labels
        assert white_label.box[2] < GIF_WIDTH / 2 < black_label.box[0]
    disc = round(header * 0.7)
    y = header // 2
    first = named[0][0]
    left_disc = first.getpixel((lay.margin + disc // 2, y))
    right_disc = first.getpixel((GIF_WIDTH - lay.margin - disc // 2 - 1, y))
    assert distance(left_disc, th.white_piece) <= MAX_SAMPLE_DISTANCE
    assert distance(right_disc, th.black_piece) <= MAX_SAMPLE_DISTANCE


UNRULY_NAMES = [
    "",
    "   ",
    "José Müller",
    "Zoë 🎉 ✓",
    "李小龙",
    "Иван (Vanya)",
    "مرحبا",
    "\u202eevil\u202c",
    "tab\tnew\nline\x00nul",
    "\ud800 lone surrogate",
    "Z̴̢a̸l̷g̶o̵",
    "W" * 10_000,
    "The Honourable Bartholomew Fitzwilliam-Smythe of Little Snoring",
    "💥" * 500,
]


@pytest.mark.parametrize("name", UNRULY_NAMES, ids=range(len(UNRULY_NAMES)))
def test_gif_names_never_crash_and_always_fit(name: str) -> None:
    """Names are user text: any Unicode, any length, glyphs the bundled font lacks.  The header
    never raises, each name stays in its half, a long name ends in an ellipsis, and a name with
    nothing drawable becomes the side's name."""
    for width in (GIF_WIDTH, MIN_GIF_WIDTH):
        image, labels = names_header((name, name), THEMES["contrast"], width)
        assert image.width == width
        texts = [label.text for label in labels]
        assert len(texts) == 2
        white, black = labels
        assert white.box[0] >= 0 and white.box[2] <= width / 2, (texts, white.box)
        assert width / 2 <= black.box[0] and black.box[2] <= width, (texts, black.box)
        for text in texts:
            assert "\n" not in text and "\x00" not in text
        assert not label_problems(image, labels, "header")
    cleaned = clean_name(name, "White")
    assert cleaned and len(cleaned) <= 64
    assert cleaned == "White" or any(c.isalnum() for c in cleaned)


def test_clean_name_examples() -> None:
    assert clean_name("José Müller", "White") == "José Müller"
    assert clean_name("李小龙", "Black") == "Black"
    assert clean_name("Иван (Vanya)", "White") == "Иван (Vanya)"
    assert clean_name("tab\tnew\nline", "White") == "tab new line"
    assert clean_name(None, "Black") == "Black"
    assert clean_name("?", "White") == "White"
    long = names_header(("W" * 300, "Bob"), THEMES["wood"], GIF_WIDTH)[1]
    assert long[0].text.endswith("…") and long[1].text == "Bob"


@pytest.mark.parametrize("word", ["Иван", "José", "Ход белых", "Zoë", "Łódź"])
def test_font_draws_cyrillic_and_accents(word: str) -> None:
    """The bundled font has real glyphs for accented Latin and Cyrillic: every letter of ``word``
    is drawn as itself, not as the missing-glyph box, and the word drawn differs from the same
    number of boxes (and from its letters with the accents taken off)."""
    font = board_module._font(24)
    assert all(gif_module._has_glyph(char) for char in word if not char.isspace())

    def ink(text: str) -> bytes:
        image = Image.new("L", (200, 40), 0)
        ImageDraw.Draw(image).text((4, 4), text, fill=255, font=font)
        return image.tobytes()

    missing = "".join(" " if char.isspace() else "\ue000" for char in word)
    assert ink(word) != ink(missing)
    plain = "".join(
        char for char in unicodedata.normalize("NFKD", word) if unicodedata.category(char) != "Mn"
    )
    if plain != word:
        assert ink(word) != ink(plain)


def test_font_is_loaded_once_per_size() -> None:
    """The renderer is a hot path: a size's font is built once and reused."""
    assert board_module._font(31) is board_module._font(31)
    assert board_module._font_data() is board_module._font_data()


def test_render_doctests() -> None:
    for module in (description_module, words_module):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


# -- the board in words: alt text and text diagram ------------------------------------------------

PIECE_SENTENCE = re.compile(r"(White|Black) (men|kings)(?: \((\d+)\))?: ([^.]*)\.")
KIND_BY_WORDS = {
    ("White", "men"): WHITE_MAN,
    ("White", "kings"): WHITE_KING,
    ("Black", "men"): BLACK_MAN,
    ("Black", "kings"): BLACK_KING,
}


def read_squares(text: str, variant: Variant) -> list[int]:
    """The squares of a piece list (``1, 3, 5 to 8`` in the variant's numbers, or ``a1, c1``),
    back to board squares."""
    if text == "none":
        return []
    by_number = variant.geometry.square_by_number
    out: list[int] = []
    for part in text.split(", "):
        if " to " in part:
            first, last = part.split(" to ")
            out.extend(by_number[n] for n in range(int(first), int(last) + 1))
        elif part.isdigit():
            out.append(by_number[int(part)])
        else:
            out.append(variant.geometry.square_by_name[part])
    return out


def read_pieces(text: str, variant: Variant) -> dict[int, int]:
    """Square -> piece kind, read back from the piece sentences of ``text``."""
    board: dict[int, int] = {}
    seen = []
    for match in PIECE_SENTENCE.finditer(text.replace("\n  ", " ")):
        kind = KIND_BY_WORDS[(match.group(1), match.group(2))]
        seen.append(kind)
        squares = read_squares(match.group(4), variant)
        assert match.group(3) is None or int(match.group(3)) == len(squares), match.group(0)
        for square in squares:
            assert square not in board, f"{square} listed twice"
            board[square] = kind
    assert seen == [WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING], seen
    return board


def pieces_of(position: Position) -> dict[int, int]:
    return dict(position.iter_pieces())


def read_diagram(text: str, variant: Variant, flip: bool) -> dict[int, int]:
    """Square -> piece kind, read from the grid lines of a text diagram."""
    size = variant.size
    geo = variant.geometry
    lines = text.splitlines()
    files = "abcdefghijklmnopqrstuvwxyz"[:size]
    header = " " * (len(str(size)) + 1) + " ".join(reversed(files) if flip else files)
    assert lines[0] == header and lines[size + 1] == header, (lines[0], header)
    symbols = {".": EMPTY, "w": WHITE_MAN, "W": WHITE_KING, "b": BLACK_MAN, "B": BLACK_KING}
    board = {}
    for index, line in enumerate(lines[1 : size + 1]):
        row = size - 1 - index if flip else index
        assert line.split()[0] == str(size - row), line
        for square in range(1, geo.squares + 1):
            column, r = geo.coordinates(square)
            if r != row:
                continue
            shown = size - 1 - column if flip else column
            kind = symbols[line[len(str(size)) + 1 + 2 * shown]]
            if kind != EMPTY:
                board[square] = kind
    return board


def test_describe_start_positions() -> None:
    for variant in VARIANTS.values():
        start = Position.start(variant)
        text = describe(start)
        assert text.startswith(f"{variant.title}, {variant.size}x{variant.size} board. ")
        assert f"{start.turn.label.capitalize()} to move." in text
        assert "Last move" not in text
        assert read_pieces(text, variant) == pieces_of(start)
        assert read_pieces(describe(start, notation="algebraic"), variant) == pieces_of(start)
    english = describe(Position.start(find_variant("english")))
    assert "White men (12): 21 to 32. White kings: none. Black men (12): 1 to 12." in english


def test_describe_names_the_last_move_and_its_captures() -> None:
    case = CASE_BY_VARIANT["english"]
    text = describe(case.after, last_move=case.last_move)
    assert "White to move. Last move: Black 11x18x25, capturing 2 pieces on 15, 22." in text
    assert "White kings (1): 7." in text and "Black kings (2): 19, 28." in text
    russian = CASE_BY_VARIANT["russian"]
    words = describe(russian.after, last_move=russian.last_move, notation="algebraic")
    names = russian.rules.geometry.names
    path = "x".join(names[s] for s in russian.last_move.path)
    assert f"Last move: White {path}, capturing 2 pieces on " in words
    assert read_pieces(words, russian.rules) == pieces_of(russian.after)
    step = first_step(Position.start(find_variant("international")))
    after = Position.start(find_variant("international")).play(step)
    assert f"Last move: White {step.pdn()}." in describe(after, last_move=step)
    with pytest.raises(ValueError):
        describe(after, notation="roman")


def test_square_list_runs_and_names() -> None:
    pos = Position.start(find_variant("english"))
    assert square_list(pos, []) == "none"
    assert square_list(pos, [1, 3, 5, 6, 7, 8, 10, 11]) == "1, 3, 5 to 8, 10, 11"
    assert square_list(pos, [32, 1, 2, 3]) == "1 to 3, 32"
    assert square_list(pos, [1, 29, 5], "algebraic") == "a1, a7, b8"


def full_board(variant: Variant, shift: int) -> Position:
    """Every square taken, the four kinds in turn so that no run of squares shares a kind."""
    by_kind: dict[int, list[int]] = {WHITE_MAN: [], WHITE_KING: [], BLACK_MAN: [], BLACK_KING: []}
    kinds = (WHITE_MAN, BLACK_KING, WHITE_KING, BLACK_MAN)
    for square in range(1, variant.geometry.squares + 1):
        by_kind[kinds[(square + shift) % 4]].append(square)
    return Position.from_squares(
        variant,
        Color.WHITE,
        white_men=by_kind[WHITE_MAN],
        white_kings=by_kind[WHITE_KING],
        black_men=by_kind[BLACK_MAN],
        black_kings=by_kind[BLACK_KING],
    )


def longest_move(variant: Variant) -> Move:
    """A made-up capture longer than any legal one: every square of the board as landing path,
    and as many captured pieces as one side can have."""
    squares = tuple(range(1, variant.geometry.squares + 1))
    captured = squares[: variant.men_rows * variant.size // 2 + 1]
    return Move(squares, captured, False, 0, 0, 0, variant.geometry.numbers)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_alt_text_worst_case_fits_discord(variant: str) -> None:
    """A full board (no runs to shorten the lists) after a move longer than any legal one, in
    both notations, stays within Discord's 1,024 characters and lists every piece."""
    rules = find_variant(variant)
    for shift in range(4):
        pos = full_board(rules, shift)
        for notation in ("numeric", "algebraic"):
            text = describe(pos, last_move=longest_move(rules), notation=notation)
            assert len(text) <= MAX_ALT_TEXT, (notation, len(text))
            assert read_pieces(text, rules) == pieces_of(pos)
            diagram = text_diagram(pos, notation=notation)
            assert len(diagram) <= 2000 - len("```\n\n```")
            assert read_diagram(diagram, rules, False) == pieces_of(pos)


def random_position(variant: Variant, seed: int, plies: int) -> tuple[Position, Move | None]:
    """The position after up to ``plies`` random legal moves from the start, and the last move."""
    rng = random.Random(seed)
    pos, last = Position.start(variant), None
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        last = rng.choice(sorted(moves, key=lambda m: m.path))
        pos = pos.play(last)
    return pos, last


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 150),
    notation=st.sampled_from(["numeric", "algebraic"]),
    flip=st.booleans(),
)
def test_alt_text_and_diagram_of_any_game(
    variant: str, seed: int, plies: int, notation: str, flip: bool
) -> None:
    """For positions reached by random play in every variant: the alt text fits Discord's limit
    and names every piece where it stands, and the diagram shows the same board, in lines short
    enough for a phone's code block, in under 2,000 characters."""
    rules = find_variant(variant)
    pos, last = random_position(rules, seed, plies)
    text = describe(pos, last_move=last, notation=notation)
    assert len(text) <= MAX_ALT_TEXT
    assert read_pieces(text, rules) == pieces_of(pos)
    if last is not None:
        assert f"Last move: {pos.turn.other.label.capitalize()} " in text
    diagram = text_diagram(pos, flip=flip, notation=notation)
    assert len(diagram) < 2000
    assert max(len(line) for line in diagram.splitlines()) <= 40
    assert read_diagram(diagram, rules, flip) == pieces_of(pos)
    assert read_pieces(diagram, rules) == pieces_of(pos)
    assert f"{pos.turn.label.capitalize()} to move." in diagram


def test_text_diagram_layout() -> None:
    """The English start position, Black at the top: files, ranks, the row's PDN squares."""
    diagram = text_diagram(Position.start(find_variant("english")))
    lines = diagram.splitlines()
    assert lines[:3] == [
        "  a b c d e f g h",
        "8   b   b   b   b 8  1–4",
        "7 b   b   b   b   7  5–8",
    ]
    assert lines[5] == "4   .   .   .   . 4  17–20"
    assert lines[8] == "1 w   w   w   w   1  29–32"
    assert "w = white man" in diagram and "B = black king" in diagram
    flipped = text_diagram(Position.start(find_variant("english")), flip=True).splitlines()
    assert flipped[0] == "  h g f e d c b a" and flipped[1].startswith("1   w")
    coordinates = text_diagram(Position.start(find_variant("russian")), notation="algebraic")
    assert "–" not in coordinates.splitlines()[1] and "a1, c1, e1, g1" in coordinates


def test_package_exports_the_words() -> None:
    assert render.describe is describe and render.text_diagram is text_diagram
    assert render.MAX_ALT_TEXT == 1024


# -- command line ----------------------------------------------------------------------------------


def run_render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "render", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_cli_png(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = run_render("--variant", "international", "-o", str(out))
    assert result.returncode == 0, result.stderr
    img = decode(out.read_bytes())
    assert img.size == (DEFAULT_WIDTH, DEFAULT_WIDTH)
    start = Position.start(find_variant("international"))
    assert not misread_squares(img, start, DEFAULT_WIDTH, False, THEMES["wood"])


def test_cli_png_options(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    fen = CASE_BY_VARIANT["english"].fen
    args = ("--variant", "english", "--fen", fen, "--flip", "--theme", "contrast")
    result = run_render(*args, "--width", "400", "--status", "-o", str(out))
    assert result.returncode == 0, result.stderr
    img = decode(out.read_bytes())
    assert img.size == (400, 400 + layout(8, 400).strip)
    pos = CASE_BY_VARIANT["english"].before
    assert not misread_squares(img, pos, 400, True, THEMES["contrast"])


def test_cli_last_move_is_played_and_highlighted(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = run_render("--variant", "english", "--last", "11-15", "-o", str(out))
    assert result.returncode == 0, result.stderr
    img = decode(out.read_bytes())
    rules = find_variant("english")
    before = Position.start(rules)
    move = next(m for m in before.legal_moves() if m.pdn() == "11-15")
    after = before.play(move)
    # Every square shows the position after the move (the vacated square 11 is highlighted).
    assert not misread_squares(img, after, DEFAULT_WIDTH, False, THEMES["wood"], {11})
    plain = png(after)
    for square in (11, 15):
        check_highlight(img, plain, corner_point(8, DEFAULT_WIDTH, square, False), THEMES["wood"])
    got, _ = classify(img, 8, DEFAULT_WIDTH, 15, False, THEMES["wood"])
    assert got == BLACK_MAN


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variant", "english", "--fen", "X:W21:B1"), "FEN"),
        (("--variant", "english", "--fen", "W:W21,99:B1"), "99"),
        (("--variant", "english", "--last", "11-19"), "11-19"),
    ],
)
def test_cli_errors_exit_1_with_a_message(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    out = tmp_path / "board.png"
    result = run_render(*args, "-o", str(out))
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.startswith("error:") and message in result.stderr, result.stderr
    assert not out.exists()


def test_cli_gif(tmp_path: Path) -> None:
    game = long_game(9, "dame")
    pdn = tmp_path / "game.pdn"
    pdn.write_text(write_game(game))
    out = tmp_path / "game.gif"
    result = run_render("gif", str(pdn), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("10 frames")
    img = Image.open(out)
    assert img.format == "GIF" and img.n_frames == 10
    assert img.width == GIF_WIDTH


def test_cli_gif_names_and_notation(tmp_path: Path) -> None:
    """``--names`` adds the header line (so the frames are taller by one strip), ``--notation``
    is passed through; without ``--names`` the PDN's White and Black tags are used when set."""
    game = long_game(5, "russian")
    pdn = tmp_path / "game.pdn"
    pdn.write_text(write_game(game))
    strip = layout(8, GIF_WIDTH).strip
    out = tmp_path / "named.gif"
    result = run_render(
        "gif", str(pdn), "--names", "Анна", "Zoë", "--notation", "numeric", "-o", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert Image.open(out).size == (GIF_WIDTH, GIF_WIDTH + 2 * strip)
    plain = tmp_path / "plain.gif"
    assert run_render("gif", str(pdn), "-o", str(plain)).returncode == 0
    assert Image.open(plain).size == (GIF_WIDTH, GIF_WIDTH + strip)  # tags are "?"
    tagged = tmp_path / "tagged.pdn"
    tagged.write_text(write_game(game).replace('[White "?"]', '[White "Alice"]'))
    assert run_render("gif", str(tagged), "-o", str(out)).returncode == 0
    assert Image.open(out).size == (GIF_WIDTH, GIF_WIDTH + 2 * strip)
    bad = run_render("gif", str(pdn), "--notation", "roman", "-o", str(out))
    assert bad.returncode == 2 and "roman" in bad.stderr


# -- threads ---------------------------------------------------------------------------------------


def test_rendering_from_eight_threads_matches_serial() -> None:
    jobs = []
    for case in CASES:
        jobs.append((case.after, case.options()))
        jobs.append((case.before, {"theme": case.theme, "flip": not case.flip, "width": SMALL}))
        jobs.append((Position.start(case.rules), {"theme": case.theme, "status": "Start"}))
    serial = [render_png(pos, **options) for pos, options in jobs]
    # Start cold, so that the threads also race to build the cached backgrounds, sprites and
    # palettes.
    for cached in (
        board_module.background,
        board_module.sprite,
        encoding_module.palette,
        board_module.number_plates,
        labels_module.plate,
        labels_module.digits_mask,
    ):
        cached.cache_clear()
    barrier = threading.Barrier(8)

    def work(index: int) -> list[bytes]:
        barrier.wait()
        order = list(range(len(jobs)))[index:] + list(range(len(jobs)))[:index]
        out: dict[int, bytes] = {}
        for i in order:
            pos, options = jobs[i]
            out[i] = render_png(pos, **options)
        return [out[i] for i in range(len(jobs))]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(8)))
    for thread, result in enumerate(results):
        for i, (want, got) in enumerate(zip(serial, result, strict=True)):
            assert got == want, f"thread {thread}, job {i} differs from the serial render"


def test_render_board_returns_rgb_and_png_is_a_palette_image() -> None:
    pos = Position.start(find_variant("english"))
    assert render_board(pos).mode == "RGB"
    img = Image.open(io.BytesIO(render_png(pos)))
    assert img.format == "PNG" and img.mode == "P"
