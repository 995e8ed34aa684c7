"""Perft: start positions against published counts, small hand-counted trees with kings, and the
bulk leaf counter against the move generator over many positions of real games."""

from __future__ import annotations

import random

import pytest
from support.perft_records import PERFT_DIR, PerftRecord, read_perft_file

from engine import endgame
from engine.native import core_rules, core_state
from engine.native import perft as core_perft
from rules.fen import parse_fen
from rules.perft import divide, perft
from rules.position import Position
from rules.variants import (
    BRAZILIAN,
    DAME,
    ENGLISH,
    INTERNATIONAL,
    POOL,
    RUSSIAN,
    VARIANTS,
    Color,
    find_variant,
)


def _record_position(record: PerftRecord) -> Position:
    variant = find_variant(record.variant)
    if record.fen == "start":
        return Position.start(variant)
    return parse_fen(record.fen, variant)


PERFT_CASES = [
    pytest.param(record, depth, count, id=f"{record.id}-d{depth}")
    for path in sorted(PERFT_DIR.glob("*.perft"))
    for record in read_perft_file(path)
    for depth, count in sorted(record.counts.items())
]


def test_perft_files_are_found_and_cover_the_published_tables():
    ids = {record.id for path in PERFT_DIR.glob("*.perft") for record in read_perft_file(path)}
    assert {"english-start", "international-start", "brazilian-start"} <= ids
    assert len(PERFT_CASES) >= 20


@pytest.mark.parametrize(("record", "depth", "count"), PERFT_CASES)
def test_perft_file(record: PerftRecord, depth: int, count: int):
    assert perft(_record_position(record), depth) == count


def test_english_start_perft_published():
    start = Position.start(ENGLISH)
    expected = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
    assert [perft(start, d) for d in range(1, 9)] == expected


def test_international_start_perft_published():
    start = Position.start(INTERNATIONAL)
    expected = [9, 81, 658, 4265, 27117, 167140]
    assert [perft(start, d) for d in range(1, 7)] == expected


def test_brazilian_start_perft_published():
    start = Position.start(BRAZILIAN)
    expected = [7, 49, 302, 1469, 7473, 37628]
    assert [perft(start, d) for d in range(1, 7)] == expected


def test_dame_moves_exactly_like_english():
    # Same board, men, kings, captures and crowning: only the draw rules differ.
    english, dame = Position.start(ENGLISH), Position.start(DAME)
    assert [perft(dame, d) for d in range(1, 7)] == [perft(english, d) for d in range(1, 7)]


def test_perft_depth_zero_is_one():
    assert perft(Position.start(ENGLISH), 0) == 1


# -- small trees counted by hand ------------------------------------------------------------------


def test_english_short_king_captures_by_hand():
    # White king d4 (18); black men c5 (14), e5 (15), a7 (5).
    # d1: 18x9 (takes 14) or 18x11 (takes 15) = 2.
    # d2: after 18x9 black must capture 5x14; after 18x11 black has 14-17, 14-18, 5-9: 1 + 3 = 4.
    # d3: after 18x9 5x14 White has no piece (0); after 18x11 the king on f6 has e7, g7, e5, g5
    #     after each of the three replies: 3 * 4 = 12.
    pos = parse_fen("W:WK18:B14,15,5", ENGLISH)
    assert [perft(pos, d) for d in (1, 2, 3)] == [2, 4, 12]
    assert divide(pos, 2) == {"18x9": 1, "18x11": 3}


def test_english_kings_in_opposite_corners_by_hand():
    # Black king h8 (4) can only go to g7; White king a1 (29) only to b2; then the black king on
    # g7 has f8, h8, f6, h6.
    pos = parse_fen("B:WK29:BK4", ENGLISH)
    assert [perft(pos, d) for d in (1, 2, 3)] == [1, 1, 4]


