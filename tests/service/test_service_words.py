"""The rules' words as the service says them (:mod:`bot.words`): catalog messages that
read in English exactly as the rules' own words, for every variant."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.i18n import Kind, Text
from bot.words import _COUNT_LABELS as COUNT_LABELS
from bot.words import (
    NEVER_MOVED,
    VARIANT_TITLES,
    outcome_words,
    status_line,
    status_parts,
    termination_words,
    variant_title,
)
from rules.fen import parse_fen
from rules.game import Game
from rules.outcome import _WORDS, Outcome, Termination
from rules.variants import VARIANTS, Color

NAMES = {Color.WHITE: "Alice", Color.BLACK: "Bob"}


def is_catalogued(text: Text) -> bool:
    return text.kind is not Kind.VERBATIM


def test_every_variant_has_its_title_in_the_catalog() -> None:
    assert set(VARIANT_TITLES) == set(VARIANTS)
    for key, variant in VARIANTS.items():
        assert str(variant_title(key)) == str(variant_title(variant)) == variant.title
        assert is_catalogued(variant_title(key))


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_rule_word_of_a_variant_is_in_the_catalog(key: str) -> None:
    variant = VARIANTS[key]
    rules = [rule for rule in (variant.no_progress, *variant.endgames) if rule is not None]
    for word in [rule.description for rule in rules]:
        assert is_catalogued(termination_words(word)), word
        assert str(termination_words(word)) == word
    labels = {rule.label for rule in rules}
    assert labels <= set(COUNT_LABELS)


def test_every_termination_reads_as_the_rules_say_it() -> None:
    for termination, words in _WORDS.items():
        text = outcome_words(Outcome(termination, None))
        assert is_catalogued(text) and str(text) == words
    game = Game(VARIANTS["english"])
    for color in Color:
        for end in (Game.resign, Game.timeout):
            ended = game.copy()
            end(ended, color)
            assert ended.outcome is not None
            text = outcome_words(ended.outcome)
            assert is_catalogued(text) and str(text) == ended.outcome.words
        aborted = Outcome(Termination.ABORTED, None, NEVER_MOVED[color].msgid)
        assert is_catalogued(outcome_words(aborted))
    assert termination_words("a rule nobody wrote") == Text(
        "a rule nobody wrote", kind=Kind.VERBATIM
    )


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_status_reads_as_the_rules_say_it_all_game_long(key: str) -> None:
    """Random games (with draw offers and declines on the way) until they end: at every ply the
    service's status line and parts read exactly as the rules' own (a king that has used up its
    moves in a row, frisian's, included)."""
    rng = random.Random(key)
    for _game in range(6):
        game = Game(VARIANTS[key])
        while not game.is_over:
            assert [str(p) for p in status_parts(game, NAMES)] == game.status_parts(NAMES)
            assert str(status_line(game, NAMES)) == game.status_line(NAMES)
            if game.draw_offer is None and rng.random() < 0.05:
                game.offer_draw(game.turn)
            elif game.draw_offer is game.turn.other and rng.random() < 0.5:
                game.decline_draw(game.turn)
            else:
                game.play(rng.choice(game.legal_moves()))
        assert game.outcome is not None
        assert str(status_line(game, NAMES)) == game.status_line(NAMES)
        assert str(outcome_words(game.outcome)) == game.outcome.words
        assert is_catalogued(outcome_words(game.outcome))
    detailed = replace(game.outcome, detail="")
    assert str(outcome_words(detailed)) == detailed.words


def test_frisian_names_a_king_that_may_only_capture_and_counts_no_repetition() -> None:
    """After three moves in a row with one king (its side still has men) the status says which
    king may now only capture; a position that comes again is never "repeated (n of 0)"."""
    variant = VARIANTS["frisian"]
    game = Game(variant, parse_fen("W:W50,K26:BK4", variant))
    for move in ("26-21", "4-10", "21-26", "10-4", "26-21"):
        assert not game.position.frozen_king
        game.play(move)
    game.play("4-10")
    assert [str(p) for p in status_parts(game, NAMES)] == [
        "White's king on 21 has made 3 moves in a row"
    ]
    game.play("50-44")  # another piece moved: the king is free again
    assert status_parts(game, NAMES) == ()
    kings = Game(variant, parse_fen("W:WK26,K50:BK4", variant))  # only kings: no limit
    for move in ("26-21", "4-10", "21-26", "10-4"):
        kings.play(move)
    assert kings.repetitions() == 2
    assert [str(p) for p in status_parts(kings, NAMES)] == ["2-kings-v-1 count: 5 left"]
