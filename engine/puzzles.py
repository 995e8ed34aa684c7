"""Puzzles from finished games: the value, the finder over a game, and the shipped starter sets.

Pure CPU, run in the bot's worker processes (:func:`find_puzzles` is a worker job).  How a
position is found to be a puzzle and its line proved is :mod:`engine.puzzle_search`; how it is
rated is :mod:`engine.puzzle_rating`; docs/PUZZLES.md tells the whole story and how the starter
sets (``engine/puzzles/<variant>.json``, made by ``tools/make_puzzles.py``) are regenerated.

A solution's moves are PDN texts with the full landing path, as :meth:`rules.Move.pdn` writes
them; a solver's move is right when it is the same move (``rules.notation.parse_move`` reads a
short form such as ``27x11`` as that move when it is not ambiguous).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from importlib.resources import files

from rules.fen import parse_fen
from rules.game import Game
from rules.notation import MoveError, parse_move
from rules.position import Position
from rules.variants import find_variant

from .puzzle_rating import rate
from .puzzle_search import MAN, baseline, depths_for, prove_line

GAINS = ("win", "material")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position with the solver to move and its forced line."""

    variant: str
    """The rules variant's key."""
    fen: str
    """The position, the solver to move."""
    solution: tuple[str, ...]
    """PDN moves from ``fen``: solver, reply, solver, ..., the solver's last."""
    gain: str
    """``"win"`` (the line wins the game, or leaves it a proven win) or ``"material"``."""
    gain_men: int
    """Men won by the line's end over the material before it (kings counted as the engine counts
    them; a win may have given material for it)."""
    rating: int
    """The starting puzzle rating (:mod:`engine.puzzle_rating`)."""
    depth_found: int
    depth_verified: int
    """Every solver move is the only one at this depth (> ``depth_found``)."""
    source: str
    """Where it came from (``self-play seed 7 ply 31``, ``game 123 ply 40``)."""

    def to_dict(self) -> dict[str, object]:
        """JSON-ready values (the solution as a list)."""
        data = asdict(self)
        data["solution"] = list(self.solution)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Puzzle:
        """The puzzle :meth:`to_dict` wrote; ``ValueError`` naming the field that is wrong."""

        def text(name: str) -> str:
            value = data.get(name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"puzzle field {name!r} must be a non-empty text")
            return value

        def number(name: str) -> int:
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"puzzle field {name!r} must be a whole number")
            return value

        moves = data.get("solution")
        if not isinstance(moves, list | tuple) or not all(isinstance(m, str) for m in moves):
            raise ValueError("puzzle field 'solution' must be a list of moves")
        gain = text("gain")
        if gain not in GAINS:
            raise ValueError(f"puzzle field 'gain' must be one of {', '.join(GAINS)}")
        return cls(
            variant=text("variant"),
            fen=text("fen"),
            solution=tuple(moves),
            gain=gain,
            gain_men=number("gain_men"),
            rating=number("rating"),
            depth_found=number("depth_found"),
            depth_verified=number("depth_verified"),
            source=text("source"),
        )

    def replay(self) -> Game:
        """The puzzle's line played by the rules from its position (``ValueError`` when a move
        is not legal there or the line does not end on the solver's move)."""
        variant = find_variant(self.variant)
        game = Game(variant, parse_fen(self.fen, variant))
        if len(self.solution) % 2 != 1:
            raise ValueError(f"{self.source}: the solution must end on the solver's move")
        for text in self.solution:
            try:
                game.play(parse_move(game.position, text, game.legal_moves()))
            except MoveError as exc:
                raise ValueError(f"{self.source}: {text} is not legal here ({exc})") from exc
        return game


def puzzle_at(
    position: Position,
    source: str,
    *,
    before: Position | None = None,
    last_move: str | None = None,
) -> Puzzle | None:
    """The puzzle at ``position`` (the solver to move), or None.  ``before`` and ``last_move``:
    the position and move that led to it in its game, for the baseline (winning back what an
    opponent's capture just took is no gain)."""
    last = None
    if before is not None and last_move is not None:
        last = parse_move(before, last_move, before.legal_moves())
    depths = depths_for(position.variant)
    line = prove_line(position, baseline(position, before, last), depths)
    if line is None:
        return None
    return Puzzle(
        variant=position.variant.key,
        fen=position.fen(),
        solution=tuple(move.pdn() for move in line.moves),
        gain=line.kind,
        gain_men=line.gain // MAN if line.gain >= 0 else -(-line.gain // MAN),
        rating=rate(line),
        depth_found=depths.found,
        depth_verified=depths.verified,
        source=source,
    )


def find_puzzles(
    record: dict[str, object],
    seconds: float,
    *,
    source: str = "game",
    plies: range | None = None,
) -> list[dict[str, object]]:
    """Worker job: the puzzles of one finished game (``Game.to_dict()``), within ``seconds``
    (the positions are tried in order; those left when the time is up are not).  ``source``
    names the game in each puzzle's :attr:`Puzzle.source` (``"game 123"`` gives ``"game 123
    ply 40"``).  ``plies``: only the positions before these plies (a caller splitting a game
    into short jobs; a later job may then offer a later position of an earlier job's line:
    :func:`covered` tells).  A position inside an earlier puzzle's line is not tried again."""
    deadline = time.monotonic() + seconds
    game = Game.from_dict(record)
    found: list[dict[str, object]] = []
    seen: set[Position] = set()
    for ply, position in enumerate(game.positions[:-1]):
        if plies is not None and ply not in plies:
            continue
        if time.monotonic() >= deadline:
            break
        if position in seen or len(position.legal_moves()) < 2:
            continue
        before = game.positions[ply - 1] if ply else None
        last = game.moves[ply - 1].pdn() if ply else None
        puzzle = puzzle_at(position, f"{source} ply {ply}", before=before, last_move=last)
        if puzzle is None:
            continue
        found.append(puzzle.to_dict())
        seen.update(puzzle.replay().positions)
    return found


def covered(later: Puzzle, earlier: Puzzle) -> bool:
    """Whether ``later`` starts inside ``earlier``'s line (the same combination, joined late)."""
    if later.variant != earlier.variant:
        return False
    start = parse_fen(later.fen, find_variant(later.variant))
    return start in earlier.replay().positions


@cache
def starter_puzzles(variant: str) -> tuple[Puzzle, ...]:
    """The shipped set (package data, ``engine/puzzles/<variant>.json``), made by
    ``tools/make_puzzles.py``; each puzzle checked (its variant, and its line replayed by the
    rules) before it is handed out: a broken file raises ``ValueError``."""
    key = find_variant(variant).key
    resource = files("engine") / "puzzles" / f"{key}.json"
    return checked_set(json.loads(resource.read_text(encoding="utf-8")), key)


def checked_set(data: Mapping[str, object], key: str) -> tuple[Puzzle, ...]:
    """The puzzles of a set file's contents, each checked: of variant ``key``, verified deeper
    than found, its line replayed by the rules (``ValueError`` naming the first that is not)."""
    items = data.get("puzzles")
    if not isinstance(items, list):
        raise ValueError(f"the {key} set has no list of puzzles")
    puzzles = tuple(Puzzle.from_dict(item) for item in items)
    for puzzle in puzzles:
        if puzzle.variant != key:
            raise ValueError(f"{puzzle.source}: a {puzzle.variant} puzzle in the {key} set")
        if puzzle.depth_verified <= puzzle.depth_found:
            raise ValueError(f"{puzzle.source}: not verified deeper than found")
        puzzle.replay()
    return puzzles
