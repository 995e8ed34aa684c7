"""Canadian draughts (International's rules on a 12x12 board, 30 men each) in the native core's
wide build, ``engine._core_wide``: the same C sources as ``engine._core`` with 128-bit bitboards,
since the board's ghost layout needs 77 bits.

- The build is picked by board size, and the 64-bit one keeps every board it holds.
- Perft from the start: by landing path it equals rules' perft (depth 7) and rules' figure at
  depth 8; counted with duplicate capture routes merged (``distinct``) it equals the published
  list to depth 8.  The wide build equals the 64-bit one on the smaller boards.
- Random placements of men and kings (long flying captures, crowning at the end of a capture,
  pieces on both sides of bit 64): moves, count, make and perft 2 equal the referee's.
- The Python/C boundary refuses what is not a board: negative ints, ints of 2 ** 128 and more,
  bits outside the playing squares (ghosts, bits 77-127); runs name bits above 63.
- The search finds a forced win and every level plays legal moves; endgame tables are solved
  on 72 squares (tests/engine/test_endgame.py compares them with a brute-force solver on the
  referee) and agree with the referee's moves here; the learned evaluation has no
  weights here (the classic one plays), and its trainer takes the 12x12 board's samples
  (tests/engine/test_training.py trains on them).
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from support.variant_sets import one_per_rules

from engine import LEVELS, Limits, _core, _core_wide, endgame, native, native_search, training
from engine.api import native_best_move
from engine.endgame_check import check
from engine.learned import family, load_into, weight_file
from engine.native import core_module, core_rules, core_state, rules_in
from rules import Game
from rules.fen import parse_fen
from rules.movegen import generator
from rules.perft import perft as rules_perft
from rules.position import Position
from rules.variants import INTERNATIONAL, VARIANTS, Color, Variant

CANADIAN = VARIANTS["canadian"]
MATE = 1_000_000
"""CORE_MATE (engine/core/search.h): a win in n plies scores MATE - n."""

PUBLISHED = (11, 121, 1_222, 10_053, 79_049, 584_100, 4_369_366, 31_839_056)
"""Canadian perft from the start, depths 1-8, duplicate capture routes (the same origin,
destination and captured pieces) counted once: github rhalbersma/dctl,
test/src/ai/traversal/initial/large.cpp, from the FMJD forum thread "Perft on large boards"
(laatste.info, viewtopic.php?f=53&t=4563), which goes on 237,209,258 and 1,761,652,936 (checked by
hand with this core: docs/BENCHMARKS.md)."""

PATH_DEPTH_8 = 31_839_070
"""rules' perft at depth 8, one leaf per landing path (DESIGN.md's convention): 14 more."""


def start_state() -> native.CoreState:
    return core_state(Position.start(CANADIAN))


def raw_moves(position: Position) -> list[tuple[int, int, int, bool]]:
    return [(m.from_bit, m.to_bit, m.capture_mask, m.crowns) for m in position.legal_moves()]


# -- the build -----------------------------------------------------------------------------------


def test_the_wide_build_plays_12x12() -> None:
    assert (_core.MAX_SIZE, _core.MAX_BITS, _core_wide.MAX_SIZE, _core_wide.MAX_BITS) == (
        10,
        64,
        12,
        128,
    )
    assert core_module(CANADIAN) is _core_wide  # every board: test_native_core.py
    assert str(type(core_rules(CANADIAN))) == "<class 'engine._core_wide.Rules'>"
    assert core_rules(CANADIAN).squares == 72
    assert core_rules(CANADIAN).valid.bit_length() == 77  # square 72 is bit 76
    # The builds' objects never meet: a searcher takes only its own build's rules.
    with pytest.raises(TypeError):
        _core.Searcher(core_rules(CANADIAN), 5, 1, 0, True, True, [[0] * 64] * 4, 0)


# -- perft ---------------------------------------------------------------------------------------


def test_path_perft_equals_rules_to_depth_seven_and_rules_figure_at_eight() -> None:
    start = Position.start(CANADIAN)
    assert [native.perft(start, d) for d in range(8)] == [rules_perft(start, d) for d in range(8)]
    assert native.perft(start, 8) == PATH_DEPTH_8


def test_distinct_perft_equals_the_published_figures() -> None:
    rules, state = core_rules(CANADIAN), start_state()
    assert tuple(rules.perft(*state, d, distinct=True) for d in range(1, 9)) == PUBLISHED
    assert rules.perft(*state, 0, distinct=True) == 1


def test_distinct_perft_equals_the_published_international_figures() -> None:
    """International's published list (bench/perft.py) merges duplicate routes from depth 8
    on, where rules' count by landing path is 10 more; below it the two counts agree."""
    rules, state = core_rules(INTERNATIONAL), core_state(Position.start(INTERNATIONAL))
    for depth in range(1, 8):
        assert rules.perft(*state, depth, distinct=True) == rules.perft(*state, depth)
    assert rules.perft(*state, 8, distinct=True) == 6_483_961
    assert rules.perft(*state, 8) == 6_483_971
    with pytest.raises(TypeError, match="unexpected keyword"):
        rules.perft(*state, 2, unique=True)  # type: ignore[call-arg]


