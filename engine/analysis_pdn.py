"""The annotated PDN of an analysed game: the game's own record with the engine's score after
every move (``{[%eval 0.35]}``, lichess's convention: men from White's side, ``#7``/``#-7`` a
decided position), and at every judged move its glyph (``$6`` ?!, ``$2`` ?, ``$4`` ??), a
comment in the reader's words and the engine's line as a variation from the position before the
move.  :func:`rules.pdn.parse_pdn` reads it back to the same main line (it skips comments and
variations), and every PDN program shows the rest.

The words are the caller's (:class:`AnnotationWords`): the engine knows no language.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

from rules.game import Game
from rules.pdn import write_game

from .analysis import DECIDED, NAGS, GameAnalysis, Judgement
from .scores import MATE

_KEEP = "\x00"
"""A space the line wrapping keeps (a move number with its move, a score tag whole)."""


@dataclass(frozen=True)
class AnnotationWords:
    """The words of the comments.  ``comment`` is a template with ``{judgement}``, ``{before}``,
    ``{after}`` (scores in men) and ``{better}`` (the engine's move)."""

    judgements: Mapping[Judgement, str]
    comment: str = "{judgement} ({before} → {after}). Better: {better}"
    annotator: str = "Engine analysis"


ENGLISH = AnnotationWords(
    judgements={
        Judgement.INACCURACY: "Inaccuracy",
        Judgement.MISTAKE: "Mistake",
        Judgement.BLUNDER: "Blunder",
    }
)
"""The comments in English (the tests', and the default)."""


def men(score: int) -> str:
    """A White-side score in men for people: ``+0.35``, ``-2.10``; a decided one ``+W``/``-W``
    is left to :func:`eval_tag`'s form ``#n``."""
    if abs(score) >= DECIDED:
        plies = MATE - abs(score)
        return f"#{plies}" if score > 0 else f"#-{plies}"
    return f"{score / 100:+.2f}"


def eval_tag(score: int) -> str:
    """``[%eval 0.35]`` / ``[%eval #7]``: the score as lichess writes it in a comment."""
    text = men(score)
    return f"[%eval {text.lstrip('+')}]"


def _label(ply: int, game: Game) -> str:
    k = ply + (0 if game.start.turn is game.variant.first else 1)
    return f"{k // 2 + 1}{'.' if k % 2 == 0 else '...'}"


def annotated_pdn(
    game: Game,
    analysis: GameAnalysis,
    tags: Mapping[str, str] | None = None,
    words: AnnotationWords = ENGLISH,
) -> str:
    """The PDN text of ``game`` annotated with ``analysis`` (its tags as
    :func:`rules.pdn.write_game` writes them, with ``Annotator``)."""
    header = write_game(game, {**(tags or {}), "Annotator": words.annotator}).split("\n\n")[0]
    units: list[str] = []
    numbered = True
    for entry in analysis.plies:
        label = _label(entry.ply, game)
        if numbered or not label.endswith("..."):
            units.append(f"{label}{_KEEP}{entry.move}")
        else:
            units.append(entry.move)
        numbered = False
        if entry.judgement is not None:
            units.append(NAGS[entry.judgement])
        comment = eval_tag(entry.after).replace(" ", _KEEP)
        if entry.judgement is not None and entry.better is not None:
            said = words.comment.format(
                judgement=words.judgements[entry.judgement],
                before=men(entry.before),
                after=men(entry.after),
                better=entry.better,
            )
            comment = f"{comment} {_clean(said)}"
        units.append(f"{{{comment}}}")
        if entry.judgement is not None and entry.line:
            units.append(f"({_variation(entry.ply, entry.line, game)})")
            numbered = True
    units.append(game.result())
    body = textwrap.fill(" ".join(units), width=79, break_long_words=False, break_on_hyphens=False)
    return f"{header}\n\n{body.replace(_KEEP, ' ')}\n"


def _variation(ply: int, line: tuple[str, ...], game: Game) -> str:
    parts = []
    for i, move in enumerate(line):
        label = _label(ply + i, game)
        parts.append(f"{label}{_KEEP}{move}" if i == 0 or not label.endswith("...") else move)
    return " ".join(parts)


def _clean(text: str) -> str:
    """A comment's words kept from closing the comment early."""
    return text.replace("{", "(").replace("}", ")")
