"""The engine's puzzles as the service takes them
(:class:`~bot.service.puzzle_mining.PuzzleSource`): the shipped starter set of a variant and the
finder of a finished game's puzzles (``engine.puzzles``), handed to the service by the client as
the computer is, since the service does not import the engine."""

from __future__ import annotations

from engine.puzzles import find_puzzles, starter_puzzles

from .service.puzzle_mining import PuzzleSource


def shipped(variant: str) -> list[dict[str, object]]:
    """The starter set of ``variant`` as plain values (``Puzzle.to_dict()``)."""
    return [puzzle.to_dict() for puzzle in starter_puzzles(variant)]


def find_between(
    record: dict[str, object], seconds: float, first: int, stop: int
) -> list[dict[str, object]]:
    """Worker job: the puzzles of the game's positions before plies ``first`` to ``stop - 1``
    (a background job takes its arguments in order, so the range is two numbers)."""
    return find_puzzles(record, seconds, plies=range(first, stop))


ENGINE_PUZZLES = PuzzleSource(starter=shipped, find=find_between)
