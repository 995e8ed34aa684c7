"""Announcements still owed to players: what the background delivery posts, and its bookkeeping.

Every change players must see was written with an outbox entry (:mod:`bot.service.events`).  The
action that wrote it normally delivers it at once, by its interaction's answer, and marks it
delivered.  What is left (the answer failed, the process died first, a channel refused the post)
is handed out here, oldest first, for the Discord layer to post in the game's channel:

- an entry whose first delivery failed carries the message as it was built then, so it reads the
  same however late it arrives;
- an entry the process died before delivering is rebuilt from the database: the game (or
  challenge) as it stands, which is what that change led to.  An older entry of a game that has a
  newer one waiting is covered by the newer one and not posted on its own, so players see each
  game's state once, in order.  A game waiting for the computer's move is not rebuilt at all:
  the computer's reply, coming anyway, covers it.  A rebuilt announcement carries the direct
  messages it would have carried (the turn's, a last warning's), read from the preferences then.

Only the announcements of the servers whose shards this process owns are handed out here
(:mod:`bot.service.shards`); the old ones are pruned by the owner of shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..enums import ChallengeStatus, GameStatus
from ..i18n import _, duration, join
from ..markdown import shown
from ..results import Action, ActionResult, AnswerBy
from ..store import EventAnswer, EventRow, GameRow, Store
from .endings import Endings
from .events import decode, encode
from .live import LiveGames
from .notices import TURN_ACTIONS
from .shards import ShardOwnership
from .tournament_views import no_show_text, tournament_result
from .tournaments import Tournaments
from .views import (
    challenge_closed_text,
    challenge_mentions,
    challenge_text,
    challenge_view,
    game_view,
    last_warning_text,
    reminder_text,
)

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 5.0
RETRY_MAX_SECONDS = 15 * 60.0
GIVE_UP_AFTER = 20
"""Attempts before an announcement is dropped (with a warning): about four hours of retries,
for a channel that was deleted or that the bot may no longer post in."""
LATE = _("(Posted late: I could not post this at the time.)")
CHALLENGE_CLOSINGS = (
    Action.CHALLENGE_DECLINED,
    Action.CHALLENGE_CANCELLED,
    Action.CHALLENGE_EXPIRED,
)
TURN_KINDS = frozenset(action.value for action in TURN_ACTIONS)
KEEP_DELIVERED_SECONDS = 7 * 24 * 3600.0
"""Delivered announcements are kept this long (to look into what was posted), then pruned, so
the table holds about a week of moves rather than every move ever made."""
PRUNE_EVERY_SECONDS = 3600.0
MARK_DELAY_SECONDS = 0.02
"""Delivery marks are written together this soon after the first of them."""
MARK_RETRY_SECONDS = (0.5, 30.0)
"""Delivery marks the database refused are written again after this long, doubling up to the
second figure, until they are in: until then they are only in this process's memory."""
ANSWER_SETTLE_SECONDS = 5.0
"""After this long an interaction's message has arrived or never will (Discord takes the first
answer within 3 s; a deferred one is filled in, a follow-up sent, within seconds)."""
TOKEN_LIFE_SECONDS = 14 * 60.0
"""An interaction token can be asked about for 15 minutes; a minute is kept in hand."""
SAME_CHANGE_SECONDS = 0.25
"""One change writes its row, its move and its announcement at times read a few microseconds
apart; a change this much later is another one."""
EVERYTHING = 1e18
"""A time after every entry's next attempt: a new process owes everything written before it
started (no action of its own is delivering those)."""


@dataclass(frozen=True)
class Owed:
    """One announcement to deliver: the entry's id, and the result to show (None: nothing is
    left to show, e.g. a challenge answered meanwhile; mark it delivered)."""

    event: str
    attempts: int
    result: ActionResult | None
    answer: AnswerBy | None = None
    """The interaction message that was delivering it when its process died: look for that
    message before posting it again (its ``token`` only while Discord still takes it)."""
    game_id: int | None = None