@pytest.mark.parametrize("variant", [POOL, RUSSIAN, BRAZILIAN])
def test_flying_kings_on_the_long_diagonal_by_hand(variant):
    # Black king h8 (4) flies to any of g7..b2 (6 moves).  The white king a1 (29) must then
    # capture it, landing on any free square beyond: 1 + 2 + 3 + 4 + 5 + 6 = 21.  Black then has
    # no pieces: depth 3 is 0.
    pos = parse_fen("B:WK29:BK4", variant)
    assert [perft(pos, d) for d in (1, 2, 3)] == [6, 21, 0]
    assert divide(pos, 2) == {"4-8": 1, "4-11": 2, "4-15": 3, "4-18": 4, "4-22": 5, "4-25": 6}


def test_international_flying_king_by_hand():
    # White king a1 (46), black man f6 (23), black king a9 (6).  White must capture f6 and may
    # land on g7, h8, i9 or j10 (4).  The black king then has b10 plus b8..i1 (9) each time: 36.
    pos = parse_fen("W:WK46:B23,K6", INTERNATIONAL)
    assert perft(pos, 1) == 4
    assert divide(pos, 2) == {"46x19": 9, "46x14": 9, "46x10": 9, "46x5": 9}
    assert perft(pos, 2) == 36


def test_international_lone_king_steps_by_hand():
    # King e5 (28) on an empty 10x10 board: 4 + 5 + 4 + 4 = 17 squares along its diagonals; a
    # black man on j10 (5) blocks the last one and cannot be taken (nothing beyond).
    assert perft(parse_fen("W:WK28:B", INTERNATIONAL), 1) == 17
    assert perft(parse_fen("W:WK28:B5", INTERNATIONAL), 1) == 16


# -- the bulk counter against the generator ------------------------------------------------------


