"""What the service says about a game's analysis (the Discord layer's side of it), beside
:mod:`bot.results`, which re-exports every name here: :class:`AnalysisView`, an analysed game
with what showing it needs, and the engine's two steps the service runs in the computer's
background lane (:data:`EVALUATE`, one position per job; :data:`ASSEMBLE`, the reading of all
the scores together), named here so the service never imports the engine itself: it hands
them to :meth:`~bot.service.computer.ComputerPlayer.background` as it hands a game to
``choose_move``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.analysis import (
    NODES_PER_POSITION,
    SECONDS_PER_POSITION,
    THRESHOLDS_MEN,
    GameAnalysis,
    Judgement,
    PlyAnalysis,
    assemble_job,
    chance,
    evaluate_ply,
)
from engine.analysis_pdn import AnnotationWords, annotated_pdn, men
from rules.game import Game
from rules.variants import Color

from .i18n import Text

EVALUATE: Callable[[dict[str, Any], int, float, int], dict[str, Any]] = evaluate_ply
"""Worker job: the engine's score of the position after a ply of a game record, in at most
the seconds and nodes given."""
ASSEMBLE: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]] = assemble_job
"""Worker job: the analysis (as JSON values) from the record and every position's score."""

__all__ = [
    "ASSEMBLE",
    "EVALUATE",
    "NODES_PER_POSITION",
    "SECONDS_PER_POSITION",
    "THRESHOLDS_MEN",
    "AnalysisView",
    "AnnotationWords",
    "Color",
    "GameAnalysis",
    "Judgement",
    "PlyAnalysis",
    "chance",
    "men",
]


@dataclass(frozen=True)
class AnalysisView:
    """An analysed game: its subject (``game:<id>``, ``import:<id>``), the game itself, the
    engine's analysis of it, and what showing it needs (the players' names, the PDN tags
    besides the event, the event's words, the title and the file's name)."""

    subject: str
    game: Game
    analysis: GameAnalysis
    white: str
    black: str
    title: Text
    """What the analysis is of, for the message (``Game #12``)."""
    file_stem: str
    """The annotated PDN file's name without ``.pdn`` (``draughts-game-12-analysis``)."""
    tags: Mapping[str, str] = field(default_factory=dict)
    event: Text | None = None
    """The PDN Event tag's words (None: the tags say it, or nothing does)."""
    fresh: bool = True
    """Computed for this request (False: shown again as stored)."""

    def name(self, color: Color) -> str:
        """The player of ``color``."""
        return self.white if color is Color.WHITE else self.black

    def annotated_pdn(self, words: AnnotationWords, event: str | None = None) -> str:
        """The annotated PDN in the reader's ``words`` (``event``: the Event tag, rendered)."""
        tags = {"White": self.white, "Black": self.black, **self.tags}
        if event is not None:
            tags["Event"] = event
        return annotated_pdn(self.game, self.analysis, tags, words)
