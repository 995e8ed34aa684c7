"""The one object the Discord layer talks to: every game action, with no Discord types.

Each action takes ids and plain values and returns an :class:`~bot.results.ActionResult` (or a
view), or raises a :class:`~bot.errors.ServiceError` with the reason for the user (nothing is
changed then).  The work is done in the rooms of this package (:mod:`~bot.service.rooms` builds
them; docs/ARCHITECTURE.md lists them).  Every method the Discord layer calls is written out here
with its signature and handed to the room doing the work, so ``service.move`` is found where it
is called and each action is written once; a result passes through
:mod:`~bot.service.announcing` on its way out, to carry what posting it needs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, Unpack

from rules.move import Move
from rules.variants import Notation

from ..enums import BoardTheme, Orientation, ThreadMode, TimePool
from ..i18n import Text
from ..results import (
    ActionResult,
    AnswerBy,
    ChallengeTerms,
    ChallengeView,
    GameSummary,
    GameView,
    Leaderboard,
    Locales,
    MoveChoice,
    Player,
    RatingLine,
    ServerSettings,
    Stats,
)
from ..store import EVERY_SHARD, GameRow, Shards, Store, open_store
from .analysis_face import AnalysisFace
from .computer import ComputerPlayer, RandomComputer
from .hints import Hints
from .import_face import ImportFace
from .outbox import Owed
from .puzzle_face import PuzzleFace
from .puzzle_mining import PuzzleSource
from .readers_face import ReadersFace
from .rooms import build_rooms
from .tournament_face import TournamentFace
from .views import clean_name


class GameService:
    """All game actions (tournaments': :attr:`tournaments`; analyses: :attr:`analysis`);
    :meth:`open` makes one per process.  Its attributes (:attr:`store`, :attr:`settings`,
    :attr:`outbox`, :attr:`standings`, :attr:`ownership`, :attr:`analyses`) are for tests and
    tools; the Discord layer uses the methods only."""

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
        puzzle_source: PuzzleSource | None = None,
    ) -> None:
        """``clock`` is wall time (deadlines); ``monotonic`` tells its jumps from time that passed
        (tests driving ``clock`` pass it as both).  A challenge stays open ``challenge_expiry``
        seconds, or its time per move if longer, up to ``challenge_expiry_cap`` (tests: the same).
        ``shards``: the servers whose background work this process runs, as the store grants.
        ``puzzle_source``: what makes puzzles (the engine's; None: no starter set, no mining)."""
        bot = Player(bot_user_id, clean_name(bot_name))
        rooms = build_rooms(
            store,
            bot=bot,
            computer=computer or RandomComputer(),
            clock=clock,
            monotonic=monotonic,
            rng=rng or random.Random(),
            shards=shards,
            challenge_expiry=challenge_expiry,
            challenge_expiry_cap=challenge_expiry_cap,
            puzzle_source=puzzle_source,
        )
        self.store = store
        self.bot = bot
        self.clock = clock
        self.settings = rooms.settings
        self.standings = rooms.standings
        self.ownership = rooms.ownership
        self.outbox = rooms.outbox
        self._readers = rooms.readers
        self._live = rooms.live
        self._replies = rooms.replies
        self._challenges = rooms.challenges
        self._play = rooms.play
        self._draws = rooms.draws
        self._takebacks = rooms.takebacks
        self._hints = rooms.hints
        self._queries = rooms.queries
        self._downtime = rooms.downtime
        self._deadlines = rooms.deadlines
        self.flags = rooms.flags
        self._announcing = rooms.announcing
        self._tournament_face = rooms.tournaments
        self.analyses = rooms.analyses
        self._analysis_face = rooms.analysis
        self._import_face = rooms.imports
        self._puzzle_face = rooms.puzzles
        self._on_background: Callable[[ActionResult], Awaitable[None]] | None = None

    # -- challenges ------------------------------------------------------------------------

    async def challenge(
        self, *, guild_id: int | None, **terms: Unpack[ChallengeTerms]
    ) -> ActionResult:
        """Post a challenge, or start a game against the bot (:meth:`Challenges.challenge`)."""
        return await self._ready(await self._challenges.challenge(guild_id=guild_id, **terms))

    async def check_challenge(
        self, *, guild_id: int | None = None, **terms: Unpack[ChallengeTerms]
    ) -> bool:
        """Refuse what :meth:`challenge` would; whether accepting will need a new thread."""
        return await self._challenges.check_challenge(guild_id=guild_id, **terms)

    async def needs_thread(self, challenge_id: int) -> bool:
        """Whether accepting ``challenge_id`` starts the game in a new thread."""
        return await self._challenges.needs_thread(challenge_id)

    async def accept(
        self, challenge_id: int, user_id: int, *, name: str = "", thread_id: int | None = None
    ) -> ActionResult:
        """The challenged user (anyone in range, an open challenge; ``name``: theirs) accepts:
        the game starts (:meth:`Challenges.accept`)."""
        return await self._ready(
            await self._challenges.accept(challenge_id, user_id, name=name, thread_id=thread_id)
        )

    async def open_challenges(self, guild_id: int | None) -> list[ChallengeView]:
        """The server's open challenges anyone may accept, oldest first (``/lobby``)."""
        return await self._challenges.open_challenges(guild_id)

    async def decline(self, challenge_id: int, user_id: int) -> ActionResult:
        """The challenged user declines."""
        return await self._ready(await self._challenges.decline(challenge_id, user_id))

    async def cancel(self, challenge_id: int, user_id: int) -> ActionResult:
        """The challenger withdraws the challenge."""
        return await self._ready(await self._challenges.cancel(challenge_id, user_id))

    async def challenge_view(self, challenge_id: int) -> ChallengeView:
        """A challenge as it stands."""
        return await self._challenges.challenge_view(challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message showing the challenge (its buttons go when it closes)."""
        await self._challenges.set_challenge_message(challenge_id, message_id)

    async def rematch(
        self,
        game_id: int,
        user_id: int,
        *,
        thread_id: int | None = None,
        parent_id: int | None = None,
    ) -> ActionResult:
        """A player of a finished game asks for a return game (:meth:`Challenges.rematch`)."""
        return await self._ready(
            await self._challenges.rematch(
                game_id, user_id, thread_id=thread_id, parent_id=parent_id
            )
        )

    # -- playing -----------------------------------------------------------------------------

    async def move(
        self,
        user_id: int,
        text: str,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_ply: int | None = None,
        ply: int | None = None,
    ) -> ActionResult:
        """Play ``text`` for ``user_id`` in the channel's game or ``game_id``."""
        played = await self._play.move(
            user_id,
            text,
            channel_id=channel_id,
            game_id=game_id,
            expected_ply=expected_ply,
            ply=ply,
        )
        return await self._ready(played)

    async def picker(
        self, game_id: int, user_id: int, ply: int | None
    ) -> tuple[GameView, list[Move]]:
        """The game and its legal moves for its player's picker (:meth:`Play.picker`)."""
        return await self._play.picker(game_id, user_id, ply)

    async def legal_moves(
        self, channel_id: int, user_id: int, prefix: str = ""
    ) -> list[MoveChoice]:
        """Autocomplete: the legal moves of the player to move matching ``prefix``."""
        return await self._play.legal_moves(channel_id, user_id, prefix)

    async def move_list(
        self, channel_id: int, notation: Notation | None = None
    ) -> tuple[GameView, list[str]]:
        """The channel's running game and every legal move of the side to move."""
        return await self._play.move_list(channel_id, notation)

    async def offer_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Offer a draw, or agree to the opponent's pending offer (:meth:`Draws.offer_draw`)."""
        return await self._ready(
            await self._draws.offer_draw(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def accept_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Accept the draw the opponent offered."""
        return await self._ready(
            await self._draws.accept_draw(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def decline_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Decline the draw the opponent offered."""
        return await self._ready(
            await self._draws.decline_draw(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def resign(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Resign the game."""
        return await self._ready(
            await self._draws.resign(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def abort(
        self,
        user_id: int,
        *,
        is_moderator: bool = False,
        channel_id: int | None = None,
        game_id: int | None = None,
    ) -> ActionResult:
        """End a game with no result (:meth:`Draws.abort`)."""
        aborted = await self._draws.abort(
            user_id, is_moderator=is_moderator, channel_id=channel_id, game_id=game_id
        )
        return await self._ready(aborted)

    async def request_takeback(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Ask to take back one's last move (:meth:`Takebacks.request_takeback`)."""
        return await self._ready(
            await self._takebacks.request_takeback(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def answer_takeback(
        self,
        user_id: int,
        accept: bool,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_ply: int | None = None,
    ) -> ActionResult:
        """Accept or decline the opponent's takeback (:meth:`Takebacks.answer_takeback`)."""
        answered = await self._takebacks.answer_takeback(
            user_id, accept, channel_id=channel_id, game_id=game_id, expected_ply=expected_ply
        )
        return await self._ready(answered)

    async def computer_reply(self, game_id: int) -> ActionResult | None:
        """The computer's reply an action on ``game_id`` claimed, once played."""
        reply = await self._replies.collect(game_id)
        return None if reply is None else await self._ready(reply)

    # -- reading -----------------------------------------------------------------------------

    async def game_in(self, channel_id: int) -> GameView | None:
        """The running game of a channel, if any."""
        return await self._queries.game_in(channel_id)

    async def game_view(self, game_id: int) -> GameView:
        """Any game by id, running or finished."""
        return await self._queries.game_view(game_id)

    async def games(self, guild_id: int | None) -> list[GameView]:
        """The running games of a server."""
        return await self._queries.games(guild_id)

    async def find_game(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        check_guild: bool = False,
    ) -> GameRow:
        """A game by id, else the channel's running or latest one (:meth:`Queries.find_game`)."""
        return await self._queries.find_game(
            game_id=game_id, channel_id=channel_id, guild_id=guild_id, check_guild=check_guild
        )

    async def pdn(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        check_guild: bool = False,
        words: Callable[[Text], str] = str,
    ) -> tuple[str, str]:
        """``(file name, PDN text)`` of a game found as :meth:`find_game` finds it."""
        return await self._queries.pdn(
            game_id=game_id,
            channel_id=channel_id,
            guild_id=guild_id,
            check_guild=check_guild,
            words=words,
        )

    async def game_moves(
        self,
        game_id: int,
        *,
        notation: Notation | str | None = None,
        user_id: int | None = None,
    ) -> tuple[GameView, str]:
        """Any game and its whole move list, numbered (:meth:`Queries.game_moves`)."""
        return await self._queries.game_moves(game_id, notation=notation, user_id=user_id)

    async def stats(
        self, guild_id: int | None, player: Player, variant: str, pool: TimePool | None = None
    ) -> Stats:
        """A player's standing in a variant and time class (:meth:`Standings.stats`)."""
        return await self.standings.stats(guild_id, player, variant, pool)

    async def leaderboard(
        self, guild_id: int | None, variant: str, user_id: int, pool: TimePool | None = None
    ) -> Leaderboard:
        """The server's top players in a variant and time class, and where ``user_id`` stands."""
        return await self.standings.leaderboard(guild_id, variant, user_id, pool)

    async def rating(
        self, guild_id: int, user_id: int, variant: str, pool: TimePool
    ) -> RatingLine | None:
        """``user_id``'s rating in ``variant`` and ``pool`` now (None: unrated there)."""
        return await self.standings.rating(guild_id, user_id, variant, pool)

    async def history(
        self, guild_id: int | None, user_id: int | None = None
    ) -> tuple[GameSummary, ...]:
        """The server's latest ended games (only ``user_id``'s when given), newest first."""
        return await self.standings.history(guild_id, user_id)

    # -- settings, preferences, languages ----------------------------------------------------

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (the defaults where none were chosen)."""
        return await self.settings.get(guild_id)

    async def change_settings(
        self,
        guild_id: int | None,
        *,
        is_moderator: bool,
        variant: str | None = None,
        move_time: int | None = None,
        threads: ThreadMode | str | None = None,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        orientation: Orientation | str | None = None,
        theme: BoardTheme | str | None = None,
    ) -> ServerSettings:
        """Moderators change the server's settings together; the new settings."""
        return await self.settings.change(
            guild_id,
            is_moderator=is_moderator,
            variant=variant,
            move_time=move_time,
            threads=threads,
            allow=allow,
            disallow=disallow,
            all_channels=all_channels,
            orientation=orientation,
            theme=theme,
        )

    # -- posting announcements ---------------------------------------------------------------

    async def with_publishing(self, result: ActionResult) -> ActionResult:
        """``result``, kept in the outbox, with what posting it needs (:meth:`Announcing.ready`)."""
        return await self._announcing.ready(result)

    async def delivering(
        self, event: str, game_id: int | None, answer: AnswerBy | None = None
    ) -> bool:
        """The announcement ``event`` is about to be shown (by the interaction message of
        ``answer``, when given, kept first); whether older ones of ``game_id`` must go first
        (:meth:`Announcing.delivering`)."""
        return await self._announcing.delivering(event, game_id, answer)

    async def shown(
        self,
        event: str | None,
        boards: Iterable[tuple[int, int]] = (),
        locales: Locales | None = None,
        settled: Iterable[int] = (),
    ) -> dict[int, list[int]]:
        """Players saw ``event``; ``boards`` are the games' board messages now, ``locales`` the
        interaction's, ``settled`` games shown with no draw offer pending; per game, the messages
        whose buttons should go: the previous board, an ended offer's (:meth:`Announcing.shown`)."""
        return await self._announcing.shown(event, boards, locales, settled)

    async def offer_posted(self, game_id: int, message_id: int) -> bool:
        """The draw offer of ``game_id`` was posted as ``message_id``, with its buttons; False
        when the offer is already over, so they go at once (:meth:`Queries.offer_posted`)."""
        return await self._queries.offer_posted(game_id, message_id)

    async def offer_over(self, game_id: int) -> int | None:
        """The message of ``game_id``'s ended draw offer, once (:meth:`Queries.offer_over`)."""
        return await self._queries.offer_over(game_id)

    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        """A board of ``game_id`` shown outside an announcement (``/board``) is now its board
        message; the previous one, whose buttons should go (:meth:`Queries.board_posted`)."""
        return await self._queries.board_posted(game_id, message_id)

    async def owed(
        self, *, game_id: int | None = None, covered: bool = False, limit: int = 50
    ) -> list[Owed]:
        """The announcements due for delivery now, oldest first (:meth:`Outbox.owed`)."""
        return await self.outbox.owed(game_id=game_id, covered=covered, limit=limit)

    async def failed(
        self,
        event: str,
        result: ActionResult | None,
        attempts: int = 0,
        *,
        game_id: int | None = None,
    ) -> None:
        """A delivery of ``event`` failed: keep ``result``, try again (:meth:`Outbox.failed`)."""
        await self.outbox.failed(event, result, attempts, game_id=game_id)

    def settled(self, game_id: int) -> None:
        """Everything owed of ``game_id`` was delivered."""
        self.outbox.settled(game_id)

    async def commands_synced(self, key: str) -> str | None:
        """The fingerprint of the slash commands last synced under ``key`` (None: never)."""
        return await self.store.meta(key)

    async def set_commands_synced(self, key: str, fingerprint: str) -> None:
        """The slash commands were synced under ``key`` as ``fingerprint``."""
        await self.store.set_meta(key, fingerprint)

    # -- the scheduler -----------------------------------------------------------------------

    async def tick(self) -> list[ActionResult]:
        """Everything due now (:meth:`Deadlines.tick`, then the daily puzzles and mining,
        :meth:`PuzzleFace.tick`), then :meth:`FlagTimers.ticked`."""
        due = [await self._ready(result) for result in await self._deadlines.tick()]
        due += await self._puzzle_face.tick()
        await self.flags.ticked()
        return due

    def deaf(self, seconds: float) -> None:
        """Nobody could be heard for ``seconds``: deadlines move on (:meth:`Downtime.deaf`)."""
        self._downtime.deaf(seconds)

    async def resume_computer_games(self) -> int:
        """Wake the computer wherever it is its turn; in how many games."""
        return await self._deadlines.resume_computer_games()

    async def settle(self) -> None:
        """Wait until the computer has done thinking everywhere (a test's way to see it)."""
        await self._replies.settle()

    async def _ready(self, result: ActionResult) -> ActionResult:
        return await self._announcing.ready_or_bare(result)

    async def _deliver_background(self, result: ActionResult) -> None:
        deliver = self._on_background
        if deliver is not None:
            await deliver(await self._ready(result))

    @classmethod
    async def open(cls, database: str | Path, **options: Any) -> GameService:
        """Open the database at ``database`` (migrating it) and build the service on it with
        the constructor's ``options``."""
        return cls(await open_store(database), **options)

    @property
    def hints(self) -> Hints:
        """The Hint button's action (:mod:`bot.service.hints`)."""
        return self._hints

    @property
    def readers(self) -> ReadersFace:
        """Preferences and languages (:mod:`bot.service.readers_face`)."""
        return self._readers

    @property
    def tournaments(self) -> TournamentFace:
        """Every tournament action (:mod:`bot.service.tournament_face`)."""
        return self._tournament_face

    @property
    def analysis(self) -> AnalysisFace:
        """Analyses of finished games (:mod:`bot.service.analysis_face`)."""
        return self._analysis_face

    @property
    def imports(self) -> ImportFace:
        """Imported PDN games (:mod:`bot.service.import_face`)."""
        return self._import_face

    @property
    def puzzles(self) -> PuzzleFace:
        """Every puzzle action (:mod:`bot.service.puzzle_face`)."""
        return self._puzzle_face

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
        """Where results made in the background are shown: the computer's replies that no action
        claimed and the flags that fell (the Discord layer posts them in the game's channel)."""
        return self._on_background

    @on_background.setter
    def on_background(self, deliver: Callable[[ActionResult], Awaitable[None]] | None) -> None:
        self._on_background = deliver
        self._replies.deliver = None if deliver is None else self._deliver_background
        self.flags.deliver = None if deliver is None else self._deliver_background

    def hear_by(self, hearing: Callable[[], bool]) -> None:
        """``hearing()`` says whether players can reach the bot (no flag falls unheard)."""
        self.flags.hearing = hearing

    async def stop_thinking(self) -> None:
        """Stop the computer's searches (a shutdown); the games are picked up after the
        restart.  Replies being written or shown get a short grace."""
        await self._replies.close()

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process answers the interactions of server ``guild_id`` (not while
        another process holds its shard: :meth:`ShardOwnership.answers`)."""
        return self.ownership.answers(guild_id)

    async def serves_now(self, guild_id: int | None) -> bool:
        """:meth:`serves`, asking the database again first (the owner may have let go)."""
        return await self.ownership.answers_now(guild_id)

    async def close(self) -> None:
        """Close the database after the writes in flight have finished."""
        await self.flags.close()
        await self._puzzle_face.close()
        await self._replies.close()
        await self.analyses.close()
        await self._live.drain()
        await self.outbox.close()
        await self.store.close()

    def abandon(self) -> None:
        """Drop the database connections at once: a :meth:`close` that ran out of time (the
        database hung).  What was still being written is rolled back by the database."""
        self.store.abandon()

    async def database_answers(self, seconds: float) -> None:
        """Return if the database answers within ``seconds``, else raise
        :class:`StoreUnavailable` (the heartbeat asks at each beat)."""
        await self.store.ping(seconds)
