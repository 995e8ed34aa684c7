"""Post-game analysis (``engine.analysis``, ``engine.analysis_pdn``): the engine's verdict on a
game with a known blunder, the judgement and accuracy rules on hand-made scores, and the
annotated PDN read back by ``rules.pdn``."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from support.analysis_games import BLUNDER_MOVES, BLUNDER_PLY, blunder_game

from engine.analysis import (
    DECIDED,
    GameAnalysis,
    Judgement,
    PositionScore,
    assemble,
    chance,
    evaluate_ply,
    judge,
    move_accuracy,
    threshold_points,
)
from engine.analysis_pdn import annotated_pdn, eval_tag
from engine.scores import MATE
from rules.game import Game
from rules.pdn import parse_pdn, read_games
from rules.variants import VARIANTS, Color

FAST = {"seconds": 0.1, "nodes": 150_000}
"""A smaller budget than the bot's: two men and a king are seen at any depth."""


@cache
def analysed() -> tuple[Game, GameAnalysis]:
    game = blunder_game()
    record = game.to_dict()
    found = [
        PositionScore.from_dict(evaluate_ply(record, ply, **FAST)) for ply in range(game.ply + 1)
    ]
    return game, assemble(record, found)


def test_the_blunder_is_flagged_at_its_move_with_a_better_one() -> None:
    game, analysis = analysed()
    blunder = analysis.plies[BLUNDER_PLY]
    assert blunder.move == BLUNDER_MOVES[BLUNDER_PLY] == "11-15"
    assert blunder.mover is Color.BLACK
    assert blunder.judgement is Judgement.BLUNDER
    assert blunder.loss == max(p.loss for p in analysis.plies)
    assert analysis.judged(Color.BLACK)[-1] == blunder
    assert [p.ply for p in analysis.plies if p.judgement is Judgement.BLUNDER] == [BLUNDER_PLY]
    # White's side gains at least two men by it
    assert blunder.after - blunder.before >= 200
    # the better move is another legal move, and the engine's line is legal from there
    position = game.positions[BLUNDER_PLY]
    assert blunder.better is not None and blunder.better != "11-15"
    assert blunder.line[0] == blunder.better
    line_game = Game(game.variant, position)
    for text in blunder.line:
        line_game.play(text)
    assert analysis.count(Color.BLACK, Judgement.BLUNDER) == 1
    assert analysis.count(Color.WHITE, Judgement.BLUNDER) == 0


def test_accuracy_is_lower_for_the_blunderer() -> None:
    _, analysis = analysed()
    white, black = analysis.accuracy[Color.WHITE], analysis.accuracy[Color.BLACK]
    assert white is not None and black is not None
    assert 0 <= black < white <= 100
    assert len(analysis.scores) == len(BLUNDER_MOVES) + 1
    assert analysis.depth >= 3


def test_the_analysis_survives_json() -> None:
    _, analysis = analysed()
    again = GameAnalysis.from_dict(json.loads(json.dumps(analysis.to_dict())))
    assert again.to_dict() == analysis.to_dict()
    assert again.plies[BLUNDER_PLY].judgement is Judgement.BLUNDER


def test_annotated_pdn_reads_back_with_its_comments_and_lines() -> None:
    game, analysis = analysed()
    text = annotated_pdn(game, analysis, {"White": "Ann", "Black": "Bob"})
    [record] = parse_pdn(text)
    assert record.errors == []
    assert record.moves == [m.pdn() for m in game.moves]
    [read] = read_games(text)
    assert read.errors == [] and read.game.moves == game.moves
    assert read.game.result() == "1-0"
    assert record.tags["Annotator"] == "Engine analysis"
    # the blunder carries ?? and its comment, then the engine's line as a variation
    blunder = analysis.plies[BLUNDER_PLY]
    match = re.search(r"11-15\s+\$4\s+\{([^}]*)\}\s+\(([^()]*)\)", text)
    assert match is not None, text
    comment, variation = (" ".join(part.split()) for part in match.groups())
    assert comment.startswith(eval_tag(blunder.after))
    assert f"Blunder ({blunder.before / 100:+.2f} → {blunder.after / 100:+.2f})" in comment
    assert f"Better: {blunder.better}" in comment
    # the variation replays from the position before the blunder, move numbers and all
    [line] = parse_pdn(variation + " *")
    assert line.moves == list(blunder.line)
    replayed = Game(game.variant, game.positions[BLUNDER_PLY])
    for move in line.moves:
        replayed.play(move)
    # every move carries the engine's score
    assert len(re.findall(r"\[%eval [-#0-9.]+\]", text)) == len(game.moves)
    assert max(len(row) for row in text.splitlines()) <= 79


# -- the rules on hand-made scores ------------------------------------------------------------


def test_thresholds_are_half_a_man_one_man_two_men_from_level() -> None:
    assert chance(0) == 0.5
    assert chance(100) == pytest.approx(0.6)
    assert chance(DECIDED) == 1.0 and chance(-MATE) == 0.0
    points = [threshold_points(j) for j in Judgement]
    assert points == sorted(points)
    assert judge(100 * (chance(0) - chance(-99))) is Judgement.INACCURACY
    assert judge(100 * (chance(0) - chance(-100))) is Judgement.MISTAKE
    assert judge(100 * (chance(0) - chance(-200))) is Judgement.BLUNDER
    assert judge(100 * (chance(0) - chance(-40))) is None
    # five men up, one lost: still winning, barely judged
    assert judge(100 * (chance(500) - chance(400))) is None
    # a won position let slip to a draw: a blunder whatever the men
    assert judge(100 * (chance(MATE - 9) - chance(0))) is Judgement.BLUNDER
    assert move_accuracy(0) == 100 and move_accuracy(100) == 0
    assert move_accuracy(threshold_points(Judgement.BLUNDER)) < 50


def _record(moves: list[str]) -> dict[str, object]:
    game = Game(VARIANTS["english"])
    for text in moves:
        game.play(text)
    return game.to_dict()


def test_forced_moves_and_the_engines_choice_are_never_judged() -> None:
    # 1. 11-15 23-19 2. 8-11 22-17: scores as if White's 22-17 lost two men
    record = _record(["11-15", "23-19", "8-11", "22-17"])
    found = [
        PositionScore(0, ("11-15",), 5, 7),
        PositionScore(0, ("23-19",), 5, 7),
        PositionScore(0, ("9-13",), 5, 7),  # Black plays 8-11 instead: no loss measured
        PositionScore(0, ("22-18",), 5, 1),  # one legal move (as if forced)
        PositionScore(-300, ("9-13",), 5, 7),
    ]
    analysis = assemble(record, found)
    assert [p.judgement for p in analysis.plies] == [None, None, None, None]
    assert analysis.plies[3].loss == 0
    # Black's accuracy counts 11-15 and 8-11; White's only 23-19 (22-17 had no choice)
    assert analysis.accuracy == {Color.WHITE: 100.0, Color.BLACK: 100.0}


def test_a_position_the_rules_ended_scores_the_result() -> None:
    game = Game(VARIANTS["english"])
    game.play("11-15")
    game.resign(Color.WHITE)
    record = game.to_dict()
    found = [PositionScore.from_dict(evaluate_ply(record, p, **FAST)) for p in (0, 1)]
    assert found[1].choices > 1  # resigned: the last position is searched
    with pytest.raises(ValueError):
        evaluate_ply(record, 2)
    analysis = assemble(record, found)
    assert len(analysis.scores) == 2
