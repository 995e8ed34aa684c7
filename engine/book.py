"""The opening book: moves for the first positions of a game, found by deep searches of our own
engine (``tools/make_book.py``) and shipped as ``engine/books/<variant>.json``.

Why: in the opening every position is searched again in every game, at the depth a move's time
allows; the book has them searched once, deeper, and lets the top levels play at once.  And
since it keeps every move that the deep search scored within :data:`margin <Book.margin>` of the
best, choosing among them at random varies the games without ever playing a move the deep search
judged clearly worse.

A book file: a header saying how it was made (``made``: command, commit, date, depths) and the
``margin`` its choices use, then ``positions``: a position's FEN (which names the side to move,
so the key does not depend on the moves that led there: transpositions are found) to its
deep-searched moves, ``[pdn, score]`` best first, scores in centimen from the mover's side.

The book is a position's, not a game's: it is consulted only while the game's history cannot
change what a move is worth, that is while no king is on the board (men's moves cannot be
undone, so no position can repeat and the kings-only counts do not run) and the no-progress
count is no further than the book's deepest ply (what the build allowed for; it also rules out
the endgame counts, which need few pieces).  Loaded lazily, once per process and variant.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules.game import Game
from rules.move import Move
from rules.position import Position
from rules.variants import Variant

log = logging.getLogger(__name__)

FORMAT = 1
"""The file format's version (the header's ``format``); a file of another is not used."""


@dataclass(frozen=True)
class Book:
    """One variant's book as loaded."""

    margin: int
    """Moves within this many centimen of the best deep score are played (weighted towards the
    best); the build expanded the same ones."""
    max_ply: int
    """The deepest ply of a stored position (from the start, along the build's lines)."""
    positions: dict[str, tuple[tuple[str, int], ...]]


def position_key(position: Position) -> str:
    """A position's key in the book: its FEN (side to move, men and kings by square)."""
    return position.fen()


def parse(data: dict[str, Any]) -> Book:
    """A book from a file's JSON (``ValueError`` if its format is another)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"book format {data.get('format')!r}, expected {FORMAT}")
    positions = {
        fen: tuple((str(pdn), int(score)) for pdn, score in moves)
        for fen, moves in data["positions"].items()
    }
    return Book(int(data["margin"]), int(data["max_ply"]), positions)


@cache
def book_for(variant: Variant) -> Book | None:
    """``variant``'s shipped book, read on first use; None when it has none (or an unreadable
    one, which is logged: the engine plays on without it)."""
    source = resources.files("engine") / "books" / f"{variant.key}.json"
    if not source.is_file():
        return None
    try:
        return parse(json.loads(source.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError):
        log.exception("the opening book of %s is unreadable; playing without it", variant.key)
        return None


def candidates(book: Book, position: Position) -> tuple[tuple[str, int], ...]:
    """The stored moves of ``position`` that the book plays (within the margin of the best),
    best first; empty when the position is not in the book."""
    stored = book.positions.get(position_key(position), ())
    if not stored:
        return ()
    best = stored[0][1]
    return tuple((pdn, score) for pdn, score in stored if score >= best - book.margin)


def in_book_phase(game: Game, book: Book) -> bool:
    """Whether ``game``'s history cannot matter to the book's scores (see the module's
    docstring)."""
    position = game.position
    return (
        not game.is_over
        and not (position.white_kings | position.black_kings)
        and game.quiet_plies() <= book.max_ply
        and game.repetitions() == 1
    )


def book_entry(game: Game, rng: random.Random) -> tuple[Move, int] | None:
    """The book's move for ``game`` and its deep score, chosen at random among the candidates
    with weights falling linearly from the best (``margin + 1``) to the margin's edge (1); None
    out of book."""
    book = book_for(game.variant)
    if book is None or not in_book_phase(game, book):
        return None
    choices = candidates(book, game.position)
    if not choices:
        return None
    legal = {move.pdn(): move for move in game.legal_moves()}
    if any(pdn not in legal for pdn, _ in choices):
        log.error("the %s book lists a move the rules do not: %s", game.variant.key, choices)
        return None
    best = choices[0][1]
    weights = [book.margin + 1 - (best - score) for _, score in choices]
    pdn, score = rng.choices(choices, weights=weights)[0]
    return legal[pdn], score


def book_move(game: Game, rng: random.Random) -> Move | None:
    """The book's move for ``game`` (see :func:`book_entry`), or None out of book."""
    entry = book_entry(game, rng)
    return None if entry is None else entry[0]
