"""The helper that lets the long move-generator tests run once per set of rules
(tests/support/variant_sets.py) leaves out only true twins."""

from __future__ import annotations

from support.variant_sets import one_per_rules

from engine.endgame import signature
from rules.perft import perft
from rules.position import Position
from rules.variants import VARIANTS


def test_only_twins_are_left_out() -> None:
    by_moves = one_per_rules(VARIANTS.values(), draws=False)
    by_all = one_per_rules(VARIANTS.values(), draws=True)
    assert {v.key for v in VARIANTS.values()} - {v.key for v in by_moves} == {"dame", "portuguese"}
    assert {v.key for v in VARIANTS.values()} - {v.key for v in by_all} == {"portuguese"}
    twins = (("dame", "english"), ("portuguese", "spanish"))
    for left_out, kept in twins:
        a, b = VARIANTS[left_out], VARIANTS[kept]
        assert signature(a) == signature(b)  # every move rule the core reads
        assert (a.men_rows, a.first, a.goal) == (b.men_rows, b.first, b.goal)
        assert perft(Position.start(a), 5) == perft(Position.start(b), 5)
    # Dame's draw rules are its own: a match is decided by them, so it stays there.
    assert VARIANTS["dame"].no_progress != VARIANTS["english"].no_progress
