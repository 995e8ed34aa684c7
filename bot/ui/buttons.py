"""Persistent buttons: each custom id carries what it acts on (``challenge:accept:17``).

They are :class:`discord.ui.DynamicItem` classes registered once at start-up, so a button on a
message posted before a restart still works: discord.py rebuilds the item from the custom id and
the service decides from the database whether the action still makes sense (a stale button gets
a private "no longer open" answer).  The callbacks hand over to the bot's
:class:`~bot.ui.flows.Flows`, where every action lives.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

if TYPE_CHECKING:
    from .flows import Flows

ID = r"(?P<id>[0-9]{1,19})"


def _flows(interaction: discord.Interaction) -> Flows:
    return interaction.client.flows  # type: ignore[attr-defined,no-any-return]


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"challenge:(?P<action>accept|decline|cancel):{ID}",
):
    """Accept or Decline (the challenged user), Cancel (the challenger)."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"challenge:{action}:{challenge_id}"
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).challenge_button(interaction, self.action, self.challenge_id)


class DrawButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"draw:(?P<action>accept|decline):{ID}",
):
    """The opponent's answer to a draw offer in game ``id``."""

    def __init__(self, action: str, game_id: int) -> None:
        label, style = (
            ("Accept draw", discord.ButtonStyle.success)
            if action == "accept"
            else ("Decline draw", discord.ButtonStyle.danger)
        )
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"draw:{action}:{game_id}")
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DrawButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).draw_button(interaction, self.action, self.game_id)


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"takeback:(?P<action>accept|decline):{ID}:(?P<ply>[0-9]{{1,6}})",
):
    """The opponent's answer to the takeback request made in game ``id`` at ``ply``: the ply
    ties the buttons to that one request, so an old message cannot answer a later one."""

    def __init__(self, action: str, game_id: int, ply: int) -> None:
        label, style = (
            ("Allow takeback", discord.ButtonStyle.success)
            if action == "accept"
            else ("Refuse takeback", discord.ButtonStyle.danger)
        )
        custom_id = f"takeback:{action}:{game_id}:{ply}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.action = action
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakebackButton:
        return cls(match["action"], int(match["id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).takeback_button(interaction, self.action, self.game_id, self.ply)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"resign:{ID}"):
    """The confirmation of ``/resign`` (shown only to the player who asked)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign", style=discord.ButtonStyle.danger, custom_id=f"resign:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).resign_button(interaction, self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"rematch:{ID}"):
    """Under a finished game: either player asks for a return game with colours swapped."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch", style=discord.ButtonStyle.primary, custom_id=f"rematch:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).rematch_button(interaction, self.game_id)


DYNAMIC_ITEMS = (ChallengeButton, DrawButton, TakebackButton, ResignButton, RematchButton)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def challenge_buttons(challenge_id: int) -> discord.ui.View:
    return _view(*(ChallengeButton(action, challenge_id) for action in ChallengeButton.STYLES))


def draw_buttons(game_id: int) -> discord.ui.View:
    return _view(DrawButton("accept", game_id), DrawButton("decline", game_id))


def takeback_buttons(game_id: int, ply: int) -> discord.ui.View:
    return _view(TakebackButton("accept", game_id, ply), TakebackButton("decline", game_id, ply))


def resign_buttons(game_id: int) -> discord.ui.View:
    return _view(ResignButton(game_id))


def rematch_buttons(game_id: int) -> discord.ui.View:
    return _view(RematchButton(game_id))
