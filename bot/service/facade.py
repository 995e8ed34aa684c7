"""The one object the Discord layer talks to: every game action, with no Discord types.

Each action takes ids and plain values and returns an :class:`~bot.results.ActionResult` (or a
view), or raises a :class:`~bot.errors.ServiceError` with the reason for the user; nothing is
changed when an error is raised.  The work is done in the rooms of this package, wired here in the
one order their dependencies allow (each module imports only those below it)::

    views, records, ladder, matches   pure: rows <-> rules records, sentences, ratings, matches
    settings, prefs, notices          server settings, users' preferences, direct messages
    languages                         servers' languages, the locales last seen
    shards                            the servers whose background work is this process's
    live                              running games in memory, locks, guarded writes
    starting                          new games and their announcement
    endings                           what a game's end adds to the message that ended it
    computer_replies                  the computer's moves and draw answers, thought off the lock
    challenges, play, draws,          the actions
    takebacks, queries, downtime,
    deadlines
    events, outbox                    announcements written with each change, and those still owed

The facade only assembles them and hands their methods out, so each action is written once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ..results import ActionResult, Player
from ..store import EVERY_SHARD, Shards, Store, open_store
from .challenges import Challenges
from .computer import ComputerPlayer, RandomComputer
from .computer_replies import ComputerReplies
from .deadlines import Deadlines
from .downtime import Downtime
from .draws import Draws
from .endings import Endings
from .languages import LanguageBook
from .live import LiveGames
from .notices import Notices
from .outbox import Outbox
from .play import Play
from .prefs import PrefsBook
from .queries import Queries
from .settings import SettingsBook
from .shards import ShardOwnership
from .standings import Standings
from .starting import Starter
from .takebacks import Takebacks
from .views import clean_name


class GameService:
    """All game actions.  Create with :meth:`open` (or on a store you opened); one instance per
    bot process."""

    def __init__(
        self,
        store: Store,
        *,
        bot_user_id: int,
        bot_name: str = "Computer",
        challenge_expiry: float = 15 * 60,
        challenge_expiry_cap: float = 24 * 3600,
        computer: ComputerPlayer | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        shards: Shards = EVERY_SHARD,
    ) -> None:
        """``clock`` is wall time (deadlines); ``monotonic`` tells a jump of it from time that
        really passed (tests that drive ``clock`` pass the same function as both).  A challenge
        stays open ``challenge_expiry`` seconds, or as long as its time per move when that is
        longer, up to ``challenge_expiry_cap`` (pass a cap no longer than the expiry for
        challenges that all last exactly ``challenge_expiry``, as tests do).  ``shards``: the
        servers whose background work this process runs, when the store grants them."""
        rng = rng or random.Random()
        bot = Player(bot_user_id, clean_name(bot_name))
        self.store = store
        self.bot = bot
        self.clock = clock
        self.settings = SettingsBook(store, clock)
        self.standings = Standings(store, clock)
        self._prefs = prefs = PrefsBook(store, clock)
        languages = LanguageBook(store, clock)
        notices = Notices(prefs, computer_id=bot.id, clock=clock)
        self._live = live = LiveGames(store, clock)
        self.ownership = ownership = ShardOwnership(store, shards)
        ownership.on_gain(live.forget_all)  # another process may have changed them since
        starter = Starter(
            store,
            live,
            self.settings,
            notices,
            bot=bot,
            clock=clock,
            rng=rng,
            wake_computer=lambda game_id: replies.wake(game_id, claim=True),
        )
        endings = Endings(store, starter, notices, computer_id=bot.id)
        self._replies = replies = ComputerReplies(live, computer or RandomComputer(), endings, bot)
        self._challenges = challenges = Challenges(
            store,
            self.settings,
            starter,
            bot=bot,
            clock=clock,
            rng=rng,
            expiry=challenge_expiry,
            expiry_cap=challenge_expiry_cap,
        )
        play = Play(store, live, replies, endings)
        draws = Draws(live, replies, endings, bot=bot)
        takebacks = Takebacks(live, notices, bot=bot, clock=clock)
        queries = Queries(store, live, prefs)
        downtime = Downtime(store, live, clock=clock, monotonic=monotonic)
        deadlines = Deadlines(
            store,
            live,
            replies,
            starter,
            endings,
            downtime,
            notices,
            ownership,
            bot=bot,
            clock=clock,
        )
        self.outbox = Outbox(
            store, live, endings, ownership, computer_id=bot.id, clock=clock, rng=rng
        )

        self.challenge = challenges.challenge
        self.check_challenge = challenges.check_challenge
        self.needs_thread = challenges.needs_thread
        self.accept = challenges.accept
        self.decline = challenges.decline
        self.cancel = challenges.cancel
        self.challenge_view = challenges.challenge_view
        self.set_challenge_message = challenges.set_challenge_message
        self.rematch = challenges.rematch

        self.move = play.move
        self.picker = play.picker
        self.legal_moves = play.legal_moves
        self.move_list = play.move_list

        self.offer_draw = draws.offer_draw
        self.accept_draw = draws.accept_draw
        self.decline_draw = draws.decline_draw
        self.resign = draws.resign
        self.abort = draws.abort

        self.request_takeback = takebacks.request_takeback
        self.answer_takeback = takebacks.answer_takeback

        self.game_in = queries.game_in
        self.game_view = queries.game_view
        self.games = queries.games
        self.find_game = queries.find_game
        self.pdn = queries.pdn
        self.game_moves = queries.game_moves
        self.board_posted = queries.board_posted

        self.prefs = prefs.get
        self.set_prefs = prefs.change

        self.server_locale = languages.server_locale
        self.chosen_language = languages.chosen_language
        self.user_locale = languages.user_locale
        self.remember_locales = languages.remember_locales
        self.set_server_language = languages.set_server_language

        self.computer_reply = replies.collect
        self.settle = replies.settle

        self.tick = deadlines.tick
        self.deaf = downtime.deaf
        self.resume_computer_games = deadlines.resume_computer_games
        self.resume_matches = deadlines.resume_matches

    @classmethod
    async def open(cls, database: str | Path, **options: Any) -> GameService:
        """Open the database at ``database`` (migrating it) and build the service on it with
        the constructor's ``options``."""
        return cls(await open_store(database), **options)

    @property
    def challenge_expiry(self) -> float:
        """Seconds an unanswered challenge stays open."""
        return self._challenges.expiry

    @property
    def computer(self) -> ComputerPlayer:
        """The computer opponent; replaceable while running (a restarted engine)."""
        return self._replies.computer

    @computer.setter
    def computer(self, computer: ComputerPlayer) -> None:
        self._replies.computer = computer

    @property
    def on_background(self) -> Callable[[ActionResult], Awaitable[None]] | None:
        """Where results made in the background are shown: the computer's replies that no
        action claimed (the Discord layer posts them in the game's channel)."""
        return self._replies.deliver

    @on_background.setter
    def on_background(self, deliver: Callable[[ActionResult], Awaitable[None]] | None) -> None:
        self._replies.deliver = deliver

    async def stop_thinking(self) -> None:
        """Stop the computer's searches (a shutdown); the games are picked up after the
        restart.  Replies being written or shown get a short grace."""
        await self._replies.close()

    async def close(self) -> None:
        """Close the database after the writes in flight have finished."""
        await self._replies.close()
        await self._live.drain()
        await self.outbox.close()
        await self.store.close()