def _random_game_positions(variant, games: int, plies: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.start(variant)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            out.append(pos)
            pos = pos.play(rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_perft_one_equals_number_of_legal_moves(variant):
    positions = _random_game_positions(variant, games=12, plies=160, seed=7)
    assert len(positions) > 300
    # Random games must reach kings and captures, or this checks little.
    assert any(p.white_kings | p.black_kings for p in positions)
    assert any(m.is_capture for p in positions for m in p.legal_moves())
    for p in positions:
        assert perft(p, 1) == len(p.legal_moves()), p.fen()


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_perft_two_equals_sum_of_children_moves(variant):
    positions = _random_game_positions(variant, games=4, plies=120, seed=11)[::3]
    for p in positions:
        expected = sum(len(p.play(m).legal_moves()) for m in p.legal_moves())
        assert perft(p, 2) == expected, p.fen()


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_perft_three_equals_divide(variant):
    positions = _random_game_positions(variant, games=2, plies=100, seed=3)[::10]
    for p in positions:
        counts = divide(p, 3)
        assert sum(counts.values()) == perft(p, 3), p.fen()
        assert len(counts) == len(p.legal_moves())


# -- deeper published counts, through the core ---------------------------------------------------

DCTL = "rhalbersma/dctl@21869018f9ae0c2551db4eb28c7733632faf4e97"
"""Rein Halbersma's draughts template library, whose tests hold the damforum thread's perft
tables (test/src/algo/traversal/initial/board_08x08.cpp)."""


def _capture_order_perft(variant, depth: int) -> int:
    """Perft counted as dctl (and the Russian engines Kallisto and Avrora) count it: two capture
    sequences are the same move when they have the same origin, destination and pieces taken in
    the same order.  Ours counts landing paths, which differ only where a flying king could land
    on several squares between two of its jumps and go on from each: wherever the side to move
    has a king its moves are taken from the rules' and merged that way, at the leaves and above
    them alike (the rest of the walk is the core's, equal to the rules' by
    tests/engine/test_native_core.py)."""
    rules = core_rules(variant)
    g = variant.geometry
    total = 0

    def merged(state: tuple[int, int, int, int, int]) -> list[tuple[int, int, int, bool]]:
        own_men, own_kings, opp_men, opp_kings, side = state
        white = (own_men, own_kings, opp_men, opp_kings) if side == 0 else (
            opp_men, opp_kings, own_men, own_kings
        )  # fmt: skip
        pos = Position.from_squares(
            variant, Color.WHITE if side == 0 else Color.BLACK, *map(g.squares_in, white)
        )
        kept = {(m.start, m.end, m.captured): m for m in pos.legal_moves()}
        return [(m.from_bit, m.to_bit, m.capture_mask, m.crowns) for m in kept.values()]

    def walk(state: tuple[int, int, int, int, int], left: int) -> None:
        nonlocal total
        # (a variant whose men crown mid-capture and fly on would need its men merged too)
        moves = merged(state) if state[1] else None
        if left == 1:
            total += rules.count(*state) if moves is None else len(moves)
            return
        if moves is None:
            moves = rules.legal_moves(*state)
            if left == 3 and not state[3] and not any(crowns for *_, crowns in moves):
                # Neither side has a king and the mover crowns none now; the opponent's man
                # move between cannot give either side a flying king to move: the core counts
                # the rest as it is.
                total += rules.perft(*state, 3)
                return
        for move in moves:
            walk(rules.make(*state, move), left - 1)

    walk(core_state(Position.start(variant)), depth)
    return total


@pytest.mark.parametrize(
    ("key", "published"),
    [
        # board_08x08.cpp line 81 (keep list), depths 9 and 10.
        ("czech", {9: 3963671, 10: 18368918}),
        # board_08x08.cpp line 95 (keep list, the Spanish rules of the Portuguese federation's
        # text: portuguese moves as spanish does, test_portuguese_moves_as_spanish), depths 9
        # and 10; depth 11 (81383200) agrees too but takes 14 s.
        ("spanish", {9: 3860866, 10: 17743464}),
    ],
)
def test_published_counts_where_the_first_kings_move(key: str, published: dict[int, int]) -> None:
    """Depth 9 is where kings first change the count on 8x8 (czech's differs from english's
    3963680 by its king rules); at depth 10 a flying king first has two landing squares to go on
    from, which dctl counts as one move and we as two (see :func:`_capture_order_perft`)."""
    variant = find_variant(key)
    start = Position.start(variant)
    assert core_perft(start, 9) == published[9]
    assert _capture_order_perft(variant, 10) == published[10], DCTL
    assert core_perft(start, 10) > published[10]  # the landing paths dctl merges


def test_portuguese_moves_as_spanish() -> None:
    """dctl's Spanish list serves both: the two variants hold the same move rules (the endgame
    tables' signature names every one of them), and depth 9 is the first where kings move."""
    spanish, portuguese = find_variant("spanish"), find_variant("portuguese")
    assert endgame.signature(portuguese) == endgame.signature(spanish)
    assert core_perft(Position.start(portuguese), 9) == 3860866, DCTL


def test_thai_rules_from_dctl_s_twelve_men_start() -> None:
    """dctl's Thai list (board_08x08.cpp lines 116-128, the keep list on line 123) plays thai's
    rules from 12 men a side on three rows, the first player moving first, not from thai's own
    8 men: the same position here (``B:W1-12:B21-32``) to depth 11, where kings have long been
    crowned.  A thai king lands just beyond each piece it takes, so its landing path and its
    capture order are one, and the two ways of counting agree."""
    twelve = parse_fen("B:W1-12:B21-32", find_variant("thai"))
    published = [3963648, 18363523, 84892793]
    assert [core_perft(twelve, depth) for depth in (9, 10, 11)] == published, DCTL


def test_italian_deeper_through_the_core() -> None:
    """dctl's Italian list (board_08x08.cpp line 109) to depth 11: kings step, so no two landing
    paths share a capture order and the two ways of counting agree."""
    start = Position.start(find_variant("italian"))
    published = [177532, 828783, 3860875, 17761384, 81647058]
    assert [core_perft(start, depth) for depth in range(7, 12)] == published, DCTL
