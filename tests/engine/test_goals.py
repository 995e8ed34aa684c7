"""The engine plays each variant for its own goal: antidraughts to be left without pieces or
moves, breakthrough to crown first.  Both searches (the core's and the reference's) score the
end as a win for the side that reached the goal, and the endgame tables are solved for each
goal (their values against a brute force on the referee: tests/engine/test_endgame.py)."""

from __future__ import annotations

import pytest
from support.engine_play import play_out

from engine import _core, native_search
from engine.api import Limits, native_best_move, python_best_move
from engine.endgame import WIN, apply_policy, new_table, signature, table_variants
from engine.native import GOAL_CODES, core_state
from engine.reference.board import state_of
from engine.reference.evaluate import evaluator
from engine.scores import MATE
from rules.fen import parse_fen
from rules.game import Game
from rules.variants import ANTIDRAUGHTS, BREAKTHROUGH, INTERNATIONAL, Variant

SEARCHES = [native_best_move, python_best_move]
EXACT = Limits(movetime=None, depth=6, level=6)


def _best(search, variant: Variant, fen: str):
    return search(Game(variant, parse_fen(fen, variant)), EXACT)


@pytest.mark.parametrize("search", SEARCHES)
def test_antidraughts_gives_its_last_man_away(search) -> None:
    # 33-29 offers the man to 24x33, after which White, without pieces, has won (in two plies);
    # 33-28 cannot be taken: the man stays and the game goes on.
    result = _best(search, ANTIDRAUGHTS, "W:W33:B24,19")
    assert result.move.pdn() == "33-29"
    assert result.score == MATE - 2
    # Under the standard goal the same man is not thrown away.
    assert _best(search, INTERNATIONAL, "W:W33:B24,19").move.pdn() == "33-28"


@pytest.mark.parametrize("search", SEARCHES)
def test_antidraughts_sacrifices_into_a_capture(search) -> None:
    result = _best(search, ANTIDRAUGHTS, "W:W32,33:B23,24,19,14")
    assert result.score >= MATE - 4, [m.pdn() for m in result.pv]


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize(
    ("fen", "moves", "plies"),
    [
        ("W:W7:B44", {"7-1", "7-2"}, 1),  # crowns at once
        ("W:W13:B39", {"13-8", "13-9"}, 3),  # two moves each from the far row: White is first
        ("W:W17,18:B33", {"17-11", "17-12", "18-12", "18-13"}, 5),
    ],
)
def test_breakthrough_races_to_the_first_king(
    search, fen: str, moves: set[str], plies: int
) -> None:
    # Every move listed crowns as soon as the best one can; which of them a search plays is its
    # move order's and evaluation's business (the learned weights changed it).
    result = _best(search, BREAKTHROUGH, fen)
    assert result.move.pdn() in moves
    assert result.score == MATE - plies


def test_the_classic_evaluation_is_reversed_giving_away() -> None:
    # The core's and the reference's, on the same positions: antidraughts is international's
    # evaluation with the sign changed.
    fens = ["W:W28,33,K46:B22,23,K19,13", "B:W31,32,33,34,35:B16,17,18", "W:W50:BK1,K2"]
    for fen in fens:
        anti = state_of(parse_fen(fen, ANTIDRAUGHTS))
        standard = state_of(parse_fen(fen, INTERNATIONAL))
        assert evaluator(ANTIDRAUGHTS)(anti) == -evaluator(INTERNATIONAL)(standard)


@pytest.mark.parametrize("variant", [ANTIDRAUGHTS, BREAKTHROUGH])
def test_each_goal_has_endgame_tables_of_its_own(variant: Variant) -> None:
    """Named and headed by their goal, so neither a goal's table nor International's serves the
    other; breakthrough's hold men alone (a crowning ends the game).  Neither goal has an
    endgame count or a no-progress count, so the search believes every slice."""
    assert variant in table_variants([])
    code = GOAL_CODES[variant.goal]
    assert signature(variant) == f"10x10bfmg{code}-c1" != signature(INTERNATIONAL)
    table = new_table(variant, 3)
    table.build()
    apply_policy(variant, table)
    assert all(trusted for *_, trusted in table.slices())
    if variant is BREAKTHROUGH:
        assert all(kings == their_kings == 0 for _, kings, _, their_kings, *_ in table.slices())
    international = new_table(INTERNATIONAL, 3)
    international.build()
    for rules_of, other in ((variant, international), (INTERNATIONAL, table)):
        with pytest.raises(ValueError, match="other rules"):
            native_search.set_endgame(rules_of, other)


def test_antidraughts_tables_know_what_the_search_misjudges() -> None:
    """Two men each, White's two steps from crowning: giving everything away is won for White,
    which a search of 5,000 nodes scores as a loss; the 3-piece table, met after the first
    capture, tells it."""
    fen = "W:W10,14:B45,34"
    table = new_table(ANTIDRAUGHTS, 3)
    table.build()
    apply_policy(ANTIDRAUGHTS, table)
    assert searched(fen, None) < 0
    assert abs(searched(fen, table) - _core.EGDB_WIN_SCORE) <= 50_000  # a table win


def searched(fen: str, table: _core.EndgameTable | None) -> int:
    """The native search's score of an antidraughts position at 5,000 nodes."""
    native_search.set_endgame(ANTIDRAUGHTS, table)
    try:
        return native_search.search(
            parse_fen(fen, ANTIDRAUGHTS),
            quiet=0,
            past=(),
            max_depth=64,
            seconds=None,
            nodes=5_000,
            fresh=True,
        ).score
    finally:
        native_search.set_endgame(ANTIDRAUGHTS, None)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        (BREAKTHROUGH, "W:W34:B14,29"),  # won by crowning
        (BREAKTHROUGH, "W:W36,43:B10"),  # won by taking the last man
        (ANTIDRAUGHTS, "W:W36,43:B10"),  # won by giving both men away
        (ANTIDRAUGHTS, "W:W30,6:B10"),
    ],
)
def test_the_engine_converts_a_table_win_for_its_goal(variant: Variant, fen: str) -> None:
    """From a position the 3-piece table says is won, the engine playing both sides with the
    table (2,000 nodes a move) wins it for the side to move: at a won root the moves kept are
    the ones that keep the win, a crowning that ends breakthrough among them."""
    table = new_table(variant, 3)
    table.build()
    apply_policy(variant, table)
    start = parse_fen(fen, variant)
    assert table.probe(*core_state(start)) == WIN
    game = play_out(variant.key, fen, table, plies=60, nodes=2_000)
    assert game.outcome is not None and game.outcome.winner is start.turn, game.outcome
