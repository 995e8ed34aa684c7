"""The evaluation graph of an analysed game: one picture a phone user reads at a glance.

The curve is White's chance after every move, from 0 (Black wins) at the bottom to 1 (White
wins) at the top; the area under it is White's colour and the area over it Black's, so the
share of each colour is how the game stood, and a swing is a cliff.  Moves judged mistakes and
blunders are dots on the curve (a blunder larger, and in the loss colour of the standings'
chips; a mistake amber), the mover's piece colour round them.  Above it the two players, a
piece of their colour before each name, with their accuracy; under it the move numbers and a
key.  Every word is the caller's (:class:`GraphWords`), as the bot words it: the renderer
knows no language, and nothing of the engine either: the chances and the ticks of the score
axis come in as numbers (:class:`EvalGraph`).

Sizes follow the standings picture's rule (:func:`render.sheet_layout.metrics`): every word is as
tall at 330 px as the board's square numbers, and the tests read each one back from the pixels.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .board import Label, _font, _mix
from .chips import CHIPS, DOUBLED, SUPERSAMPLE, Canvas
from .sheet import Outcome
from .sheet_layout import DEFAULT_WIDTH, Metrics, colours, metrics, text_width
from .themes import DEFAULT_THEME, RGB, Theme, find_theme

BLUNDER: RGB = CHIPS[Outcome.LOSS].fill or (0xC2, 0x41, 0x0C)
MISTAKE: RGB = DOUBLED.fill or (0xF2, 0xA2, 0x3A)
MARKED = ("mistake", "blunder")
"""The judgements drawn on the curve (inaccuracies are listed in the message, not drawn: the
graph shows the swings)."""
ASPECT = 0.42
"""The plot's height over the image's width: a landscape picture a phone shows whole."""


@dataclass(frozen=True)
class Mark:
    """A judged move: after ``ply`` moves (0: the first move), its judgement (``mistake``,
    ``blunder``) and whose move it was (``white``, ``black``)."""

    ply: int
    judgement: str
    mover: str


@dataclass(frozen=True)
class GraphWords:
    """What the picture writes, in the reader's language: each player's line (their name and
    accuracy), and the key's words."""

    white: str
    black: str
    mistake: str = "Mistake"
    blunder: str = "Blunder"
    moves: str = "Move"
    """The word before the move numbers of the horizontal axis."""


@dataclass(frozen=True)
class EvalGraph:
    """The graph's numbers: White's chance (0 to 1) after each ply (``chances[0]``: the start),
    the judged moves, the score axis's ticks (a chance and its label, such as ``+2``), and the
    number of the first full move (a game from a set position may start later)."""

    chances: Sequence[float]
    marks: Sequence[Mark] = ()
    ticks: Sequence[tuple[float, str]] = ()
    first_move: int = 1


