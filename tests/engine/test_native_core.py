"""The native core (``engine._core``, C) against the referee (``rules``, pure Python).

Issue 17 moves the engine's hot loop to C, and the one promise that makes that safe is that the
core's move generation equals ``rules`` move for move in every variant.  Proved here four ways:

- perft from every start position equals ``rules``' perft depth by depth, and the perft figures the
  repository records (``tests/support/perft/*.perft``, ``bench/perft.py``'s published series) are
  reached by the core alone, deeper than the Python comparison goes;
- thousands of positions per variant from random playouts refereed by ``rules`` (kings, multiple
  and majority captures, crowning during captures): the core's raw moves are ``rules``' raw moves
  as a list (same multiset, duplicates of different paths included, even the same order), its
  move count and its make-move agree, and perft 3 agrees on a sample;
- every position the rules' own tests were written around, in every variant where it fits, and
  random placements of men and kings (hypothesis);
- the bridge (:mod:`engine.native`) maps every rule of a Variant and nothing else.

The core is built by ``pip install`` (setup.py); without it these tests cannot import it and fail.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import random
import re
import shlex
import subprocess
import sys
import sysconfig
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.perft_records import PERFT_DIR, read_perft_file
from support.sample_games import HELPMATE
from support.variant_sets import one_per_rules

from engine import _core, _core_wide, native
from engine.native import (
    CROWNING_CODES,
    GOAL_CODES,
    PRECEDENCE_CODES,
    CoreState,
    core_rules,
    core_state,
)
from engine.reference.board import make as engine_make
from engine.reference.board import state_of
from rules.fen import FenError, parse_fen
from rules.movegen import RawMove, generator
from rules.notation import parse_move
from rules.perft import perft as rules_perft
from rules.position import NO_RUNS, Position
from rules.variants import (
    ENGLISH,
    INTERNATIONAL,
    TURKISH,
    VARIANTS,
    Color,
    Crowning,
    Goal,
    Precedence,
    Variant,
)

ROOT = Path(__file__).resolve().parent.parent.parent
CORE_SOURCES = ROOT / "engine" / "core"
KEYS = list(VARIANTS)
ALL = [pytest.param(v, id=k) for k, v in VARIANTS.items()]
DISTINCT = [pytest.param(v, id=v.key) for v in one_per_rules(VARIANTS.values(), draws=False)]
"""One variant of each set of move rules (see support/variant_sets.py), for the long walks."""


def rules_moves(variant: Variant, state: CoreState) -> list[RawMove]:
    """The referee's raw moves for a core state (its kings' runs included, where it has them)."""
    if len(state) > 5:
        moves = position_of(variant, state).legal_moves()
        return [(m.from_bit, m.to_bit, m.capture_mask, m.crowns) for m in moves]
    men, kings, opp_men, opp_kings, side = state
    return generator(variant).moves_raw(men, kings, opp_men, opp_kings, side)


def position_of(variant: Variant, state: CoreState) -> Position:
    men, kings, opp_men, opp_kings, side = state[:5]
    runs = native.king_runs(state[5], side) if len(state) > 5 else NO_RUNS
    if side == 0:
        return Position(variant, men, kings, opp_men, opp_kings, Color.WHITE, king_runs=runs)
    return Position(variant, opp_men, opp_kings, men, kings, Color.BLACK, king_runs=runs)


def assert_same_moves(variant: Variant, state: CoreState) -> list[RawMove]:
    """The core's moves, count and perft 1 equal the referee's in ``state``; returns the moves."""
    expected = rules_moves(variant, state)
    core = core_rules(variant)
    assert core.legal_moves(*state) == expected, position_of(variant, state).fen()
    assert core.count(*state) == len(expected), position_of(variant, state).fen()
    return expected


# -- perft ---------------------------------------------------------------------------------------

PYTHON_LEAVES = 3_000_000
"""The largest start-position perft compared with ``rules`` (a second or two in Python): depth 8
on most 8x8 boards, 7 on 10x10 and in thai (14.5 million leaves at depth 8 took 9 s)."""


@pytest.mark.parametrize("variant", DISTINCT)
def test_start_perft_equals_rules_at_every_depth(variant: Variant) -> None:
    start = Position.start(variant)
    deepest = max(d for d in range(1, 9) if native.perft(start, d) <= PYTHON_LEAVES)
    depths = range(0, deepest + 1)
    assert [native.perft(start, d) for d in depths] == [rules_perft(start, d) for d in depths]


def _load_bench_perft() -> ModuleType:
    """``bench/perft.py`` (not a package), for the published series it records."""
    spec = importlib.util.spec_from_file_location("bench_perft", ROOT / "bench" / "perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def recorded_perft() -> list[tuple[str, Position, int, int]]:
    """Every perft figure the repository records: (label, position, depth, leaves)."""
    figures = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        for record in read_perft_file(path):
            variant = VARIANTS[record.variant]
            start = record.fen == "start"
            pos = Position.start(variant) if start else parse_fen(record.fen, variant)
            figures += [(record.id, pos, d, n) for d, n in record.counts.items()]
    for (key, depth), leaves in _load_bench_perft().PUBLISHED.items():
        figures.append((f"{key}-published", Position.start(VARIANTS[key]), depth, leaves))
    # docs/BENCHMARKS.md, "Beyond these depths": rules' own count at International depth 8 (the
    # published 6,483,961 merges ten pairs of capture paths that we count apart).
    figures.append(("international-rules", Position.start(INTERNATIONAL), 8, 6_483_971))
    return figures


CORE_LEAVES = 200_000_000
"""The largest recorded figure checked here (a second or two in the core); the deeper ones are
bench/perft.py's (frisian's depth 11, 521 million leaves, takes some 20 s)."""


def test_recorded_perft_figures_by_the_core_alone() -> None:
    figures = [f for f in recorded_perft() if f[3] <= CORE_LEAVES]
    assert len(figures) >= 40
    beyond = [
        (label, depth)
        for label, pos, depth, _ in figures
        if pos == Position.start(pos.variant) and native.perft(pos, depth) > PYTHON_LEAVES
    ]
    assert beyond, "no recorded figure deeper than the Python comparison: the core is not alone"
    wrong = {
        f"{label} d{depth}": (got, leaves)
        for label, pos, depth, leaves in figures
        if (got := native.perft(pos, depth)) != leaves
    }
    assert wrong == {}


def test_turkish_start_perft_by_the_core_equals_the_published_count() -> None:
    # Sanavesa/kish, examples/perft.rs, lines 22-36: 8, 64, 708, 7538, 85090, 931312, 10782382,
    # 123290300 from Turkish draughts' start (depth 8 takes the core about a second).
    start = Position.start(TURKISH)
    published = [8, 64, 708, 7_538, 85_090, 931_312, 10_782_382, 123_290_300]
    assert [native.perft(start, d) for d in range(1, 9)] == published


def test_perft_of_a_position_with_more_moves_than_the_stack_buffer() -> None:
    # Six flying kings among 26 black pieces: 490 capture paths (27 distinct raw moves), more
    # than the 256 a ply keeps on the C stack, so legal_moves and perft take the heap path.
    pos = parse_fen(
        "W:WK1,K23,K25,K37,K39,K44:B6,8,10,11,17,19,26,40,45,"
        "K3,K9,K12,K20,K21,K22,K31,K32,K34,K41,K42,K46,K50",
        INTERNATIONAL,
    )
    moves = assert_same_moves(INTERNATIONAL, core_state(pos))
    assert len(moves) == 490 > 256
    assert [native.perft(pos, d) for d in (1, 2, 3)] == [rules_perft(pos, d) for d in (1, 2, 3)]


def test_perft_depth_zero_and_below_is_one() -> None:
    start = Position.start(ENGLISH)
    assert native.perft(start, 0) == native.perft(start, -3) == 1
    with pytest.raises(ValueError, match="depth"):
        native.perft(start, 65)


# -- random playouts refereed by rules -----------------------------------------------------------


@dataclasses.dataclass
class Seen:
    """What the playouts of one variant reached, so the test can say it checked something."""

    positions: int = 0
    king_moves: int = 0
    king_captures: int = 0
    multi_captures: int = 0
    crowning_captures: int = 0
    crowned_mid_capture: int = 0
    through_far_row_uncrowned: int = 0
    precedence_cut: int = 0
    duplicate_paths: int = 0
    crossed_taken: int = 0
    king_turned_square: int = 0
    turning_back_cut: int = 0
    cross_captures: int = 0
    frozen_kings: int = 0
    perft_checked: int = 0


def _tally(variant: Variant, state: CoreState, moves: list[RawMove], seen: Seen) -> None:
    men, kings, opp_men, opp_kings, side = state[:5]
    far_row = variant.geometry.top_row if side == 0 else variant.geometry.bottom_row
    seen.positions += 1
    seen.king_moves += any(fb & kings for fb, _, _, _ in moves)
    seen.king_captures += any(fb & kings and dead for fb, _, dead, _ in moves)
    seen.multi_captures += any(dead.bit_count() >= 2 for _, _, dead, _ in moves)
    seen.crowning_captures += any(dead and crowns for _, _, dead, crowns in moves)
    seen.crowned_mid_capture += any(
        dead and crowns and not tb & far_row for _, tb, dead, crowns in moves
    )
    seen.duplicate_paths += len(set(moves)) < len(moves)
    seen.frozen_kings += len(state) > 5 and position_of(variant, state).frozen_king != 0
    if moves and moves[0][2]:
        sequences = generator(variant).captures(men, kings, opp_men, opp_kings, side)
        seen.through_far_row_uncrowned += any(
            not king and men >> path[0] & 1 and any(far_row >> g & 1 for g in path[1:-1])
            for path, _, king, _ in sequences
        )
        if variant.captures_removed_at_once:
            seen.crossed_taken += any(
                _crosses_taken(variant, path, caps) for path, caps, *_ in sequences
            )
        if variant.flying_kings and kings:
            seen.king_turned_square += any(
                kings >> path[0] & 1 and _turns_square(variant, path) for path, *_ in sequences
            )
        if not variant.king_turns_back and kings:
            # The same position where kings may turn back: other moves, so the rule cut some.
            turning = generator(_turning_back(variant))
            seen.turning_back_cut += turning.moves_raw(*state[:5]) != moves
        if variant.captures_in_eight_directions:
            # A leg along a row or a column (frisian), by a man or a king.
            seen.cross_captures += any(
                max(_directions(variant, path)) >= 4 for path, *_ in sequences
            )
        if variant.capture_precedence:
            free = generator(_free_choice(variant))
            seen.precedence_cut += len(free.moves_raw(men, kings, opp_men, opp_kings, side)) > len(
                moves
            )


def _crosses_taken(variant: Variant, path: tuple[int, ...], caps: tuple[int, ...]) -> bool:
    """Whether a capture passes over or lands on the square of a piece it took before (possible
    only where captured pieces leave the board at once)."""
    rays = variant.geometry.rays
    for j in range(1, len(path) - 1):
        start, end = path[j], path[j + 1]
        way = next(ray for ray in rays[start] if end in ray)
        if set(way[: way.index(end) + 1]) & set(caps[:j]):
            return True
    return False


def _directions(variant: Variant, path: tuple[int, ...]) -> list[int]:
    """The direction of each leg of a capture path."""
    rays = variant.geometry.rays
    return [
        next(d for d, ray in enumerate(rays[start]) if end in ray)
        for start, end in itertools.pairwise(path)
    ]


def _turns_square(variant: Variant, path: tuple[int, ...]) -> bool:
    """Whether a capture path turns by a right angle between two legs (neither going on nor
    turning back: on the orthogonal board, from a column onto a row or the other way)."""
    legs = _directions(variant, path)
    return any(b not in (a, a ^ 3) for a, b in itertools.pairwise(legs))


@cache
def _turning_back(variant: Variant) -> Variant:
    return dataclasses.replace(variant, king_turns_back=True)


@cache
def _free_choice(variant: Variant) -> Variant:
    return dataclasses.replace(variant, capture_precedence=())


def playouts(variant: Variant, games: int, seed: int, perft_every: int) -> Seen:
    """Random games refereed by ``rules`` (Position.legal_moves / play); at every position the
    core must agree with the referee."""
    rng = random.Random(seed)
    core = core_rules(variant)
    seen = Seen()
    for _ in range(games):
        pos = Position.start(variant)
        for _ in range(300):
            state = core_state(pos)
            raw = assert_same_moves(variant, state)
            _tally(variant, state, raw, seen)
            if seen.positions % perft_every == 0:
                assert native.perft(pos, 3) == rules_perft(pos, 3), pos.fen()
                seen.perft_checked += 1
            moves = pos.legal_moves()
            assert [(m.from_bit, m.to_bit, m.capture_mask, m.crowns) for m in moves] == raw
            if not moves:
                break
            i = rng.randrange(len(moves))
            pos = pos.play(moves[i])
            assert core.make(*state, raw[i]) == core_state(pos), pos.fen()
    return seen


@pytest.mark.parametrize("variant", DISTINCT)
def test_random_playouts_core_equals_rules(variant: Variant) -> None:
    # A row of men a side (frysk) makes short games: more of them reach as many kings.
    seen = playouts(variant, games=400 if variant.men_rows > 1 else 600, seed=17, perft_every=10)
    assert seen.positions >= 15_000
    assert seen.perft_checked >= 1_500
    # The playouts must reach what makes the generator hard, or they prove little.
    assert seen.king_moves >= 1_000 and seen.king_captures >= 200
    assert seen.multi_captures >= 500 and seen.crowning_captures >= 100
    if variant.crowning is Crowning.CONTINUES_AS_KING:
        assert seen.crowned_mid_capture >= 50
    if variant.crowning is Crowning.AT_END and variant.men_capture_backward:
        assert seen.through_far_row_uncrowned >= 50
    if variant.capture_precedence:
        assert seen.precedence_cut >= 100
    if variant.flying_kings and not variant.king_stops_behind:
        # Two paths with the same origin, destination and captured pieces are two raw moves in
        # rules (perft counts landing paths); the core must list both.
        assert seen.duplicate_paths >= 1
    if variant.captures_removed_at_once:
        # Kings crossing or landing on the squares of the pieces they have just taken (thai).
        assert seen.crossed_taken >= 5
    if variant.flying_kings and variant.orthogonal:
        # Rook-like kings taking along a column, then along a row (turkish).
        assert seen.king_turned_square >= 100
    if variant.captures_in_eight_directions:
        # Captures with a leg along a row or a column (frisian).
        assert seen.cross_captures >= 500
    if variant.king_move_limit:
        # Kings that had made their limit of moves in a row and could only capture.
        assert seen.frozen_kings >= 10
    if not variant.king_turns_back:
        # Positions where a king could have turned back over the square it had just emptied
        # (captured pieces removed at once) had the rule not forbidden it.
        assert seen.turning_back_cut >= 20


def rule_combinations() -> list[Variant]:
    """Every combination of the rule data the core reads, on both board sizes, including ones
    no variant uses yet (a man that crowns and stops although it could capture backwards, say):
    some rules only show in such company, and a new variant will be a new combination."""
    out = []
    for base in (ENGLISH, INTERNATIONAL):
        for backward, flying, (name, precedence), crowning in itertools.product(
            (False, True), (False, True), PRECEDENCES.items(), Crowning
        ):
            out.append(
                dataclasses.replace(
                    base,
                    key=f"{base.size}-{int(backward)}{int(flying)}-{name}-{crowning.name}",
                    men_capture_backward=backward,
                    flying_kings=flying,
                    capture_precedence=precedence,
                    crowning=crowning,
                    # Men that spare kings come with the full precedence, as in italian.
                    men_capture_kings=len(precedence) < 4,
                )
            )
        # Kings that stop just beyond their victim and pieces removed at once (thai), each
        # alone and together, with men that capture backwards or not and the majority rule.
        for stop, at_once, backward in itertools.product((False, True), repeat=3):
            if stop or at_once:
                out.append(
                    dataclasses.replace(
                        base,
                        key=f"{base.size}-thai-{int(stop)}{int(at_once)}{int(backward)}",
                        men_capture_backward=backward,
                        flying_kings=True,
                        king_stops_behind=stop,
                        captures_removed_at_once=at_once,
                    )
                )
    # The orthogonal board (turkish): its own flags, kings that may or may not turn back with
    # captured pieces removed at once or left as a barrier, and the other rules of the first
    # loop in its company (men that capture backwards, kings that step, each crowning, no
    # precedence, kings that stop beyond their victim).
    for turns_back, at_once in itertools.product((False, True), repeat=2):
        out.append(
            dataclasses.replace(
                TURKISH,
                key=f"orthogonal-turn-{int(turns_back)}{int(at_once)}",
                king_turns_back=turns_back,
                captures_removed_at_once=at_once,
            )
        )
    for backward, flying, crowning in itertools.product((False, True), (False, True), Crowning):
        out.append(
            dataclasses.replace(
                TURKISH,
                key=f"orthogonal-{int(backward)}{int(flying)}-{crowning.name}",
                men_capture_backward=backward,
                flying_kings=flying,
                crowning=crowning,
            )
        )
    # Captures along rows and columns too and a limit on a king's moves in a row (frisian), with
    # the other rules of the first loop in their company, on both board sizes.
    for base in (ENGLISH, INTERNATIONAL):
        for backward, flying, (name, precedence), limit in itertools.product(
            (False, True), (False, True), PRECEDENCES.items(), (0, 1, 3)
        ):
            if name != "italian":
                out.append(
                    dataclasses.replace(
                        base,
                        key=f"{base.size}-eight-{int(backward)}{int(flying)}-{name}-{limit}",
                        men_capture_backward=backward,
                        flying_kings=flying,
                        capture_precedence=precedence,
                        captures_in_eight_directions=True,
                        king_move_limit=limit,
                    )
                )
    out.append(dataclasses.replace(TURKISH, key="orthogonal-free", capture_precedence=()))
    out.append(dataclasses.replace(TURKISH, key="orthogonal-stop", king_stops_behind=True))
    return out


PRECEDENCES: dict[str, tuple[Precedence, ...]] = {
    "free": (),
    "majority": (Precedence.MOST_PIECES,),
    "quality": (Precedence.MOST_PIECES, Precedence.MOST_KINGS),
    "king": (Precedence.WITH_KING,),
    "italian": (
        Precedence.MOST_PIECES,
        Precedence.WITH_KING,
        Precedence.MOST_KINGS,
        Precedence.KINGS_FIRST,
    ),
    "value": (Precedence.MOST_VALUE, Precedence.WITH_KING),
}
"""The capture precedences the variants use (the criteria in their order)."""


@pytest.mark.parametrize("variant", [pytest.param(v, id=v.key) for v in rule_combinations()])
def test_every_combination_of_the_rule_data(variant: Variant) -> None:
    start = Position.start(variant)
    assert [native.perft(start, d) for d in range(1, 6)] == [
        rules_perft(start, d) for d in range(1, 6)
    ]
    # Pieces that also capture along rows and columns end the games sooner: more of them.
    seen = playouts(
        variant, games=60 if variant.captures_in_eight_directions else 40, seed=3, perft_every=10
    )
    assert seen.positions >= 1_500 and seen.king_captures >= 10


def test_the_sample_game_replays_with_the_core_agreeing() -> None:
    pos = Position.start(ENGLISH)
    for text in HELPMATE:
        state = core_state(pos)
        assert_same_moves(ENGLISH, state)
        move = parse_move(pos, text)
        pos = pos.play(move)
        raw = (move.from_bit, move.to_bit, move.capture_mask, move.crowns)
        assert native.make(ENGLISH, state, raw) == core_state(pos)
    assert native.legal_moves(pos) == []


# -- the rules' own test positions ---------------------------------------------------------------


def rules_test_positions() -> list[tuple[Variant, Position]]:
    """Every FEN written in the rules' tests, in every variant whose board it fits: the positions
    chosen by hand to show each rule (landing squares, crowning mid-capture, majority, ...)."""
    texts: set[str] = set()
    for path in sorted((ROOT / "tests" / "rules").glob("test_rules_*.py")):
        texts |= set(re.findall(r"\"([WB]:[^\"]*)\"", path.read_text()))
    found = []
    for text in sorted(texts):
        for variant in VARIANTS.values():
            try:
                found.append((variant, parse_fen(text, variant)))
            except (FenError, ValueError):
                continue
    return found


def test_the_positions_of_the_rules_tests() -> None:
    found = rules_test_positions()
    assert len(found) >= 300
    for variant, pos in found:
        assert_same_moves(variant, core_state(pos))
        assert native.perft(pos, 3) == rules_perft(pos, 3), (variant.key, pos.fen())


# -- random placements (hypothesis) --------------------------------------------------------------


@st.composite
def placements(draw: st.DrawFn, variant: Variant) -> CoreState:
    """Men and kings of both sides on random squares, about half the board filled, no man on
    its own crowning row (where it would have been crowned), either side to move; where the
    variant limits a king's moves in a row, a run of 0 to the limit for one king of each side."""
    g = variant.geometry
    side = draw(st.integers(0, 1))
    own_far, opp_far = (g.top_row, g.bottom_row) if side == 0 else (g.bottom_row, g.top_row)
    kinds = draw(st.lists(st.integers(0, 9), min_size=g.squares, max_size=g.squares))
    boards = [0, 0, 0, 0]
    for square, kind in enumerate(kinds, start=1):
        bit = g.bit(square)
        piece = {5: 0, 6: 1, 7: 2, 8: 3, 9: 2}.get(kind)  # own man, own king, their man/king
        if (piece == 0 and bit & own_far) or (piece == 2 and bit & opp_far):
            piece += 1
        if piece is not None:
            boards[piece] |= bit
    placement = (boards[0], boards[1], boards[2], boards[3], side)
    limit = variant.king_move_limit
    if not limit:
        return placement
    runs = 0
    for half, kings in enumerate((boards[1], boards[3])):
        squares = g.squares_in(kings)
        run = draw(st.integers(0, limit)) if squares else 0
        if run:
            bit = g.bit(draw(st.sampled_from(squares)))
            runs |= ((bit.bit_length() - 1) | run << native.RUN_SHIFT) << (16 * half)
    return (*placement, runs)


