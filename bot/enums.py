"""The small closed vocabularies that rows, views and commands share.

They are :class:`~enum.StrEnum`\\ s whose values are the words stored in the database and shown in
slash-command choices, so a row read back from either backend, a view, and an option a user
picked all hold the same member, and comparing with the plain word still works.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from rules.variants import Color

E = TypeVar("E", bound=StrEnum)


def member_or(kind: type[E], word: object, default: E) -> E:
    """The member of ``kind`` stored as ``word``, or ``default`` for an empty, unknown or
    damaged value: for the loosely stored words (themes, orientations, notations) whose damage
    must never stop a game."""
    if not isinstance(word, str) or not word:
        return default
    try:
        return kind(word)
    except ValueError:
        return default


class GameStatus(StrEnum):
    """Where a game stands.  Only ``RUNNING`` games take moves; an aborted game has no result."""

    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class Side(StrEnum):
    """A colour as stored and shown (``rules`` has its own :class:`~rules.variants.Color`, an
    ``IntEnum`` for bitboard indexing; :meth:`of` and :attr:`color` convert)."""

    WHITE = "white"
    BLACK = "black"

    @classmethod
    def of(cls, color: Color) -> Side:
        return cls.WHITE if color is Color.WHITE else cls.BLACK

    @property
    def color(self) -> Color:
        return Color.WHITE if self is Side.WHITE else Color.BLACK

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class ColorChoice(StrEnum):
    """The challenger's colour in a challenge."""

    RANDOM = "random"
    WHITE = "white"
    BLACK = "black"


class ThreadMode(StrEnum):
    """A server's thread setting.

    ``optional``: a game opens a thread when the challenger asks (or the channel is busy);
    ``always``: every game started from a channel gets its own thread (games against the computer
    too; a challenge made inside a thread plays there); ``never``: games are played in the channel
    itself, so a busy channel takes no new game.  A challenge keeps the terms it was made with, so
    one that asked for a thread still gets it if the setting changes before it is accepted."""

    OPTIONAL = "optional"
    ALWAYS = "always"
    NEVER = "never"


class DrawAction(StrEnum):
    """What ``/draw`` does."""

    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"


class Opening(StrEnum):
    """How a challenged game opens."""

    NONE = "none"
    BALLOT = "ballot"


class Orientation(StrEnum):
    """Which side a server's boards show at the bottom.  ``white`` is the usual diagram
    convention (White's pieces nearest the reader); ``black`` turns the board round.  A game keeps
    the orientation it started with (stored on the game as ``flip``), so changing the setting
    never turns a running game's board round."""

    WHITE = "white"
    BLACK = "black"


class BoardTheme(StrEnum):
    """The colours boards are drawn in: the themes of ``render/themes.py`` by name (the service
    never imports ``render``; a test of the Discord layer ties the two lists together)."""

    WOOD = "wood"
    GREEN = "green"
    CONTRAST = "contrast"


class TimePool(StrEnum):
    """The rating pools, one per time class, as lichess and lidraughts separate them: a blitz
    result moves only the blitz rating.  A Fischer clock's class follows its estimated length,
    base + 40 x increment (:meth:`bot.results.TimeControl.pool`); games with a time per move are
    correspondence, which is also where every rating from before clocks stands."""

    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


class TournamentStatus(StrEnum):
    """Where a tournament stands: taking entries, being played (or paused by a moderator: no
    new round is paired), or over (finished with standings, or cancelled)."""

    OPEN = "open"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"
