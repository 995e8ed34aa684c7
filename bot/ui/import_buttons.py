"""An imported game's persistent buttons and menus.

Each custom id carries the import it acts on (``import:replay:7``), and a ply where one is
or a page is chosen (``import:page:7:2``), so the buttons of a message posted before a restart still
answer; the service reads the import from the database at each press.  Everything is a tap:

* under the game's message: **Replay** (the GIF for the channel), **Analyse**, **Play from
  here** (a private panel);
* the panel: a menu of the positions of one page of plies (``import:ply:7:<page>``) with
  **Earlier** / **Later** page buttons (``import:page:7:<page>``); the chosen position is
  drawn with **Challenge anyone from here** (``import:open:7:<ply>``) and **Play the computer
  from here** (``import:computer:7:<ply>``);
* a file of several games: a menu of them (``import:pick:<n>``, each option an import id).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, ClassVar, Final, Protocol

import discord

from ..i18n import Text, _p, render
from .buttons import ID, bound, chosen_value

PLIES_PER_PAGE = 24
"""Positions a page of the ply menu lists (with the page's last one: 25, Discord's most)."""


class ImportAction(StrEnum):
    """What an import button does (the ids are a contract with posted messages)."""

    REPLAY = "replay"
    ANALYSE = "analyse"
    PLAY = "play"
    """Open the private panel of positions to play from (its last page)."""
    PAGE = "page"
    """Another page of the panel (the argument: the page)."""
    OPEN = "open"
    """An open challenge in the channel from the position after the argument's ply."""
    COMPUTER = "computer"
    """A game against the computer from the position after the argument's ply."""


LOOKS: Final[dict[ImportAction, tuple[Text, discord.ButtonStyle]]] = {
    ImportAction.REPLAY: (_p("button", "Replay"), discord.ButtonStyle.secondary),
    ImportAction.ANALYSE: (_p("button", "Analyse"), discord.ButtonStyle.primary),
    ImportAction.PLAY: (_p("button", "Play from here"), discord.ButtonStyle.success),
    ImportAction.PAGE: (_p("button", "Page"), discord.ButtonStyle.secondary),
    ImportAction.OPEN: (_p("button", "Challenge anyone from here"), discord.ButtonStyle.primary),
    ImportAction.COMPUTER: (
        _p("button", "Play the computer from here"),
        discord.ButtonStyle.success,
    ),
}


class ImportAnswers(Protocol):
    """What the import buttons and menus call."""

    async def answer_import(
        self,
        interaction: discord.Interaction,
        action: ImportAction,
        import_id: int,
        argument: int | None,
    ) -> None: ...

    async def chose_ply(
        self, interaction: discord.Interaction, import_id: int, value: str
    ) -> None: ...

    async def picked_game(self, interaction: discord.Interaction, value: str) -> None: ...


_ACTIONS = "|".join(action.value for action in ImportAction)


class ImportButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"import:(?P<action>{_ACTIONS}):{ID}(?::(?P<arg>[0-9]{{1,6}}))?",
):
    """One action on the import ``id`` (with a page or a ply), labelled in its message's
    language."""

    kit: ClassVar[ImportKit]  # set by bound

    def __init__(
        self,
        action: ImportAction,
        import_id: int,
        argument: int | None = None,
        code: str = "en",
        label: str = "",
    ) -> None:
        words, style = LOOKS[action]
        tail = "" if argument is None else f":{argument}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or render(words, code),
            style=style,
            custom_id=f"import:{action}:{import_id}{tail}",
        )
        super().__init__(button)
        self.action, self.import_id, self.argument = action, import_id, argument

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ImportButton:
        argument = None if match["arg"] is None else int(match["arg"])
        return cls(ImportAction(match["action"]), int(match["id"]), argument)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.answer_import(
            interaction, self.action, self.import_id, self.argument
        )


class ImportSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"import:(?P<menu>ply|pick):(?P<id>[0-9]{1,19}):(?P<page>[0-9]{1,6})",
):
    """A menu: the positions of one page of an import's plies (``ply``: each value a ply), or
    the games of a file (``pick``: each value an import id; ``id`` is the first of them)."""

    kit: ClassVar[ImportKit]  # set by bound

    def __init__(
        self,
        menu: str,
        ident: int,
        page: int = 0,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"import:{menu}:{ident}:{page}",
            options=options or [],
            placeholder=placeholder,
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.menu, self.ident = menu, ident

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ImportSelect:
        return cls(match["menu"], int(match["id"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)
        if self.menu == "ply":
            await self.kit.answers.chose_ply(interaction, self.ident, value)
        else:
            await self.kit.answers.picked_game(interaction, value)


class ImportKit:
    """The import item classes of one client, bound to whoever answers them."""

    def __init__(self) -> None:
        self.button = bound(ImportButton, self)
        self.select = bound(ImportSelect, self)
        self._answers: ImportAnswers | None = None

    @property
    def answers(self) -> ImportAnswers:
        if self._answers is None:
            raise RuntimeError("an import button was pressed before its answers were set")
        return self._answers

    def answered_by(self, answers: ImportAnswers) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand presses to ``answers``; the classes for ``Client.add_dynamic_items``."""
        self._answers = answers
        return (self.button, self.select)