@pytest.mark.parametrize("key", KEYS)
@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_placements_core_equals_rules(key: str, data: st.DataObject) -> None:
    variant = VARIANTS[key]
    state = data.draw(placements(variant))
    moves = assert_same_moves(variant, state)
    core = core_rules(variant)
    runs = native.king_runs(state[5], state[4]) if len(state) > 5 else None
    for move in moves[:8]:
        child = core.make(*state, move)
        reference = engine_make((*state[:5], 0, runs), move)
        assert child[:5] == reference[:5]
        if runs is not None:
            turn = Color.WHITE if reference[4] == 0 else Color.BLACK
            assert reference[6] is not None
            assert child[5] == native.runs_code(reference[6], turn)
        assert_same_moves(variant, child)


# -- the bridge: Variant -> core rules, Position -> core state -----------------------------------


@pytest.mark.parametrize("variant", ALL)
def test_core_rules_carry_the_variants_data(variant: Variant) -> None:
    core = core_rules(variant)
    g = variant.geometry
    assert (core.size, core.squares, core.valid) == (g.size, g.squares, g.valid)
    assert (core.top_row, core.bottom_row) == (g.top_row, g.bottom_row)
    assert core.men_capture_backward is variant.men_capture_backward
    assert core.flying_kings is variant.flying_kings
    assert core.precedence == tuple(PRECEDENCE_CODES[c] for c in variant.capture_precedence)
    assert core.majority_only is (variant.capture_precedence == (Precedence.MOST_PIECES,))
    assert core.men_capture_kings is variant.men_capture_kings
    assert core.goal == GOAL_CODES[variant.goal]
    assert core.crowning == CROWNING_CODES[variant.crowning]
    assert core.mirrored is variant.mirrored
    assert core.king_stops_behind is variant.king_stops_behind
    assert core.captures_removed_at_once is variant.captures_removed_at_once
    assert core.orthogonal is variant.orthogonal
    assert core.king_turns_back is variant.king_turns_back
    assert core.lone_pieces_draw is variant.lone_pieces_draw is (variant.key == "turkish")
    assert core.captures_in_eight_directions is variant.captures_in_eight_directions
    assert core.king_move_limit == variant.king_move_limit
    assert core_rules(variant) is core


