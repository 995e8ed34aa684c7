"""An analysed game as a message, in the reader's language: the evaluation graph (with its alt
text), each side's accuracy and judged moves with the better move at each, the thresholds, and
the annotated PDN as a file.  :func:`analysis_message` is the one function every caller uses
(``/analyse``, a final board's Analyse button, an imported game's Analyse button).

The graph is drawn in a worker thread (:func:`draw_analysis`): Pillow holds the event loop
otherwise.  Moves are shown in the variant's notation (PDN numbers, or coordinates in Russian
and Brazilian draughts), numbered as PDN numbers them; scores in men from White's side.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import discord

from render.eval_graph import EvalGraph, GraphWords, Mark, render_eval_graph
from render.themes import DEFAULT_THEME
from rules.notation import numbered_moves, show_move
from rules.variants import Color, Variant

from ..analysis_results import (
    THRESHOLDS_MEN,
    AnalysisView,
    AnnotationWords,
    Judgement,
    PlyAnalysis,
    chance,
    men,
)
from ..i18n import Arg, Text, _, _p, listed, render, template, verbatim
from ..markdown import plain, shown
from .limits import FIELD_NAME, FIELD_VALUE, fit, fit_embed, listing
from .replies import ALT_TEXT, Outgoing, Upload

ANALYSIS_COLOUR = discord.Colour(0x2F6FD6)
TICK_MEN = 2
"""The score axis is marked at level and at this many men either way."""


@dataclass(frozen=True)
class DrawnAnalysis:
    """What drawing an analysis gives: the graph's PNG, its alt text, the annotated PDN."""

    graph: bytes
    alt: str
    pdn: str


def judgement_name(judgement: Judgement) -> Text:
    """A judgement's word, as a heading or a PDN comment starts it."""
    names = {
        Judgement.INACCURACY: _p("analysis", "Inaccuracy"),
        Judgement.MISTAKE: _p("analysis", "Mistake"),
        Judgement.BLUNDER: _p("analysis", "Blunder"),
    }
    return names[judgement]


def annotation_words(code: str) -> AnnotationWords:
    """The annotated PDN's comments in the language ``code``."""
    return AnnotationWords(
        judgements={j: render(judgement_name(j), code) for j in Judgement},
        comment=template(
            # Translators: a PDN comment after a judged move, e.g.
            # "Blunder (+0.10 → -2.30). Better: 9-14"; scores in men from White's side.
            _("{judgement} ({before} → {after}). Better: {better}"),
            code,
        ),
        annotator=render(_("Engine analysis"), code),
    )


def _move_label(view: AnalysisView, ply: PlyAnalysis) -> str:
    variant = view.game.variant
    [label] = numbered_moves([show_move(ply.move, variant)], view.game.start, ply.ply)
    return label


def _accuracy(value: float | None) -> str:
    return "–" if value is None else str(round(value))


def _side_title(
    view: AnalysisView, color: Color, code: str, name_of: Callable[[str], str] = plain
) -> str:
    """A player's name (``plain`` for a picture; ``shown``, Markdown escaped, for a message)
    with their colour and accuracy."""
    name = name_of(view.name(color))
    accuracy = _accuracy(view.analysis.accuracy[color])
    if color is Color.WHITE:
        text = _("{name} (White): accuracy {accuracy}%", name=name, accuracy=accuracy)
    else:
        text = _("{name} (Black): accuracy {accuracy}%", name=name, accuracy=accuracy)
    return render(text, code)


def _judged_line(view: AnalysisView, ply: PlyAnalysis, variant: Variant, code: str) -> str:
    better = show_move(ply.better or "", variant)
    values: dict[str, Arg] = {
        "move": verbatim(_move_label(view, ply)),
        "before": men(ply.before),
        "after": men(ply.after),
        "better": verbatim(better),
    }
    texts = {
        Judgement.INACCURACY: _(
            "{move}: inaccuracy ({before} → {after}); better {better}", **values
        ),
        Judgement.MISTAKE: _("{move}: mistake ({before} → {after}); better {better}", **values),
        Judgement.BLUNDER: _("{move}: blunder ({before} → {after}); better {better}", **values),
    }
    assert ply.judgement is not None
    return render(texts[ply.judgement], code)


def _side_value(view: AnalysisView, color: Color, code: str) -> str:
    judged = view.analysis.judged(color)
    if not judged:
        return render(_("No inaccuracies, mistakes or blunders."), code)
    variant = view.game.variant
    lines = [_judged_line(view, ply, variant, code) for ply in judged]
    return listing(lines, FIELD_VALUE, code=code)


