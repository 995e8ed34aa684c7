"""The learned evaluation (engine/core/patterns.c, engine/learned.py, tools/train_eval.py).

- The core's features equal an independent computation in Python, written from the description
  in patterns.h with the rules' coordinates (not the core's bit tables), on positions of random
  games of every family; so does the score computed from them with a set of weights.
- A position and its colour-flipped mirror (the board turned half a turn, colours swapped, the
  other side to move) score the same, learned and classic.
- Every shipped weight file loads, has the header and shape it claims and matches its note
  (sha256, size, header, a match result); a corrupt, truncated or misplaced file is refused with
  a clear error and the classic evaluation keeps working.
- The trainer: tests/engine/test_training.py.
- With learned weights the engine plays only legal moves against itself; levels 1-3 keep the
  classic evaluation.
"""

from __future__ import annotations

import json
import random
import struct
from hashlib import sha256
from pathlib import Path

import pytest
from support.rules_support import random_game_positions

from engine import Limits, _core, native_search
from engine.api import native_best_move, python_best_move, repetition_history
from engine.learned import family, header, load_into, pack, weight_file
from engine.native import core_module, core_rules, core_state
from engine.reference.board import board_for, state_of
from engine.reference.evaluate import evaluator
from rules import Color, Game, find_variant
from rules.position import ZOBRIST, ZOBRIST_BLACK_TO_MOVE, Position
from rules.variants import VARIANTS, Goal, Variant

ROOT = Path(__file__).resolve().parent.parent.parent
WEIGHTS = ROOT / "engine" / "weights"
FAMILY_OF = {
    "english": "short-8",
    "russian": "flying-8",
    "international": "flying-10",
    "italian": "short-8-mirrored",
    "spanish": "flying-8-mirrored",
    "thai": "stopping-8",
    "frisian": "eight-way-flying-10",
    "antidraughts": "give-away-flying-10",
    "breakthrough": "first-king-flying-10",
    "canadian": "flying-12",  # 25 windows, in the wide core
    "turkish": "orthogonal-flying-8",  # 24 windows of 2x4 and 4x2 squares
}
STATES = 6561
DENSE = 11


def fresh_searcher(variant: Variant) -> _core.Searcher:
    """A searcher of our own (the process's cached one may hold the shipped weights)."""
    board = board_for(variant)
    core = core_module(variant)
    return core.Searcher(
        core_rules(variant),
        men_rows=variant.men_rows,
        hash_mb=1,
        quiet_limit=board.quiet_limit,
        man_moves_progress=board.man_moves_progress,
        crownings_progress=board.crownings_progress,
        zobrist=[table[: core.MAX_BITS] for table in ZOBRIST],
        black=ZOBRIST_BLACK_TO_MOVE,
    )


def random_positions(key: str, games: int, seed: int) -> list[Position]:
    """The positions of ``games`` random games (up to 120 plies each)."""
    return random_game_positions(find_variant(key), games, f"{key}:{seed}")


# -- the features, computed independently -----------------------------------------------------


