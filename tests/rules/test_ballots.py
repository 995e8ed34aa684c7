"""The ACF three-move ballot list: the transcribed data against the rules engine.

The data was typed in from another program's table, so every opening is replayed here: a typo in a
square number shows up as an illegal move, a duplicate or a transposition into another opening.

What the enumeration below found (English rules, captures compulsory): from the start position
there are 302 legal three-ply move sequences, reaching 216 distinct positions.  The ACF list is
not all of them: its 174 openings are a subset of the 302 sequences that reach 174 distinct
positions, one sequence per position (e.g. ``10-15 21-17 9-13`` is listed, its transposition
``9-13 21-17 10-15`` is not); the other 42 positions are not on the list at all.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from rules.ballots import (
    ACF_BALLOTS,
    CROSSBOARD,
    Ballot,
    ballot_of,
    draw_ballot,
    parse_ballots,
)
from rules.game import Game
from rules.position import Position
from rules.variants import Color, find_variant

ENGLISH = find_variant("english")


def replay(moves: tuple[str, ...]) -> Game:
    """A new English game with ``moves`` played (raises if one is illegal)."""
    game = Game(ENGLISH)
    for move in moves:
        game.play(move)
    return game


@cache
def all_three_ply() -> dict[tuple[str, ...], Position]:
    """Every legal three-ply sequence from the start, in ``Move.pdn`` form, and where it leads."""
    found: dict[tuple[str, ...], Position] = {}

    def walk(path: tuple[str, ...]) -> None:
        game = replay(path)
        if len(path) == 3:
            found[path] = game.position
            return
        for move in game.legal_moves():
            walk((*path, move.pdn()))

    walk(())
    return found


def test_counts() -> None:
    categories = Counter(b.category for b in ACF_BALLOTS)
    assert len(ACF_BALLOTS) == 174
    assert categories == {"crossboard": 144, "mail": 12, "barred": 18}
    assert len(CROSSBOARD) == 144


def test_numbers_run_in_acf_order() -> None:
    assert [b.number for b in ACF_BALLOTS] == list(range(1, 175))


@pytest.mark.parametrize("ballot", ACF_BALLOTS, ids=lambda b: f"ACF{b.number}")
def test_ballot_is_legal_and_leaves_white_to_move(ballot: Ballot) -> None:
    game = replay(ballot.moves)
    assert [m.pdn() for m in game.moves] == list(ballot.moves)  # written as the engine writes
    assert not game.is_over
    assert game.turn is Color.WHITE


def test_no_two_ballots_share_moves_or_position() -> None:
    assert len({b.moves for b in ACF_BALLOTS}) == 174
    assert len({replay(b.moves).position for b in ACF_BALLOTS}) == 174


def test_list_against_all_legal_three_ply_sequences() -> None:
    legal = all_three_ply()
    assert len(legal) == 302
    assert len(set(legal.values())) == 216
    # Not complete: a subset of the legal sequences, one per position it covers.
    assert {b.moves for b in ACF_BALLOTS} <= legal.keys()
    listed_positions = {legal[b.moves] for b in ACF_BALLOTS}
    assert len(set(legal.values()) - listed_positions) == 42


def test_spot_checks() -> None:
    first, edinburgh, dundee, skunk = (ACF_BALLOTS[n - 1] for n in (1, 8, 35, 174))
    assert first == Ballot(1, ("9-13", "21-17", "5-9"), "crossboard", "")
    assert edinburgh.name == "Edinburgh Single"
    assert edinburgh.category == "crossboard"
    assert dundee == Ballot(35, ("9-13", "24-20", "12-16"), "barred", "Dundee Barred")
    assert skunk == Ballot(174, ("12-16", "24-20", "10-15"), "mail", "Skunk")


def test_labels() -> None:
    assert ACF_BALLOTS[7].label == "ACF #8 Edinburgh Single: 9-13 22-18 11-15"
    assert ACF_BALLOTS[6].label == "ACF #7: 9-13 22-18 10-15"


def test_draw_ballot_only_cross_board_and_reproducible() -> None:
    draws = [draw_ballot(random.Random(seed)) for seed in range(500)]
    assert all(b.category == "crossboard" for b in draws)
    assert len(set(draws)) > 100  # spread over the list, not stuck on a few
    rng_a, rng_b = random.Random(42), random.Random(42)
    assert [draw_ballot(rng_a) for _ in range(20)] == [draw_ballot(rng_b) for _ in range(20)]


def test_ballot_of() -> None:
    for ballot in ACF_BALLOTS:
        assert ballot_of(list(ballot.moves)) is ballot
    assert ballot_of(["9-13", "21-17", "10-15"]) is None  # legal, but a transposition of #87
    assert ballot_of(["11-15", "23-19"]) is None
    assert ballot_of([]) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# header\n1\t9-13 21-17 5-9\tcrossboard\t\n3\t9-13 21-17 6-9\tmail\t\n", "line 3:"),
        ("1\t9-13 21-17\tcrossboard\t\n", "line 1: expected three PDN moves"),
        ("1\t9-13 21-17 a-b\tcrossboard\t\n", "line 1: expected three PDN moves"),
        ("1\t9-13 21-17 5-9\tbanned\t\n", "line 1: unknown category"),
        ("1\t9-13 21-17 5-9\n", "line 1: expected 4 tab-separated fields"),
        ("1\t9-13 21-17 5-9\tmail\t\n\n2\t9-13 21-17 5-9\tmail\t\n", "line 3: duplicate"),
    ],
)
def test_bad_rows_are_rejected_with_their_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_ballots(text)


def test_trailing_tab_of_an_empty_name_is_optional() -> None:
    (ballot,) = parse_ballots("1\t9-13 21-17 5-9\tcrossboard\n")
    assert ballot == Ballot(1, ("9-13", "21-17", "5-9"), "crossboard", "")
