"""A game's time control: the Fischer clock a challenge, a game or a tournament is played on,
its bounds and the rating pool (time class) it falls in.  :mod:`bot.results` re-exports every
name here; it stands alone so the tournament results (:mod:`bot.tournament_results`) build on
it without a circle."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .enums import TimePool
from .errors import ChallengeError
from .i18n import _

POOL_LIMITS: tuple[tuple[float, TimePool], ...] = (
    (180.0, TimePool.BULLET),
    (480.0, TimePool.BLITZ),
    (1500.0, TimePool.RAPID),
)
"""lichess's time classes by estimated length (base + 40 x increment, in seconds): under 3
minutes bullet, under 8 blitz, under 25 rapid, else classical."""
CLOCK_BASE_LIMITS = (15, 3 * 3600)
"""A Fischer clock's base time, in seconds (a quarter of a minute to three hours)."""
CLOCK_INCREMENT_MAX = 180
"""A Fischer clock's largest increment, in seconds."""


@dataclass(frozen=True)
class TimeControl:
    """A Fischer clock as chosen: ``base`` seconds each, ``increment`` seconds added after each
    move (``3+2`` is three minutes and two seconds).  Games without one are played with a time
    per move (correspondence)."""

    base: float
    increment: float

    @property
    def label(self) -> str:
        """``3+2``: the base in minutes (``½+0``, ``1.5+1`` for parts of one), the increment
        in seconds, as lidraughts writes it."""
        minutes = round(self.base / 60, 2)
        shown = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes) or f"{minutes:g}"
        return f"{shown}+{round(self.increment, 2):g}"

    def scaled(self, factor: float) -> TimeControl:
        """The clock as a bot whose times are scaled runs it (``MOVE_TIME_SCALE``: tests and
        demos play a 3+2 game in seconds; its time class follows the scaled clock)."""
        return self if factor == 1 else TimeControl(self.base * factor, self.increment * factor)

    @property
    def pool(self) -> TimePool:
        """The rating pool of games on this clock (see :data:`POOL_LIMITS`)."""
        estimate = self.base + 40 * self.increment
        return next((pool for limit, pool in POOL_LIMITS if estimate < limit), TimePool.CLASSICAL)

    def checked(self) -> TimeControl:
        """The clock itself, or a refusal saying which bound it passes."""
        low, high = CLOCK_BASE_LIMITS
        if not low <= self.base <= high:
            raise ChallengeError(
                _("a clock's base time must be between ¼ and 180 minutes"),
            )
        if not 0 <= self.increment <= CLOCK_INCREMENT_MAX:
            raise ChallengeError(_("a clock's increment must be between 0 and 180 seconds"))
        return self

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``3+2`` (minutes + seconds; ``0.5+0``, ``½+0`` and ``1,5+1`` too), checked; a clear
        refusal otherwise."""
        words = text.strip().replace(" ", "").replace(",", ".").replace("½", "0.5")
        words = words.replace("¼", "0.25").replace("¾", "0.75")
        match = re.fullmatch(r"(\d{1,3}(?:\.\d{1,2})?)\+(\d{1,3})", words)
        if match is None:
            raise ChallengeError(
                _(
                    "write a clock as minutes + seconds added per move, like 3+2 (not {text})",
                    text=repr(text.strip()[:20]),
                )
            )
        base = round(float(match.group(1)) * 60)
        return cls(base, int(match.group(2))).checked()

    def playable(self) -> TimeControl:
        """The clock itself when a game can run on it (a scaled clock passes the bounds of
        :meth:`checked`, which the command checks before scaling), else a refusal."""
        if not (self.base > 0 and self.increment >= 0):
            raise ChallengeError(_("a clock needs a positive base time"))
        return self


PRESET_CLOCKS: tuple[TimeControl, ...] = (
    TimeControl(60, 1),
    TimeControl(180, 2),
    TimeControl(300, 3),
    TimeControl(600, 5),
    TimeControl(900, 10),
)
"""The clocks offered first (lidraughts' usual bullet, blitz and rapid games)."""
