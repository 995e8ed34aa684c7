"""The German texts speak as the German rule texts the variants come from (``shared/seeds/``:
Draughts, Dame as on Brettspielnetz, Pool Checkers): a man is a *Stein*, a king a *Dame*,
captures are compulsory (*Schlagzwang*), a man is crowned on the opponent's *Grundlinie*, a draw
is a *Remis*, and one plays *Züge* on *Felder*.

The seeds are not part of the project: they are found in the ``shared`` folder beside it, as the
OpenAPI spec is (``tests/support/openapi_check.py``); a clone without that folder checks the terms
below against the catalog only.  The terms are listed
here, so the German catalog is held to them even where the seeds are absent; where they are present,
each term is checked to really be the seeds' word.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import openapi_check

from bot.i18n import render
from bot.ui.rules_texts import rules_summary
from bot.ui.texts import help_paragraphs
from rules.variants import VARIANTS

TERMS = {
    "Stein": "a man",
    "Dame": "a king (the Dame texts' word; one Draughts text also says König)",
    "Schlagzwang": "captures are compulsory",
    "schlagen": "to capture",
    "Grundlinie": "the row where men are crowned",
    "Remis": "a draw",
    "Zug": "a move",
    "Feld": "a square",
}
"""The seeds' words, and what each names."""
NOT_USED = ("König", "Bauer", "Figur", "unentschieden")
"""Words a German translation might use but the rules texts of the variants this bot plays do
not use for these things (the Dame texts: Dame, not König; Stein, not Bauer; Remis)."""


def seeds() -> str | None:
    shared = openapi_check.shared_folder()
    if shared is None:
        return None
    folder = shared / "seeds"
    if not folder.is_dir():  # shared/ is there: the seeds must be too
        raise FileNotFoundError(f"no seeds in {shared}")
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(Path(folder).glob("*.txt")))


def german_rules() -> str:
    texts = [render(paragraph, "de") for paragraph in help_paragraphs()]
    for key in VARIANTS:
        title, lines = rules_summary(key)
        texts += [render(title, "de"), *(render(line, "de") for line in lines)]
    return "\n".join(texts)


@pytest.mark.parametrize("term", sorted(TERMS))
def test_the_german_rules_use_the_seeds_term(term: str) -> None:
    found = re.search(rf"\b{term}", german_rules())
    assert found, f"/rules in German never says {term!r} ({TERMS[term]})"


@pytest.mark.skipif(seeds() is None, reason=openapi_check.SKIP_REASON)
@pytest.mark.parametrize("term", sorted(TERMS))
def test_each_term_is_the_seeds_own_word(term: str) -> None:
    text = seeds()
    assert text is not None and re.search(rf"\b{term}", text), term


@pytest.mark.parametrize("word", NOT_USED)
def test_the_german_rules_keep_to_the_seeds_words(word: str) -> None:
    assert word not in german_rules()


def test_every_variant_states_schlagzwang_in_german() -> None:
    for key in VARIANTS:
        _title, lines = rules_summary(key)
        assert any("Schlagzwang" in render(line, "de") for line in lines), key
