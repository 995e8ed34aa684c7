"""The opening book: shipped books hold legal moves only, the builder is reproducible, the choice
stays within the margin and varies, and ``best_move`` uses the book exactly where it should."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

import engine.api as engine_api
import engine.book as book_module
from engine import Iteration, Limits, best_move
from engine.book import Book, book_entry, book_for, book_move, candidates, parse, position_key
from rules import Game, find_variant, parse_fen
from rules.ballots import ACF_BALLOTS
from rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    path.stem
    for path in (resources.files("engine") / "books").iterdir()  # type: ignore[attr-defined]
    if path.name.endswith(".json")
)


def check_legal(data: dict[str, object], variant_key: str) -> int:
    """Every stored move of a book's JSON is legal in its position, best first; the count."""
    variant = find_variant(variant_key)
    book = parse(data)  # type: ignore[arg-type]
    for fen, moves in book.positions.items():
        legal = {move.pdn() for move in parse_fen(fen, variant).legal_moves()}
        assert moves, fen
        assert {pdn for pdn, _ in moves} <= legal, fen
        scores = [score for _, score in moves]
        assert scores == sorted(scores, reverse=True), fen
    return len(book.positions)


def test_english_and_international_ship_a_book() -> None:
    assert {"english", "international"} <= set(SHIPPED)


@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_book_move_is_legal_and_the_header_says_how_it_was_made(key: str) -> None:
    text = (resources.files("engine") / "books" / f"{key}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["variant"] == key
    assert check_legal(data, key) == data["count"] > 0
    made = data["made"]
    assert made["command"].startswith("python tools/make_book.py")
    assert made["commit"] and made["date"] and made["depth"] > made["filter_depth"]
    start = position_key(Game(VARIANTS[key]).position)
    assert start in data["positions"], "the book starts at the start position"


def build(out: Path) -> bytes:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "make_book.py"),
            "--variants",
            "english",
            "--depth",
            "5",
            "--filter-depth",
            "3",
            "--ballots",
            "2",
            "--first-plies",
            "0",
            "--line-plies",
            "2",
            "--max-positions",
            "12",
            "--out",
            str(out),
            "--commit",
            "test",
            "--date",
            "today",
            "--nice",
            "0",
        ],
        check=True,
        capture_output=True,
    )
    return (out / "english.json").read_bytes()


def test_the_builder_reproduces_its_own_output_byte_for_byte(tmp_path: Path) -> None:
    first = build(tmp_path / "a")
    assert first == build(tmp_path / "b")
    data = json.loads(first)
    assert check_legal(data, "english") == data["count"] == 12
    # The ballots bench/match.py plays first are roots (ACF #1 and #8).
    for number in (1, 8):
        game = Game(find_variant("english"))
        for text in ACF_BALLOTS[number - 1].moves:
            game.play(text)
        assert position_key(game.position) in data["positions"]


# -- choosing ---------------------------------------------------------------------------------

ENGLISH = find_variant("english")
TRANSPOSED = ("9-13", "24-20", "10-14")
"""An English line whose position 10-14 24-20 9-13 reaches too."""


def synthetic(margin: int = 10) -> Book:
    """A book of one position (after :data:`TRANSPOSED`, White to move) with known scores."""
    game = Game(ENGLISH)
    for text in TRANSPOSED:
        game.play(text)
    moves = (("22-17", 10), ("23-18", 5), ("28-24", 0), ("21-17", -1), ("22-18", -30))
    return Book(margin, 3, {position_key(game.position): moves})


@pytest.fixture
def fake_book(monkeypatch: pytest.MonkeyPatch) -> Book:
    book = synthetic()
    monkeypatch.setattr(book_module, "book_for", lambda variant: book)
    return book


def test_choices_vary_within_the_margin_weighted_towards_the_best(fake_book: Book) -> None:
    game = Game(ENGLISH)
    for text in ("10-14", "24-20", "9-13"):  # the synthetic position, by transposition
        game.play(text)
    rng = random.Random(31)
    drawn = Counter(book_move(game, rng).pdn() for _ in range(3000))  # type: ignore[union-attr]
    assert set(drawn) == {"22-17", "23-18", "28-24"}  # never 21-17 (11 below) nor 22-18
    # Weights 11 : 6 : 1 (of 18): far from any edge of chance at 3,000 draws.
    assert drawn["22-17"] > 1500 and 800 < drawn["23-18"] < 1200 and 80 < drawn["28-24"] < 260


