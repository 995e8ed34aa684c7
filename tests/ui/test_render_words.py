"""The renderer's words from the catalogs (bot.ui.render_words): every template is the renderer's
English exactly, so English images and alt text do not change, and every phrase the renderer can
write has a catalog message."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import _p, template
from bot.ui.render_words import _build, render_words
from render.description import describe, text_diagram
from render.gif import frame_status, render_gif
from render.words import ENGLISH, RenderWords
from rules.game import Game
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.variants import VARIANTS, Color

CATALOG_ENGLISH = _build("en")


def test_english_comes_from_the_catalogs_too() -> None:
    """English is built like every language (its plural forms are the catalog's, not the
    renderer's default ``if count == 1``), once."""
    assert render_words("en") is CATALOG_ENGLISH
    assert render_words("en").white_captured(1) != render_words("en").white_captured(2)


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(RenderWords)])
def test_every_catalog_template_is_the_renderers_english(field: str) -> None:
    ours = getattr(CATALOG_ENGLISH, field)
    default = getattr(ENGLISH, field)
    if field == "titles":
        assert dict(ours) == {key: v.title for key, v in VARIANTS.items()}
    elif field == "endings":
        assert dict(ours) | dict(ENGLISH.endings) == dict(ours)
    elif callable(default):
        assert [ours(n) for n in range(0, 25)] == [default(n) for n in range(0, 25)]
    else:
        assert ours == default


def test_every_way_a_game_ends_has_words() -> None:
    endings = dict(CATALOG_ENGLISH.endings)
    details = {"White resigned", "Black resigned", "White ran out of time"}
    for variant in VARIANTS.values():
        rules = [rule for rule in (variant.no_progress, *variant.endgames) if rule is not None]
        details.update(rule.description for rule in rules)
    for termination in Termination:
        words = Outcome(termination, None).words
        assert endings[words] == words
    for detail in details:
        assert endings[detail] == detail


def test_words_from_the_catalogs_draw_the_same_english() -> None:
    game = Game(VARIANTS["english"])
    for move in ("11-15", "22-18", "15x22", "25x18"):
        game.play(move)
    game.resign(Color.WHITE)
    for ply in range(len(game.moves) + 1):
        status = frame_status(game, ply, "numeric", CATALOG_ENGLISH)
        assert status == frame_status(game, ply, "numeric")
    assert frame_status(game, 4, "numeric", CATALOG_ENGLISH).endswith("· 0-1 White resigned")
    position, last = game.positions[-1], game.moves[-1]
    for notation in ("numeric", "algebraic"):
        assert describe(
            position, last_move=last, notation=notation, words=CATALOG_ENGLISH
        ) == describe(position, last_move=last, notation=notation)
        assert text_diagram(position, notation=notation, words=CATALOG_ENGLISH) == text_diagram(
            position, notation=notation
        )
    limit = len(render_gif(game, width=320).data) - 1
    small = render_gif(game, width=400, max_bytes=limit, words=CATALOG_ENGLISH, names=("", ""))
    assert "Drawn at 320 px" in small.note and "Shows every 2nd position" in small.note
    assert small.note == render_gif(game, width=400, max_bytes=limit, names=("", "")).note


def test_translated_words_change_only_the_words() -> None:
    words = dataclasses.replace(
        ENGLISH,
        black_to_move_sentence="Ход чёрных.",
        black_men="Чёрные шашки",
        pieces="{kind} ({count}): {squares}.",
        run="{first}–{last}",
        titles=(("english", "Английские шашки"),),
    )
    text = describe(Position.start(VARIANTS["english"]), words=words)
    assert text.startswith("Английские шашки, 8x8 board. Ход чёрных.")
    assert "Чёрные шашки (12): 1–12." in text


def test_unfilled_template_of_an_unknown_language_is_english() -> None:
    assert template(_p("board image", "move {number}"), "xx") == "move {number}"


def test_a_finished_outcome_in_words_falls_back_to_its_english() -> None:
    words = dataclasses.replace(ENGLISH, endings=())
    outcome = Outcome(Termination.TIMEOUT, Color.BLACK, "White ran out of time")
    assert words.summary(outcome, VARIANTS["english"]) == ("0-1", "White ran out of time")
