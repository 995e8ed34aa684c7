"""Running games in memory, one lock per game, and the guarded writes that persist them.

Actions on one game run one at a time (:meth:`LiveGames.lock`), and every write is one
transaction guarded by the game's version (see :mod:`bot.store.protocol`), so a second process,
or a write that races past the lock, can never land twice; its author gets "the position changed,
try again".  A running game is kept as a :class:`rules.Game` after its first use and rebuilt from
the database (start position + moves) when needed, e.g. after a restart.  Whenever a write fails
the in-memory copy is dropped, so the next action reads what the database really holds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from typing import TypeVar

from rules.game import DrawOfferError, Game, GameError
from rules.variants import Color

from ..enums import GameStatus, Side
from ..errors import (
    ConflictError,
    DrawError,
    GameOverError,
    NotAPlayerError,
    NotFoundError,
    ServiceError,
    TakebackError,
)
from ..i18n import _, from_rules
from ..markdown import shown
from ..results import Action
from ..store import (
    GameChanges,
    GameRow,
    NewEvent,
    NewMove,
    StaleVersion,
    Store,
    TournamentUpdate,
)
from ..words import ending_words, termination_words
from . import clocks
from .events import new_event
from .ladder import rated_game
from .matches import second_game_after
from .records import clock_changes, replay, state_changes
from .tournament_rounds import game_end_update

log = logging.getLogger(__name__)

T = TypeVar("T")


ASK_PAUSE_PLIES = 10
"""After a draw offer or a takeback request between people, the same player asks the same again
only once this many plies (five moves each) have been played: each ask pings the opponent and
posts in the channel, so a declined (or ignored) ask is not repeated move after move.  lichess
pauses draw offers for 20 plies; draughts games are slower, and a takeback asked for a later
mistake should not wait too long."""


class Ask(StrEnum):
    """What a player asks the opponent for (:attr:`Live.asked`)."""

    DRAW = "draw"
    TAKEBACK = "takeback"


@dataclass
class Live:
    """A running game held in memory: its row as last written and its rules record."""

    row: GameRow
    game: Game
    asked: dict[tuple[Ask, Color], int] = field(default_factory=dict)
    """The ply at which each player last asked for a draw or a takeback.  Kept in the memory of
    the process that serves the game's server (one process serves a server), not stored: a
    restart forgets it, which lets one ask through early at most, and keeping it costs no
    write."""

    def require_pause(self, ask: Ask, color: Color) -> None:
        """Refuse ``color``'s ``ask`` made within :data:`ASK_PAUSE_PLIES` of their last one,
        saying from which move (as the board numbers them) they may ask again."""
        last = self.asked.get((ask, color))
        if last is None or self.game.ply >= last + ASK_PAUSE_PLIES:
            return
        number = (last + ASK_PAUSE_PLIES) // 2 + 1
        if ask is Ask.DRAW:
            raise DrawError(
                _(
                    "you offered a draw recently; you can offer again from move {number}",
                    number=number,
                )
            )
        raise TakebackError(
            _(
                "you asked for a takeback recently; you can ask again from move {number}",
                number=number,
            )
        )


def apply_rules(action: Callable[[], T]) -> T:
    """Run a rules action on an in-memory game, turning the rules' refusals into the service's
    (the game is unchanged when the rules refuse)."""
    try:
        return action()
    except DrawOfferError as exc:
        raise DrawError(from_rules(exc)) from None
    except GameError as exc:
        raise GameOverError(from_rules(exc)) from None


def color_of(live: Live, user_id: int) -> Color:
    """The colour ``user_id`` plays, or a refusal if they are not a player."""
    row = live.row
    if user_id == row.white_id:
        return Color.WHITE
    if user_id == row.black_id:
        return Color.BLACK
    raise NotAPlayerError(
        _(
            "you are not playing in this game ({white} v {black})",
            white=shown(row.white_name),
            black=shown(row.black_name),
        )
    )


class LiveGames:
    """The running games of this process and their persistence."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[int, Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.turns_shown: dict[str, tuple[int, int]] = {}
        """Per announcement of a clocked game's new turn (its outbox entry), the game and ply
        whose clock starts again when that board is shown (:meth:`bot.service.flags.FlagTimers.
        shown`); lost with the process, when the turn simply runs from when it was stored."""
        self.on_deadline: Callable[[int, float | None], None] | None = None
        """Told each clocked game's new flag time when a write changes it (the flag timers)."""

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def drain(self) -> None:
        """Wait for the actions holding a game's lock (their writes) to finish."""
        for lock in list(self._locks.values()):
            async with lock:
                pass

    def remember(self, live: Live) -> None:
        """Keep a game that was just stored (started) in memory, unless an action already
        loaded it (the computer, woken by a scheduler check, may have moved in it since)."""
        self._live.setdefault(live.row.id, live)

    def forget(self, game_id: int) -> None:
        self._live.pop(game_id, None)

    def forget_all(self) -> None:
        """Drop every game kept in memory: the next action on each reads it again."""
        self._live.clear()

    async def resolve(self, channel_id: int | None, game_id: int | None) -> int:
        """The game an action names: by id, else the channel's running game."""
        if game_id is not None:
            return game_id
        if channel_id is None:
            raise NotFoundError(_("name a game"))
        row = await self.store.running_game_in(channel_id)
        if row is None:
            raise NotFoundError(_("there is no game running in this channel"))
        return row.id

    async def load(self, game_id: int) -> Live:
        """The running game ``game_id`` from memory or the database (call under its lock)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(_("there is no game #{id}", id=game_id))
        if row.status is GameStatus.ABORTED:
            raise GameOverError(_("game #{id} was aborted, with no result", id=game_id))
        if row.status is not GameStatus.RUNNING:
            winner = None
            if row.winner is not None:
                winner = shown(row.white_name if row.winner is Side.WHITE else row.black_name)
            raise GameOverError(
                _(
                    "game #{id} is over: {ending} ({termination})",
                    id=game_id,
                    ending=ending_words(row.status, row.result, winner),
                    termination=termination_words(row.termination_detail or str(row.termination)),
                )
            )
        live = Live(row, await self.replay(row))
        self._live[game_id] = live
        return live

    async def load_quietly(self, game_id: int) -> Live | None:
        """:meth:`load` for background work (scheduler, autocomplete, start-up): a game that
        ended meanwhile or cannot be read is simply skipped (``load`` has logged why)."""
        try:
            return await self.load(game_id)
        except ServiceError:
            return None

    async def replay(self, row: GameRow) -> Game:
        """Any stored game, running or ended, rebuilt from its moves."""
        return replay(row, await self.store.moves(row.id))

    async def ensure_fresh(self, live: Live) -> None:
        """Before refusing on the strength of the in-memory copy: if another process has written
        the game since (say the old bot during a deploy), drop the copy and ask for a retry
        instead of refusing on a position the player no longer sees."""
        row = await self.store.game(live.row.id)
        if row is None or row.version != live.row.version:
            self.forget(live.row.id)
            raise ConflictError()

    def event(self, live: Live, action: Action | None) -> NewEvent | None:
        """The outbox entry announcing ``action`` in ``live``'s game (None: nothing to announce)."""
        if action is None:
            return None
        row = live.row
        return new_event(
            action,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            game_id=row.id,
            now=self.clock(),
        )

    async def save(
        self,
        live: Live,
        *,
        user_id: int,
        moved: bool,
        announce: Action | None = None,
        tournament: TournamentUpdate | None = None,
    ) -> str | None:
        """Persist the in-memory game's new state (and its last move when ``moved``) as one
        guarded transaction.  A game that ends here is written with what its end causes: the
        players' ratings when it was rated, a match's second game, and a tournament game's
        result with what follows it (:func:`~bot.service.tournament_rounds.game_end_update`,
        or ``tournament`` when the caller decides the result: a moderator's, a forfeit).
        With ``announce``, the outbox entry announcing it is written in the same transaction;
        its id is returned."""
        row, game = live.row, live.game
        now = self.clock()
        changes = state_changes(game)
        changes["updated_at"] = now
        if row.clock_base is not None:
            if moved:
                mover = Side.WHITE if user_id == row.white_id else Side.BLACK
                changes.update(clocks.after_move(row, mover, now, over=game.is_over))
            elif game.is_over:
                changes.update(clocks.stop(row, Side.of(game.turn), now))
        elif moved:
            changes.update(
                clock_changes(game, row.white_id, row.black_id, row.move_time, now, row.computer_id)
            )
        elif game.is_over:
            changes.update({"deadline": None, "remind_at": None, "warn_at": None})
        if moved or game.is_over:
            changes["takeback_offer"] = None  # playing on (or the end) lapses a request
        move = None
        if moved:
            move = NewMove(game.ply, game.moves[-1].pdn(), changes["fen"], user_id, now)
        finished = changes["status"] is GameStatus.FINISHED
        follow_up = (
            partial(second_game_after, row, now) if finished and row.match_id == row.id else None
        )
        event = self.event(live, announce)
        if tournament is None and game.is_over:
            tournament = game_end_update(row, changes, now)
        await self.write(
            live,
            changes,
            lambda: self.store.update_game(
                row.id,
                row.version,
                changes,
                move,
                rated=rated_game(row, changes, now),
                follow_up=follow_up,
                event=event,
                tournament=tournament,
            ),
        )
        if game.is_over:
            self.forget(row.id)
        elif moved and event is not None and row.clock_base is not None:
            self.turns_shown[event.id] = (row.id, game.ply)
        return None if event is None else event.id

    async def save_row(
        self, live: Live, changes: GameChanges, announce: Action | None = None
    ) -> str | None:
        """Store row-only changes (no move, same position) under the version guard, with the
        outbox entry announcing ``announce`` (its id is returned)."""
        row = live.row
        changes = {**changes, "updated_at": self.clock()}
        event = self.event(live, announce)
        await self.write(
            live,
            changes,
            lambda: self.store.update_game(row.id, row.version, changes, event=event),
        )
        return None if event is None else event.id

    async def write(
        self, live: Live, changes: GameChanges, write: Callable[[], Awaitable[None]]
    ) -> None:
        """Run a guarded store write of ``changes`` and bring the in-memory row up to date.
        On any failure the in-memory game is dropped, so the next action reloads what the
        database really holds; a lost race is "the position changed, try again"."""
        try:
            await write()
        except StaleVersion:
            self.forget(live.row.id)
            raise ConflictError() from None
        except BaseException:
            self.forget(live.row.id)
            raise
        live.row = replace(live.row, **changes, version=live.row.version + 1)
        if "deadline" in changes:
            self.deadline_moved(live.row)

    def deadline_moved(self, row: GameRow) -> None:
        """A clocked game's flag time is now ``row.deadline`` (None: no clock runs)."""
        if row.clock_base is not None and self.on_deadline is not None:
            self.on_deadline(row.id, row.deadline if row.status is GameStatus.RUNNING else None)