SMALLER = [
    pytest.param(v, id=v.key)
    for v in one_per_rules(VARIANTS.values(), draws=False)
    if v.size <= _core.MAX_SIZE
]
"""One variant of each set of move rules on the boards both builds hold."""


@pytest.mark.parametrize("variant", SMALLER)
def test_the_wide_build_equals_the_64_bit_build_on_the_smaller_boards(variant: Variant) -> None:
    """The wide build is the same sources: on every board the 64-bit one holds it counts the
    same trees and lists the same moves along random games."""
    narrow, wide = rules_in(_core, variant), rules_in(_core_wide, variant)
    start = core_state(Position.start(variant))
    assert [wide.perft(*start, d) for d in range(1, 6)] == [
        narrow.perft(*start, d) for d in range(1, 6)
    ]
    rng = random.Random(variant.key)
    for _ in range(20):
        position = Position.start(variant)
        for _ in range(rng.randrange(150)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        state = core_state(position)
        assert wide.legal_moves(*state) == narrow.legal_moves(*state), position.fen()
        for move in narrow.legal_moves(*state):
            assert wide.make(*state, move) == narrow.make(*state, move), position.fen()


# -- random placements -----------------------------------------------------------------------------


def placement(rng: random.Random) -> Position:
    """Three to twelve men and one to four kings a side on random squares (men never on their
    crowning row, often one step from it), either side to move."""
    squares = list(range(1, 73))
    rng.shuffle(squares)
    white_men = [s for s in squares[: rng.randint(3, 12)] if s > 6]
    rest = [s for s in squares if s not in white_men]
    black_men = [s for s in rest[: rng.randint(3, 12)] if s <= 66]
    rest = [s for s in rest if s not in black_men]
    kings = rest[: rng.randint(1, 4) + rng.randint(1, 4)]
    half = rng.randint(1, len(kings) - 1)
    return Position.from_squares(
        CANADIAN,
        rng.choice((Color.WHITE, Color.BLACK)),
        tuple(sorted(white_men)),
        tuple(sorted(kings[:half])),
        tuple(sorted(black_men)),
        tuple(sorted(kings[half:])),
    )


def test_random_placements_with_kings_core_equals_rules() -> None:
    """Positions full of flying kings: every list, count, position after each move and perft 2
    equals the referee's; the positions reach long captures, crowning captures and pieces on
    both sides of bit 64 (the wide boards' two halves)."""
    rng = random.Random(72)
    core = core_rules(CANADIAN)
    high = 1 << 64
    seen = {"positions": 0, "long captures": 0, "crowning captures": 0, "across bit 64": 0}
    for _ in range(700):
        position = placement(rng)
        state = core_state(position)
        expected = raw_moves(position)
        men, kings, opp_men, opp_kings, side = state
        assert expected == generator(CANADIAN).moves_raw(men, kings, opp_men, opp_kings, side)
        assert core.legal_moves(*state) == expected, position.fen()
        assert core.count(*state) == len(expected), position.fen()
        for move, raw in zip(position.legal_moves(), expected, strict=True):
            assert core.make(*state, raw) == core_state(position.play(move)), position.fen()
        if seen["positions"] % 7 == 0:
            assert native.perft(position, 2) == rules_perft(position, 2), position.fen()
        seen["positions"] += 1
        seen["long captures"] += any(dead.bit_count() >= 3 for _, _, dead, _ in expected)
        seen["crowning captures"] += any(dead and crowns for _, _, dead, crowns in expected)
        seen["across bit 64"] += any(
            (a < high) != (b < high) or (dead and (dead < high) != (dead >= high))
            for a, b, dead, _ in expected
        )
    assert min(seen.values()) >= 20, seen


def test_a_man_crowns_only_where_the_capture_ends() -> None:
    """International's crowning on the far row of both colours' sides of the wide board: a man
    that passes the crowning row in a capture and goes on stays a man, one that ends there is
    crowned (White's row is bits 0-6, Black's bits 70-76)."""
    for fen in ("W:W20,K60:B8,9,15,21", "B:W50,51,57,63:B53,K12"):
        position = parse_fen(fen, CANADIAN)
        expected = raw_moves(position)
        assert native.legal_moves(position) == expected, fen
        assert expected and all(dead for _, _, dead, _ in expected), fen
        far = (
            CANADIAN.geometry.top_row
            if position.turn is Color.WHITE
            else (CANADIAN.geometry.bottom_row)
        )
        for start, end, _, crowns in expected:
            man = bool(start & (position.white_men | position.black_men))
            assert crowns == (man and bool(end & far)), (fen, start, end)


# -- the boundary ----------------------------------------------------------------------------------


def test_the_boundary_refuses_what_is_not_a_board() -> None:
    core = core_rules(CANADIAN)
    men, kings, opp_men, opp_kings, side = start_state()
    valid = core.valid
    assert valid >> 76 == 1 and not valid >> 77  # square 72 is the highest bit
    assert not valid >> 64 & 1  # bit 64 is a ghost
    for bad in (-1, -(1 << 100), 1 << 128, (1 << 200) | men):
        with pytest.raises(OverflowError):
            core.legal_moves(bad, kings, opp_men, opp_kings, side)
    for outside in (1 << 64, 1 << 77, 1 << 127, men | 1 << 100):
        with pytest.raises(ValueError, match="outside"):
            core.legal_moves(outside, kings, opp_men, opp_kings, side)
    for not_an_int in (1.0, "1", None):
        with pytest.raises(TypeError):
            core.count(not_an_int, kings, opp_men, opp_kings, side)  # type: ignore[arg-type]
    lone = Position.from_squares(CANADIAN, Color.WHITE, (72,), (), (10,), ())
    assert core_state(lone)[0] == 1 << 76  # a man on square 72, the highest bit, steps
    assert core.legal_moves(*core_state(lone)) == raw_moves(lone) != []
    move = core.legal_moves(men, kings, opp_men, opp_kings, side)[0]
    with pytest.raises(OverflowError):
        core.make(men, kings, opp_men, opp_kings, side, (move[0] | 1 << 128, *move[1:]))
    empty = CANADIAN.geometry.bit(35)  # the middle rows are empty at the start
    with pytest.raises(ValueError, match="does not fit"):
        core.make(men, kings, opp_men, opp_kings, side, (empty, move[1], 0, False))
    # The 64-bit build refuses a wide board's bits as too large, not as other squares.
    with pytest.raises(OverflowError):
        core_rules(INTERNATIONAL).count(1 << 64, 0, 0, 0, 0)


def test_a_king_s_run_names_a_bit_above_63() -> None:
    """The kings' runs (frisian's limit, on a 12x12 board) pack a bit index in 7 bits: a king on
    square 72 (bit 76) carries its run through make as rules' play does."""
    wide = dataclasses.replace(VARIANTS["frisian"], key="frisian-12", size=12, men_rows=5)
    position = Position.from_squares(wide, Color.WHITE, (40,), (72,), (10,), (30,))
    core = core_rules(wide)
    assert core.king_move_limit == 3 and native.RUN_SHIFT == 7
    for _ in range(2):  # the king moves twice, Black's man once between
        move = next(m for m in position.legal_moves() if m.from_bit & position.white_kings)
        state = core_state(position)
        raw = (move.from_bit, move.to_bit, move.capture_mask, move.crowns)
        assert core.legal_moves(*state) == raw_moves(position)
        position = position.play(move)
        assert core.make(*state, raw) == core_state(position)
        position = position.play(position.legal_moves()[0])
    assert position.king_runs[1] == 2
    code = native.runs_code(position.king_runs, position.turn)
    assert native.king_runs(code, 0) == position.king_runs
    with pytest.raises(ValueError, match="runs"):  # the 64-bit build holds no bit 76
        rules_in(_core, dataclasses.replace(VARIANTS["frisian"])).count(0, 0, 0, 0, 0, 76 | 1 << 7)


# -- the search ------------------------------------------------------------------------------------

FORCED = "W:W20,23,27,K12:B17,54,64"
"""White wins in 5 plies (found by the core's search, proved below on the referee); Black's men
stand beyond bit 64."""


def wins_within(position: Position, plies: int) -> bool:
    """Whether the side to move can leave the opponent without a move (or a piece) within
    ``plies`` plies, whatever the opponent replies: a minimax on the referee alone."""
    for move in position.legal_moves():
        after = position.play(move)
        replies = after.legal_moves()
        if not replies:
            return True
        if plies >= 3 and all(wins_within(after.play(r), plies - 2) for r in replies):
            return True
    return False


def test_the_search_finds_and_plays_out_a_forced_win() -> None:
    position = parse_fen(FORCED, CANADIAN)
    assert wins_within(position, 5) and not wins_within(position, 3)
    found = native_search.search(
        position, quiet=0, past=(), max_depth=8, seconds=None, nodes=None, fresh=True, exact=True
    )
    assert found.score == MATE - 5
    game = Game(CANADIAN, start=position)
    while not game.is_over:
        move = native_best_move(game, Limits(movetime=None, depth=8)).move
        assert move in game.legal_moves()
        game.play(move)
    assert game.outcome is not None and game.outcome.winner is Color.WHITE
    assert game.ply <= 5


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_moves_in_a_whole_game(level: int) -> None:
    """The native search alone at each level, against itself, from the start to the end of
    the game or 160 plies (levels 4-6 held to 3,000 nodes a move): every move the referee's."""
    game = Game(CANADIAN)
    while not game.is_over and game.ply < 160:
        limits = Limits(movetime=None, level=level, nodes=3_000, seed=game.ply)
        move = native_best_move(game, limits).move
        assert move in game.legal_moves(), (level, game.position.fen())
        game.play(move)
    assert game.ply >= 40


# -- endgame tables and the learned evaluation -----------------------------------------------------


def test_a_three_piece_table_agrees_with_the_referee_and_serves_the_search() -> None:
    table = endgame.new_table(CANADIAN, 3)
    table.build()
    assert isinstance(table, _core_wide.EndgameTable)
    found = check(table, CANADIAN, per_slice=40, seed=12)
    assert found.positions > 500 and found.wrong == []
    searcher = native_search.new_searcher(CANADIAN)
    searcher.set_endgame(table)
    assert searcher.endgame() is table
    with pytest.raises(TypeError):  # a table of the other build
        searcher.set_endgame(endgame.new_table(INTERNATIONAL, 2))


def test_the_shipped_weights_load_and_the_trainer_takes_the_wide_board() -> None:
    assert family(CANADIAN) == "flying-12" and weight_file(family(CANADIAN)) is not None
    searcher = native_search.new_searcher(CANADIAN)
    assert load_into(searcher, CANADIAN) and searcher.use_learned(True)
    layout = training.layout(CANADIAN)
    assert (layout.windows, layout.squares, layout.start_pieces) == (25, 72, 60)
    weights = bytearray(16 * layout.per_phase)  # all zero: every sample scores 0, loss ln 2
    om, ok, tm, tk, side = core_state(Position.start(CANADIAN))
    assert (om | tm) >> 64  # men stand past bit 64
    sample = training.pack_sample(om, ok, tm, tk, 1.0, side)
    assert training.loss(CANADIAN, sample, weights, 100.0) == pytest.approx(math.log(2))
