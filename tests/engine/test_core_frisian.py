"""Frisian draughts (and Frysk!, its five-men start) in the native core, the searches and the
endgame tables: captures along rows and columns too, the capture of most value (a king 199, a
man 100), a king's capture first at equal value, and at most three non-capturing moves in a row by
one king while its side has men (the kings' runs, part of the position and of its key).

- The core's perft from the start equals dctl's published Frisian list (github rhalbersma/dctl,
  file board_10x10.cpp, around line 52) to depth 9, and rules' perft for Frysk!.
- Positions where a king has made one, two and three moves in a row, reached by playing king moves
  from random placements: the core's moves, count, make (runs included), perft 3 and key equal
  the referee's (rules) move for move; frozen kings are seen, and the reference search's move
  list honours them too.
- Hand-made positions: a man's capture along a row and along a column, a king's flying capture
  along a row and a column, the value precedence (two men before a king, a king before a man,
  two kings before three men), a king's capture before a man's of the same value, the frozen
  king.
- The searches play only legal moves.  The endgame tables hold the kings alone, which have no
  runs; the search believes their draws, the counts keep it from their wins.
"""

from __future__ import annotations

import random

import pytest

from engine import _core, native, native_search
from engine.endgame import (
    DRAW,
    WIN,
    apply_policy,
    counted_slices,
    new_table,
    signature,
    table_variants,
)
from engine.native import core_rules, core_state
from engine.reference.board import board_for, state_of
from engine.reference.board import make as reference_make
from rules import Game
from rules.fen import parse_fen
from rules.perft import perft as rules_perft
from rules.position import Position
from rules.variants import INTERNATIONAL, VARIANTS, Color, Variant

FRISIAN = VARIANTS["frisian"]
FRYSK = VARIANTS["frysk"]
BOTH = [pytest.param(FRISIAN, id="frisian"), pytest.param(FRYSK, id="frysk")]

DCTL_FRISIAN = (9, 81, 658, 3_880, 21_345, 103_584, 550_314, 2_907_905, 16_204_497)
"""Frisian perft from the start, depths 1-9: dctl's published list (github rhalbersma/dctl, file
board_10x10.cpp, around line 52), which goes on 90,161,025 and 521,287,205."""


def raw_moves(position: Position) -> list[tuple[int, int, int, bool]]:
    return [(m.from_bit, m.to_bit, m.capture_mask, m.crowns) for m in position.legal_moves()]


def texts(variant: Variant, fen: str) -> list[str]:
    """The core's legal moves of ``fen``, written by the rules (after checking they are the
    rules' own)."""
    position = parse_fen(fen, variant)
    core = native.legal_moves(position)
    assert core == raw_moves(position), fen
    return [str(m) for m in position.legal_moves()]


# -- perft -------------------------------------------------------------------------------------


def test_core_perft_from_the_start_equals_dctl_s_published_list() -> None:
    start = Position.start(FRISIAN)
    assert tuple(native.perft(start, d) for d in range(1, 10)) == DCTL_FRISIAN


def test_frysk_core_perft_equals_rules() -> None:
    start = Position.start(FRYSK)
    assert [native.perft(start, d) for d in range(1, 6)] == [
        rules_perft(start, d) for d in range(1, 6)
    ]


# -- kings' runs -------------------------------------------------------------------------------


def _placement(variant: Variant, rng: random.Random) -> Position:
    """One to three kings and two to four men a side on random squares (no man on its crowning
    row), White to move."""
    white_men = rng.sample(range(6, 51), rng.randint(2, 4))
    black_men = rng.sample([s for s in range(1, 46) if s not in white_men], rng.randint(2, 4))
    free = [s for s in range(1, 51) if s not in white_men + black_men]
    kings = rng.sample(free, rng.randint(1, 3) + rng.randint(1, 3))
    half = rng.randint(1, len(kings) - 1)
    return Position.from_squares(
        variant,
        Color.WHITE,
        tuple(sorted(white_men)),
        tuple(sorted(kings[:half])),
        tuple(sorted(black_men)),
        tuple(sorted(kings[half:])),
    )


def _same(position: Position) -> list[tuple[int, int, int, bool]]:
    """Core and rules agree in ``position`` (moves, count, perft 3, key, the reference search's
    move list); the rules' raw moves."""
    variant = position.variant
    core = core_rules(variant)
    state = core_state(position)
    expected = raw_moves(position)
    assert core.legal_moves(*state) == expected, position.fen()
    assert core.count(*state) == len(expected), position.fen()
    assert native.perft(position, 3) == rules_perft(position, 3), position.fen()
    assert native_search.key(position) == position.key, position.fen()
    assert set(board_for(variant).moves(state_of(position))) == set(expected), position.fen()
    return expected


