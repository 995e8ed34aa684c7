"""The fixed choices of the slash commands, each declared once, as domain values.

Discord lists a choice's name and sends back its value; a command wants the member it stands for
(a :class:`~bot.enums.DrawAction`, a number of seconds).  A :class:`Choices` is the discord.py
``Transformer`` that does both: its ``choices`` are what the command declares to Discord, and
``transform`` hands the callback the domain value.  discord.py's own ``Enum`` annotations would
name each choice after the member (``RANDOM``), and the names players see are part of the
commands' contract, so the names come from the words below instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Generic, TypeVar

import discord
from discord import app_commands

from rules.variants import VARIANTS

from ..enums import BoardTheme, ColorChoice, DrawAction, Opening, Orientation, ThreadMode
from .texts import MOVE_TIMES, OPENING_WORDS

V = TypeVar("V", bound=str | int)


def _sent(value: str | int) -> str | int:
    """The value Discord stores and sends back: the plain word or number."""
    return value.value if isinstance(value, Enum) else value


class Choices(app_commands.Transformer[discord.Client], Generic[V]):
    """A fixed option: ``names`` maps each domain value, in the order Discord lists them, to the
    name shown for it."""

    def __init__(self, names: Mapping[V, str]) -> None:
        self._names = dict(names)
        self._by_sent = {_sent(value): value for value in self._names}

    @property
    def type(self) -> discord.AppCommandOptionType:
        if all(isinstance(value, int) for value in self._by_sent):
            return discord.AppCommandOptionType.integer
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[str | int | float]]:
        return [
            app_commands.Choice(name=name, value=_sent(value))
            for value, name in self._names.items()
        ]

    async def transform(self, interaction: discord.Interaction, value: str | int, /) -> V:
        try:
            return self._by_sent[value]
        except KeyError:  # refused before, by the command tree (validation.py); kept as a guard
            raise app_commands.TransformerError(value, self.type, self) from None


MAX_GAME_ID = 2**53 - 1  # Discord's largest INTEGER option value (a game id option's bound)
VARIANT = Choices({key: variant.title[:100] for key, variant in VARIANTS.items()})
"""A variant's key, named by its title (the order of :data:`rules.variants.VARIANTS`)."""
COLOR: Choices[ColorChoice] = Choices({color: color.value for color in ColorChoice})
MOVE_TIME = Choices({seconds: label for label, seconds in MOVE_TIMES})
"""Seconds per move, as chosen (the bot's time scale is applied by the command)."""
OPENING: Choices[Opening] = Choices(OPENING_WORDS)
DRAW_ACTION: Choices[DrawAction] = Choices({action: action.value for action in DrawAction})
THREADS: Choices[ThreadMode] = Choices({mode: mode.value for mode in ThreadMode})

ORIENTATION: Choices[Orientation] = Choices(
    {Orientation.WHITE: "White at the bottom", Orientation.BLACK: "Black at the bottom"}
)
THEME: Choices[BoardTheme] = Choices(
    {
        BoardTheme.WOOD: "wood",
        BoardTheme.GREEN: "green",
        BoardTheme.CONTRAST: "contrast (colour-blind safe, high contrast)",
    }
)
NOTATION = Choices(
    {
        "variant": "the variant's own (algebraic in Russian and Brazilian)",
        "numeric": "numeric (11-15)",
        "algebraic": "algebraic (c3-d4)",
    }
)
"""How moves are shown to the user; "variant" clears the preference."""

VariantOption = app_commands.Transform[str, VARIANT]
ColorOption = app_commands.Transform[ColorChoice, COLOR]
MoveTimeOption = app_commands.Transform[int, MOVE_TIME]
OpeningOption = app_commands.Transform[Opening, OPENING]
DrawActionOption = app_commands.Transform[DrawAction, DRAW_ACTION]
ThreadsOption = app_commands.Transform[ThreadMode, THREADS]
OrientationOption = app_commands.Transform[Orientation, ORIENTATION]
ThemeOption = app_commands.Transform[BoardTheme, THEME]
NotationOption = app_commands.Transform[str, NOTATION]