def draw_eval_graph(
    graph: EvalGraph,
    words: GraphWords,
    *,
    theme: str | Theme = DEFAULT_THEME,
    width: int = DEFAULT_WIDTH,
) -> tuple[Image.Image, tuple[Label, ...]]:
    """The picture (RGB) and the label of every word on it."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    m = metrics(width)
    c = colours(th)
    line = round(m.text * 1.6)
    header = m.margin + 2 * line
    plot_top = header + m.gap
    plot_h = round(width * ASPECT)
    axis = round(m.text * 1.5)
    key = line + m.margin
    height = plot_top + plot_h + axis + key
    img = Image.new("RGB", (width, height), c.paper)
    canvas = Canvas(img)
    left = m.margin + _tick_width(m, graph) + m.gap
    right = width - m.margin
    box = (left, plot_top, right, plot_top + plot_h)
    _draw_players(canvas, m, th, words, c.ink, c.paper)
    points = _curve(graph, box)
    _draw_areas(img, box, points, th)
    _draw_ticks(canvas, m, graph, box, c.ink, c.paper, th)
    _draw_marks(img, m, graph, points, th)
    _draw_moves_axis(canvas, m, graph, box, words, c.ink, c.paper)
    _draw_key(canvas, m, words, height - key + m.gap, c.ink, c.paper)
    return img, tuple(canvas.labels)


def render_eval_graph(
    graph: EvalGraph,
    words: GraphWords,
    *,
    theme: str | Theme = DEFAULT_THEME,
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """The picture as PNG."""
    img, _ = draw_eval_graph(graph, words, theme=theme, width=width)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def _tick_width(m: Metrics, graph: EvalGraph) -> int:
    return max((text_width(_font(m.text), label) for _, label in graph.ticks), default=0)


def _draw_players(
    canvas: Canvas, m: Metrics, th: Theme, words: GraphWords, ink: RGB, paper: RGB
) -> None:
    font = _font(m.text)
    disc = m.cap + 4
    for row, (text, fill, edge) in enumerate(
        ((words.white, th.white_piece, th.white_edge), (words.black, th.black_piece, th.black_edge))
    ):
        base = m.margin + round(m.text * 1.6) * row + m.cap + 2
        top = base - m.cap - 2
        _disc(canvas.img, (m.margin, top), disc, fill, edge)
        canvas.text("player", (m.margin + disc + m.gap, base), text, font, ink, paper)


def _disc(img: Image.Image, at: tuple[int, int], size: int, fill: RGB, edge: RGB) -> None:
    k = SUPERSAMPLE
    sprite = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).ellipse(
        (0, 0, size * k - 1, size * k - 1), fill=(*fill, 255), outline=(*edge, 255), width=k * 2
    )
    sprite = sprite.resize((size, size), Image.Resampling.LANCZOS)
    img.paste(sprite, at, sprite)


def _curve(graph: EvalGraph, box: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = box
    n = max(1, len(graph.chances) - 1)
    return [
        (x0 + (x1 - x0) * i / n, y1 - (y1 - y0) * min(1.0, max(0.0, chance)))
        for i, chance in enumerate(graph.chances)
    ]


def _draw_areas(
    img: Image.Image, box: tuple[int, int, int, int], points: list[tuple[float, float]], th: Theme
) -> None:
    """Black's colour over the whole plot, White's under the curve, the level line across."""
    x0, y0, x1, y1 = box
    k = SUPERSAMPLE
    w, h = x1 - x0, y1 - y0
    layer = Image.new("RGB", (w * k, h * k), th.black_piece)
    draw = ImageDraw.Draw(layer)
    shape = [((x - x0) * k, (y - y0) * k) for x, y in points]
    if len(shape) == 1:
        shape.append((w * k, shape[0][1]))
    draw.polygon([(shape[0][0], h * k), *shape, (shape[-1][0], h * k)], fill=th.white_piece)
    middle = h * k // 2
    level = _mix(th.white_piece, th.black_piece, 0.5)
    draw.line([(0, middle), (w * k, middle)], fill=level, width=k)
    draw.line(shape, fill=th.path, width=2 * k, joint="curve")
    img.paste(layer.resize((w, h), Image.Resampling.LANCZOS), (x0, y0))
    frame = max(2, w // 300)
    ImageDraw.Draw(img).rectangle(
        (x0 - frame, y0 - frame, x1 + frame - 1, y1 + frame - 1), outline=th.frame, width=frame
    )


def _draw_ticks(
    canvas: Canvas,
    m: Metrics,
    graph: EvalGraph,
    box: tuple[int, int, int, int],
    ink: RGB,
    paper: RGB,
    th: Theme,
) -> None:
    x0, y0, _, y1 = box
    for chance, label in graph.ticks:
        y = y1 - (y1 - y0) * chance
        canvas.draw.line([(x0 - m.gap // 2, y), (x0 - 1, y)], fill=th.frame, width=1)
        canvas.text("tick", (x0 - m.gap, y), label, _font(m.text), ink, paper, anchor="rm")


def _draw_marks(
    img: Image.Image, m: Metrics, graph: EvalGraph, points: list[tuple[float, float]], th: Theme
) -> None:
    """A dot on the curve after each marked move: blunders larger, ringed by the mover's
    piece colour (so a dot on White's area still stands out, and whose move it was shows)."""
    for mark in sorted(graph.marks, key=lambda mk: MARKED.index(mk.judgement)):
        if mark.judgement not in MARKED or not 0 <= mark.ply + 1 < len(points):
            continue
        x, y = points[mark.ply + 1]
        size = round(m.text * (1.15 if mark.judgement == "blunder" else 0.85))
        fill = BLUNDER if mark.judgement == "blunder" else MISTAKE
        ring = th.white_piece if mark.mover == "white" else th.black_piece
        _ringed_dot(img, (round(x), round(y)), size, fill, ring)


def _ringed_dot(img: Image.Image, centre: tuple[int, int], size: int, fill: RGB, ring: RGB) -> None:
    k = SUPERSAMPLE
    sprite = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.ellipse((0, 0, size * k - 1, size * k - 1), fill=(*ring, 255))
    inset = max(2, size // 5) * k
    draw.ellipse((inset, inset, size * k - 1 - inset, size * k - 1 - inset), fill=(*fill, 255))
    sprite = sprite.resize((size, size), Image.Resampling.LANCZOS)
    img.paste(sprite, (centre[0] - size // 2, centre[1] - size // 2), sprite)


def _draw_moves_axis(
    canvas: Canvas,
    m: Metrics,
    graph: EvalGraph,
    box: tuple[int, int, int, int],
    words: GraphWords,
    ink: RGB,
    paper: RGB,
) -> None:
    """Full-move numbers under the plot, as many as fit without touching."""
    font = _font(m.text)
    x0, _, x1, y1 = box
    plies = max(1, len(graph.chances) - 1)
    moves = (plies + 1) // 2
    base = y1 + m.gap + m.cap
    canvas.text("axis", (x0, base), words.moves, font, ink, paper, anchor="ls")
    start = x0 + text_width(font, words.moves) + 2 * m.gap
    room = text_width(font, "000") + 2 * m.gap
    step = next(
        s for s in (1, 2, 5, 10, 20, 25, 50, 100, 1000) if (x1 - x0) * s * 2 / plies >= room
    )
    for move in range(step, moves + 1, step):
        x = x0 + (x1 - x0) * (2 * move - 1) / plies
        label = str(graph.first_move - 1 + move)
        half = text_width(font, label) / 2
        if x - half < start or x + half > x1:
            continue
        canvas.text("axis", (x, base), label, font, ink, paper, anchor="ms")


def _draw_key(
    canvas: Canvas, m: Metrics, words: GraphWords, top: int, ink: RGB, paper: RGB
) -> None:
    font = _font(m.text)
    x = m.margin
    base = top + m.cap
    for word, fill, scale in ((words.mistake, MISTAKE, 0.85), (words.blunder, BLUNDER, 1.15)):
        size = round(m.text * scale)
        _ringed_dot(canvas.img, (x + size // 2, base - m.cap // 2), size, fill, ink)
        x += size + m.gap
        canvas.text("key", (x, base), word, font, ink, paper)
        x += text_width(font, word) + 3 * m.gap