def test_none_out_of_book_after_the_book_phase_and_without_a_book(
    fake_book: Book, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(1)
    assert book_move(Game(ENGLISH), rng) is None  # the start is not in this book
    # A king on the board: the position's history could matter (repetitions, counts).
    fen = next(iter(fake_book.positions)).replace(":B1,", ":BK1,")
    king_game = Game(ENGLISH, parse_fen(fen, ENGLISH))
    assert king_game.position.black_kings
    king_book = Book(10, 3, {position_key(king_game.position): (("22-17", 0),)})
    monkeypatch.setattr(book_module, "book_for", lambda variant: king_book)
    assert book_move(king_game, rng) is None
    monkeypatch.setattr(book_module, "book_for", lambda variant: None)
    game = Game(ENGLISH)
    for text in TRANSPOSED:
        game.play(text)
    assert book_move(game, rng) is None


def test_a_listed_move_the_rules_do_not_know_is_never_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(ENGLISH)
    broken = Book(10, 0, {position_key(game.position): (("11-15", 0), ("1-5", 0))})
    monkeypatch.setattr(book_module, "book_for", lambda variant: broken)
    assert book_move(game, random.Random(2)) is None


# -- in best_move -----------------------------------------------------------------------------


def searched(game: Game, limits: Limits) -> tuple[str, list[Iteration]]:
    iterations: list[Iteration] = []
    result = best_move(game, limits, on_iteration=iterations.append)
    return result.move.pdn(), iterations


def test_best_move_plays_from_the_shipped_book_at_the_top_levels_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine_api, "_book_rng", random.Random(6))
    game = Game(ENGLISH)
    book = book_for(ENGLISH)
    assert book is not None
    choices = {pdn: score for pdn, score in candidates(book, game.position)}
    seen = set()
    for _ in range(300):
        result = best_move(game, Limits(movetime=0.05, level=6))
        assert result.move.pdn() in choices and result.pv == (result.move,)
        assert result.score == choices[result.move.pdn()]
        seen.add(result.move.pdn())
    assert len(seen) == len(choices)  # the games differ where the book has a choice
    move, iterations = searched(game, Limits(movetime=0.05, level=5))
    assert move in choices and not iterations
    # The search decides: level 4, fixed depth or nodes, no clock, or the book switched off.
    for limits in (
        Limits(movetime=0.05, level=4),
        Limits(movetime=0.05, level=6, depth=3),
        Limits(movetime=0.05, level=6, nodes=2000),
        Limits(movetime=None, level=5, depth=3),
        Limits(movetime=0.05, level=6, book=False),
    ):
        _, iterations = searched(game, limits)
        assert iterations, limits


def test_book_entry_gives_the_stored_score(fake_book: Book) -> None:
    game = Game(ENGLISH)
    for text in TRANSPOSED:
        game.play(text)
    entry = book_entry(game, random.Random(5))
    assert entry is not None
    stored = dict(next(iter(fake_book.positions.values())))
    assert entry[1] == stored[entry[0].pdn()]


def test_the_command_line_plays_from_the_book_unless_told_not_to() -> None:
    def run(*extra: str) -> list[str]:
        command = [sys.executable, "-m", "engine", "--variant", "english", "--movetime", "100"]
        done = subprocess.run(
            [*command, "--info", *extra], capture_output=True, text=True, check=True, cwd=ROOT
        )
        return done.stdout.strip().splitlines()

    book = book_for(ENGLISH)
    assert book is not None
    choices = {pdn for pdn, _ in candidates(book, Game(ENGLISH).position)}
    assert run()[-1] in choices and len(run()) == 1  # the book's move, no search lines
    searched_lines = run("--no-book")
    assert len(searched_lines) > 1 and searched_lines[0].startswith("depth 1 ")
