"""Property tests of the rules package (hypothesis): FEN and notation round trips, make/unmake and
the incremental Zobrist key, move generator invariants, parser robustness, game records."""

from __future__ import annotations

import signal
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.fen import FenError, parse_fen
from rules.game import Game
from rules.movegen import generator
from rules.notation import AmbiguousMoveError, MoveError, parse_move
from rules.position import EMPTY, Position
from rules.variants import VARIANTS, Color, Crowning, Precedence, Variant

KEYS = list(VARIANTS)

SETTINGS = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])


# -- strategies ------------------------------------------------------------------------------------

variants = st.sampled_from(KEYS).map(VARIANTS.__getitem__)


@st.composite
def played_positions(draw: st.DrawFn, max_plies: int = 80) -> Position:
    """A position reached by random legal play from the start of a random variant."""
    variant = draw(variants)
    plies = draw(st.integers(0, max_plies))
    picks = draw(st.lists(st.integers(0, 1 << 16), min_size=plies, max_size=plies))
    pos = Position.start(variant)
    for pick in picks:
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[pick % len(moves)])
    return pos


@st.composite
def placed_positions(draw: st.DrawFn) -> Position:
    """Random disjoint men and kings of both sides (no man on its own crowning row), random side
    to move."""
    variant = draw(variants)
    g = variant.geometry
    order = draw(st.permutations(range(1, g.squares + 1)))
    n_wk = draw(st.integers(0, 4))
    n_bk = draw(st.integers(0, 4))
    n_wm = draw(st.integers(0, g.squares // 3))
    n_bm = draw(st.integers(0, g.squares // 3))
    white_kings = order[:n_wk]
    black_kings = order[n_wk : n_wk + n_bk]
    rest = order[n_wk + n_bk :]
    white_top = set(range(1, g.half + 1))
    black_bottom = set(range(g.squares - g.half + 1, g.squares + 1))
    white_men = [s for s in rest if s not in white_top][:n_wm]
    rest = [s for s in rest if s not in white_men]
    black_men = [s for s in rest if s not in black_bottom][:n_bm]
    turn = draw(st.sampled_from([Color.WHITE, Color.BLACK]))
    return Position.from_squares(variant, turn, white_men, white_kings, black_men, black_kings)


@st.composite
def king_fights(draw: st.DrawFn) -> Position:
    """Sparse positions where the side to move has kings among scattered enemy pieces: long and
    branching king captures (flying kings, loops, several paths to one square)."""
    variant = draw(variants)
    g = variant.geometry
    order = draw(st.permutations(range(1, g.squares + 1)))
    turn = draw(st.sampled_from([Color.WHITE, Color.BLACK]))
    n_kings = draw(st.integers(1, 3))
    n_men = draw(st.integers(0, 2))
    n_enemy = draw(st.integers(2, 9))
    n_enemy_kings = draw(st.integers(0, 2))
    kings = order[:n_kings]
    enemy_kings = order[n_kings : n_kings + n_enemy_kings]
    rest = order[n_kings + n_enemy_kings :]
    own_row = g.top_row if turn is Color.WHITE else g.bottom_row
    enemy_row = g.bottom_row if turn is Color.WHITE else g.top_row
    men = [s for s in rest if not g.bit(s) & own_row][:n_men]
    rest = [s for s in rest if s not in men]
    enemy_men = [s for s in rest if not g.bit(s) & enemy_row][:n_enemy]
    if turn is Color.WHITE:
        return Position.from_squares(variant, turn, men, kings, enemy_men, enemy_kings)
    return Position.from_squares(variant, turn, enemy_men, enemy_kings, men, kings)


positions = st.one_of(played_positions(), placed_positions(), king_fights())


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Turn a hang into a failure."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def rebuilt(pos: Position) -> Position:
    """The same placement (and kings' runs) with the key computed from scratch."""
    return Position(
        pos.variant,
        pos.white_men,
        pos.white_kings,
        pos.black_men,
        pos.black_kings,
        pos.turn,
        king_runs=pos.king_runs,
    )


def algebraic_fen(pos: Position) -> str:
    names = pos.variant.geometry.names

    def side(letter: str, men: int, kings: int) -> str:
        items = [names[s] for s in pos.squares(men)] + [f"K{names[s]}" for s in pos.squares(kings)]
        return letter + ",".join(items)

    return ":".join(
        (
            pos.turn.letter,
            side("W", pos.white_men, pos.white_kings),
            side("B", pos.black_men, pos.black_kings),
        )
    )


def outcome(move: Any) -> tuple[int, int, int]:
    return move.from_bit, move.to_bit, move.capture_mask


# -- sanity of the strategies themselves -----------------------------------------------------------


@FEW
@given(st.one_of(placed_positions(), king_fights()))
def test_placed_positions_are_well_formed(pos: Position) -> None:
    g = pos.variant.geometry
    boards = (pos.white_men, pos.white_kings, pos.black_men, pos.black_kings)
    for i, a in enumerate(boards):
        assert a & ~g.valid == 0
        for b in boards[i + 1 :]:
            assert a & b == 0
    assert pos.white_men & g.top_row == 0
    assert pos.black_men & g.bottom_row == 0


# -- FEN -------------------------------------------------------------------------------------------


@SETTINGS
@given(positions)
def test_fen_round_trip(pos: Position) -> None:
    text = pos.fen()
    back = parse_fen(text, pos.variant)
    assert back == pos
    assert back.key == pos.key
    assert back.fen() == text
    assert back.turn is pos.turn


@SETTINGS
@given(positions.filter(lambda p: p.variant.size == 8), st.booleans())
def test_algebraic_fen_input_on_8x8(pos: Position, upper: bool) -> None:
    text = algebraic_fen(pos)
    if upper:
        text = text.upper()
    back = parse_fen(text, pos.variant)
    assert back == pos
    assert back.key == pos.key
    assert back.fen() == pos.fen()


# -- notation --------------------------------------------------------------------------------------


@SETTINGS
@given(positions)
def test_notation_round_trip(pos: Position) -> None:
    legal = pos.legal_moves()
    names = pos.variant.geometry.names
    by_ends: dict[tuple[int, int], set[int]] = defaultdict(set)
    for move in legal:
        by_ends[(move.start, move.end)].add(move.capture_mask)
    for move in legal:
        assert parse_move(pos, move.pdn(), legal) == move
        assert parse_move(pos, move.pdn()) == move
        assert parse_move(pos, move.algebraic(names), legal) == move
        assert parse_move(pos, move.algebraic(names).upper(), legal) == move
        try:
            parsed = parse_move(pos, move.short(), legal)
        except AmbiguousMoveError as error:
            # only when moves with the same start and end capture different pieces
            assert len(by_ends[(move.start, move.end)]) > 1, move
            assert move.pdn() in str(error) or len(error.candidates) > 12
            assert all(c.start == move.start and c.end == move.end for c in error.candidates)
            continue
        assert parsed in legal
        if outcome(parsed) != outcome(move):
            # a different move may only win by naming its full path exactly
            assert parsed.path == (move.start, move.end), (move, parsed)
        else:
            assert parsed.start == move.start and parsed.end == move.end


# -- make / unmake and the Zobrist key -------------------------------------------------------------


@SETTINGS
@given(positions)
def test_play_leaves_the_position_unchanged_and_keeps_the_key_exact(pos: Position) -> None:
    fen = pos.fen()
    key = pos.key
    assert rebuilt(pos).key == key
    for move in pos.legal_moves():
        child = pos.play(move)
        assert pos.fen() == fen
        assert pos.key == key
        scratch = rebuilt(child)
        assert child.key == scratch.key, move
        assert child == scratch
        assert child.turn is pos.turn.other
        assert parse_fen(child.fen(), pos.variant) == child


@FEW
@given(played_positions(max_plies=120))
def test_play_sequence_matches_from_scratch_keys(pos: Position) -> None:
    # played_positions already chained play(); the end key must equal a fresh computation
    assert pos.key == rebuilt(pos).key
    assert pos == parse_fen(pos.fen(), pos.variant)


# -- generator invariants --------------------------------------------------------------------------


@SETTINGS
@given(positions)
def test_generator_sanity(pos: Position) -> None:
    variant: Variant = pos.variant
    g = variant.geometry
    legal = pos.legal_moves()
    side = pos.turn
    own = pos.pieces_of(side)
    theirs = pos.pieces_of(side.other)
    own_men = pos.men_of(side)
    crown_row = g.top_row if side is Color.WHITE else g.bottom_row
    for move in legal:
        assert len(move.path) >= 2
        assert pos.color_at(move.start) is side, move
        assert move.from_bit == g.bit(move.start)
        assert move.to_bit == g.bit(move.end)
        for jump, square in enumerate(move.path[1:]):
            # Where captured pieces leave at once (thai, turkish), a later landing may be the
            # square of a piece taken earlier in the move.
            gone = move.captured[:jump] if variant.captures_removed_at_once else ()
            assert square == move.start or pos.piece_at(square) == EMPTY or square in gone, move
        assert len(set(move.captured)) == len(move.captured), move
        for square in move.captured:
            assert pos.color_at(square) is side.other, move
        assert move.capture_mask == g.mask_of(move.captured)
        assert move.capture_mask & theirs == move.capture_mask
        assert move.capture_mask & own == 0
        if not move.captured:
            assert len(move.path) == 2
        was_man = bool(own_men & move.from_bit)
        if move.crowns:
            assert was_man, move
        if was_man and move.to_bit & crown_row:
            assert move.crowns, move
        if move.crowns and variant.crowning is not Crowning.CONTINUES_AS_KING:
            assert move.to_bit & crown_row, move
    assert len({(m.path, m.captured) for m in legal}) == len(legal), "duplicate moves"
    if any(m.is_capture for m in legal):
        assert all(m.is_capture for m in legal)
    if variant.capture_precedence[:1] == (Precedence.MOST_PIECES,) and legal:
        assert len({len(m.captured) for m in legal}) == 1
    assert generator(variant).count(pos) == len(legal)
    assert generator(variant).has_capture(pos) == any(m.is_capture for m in legal)
    if not own:
        assert legal == []


# -- parsers never fail with anything but their own errors -----------------------------------------

texts = st.one_of(
    st.text(),
    st.text(min_size=100, max_size=5000),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "Nd", "No", "Pd", "So"])),
    st.text(alphabet=st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF)),
    # move-like text; short enough that even a backtracking regex stays fast
    st.text(alphabet="0123456789 -x:\u00d7\u2013abcdhjXK\uff11\uff0d.!", max_size=16),
)
parse_positions = st.sampled_from(KEYS).map(lambda k: Position.start(VARIANTS[k]))


