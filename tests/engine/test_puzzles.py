"""Puzzles (issue 30): found in games, proved deeper than found, rated, shipped per variant.

- Hand-made English positions: a 2-for-1 shot is found with its whole line, its first move
  still the only one a ply deeper than it was proved; a position where two moves win is refused,
  and so is one whose winning line is only captures (the rules chose them) or whose first move is
  forced; a small win stands only when an endgame table (built here, 3 pieces) says no other
  move wins.
- An International shot (men capture backwards) is found with its line.
- A game containing the shot gives it once, named by the game's source and ply; winning back
  what an opponent's capture just took is no gain (the baseline).
- ``Puzzle.to_dict``/``from_dict`` round trip, and bad data refused naming its field; a set with
  a puzzle that does not replay, ends on a reply, is of another variant or not proved deeper is
  refused naming the puzzle.
- Every shipped puzzle of every variant replays by the rules, ends on the solver's move, starts
  with a choice and asks at least one quiet move; a sample is proved again here.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine import endgame, puzzle_search
from engine.api import to_move
from engine.puzzle_rating import rate
from engine.puzzle_search import (
    MAN,
    Line,
    baseline,
    continuation_gain,
    depths_for,
    material,
    only_move,
    scores,
)
from engine.puzzles import (
    Puzzle,
    checked_set,
    covered,
    find_puzzles,
    puzzle_at,
    starter_puzzles,
)
from rules.fen import parse_fen
from rules.game import Game
from rules.notation import parse_move
from rules.variants import ENGLISH, VARIANTS, Color

SHOT = "W:W14,26,31:B3,17,19"
"""White gives a man with 26-23; Black must take 19x26; 31x22x13 takes two back."""
TWO_SHOTS = "W:W22,23,26,29,30,31:B2,3,4,6,14,15"
"""22-18 and 23-18 both sacrifice a man into a multi-capture: two winning moves."""
CAPTURES_ONLY = "W:W13,21,24:B9,10,19"
"""White must capture: 24x15x6 takes two, 13x6 one that Black takes back."""


def game_from(fen: str) -> Game:
    return Game(ENGLISH, parse_fen(fen, ENGLISH))


def test_a_two_for_one_shot_is_found_with_its_whole_line() -> None:
    position = parse_fen(SHOT, ENGLISH)
    puzzle = puzzle_at(position, "hand-made")
    assert puzzle is not None
    assert puzzle.solution == ("26-23", "19x26", "31x22x13")
    assert (puzzle.gain, puzzle.gain_men) == ("material", 1)
    depths = depths_for(ENGLISH)
    assert (puzzle.depth_found, puzzle.depth_verified) == (depths.found, depths.verified)
    assert puzzle.depth_verified > puzzle.depth_found
    # Still the only move one ply deeper than it was proved.
    deeper = scores(game_from(SHOT), puzzle.depth_verified + 1)
    assert only_move(deeper) == "material"
    assert to_move(position, deeper[0][1]).pdn() == "26-23"
    assert puzzle.replay().position.material(Color.WHITE) == (0, 2, 0, 1)


def test_an_international_shot_ends_with_a_backward_capture() -> None:
    variant = VARIANTS["international"]
    puzzle = puzzle_at(parse_fen("W:W20,24,25,43,48:B4,6,22,32,44", variant), "hand-made")
    assert puzzle is not None
    assert puzzle.solution == ("43-38", "32x43", "48x39x50")  # 39x50: a man taking backwards
    assert (puzzle.gain, puzzle.gain_men, puzzle.depth_verified) == ("material", 1, 8)


def test_a_position_with_two_winning_moves_is_refused() -> None:
    game = game_from(TWO_SHOTS)
    side = game.turn
    base = material(game.position, side)
    for text in ("22-18", "23-18"):
        line = game.copy()
        line.play(text)
        gain = continuation_gain(line, side, base, depths_for(ENGLISH).verified)
        assert gain is not None and gain >= MAN, text  # each of the two wins material
    assert puzzle_at(game.position, "hand-made") is None


def test_a_line_of_captures_only_is_refused() -> None:
    game = game_from(CAPTURES_ONLY)
    assert all(move.is_capture for move in game.legal_moves())
    assert len(game.legal_moves()) == 2
    found = scores(game, depths_for(ENGLISH).found)
    assert only_move(found) == "material"
    assert to_move(game.position, found[0][1]).pdn() == "24x15x6"  # it does win, but by rule
    assert puzzle_at(game.position, "hand-made") is None


def test_a_forced_first_move_is_no_puzzle() -> None:
    game = game_from(SHOT)
    game.play("26-23")
    game.play("19x26")
    assert len(game.legal_moves()) == 1  # the shot's own double capture, forced
    assert puzzle_at(game.position, "hand-made") is None


def test_a_small_win_stands_only_when_the_endgame_table_says_no_other_move_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lone = parse_fen("W:WK6,K23:BK5", ENGLISH)  # two kings against one: any sensible move wins
    crown = parse_fen("W:W8,K23:BK4", ENGLISH)  # only 8-3 wins: the others let the king out
    for position in (lone, crown):
        found = scores(Game(ENGLISH, position), depths_for(ENGLISH).found)
        assert only_move(found) == "win"  # as far as the search sees
        assert puzzle_at(position, "hand-made") is None  # no table at hand: refused
    table = endgame.obtain(ENGLISH, 3, tmp_path)
    assert table is not None
    monkeypatch.setitem(puzzle_search._tables, ENGLISH, table)
    assert puzzle_at(lone, "hand-made") is None
    puzzle = puzzle_at(crown, "hand-made")
    assert puzzle is not None and puzzle.gain == "win"
    assert puzzle.solution[0] == "8-3"


def test_a_game_gives_its_shot_once_named_by_source_and_ply() -> None:
    game = Game(ENGLISH, parse_fen("B:W14,26,31:B3,17,19,10", ENGLISH))
    for text in ("10-15", "26-23", "19x26", "31x22x13"):
        game.play(text)
    found = find_puzzles(game.to_dict(), 60.0, source="game 123")
    assert [Puzzle.from_dict(item).source for item in found] == ["game 123 ply 1"]
    assert found[0]["solution"] == ["26-23", "19x26", "31x22x13"]
    assert find_puzzles(game.to_dict(), 0.0) == []  # no time: nothing tried
    assert find_puzzles(game.to_dict(), 60.0, plies=range(2, 5)) == []  # the shot is at ply 1
    assert len(find_puzzles(game.to_dict(), 60.0, plies=range(1, 2))) == 1


def test_a_puzzle_joined_inside_another_s_line_is_covered_by_it() -> None:
    shot = puzzle_at(parse_fen(SHOT, ENGLISH), "game 1 ply 0")
    assert shot is not None
    inside = replace(shot, fen=shot.replay().positions[2].fen(), solution=shot.solution[2:])
    assert covered(inside, shot)
    assert not covered(shot, inside)
    assert not covered(replace(inside, variant="dame"), shot)


def test_winning_back_a_man_just_taken_is_no_gain() -> None:
    game = game_from(SHOT)
    before = game.position
    game.play("26-23")
    after_sacrifice = game.position
    last = game.play("19x26")
    side = game.turn
    assert material(game.position, side) == material(before, side) - MAN
    assert baseline(game.position, after_sacrifice, last) == material(after_sacrifice, side)
    assert baseline(before, None, None) == material(before, side)


def test_to_dict_and_from_dict_round_trip_and_refuse_bad_fields() -> None:
    puzzle = puzzle_at(parse_fen(SHOT, ENGLISH), "hand-made")
    assert puzzle is not None
    data = puzzle.to_dict()
    assert Puzzle.from_dict(data) == puzzle
    assert data["solution"] == list(puzzle.solution)
    for field, bad in (("gain", "draw"), ("rating", "1500"), ("solution", "26-23"), ("fen", "")):
        with pytest.raises(ValueError, match=field):
            Puzzle.from_dict({**data, field: bad})


def test_a_set_with_a_broken_puzzle_is_refused_naming_it() -> None:
    puzzle = puzzle_at(parse_fen(SHOT, ENGLISH), "game 9 ply 4")
    assert puzzle is not None
    good = puzzle.to_dict()
    assert checked_set({"puzzles": [good]}, "english") == (puzzle,)
    broken = (
        {**good, "solution": ["26-22", "19x26", "31x22x13"]},  # after 26-22 no 19x26
        {**good, "solution": ["26-23", "19x26"]},  # ends on the reply
        {**good, "variant": "dame"},
        {**good, "depth_verified": good["depth_found"]},
    )
    for item in broken:
        with pytest.raises(ValueError, match="game 9 ply 4"):
            checked_set({"puzzles": [item]}, "english")
    with pytest.raises(ValueError, match="no list"):
        checked_set({}, "english")


def test_harder_lines_rate_higher() -> None:
    game = game_from(SHOT)
    moves = tuple(game.play(text) for text in ("26-23", "19x26", "31x22x13"))
    shot = Line("material", moves, gain=MAN, given=MAN, seen_at=3, alternatives=5)
    assert rate(shot) == 1000 + 150 * 1 + 200 + 60 * 2 + 10 * 5
    assert rate(shot) < rate(Line("material", moves, MAN, given=2 * MAN, seen_at=5, alternatives=5))
    assert rate(shot) < rate(Line("win", moves, MAN, given=MAN, seen_at=3, alternatives=5))


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_shipped_puzzle_replays_by_the_rules(key: str) -> None:
    puzzles = starter_puzzles(key)
    assert len(puzzles) >= 30
    assert len({p.fen for p in puzzles}) == len(puzzles)
    depths = depths_for(VARIANTS[key])
    for puzzle in puzzles:
        game = puzzle.replay()
        assert len(game.moves) == len(puzzle.solution) and len(game.moves) % 2 == 1
        assert len(game.positions[0].legal_moves()) >= 2, puzzle.source
        assert any(not move.is_capture for move in game.moves[::2]), puzzle.source
        assert (puzzle.depth_found, puzzle.depth_verified) == (depths.found, depths.verified)
        assert 600 <= puzzle.rating <= 2500
        if puzzle.gain == "material":
            assert puzzle.gain_men >= 1, puzzle.source
    # A sample proved again here: its first move is still the only one at the depth it claims.
    puzzle = random.Random(key).choice(puzzles)
    game = Game(VARIANTS[key], parse_fen(puzzle.fen, VARIANTS[key]))
    proved = scores(game, puzzle.depth_verified)
    assert only_move(proved, puzzle.gain) == puzzle.gain, puzzle.source
    first = parse_move(game.position, puzzle.solution[0], game.legal_moves())
    assert to_move(game.position, proved[0][1]) == first, puzzle.source
