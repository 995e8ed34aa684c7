"""Tests of the computer opponent (``engine``): tactics it must find, legality of everything it
returns, determinism, the weaker levels, the draw rules as the search sees them, the command line
and the evaluation.

Every tactical position below is hand-made; its solution is checked twice: by the engine at a
small fixed depth and, independently, by an exhaustive search written here on top of the
``rules`` package only (forced wins, forced crownings, material after best play).  Each position
is also played colour-mirrored (board turned half a turn, colours swapped), where the engine must
find the mirrored move.

Searches use ``movetime=None`` with a fixed depth so that they are deterministic.  The engine
keeps one searcher per variant for the whole process (its transposition table survives from
search to search); the autouse fixture gives every test its own, so that one test's searches
cannot change another's results.  Whether results depend on earlier searches is tested on purpose
in the determinism section.
"""

from __future__ import annotations

import functools
import itertools
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine.api as api
from engine import LEVELS, MATE, Limits, Result, best_move, describe_score
from engine.reference.board import board_for, state_of
from engine.reference.evaluate import evaluator
from engine.reference.search import Searcher
from engine.scores import WIN_BOUND
from rules import (
    VARIANTS,
    Color,
    Game,
    Goal,
    Move,
    Position,
    Termination,
    Variant,
    find_variant,
    parse_fen,
)

ROOT = Path(__file__).resolve().parent.parent.parent

ENGLISH = find_variant("english")