def test_every_rule_value_has_a_core_code() -> None:
    assert set(CROWNING_CODES) == set(Crowning)
    assert sorted(CROWNING_CODES.values()) == sorted(
        {_core.ENDS_MOVE, _core.AT_END, _core.CONTINUES_AS_KING}
    )
    assert set(PRECEDENCE_CODES) == set(Precedence)
    assert sorted(PRECEDENCE_CODES.values()) == sorted(
        {
            _core.PREFER_MOST_PIECES,
            _core.PREFER_WITH_KING,
            _core.PREFER_MOST_KINGS,
            _core.PREFER_KINGS_FIRST,
            _core.PREFER_MOST_VALUE,
        }
    )
    assert set(GOAL_CODES) == set(Goal)
    assert sorted(GOAL_CODES.values()) == sorted(
        {_core.GOAL_STANDARD, _core.GOAL_GIVE_AWAY, _core.GOAL_FIRST_KING}
    )


def test_a_variant_is_played_by_its_data_not_its_name() -> None:
    # English rules under another name and key play as English; change one rule and they do not.
    renamed = dataclasses.replace(ENGLISH, key="renamed", title="Renamed", aliases=())
    start = Position.start(renamed)
    assert native.perft(start, 7) == native.perft(Position.start(ENGLISH), 7)
    flying = dataclasses.replace(renamed, flying_kings=True, men_capture_backward=True)
    assert native.perft(Position.start(flying), 7) == rules_perft(Position.start(flying), 7)
    assert native.perft(Position.start(flying), 7) != native.perft(start, 7)


