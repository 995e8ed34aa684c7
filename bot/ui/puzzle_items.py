"""The components of a puzzle's private board, persistent like the picker's.

Everything a tap needs is in its custom id (the attempt, the ply it was drawn at, the piece
whose moves a menu lists, the page), so a puzzle board shown before a restart still works, and
one drawn before the solver moved is refused by the ply it carries (the service's guard).  The
daily puzzle's post carries a Solve button naming its puzzle.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, ClassVar, Protocol

import discord

from .buttons import ID, bound, chosen_value
from .picker_items import ORIGIN, PAGE, PLY, StepSelect


class PuzzleAction(StrEnum):
    """A puzzle button: what its id's number names."""

    HINT = "hint"
    """Show the piece to move (the attempt)."""
    PAGE = "page"
    """Another page of the menu, or the pieces again (the attempt)."""
    NEXT = "next"
    """A new puzzle, of the variant of the puzzle named (the one just ended)."""
    SOLVE = "solve"
    """Solve the daily puzzle (the puzzle)."""


class PuzzleAnswers(Protocol):
    """What the puzzle components call (see :mod:`bot.ui.puzzles`)."""

    async def picked(
        self, interaction: discord.Interaction, attempt_id: int, ply: int, origin: int, value: str
    ) -> None: ...

    async def pressed(
        self,
        interaction: discord.Interaction,
        action: PuzzleAction,
        target: int,
        ply: int,
        origin: int,
        page: int,
    ) -> None: ...


class PuzzleSelect(StepSelect, template=rf"puz:{ID}:{PLY}:{ORIGIN}:{PAGE}"):
    """The board's menu (the picker's kind, for an attempt): the moves (``origin`` 0, when
    they fit), the pieces that can move (``origin`` 0 otherwise), or one piece's moves."""

    prefix = "puz"
    kit: ClassVar[PuzzleKit]  # set by bound

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.picked(
            interaction, self.target, self.ply, self.origin, chosen_value(interaction)
        )


ACTIONS = "|".join(action.value for action in PuzzleAction)


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"puzb:(?P<action>{ACTIONS}):{ID}:{PLY}:{ORIGIN}:{PAGE}",
):
    """Hint, a page of the menu, the next puzzle, or the daily puzzle's Solve."""

    kit: ClassVar[PuzzleKit]  # set by bound

    def __init__(
        self,
        action: PuzzleAction,
        target: int,
        ply: int = 0,
        origin: int = 0,
        page: int = 0,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or action.value,
            style=style,
            custom_id=f"puzb:{action.value}:{target}:{ply}:{origin}:{page}",
        )
        super().__init__(button)
        self.action, self.target = action, target
        self.ply, self.origin, self.page = ply, origin, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PuzzleButton:
        return cls(
            PuzzleAction(match["action"]),
            int(match["id"]),
            int(match["ply"]),
            int(match["origin"]),
            int(match["page"]),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.pressed(
            interaction, self.action, self.target, self.ply, self.origin, self.page
        )


class PuzzleKit:
    """The puzzle component classes of one client, bound to whoever answers them."""

    def __init__(self) -> None:
        self.select = bound(PuzzleSelect, self)
        self.button = bound(PuzzleButton, self)
        self._answers: PuzzleAnswers | None = None

    @property
    def answers(self) -> PuzzleAnswers:
        if self._answers is None:
            raise RuntimeError("a puzzle board was used before its answers were registered")
        return self._answers

    def answered_by(self, answers: PuzzleAnswers) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand taps to ``answers``; the classes for ``Client.add_dynamic_items``."""
        self._answers = answers
        return (self.select, self.button)