PROPERTY = settings(
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(autouse=True)
def fresh_searchers(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty searcher cache (so an empty transposition table) for every test."""
    monkeypatch.setattr(api, "_searchers", {})


# -- helpers -----------------------------------------------------------------------------------


def game_at(variant: str | Variant, fen: str) -> Game:
    v = find_variant(variant) if isinstance(variant, str) else variant
    return Game(v, parse_fen(fen, v))


def forget() -> None:
    """Drop the engine's searchers (and their transposition tables): the next search starts
    from nothing, as in a new process."""
    api._searchers.clear()


def search(game: Game, depth: int, level: int = 6, seed: int = 0) -> Result:
    return best_move(game, Limits(movetime=None, depth=depth, level=level, seed=seed))


def move_named(pos: Position, text: str) -> Move:
    """The legal move of ``pos`` whose full landing path is ``text``."""
    for move in pos.legal_moves():
        if move.pdn() == text:
            return move
    raise AssertionError(
        f"{text} is not legal in {pos.fen()}: {[m.pdn() for m in pos.legal_moves()]}"
    )


def mirror(pos: Position) -> Position:
    """The same position with the board turned half a turn and the colours swapped: square ``s``
    becomes ``N + 1 - s``, White's pieces become Black's (their kings' runs too, where the
    variant keeps them), and the other side is to move."""
    g = pos.variant.geometry
    n = g.squares

    def turned(board: int) -> list[int]:
        return [n + 1 - s for s in pos.squares(board)]

    def turned_bit(bit: int) -> int:
        return g.mask_of(turned(bit)) if bit else 0

    plain = Position.from_squares(
        pos.variant,
        pos.turn.other,
        white_men=turned(pos.black_men),
        white_kings=turned(pos.black_kings),
        black_men=turned(pos.white_men),
        black_kings=turned(pos.white_kings),
    )
    white_bit, white_run, black_bit, black_run = pos.king_runs
    runs = (turned_bit(black_bit), black_run, turned_bit(white_bit), white_run)
    return Position(
        pos.variant,
        plain.white_men,
        plain.white_kings,
        plain.black_men,
        plain.black_kings,
        plain.turn,
        king_runs=runs,
    )


def mirror_text(text: str, variant: Variant) -> str:
    n = variant.geometry.squares
    sep = "x" if "x" in text else "-"
    return sep.join(str(n + 1 - int(s)) for s in text.split(sep))


def king_value(variant: Variant) -> float:
    if not variant.flying_kings:
        return 1.5
    return 3.0 if variant.size == 10 else 2.5


def material(pos: Position, side: Color) -> float:
    """``side``'s material minus the opponent's, in men (kings by :func:`king_value`)."""
    kings, men, their_kings, their_men = pos.material(side)
    kv = king_value(pos.variant)
    return men + kv * kings - their_men - kv * their_kings


def best_material(pos: Position, plies: int) -> float:
    """Material for the side to move after ``plies`` plies of best play (both sides maximising
    material), then captures until the position is quiet; a side without a move has lost
    (-1000).  Exhaustive alpha-beta over the rules' legal moves: independent of the engine."""

    def negamax(p: Position, depth: int, alpha: float, beta: float) -> float:
        moves = p.legal_moves()
        if not moves:
            return -1000.0
        if depth <= 0 and not moves[0].is_capture:
            return material(p, p.turn)
        best = -2000.0
        for move in moves:
            score = -negamax(p.play(move), depth - 1, -beta, -alpha)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    return negamax(pos, plies, -2000.0, 2000.0)


def after_best_reply(pos: Position, move: Move, plies: int) -> float:
    """Material for the mover of ``pos`` after ``move`` and ``plies`` more plies of best play."""
    return -best_material(pos.play(move), plies)


def forced_win(pos: Position, plies: int, winner: Color) -> bool:
    """Whether ``winner`` can force, within ``plies`` plies, a position where the side to move
    is the loser and has no legal move (no pieces counts too).  Exhaustive, rules only."""

    @functools.cache
    def wins(p: Position, left: int) -> bool:
        moves = p.legal_moves()
        if not moves:
            return p.turn is not winner
        if left == 0:
            return False
        children = (wins(p.play(m), left - 1) for m in moves)
        return any(children) if p.turn is winner else all(children)

    return wins(pos, plies)


def forced_crowning(pos: Position, plies: int, side: Color) -> bool:
    """Whether ``side`` can force, within ``plies`` plies, a king of its own while the opponent
    has none (or the opponent runs out of moves)."""

    @functools.cache
    def crowns(p: Position, left: int) -> bool:
        if p.kings_of(side) and not p.kings_of(side.other):
            return True
        if p.kings_of(side.other):
            return False
        moves = p.legal_moves()
        if not moves:
            return p.turn is not side
        if left == 0:
            return False
        children = (crowns(p.play(m), left - 1) for m in moves)
        return any(children) if p.turn is side else all(children)

    return crowns(pos, plies)


def copy_game(game: Game) -> Game:
    return Game.from_dict(game.to_dict())


def outcome_after(game: Game, move: Move) -> Termination | None:
    trial = copy_game(game)
    trial.play(move.pdn())
    return None if trial.outcome is None else trial.outcome.termination


def random_game(variant: Variant, seed: int, plies: int) -> Game:
    """A game of ``plies`` random legal moves from the start (fewer if it ends first)."""
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def sample_positions(
    count: int, seed: int, max_plies: int = 40, keys: list[str] | None = None
) -> Iterator[Game]:
    """``count`` running games over all variants (or those of ``keys``), each set up afresh from
    its position (no history, so the engine's repetition and no-progress bookkeeping play no
    part)."""
    rng = random.Random(seed)
    keys = keys or sorted(VARIANTS)
    made = 0
    while made < count:
        variant = VARIANTS[keys[made % len(keys)]]
        game = random_game(variant, rng.randrange(1 << 30), rng.randint(0, max_plies))
        if game.is_over or len(game.legal_moves()) < 2:
            continue
        made += 1
        yield Game(variant, game.position)


def shuffle_game(
    start: Position,
    plies: int,
    frozen: tuple[int, ...] = (),
    end: Callable[[Position], bool] = lambda pos: not pos.legal_moves()[0].is_capture,
) -> Game:
    """A game from ``start`` of exactly ``plies`` king steps (no captures, no man moves, no king
    on a square in ``frozen`` moving), no position occurring three times and nobody running out
    of moves, that ends in a position satisfying ``end``.  Depth-first, preferring positions seen
    less often; deterministic."""
    seen: Counter[Position] = Counter({start: 1})
    line: list[Move] = []

    def extend(pos: Position) -> bool:
        if len(line) == plies:
            return end(pos)
        candidates = [
            m
            for m in pos.legal_moves()
            if not m.is_capture and not pos.men_of(pos.turn) & m.from_bit and m.start not in frozen
        ]
        candidates.sort(key=lambda m: (seen[pos.play(m)], m.path))
        for move in candidates:
            nxt = pos.play(move)
            if seen[nxt] >= 2 or not nxt.legal_moves():
                continue
            seen[nxt] += 1
            line.append(move)
            if extend(nxt):
                return True
            seen[nxt] -= 1
            line.pop()
        return False

    assert extend(start), "no such walk"
    game = Game(start.variant, start)
    for move in line:
        game.play(move.pdn())
    assert not game.is_over
    assert game.quiet_plies() == plies
    return game


# -- 1. tactics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tactic:
    name: str
    variant: str
    fen: str
    move: str
    depth: int
    check: Callable[[Position, Move], None]
    """Verifies the claim with the rules package only (mover to move in the given position)."""
    score: Callable[[int], bool]
    """What the engine's score must say."""


def wins(score: int) -> bool:
    return score >= MATE - 10_000


def gains_a_man(score: int) -> bool:
    return 90 <= score < WIN_BOUND


def not_lost(score: int) -> bool:
    return score > -WIN_BOUND


def others(pos: Position, move: Move) -> list[Move]:
    rest = [m for m in pos.legal_moves() if m != move]
    assert rest, "a tactic needs an alternative"
    return rest


def check_english_shot(pos: Position, move: Move) -> None:
    # 25-22 gives a man: 17x26 is forced, and 30x23x16 takes two back.
    after = pos.play(move)
    assert [m.pdn() for m in after.legal_moves()] == [mirror_or("17x26", pos)]
    assert after_best_reply(pos, move, 5) - material(pos, pos.turn) >= 1
    for other in others(pos, move):
        assert after_best_reply(pos, other, 5) <= material(pos, pos.turn)


def check_english_choice(pos: Position, move: Move) -> None:
    # Free choice: the single capture 22x13 is safe; the double 22x15x8 runs into 3x12x19.
    longer = [m for m in pos.legal_moves() if len(m.captured) > len(move.captured)]
    assert longer, "the right capture is not the longest one"
    assert after_best_reply(pos, move, 5) >= material(pos, pos.turn) + 1
    for other in longer:
        reply = max(pos.play(other).legal_moves(), key=lambda m: len(m.captured))
        assert len(reply.captured) == 2
        assert after_best_reply(pos, other, 5) <= material(pos, pos.turn)


def check_forced_win(plies: int) -> Callable[[Position, Move], None]:
    """The move wins by force within ``plies`` plies; no other move does."""

    def check(pos: Position, move: Move) -> None:
        assert forced_win(pos.play(move), plies - 1, pos.turn)
        for other in others(pos, move):
            assert not forced_win(pos.play(other), plies - 1, pos.turn), other

    return check


def check_only_move(pos: Position, move: Move) -> None:
    # Every other move loses within six plies (23-18 and 23-19 at once, 23-26 gets the king
    # shut in at the bottom edge); the right one, towards the double corner, survives ten.
    assert not forced_win(pos.play(move), 10, pos.turn.other)
    for other in others(pos, move):
        assert forced_win(pos.play(other), 5, pos.turn.other), other


def check_russian_landing(pos: Position, move: Move) -> None:
    # Both sequences take three and crown on the way; landing on 27 hands the king to K32.
    for other in others(pos, move):
        assert len(other.captured) == len(move.captured) == 3
        replies = pos.play(other).legal_moves()
        assert replies and all(other.end in r.captured for r in replies)
    assert after_best_reply(pos, move, 4) >= material(pos, pos.turn) + 2
    assert not any(r.is_capture for r in pos.play(move).legal_moves())


def check_breakthrough(pos: Position, move: Move) -> None:
    # 16-11 gives a man (7x16 or 10x17) and a man runs through to crown; nothing else crowns.
    after = pos.play(move)
    replies = after.legal_moves()
    assert replies and all(r.is_capture for r in replies)
    assert forced_crowning(after, 6, pos.turn)
    for other in others(pos, move):
        assert not forced_crowning(pos.play(other), 10, pos.turn), other


def check_international_shot(pos: Position, move: Move) -> None:
    # 32-27 gives a man: 21x32 is the only capture, then 38x27x18x7 takes three.
    after = pos.play(move)
    (reply,) = after.legal_moves()
    assert reply.captured == (move.end,)
    assert {len(m.captured) for m in after.play(reply).legal_moves()} == {3}
    assert after_best_reply(pos, move, 4) >= material(pos, pos.turn) + 2
    for other in others(pos, move):
        assert after_best_reply(pos, other, 4) <= material(pos, pos.turn)


def mirror_or(text: str, pos: Position) -> str:
    """``text`` as given for the unmirrored position (White to move there), else mirrored."""
    return text if pos.turn is Color.WHITE else mirror_text(text, pos.variant)


TACTICS = [
    Tactic(
        "english-shot-two-for-one",
        "english",
        "W:W25,28,30,32:B3,5,17,19",
        "25-22",
        4,
        check_english_shot,
        gains_a_man,
    ),
    Tactic(
        "english-free-choice-shorter-capture",
        "english",
        "W:W16,20,22,30,31:B3,7,11,17,18",
        "22x13",
        6,
        check_english_choice,
        gains_a_man,
    ),
    Tactic(
        "english-king-catches-lone-man",
        "english",
        "W:WK6:B11",
        "6-10",
        6,
        check_forced_win(7),
        wins,
    ),
    Tactic(
        "english-two-kings-against-one",
        "english",
        "W:WK22,K28:BK32",
        "22-18",
        8,
        check_forced_win(9),
        wins,
    ),
    Tactic(
        "english-only-move-to-the-double-corner",
        "english",
        "W:WK23:BK15",
        "23-27",
        8,
        check_only_move,
        not_lost,
    ),
    Tactic(
        "russian-choice-of-landing-square",
        "russian",
        "W:W9,21,25:B6,7,24,K32",
        "9x2x20x31",
        6,
        check_russian_landing,
        gains_a_man,
    ),
    Tactic(
        "russian-breakthrough-to-crown",
        "russian",
        "W:W13,14,16:B5,7,10",
        "16-11",
        6,
        check_breakthrough,
        gains_a_man,
    ),
    Tactic(
        "international-shot-three-for-one",
        "international",
        "W:W31,32,38,42,43,48:B3,4,6,12,21,22",
        "32-27",
        4,
        check_international_shot,
        lambda score: 200 <= score < WIN_BOUND,
    ),
    Tactic(
        "international-king-catches-lone-man",
        "international",
        "W:WK1:B33",
        "1-34",
        6,
        check_forced_win(5),
        wins,
    ),
]


@pytest.mark.parametrize("mirrored", [False, True], ids=["as-given", "mirrored"])
@pytest.mark.parametrize("tactic", TACTICS, ids=[t.name for t in TACTICS])
def test_tactic(tactic: Tactic, mirrored: bool) -> None:
    variant = find_variant(tactic.variant)
    pos = parse_fen(tactic.fen, variant)
    assert pos.turn is Color.WHITE
    expected = tactic.move
    if mirrored:
        pos = mirror(pos)
        expected = mirror_text(expected, variant)
    move = move_named(pos, expected)
    tactic.check(pos, move)

    result = search(Game(variant, pos), tactic.depth)
    assert result.move.pdn() == expected, (result, describe_score(result.score))
    assert tactic.score(result.score), (result.score, describe_score(result.score))
    # The principal variation is a legal line that starts with the move, and it bears the score
    # out: a win is still forced at its end within the plies the score promised, a material gain
    # is there once the captures are over.
    assert result.pv[0] == result.move
    end = pos
    for step in result.pv:
        end = end.play(move_named(end, step.pdn()))
    if result.score >= WIN_BOUND:
        assert forced_win(end, MATE - result.score - len(result.pv), pos.turn)
    elif tactic.score is gains_a_man:
        quiet = best_material(end, 0) * (1 if end.turn is pos.turn else -1)
        assert quiet >= material(pos, pos.turn) + 1, [m.pdn() for m in result.pv]


def test_engine_line_keeps_the_shots_material() -> None:
    """Playing the engine's own moves for both sides from the english shot keeps White a man up
    (the principal variation is not just legal, it is what the score claims)."""
    game = game_at("english", "W:W25,28,30,32:B3,5,17,19")
    start = material(game.position, Color.WHITE)
    for _ in range(6):
        game.play(search(game, 4).move)
    assert material(game.position, Color.WHITE) >= start + 1


def test_two_kings_win_is_played_out() -> None:
    """The engine, playing both sides at depth 8, wins 2 kings v 1 king from the position above
    within the nine plies its score promises."""
    game = game_at("english", "W:WK22,K28:BK32")
    first = search(game, 8)
    assert first.score >= WIN_BOUND
    promised = MATE - first.score
    while not game.is_over:
        game.play(search(game, 8).move)
    assert game.outcome is not None and game.outcome.winner is Color.WHITE
    assert game.ply <= promised


# -- 2. never an illegal move ------------------------------------------------------------------


@st.composite
def running_games(draw: st.DrawFn) -> Game:
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    game = random_game(variant, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 60)))
    assume(not game.is_over)
    return game