def _thresholds(depth: int, code: str) -> str:
    t = THRESHOLDS_MEN
    return render(
        _(
            "Scores in men from White's side. A move that gives away as much as {inaccuracy} man "
            "in a level position is an inaccuracy, {mistake} man a mistake, {blunder} men a "
            "blunder (less counts when the game is already decided). Accuracy: 100 for moves "
            "that keep every chance. The engine searched {depth} plies deep on average.",
            inaccuracy=t[Judgement.INACCURACY],
            mistake=t[Judgement.MISTAKE],
            blunder=t[Judgement.BLUNDER],
            depth=depth,
        ),
        code,
    )


def analysis_embed(view: AnalysisView, code: str, image: str | None) -> discord.Embed:
    """The message's embed: the title, a field per side, the thresholds in the footer."""
    embed = discord.Embed(
        title=render(_("Engine analysis: {what}", what=view.title), code),
        colour=ANALYSIS_COLOUR,
    )
    for color in (Color.WHITE, Color.BLACK):
        embed.add_field(
            name=fit(_side_title(view, color, code, shown), FIELD_NAME),
            value=_side_value(view, color, code),
            inline=False,
        )
    embed.set_footer(text=_thresholds(view.analysis.depth, code))
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    return fit_embed(embed)


def eval_graph(view: AnalysisView) -> EvalGraph:
    """The graph's numbers: White's chance after each ply, the mistakes and blunders."""
    analysis = view.analysis
    marks = [
        Mark(p.ply, p.judgement.value, p.mover.label)
        for p in analysis.plies
        if p.judgement in (Judgement.MISTAKE, Judgement.BLUNDER)
    ]
    ticks = [
        (chance(100 * TICK_MEN), f"+{TICK_MEN}"),
        (0.5, "0"),
        (chance(-100 * TICK_MEN), f"−{TICK_MEN}"),
    ]
    first = view.game.start
    offset = 0 if first.turn is first.variant.first else 1
    return EvalGraph([chance(s) for s in analysis.scores], marks, ticks, 1 + offset // 2)


def graph_words(view: AnalysisView, code: str) -> GraphWords:
    """The graph's words in the language ``code``: the players' lines and the key."""
    return GraphWords(
        white=_side_title(view, Color.WHITE, code),
        black=_side_title(view, Color.BLACK, code),
        mistake=render(judgement_name(Judgement.MISTAKE), code),
        blunder=render(judgement_name(Judgement.BLUNDER), code),
        moves=render(_p("analysis graph axis", "Move"), code),
    )


def graph_alt(view: AnalysisView, code: str) -> str:
    """The graph's alt text: what it shows, both players' accuracy, the swings, the end."""
    swings = [
        render(
            _("{move} blunder", move=verbatim(_move_label(view, p)))
            if p.judgement is Judgement.BLUNDER
            else _("{move} mistake", move=verbatim(_move_label(view, p))),
            code,
        )
        for p in view.analysis.plies
        if p.judgement in (Judgement.MISTAKE, Judgement.BLUNDER)
    ]
    head = _(
        "Evaluation graph of {what}, White's chances move by move: {white} (White) accuracy "
        "{white_accuracy}%, {black} (Black) accuracy {black_accuracy}%; final score {score}.",
        what=view.title,
        white=plain(view.white),
        black=plain(view.black),
        white_accuracy=_accuracy(view.analysis.accuracy[Color.WHITE]),
        black_accuracy=_accuracy(view.analysis.accuracy[Color.BLACK]),
        score=men(view.analysis.scores[-1]),
    )
    text = render(head, code)
    if swings:
        marked = render(_("Marked: {swings}.", swings=listed(swings)), code)
        text = f"{text} {marked}"
    return fit(text, ALT_TEXT)


def draw_analysis(view: AnalysisView, code: str, theme: str = DEFAULT_THEME) -> DrawnAnalysis:
    """The graph, its alt text and the annotated PDN (runs in a worker thread: it draws)."""
    png = render_eval_graph(eval_graph(view), graph_words(view, code), theme=theme)
    event = None if view.event is None else render(view.event, code)
    pdn = view.annotated_pdn(annotation_words(code), event)
    return DrawnAnalysis(png, graph_alt(view, code), pdn)


async def analysis_message(view: AnalysisView, code: str, theme: str = DEFAULT_THEME) -> Outgoing:
    """The whole answer for ``view`` in the language ``code`` (the graph drawn in the server's
    ``theme``): the embed with the graph, and the annotated PDN file."""
    drawn = await asyncio.to_thread(draw_analysis, view, code, theme)
    image = f"{view.file_stem}.png"
    return Outgoing(
        embed=analysis_embed(view, code, image),
        files=[
            Upload(image, drawn.graph, drawn.alt),
            Upload(f"{view.file_stem}.pdn", drawn.pdn.encode()),
        ],
        part=f"analysis-{view.subject}",
    )


__all__ = [
    "DrawnAnalysis",
    "analysis_embed",
    "analysis_message",
    "annotation_words",
    "draw_analysis",
    "eval_graph",
    "graph_alt",
    "graph_words",
]
