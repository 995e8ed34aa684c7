"""Reading ``/tournament create``'s options: when it starts, and which options fit its format.

A moderator types few things: the format, perhaps a start.  ``start`` is either a delay
(``15``, ``15m``, ``2h``, ``1h30m``, ``1d``: from now) or a time in UTC (``21:30``: the next one;
``2026-12-24 18:00``), or a Discord timestamp pasted as it is (``<t:1767000000:F>``), since
Discord tells a bot no one's time zone.  Each format takes only its own options (``rounds``
for a Swiss, ``double`` for a round robin, ``duration`` and ``berserk`` for an arena), so an
option that would be silently ignored is refused instead, before anything is written.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Final

from discord import app_commands

from ..errors import TournamentError
from ..i18n import _, duration, render
from ..results import MoveChoice
from ..tournaments.model import Format
from .limits import autocomplete

MAX_START_TEXT: Final = 40
"""Longer ``start`` text is refused before it is read."""
LONGEST_WAIT: Final = 90 * 86400
"""How far ahead an event may be announced: a season's league, not a year's."""
START_SUGGESTIONS: Final = (5, 15, 30, 60, 24 * 60)
"""Minutes from now offered for ``start`` as one tap."""

_UNITS = {"d": 86400, "h": 3600, "m": 60}
_DELAY = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m(?:in)?)?")
_CLOCK_TIME = re.compile(r"(\d{1,2}):(\d{2})")
_DATE_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})")
_TIMESTAMP = re.compile(r"<t:(\d{1,12})(?::[tTdDfFR])?>")


def start_time(text: str, now: float, scale: float = 1.0) -> float:
    """When the event starts, read from ``text`` (see the module's doc), as seconds since the
    epoch; a delay is shortened by ``scale`` as the bot's other times are (tests run an evening
    in seconds).  A clear refusal for what it cannot read, a time past or too far ahead."""
    words = text.strip().lower().replace(" ", "")
    delay = _delay(words)
    at = now + delay * scale if delay is not None else _moment(text.strip(), now)
    if at < now:
        raise TournamentError(_("that start time has passed; give a later one"))
    if at - now > LONGEST_WAIT:
        raise TournamentError(
            _("a tournament can start at most {time} from now", time=duration(LONGEST_WAIT))
        )
    return at


def _delay(words: str) -> float | None:
    """Seconds from now for ``15``, ``15m``, ``2h``, ``1h30m``, ``1d``; None for anything else."""
    if words.isdigit() and len(words) <= 6:
        return int(words) * 60.0
    match = _DELAY.fullmatch(words)
    if match is None or not any(match.groups()):
        return None
    days, hours, minutes = (int(part or 0) for part in match.groups())
    return float(days * _UNITS["d"] + hours * _UNITS["h"] + minutes * _UNITS["m"])


def _moment(text: str, now: float) -> float:
    """A time of day or a date and time in UTC, or a Discord timestamp, as seconds."""
    if (match := _TIMESTAMP.fullmatch(text)) is not None:
        return float(match.group(1))
    today = datetime.fromtimestamp(now, UTC)
    try:
        if (match := _CLOCK_TIME.fullmatch(text)) is not None:
            hour, minute = int(match.group(1)), int(match.group(2))
            at = today.replace(hour=hour, minute=minute, second=0, microsecond=0)
            if at.timestamp() < now:
                at += timedelta(days=1)  # the next one
            return at.timestamp()
        if (match := _DATE_TIME.fullmatch(text)) is not None:
            year, month, day, hour, minute = (int(part) for part in match.groups())
            return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()
    except ValueError:  # 25:00, February 30th
        pass
    raise TournamentError(
        _(
            "write the start as minutes from now (15, 2h, 1h30m) or a time in UTC (21:30, "
            "2026-12-24 18:00), not {text}",
            text=repr(text[:MAX_START_TEXT]),
        )
    )


def start_choices(current: str, now: float, code: str) -> list[app_commands.Choice[str]]:
    """The ``start`` suggestions: what is being typed, read back as the time it means (so a
    moderator sees "21:30 UTC" land where they meant), then a few delays."""
    offered: list[MoveChoice] = []
    typed = current.strip()[:MAX_START_TEXT]
    if typed:
        try:
            at = start_time(typed, now)
        except TournamentError:
            pass
        else:
            when = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
            offered.append(MoveChoice(f"{typed} · {when}", typed))
    for minutes in START_SUGGESTIONS:
        name = render(_("in {time}", time=duration(minutes * 60)), code)
        offered.append(MoveChoice(name, str(minutes)))
    return autocomplete(offered)


def check_format_options(
    format: Format,
    *,
    rounds: int | None,
    double: bool | None,
    duration_minutes: int | None,
    berserk: bool | None,
    clocked: bool,
    bye: str | None = None,
) -> None:
    """Refuse the options ``format`` has no use for (they would be ignored without a word),
    and what an arena needs: a duration, and a clock for berserk."""
    if rounds is not None and format is not Format.SWISS:
        raise TournamentError(_("`rounds` is for Swiss tournaments only"))
    if bye is not None and format is not Format.SWISS:
        raise TournamentError(_("`bye` is for Swiss tournaments only"))
    if double is not None and format is not Format.ROUND_ROBIN:
        raise TournamentError(_("`double` is for round robins only"))
    if format is Format.ARENA:
        if duration_minutes is None:
            raise TournamentError(_("an arena needs a `duration`"))
        if berserk and not clocked:
            raise TournamentError(_("berserk halves a clock: give the arena a `clock`"))
        return
    if duration_minutes is not None:
        raise TournamentError(_("`duration` is for arenas only"))
    if berserk is not None:
        raise TournamentError(_("berserk is for arenas only"))


def check_rating_range(low: int | None, high: int | None) -> None:
    """The entry range reads low to high."""
    if low is not None and high is not None and low > high:
        raise TournamentError(_("the lowest rating must not be above the highest"))
