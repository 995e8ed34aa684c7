"""Everything that happens because time passed: expired challenges, half-time reminders, last
warnings, timeouts, and the catch-up work a restart or a failure leaves (deadlines that ran while
the bot was deaf, computer replies, match games).

A player who lets their time run out before making a single move of their own does not lose: the
game is aborted (no result, unrated), since a game one side never started is no contest, and a
challenge accepted and forgotten must not cost the other player rating points either way.  Once
they have moved, running out of time loses as ever.

Each reminder is cleared in the transaction that writes its announcement, so a restart never
sends one twice.

:meth:`Deadlines.tick` reads what is due from the database, so a bot that was offline for days
finds every deadline that passed meanwhile; each game is handled under its lock and guarded by its
version, so a tick racing a player's move cannot end a game the move just saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..enums import ChallengeStatus
from ..errors import ConflictError
from ..i18n import _
from ..markdown import shown
from ..results import Action, ActionResult, Player
from ..store import ChannelBusy, GameChanges, Store
from ..words import NEVER_MOVED
from .clocks import pool_of
from .computer_replies import ComputerReplies
from .downtime import Downtime
from .endings import Endings
from .events import new_event
from .ladder import shown_rating
from .live import LiveGames, apply_rules
from .matches import second_game
from .notices import Notices
from .shards import ShardOwnership
from .starting import Starter
from .tournament_games import TournamentGames
from .views import (
    abortable,
    challenge_closed_text,
    challenge_view,
    game_view,
    last_warning_text,
    mentions_after,
    player,
    reminder_text,
)


class Deadlines:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        replies: ComputerReplies,
        starter: Starter,
        endings: Endings,
        downtime: Downtime,
        notices: Notices,
        ownership: ShardOwnership,
        *,
        bot: Player,
        clock: Callable[[], float],
        tournaments: TournamentGames | None = None,
    ) -> None:
        """``tournaments``: what time brings to tournaments, checked with the rest."""
        self.tournaments = tournaments
        self.notices = notices
        self.ownership = ownership
        self.store = store
        self.live = live
        self.replies = replies
        self.downtime = downtime
        self.starter = starter
        self.endings = endings
        self.bot = bot
        self.clock = clock

    async def tick(self) -> list[ActionResult]:
        """Everything due now: deadlines extended for a silence of the bot (first, so nobody
        loses on time for it), expired challenges, half-time reminders and last warnings,
        timeouts, and computer replies and match games that failed earlier, in the servers of
        the shards this process owns (renewed first).  Called periodically by
        :class:`bot.scheduler.Scheduler`."""
        mine = await self.ownership.renew()
        if mine.empty:
            return []  # every shard of this process is another's for now
        events: list[ActionResult] = await self.downtime.check(mine)
        now = self.clock()
        for expired in await self.store.expired_challenges(now, shards=mine):
            event = new_event(
                Action.CHALLENGE_EXPIRED,
                channel_id=expired.channel_id,
                guild_id=expired.guild_id,
                challenge_id=expired.id,
                now=now,
            )
            if await self.store.close_challenge(expired.id, ChallengeStatus.EXPIRED, now, event):
                closed = await self.store.challenge(expired.id)
                assert closed is not None
                view = challenge_view(closed)
                events.append(
                    ActionResult(
                        Action.CHALLENGE_EXPIRED,
                        challenge_closed_text(Action.CHALLENGE_EXPIRED, view),
                        challenge=view,
                        mentions=(closed.challenger_id,),
                        event=event.id,
                    )
                )
        timeouts, reminders = await self.store.due_games(now, shards=mine)
        for row in timeouts:
            ended = await self._timeout(row.id, now)
            if ended is not None:
                events.append(ended)
        for row in reminders:
            reminded = await self._remind(row.id, now)
            if reminded is not None:
                events.append(reminded)
        await self.resume_computer_games()
        events += await self.resume_matches()
        if self.tournaments is not None:
            events += await self.tournaments.tick(mine)
        return events

    async def resume_computer_games(self) -> int:
        """Wake the computer in every running game where it is its turn (after a restart, and
        on every tick in case a reply failed); it thinks and shows its replies in the
        background (:mod:`bot.service.computer_replies`).  How many games it was woken in."""
        waiting = await self.store.computer_games_waiting(shards=await self.ownership.current())
        for row in waiting:
            self.replies.wake(row.id)
        return len(waiting)

    async def resume_matches(self) -> list[ActionResult]:
        """Start the second game of any match whose first game ended without it (the second
        normally starts in the first one's final transaction; this catches the rest)."""
        events = []
        for first in await self.store.matches_waiting(shards=await self.ownership.current()):
            async with self.live.lock(first.id):
                now = self.clock()
                event = new_event(
                    Action.GAME_STARTED,
                    channel_id=first.channel_id,
                    guild_id=first.guild_id,
                    now=now,
                )
                ratings: tuple[str | None, str | None] = (None, None)
                if first.rated and first.guild_id is not None:
                    guild, variant, pool = first.guild_id, first.variant, pool_of(first)
                    ratings = (  # the second game's White is the first game's Black
                        shown_rating(
                            await self.store.rating(guild, first.black_id, variant, pool), now
                        ),
                        shown_rating(
                            await self.store.rating(guild, first.white_id, variant, pool), now
                        ),
                    )
                try:
                    game_id = await self.store.start_game(
                        second_game(first, now, ratings), event=event
                    )
                except ChannelBusy:
                    continue  # the channel is busy; try again on a later tick
                row = await self.store.game(game_id)
                assert row is not None
                events.append(await self.starter.announce_stored(row, event.id))
        return events

    async def flag(self, game_id: int) -> ActionResult | None:
        """A clocked game's flag falls now if its time has run out (its timer fired:
        :mod:`bot.service.flags`); None when it has not, or the game changed meanwhile."""
        return await self._timeout(game_id, self.clock())

    async def _timeout(self, game_id: int, now: float) -> ActionResult | None:
        async with self.live.lock(game_id):
            live = await self.live.load_quietly(game_id)
            if live is None:
                return None
            if live.row.deadline is None or live.row.deadline > now or live.game.is_over:
                return None
            game = live.game
            loser = game.turn
            # The player to move has made no move of their own yet exactly when the game could
            # still be aborted: before their first move the other player has made at most one.
            never_moved = abortable(live.row, game)
            if never_moved:
                apply_rules(game.abort)
                assert game.outcome is not None
                game.outcome = replace(game.outcome, detail=NEVER_MOVED[loser].msgid)
            else:
                apply_rules(lambda: game.timeout(loser))
            try:
                event = await self.live.save(
                    live,
                    user_id=self.bot.id,
                    moved=False,
                    announce=Action.ABORTED if never_moved else Action.TIMEOUT,
                )
            except ConflictError:  # played meanwhile (by another process): not over after all
                return None
        view = game_view(live.row, live.game)
        late = shown(player(live.row, loser).name)
        if never_moved:
            return await self.endings.announce(
                ActionResult(
                    Action.ABORTED,
                    _(
                        "Game #{id} ({white} v {black}) was aborted: {name} never moved. "
                        "No result.",
                        id=view.id,
                        white=shown(view.white.name),
                        black=shown(view.black.name),
                        name=late,
                    ),
                    game=view,
                    mentions=mentions_after(view, self.bot.id),
                    event=event,
                )
            )
        return await self.endings.board_result(
            Action.TIMEOUT,
            _("{name} ran out of time.", name=late),
            view,
            event=event,
        )

    async def _remind(self, game_id: int, now: float) -> ActionResult | None:
        """The half-time reminder, or the last warning once that is due (a bot that was away
        through both gives only the last)."""
        async with self.live.lock(game_id):
            live = await self.live.load_quietly(game_id)
            if live is None:
                return None
            row = live.row
            if live.game.is_over:
                return None
            warn = row.warn_at is not None and row.warn_at <= now
            if not warn and (row.remind_at is None or row.remind_at > now):
                return None
            changes: GameChanges = {"remind_at": None}
            if warn:
                changes["warn_at"] = None
            action = Action.LAST_WARNING if warn else Action.REMINDER
            try:
                event = await self.live.save_row(live, changes, action)
            except ConflictError:  # played meanwhile (by another process): nothing to remind
                return None
        view = game_view(live.row, live.game)
        assert view.to_move is not None and view.deadline is not None
        if warn:
            return ActionResult(
                Action.LAST_WARNING,
                last_warning_text(view, now),
                game=view,
                mentions=(view.to_move.id,),
                event=event,
                dms=await self.notices.last_warning(view),
            )
        return ActionResult(
            Action.REMINDER,
            reminder_text(view),
            game=view,
            mentions=(view.to_move.id,),
            event=event,
        )
