"""The bridge from ``rules``' data to the native core (:mod:`engine._core`, and
:mod:`engine._core_wide` for the boards over 64 bits).

The core generates moves in C for every variant, but it must never know a variant by its name:
like :mod:`rules.movegen`, it is driven only by the rule data of a
:class:`~rules.variants.Variant`.  This module is the one place that reads that data and turns it
into the core's parameters (:func:`core_rules`), and a :class:`~rules.position.Position` into the
core's view of a position (:func:`core_state`), the kings' runs of frisian's limit on a king's
moves in a row included (:func:`runs_code`).  The mappings are explicit tables, so a new
:class:`~rules.variants.Crowning`, :class:`~rules.variants.Precedence` or
:class:`~rules.variants.Goal` fails loudly here
(``KeyError``) instead of being played by the wrong rule.

The core is built twice from the same C sources (setup.py): ``engine._core`` with 64-bit
bitboards, for every board up to 10x10, and ``engine._core_wide`` with 128-bit ones, for the
12x12 board whose layout needs 77 bits.  :func:`core_module` is the one place that picks a
variant's build; everything that makes the core's objects for a variant (its :class:`Rules` here,
a searcher, an endgame table, the learned evaluation's trainer) takes them from that module, and
the objects of one build never meet the other's (a Searcher takes only its own build's Rules).

The native search (:mod:`engine.native_search`) is built on these; the tests prove the core equal
to ``rules`` through them, and ``bench/perft.py --native`` measures it.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Protocol

from rules.movegen import RawMove
from rules.position import NO_RUNS, KingRuns, Position
from rules.rule_kinds import one_piece_each
from rules.variants import Color, Crowning, Goal, Precedence, Variant

from . import _core, _core_wide
from ._core import (
    AT_END,
    CONTINUES_AS_KING,
    ENDS_MOVE,
    GOAL_FIRST_KING,
    GOAL_GIVE_AWAY,
    GOAL_STANDARD,
    PREFER_KINGS_FIRST,
    PREFER_MOST_KINGS,
    PREFER_MOST_PIECES,
    PREFER_MOST_VALUE,
    PREFER_WITH_KING,
    Rules,
)

CoreState = tuple[int, ...]
"""``(own men, own kings, their men, their kings, side)`` with side 0 for White, 1 for Black,
followed where the variant limits a king's moves in a row (frisian) by the kings' runs packed by
:func:`runs_code`: the position seen from the side to move, as
:data:`engine.reference.board.State` without the Zobrist key.  Every call of the core takes it so
(it reads runs of 0 where they are left out, and makes six-item states)."""

RUN_SHIFT = 7
"""A run packed: the king's internal bit index, plus its length shifted by this (engine/core/core.h
CORE_RUN_SHIFT: 7 bits of index, enough for bit 76 of 12x12, in both builds); the mover's run in
the low 16 bits, the opponent's in the high 16."""


class CoreModule(Protocol):
    """What the engine takes from a build of the core (:func:`core_module`): the classes that are
    made per variant, and the functions that take that build's :class:`Rules`."""

    @property
    def MAX_BITS(self) -> int: ...
    @property
    def Rules(self) -> type[_core.Rules]: ...
    @property
    def Searcher(self) -> type[_core.Searcher]: ...
    @property
    def EndgameTable(self) -> type[_core.EndgameTable]: ...
    def learned_features(
        self,
        rules: _core.Rules,
        men_rows: int,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...
    def learned_check(self, rules: _core.Rules, men_rows: int, data: bytes, /) -> None: ...
    def learned_layout(
        self, rules: _core.Rules, men_rows: int, /
    ) -> tuple[int, int, int, int, int]: ...
    def learned_loss(
        self, rules: _core.Rules, men_rows: int, samples: bytes, weights: bytearray, scale: float, /
    ) -> float: ...
    def learned_train(
        self,
        rules: _core.Rules,
        men_rows: int,
        samples: bytes,
        weights: bytearray,
        m: bytearray,
        v: bytearray,
        step: int,
        epochs: int,
        batch: int,
        lr: float,
        l2: float,
        scale: float,
        seed: int,
        /,
    ) -> tuple[float, int]: ...


CROWNING_CODES: dict[Crowning, int] = {
    Crowning.ENDS_MOVE: ENDS_MOVE,
    Crowning.AT_END: AT_END,
    Crowning.CONTINUES_AS_KING: CONTINUES_AS_KING,
}
"""The core's code for each crowning rule."""

PRECEDENCE_CODES: dict[Precedence, int] = {
    Precedence.MOST_PIECES: PREFER_MOST_PIECES,
    Precedence.WITH_KING: PREFER_WITH_KING,
    Precedence.MOST_KINGS: PREFER_MOST_KINGS,
    Precedence.KINGS_FIRST: PREFER_KINGS_FIRST,
    Precedence.MOST_VALUE: PREFER_MOST_VALUE,
}
"""The core's code for each capture precedence criterion."""

GOAL_CODES: dict[Goal, int] = {
    Goal.STANDARD: GOAL_STANDARD,
    Goal.GIVE_AWAY: GOAL_GIVE_AWAY,
    Goal.FIRST_KING: GOAL_FIRST_KING,
}
"""The core's code for each goal."""


_MATERIALS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a, b, c, d in itertools.product(range(3), repeat=4)
)
"""Every material of up to two kings and two men a side, as EndgameRule.strong reads it."""


