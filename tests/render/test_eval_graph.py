"""The evaluation graph (:mod:`render.eval_graph`), checked on the decoded PNG: its size, every
word readable at 330 px in every theme (the standings' rule, read back from the pixels), the two
colours' areas where the chances put them, the swings' dots where the judged moves are, and move
numbers that never touch, for a short game and a very long one."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image
from test_standings_image import label_problems, near

from render.eval_graph import (
    BLUNDER,
    MISTAKE,
    EvalGraph,
    GraphWords,
    Mark,
    draw_eval_graph,
    render_eval_graph,
)
from render.legibility import DISPLAY_WIDTH
from render.sheet_layout import DEFAULT_WIDTH
from render.themes import DEFAULT_THEME, THEMES, find_theme

WORDS = GraphWords("Bob · accuracy 91%", "Alice · accuracy 78%", "Mistake", "Blunder", "Move")
TICKS = ((0.69, "+2"), (0.5, "0"), (0.31, "−2"))


def swinging(plies: int = 60) -> EvalGraph:
    """Level for a while, Black ahead after White's mistake at ply 19, then Black's blunder at
    ply 39 gives White the game."""
    chances = [0.5] * 20 + [0.3] * 20 + [0.95] * (plies + 1 - 40)
    marks = (Mark(18, "mistake", "white"), Mark(38, "blunder", "black"))
    return EvalGraph(chances, marks, TICKS)


def decoded(graph: EvalGraph, **options: object) -> Image.Image:
    data = render_eval_graph(graph, WORDS, **options)  # type: ignore[arg-type]
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def test_a_landscape_picture_a_phone_shows_whole() -> None:
    img = decoded(swinging())
    assert img.width == DEFAULT_WIDTH
    assert 0.5 < img.height / img.width < 0.85
    small = decoded(swinging(), width=DISPLAY_WIDTH)
    assert small.width == DISPLAY_WIDTH and small.height < 300


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("width", [DISPLAY_WIDTH, DEFAULT_WIDTH])
def test_every_word_is_readable_on_a_phone(theme: str, width: int) -> None:
    img, labels = draw_eval_graph(swinging(), WORDS, theme=theme, width=width)
    texts = [label.text for label in labels]
    assert {WORDS.white, WORDS.black, "Mistake", "Blunder", "Move", "+2", "0", "−2"} <= set(texts)
    assert {"10", "20"} <= set(texts)
    again = Image.open(io.BytesIO(render_eval_graph(swinging(), WORDS, theme=theme, width=width)))
    assert not label_problems(again.convert("RGB"), labels), label_problems(img, labels)[:4]


def _plot_box(img: Image.Image) -> tuple[int, int, int, int]:
    """The plot's inner box, found from the pixels: the frame colour's longest row and column
    runs."""
    frame = find_theme(DEFAULT_THEME).frame
    px = img.load()
    assert px is not None
    rows = [
        y
        for y in range(img.height)
        if sum(near(px[x, y], frame, 30) for x in range(img.width)) > img.width // 2
    ]
    cols = [
        x
        for x in range(img.width)
        if sum(near(px[x, y], frame, 30) for y in range(img.height)) > img.height // 3
    ]
    return cols[0] + 3, rows[0] + 3, cols[-1] - 3, rows[-1] - 3


def test_colours_and_swings_are_where_the_game_put_them() -> None:
    graph = swinging()
    img = decoded(graph)
    theme = find_theme(DEFAULT_THEME)
    x0, y0, x1, y1 = _plot_box(img)
    px = img.load()
    assert px is not None

    def at(ply: float, chance: float) -> tuple[int, int]:
        return round(x0 + (x1 - x0) * ply / 60), round(y1 - (y1 - y0) * chance)

    # level at the start: White's colour low, Black's high; Black ahead mid-game; White won
    for ply, chance in ((5, 0.5), (30, 0.3), (55, 0.95)):
        below = at(ply, chance * 0.5)
        above = at(ply, chance + (1 - chance) * 0.5)
        assert near(px[below], theme.white_piece, 20), (ply, px[below])
        assert near(px[above], theme.black_piece, 20), (ply, px[above])
    # the swings' dots sit on the curve after the judged moves
    assert near(px[at(19, 0.5)], MISTAKE, 40), px[at(19, 0.5)]
    assert near(px[at(39, 0.3)], BLUNDER, 40), px[at(39, 0.3)]
    # and nowhere else
    unmarked = EvalGraph(graph.chances, (), TICKS)
    plain = decoded(unmarked).load()
    assert plain is not None
    assert not near(plain[at(39, 0.3)], BLUNDER, 40)


@pytest.mark.parametrize("plies", [1, 2, 9, 120, 400])
def test_move_numbers_never_touch(plies: int) -> None:
    chances = [0.5 + 0.4 * ((i % 7) - 3) / 3 for i in range(plies + 1)]
    for width in (DISPLAY_WIDTH, DEFAULT_WIDTH):
        img, labels = draw_eval_graph(EvalGraph(chances, (), TICKS), WORDS, width=width)
        axis = sorted((label for label in labels if label.kind == "axis"), key=lambda a: a.box)
        assert axis[0].text == "Move"
        numbers = [int(label.text) for label in axis[1:]]
        assert numbers == sorted(numbers) and all(n <= (plies + 1) // 2 for n in numbers)
        assert len(numbers) >= min(3, (plies + 1) // 2 - 1)
        for a, b in itertools.pairwise(axis):
            assert a.box[2] <= b.box[0], (a, b)
        assert all(label.box[2] <= img.width for label in labels)