def test_unsupported_rules_are_refused() -> None:
    # 12x12 is the wide build's (its ghost layout needs 77 bits); 14x14 neither build's.
    with pytest.raises(ValueError, match="size 12 \\(even, 4 to 10"):
        _core.Rules(12, True, True, (), _core.AT_END)
    with pytest.raises(ValueError, match="size 14 \\(even, 4 to 12"):
        core_rules(dataclasses.replace(INTERNATIONAL, size=14))
    for size in (7, 2, 0, -8):
        with pytest.raises(ValueError):
            _core.Rules(size, True, True, (), _core.AT_END)
    with pytest.raises(ValueError, match="crowning"):
        _core.Rules(8, True, True, (), 3)
    value, first = _core.PREFER_MOST_VALUE, _core.PREFER_KINGS_FIRST
    for precedence in ((0,), (6,), (1, 1, 1, 1, 1), (value, first)):
        with pytest.raises(ValueError):
            _core.Rules(8, True, True, precedence, _core.AT_END)
    # Eight-way captures are for the diagonal boards; a run is kept up to MAX_KING_RUN moves.
    with pytest.raises(ValueError, match="eight-way"):
        _core.Rules(
            8, True, True, (), _core.AT_END, orthogonal=True, captures_in_eight_directions=True
        )
    for limit in (-1, _core.MAX_KING_RUN + 1):
        with pytest.raises(ValueError, match="king move limit"):
            _core.Rules(10, True, True, (), _core.AT_END, king_move_limit=limit)
    with pytest.raises(ValueError, match="goal"):
        _core.Rules(8, True, True, (), _core.AT_END, goal=3)
    with pytest.raises(TypeError):
        _core.Rules(8, True, True, None, _core.AT_END)
    # The orthogonal board fills 64 bits at 8x8 and has no mirrored layout.
    for size, mirrored in ((10, False), (8, True)):
        with pytest.raises(ValueError, match="orthogonal"):
            _core.Rules(size, False, True, (), _core.AT_END, orthogonal=True, mirrored=mirrored)
    defaults = _core.Rules(8, True, True, (), _core.AT_END)
    assert defaults.orthogonal is False and defaults.king_turns_back is True
    assert defaults.lone_pieces_draw is False


