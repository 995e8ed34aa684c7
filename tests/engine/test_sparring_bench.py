"""The sparring bench (``bench/sparring.py``, ``bench/sparring_engines.py``, ``bench/elo.py``):
how our positions and moves are written for Scan and GuiNN and their answers read back, the Elo
interval and where a game was decided; then one real exchange with each program, when it is built.

The conversions are tested without the programs (they are not on CI machines); the exchanges are
skipped, saying why, when a binary is missing.  Nothing here is timed: the matches' figures are
measured by the bench and recorded in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from rules import Color, Game, Move, find_variant
from rules.fen import parse_fen

ROOT = Path(__file__).resolve().parents[2]
# The bench's modules import one another by bare name.  At the end of the path, not the front:
# this worker's later processes (the forkserver of the workers' pools) inherit the path, and
# bench/render.py in front would stand in for the render package there.
sys.path.append(str(ROOT / "bench"))

import elo  # noqa: E402
import sparring  # noqa: E402
from arena import Answer, ArenaError, Turn, play_match  # noqa: E402
from arena import played as played_move  # noqa: E402
from sparring_engines import (  # noqa: E402
    GUINN,
    SCAN,
    GuinnPlayer,
    ScanPlayer,
    guinn_answer,
    hub_move,
    hub_referee,
    parse_hub_move,
    scan_info,
    scan_position,
)

INTERNATIONAL = find_variant("international")
ENGLISH = find_variant("english")

# Random games (rules' own moves, seed 5) that reach a choice between two captures, one of them
# a multiple capture: the exchanges below make each program choose there.
INTERNATIONAL_CAPTURES = [
    "32-28",
    "17-22",
    "28x17",
    "12x21",
    "33-28",
    "20-24",
    "34-29",
    "24x33x22",
    "35-30",
    "7-12",
    "31-27",
    "22x31",
    "37x26x17",
    "12x21",
    "38-32",
    "19-23",
    "39-33",
    "23-29",
    "33x24",
    "18-23",
    "42-37",
    "2-7",
    "24-20",
]
ENGLISH_CAPTURES = [
    "11-15",
    "24-20",
    "15-18",
    "23x14",
    "10x17",
    "21x14",
    "9x18",
    "22x15",
    "6-10",
    "15x6",
    "1x10",
    "28-24",
    "2-6",
    "25-22",
    "10-15",
    "26-23",
    "6-9",
    "29-25",
    "9-14",
    "31-26",
    "7-11",
    "20-16",
]


def played(variant_moves: list[str], variant: str) -> Game:
    game = Game(find_variant(variant))
    for text in variant_moves:
        game.play(text)
    return game


# -- notation -------------------------------------------------------------------------------------


def test_quiet_and_capture_moves_are_written_origin_destination_then_captures_ascending() -> None:
    game = played(INTERNATIONAL_CAPTURES, "international")
    assert sorted(hub_move(m) for m in game.legal_moves()) == ["14x34x20x30", "15x35x20x30"]
    assert hub_move(Game(ENGLISH).legal_moves()[0]) == "9-13"


def test_king_capture_routes_with_the_same_captures_are_one_answer_and_one_position() -> None:
    start = parse_fen("W:WK46:B37,19,9", INTERNATIONAL)
    routes = Game(INTERNATIONAL, start).legal_moves()
    assert len(routes) == 3 and {hub_move(m) for m in routes} == {"46x3x9x19x37"}
    after = set()
    for route in routes:
        game = Game(INTERNATIONAL, start)
        game.play(hub_referee(game, hub_move(route)))
        after.add(game.position)
    assert len(after) == 1


def test_answers_are_read_back_to_the_same_legal_move_whatever_the_captures_order() -> None:
    game = played(ENGLISH_CAPTURES, "english")
    assert parse_hub_move("12x28x24x16") == (12, 28, (16, 24))
    assert hub_referee(game, "12x28x24x16") is hub_referee(game, "12x28x16x24")
    assert hub_referee(game, "12x28x24x16").path == (12, 19, 28)
    assert hub_referee(game, "11x20x16").captured == (16,)


@pytest.mark.parametrize("text", ["", "32", "32-", "a-b", "32-28-23", "32--28", "32-28 "])
def test_a_malformed_answer_stops_the_run(text: str) -> None:
    with pytest.raises(ArenaError):
        parse_hub_move(text)


def test_a_move_the_rules_do_not_list_stops_the_run() -> None:
    game = played(ENGLISH_CAPTURES, "english")
    with pytest.raises(ArenaError, match="not legal"):
        hub_referee(game, "12-16")  # a quiet move where a capture is compulsory


def test_scan_position_lists_the_side_to_move_then_squares_1_to_50() -> None:
    assert scan_position(Game(INTERNATIONAL).start) == "w" + "b" * 20 + "e" * 10 + "w" * 20
    position = parse_fen("B:W31,K46:B20,K5", INTERNATIONAL)
    text = scan_position(position)
    assert len(text) == 51 and text[0] == "b"
    assert {i: text[i] for i in (5, 20, 31, 46)} == {5: "B", 20: "b", 31: "w", 46: "W"}
    assert text.count("e") == 46


def test_engine_answers_are_parsed() -> None:
    assert scan_info("info 14 9.3 -25 123456 0.19 0.6 32-28 19-23") == (14, -25, 123456)
    move, numbers = guinn_answer("bestmove 11x18x15 depth 12 nodes 300068 score -23 book 0")
    assert move == "11x18x15"
    assert numbers == {"depth": 12, "nodes": 300068, "score": -23, "book": 0}
    with pytest.raises(ArenaError):
        guinn_answer("info nets 4 book 0 db 4")


# -- Elo and where games are decided ---------------------------------------------------------------


def test_wilson_interval_is_the_issue_tables_and_stays_finite_near_zero() -> None:
    value, low, high = elo.wilson_interval([0.0] * 31 + [0.5] * 3)
    assert (round(value), round(low), round(high)) == (-534, -794, -275)
    value, low, high = elo.wilson_interval([0.0] * 34)
    assert value == low == float("-inf") and round(high) == -379  # 0-0-34 still bounds it
    # the trinomial interval of arena.py collapses there: no spread, no width
    assert elo.elo_interval([0.0] * 34)[2] == float("-inf")


def _turn(ours: bool, score: int, legal: int = 5, book: bool = False) -> Turn:
    return Turn(ours, legal, Answer(("", 0, 0, ()), 0.1, 10, 1000, score, book))


def test_a_game_is_decided_where_the_winners_scores_stay_above_one_and_a_half_men() -> None:
    turns = [
        _turn(False, 40),  # ply 4 (after 4 opening plies)
        _turn(True, -40),
        _turn(False, 160),  # ply 6: above, but falls back
        _turn(True, -150),
        _turn(False, 120),  # ply 8
        _turn(True, -200),
        _turn(False, 200),  # ply 10: from here on it stays above
        _turn(True, -300),
        _turn(False, 0, legal=1),  # ply 12: a forced move carries no score
        _turn(True, -500),
        _turn(False, 900),
    ]
    assert sparring.decided_at(turns, winner_ours=False, man=100, start=4) == 10
    assert sparring.decided_at(turns, winner_ours=False, man=190, start=4) == 14
    assert sparring.decided_at([*turns[:-1], _turn(False, 50)], False, 100, 4) == 15


class FirstMove:
    """A contender that plays its first legal move at once, claiming half the budget."""

    def __init__(self, name: str, score: int) -> None:
        self.name, self.score = name, score

    def choose(self, game: Game, movetime: float) -> tuple[Move, Answer]:
        move = game.legal_moves()[0]
        return move, Answer(played_move(move), movetime / 2, 3, 100, self.score)

    def close(self) -> None:
        pass


def test_a_match_plays_each_opening_with_both_colours_and_summarizes_its_turns() -> None:
    args = argparse.Namespace(
        games=3, movetime=0.2, max_plies=24, opening_plies=4, seed=1, ours_root=None,
        no_book=False, markdown=False,
    )  # fmt: skip
    match = play_match(INTERNATIONAL, FirstMove("ours", 0), FirstMove("theirs", 0), args)
    assert match.our_colours == [Color.WHITE, Color.BLACK, Color.WHITE]
    assert [g.moves[:4] for g in match.games[:2]] == [match.games[0].moves[:4]] * 2
    for game, turns, colour in zip(match.games, match.turns, match.our_colours, strict=True):
        assert len(turns) == game.ply - 4
        assert [t.ours for t in turns] == [
            game.positions[4 + i].turn is colour for i in range(len(turns))
        ]
    summary = sparring.summarize(match, "theirs", 100, args)
    assert summary.games == 3 and summary.adjudicated == sum(r == 0.5 for r in match.results)
    assert summary.share[0] == (0.5, 0.5) and summary.depth == (3, 3)


# -- real exchanges, when the programs are built ---------------------------------------------------


@pytest.mark.skipif(not SCAN.exists(), reason=f"Scan is not built at {SCAN} (see engines README)")
def test_a_real_exchange_with_scan() -> None:
    game = played(INTERNATIONAL_CAPTURES, "international")
    scan = ScanPlayer(SCAN, book=False)
    try:
        move, answer = scan.choose(game, 0.05)
        assert move in game.legal_moves() and len(move.captured) == 2
        assert answer.depth is not None and answer.depth >= 12  # it never stops before 12
        game.play(move)
        game.play(game.legal_moves()[0])
        move, answer = scan.choose(game, 0.05)  # the same game: its moves so far, then a search
        assert move in game.legal_moves()
    finally:
        scan.close()


@pytest.mark.skipif(not GUINN.exists(), reason=f"GuiNN is not built at {GUINN} (engines README)")
def test_a_real_exchange_with_guinn() -> None:
    game = played(ENGLISH_CAPTURES, "english")
    guinn = GuinnPlayer(GUINN, book=False)
    try:
        assert guinn.loaded["nets"] != "0"
        move, answer = guinn.choose(game, 0.05)
        assert move in game.legal_moves() and move.captured
        assert answer.depth is not None and answer.nodes and not answer.book
    finally:
        guinn.close()


def test_the_report_names_every_figure_the_issue_asks_for() -> None:
    args = argparse.Namespace(
        games=34, movetime=0.2, max_plies=250, ours="/x (main at 724ab3b)", no_book=False,
        opening_plies=4, seed=1, markdown=True,
    )  # fmt: skip
    summary = sparring.Summary(
        "Scan 2.0", "international", 34, (0, 3, 31), 1.5 / 34, (-534.0, -794.0, -275.0), 1,
        (10.0, 18.0), ((0.75, 0.74), (1.0, 1.1)), (135, 1748, 0.339), 0.4, (0, 12),
        (1e6, 2e6), (31, 72.0, 19.0, 110.0),
    )  # fmt: skip
    text = sparring.report(summary, args, ((1.0, 1.0, 1.0), (2.0, 2.0, 2.0)))
    for needle in (
        "0-3-31", "-534 (-794 to -275)", "Wilson", "1 at 250 plies", "10.0 / 18.0",
        "75% / 74%", "100% / 110%", "135 of 1748 (worst 0.339 s)", "31: 72, 19, 110",
        "1.00, 1.00, 1.00 / 2.00, 2.00, 2.00", "ours: /x (main at 724ab3b), level 6",
    ):  # fmt: skip
        assert needle in text
    assert "| games | 34 |" in text
    args.games = 40  # a run stopped early reports the games it finished, and says so
    assert "| games | 34 of 40 (stopped) |" in sparring.report(summary, args, ((1.0,) * 3,) * 2)
