"""Clocks stop while the bot cannot hear the players.

A player can only move through the bot, so time the bot spent deaf (stopped, crashed, cut off
from Discord, or a machine whose wall clock jumped forward) must not count against them.  Each
check records when the bot last heard players (``heard_at`` in the store's ``meta``, so a
restart knows how long it was away); when a check finds it was deaf for longer than
:data:`SILENCE_SECONDS`, every deadline that passed meanwhile, or would pass within
:data:`GRACE_SECONDS`, is moved on by the silence (each player keeps the time they had left),
and at least by a grace so nobody loses on time before they could see the bot was back.  A
Fischer clock stands still the same way: its flag and its turn's start move on by the silence
(:func:`bot.service.clocks.paused`).  Each game so extended is told, through the outbox.

Deafness is measured three ways, added together:

- across a restart: the time since the last check the database remembers;
- within a process, a jump of the wall clock: wall time that passed between two checks beyond
  the monotonic time that did (a suspended machine, a clock set forward);
- within a process, the time the Discord layer reports the gateway was down
  (:meth:`Downtime.deaf`), during which the scheduler does not check at all.

Deadlines further away are not moved (their players lose part of the silence, but have ample
time); half-time reminders due meanwhile are dropped, as the announcement names the new deadline,
and the last warning is set again for the new deadline when there is time for one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..i18n import Text, _, duration
from ..markdown import shown
from ..results import Action, ActionResult
from ..store import GameChanges, Shards, Store
from . import clocks
from .live import LiveGames
from .records import warn_time
from .views import game_view

log = logging.getLogger(__name__)

HEARD_AT = "heard_at"
"""The ``meta`` key of the wall-clock time of the last check that could hear players (one per
shard when the bot is sharded, :func:`heard_at_key`)."""
SILENCE_SECONDS = 60.0
"""Deafness shorter than this is ignored (a slow check, a gateway reconnect)."""
GRACE_SECONDS = 15 * 60.0
"""The least time a player to move gets once the bot is back (capped at the game's time per
move, so a fast game stays fast)."""


class Downtime:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        *,
        clock: Callable[[], float],
        monotonic: Callable[[], float],
    ) -> None:
        self.store = store
        self.live = live
        self.clock = clock
        self.monotonic = monotonic
        self._last: tuple[float, float] | None = None
        """(wall, monotonic) time of this process's last check."""
        self._deaf = 0.0

    def deaf(self, seconds: float) -> None:
        """The Discord layer could not hear players for ``seconds`` (the gateway was down); the
        next check extends the deadlines that ran out meanwhile."""
        self._deaf += max(0.0, seconds)

    async def check(self, shards: Shards) -> list[ActionResult]:
        """Measure the silence since the last check, extend the deadlines it cost in the servers
        of ``shards`` (those this process hears), and note that players are heard now.  Called
        first by every scheduler check."""
        now, mono = self.clock(), self.monotonic()
        keys = [heard_at_key(shards.count, shard) for shard in sorted(shards.ids)]
        if self._last is None:
            # The latest record of these shards (a shard never recorded tells nothing); none at
            # all: the bot ran as one process until now, and its record is theirs.
            known = [_since(await self.store.meta(key), now) for key in keys]
            if all(s is None for s in known) and HEARD_AT not in keys:
                known = [_since(await self.store.meta(HEARD_AT), now)]
            silence = min([s for s in known if s is not None], default=0.0)
        else:
            wall0, mono0 = self._last
            silence = (now - wall0) - (mono - mono0)
        silence += self._deaf
        self._deaf = 0.0
        self._last = (now, mono)
        extended: list[ActionResult] = []
        if silence > SILENCE_SECONDS:
            log.warning("players could not be heard for %s; extending deadlines", duration(silence))
            extended = await self._extend(now, silence, shards)
        for key in keys:
            await self.store.set_meta(key, repr(now))
        return extended

    async def _extend(self, now: float, silence: float, shards: Shards) -> list[ActionResult]:
        horizon = now + GRACE_SECONDS
        due, _reminders = await self.store.due_games(horizon, shards=shards)
        clocked = await self.store.running_clocks(shards=shards)
        results = []
        for row in sorted({r.id: r for r in (*due, *clocked)}.values(), key=lambda r: r.id):
            async with self.live.lock(row.id):
                live = await self.live.load_quietly(row.id)
                if live is None or live.game.is_over:
                    continue
                deadline = live.row.deadline
                if deadline is None or (deadline > horizon and live.row.clock_base is None):
                    continue
                if live.row.clock_base is None:
                    grace = min(GRACE_SECONDS, float(live.row.move_time))
                    extended = max(deadline + silence, now + grace)
                    warn_at = warn_time(extended, live.row.move_time, now)
                    changes: GameChanges = {
                        "deadline": extended,
                        "remind_at": None,
                        "warn_at": warn_at,
                    }
                else:  # a Fischer clock stood still: its flag and its turn's start move on
                    changes = clocks.paused(live.row, silence, now)
                    extended = changes["deadline"] or now
                event = await self.live.save_row(live, changes, Action.CLOCK_EXTENDED)
            view = game_view(live.row, live.game)
            assert view.to_move is not None
            results.append(
                ActionResult(
                    Action.CLOCK_EXTENDED,
                    clock_extended_text(view.to_move.name, silence, extended - now),
                    game=view,
                    mentions=(view.to_move.id,),
                    event=event,
                )
            )
        return results


def heard_at_key(count: int, shard: int) -> str:
    """Where the last check that heard a shard's players is kept: a process that stops silences
    only its own shards' servers, so each shard's silence is measured from its own record (the
    whole bot in one process keeps the one record it always had)."""
    return HEARD_AT if count == 1 else f"{HEARD_AT}:{count}:{shard}"


def clock_extended_text(name: str, silence: float, left: float) -> Text:
    """What a game is told when its deadline was moved for the bot's silence."""
    return _(
        "I could not hear anyone for {silence}, so no clock ran meanwhile: {name} to move, "
        "with {time} left.",
        silence=duration(silence),
        name=shown(name),
        time=duration(left),
    )


def _since(heard: str | None, now: float) -> float | None:
    """Seconds since a stored ``heard_at`` (None when never stored or unreadable: a database
    from before this record, or a shard new to it, where the length of the silence is
    unknown)."""
    if heard is None:
        return None
    try:
        return max(0.0, now - float(heard))
    except ValueError:
        log.warning("the stored %s %r is not a time; ignored", HEARD_AT, heard)
        return None
