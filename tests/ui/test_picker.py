"""The picker's menus as pure functions: which pieces are offered and how, how a piece's moves
are labelled (full paths only where captures share a landing square), and the pages of a menu
longer than Discord's 25 options.  The picker end to end is in tests/e2e/test_e2e_phone.py."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.ui.move_options import PAGE_SIZE, Option, move_options, page_of, piece_options
from bot.ui.picker import PICKER_WIDTH, arrows_of
from render import DEFAULT_THEME, THEMES, render_png, square_centre
from rules import Game, find_variant
from rules.fen import parse_fen

SHARED_LANDING = [
    "11-16",
    "23-19",
    "16x23",
    "26x19",
    "9-13",
    "22-17",
    "13x22",
    "25x18",
    "5-9",
    "30-26",
    "7-11",
    "29-25",
    "2-7",
    "21-17",
    "10-15",
    "19x10",
]
"""An English game after which Black's man on 7 has two captures from 7 to 30, by different
squares (found by random play)."""


def played(variant: str, moves: list[str]) -> Game:
    game = Game(find_variant(variant))
    for move in moves:
        game.play(move)
    return game


def test_capturing_pieces_are_marked() -> None:
    game = played("english", SHARED_LANDING)
    variant = game.variant
    options = piece_options(game.legal_moves(), variant, "numeric")
    capturing = {m.path[0] for m in game.legal_moves() if m.is_capture}
    assert capturing  # capturing is compulsory here: every piece offered captures
    assert [o.value for o in options] == [str(s) for s in sorted(capturing)]
    assert all(o.label.startswith("\N{CROSSED SWORDS}") for o in options)
    seven = next(o for o in options if o.value == "7")
    assert seven.label == "\N{CROSSED SWORDS} 7: captures"
    assert seven.description.startswith("2 ways to capture, up to 3 pieces")


def test_quiet_pieces_list_their_move_count() -> None:
    """Pieces are listed by square when none captures (captures first is checked end to end,
    where a position has both is impossible: capturing is compulsory in every variant)."""
    game = Game(find_variant("english"))
    options = piece_options(game.legal_moves(), game.variant, "numeric")
    assert [o.value for o in options] == ["9", "10", "11", "12"]
    assert [o.description for o in options] == ["2 moves", "2 moves", "2 moves", "1 move"]
    assert [o.label for o in options] == ["9", "10", "11", "12"]


def test_captures_sharing_a_landing_square_are_written_out() -> None:
    game = played("english", SHARED_LANDING)
    own = [m for m in game.legal_moves() if m.path[0] == 7]
    options = move_options(own, game.variant, "numeric")
    assert sorted(o.label for o in options) == ["7x14x21x30", "7x14x23x30"]
    assert {o.value for o in options} == {"7x14x21x30", "7x14x23x30"}
    assert all(o.description.startswith("takes ") for o in options)


def test_a_single_capture_path_is_shortened_and_notation_is_the_viewer_s() -> None:
    game = played("russian", ["c3-d4", "f6-e5"])
    variant = game.variant
    (capture,) = game.legal_moves()
    options = move_options([capture], variant, "algebraic")
    assert options == [Option(capture.pdn(), "d4xf6", "takes e5")]
    numeric = move_options([capture], variant, "numeric")
    assert numeric[0].label == f"{capture.path[0]}x{capture.path[-1]}"


@given(st.integers(0, 80), st.integers(-3, 10))
def test_pages_hold_at_most_25_and_cover_every_option(count: int, page: int) -> None:
    options = [Option(str(i), str(i)) for i in range(count)]
    shown, at, pages = page_of(options, page)
    assert pages == max(1, -(-count // PAGE_SIZE))
    assert 0 <= at < pages and len(shown) <= PAGE_SIZE
    assert shown == options[at * PAGE_SIZE : (at + 1) * PAGE_SIZE]
    every = [o for p in range(pages) for o in page_of(options, p)[0]]
    assert every == options


def test_a_multi_jump_is_drawn_along_its_path_and_labelled_with_it() -> None:
    """27x18x11 bends at 18: the picker's arrow goes through 18, not straight up the file from
    27 to 11 across a square the piece never visits; its label is the whole path."""
    variant = find_variant("english")
    position = parse_fen("W:W27:B23,15,K1", variant)
    (jump,) = position.legal_moves()
    assert jump.path == (27, 18, 11)
    options = move_options([jump], variant, "numeric")
    assert [o.label for o in options] == ["27x18x11"]
    assert arrows_of([jump]) == ((27, 18, 11),)
    width = PICKER_WIDTH
    image = Image.open(io.BytesIO(render_png(position, arrows=arrows_of([jump]), width=width)))
    rgb = image.convert("RGB")
    arrow = THEMES[DEFAULT_THEME].arrow

    def near(point: tuple[float, float]) -> bool:
        pixel = rgb.getpixel((round(point[0]), round(point[1])))
        assert isinstance(pixel, tuple)
        return sum(abs(a - b) for a, b in zip(pixel, arrow, strict=True)) < 60

    def centre(square: int) -> tuple[int, int]:
        return square_centre(8, width, square, False)

    def between(a: int, b: int, t: float) -> tuple[float, float]:
        (ax, ay), (bx, by) = centre(a), centre(b)
        return ax + (bx - ax) * t, ay + (by - ay) * t

    # Along the path: both legs and the landing square between them.
    for a, b in ((27, 18), (18, 11)):
        assert all(near(between(a, b, t)) for t in (0.3, 0.5)), (a, b)
    assert near(centre(18))
    # Not along the straight line from start to end (its middle is the square beside 18's).
    assert not near(between(27, 11, 0.5))