def test_an_immediate_draw_the_core_does_not_know_is_refused() -> None:
    """The core knows one immediate draw, one piece against one; an endgame rule of no moves
    for any other material must fail loudly rather than be played as if it were that one."""
    turkish = VARIANTS["turkish"]
    (one_each,) = turkish.endgames
    two_kings = dataclasses.replace(one_each, strong=lambda m: m[0] == 2 and m[2] == 1)
    other = dataclasses.replace(turkish, key="turkish-other", endgames=(two_kings,))
    with pytest.raises(ValueError, match="immediate draw"):
        native.core_rules(other)


@pytest.mark.parametrize("variant", ALL)
def test_each_board_is_played_by_the_narrowest_build_that_holds_it(variant: Variant) -> None:
    """engine._core (64-bit boards) up to 10x10, engine._core_wide (128-bit) beyond: the rules,
    the searcher and the endgame tables of a variant all come from that build."""
    wide = variant.size > _core.MAX_SIZE
    build = native.core_module(variant)
    assert build is (_core_wide if wide else _core)
    assert isinstance(core_rules(variant), build.Rules)
    assert core_rules(variant).valid.bit_length() <= build.MAX_BITS


@pytest.mark.parametrize("variant", ALL)
def test_core_state_is_the_position_from_the_side_to_move(variant: Variant) -> None:
    start = Position.start(variant)
    black = Position.from_squares(
        variant, Color.BLACK, (variant.geometry.squares,), (20,), (3,), (1,)
    )
    for pos in (start, black, start.play(start.legal_moves()[0])):
        assert core_state(pos)[:5] == state_of(pos)[:5]
        assert len(core_state(pos)) == (6 if variant.king_move_limit else 5)
        assert position_of(variant, core_state(pos)).fen() == pos.fen()