@pytest.mark.parametrize("variant", BOTH)
def test_kings_runs_of_one_two_and_three_moves_agree_with_rules(variant: Variant) -> None:
    """From random placements, White keeps moving one king (any other move when it cannot) and
    Black plays at random: runs of 1, 2 and 3 arise for both sides, and the king that made three
    may only capture.  Every position: core equals rules, and make carries the runs as rules'
    play does (the reference search's make too)."""
    rng = random.Random(40)
    core = core_rules(variant)
    runs_seen: dict[int, int] = {1: 0, 2: 0, 3: 0}
    frozen = 0
    for _ in range(150):
        position = _placement(variant, rng)
        for _ in range(16):
            moves = _same(position)
            if not moves:
                break
            frozen += position.frozen_king != 0
            own_run = position.king_runs[1 if position.turn is Color.WHITE else 3]
            if own_run:
                runs_seen[own_run] += 1
            running = position.king_runs[0]
            if position.turn is Color.WHITE and running:
                choice = [m for m in moves if m[0] == running] or moves
            elif position.turn is Color.WHITE:
                choice = [m for m in moves if m[0] & position.white_kings] or moves
            else:
                choice = moves
            move = rng.choice(choice)
            state = core_state(position)
            played = next(
                m
                for m in position.legal_moves()
                if m.from_bit == move[0] and m.to_bit == move[1] and m.capture_mask == move[2]
            )
            after = position.play(played)
            assert core.make(*state, move) == core_state(after), after.fen()
            reference = reference_make(state_of(position), move)
            assert reference[5] == after.key and reference[6] == after.king_runs, after.fen()
            position = after
    assert min(runs_seen.values()) >= 10, runs_seen
    assert frozen >= 10


def test_the_frozen_king_only_captures() -> None:
    """White's king on 28 has made three moves in a row: it may not step, the man on 46 moves
    instead; with a black man to take, the king takes it (captures are unaffected)."""
    g = FRISIAN.geometry
    runs = (g.bit(28), 3, 0, 0)
    quiet = Position.from_squares(FRISIAN, Color.WHITE, (46,), (28,), (5,), ())
    frozen = Position(
        FRISIAN, quiet.white_men, quiet.white_kings, quiet.black_men, 0, Color.WHITE,
        king_runs=runs,
    )  # fmt: skip
    assert len(native.legal_moves(quiet)) > 10
    assert native.legal_moves(frozen) == raw_moves(frozen)
    assert [str(m) for m in frozen.legal_moves()] == ["46-41"]
    assert core_rules(FRISIAN).count(*core_state(frozen)) == 1
    # Two runs, not three: the king steps.
    two = Position(FRISIAN, frozen.white_men, frozen.white_kings, frozen.black_men, 0,
                   Color.WHITE, king_runs=(g.bit(28), 2, 0, 0))  # fmt: skip
    assert native.legal_moves(two) == native.legal_moves(quiet)
    # A man of Black's to take: the frozen king takes it.
    prey = g.bit(23)
    taking = Position(FRISIAN, frozen.white_men, frozen.white_kings, frozen.black_men | prey, 0,
                      Color.WHITE, king_runs=runs)  # fmt: skip
    assert native.legal_moves(taking) == raw_moves(taking)
    assert all(m.from_bit == g.bit(28) and m.capture_mask == prey for m in taking.legal_moves())
    # Alone, the frozen king has no move: the side to move has lost.
    alone = Position(FRISIAN, 0, frozen.white_kings, frozen.black_men, 0, Color.WHITE,
                     king_runs=runs)  # fmt: skip
    assert native.legal_moves(alone) == raw_moves(alone) == []