def _lone_pieces_draw(variant: Variant) -> bool:
    """:attr:`~rules.variants.Variant.lone_pieces_draw`, after checking that each endgame rule
    of no moves is that one (the only immediate draw the core knows): ``ValueError`` if not."""
    for rule in variant.endgames:
        if rule.moves:
            continue
        for m in _MATERIALS:
            if rule.strong(m) != one_piece_each(m):
                raise ValueError(f"the core knows no immediate draw like {rule.description!r}")
    return variant.lone_pieces_draw


def core_module(variant: Variant) -> CoreModule:
    """The build of the core that plays ``variant``: ``engine._core`` for every board it holds
    (64-bit bitboards, up to ``engine._core.MAX_SIZE``), ``engine._core_wide`` for the larger
    ones (128-bit, up to 12x12).  The 64-bit build is the faster one, so it is kept wherever it
    fits."""
    return _core_wide if variant.size > _core.MAX_SIZE else _core


@cache
def core_rules(variant: Variant) -> Rules:
    """The core's descriptor of ``variant`` (one per variant, built on first use), of the build
    :func:`core_module` picks.

    Raises ``ValueError`` for a board the core cannot hold (larger than the wide build's
    ``MAX_SIZE``, 12x12; an orthogonal board larger than 8x8; an immediate draw other than one
    piece each).
    """
    return rules_in(core_module(variant), variant)


def rules_in(core: CoreModule, variant: Variant) -> Rules:
    """``variant``'s descriptor in the build ``core`` (the engine takes :func:`core_rules`; the
    tests also play the small boards in the wide build, which must agree with the 64-bit one)."""
    return core.Rules(
        size=variant.size,
        men_capture_backward=variant.men_capture_backward,
        flying_kings=variant.flying_kings,
        precedence=[PRECEDENCE_CODES[c] for c in variant.capture_precedence],
        crowning=CROWNING_CODES[variant.crowning],
        men_capture_kings=variant.men_capture_kings,
        goal=GOAL_CODES[variant.goal],
        mirrored=variant.mirrored,
        king_stops_behind=variant.king_stops_behind,
        captures_removed_at_once=variant.captures_removed_at_once,
        orthogonal=variant.orthogonal,
        king_turns_back=variant.king_turns_back,
        lone_pieces_draw=_lone_pieces_draw(variant),
        captures_in_eight_directions=variant.captures_in_eight_directions,
        king_move_limit=variant.king_move_limit,
    )


def _packed_run(bit: int, run: int) -> int:
    return (bit.bit_length() - 1) | run << RUN_SHIFT if run else 0


def runs_code(runs: KingRuns, turn: Color) -> int:
    """:attr:`Position.king_runs` as the core holds them, seen from ``turn``'s side."""
    if runs == NO_RUNS:
        return 0
    white, black = _packed_run(runs[0], runs[1]), _packed_run(runs[2], runs[3])
    own, theirs = (white, black) if turn is Color.WHITE else (black, white)
    return own | theirs << 16


def king_runs(code: int, side: int) -> KingRuns:
    """The inverse of :func:`runs_code`: a core state's runs as :attr:`Position.king_runs`."""
    own, theirs = code & 0xFFFF, code >> 16
    white, black = (own, theirs) if side == 0 else (theirs, own)
    mask = (1 << RUN_SHIFT) - 1

    def unpack(run: int) -> tuple[int, int]:
        return (1 << (run & mask), run >> RUN_SHIFT) if run else (0, 0)

    return (*unpack(white), *unpack(black))


def core_state(position: Position) -> CoreState:
    """``position`` from the side to move, as every call of the core takes it: with its runs
    where the variant keeps them (the five items alone elsewhere, as callers have unpacked
    them since before the runs existed)."""
    white = position.turn is Color.WHITE
    placement = (
        (position.white_men, position.white_kings, position.black_men, position.black_kings, 0)
        if white
        else (position.black_men, position.black_kings, position.white_men, position.white_kings, 1)
    )
    if not position.variant.king_move_limit:
        return placement
    return (*placement, runs_code(position.king_runs, position.turn))


def legal_moves(position: Position) -> list[RawMove]:
    """The core's legal moves of ``position``: the list ``rules`` gives for the same bitboards
    (:meth:`rules.movegen.MoveGenerator.moves_raw`), one raw move per capture path, same order."""
    return core_rules(position.variant).legal_moves(*core_state(position))


def make(variant: Variant, state: CoreState, move: RawMove) -> CoreState:
    """The state after ``move`` (a legal move of ``state``), from the new side to move."""
    return core_rules(variant).make(*state, move)


def perft(position: Position, depth: int) -> int:
    """:func:`rules.perft.perft` computed by the core (the GIL is released while it runs)."""
    return core_rules(position.variant).perft(*core_state(position), depth)
