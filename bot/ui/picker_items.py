"""The components of the private move picker, persistent like the board's buttons.

Everything a picker needs is in its custom ids (game, ply, the piece being moved, the page), so a
picker shown before a restart still works, and one shown before the opponent moved is refused by
the ply it carries.  A select names what it lists by ``origin``: 0 for the pieces that can move,
otherwise the square of the piece whose moves it lists.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, Self

import discord

from .buttons import ID, bound, chosen_value

PLY = r"(?P<ply>[0-9]{1,6})"
ORIGIN = r"(?P<origin>[0-9]{1,3})"
PAGE = r"(?P<page>[0-9]{1,3})"

PIECES = 0
"""The ``origin`` of the list of pieces."""


class PickerAnswers(Protocol):
    """What the picker's menus and buttons call (see :mod:`bot.ui.picker`)."""

    async def picked(
        self, interaction: discord.Interaction, game_id: int, ply: int, origin: int, value: str
    ) -> None: ...

    async def turn_page(
        self, interaction: discord.Interaction, game_id: int, ply: int, origin: int, page: int
    ) -> None: ...


class StepSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?!)"):
    """A select menu of one step of tapping a move (the picker's, a puzzle board's): its custom
    id, ``<prefix>:<target>:<ply>:<origin>:<page>``, carries what it acts on (a game, a puzzle
    attempt), the ply it was drawn at, what it lists (``origin`` 0 for the pieces or every move,
    else the square of the piece whose moves it lists) and the page.  Each kind is a subclass
    with its own prefix and template; this one matches no id."""

    prefix: ClassVar[str] = ""

    def __init__(
        self,
        target: int,
        ply: int,
        origin: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{self.prefix}:{target}:{ply}:{origin}:{page}",
            options=options or [],
            placeholder=placeholder,
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.target, self.ply, self.origin, self.page = target, ply, origin, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["id"]), int(match["ply"]), int(match["origin"]), int(match["page"]))


class PickSelect(StepSelect, template=rf"pick:{ID}:{PLY}:{ORIGIN}:{PAGE}"):
    """A page of pieces (``origin`` 0) or of one piece's moves; the choice is sent back as the
    select's one value (a square number, or a whole PDN move)."""

    prefix = "pick"
    kit: ClassVar[PickerKit]  # set by bound

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.picked(
            interaction, self.target, self.ply, self.origin, chosen_value(interaction)
        )


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"pickgo:{ID}:{PLY}:{ORIGIN}:{PAGE}",
):
    """Shows page ``page`` of a list (Previous / Next), or the pieces again (Back)."""

    kit: ClassVar[PickerKit]  # set by bound

    def __init__(self, game_id: int, ply: int, origin: int, page: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "Page",
            style=discord.ButtonStyle.secondary,
            custom_id=f"pickgo:{game_id}:{ply}:{origin}:{page}",
        )
        super().__init__(button)
        self.game_id, self.ply, self.origin, self.page = game_id, ply, origin, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["id"]), int(match["ply"]), int(match["origin"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.turn_page(
            interaction, self.game_id, self.ply, self.origin, self.page
        )


class PickerKit:
    """The picker's component classes of one client, bound to whoever answers them."""

    def __init__(self) -> None:
        self.select = bound(PickSelect, self)
        self.page = bound(PageButton, self)
        self._answers: PickerAnswers | None = None

    @property
    def answers(self) -> PickerAnswers:
        if self._answers is None:
            raise RuntimeError("a picker was used before its answers were registered")
        return self._answers

    def answered_by(self, answers: PickerAnswers) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand choices to ``answers``; the classes for ``Client.add_dynamic_items``."""
        self._answers = answers
        return (self.select, self.page)