# -- hand-made captures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("W:W23:B24", ["23x25"]),  # a man along its row, over the next playing square
        ("W:W28:B18", ["28x8"]),  # along its column, two rows at a time
        ("W:WK21:B24", ["21x25"]),  # a king flying along a row
        ("W:WK46:B26", ["46x16", "46x6"]),  # and along a column, landing anywhere beyond
    ],
)
def test_captures_along_rows_and_columns(fen: str, moves: list[str]) -> None:
    assert texts(FRISIAN, fen) == moves


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        # A king (199) or two men (200): the two men (14 along the row, then 23 down the column).
        ("W:W15:B1,14,20,23,K24,K25,K46", ["15x13x33"]),
        # A king or a man: the king (29, along the row).
        ("W:W30:B34,K19,K29,K31", ["30x28"]),
        # Two kings (398) or three men (300): the kings.
        ("W:W29:B5,15,24,30,44,K13,K23", ["29x18x9"]),
        # A man each, by a man or by a king: the king's capture.
        ("W:W41,K11:B37,44", ["11x50"]),
    ],
)
def test_the_capture_of_most_value_then_by_a_king(fen: str, moves: list[str]) -> None:
    assert texts(FRISIAN, fen) == moves
    # Without the precedence every one of those captures would be allowed.
    position = parse_fen(fen, FRISIAN)
    free = _core.Rules(10, True, True, (), _core.AT_END, captures_in_eight_directions=True)
    assert len(free.legal_moves(*core_state(position)[:5])) > len(moves)


# -- the searches ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_the_native_search_plays_legal_moves_with_runs_in_its_keys(variant: Variant) -> None:
    rng = random.Random(7)
    for _ in range(12):
        position = _placement(variant, rng)
        game = Game(variant, position)
        for _ in range(12):
            if game.is_over:
                break
            found = native_search.search(
                game.position, quiet=0, past=(), max_depth=6, seconds=None, nodes=2_000
            )
            assert found.move is not None
            assert found.move in raw_moves(game.position), game.position.fen()
            fb, tb, taken, _ = found.move
            game.play(
                next(
                    m
                    for m in game.legal_moves()
                    if (m.from_bit, m.to_bit, m.capture_mask) == (fb, tb, taken)
                )
            )
            assert native_search.key(game.position) == game.position.key


# -- endgame tables --------------------------------------------------------------------------------


# Table draws of two kings each, scored above or below 0 by a search without the table.
TABLE_DRAWS = ("W:WK22,K42:BK50,K46", "W:WK14,K36:BK4,K17", "W:WK42,K26:BK34,K6")


@pytest.mark.parametrize("variant", BOTH)
def test_the_endgame_tables_hold_the_kings_alone(variant: Variant) -> None:
    """A table's index holds no runs, and with men on the board a position's value depends on
    them; kings alone have none (the limit binds only while a side has men), so the tables hold
    exactly the endings of kings alone: positions with men are not in them.  The two endgame
    counts (two kings against one, one king each) govern the small slices, and every larger one
    can be captured into them, so the search believes the tables' draws only, never their
    wins (the policy withholds them: without the counts it would believe them all)."""
    assert signature(variant) in {signature(v) for v in table_variants([])}
    table = new_table(variant, 4)
    table.build()
    kings = {(0, a, 0, b) for a in range(1, 4) for b in range(1, 4) if a + b <= 4}
    assert {s[:4] for s in table.slices()} == kings
    with_men = parse_fen("W:W28,K13:BK31", variant)
    assert table.probe(*core_state(with_men)) == 0  # unknown: not in the table
    three_kings = parse_fen("W:WK1,K5,K46:BK23", variant)
    assert table.probe(*core_state(three_kings)) == WIN

    apply_policy(variant, table)
    assert counted_slices(variant, table) == [s[1] + s[3] <= 3 for s in table.slices()]
    assert not any(trusted for *_, trusted in table.slices())
    native_search.set_endgame(variant, table)
    try:
        scores = [searched(parse_fen(fen, variant)) for fen in TABLE_DRAWS]
        assert scores == [0] * len(TABLE_DRAWS)
    finally:
        native_search.set_endgame(variant, None)
    table.set_policy([False] * len(table.slices()), 0)  # as if there were no counts
    assert all(trusted for *_, trusted in table.slices())
    without = [searched(parse_fen(fen, variant)) for fen in TABLE_DRAWS]
    assert any(without), without  # the table, not the search, found the draws
    assert {table.probe(*core_state(parse_fen(fen, variant))) for fen in TABLE_DRAWS} == {DRAW}
    # A table of other rules is not the searcher's.
    international = _core.EndgameTable(core_rules(INTERNATIONAL), 2)
    international.build()
    searcher = native_search.new_searcher(variant)
    with pytest.raises(ValueError):
        searcher.set_endgame(international)


def searched(position: Position) -> int:
    """The native search's score of ``position`` at 20,000 nodes (with the table set, if any)."""
    return native_search.search(
        position, quiet=0, past=(), max_depth=64, seconds=None, nodes=20_000, fresh=True
    ).score
