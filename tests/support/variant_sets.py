"""Which variants a test needs to see: one of each distinct set of rules.

Two variants that differ only in their names, GameType, result strings and notation (portuguese
and spanish; dame and english as far as moves go) run the same code on the same data, so a test
of the move generator, or a seeded match, played in both is the same test twice.  Tests of what
does differ (words, PDN tags, draw counts) keep every variant.

Imported as ``from support.variant_sets import ...`` (pytest puts ``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from rules.variants import Variant

LABELS = frozenset(
    {"key", "title", "aliases", "game_type", "pdn_variant", "results", "notation", "numbering"}
)
"""The fields that name or write a variant without changing how it is played."""
DRAWS = frozenset({"no_progress", "endgames", "draw_offer_count", "repetitions"})
"""The fields that end a game by a count or by agreement rules, not by its moves."""


def _rules_of(variant: Variant, ignored: frozenset[str]) -> tuple[object, ...]:
    return tuple(
        getattr(variant, f.name) for f in dataclasses.fields(variant) if f.name not in ignored
    )


def one_per_rules(variants: Iterable[Variant], *, draws: bool) -> list[Variant]:
    """The first variant of each distinct set of rules, in order: of the move rules alone, or
    also of the draw rules when ``draws`` (a match is decided by them too)."""
    ignored = LABELS if draws else LABELS | DRAWS
    kept: dict[tuple[object, ...], Variant] = {}
    for variant in variants:
        kept.setdefault(_rules_of(variant, ignored), variant)
    return list(kept.values())
