"""The engine plays each variant for its own goal: antidraughts to be left without pieces or
moves, breakthrough to crown first.  Both searches (the core's and the reference's) score the
end as a win for the side that reached the goal, and the endgame tables (solved for the standard
goal) are kept away from both."""

from __future__ import annotations

import pytest

from engine import _core
from engine.api import Limits, native_best_move, python_best_move
from engine.endgame import has_tables, table_variants
from engine.native import core_rules
from engine.reference.board import state_of
from engine.reference.evaluate import evaluator
from engine.scores import MATE
from rules.fen import parse_fen
from rules.game import Game
from rules.variants import ANTIDRAUGHTS, BREAKTHROUGH, INTERNATIONAL, VARIANTS, Variant

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


@pytest.mark.parametrize(
    "variant", [v for v in VARIANTS.values() if not has_tables(v) and not v.king_move_limit]
)
def test_no_endgame_table_for_another_goal(variant: Variant) -> None:
    assert variant.goal is not INTERNATIONAL.goal
    assert variant not in table_variants([])
    with pytest.raises(ValueError, match="standard goal"):
        _core.EndgameTable(core_rules(variant), 3)
