"""The fixed choices of the slash commands, each declared once, as domain values.

Discord lists a choice's name and sends back its value; a command wants the member it stands for
(a :class:`~bot.enums.DrawAction`, a number of seconds).  A :class:`Choices` is the discord.py
``Transformer`` that does both: its ``choices`` are what the command declares to Discord, and
``transform`` hands the callback the domain value.  discord.py's own ``Enum`` annotations would
name each choice after the member (``RANDOM``), and the names players see are part of the
commands' contract, so the names come from the words below instead.

The names are English, marked with :func:`~bot.i18n.N_` for the catalogs: discord.py hands each
one to the slash commands' translator when the commands are synced, and Discord shows every user
the names in their own language (the value sent back is the same in every language).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Generic, TypeVar

import discord
from discord import app_commands

from rules.variants import VARIANTS

from ..enums import (
    BoardTheme,
    ColorChoice,
    DrawAction,
    Opening,
    Orientation,
    ThreadMode,
    TimePool,
)
from ..errors import ChallengeError
from ..i18n import N_, available, language_name, render
from ..i18n.catalogs import register_choices
from ..results import PRESET_CLOCKS, MoveChoice, TimeControl
from ..tournaments.model import Format
from ..words import POOL_TITLES
from .limits import autocomplete
from .texts import MOVE_TIMES, OPENING_WORDS

V = TypeVar("V", bound=str | int)


def _sent(value: str | int) -> str | int:
    """The value Discord stores and sends back: the plain word or number."""
    return value.value if isinstance(value, Enum) else value


class Choices(app_commands.Transformer[discord.Client], Generic[V]):
    """A fixed option: ``names`` maps each domain value, in the order Discord lists them, to the
    name shown for it."""

    def __init__(self, names: Mapping[V, str | app_commands.locale_str]) -> None:
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
COLOR: Choices[ColorChoice] = Choices(
    {
        ColorChoice.RANDOM: N_("random"),
        ColorChoice.WHITE: N_("white"),
        ColorChoice.BLACK: N_("black"),
    }
)
MOVE_TIME = Choices({seconds: label for label, seconds in MOVE_TIMES})
"""Seconds per move, as chosen (the bot's time scale is applied by the command)."""
OPENING: Choices[Opening] = Choices(OPENING_WORDS)
DRAW_ACTION: Choices[DrawAction] = Choices(
    {
        DrawAction.OFFER: N_("offer"),
        DrawAction.ACCEPT: N_("accept"),
        DrawAction.DECLINE: N_("decline"),
    }
)
THREADS: Choices[ThreadMode] = Choices(
    {
        ThreadMode.OPTIONAL: N_("optional"),
        ThreadMode.ALWAYS: N_("always"),
        ThreadMode.NEVER: N_("never"),
    }
)

ORIENTATION: Choices[Orientation] = Choices(
    {Orientation.WHITE: N_("White at the bottom"), Orientation.BLACK: N_("Black at the bottom")}
)
THEME: Choices[BoardTheme] = Choices(
    {
        BoardTheme.WOOD: N_("wood"),
        BoardTheme.GREEN: N_("green"),
        BoardTheme.CONTRAST: N_("contrast (colour-blind safe, high contrast)"),
    }
)
NOTATION = Choices(
    {
        "variant": N_("the variant's own (algebraic in Russian and Brazilian)"),
        "numeric": N_("numeric (11-15)"),
        "algebraic": N_("algebraic (c3-d4)"),
    }
)
"""How moves are shown to the user; "variant" clears the preference."""
FOLLOW_DISCORD = "discord"
"""The ``/settings language`` choice that clears the server's language: public messages follow
the server's language as Discord gives it."""
LANGUAGE = Choices(
    {
        FOLLOW_DISCORD: N_("the server's language in Discord"),
        **{
            # Each language by its own name, the same in every client (not translated).
            code: app_commands.locale_str(language_name(code), verbatim=True)
            for code in available()
        },
    }
)
"""Every language with a catalog (a new catalog file adds its choice)."""

POOL: Choices[TimePool] = Choices(
    {
        TimePool.BULLET: N_("bullet"),
        TimePool.BLITZ: N_("blitz"),
        TimePool.RAPID: N_("rapid"),
        TimePool.CLASSICAL: N_("classical"),
        TimePool.CORRESPONDENCE: N_("correspondence"),
    }
)
"""The rating pools (time classes) of ``/stats`` and ``/leaderboard``."""

FORMAT = Choices(
    {
        Format.SWISS.value: N_("Swiss"),
        Format.ROUND_ROBIN.value: N_("round robin"),
        Format.ARENA.value: N_("arena"),
    }
)
"""How a tournament pairs its players (the values of :class:`~bot.tournaments.model.Format`)."""
FIXED_RESULT = Choices(
    {
        "white": N_("1-0: White wins"),
        "draw": N_("½-½: draw"),
        "black": N_("0-1: Black wins"),
        "neither": N_("0-0: both lose"),
    }
)
"""The results a moderator can give a tournament pairing (both lose: a double forfeit)."""
FIXED_POINTS: dict[str, tuple[float, float]] = {
    "white": (1.0, 0.0),
    "draw": (0.5, 0.5),
    "black": (0.0, 1.0),
    "neither": (0.0, 0.0),
}
"""White's and Black's points of each :data:`FIXED_RESULT`."""

BYE = Choices({"1": N_("1 point"), "0.5": N_("½ point"), "0": N_("no points")})
"""What a Swiss bye scores: FIDE's (and most federations') point, or the half point or nothing
some clubs and federations give instead."""

VariantOption = app_commands.Transform[str, VARIANT]
ColorOption = app_commands.Transform[ColorChoice, COLOR]
MoveTimeOption = app_commands.Transform[int, MOVE_TIME]
OpeningOption = app_commands.Transform[Opening, OPENING]
DrawActionOption = app_commands.Transform[DrawAction, DRAW_ACTION]
ThreadsOption = app_commands.Transform[ThreadMode, THREADS]
OrientationOption = app_commands.Transform[Orientation, ORIENTATION]
ThemeOption = app_commands.Transform[BoardTheme, THEME]
NotationOption = app_commands.Transform[str, NOTATION]
LanguageOption = app_commands.Transform[str, LANGUAGE]
PoolOption = app_commands.Transform[TimePool, POOL]
FormatOption = app_commands.Transform[str, FORMAT]
FixedResultOption = app_commands.Transform[str, FIXED_RESULT]
ByeOption = app_commands.Transform[str, BYE]

TYPED: dict[str, Choices[Any]] = {
    "variant": VARIANT,
    "color": COLOR,
    "move_time": MOVE_TIME,
    "opening": OPENING,
    "action": DRAW_ACTION,
    "threads": THREADS,
    "orientation": ORIENTATION,
    "theme": THEME,
    "notation": NOTATION,
    "language": LANGUAGE,
    "pool": POOL,
    "format": FORMAT,
    "result": FIXED_RESULT,
    "bye": BYE,
}
"""Each option with fixed choices, by its name (an option's name means the same choices in every
command that has it; tests/ui/test_catalog_style.py checks this against the commands)."""


def _register() -> None:
    """Tell the catalogs the choices a sentence may show typed (``variant:english``,
    ``/draw offer|accept|decline``), so every language shows them by the names its client lists
    (:data:`bot.i18n.catalogs.TYPED_CHOICES`)."""
    for option, choices in TYPED.items():
        register_choices(
            option,
            {
                str(choice.value): str(choice.name)
                for choice in choices.choices
                if isinstance(choice.value, str)
            },
        )


_register()


MAX_CLOCK_TEXT = 20
"""Longer ``/challenge clock`` text is refused before it is read (``180+180`` is 7)."""


def clock_choices(current: str, code: str) -> list[app_commands.Choice[str]]:
    """The ``/challenge clock`` suggestions: lidraughts' usual clocks (:data:`PRESET_CLOCKS`),
    each with its time class in the reader's language (``3+2 · Blitz``), and first the clock
    being typed when it reads as one (``7+3``), so a custom clock is one tap too."""
    offered = list(PRESET_CLOCKS)
    try:
        typed = TimeControl.parse(current[:MAX_CLOCK_TEXT]) if current.strip() else None
    except ChallengeError:
        typed = None
    if typed is not None and typed not in offered:
        offered.insert(0, typed)
    return autocomplete(
        MoveChoice(f"{c.label} · {render(POOL_TITLES[c.pool], code)}", c.label) for c in offered
    )