@SETTINGS
@given(st.one_of(parse_positions, played_positions(max_plies=20)), texts)
def test_move_parser_raises_only_move_errors(pos: Position, text: str) -> None:
    legal = pos.legal_moves()
    with time_limit(2.0):
        try:
            move = parse_move(pos, text, legal)
        except MoveError as error:
            assert isinstance(error, ValueError)
            assert str(error)
            return
    assert move in legal


fen_texts = st.one_of(
    st.text(),
    st.text(min_size=100, max_size=5000),
    st.text(alphabet="WBKwbkHF0123456789:,-. \"'[]\n", max_size=60),
    st.text(alphabet=st.characters(categories=["Cc", "Nd", "No", "Nl", "So"])),
)


@SETTINGS
@given(variants, fen_texts)
def test_fen_parser_raises_only_fen_errors(variant: Variant, text: str) -> None:
    with time_limit(2.0):
        try:
            pos = parse_fen(text, variant)
        except FenError as error:
            assert str(error)
            return
    assert parse_fen(pos.fen(), variant) == pos


# -- game records ----------------------------------------------------------------------------------


@FEW
@given(variants, st.lists(st.integers(0, 1 << 16), max_size=60))
def test_game_to_dict_round_trip(variant: Variant, picks: list[int]) -> None:
    game = Game(variant)
    for pick in picks:
        if game.is_over:
            break
        action = pick % 17
        if action == 0 and game.draw_offer is None:
            game.offer_draw(game.turn)
            continue
        if action == 1 and game.draw_offer is game.turn.other:
            game.decline_draw(game.turn)
            continue
        moves = game.legal_moves()
        game.play(moves[(pick >> 5) % len(moves)])
    data = game.to_dict()
    back = Game.from_dict(data)
    assert back.variant is game.variant
    assert back.position.fen() == game.position.fen()
    assert back.position == game.position
    assert [m.pdn() for m in back.moves] == [m.pdn() for m in game.moves]
    assert back.moves == game.moves
    assert back.status_line() == game.status_line()
    assert back.result() == game.result()
    assert back.draw_offer == game.draw_offer
    assert back.to_dict() == data
    assert [m.pdn() for m in back.legal_moves()] == [m.pdn() for m in game.legal_moves()]
