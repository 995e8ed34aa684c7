"""What the service says about a hint (issue 30), beside :mod:`bot.results`, which re-exports
every name here.  A hint goes with the game's view it was thought for (the pair
:meth:`bot.service.hints.Hints.hint` returns): the Discord layer draws that position with the
hint's arrow."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hint:
    """The computer's move for the player to move, privately, in a game against it."""

    move: str
    """The move in PDN (``22x15x6``)."""
    shown: str
    """The move in the variant's notation (``c3-d4`` in Russian), as sentences name it."""
    path: tuple[int, ...]
    """The squares the move passes, from start to landing (its arrow bends at each landing of
    a multi-jump)."""
    hints: int
    """The hints taken in this game so far, this one included."""
