"""The analysis message (:mod:`bot.ui.analysis_message`) in process, in every language: the
real engine's analysis of the blunder game shown as the embed (each side's accuracy and judged
moves with the better move, the thresholds), the graph (decoded, with alt text) and the
annotated PDN (read back by ``rules.pdn``), within Discord's limits."""

from __future__ import annotations

import io
import re
from functools import cache

import pytest
from PIL import Image
from support.analysis_games import BLUNDER_MOVES, BLUNDER_PLY, blunder_game

from bot.analysis_results import AnalysisView
from bot.i18n import _, available
from bot.ui.analysis_message import analysis_message, graph_alt
from bot.ui.limits import EMBEDS_TOTAL, FIELD_VALUE
from bot.ui.replies import ALT_TEXT
from engine.analysis import GameAnalysis, PositionScore, assemble, evaluate_ply
from rules.pdn import parse_pdn, read_games

LANGUAGES = available()


@cache
def analysed() -> AnalysisView:
    game = blunder_game()
    record = game.to_dict()
    found = [
        PositionScore.from_dict(evaluate_ply(record, ply, 0.05, 50_000))
        for ply in range(game.ply + 1)
    ]
    analysis: GameAnalysis = assemble(record, found)
    return AnalysisView(
        subject="game:42",
        game=game,
        analysis=analysis,
        white="Bob *the* Great",
        black="Alice",
        title=_("Game #{id}", id=42),
        file_stem="draughts-game-42-analysis",
        tags={"Site": "Discord", "Date": "2026.11.28"},
        event=_("Engine analysis"),
    )


@pytest.mark.parametrize("code", LANGUAGES)
async def test_the_message_in_every_language(code: str) -> None:
    view = analysed()
    out = await analysis_message(view, code)
    embed = out.embed
    assert embed is not None and len(embed) <= EMBEDS_TOTAL
    assert embed.title and "42" in embed.title
    white, black = embed.fields
    assert white.name and black.name and "Alice" in black.name
    assert "Bob \\*the\\* Great" in white.name  # a name shown as text, never as Markdown
    accuracy = view.analysis.accuracy
    assert str(round(accuracy[next(iter(accuracy))] or 0)) in (white.name or "")
    # Black's blunder, numbered as PDN numbers it, with the engine's better move
    blunder = view.analysis.plies[BLUNDER_PLY]
    assert blunder.better is not None
    assert black.value and "16. 11-15" in black.value and blunder.better in black.value
    assert all(len(field.value or "") <= FIELD_VALUE for field in embed.fields)
    assert embed.footer.text and "2" in embed.footer.text
    words = [embed.title, embed.footer.text, *(f.name for f in embed.fields)]
    words += [f.value for f in embed.fields]
    assert not [w for w in words if w is None or "{" in w]  # every placeholder filled
    graph, record = out.files
    assert embed.image.url == f"attachment://{graph.name}"
    img = Image.open(io.BytesIO(graph.data))
    assert img.format == "PNG" and img.width == 640
    assert 0 < len(graph.description) <= ALT_TEXT and "16. 11-15" in graph.description
    assert record.name == "draughts-game-42-analysis.pdn"
    text = record.data.decode()
    [read] = read_games(text)
    assert read.errors == [] and [m.pdn() for m in read.game.moves] == BLUNDER_MOVES
    [parsed] = parse_pdn(text)
    assert parsed.tags["White"] == "Bob *the* Great" and parsed.tags["Annotator"]
    assert re.search(r"11-15\s+\$4\s+\{", text)


def test_the_alt_text_names_players_accuracy_and_swings() -> None:
    alt = graph_alt(analysed(), "en")
    assert alt.startswith("Evaluation graph of Game #42, White's chances move by move")
    assert "Bob *the* Great (White) accuracy" in alt and "Alice (Black) accuracy" in alt
    assert "16. 11-15 blunder" in alt
    assert "final score +" in alt