def test_bad_positions_and_moves_are_refused() -> None:
    core = core_rules(ENGLISH)
    g = ENGLISH.geometry
    a, b = g.bit(1), g.bit(2)
    ghost = 1 << 8  # after squares 1..8: the first ghost bit of 8x8
    assert not ghost & g.valid
    with pytest.raises(ValueError, match="same square"):
        core.legal_moves(a, a, 0, 0, 0)
    with pytest.raises(ValueError, match="same square"):
        core.legal_moves(a, 0, 0, a, 0)
    with pytest.raises(ValueError, match="outside"):
        core.legal_moves(ghost, 0, b, 0, 0)
    with pytest.raises(ValueError, match="side"):
        core.count(a, 0, b, 0, 2)
    with pytest.raises(OverflowError):
        core.legal_moves(-1, 0, 0, 0, 0)
    with pytest.raises(TypeError):
        core.legal_moves(a, 0, b, 0)  # type: ignore[call-arg]
    state = core_state(Position.start(ENGLISH))
    with pytest.raises(ValueError, match="does not fit"):
        core.make(*state, (g.bit(24), g.bit(20), 0, False))  # the opponent's piece
    with pytest.raises(TypeError, match="tuple"):
        core.make(*state, [g.bit(9), g.bit(13), 0, False])  # type: ignore[arg-type]