@PROPERTY
@given(game=running_games(), depth=st.integers(1, 3), level=st.integers(1, 6))
def test_engine_moves_are_legal(game: Game, depth: int, level: int) -> None:
    legal = game.legal_moves()
    result = search(game, depth, level=level, seed=depth)
    assert result.move in legal
    assert result.pv and result.pv[0] == result.move
    pos = game.position
    for step in result.pv:
        assert step in pos.legal_moves()
        pos = pos.play(step)
    if len(legal) == 1:
        assert result.move == legal[0]
    # The game accepts it.
    copy_game(game).play(result.move)


@pytest.mark.parametrize(
    ("variant", "fen", "only"),
    [
        ("english", "B:W22,28,30,32:B3,5,17,19", "17x26"),
        ("international", "B:W27,31,38,42,43,48:B3,4,6,12,21,22", "21x32"),
        ("russian", "B:W10:B6,24", "6x15"),
    ],
)
@pytest.mark.parametrize("level", [1, 3, 6])
def test_single_legal_move_is_played(variant: str, fen: str, only: str, level: int) -> None:
    game = game_at(variant, fen)
    assert [m.pdn() for m in game.legal_moves()] == [only]
    assert search(game, 4, level=level).move.pdn() == only


def test_single_legal_move_score_is_the_positions() -> None:
    """A forced move still gets a real score: after White's 25-22 shot, Black's only move 17x26
    loses a man (30x23x16), so Black's score must say so (not 0.00)."""
    game = game_at("english", "B:W22,28,30,32:B3,5,17,19")
    assert len(game.legal_moves()) == 1
    assert -best_material(game.position, 4) >= 1  # Black ends a man down (rules-only check)
    assert search(game, 4).score <= -90