def python_features(
    variant: Variant, position: Position
) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """patterns.h's features from the rules' squares and coordinates."""
    g = variant.geometry
    size = g.size
    mover = 0 if position.turn is Color.WHITE else 1

    def oriented(bitboard: int) -> set[tuple[int, int]]:
        cells = set()
        for square in g.squares_in(bitboard):
            column, row = g.coordinates(square)
            cells.add((row, column) if mover == 0 else (size - 1 - row, size - 1 - column))
        return cells

    om, ok, tm, tk = core_state(position)[:4]  # frisian's states carry the kings' runs too
    own_men, own_kings, their_men, their_kings = map(oriented, (om, ok, tm, tk))
    # The playing squares' colour: (row + column) is odd on the usual board, even on the
    # mirrored one (a1 light); turning the board half a turn keeps it.  The orthogonal board
    # plays every square.
    dark = sum(g.coordinates(1)) % 2

    def plays(cell: tuple[int, int]) -> bool:
        return variant.orthogonal or sum(cell) % 2 == dark

    if variant.orthogonal:  # 2 rows by 4 columns, then 4 rows by 2 columns
        shapes = [(2, 4, range(0, size - 1, 2), range(0, size - 3, 2))]
        shapes.append((4, 2, range(0, size - 3, 2), range(0, size - 1, 2)))
    else:  # 4x4, two dark squares on each row
        shapes = [(4, 4, range(0, size - 3, 2), range(0, size - 3, 2))]
    windows = []
    for height, width, row_starts, column_starts in shapes:
        for r0 in row_starts:
            for c0 in column_starts:
                cells = [
                    (r, c)
                    for r in range(r0, r0 + height)
                    for c in range(c0, c0 + width)
                    if plays((r, c))
                ]
                assert len(cells) == 8
                index = 0
                for k, cell in enumerate(cells):
                    index += 3**k * (1 if cell in own_men else 2 if cell in their_men else 0)
                windows.append(index)
    own_all, their_all = own_men | own_kings, their_men | their_kings
    run = [0, 0, 0]

    def bucket(distance: int) -> int:
        return 0 if distance <= 2 else 1 if distance <= 4 else 2

    for r, c in own_men:  # walks towards row 0
        if not any(r2 < r and abs(c2 - c) <= r - r2 for r2, c2 in their_all):
            run[bucket(r)] += 1
    for r, c in their_men:  # walks towards row size - 1
        if not any(r2 > r and abs(c2 - c) <= r2 - r for r2, c2 in own_all):
            run[bucket(size - 1 - r)] -= 1
    tempo = sum(size - 1 - r for r, _ in own_men) - sum(r for r, _ in their_men)
    home = sum(r == size - 1 for r, _ in own_men) - sum(r == 0 for r, _ in their_men)
    occupied = own_all | their_all

    steps = (
        ((-1, 0), (1, 0), (0, -1), (0, 1))
        if variant.orthogonal
        else ((-1, -1), (-1, 1), (1, -1), (1, 1))
    )

    def mobility(kings: set[tuple[int, int]]) -> int:
        return sum(
            (r + dr, c + dc) not in occupied
            for r, c in kings
            for dr, dc in steps
            if 0 <= r + dr < size and 0 <= c + dc < size
        )

    def lean(men: set[tuple[int, int]]) -> int:
        """How far the men lean to one wing: |the sum of their columns' distances from the
        middle| (doubled, to stay whole)."""
        return abs(sum(2 * c - (size - 1) for _, c in men))

    def square(r: int, c: int) -> int:
        """The playing square at (r, c), counted from 0 along the rows."""
        return r * g.half + (c if variant.orthogonal else c // 2)

    kings = [0] * g.squares
    for r, c in own_kings:
        kings[square(r, c)] += 1
    for r, c in their_kings:  # the square as the other side sees it: the board turned
        kings[square(size - 1 - r, size - 1 - c)] -= 1
    dense = (
        1,
        len(own_men) - len(their_men),
        len(own_kings) - len(their_kings),
        int(bool(own_kings) and not their_kings) - int(bool(their_kings) and not own_kings),
        run[0],
        run[1],
        run[2],
        tempo,
        home,
        mobility(own_kings) - mobility(their_kings),
        lean(own_men) - lean(their_men),
    )
    start = 2 * variant.men_rows * g.half
    return min(len(occupied), start), tuple(windows), dense, tuple(kings)


def truncate(a: int, b: int) -> int:
    """C's integer division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def python_score(variant: Variant, position: Position, weights: list[int], per_phase: int) -> int:
    phase, windows, dense, kings = python_features(variant, position)
    start = 2 * variant.men_rows * variant.geometry.half
    first_window = DENSE + len(kings)
    sums = []
    for base in (0, per_phase):
        total = sum(weights[base + d] * dense[d] for d in range(DENSE))
        total += sum(weights[base + DENSE + q] * n for q, n in enumerate(kings))
        total += sum(weights[base + first_window + k * STATES + w] for k, w in enumerate(windows))
        sums.append(total)
    blended = truncate(sums[0] * phase + sums[1] * (start - phase), start)
    return truncate(blended, _core.LEARNED_UNIT)


def random_weight_file(variant: Variant, seed: int) -> tuple[bytes, list[int], int]:
    layout = core_module(variant).learned_layout(core_rules(variant), variant.men_rows)
    windows, dense, _, per_phase, _ = layout
    rng = random.Random(seed)
    weights = [rng.randint(-400, 400) for _ in range(2 * per_phase)]
    return pack(variant.size, variant.flying_kings, windows, dense, weights), weights, per_phase


def flipped(position: Position) -> Position:
    """The colour-flipped mirror: the board turned half a turn, colours swapped."""
    g = position.variant.geometry
    n = g.squares

    def turn(bitboard: int) -> int:
        return g.mask_of([n + 1 - s for s in g.squares_in(bitboard)])

    return Position(
        position.variant,
        turn(position.black_men),
        turn(position.black_kings),
        turn(position.white_men),
        turn(position.white_kings),
        position.turn.other,
    )


@pytest.mark.parametrize("key", sorted(FAMILY_OF))
def test_the_core_s_features_equal_python_s(key: str) -> None:
    variant = find_variant(key)
    core, rules = core_module(variant), core_rules(variant)
    positions = random_positions(key, 30, seed=1)
    assert len(positions) > 1000
    with_kings = leaning = 0
    for position in positions:
        ours = core.learned_features(rules, variant.men_rows, *core_state(position))
        assert ours == python_features(variant, position), position.fen()
        with_kings += any(ours[3])
        leaning += ours[2][-1] != 0
    # The king squares and the balance were compared (breakthrough's games end at the first king,
    # so its kings stand only in their last positions).
    assert with_kings > (10 if variant.goal is Goal.FIRST_KING else 50) and leaning > 500


@pytest.mark.parametrize("key", sorted(FAMILY_OF))
def test_the_learned_score_is_the_weighted_sum_of_the_features(key: str) -> None:
    variant = find_variant(key)
    data, weights, per_phase = random_weight_file(variant, seed=7)
    searcher = fresh_searcher(variant)
    searcher.load_weights(data)
    assert searcher.use_learned(True)
    classic = evaluator(variant)
    for position in random_positions(key, 8, seed=2):
        state = core_state(position)
        if position.white_men | position.black_men:
            expected = python_score(variant, position, weights, per_phase)
        else:  # kings only: the classic evaluation and its drawn endings
            expected = classic(state_of(position))
        assert searcher.evaluate(*state) == expected, position.fen()


@pytest.mark.parametrize("key", list(VARIANTS))
def test_a_position_and_its_colour_flipped_mirror_score_the_same(key: str) -> None:
    variant = find_variant(key)
    searcher = fresh_searcher(variant)
    shipped = weight_file(family(variant))
    data = shipped if shipped is not None else random_weight_file(variant, seed=3)[0]
    searcher.load_weights(data)
    for position in random_positions(key, 10, seed=3):
        mirror = flipped(position)
        assert mirror.turn is not position.turn
        for learned in (True, False):
            searcher.use_learned(learned)
            assert searcher.evaluate(*core_state(position)) == searcher.evaluate(
                *core_state(mirror)
            ), (position.fen(), learned)


# -- the shipped files ----------------------------------------------------------------------------


def shipped_families() -> list[str]:
    return sorted(path.stem for path in WEIGHTS.glob("*.bin"))


def test_every_shipped_weight_file_has_its_note_and_every_note_its_file() -> None:
    assert {p.stem for p in WEIGHTS.glob("*.json")} == set(shipped_families())
    assert set(shipped_families()) <= set(FAMILY_OF.values())


@pytest.mark.parametrize("name", shipped_families())
def test_a_shipped_weight_file_loads_and_matches_its_note(name: str) -> None:
    key = next(k for k, f in FAMILY_OF.items() if f == name)
    variant = find_variant(key)
    data = weight_file(name)
    assert data is not None
    note = json.loads((WEIGHTS / f"{name}.json").read_text())
    head = header(data)
    windows, dense, squares, per_phase, _ = core_module(variant).learned_layout(
        core_rules(variant), variant.men_rows
    )
    assert per_phase == dense + squares + windows * STATES
    assert head.magic == b"DRLEARN\0"
    assert head.version == _core.LEARNED_VERSION == note["header"]["version"]
    assert (head.size, head.flying) == (variant.size, int(variant.flying_kings))
    assert (head.windows, head.dense, head.weights) == (windows, dense, 2 * per_phase)
    assert note["header"] == {
        "version": head.version,
        "size": head.size,
        "flying": head.flying,
        "windows": head.windows,
        "dense": head.dense,
        "weights": head.weights,
        "unit": head.unit,
    }
    assert note["family"] == name and note["file"] == f"{name}.bin"
    assert note["bytes"] == len(data) == 40 + 2 * head.weights
    assert note["sha256"] == sha256(data).hexdigest()
    assert note["match"], "a shipped family's note records the match that justified it"
    for member in VARIANTS.values():
        if family(member) == name:
            core_module(member).learned_check(core_rules(member), member.men_rows, data)
            searcher = fresh_searcher(member)
            assert load_into(searcher, member)
            assert searcher.use_learned(True)


def corrupt(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1 :]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: corrupt(d, 41), "checksum"),
        (lambda d: d[:-2], "truncated"),
        (lambda d: d + b"\0\0", "truncated"),
        (lambda d: corrupt(d, 0), "magic"),
        (lambda d: d[:8] + struct.pack("<I", 99) + d[12:], "version"),
        (lambda d: d[:32] + struct.pack("<I", 16) + d[36:], "unit"),
        (lambda d: d[:20] + struct.pack("<I", 4) + d[24:], "shape"),
        (lambda d: b"", "magic"),
    ],
)
def test_a_corrupt_weight_file_is_refused_and_the_classic_evaluation_stays(
    damage: object, message: str
) -> None:
    variant = find_variant("russian")
    data, _, _ = random_weight_file(variant, seed=5)
    searcher = fresh_searcher(variant)
    assert callable(damage)
    with pytest.raises(ValueError, match=message):
        searcher.load_weights(damage(data))
    with pytest.raises(ValueError, match=message):
        _core.learned_check(core_rules(variant), variant.men_rows, damage(data))
    assert not searcher.use_learned(True)  # nothing loaded: still the classic evaluation
    classic = evaluator(variant)
    for position in random_positions("russian", 3, seed=4):
        assert searcher.evaluate(*core_state(position)) == classic(state_of(position))


def test_the_orthogonal_board_has_windows_of_its_own() -> None:
    """Turkish plays every square: its windows are 2x4 and 4x2 blocks (24 of them), its kings
    have a weight on each of the 64 squares, and the weights of a diagonal 8x8 board with
    flying kings, which the header's size and kings would let through, are refused by their
    shape either way."""
    turkish, russian = find_variant("turkish"), find_variant("russian")
    assert family(turkish) == "orthogonal-flying-8"
    windows, dense, squares, per_phase, start = _core.learned_layout(
        core_rules(turkish), turkish.men_rows
    )
    assert (windows, dense, squares, start) == (24, DENSE, 64, 32)
    assert per_phase == DENSE + 64 + 24 * STATES
    for loaded, other in ((turkish, russian), (russian, turkish)):
        searcher = fresh_searcher(loaded)
        with pytest.raises(ValueError, match="shape"):
            searcher.load_weights(random_weight_file(other, seed=1)[0])
        assert not searcher.use_learned(True)


def test_weights_of_another_family_are_refused() -> None:
    english, international = find_variant("english"), find_variant("international")
    searcher = fresh_searcher(find_variant("russian"))
    for other in (english, international):
        with pytest.raises(ValueError, match="another variant family"):
            searcher.load_weights(random_weight_file(other, seed=1)[0])


def test_a_refused_file_keeps_the_weights_loaded_before() -> None:
    variant = find_variant("english")
    good, weights, per_phase = random_weight_file(variant, seed=9)
    searcher = fresh_searcher(variant)
    searcher.load_weights(good)
    searcher.use_learned(True)
    with pytest.raises(ValueError):
        searcher.load_weights(corrupt(good, 100))
    position = random_positions("english", 1, seed=5)[0]
    assert searcher.evaluate(*core_state(position)) == python_score(
        variant, position, weights, per_phase
    )


# -- playing with it ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(FAMILY_OF))
def test_with_learned_weights_the_engine_plays_only_legal_moves(key: str) -> None:
    variant = find_variant(key)
    searcher = native_search.native_searcher(variant)
    shipped = weight_file(family(variant))
    if shipped is None:
        searcher.load_weights(random_weight_file(variant, seed=11)[0])
    try:
        game = Game(variant)
        differs = 0
        for _ in range(60):
            if game.is_over:
                break
            limits = Limits(movetime=None, depth=64, nodes=3000)
            result = native_best_move(game, limits)
            assert result.move in game.legal_moves()
            # the score is the learned search's (the same search, asked directly)
            past, quiet = repetition_history(game)
            scores = [
                native_search.search(
                    game.position,
                    quiet=quiet,
                    past=past,
                    max_depth=64,
                    seconds=None,
                    nodes=3000,
                    fresh=True,
                    exact=True,
                    learned=learned,
                ).score
                for learned in (True, False)
            ]
            assert result.score == scores[0]
            differs += scores[0] != scores[1]
            game.play(result.move)
        assert len(game.moves) >= 20 and differs >= 10
    finally:
        if shipped is None:
            native_search.native_searcher.cache_clear()


def test_the_weaker_levels_keep_the_classic_evaluation() -> None:
    """Levels 1-3 pick among the root moves' exact scores: the Python search's, move for move,
    whatever weights the searcher holds."""
    variant = find_variant("english")
    searcher = native_search.native_searcher(variant)
    shipped = weight_file(family(variant))
    if shipped is None:
        searcher.load_weights(random_weight_file(variant, seed=12)[0])
    try:
        for game_number, start in enumerate(random_positions("english", 3, seed=6)[::15]):
            game = Game(variant, start)
            if game.is_over:
                continue
            for level in (1, 2, 3):
                native_best_move(game, Limits(movetime=None, depth=2))  # a level-6 search first
                limits = Limits(movetime=None, level=level, seed=game_number)
                assert native_best_move(game, limits) == python_best_move(game, limits)
        # and level 6 with ``classic`` is the Python search's too
        game = Game(variant)
        limits = Limits(movetime=None, depth=4, classic=True)
        assert native_best_move(game, limits).score == python_best_move(game, limits).score
    finally:
        if shipped is None:
            native_search.native_searcher.cache_clear()