# -- the C sources -------------------------------------------------------------------------------


@pytest.mark.parametrize("build", [[], ["-DCORE_WIDE=1"]], ids=["64-bit", "wide"])
def test_the_c_sources_compile_without_warnings(tmp_path: Path, build: list[str]) -> None:
    """setup.py builds with these flags, both ways (engine._core, and engine._core_wide with
    CORE_WIDE); a warning there is an error here (compiled for real, not only parsed: some
    warnings come from the optimiser)."""
    flags = ["-std=c11", "-O2", "-Wall", "-Wextra"]
    setup = (ROOT / "setup.py").read_text()
    assert f"FLAGS = {flags!r}".replace("'", '"') in setup
    assert setup.count("extra_compile_args=FLAGS") == 2 and '("CORE_WIDE", "1")' in setup
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")
    include = f"-I{sysconfig.get_paths()['include']}"
    for source in sorted(CORE_SOURCES.glob("*.c")):
        output = str(tmp_path / f"{source.stem}.o")
        done = subprocess.run(
            [
                *compiler,
                *flags,
                *build,
                "-Werror",
                "-fPIC",
                include,
                "-c",
                str(source),
                "-o",
                output,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{source.name}:\n{done.stderr}"


def test_the_c_sources_never_name_a_variant() -> None:
    """The core is driven by a Variant's data: no variant's key or alias appears in it."""
    text = "\n".join(p.read_text() for p in sorted(CORE_SOURCES.glob("*.[ch]"))).lower()
    names = {n for v in VARIANTS.values() for n in (v.key, *v.aliases) if n[0].isalpha()}
    assert {n for n in names if re.search(rf"\b{re.escape(n)}\b", text)} == set()