# -- 3. determinism ----------------------------------------------------------------------------

# Positions and depths where the engine returned two different results for the same search: the
# first three when the search was repeated at once, the fourth after searches of other positions;
# the last two are controls.
REPEATED_SEARCHES = [
    ("english", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", 5),
    ("dame", "W:W6,13,14,25,27,28,30,31,K1:B16", 4),
    ("brazilian", "B:W17,28:B2,4,5,6,10,20,K29", 4),
    ("english", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", 6),
    ("international", "W:W31,32,38,42,43,48:B3,4,6,12,21,22", 4),
    ("russian", "W:W13,14,16:B5,7,10", 6),
]


@pytest.mark.parametrize(("variant", "fen", "depth"), REPEATED_SEARCHES)
def test_same_search_gives_same_result(variant: str, fen: str, depth: int) -> None:
    """``Limits`` promises that a fixed depth without a time limit makes the result depend only on
    the position and the seed: the same search repeated, or made after other searches, must
    return the same move and score."""
    game = game_at(variant, fen)
    first = search(game, depth)
    again = search(game, depth)
    assert (again.move, again.score) == (first.move, first.score)
    for other in sample_positions(3, seed=depth, keys=[variant]):
        search(other, depth)
    later = search(game, depth)
    assert (later.move, later.score) == (first.move, first.score)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_weaker_levels_repeat_with_the_same_seed(level: int) -> None:
    for game in sample_positions(12, seed=level):
        first = search(game, 4, level=level, seed=7)
        assert search(game, 4, level=level, seed=7) == first
        assert search(copy_game(game), 4, level=level, seed=7).move == first.move


def test_level_one_seeds_vary_across_positions() -> None:
    """Level 1 picks at random among the good moves: over 20 positions, some seed must change
    the choice somewhere (not necessarily in any single position)."""
    varied = 0
    for game in sample_positions(20, seed=99):
        moves = {search(game, 2, level=1, seed=seed).move.pdn() for seed in range(4)}
        varied += len(moves) > 1
    assert varied >= 1


# -- 4. levels ---------------------------------------------------------------------------------


def independent_root_scores(game: Game, depth: int) -> list[tuple[int, Move]]:
    """Every root move's exact score at ``depth`` from a searcher of our own (not the engine's
    cached one), as rules moves."""
    variant = game.variant
    searcher = Searcher(board_for(variant), evaluator(variant))
    state = state_of(game.position)
    past, quiet = api.repetition_history(game)
    scored = searcher.root_scores(state, depth, float("inf"), past, quiet)
    return [(score, api.to_move(game.position, raw)) for score, raw in scored]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_weaker_levels_choose_within_their_margin(level: int) -> None:
    spec = LEVELS[level]
    for seed, game in enumerate(sample_positions(15, seed=10 + level)):
        depth = min(spec.depth, 4)
        scored = independent_root_scores(game, depth)
        best = scored[0][0]
        allowed = {m: s for s, m in scored[: spec.choices] if s >= best - spec.margin}
        if spec.careless and random.Random((seed << 64) ^ game.position.key).random() < (
            spec.careless
        ):
            allowed = {m: s for s, m in scored}  # a careless move: any move at all
        forget()
        result = search(game, 4, level=level, seed=seed)
        assert result.move in allowed, (game.position.fen(), result, scored[:4])
        assert result.score == allowed[result.move]


def test_levels_get_stronger() -> None:
    """Deeper, longer and less random from level 1 to 6; levels 1-3 choose at random, 4-6 do
    not; there is no level 0 or 7."""
    levels = [LEVELS[n] for n in range(1, 7)]
    for weaker, stronger in itertools.pairwise(levels):
        assert weaker.depth <= stronger.depth
        assert weaker.time_share <= stronger.time_share
        assert weaker.margin >= stronger.margin
        assert weaker.careless >= stronger.careless
    assert all(LEVELS[n].choices > 1 for n in (1, 2, 3))
    assert all(LEVELS[n].choices == 1 and LEVELS[n].margin == 0 for n in (4, 5, 6))
    for level in (0, 7):
        with pytest.raises(ValueError):
            search(Game(ENGLISH), 2, level=level)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_level_six_with_depth_cap_is_the_best_root_move(depth: int) -> None:
    """Level 6 at depth D returns the best of the exact depth-D root scores (a win or loss
    only needs the same result: the search stops at the first forced result it sees); with the
    classic evaluation, the one the independent scores use."""
    for game in sample_positions(12, seed=depth):
        scored = independent_root_scores(game, depth)
        best = scored[0][0]
        forget()
        result = best_move(game, Limits(movetime=None, depth=depth, classic=True))
        if abs(best) >= WIN_BOUND:
            assert (result.score >= WIN_BOUND) == (best >= WIN_BOUND)
            assert (result.score <= -WIN_BOUND) == (best <= -WIN_BOUND)
        else:
            assert result.score == best, (game.position.fen(), result, scored[:3])
            assert {m: s for s, m in scored}[result.move] == best


@pytest.mark.parametrize("level", [4, 5, 6])
def test_strong_levels_agree_under_a_depth_cap(level: int) -> None:
    for game in sample_positions(6, seed=level):
        forget()
        strong = search(game, 3, level=level)
        forget()
        assert strong == search(game, 3)


# -- 5. draw rules -----------------------------------------------------------------------------


def repetition_game(start: str, moves: str) -> Game:
    game = game_at("english", start)
    for move in moves.split():
        game.play(move)
    return game


def losing_side_can_repeat() -> Game:
    """Black (one king against two) to move, where 27-32 repeats the start a third time."""
    return repetition_game("W:WK22,K28:BK32", "22-18 32-27 18-22 27-32 22-18 32-27 18-22")


def test_losing_side_forces_threefold_repetition() -> None:
    game = losing_side_can_repeat()
    assert game.position.fen() == "B:WK22,K28:BK27" and game.repetitions() == 2
    repeat = move_named(game.position, "27-32")
    assert outcome_after(game, repeat) is Termination.THREEFOLD_REPETITION
    for other in others(game.position, repeat):
        assert outcome_after(game, other) is None
    # Without the history Black is lost; with it, the repetition saves the game.
    assert search(Game(ENGLISH, game.position), 8).score <= -WIN_BOUND
    result = search(game, 8)
    assert result.move == repeat
    assert result.score == 0


def test_winning_side_avoids_threefold_repetition() -> None:
    game = repetition_game("B:WK18,K28:BK32", "32-27 18-22 27-32 22-18 32-27 18-22 27-32")
    assert game.position.fen() == "W:WK22,K28:BK32" and game.repetitions() == 2
    repeat = move_named(game.position, "22-18")  # the win in 9 without the history
    assert outcome_after(game, repeat) is Termination.THREEFOLD_REPETITION
    assert search(Game(ENGLISH, game.position), 8).move == repeat
    result = search(game, 8)
    assert result.move != repeat
    assert result.score > 100


@pytest.mark.parametrize("level", [1, 2, 3])
def test_weaker_levels_see_the_games_repetitions(level: int) -> None:
    """The weaker levels search the game's position too: the immediate threefold repetition
    is a draw for them as well, and the only move that does not lose."""
    game = losing_side_can_repeat()
    no_history = independent_root_scores(Game(ENGLISH, game.position), 4)
    assert all(score < -100 for score, _ in no_history)  # every move is bad without the history
    for seed in range(4):
        result = search(game, 4, level=level, seed=seed)
        if level == 3:  # the only move within 40 centimen of the best
            assert result.move.pdn() == "27-32"
        if result.move.pdn() == "27-32":
            assert result.score == 0


def test_weaker_levels_ignore_other_games_history() -> None:
    """A level-3 search of a game without history must not depend on the history of a game
    searched before it (the searcher is shared by all games of the variant)."""
    fen = "W:WK11,K28:BK32"  # 11-15 wins in 7
    fresh = search(game_at("english", fen), 4, level=3)
    assert fresh.move.pdn() == "11-15" and fresh.score >= WIN_BOUND
    other = repetition_game(fen, "11-15 32-27 15-11 27-32")  # 11-15 now repeats
    search(other, 1)
    assert search(game_at("english", fen), 4, level=3) == fresh


def test_no_progress_limit_draws_every_move() -> None:
    """Three kings against one, one ply before the 80-ply no-progress limit: every move (all
    king moves) ends the game drawn, so the engine's score is 0."""
    game = shuffle_game(parse_fen("B:WK1,K3,K10:BK32", ENGLISH), 79)
    assert game.quiet_plies() == ENGLISH.no_progress.moves * 2 - 1
    for move in game.legal_moves():
        assert outcome_after(game, move) is Termination.NO_PROGRESS
    assert search(Game(ENGLISH, game.position), 4).score > 150
    for depth in (1, 2, 4, 6):
        assert search(game, depth).score == 0


def test_progress_move_escapes_the_no_progress_draw() -> None:
    """One ply before the limit, White's king moves all draw; the man move (progress) keeps the
    game going with White a king up, so the engine plays it."""

    def man_can_move(pos: Position) -> bool:
        moves = pos.legal_moves()
        return not moves[0].is_capture and any(m.start == 29 for m in moves)

    game = shuffle_game(parse_fen("B:W29,K1,K3:BK32", ENGLISH), 79, end=man_can_move)
    progress = [m for m in game.legal_moves() if m.start == 29]
    for move in game.legal_moves():
        expected = None if move in progress else Termination.NO_PROGRESS
        assert outcome_after(game, move) is expected
    result = search(game, 4)
    assert result.move in progress
    assert result.score > 100


def test_blocking_win_on_the_last_allowed_ply() -> None:
    """The rules look for "no legal move" before the no-progress count, so a king move that
    leaves the opponent without a move wins even on the last ply the count allows
    (docs/rules/README.md).  Here Black's king shuttles 29-25-29 while White's spare king walks;
    at ply 79, 21-25 or 30-25 shuts the black king in the corner: an immediate win."""
    game = shuffle_game(parse_fen("B:W22,K18,K21,K30,K4:BK29", ENGLISH), 79, frozen=(18, 21, 30))
    assert game.position.squares(game.position.black_kings) == [29]
    assert game.quiet_plies() == 79
    winning = {
        m.pdn() for m in game.legal_moves() if outcome_after(game, m) is Termination.NO_MOVES
    }
    assert winning == {"21-25", "30-25"}
    result = search(game, 2)
    assert result.move.pdn() in winning
    assert result.score == MATE - 1


# -- 6. the command line -----------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_start_position() -> None:
    done = run_cli("--variant", "english", "--movetime", "200")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines
    assert lines[-1] in {m.pdn() for m in Game(ENGLISH).legal_moves()}


def test_cli_info_lines() -> None:
    done = run_cli("--variant", "international", "--movetime", "200", "--info", "--no-book")
    assert done.returncode == 0, done.stderr
    *info, last = done.stdout.strip().splitlines()
    assert info
    for line in info:
        words = line.split()
        for key in ("depth", "score", "nodes", "nps"):
            assert key in words, line
        assert words[words.index("depth") + 1].isdigit()
        assert words[words.index("nodes") + 1].isdigit()
        assert words[words.index("nps") + 1].isdigit()
    depths = [int(line.split()[1]) for line in info]
    assert depths == list(range(1, len(depths) + 1))
    assert last in {m.pdn() for m in Game(find_variant("international")).legal_moves()}
    assert info[-1].split(" pv ")[1].split()[0] == last


def test_cli_fen_and_depth() -> None:
    done = run_cli(
        "--variant", "russian", "--fen", "W:W9,21,25:B6,7,24,K32", "--movetime", "5000",
        "--depth", "4", "--info",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "9x2x20x31"
    assert len(lines) == 5  # depths 1-4, then the move


def test_cli_bad_fen() -> None:
    done = run_cli("--variant", "english", "--fen", "X:W21:B1", "--movetime", "200")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "error:" in done.stderr and "side to move" in done.stderr


def test_cli_level_and_seed() -> None:
    args = ("--variant", "english", "--movetime", "200", "--level", "3", "--seed", "5")
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr
    move = first.stdout.strip().splitlines()[-1]
    assert move in {m.pdn() for m in Game(ENGLISH).legal_moves()}
    assert run_cli(*args).stdout.strip().splitlines()[-1] == move


@pytest.mark.parametrize("fen", ["W:B5", "B:W32:B28"])
def test_cli_finished_position(fen: str) -> None:
    assert Game(ENGLISH, parse_fen(fen, ENGLISH)).is_over
    done = run_cli("--variant", "english", "--fen", fen, "--movetime", "200")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "no move" in done.stderr


def test_best_move_refuses_a_finished_game() -> None:
    with pytest.raises(ValueError):
        search(game_at("english", "W:B5"), 2)


def test_describe_score() -> None:
    assert describe_score(35) == "+0.35"
    assert describe_score(-120) == "-1.20"
    assert describe_score(MATE - 7) == "win in 7"
    assert describe_score(-MATE + 4) == "loss in 4"


# -- 7. evaluation -----------------------------------------------------------------------------


def evaluate(pos: Position) -> int:
    return evaluator(pos.variant)(state_of(pos))


@st.composite
def played_positions(draw: st.DrawFn) -> Position:
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    return random_game(variant, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 150))).position


@PROPERTY
@given(pos=played_positions())
def test_mirrored_positions_evaluate_the_same(pos: Position) -> None:
    turned = mirror(pos)
    assert mirror(turned) == pos
    assert evaluate(turned) == evaluate(pos)


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_start_position_is_level(key: str) -> None:
    start = Position.start(VARIANTS[key])
    assert abs(evaluate(start)) < 30
    assert abs(evaluate(start.play(start.legal_moves()[0]))) < 30


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_extra_man_scores_higher(key: str) -> None:
    """From the start, and from positions of random games with men on both sides, a man more
    for the side to move (on any free square it could stand on) raises its score; a man less
    lowers it.  Giving away (antidraughts) it is the other way round."""
    variant = VARIANTS[key]
    sign = -1 if variant.goal is Goal.GIVE_AWAY else 1
    g = variant.geometry
    positions = [Position.start(variant)]
    rng = random.Random(key)
    while len(positions) < 8:
        pos = random_game(variant, rng.randrange(1 << 30), rng.randint(0, 40)).position
        if pos.white_men and pos.black_men:
            positions.append(pos)
    for pos in positions:
        base = evaluate(pos)
        own = pos.turn
        crowning = g.top_row if own is Color.WHITE else g.bottom_row
        for square in range(1, g.squares + 1):
            if pos.piece_at(square) or crowning & g.bit(square):
                continue
            men = {c: pos.squares(pos.men_of(c)) for c in Color}
            men[own] = [*men[own], square]
            more = Position.from_squares(
                variant,
                own,
                men[Color.WHITE],
                pos.squares(pos.white_kings),
                men[Color.BLACK],
                pos.squares(pos.black_kings),
            )
            assert sign * (evaluate(more) - base) > 0, (pos.fen(), square)
        for square in pos.squares(pos.men_of(own.other)):
            men = {c: pos.squares(pos.men_of(c)) for c in Color}
            men[own.other] = [s for s in men[own.other] if s != square]
            fewer = Position.from_squares(
                variant,
                own,
                men[Color.WHITE],
                pos.squares(pos.white_kings),
                men[Color.BLACK],
                pos.squares(pos.black_kings),
            )
            assert sign * (evaluate(fewer) - base) > 0, (pos.fen(), square)


def test_king_mobility_follows_the_board_s_directions() -> None:
    """A lone king's mobility is the number of its neighbours: 2 in a corner, 3 on an edge, 4
    inside, on the diagonal boards and on the orthogonal one, where a shift along a row must not
    wrap to the next row (a king on h8, square 8, has no neighbour on a7, square 9)."""
    for variant in (VARIANTS["english"], VARIANTS["international"], VARIANTS["turkish"]):
        g = variant.geometry
        evaluate_kings = evaluator(variant)
        for square in range(1, g.squares + 1):
            bit = g.bit(square)
            index = g.index_of[square]
            neighbours = sum(g.neighbour[d][index] >= 0 for d in range(4))
            assert evaluate_kings._king_mobility(bit, g.valid & ~bit) == neighbours, square
