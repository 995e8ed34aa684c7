"""A tournament's persistent buttons: joining and leaving, the standings, the moderators' panel.

Each custom id carries what it acts on (``tournament:join:7``), so the buttons of an
announcement posted before a restart still answer; the service decides from the database
whether the action still makes sense (joining an event that started, a moderator's Start on one
that was cancelled), and a stale press is answered privately.  Players join and leave only
here; a moderator runs the whole event from here too (**Manage** opens a private panel with
Start now, Pause, Resume and Cancel), so nothing but the creation command needs typing.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, ClassVar, Final, Protocol

import discord

from ..i18n import Text, _p, render
from .buttons import ID, bound, view_of


class TournamentAction(StrEnum):
    """What a tournament button does (the ids are a contract with posted messages)."""

    JOIN = "join"
    LEAVE = "leave"
    STANDINGS = "standings"
    MANAGE = "manage"
    """Open the moderators' private panel."""
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    CANCEL = "cancel"
    PDN = "pdn"
    """The event's games in one PDN file (the ``/history`` event page)."""
    BERSERK = "berserk"
    """On an arena pairing's message: its player halves their clock (the message is the
    game's thread, so it names the game)."""


MODERATOR_ACTIONS: Final = frozenset(
    {
        TournamentAction.MANAGE,
        TournamentAction.START,
        TournamentAction.PAUSE,
        TournamentAction.RESUME,
        TournamentAction.CANCEL,
    }
)

LOOKS: Final[dict[TournamentAction, tuple[Text, discord.ButtonStyle]]] = {
    TournamentAction.JOIN: (_p("button", "Join"), discord.ButtonStyle.success),
    TournamentAction.LEAVE: (_p("button", "Leave"), discord.ButtonStyle.secondary),
    TournamentAction.STANDINGS: (_p("button", "Standings"), discord.ButtonStyle.primary),
    TournamentAction.MANAGE: (_p("button", "Manage (moderators)"), discord.ButtonStyle.secondary),
    TournamentAction.START: (_p("button", "Start now"), discord.ButtonStyle.success),
    TournamentAction.PAUSE: (_p("button", "Pause"), discord.ButtonStyle.secondary),
    TournamentAction.RESUME: (_p("button", "Resume"), discord.ButtonStyle.success),
    TournamentAction.CANCEL: (_p("button", "Cancel the tournament"), discord.ButtonStyle.danger),
    TournamentAction.PDN: (_p("button", "PDN"), discord.ButtonStyle.secondary),
    TournamentAction.BERSERK: (_p("button", "Berserk"), discord.ButtonStyle.danger),
}


class TournamentAnswers(Protocol):
    """What the tournament buttons call."""

    async def answer_tournament(
        self, interaction: discord.Interaction, action: TournamentAction, tournament_id: int
    ) -> None: ...


_ACTIONS = "|".join(action.value for action in TournamentAction)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tournament:(?P<action>{_ACTIONS}):{ID}",
):
    """One action on the tournament ``id``, labelled in the language of its message."""

    kit: ClassVar[TournamentKit]  # set by bound

    def __init__(
        self, action: TournamentAction, tournament_id: int, code: str = "en", label: str = ""
    ) -> None:
        words, style = LOOKS[action]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or render(words, code),
            style=style,
            custom_id=f"tournament:{action}:{tournament_id}",
        )
        super().__init__(button)
        self.action, self.tournament_id = action, tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(TournamentAction(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.answer_tournament(interaction, self.action, self.tournament_id)


class TournamentKit:
    """The tournament button class of one client, bound to whoever answers it."""

    def __init__(self) -> None:
        self.button = bound(TournamentButton, self)
        self._answers: TournamentAnswers | None = None

    @property
    def answers(self) -> TournamentAnswers:
        if self._answers is None:
            raise RuntimeError("a tournament button was pressed before its answers were set")
        return self._answers

    def answered_by(
        self, answers: TournamentAnswers
    ) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand presses to ``answers``; the classes for ``Client.add_dynamic_items``."""
        self._answers = answers
        return (self.button,)

    def view(
        self, tournament_id: int, actions: list[TournamentAction], code: str
    ) -> discord.ui.View:
        """A view of ``actions`` on ``tournament_id``, in the order given."""
        return view_of(*(self.button(action, tournament_id, code) for action in actions))

    def announcement(
        self, tournament_id: int, *, open_: bool, code: str, over: bool = False
    ) -> discord.ui.View:
        """Under the announcement: Join and Leave while entries are taken (a Swiss or an arena
        takes late entries while it runs), Standings, and the moderators' Manage until it is
        over."""
        actions = [TournamentAction.JOIN, TournamentAction.LEAVE] if open_ else []
        actions.append(TournamentAction.STANDINGS)
        if not over:
            actions.append(TournamentAction.MANAGE)
        return self.view(tournament_id, actions, code)

    def panel(
        self, tournament_id: int, *, started: bool, paused: bool, code: str
    ) -> discord.ui.View:
        """The moderators' private panel: Start now before the start, Pause or Resume after
        it, and Cancel."""
        if not started:
            actions = [TournamentAction.START]
        else:
            actions = [TournamentAction.RESUME if paused else TournamentAction.PAUSE]
        return self.view(tournament_id, [*actions, TournamentAction.CANCEL], code)