class Outbox:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        endings: Endings,
        ownership: ShardOwnership,
        *,
        computer_id: int,
        clock: Callable[[], float],
        rng: random.Random,
        tournaments: Tournaments | None = None,
    ) -> None:
        """``tournaments``: where a tournament's announcement is rebuilt from."""
        self.tournaments = tournaments
        self.store = store
        self.ownership = ownership
        ownership.on_gain(self.took_over)
        self.live = live
        self.endings = endings
        self.computer_id = computer_id
        self.clock = clock
        self.rng = rng
        self._caught_up = False
        self._started = clock()
        self._owing_games: set[int] = set()
        """Games with a delivery that failed in this process, not yet seen through."""
        self._owing_unknown = False
        self._due: set[str] = set()
        """Entries whose delivery failed here before the failure could be written down (the
        database did not answer): due at once, whatever their row says, so they are posted as
        soon as the database is back."""
        self._pruned_at = -EVERYTHING
        self._delivered: dict[str, float] = {}
        """Delivery marks to write with the next bookkeeping: event -> delivered at."""
        self._writing: set[str] = set()
        self._writer: asyncio.Task[None] | None = None
        self._mark_retry = MARK_RETRY_SECONDS[0] / 2
        """Half the wait before the next write of marks the database refused."""

    async def delivered(self, event: str) -> None:
        """Players have seen the announcement ``event``: from now on this process never hands it
        out.  Written with the next bookkeeping (within :data:`MARK_DELAY_SECONDS`, see
        :meth:`flush`), and again until the database takes it."""
        self._delivered[event] = self.clock()
        self._write_soon()

    async def answering(self, event: str, answer: AnswerBy) -> None:
        """An interaction's message, or a post in the channel (``answer.interaction_id`` None),
        is about to deliver ``event``: keep which and since when (written now, so that if this
        process dies before hearing back, the next one can look for those messages instead of
        posting the announcement again).  Raises when the database does not take it: the
        message must then not be sent (it would be posted again after a crash)."""
        kept = EventAnswer(answer.interaction_id, answer.channel_id, answer.token, self.clock())
        await self.store.event_answering(event, kept)

    def _write_soon(self, delay: float = MARK_DELAY_SECONDS) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_after(delay))

    async def _write_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.flush()

    async def flush(self) -> bool:
        """Write the delivery marks waiting, in one transaction (at once: a shutdown calls this
        before the store closes); False when the database refused them (they are kept and
        written again, after :data:`MARK_RETRY_SECONDS`).  Under load, one write carries the
        bookkeeping of many moves instead of one write each."""
        while self._delivered:
            delivered, self._delivered = self._delivered, {}
            self._writing |= delivered.keys()
            try:
                await self.store.mark_events(list(delivered.items()))
            except BaseException as exc:
                for event, at in delivered.items():
                    self._delivered.setdefault(event, at)
                if not isinstance(exc, Exception):
                    raise  # cancelled (a shutdown): its own flush writes them
                self._mark_retry = min(MARK_RETRY_SECONDS[1], self._mark_retry * 2)
                log.warning(
                    "%d delivery mark(s) not written (%s); again in %.1f s",
                    len(delivered),
                    exc or type(exc).__name__,
                    self._mark_retry,
                )
                self._writer = asyncio.create_task(self._write_after(self._mark_retry))
                return False
            finally:
                self._writing -= delivered.keys()
        self._mark_retry = MARK_RETRY_SECONDS[0] / 2
        return True

    async def close(self) -> None:
        """Write what is waiting and stop the delayed writer (marks the database still refuses
        are lost with the process: those announcements are looked for, or posted, next time)."""
        await self._stop_writer()
        await self.flush()
        await self._stop_writer()

    async def _stop_writer(self) -> None:
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer

    def took_over(self) -> None:
        """A shard became this process's: hand out again what was written before this process
        started (its previous owner, gone, may have left announcements in flight)."""
        self._caught_up = False

    def may_owe(self, game_id: int) -> bool:
        """Whether ``game_id`` may have announcements owed that its next one must not overtake
        (a cheap answer without the database for the usual case: nothing failed in this
        process, and what earlier processes left has been handed out)."""
        return not self._caught_up or self._owing_unknown or game_id in self._owing_games

    def settled(self, game_id: int) -> None:
        """Everything owed of ``game_id`` was delivered."""
        self._owing_games.discard(game_id)

    async def failed(
        self,
        event: str,
        result: ActionResult | None,
        attempts: int = 0,
        *,
        game_id: int | None = None,
    ) -> None:
        """A delivery of ``event`` (an announcement of ``game_id``, or of ``result``'s game)
        failed: keep ``result`` (the message as first built, or what is left of it) and try
        again after a backoff that grows with ``attempts``; give up after :data:`GIVE_UP_AFTER`."""
        game = (
            game_id if game_id is not None else result.game.id if result and result.game else None
        )
        if game is None:
            self._owing_unknown = True
        else:
            self._owing_games.add(game)
        self._due.add(event)
        now = self.clock()
        if attempts + 1 >= GIVE_UP_AFTER:
            log.warning("giving up on announcement %s after %d attempts", event, attempts + 1)
            await self.store.mark_events(((event, now),))
            return
        delay = 0.0 if attempts == 0 else min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2**attempts)
        delay *= 0.75 + self.rng.random() / 2  # spread retries of many games apart
        payload = None if result is None else encode(result)
        await self.store.event_failed(event, payload, now + delay)
        self._due.discard(event)

    async def owed(
        self, *, game_id: int | None = None, covered: bool = False, limit: int = 50
    ) -> list[Owed]:
        """The announcements due for delivery now, oldest first (of one game when given).  The
        first call of a process also hands out everything written before the process started,
        due or not (no action of this process is delivering those).
        ``covered``: a newer announcement of ``game_id`` is about to be shown, so every older
        entry of the game, due or not, is handed out now (ahead of it, keeping the order), and
        those that would only show the game as it stands are covered by it."""
        now = self.clock()
        mine = await self.ownership.current()
        if game_id is None and mine.empty:
            return []  # another process runs these servers' deliveries for now
        if self._caught_up and not covered and not self._due:
            rows = await self.store.pending_events(now, shards=mine, game_id=game_id, limit=limit)
        else:
            rows = await self.store.pending_events(
                EVERYTHING, shards=mine, game_id=game_id, limit=limit
            )
            if not covered:  # this process's own entries are still in its actions' hands
                earlier = -EVERYTHING if self._caught_up else self._started
                rows = [
                    r
                    for r in rows
                    if r.created_at <= earlier or r.next_attempt_at <= now or r.id in self._due
                ]
        marked = self._delivered.keys() | self._writing
        rows = [r for r in rows if r.id not in marked]  # delivered; the mark is on its way
        catching_up = game_id is None and not self._caught_up
        last_of_game: dict[int, str] = {}
        last_of_tournament: dict[int, str] = {}
        for row in rows:
            if row.game_id is not None and not covered:
                last_of_game[row.game_id] = row.id
            elif row.tournament_id is not None and row.payload is None:
                last_of_tournament[row.tournament_id] = row.id
        owed = []
        settling = False
        # Games with a covered entry that made it someone's turn: the entry covering it carries
        # that turn's direct message, which would otherwise be lost with it.
        turned: set[int] = set()
        for row in rows:
            superseded = row.game_id is not None and last_of_game.get(row.game_id) != row.id
            if row.game_id is None and row.tournament_id is not None:
                # A tournament's newest announcement shows it as it stands: older ones left
                # by a crash are covered by it (its standings, its current round).
                superseded = last_of_tournament.get(row.tournament_id, row.id) != row.id
            if superseded and row.payload is None and row.kind in TURN_KINDS:
                assert row.game_id is not None
                turned.add(row.game_id)
            if not superseded and row.payload is None and await self._computer_to_move(row):
                continue  # its reply, due soon, shows the game as it stands (and covers this)
            answer = None if superseded else answer_of(row, now)
            if answer is not None and now - (row.answer_at or 0.0) < ANSWER_SETTLE_SECONDS:
                settling = True  # that message may still arrive: decide once it cannot
                continue
            result = await self._result(row, superseded)
            if result is not None and row.payload is None and row.game_id in turned:
                result = await self.endings.notices.turn(result, because=Action.MOVED)
            owed.append(Owed(row.id, row.attempts, result, answer, row.game_id))
            self._due.discard(row.id)  # its delivery now marks it, or fails it again
        if catching_up and not settling:
            self._caught_up = True  # otherwise the next call looks at the earlier ones again
        if game_id is None and mine.global_work and now - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = now
            await self.store.prune_events(now - KEEP_DELIVERED_SECONDS)
        return owed

    async def _computer_to_move(self, row: EventRow) -> bool:
        """Whether ``row``'s game waits for the computer's move (which never has a deadline)."""
        if row.game_id is None:
            return False
        stored = await self.store.game(row.game_id)
        return (
            stored is not None
            and stored.status is GameStatus.RUNNING
            and stored.computer_id is not None
            and stored.deadline is None
        )

    async def _result(self, row: EventRow, superseded: bool) -> ActionResult | None:
        if row.payload is not None:
            try:
                return decode(row.payload)
            except ValueError:
                log.warning("announcement %s could not be read; rebuilding it", row.id)
        if superseded:
            return None  # the game's newer announcement shows where this change led
        try:
            action = Action(row.kind)
        except ValueError:
            log.warning("announcement %s has an unknown kind %r; dropped", row.id, row.kind)
            return None
        if row.game_id is not None:
            return await self._game_result(row, action)
        if row.challenge_id is not None:
            return await self._challenge_result(row, action)
        if row.tournament_id is not None and self.tournaments is not None:
            view = await self.tournaments.view(row.tournament_id)
            return tournament_result(action, view, event=row.id)
        return None

    async def _game_result(self, row: EventRow, action: Action) -> ActionResult | None:
        """The game of ``row`` as it stands, announced late; None when a later change of the
        game announces that itself (see :meth:`_changed_since`)."""
        assert row.game_id is not None
        # Under the game's lock from the look to the read: a move landing between them would
        # be shown here and by its own answer (seen in the chaos run: posted, then answered
        # 20 ms later).
        async with self.live.lock(row.game_id):
            stored = await self.store.game(row.game_id)
            if stored is None or await self._changed_since(row, stored):
                return None
            if stored.status is GameStatus.RUNNING:
                live = await self.live.load_quietly(stored.id)
                if live is None:
                    return None
                view = game_view(live.row, live.game)
            else:
                view = game_view(stored, await self.live.replay(stored))
        if action is Action.REMINDER and row.tournament_id is not None and self.tournaments:
            if view.to_move is None or view.ply >= 2:
                return None  # moved (or over) meanwhile: nothing left to remind of
            event = await self.tournaments.view(row.tournament_id)
            return ActionResult(
                Action.REMINDER,
                no_show_text(view.to_move.name, event.name, None),
                game=view,
                mentions=(view.to_move.id,),
                event=row.id,
                tournament=event,
            )
        if action is Action.REMINDER:
            if view.to_move is None or view.deadline is None:
                return None  # over, or no clock: nothing left to remind of
            return ActionResult(
                Action.REMINDER,
                reminder_text(view),
                game=view,
                mentions=(view.to_move.id,),
                event=row.id,
            )
        if action is Action.LAST_WARNING:
            if view.to_move is None or view.deadline is None:
                return None  # over, or no clock: nothing left to warn of
            return ActionResult(
                Action.LAST_WARNING,
                last_warning_text(view, self.clock()),
                game=view,
                mentions=(view.to_move.id,),
                event=row.id,
                dms=await self.endings.notices.last_warning(view),
            )
        if action is Action.CLOCK_EXTENDED:
            if view.to_move is None or view.deadline is None:
                return None  # over meanwhile: its own entry says how
            left = duration(max(0.0, view.deadline - self.clock()))
            said = _(
                "No clock ran while I could not hear anyone: {name} to move, with {time} left.",
                name=shown(view.to_move.name),
                time=left,
            )
            return ActionResult(
                Action.CLOCK_EXTENDED,
                join((LATE, said)),
                game=view,
                mentions=(view.to_move.id,),
                event=row.id,
            )
        return await self.endings.board_result(action, LATE, view, event=row.id)

    async def _changed_since(self, row: EventRow, stored: GameRow) -> bool:
        """Whether the game changed after ``row``'s change in a way that wrote its own
        announcement: a move played since (every move is announced), or the end (every end
        is).  That announcement shows the game as it stands, and is being or has been shown by
        its own action, so ``row`` rebuilt would only show the same board, or the same end, a
        second time: its process died before delivering it, and a player acted again in the
        game meanwhile (seen in the chaos run: a move answered and the same board posted
        0.7 s later by the catch-up)."""
        after = row.created_at + SAME_CHANGE_SECONDS
        if stored.status is not GameStatus.RUNNING:
            return stored.updated_at > after
        moves = await self.store.moves(stored.id)
        return bool(moves) and moves[-1].played_at > after

    async def _challenge_result(self, row: EventRow, action: Action) -> ActionResult | None:
        assert row.challenge_id is not None
        stored = await self.store.challenge(row.challenge_id)
        if stored is None:
            return None
        view = challenge_view(stored)
        if action is Action.CHALLENGE_CREATED:
            if stored.status is not ChallengeStatus.OPEN or stored.expires_at <= self.clock():
                return None  # answered or expired meanwhile: its own entry says so
            return ActionResult(
                action,
                challenge_text(view),
                challenge=view,
                mentions=challenge_mentions(view),
                event=row.id,
            )
        if action is Action.GAME_STARTED:
            return None  # a game entry; never stored against a challenge
        if action not in CHALLENGE_CLOSINGS:
            return None
        text = challenge_closed_text(action, view)
        return ActionResult(action, text, challenge=view, event=row.id)


def answer_of(row: EventRow, now: float) -> AnswerBy | None:
    """What ``row`` was being delivered by when its process died, if anything: an
    interaction's message (with its token only while Discord still answers for it,
    :data:`TOKEN_LIFE_SECONDS`), or a post in the channel."""
    if row.answer_channel is None or row.answer_at is None:
        return None
    token = row.answer_token if now - row.answer_at < TOKEN_LIFE_SECONDS else None
    return AnswerBy(row.answer_interaction, row.answer_channel, token, row.answer_at)
