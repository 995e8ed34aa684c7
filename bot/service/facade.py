"""The game service: every game action, with no Discord types.

Each public method takes ids and plain values and returns an :class:`~bot.results.ActionResult`
(or a view), or raises a :class:`~bot.errors.ServiceError` with the reason for the user.  Nothing
is changed when an error is raised.

Consistency: actions on one game run one at a time (a lock per game), and every write is one
transaction guarded by the game's version (see :mod:`bot.store`), so a second process, or a write
that races past the lock, can never land twice; its author gets "the position changed, try again".
Running games are kept in memory as :class:`rules.Game` records after their first use, and are
rebuilt from the database (start position + moves) when needed, e.g. after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Required, TypedDict, Unpack

from rules.ballots import ballot_of, draw_ballot
from rules.game import DrawOfferError, Game
from rules.game import GameError as RulesGameError
from rules.notation import MoveError, normalize, parse_move
from rules.pdn import write_game
from rules.variants import Color, Variant, find_variant

from ..errors import (
    ChallengeError,
    ConflictError,
    DamagedRecordError,
    DrawError,
    ForbiddenError,
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    ServiceError,
    TakebackError,
    ThreadRequired,
)
from ..results import (
    Action,
    ActionResult,
    ChallengeView,
    GameView,
    MoveChoice,
    MovePlayed,
    Player,
)
from ..store import ChallengeRow, GameRow, RatedResult, Store, StoreError
from .computer import ComputerPlayer, RandomComputer
from .settings import SettingsBook
from .standings import Standings

log = logging.getLogger(__name__)

MAX_NAME_LENGTH = 64
MAX_CHOICES = 25
COLORS = ("random", "white", "black")
LEVELS = range(1, 7)
DEFAULT_LEVEL = 3
OPEN_CHALLENGE = "you already have an open challenge in this channel: cancel it first"
BUSY_NO_THREADS = (
    "a game is already running here, and this server plays without threads: wait for it to end"
)


def _clean_name(name: str) -> str:
    """A display name fit for PDN tags and messages: one line, bounded length."""
    text = " ".join(str(name).split())[:MAX_NAME_LENGTH]
    return text or "?"


def _points(value: float) -> str:
    """Match points as players write them: 1½, ½, 2."""
    whole = int(value)
    half = value - whole >= 0.5
    if whole == 0 and half:
        return "½"
    return f"{whole}{'½' if half else ''}"


def _color_label(color: Color) -> str:
    return "white" if color is Color.WHITE else "black"


class ChallengeTerms(TypedDict, total=False):
    """The keyword arguments of :meth:`GameService.challenge` and
    :meth:`GameService.check_challenge` (defaults: the server's variant and time per move, else
    English and a day; random colour, no thread, no opening, level 3 against the computer)."""

    channel_id: Required[int]
    challenger: Required[Player]
    opponent: Required[Player]
    variant: str | None
    color: str
    move_time: int | None
    """Seconds per move."""
    thread: bool
    opening: Sequence[str]
    """Opening moves to start from (tests and rematches of a balloted game)."""
    ballot: bool
    """Start from a random ACF three-move ballot (English only)."""
    match: bool
    """Two games with the same opening, colours swapped."""
    level: int | None
    thread_id: int | None
    """The thread to start a computer game in, when one is needed."""
    parent_id: int | None
    """The channel the challenge's channel belongs to, when it is a thread (for the server's
    list of game channels)."""


@dataclass(frozen=True)
class _Terms:
    """A checked challenge."""

    channel_id: int
    challenger: Player
    opponent: Player
    variant: Variant
    color: str
    move_time: int
    thread: bool
    opening: tuple[str, ...]
    match: bool
    level: int | None
    thread_id: int | None


@dataclass
class _Live:
    """A running game held in memory: its row as last written and its rules record."""

    row: GameRow
    game: Game


class GameService:
    """All game actions.  Create with :meth:`open`; one instance per bot process."""

    def __init__(
        self,
        store: Store,
        *,
        bot_user_id: int,
        bot_name: str = "Computer",
        challenge_expiry: float = 15 * 60,
        computer: ComputerPlayer | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.bot = Player(bot_user_id, _clean_name(bot_name))
        self.challenge_expiry = challenge_expiry
        self.computer: ComputerPlayer = computer or RandomComputer()
        self.clock = clock
        self._rng = rng or random.Random()
        self._live: dict[int, _Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._follow_ups: dict[int, ActionResult] = {}
        """Announcements of games started by another game's end (a match's second game),
        keyed by the game that ended, until the action that ended it picks them up."""
        self.settings = SettingsBook(store, clock)
        self.standings = Standings(store, clock)

    @classmethod
    async def open(cls, database_path: Any, **options: Any) -> GameService:
        """Open the store at ``database_path`` (migrating it) and build the service on it."""
        return cls(await Store.open(database_path), **options)

    async def close(self) -> None:
        """Close the database after the writes in flight have finished."""
        for lock in list(self._locks.values()):
            async with lock:
                pass
        await self.store.close()

    # -- challenges ----------------------------------------------------------------------------

    async def challenge(
        self, *, guild_id: int | None, **terms: Unpack[ChallengeTerms]
    ) -> ActionResult:
        """Post a challenge, or start a game at once when the opponent is the bot itself (in
        ``thread_id`` when given; :class:`ThreadRequired` when a thread is wanted or the channel
        is busy and none is given)."""
        t = await self._prepare_challenge(guild_id=guild_id, **terms)
        now = self.clock()
        if t.opponent.id == self.bot.id:
            return await self._start(
                guild_id=guild_id,
                channel_id=t.channel_id if t.thread_id is None else t.thread_id,
                challenger=t.challenger,
                opponent=self.bot,
                variant=t.variant.key,
                color=t.color,
                move_time=t.move_time,
                opening=t.opening,
                level=t.level or DEFAULT_LEVEL,
                challenge_id=None,
            )
        await self._busy_here(guild_id, t.channel_id, t.thread)
        values = {
            "guild_id": guild_id,
            "channel_id": t.channel_id,
            "challenger_id": t.challenger.id,
            "challenger_name": t.challenger.name,
            "opponent_id": t.opponent.id,
            "opponent_name": t.opponent.name,
            "variant": t.variant.key,
            "color": t.color,
            "move_time": t.move_time,
            "thread": int(t.thread),
            "opening": " ".join(t.opening),
            "match_play": int(t.match),
            "level": None,
            "status": "open",
            "created_at": now,
            "expires_at": now + self.challenge_expiry,
            "updated_at": now,
        }
        stale = await self.store.open_challenge_of(t.challenger.id, t.channel_id)
        if stale is not None and stale.expires_at <= now:
            # Expired but not yet swept by the scheduler: it must not block a new challenge.
            await self.store.close_challenge(stale.id, "expired", now)
        try:
            challenge_id = await self.store.insert_challenge(values)
        except sqlite3.IntegrityError:
            raise ChallengeError(OPEN_CHALLENGE) from None
        row = await self.store.challenge(challenge_id)
        assert row is not None
        view = self._challenge_view(row)
        what = f"a {view.variant_title} match" if t.match else view.variant_title
        return ActionResult(
            Action.CHALLENGE_CREATED,
            f"{t.challenger.name} challenges {t.opponent.name} to {what}.",
            challenge=view,
            mentions=(t.opponent.id,),
        )

    async def check_challenge(
        self, *, guild_id: int | None = None, **terms: Unpack[ChallengeTerms]
    ) -> bool:
        """Refuse what :meth:`challenge` would refuse (including :class:`ThreadRequired`),
        without writing: the Discord layer checks before it defers a slow start.  For a
        challenge between people, whether accepting it will need a new thread (one was asked
        for or the server always uses them, or the channel has a game), so a place that cannot
        hold one is refused at once."""
        t = await self._prepare_challenge(guild_id=guild_id, **terms)
        if t.opponent.id == self.bot.id:
            return False  # a needed thread was refused above (ThreadRequired) or is given
        stale = await self.store.open_challenge_of(t.challenger.id, t.channel_id)
        if stale is not None and stale.expires_at > self.clock():
            raise ChallengeError(OPEN_CHALLENGE)
        return t.thread or await self._busy_here(guild_id, t.channel_id, t.thread)

    async def _busy_here(self, guild_id: int | None, channel_id: int, thread: bool) -> bool:
        """Whether the channel has a game already; refused outright when a challenge without a
        thread of its own would need one for that and the server plays without threads."""
        busy = await self.store.running_game_in(channel_id) is not None
        if busy and not thread and (await self.settings.get(guild_id)).threads == "never":
            raise ChallengeError(BUSY_NO_THREADS)
        return busy

    async def _prepare_challenge(
        self,
        *,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        variant: str | None = None,
        color: str = "random",
        move_time: int | None = None,
        thread: bool = False,
        opening: Sequence[str] = (),
        ballot: bool = False,
        match: bool = False,
        level: int | None = None,
        thread_id: int | None = None,
        parent_id: int | None = None,
        guild_id: int | None = None,
    ) -> _Terms:
        """The checks of a challenge, and its terms with the defaults filled in (the server's
        settings first), the opening's moves read and the names cleaned."""
        server = await self.settings.get(guild_id)
        server.check_channel(channel_id, parent_id)
        try:
            rules_variant = find_variant(variant or server.variant)
        except ValueError as exc:
            raise ChallengeError(str(exc)) from None
        if move_time is None:
            move_time = server.move_time
        if color not in COLORS:
            raise ChallengeError(f"colour must be one of {', '.join(COLORS)}")
        if move_time <= 0:
            raise ChallengeError("the time per move must be positive")
        if challenger.id == opponent.id:
            raise ChallengeError("you cannot challenge yourself")
        if challenger.id == self.bot.id:
            raise ChallengeError("the computer does not issue challenges")
        against_computer = opponent.id == self.bot.id
        if level is not None and level not in LEVELS:
            raise ChallengeError("the level must be between 1 and 6")
        if match and against_computer:
            raise ChallengeError("matches are played between two people; challenge a person")
        if ballot:
            if opening:
                raise ChallengeError("choose either a ballot or opening moves, not both")
            if rules_variant.key != "english":
                raise ChallengeError(
                    "ballot openings exist for English draughts only (the ACF three-move "
                    "ballot); other variants have no sound published list"
                )
            opening = draw_ballot(self._rng).moves
        opening_moves = self._check_opening(rules_variant.key, opening)
        if server.threads == "never" and thread:
            raise ChallengeError("this server plays games in the channel itself, without threads")
        if server.threads == "always" and parent_id is None:
            thread = True
        if (
            against_computer
            and thread_id is None
            and (thread or await self.store.running_game_in(channel_id) is not None)
        ):
            if server.threads == "never":
                raise ChallengeError(BUSY_NO_THREADS)
            raise ThreadRequired("the game needs a thread")
        return _Terms(
            channel_id=channel_id,
            challenger=Player(challenger.id, _clean_name(challenger.name)),
            opponent=Player(opponent.id, _clean_name(opponent.name)),
            variant=rules_variant,
            color=color,
            move_time=move_time,
            thread=thread,
            opening=opening_moves,
            match=match,
            level=level,
            thread_id=thread_id,
        )

    def _check_opening(self, variant: str, opening: Sequence[str]) -> tuple[str, ...]:
        game = Game(find_variant(variant))
        moves = []
        for text in opening:
            try:
                moves.append(game.play(text).pdn())
            except (MoveError, RulesGameError) as exc:
                raise ChallengeError(f"the opening move {text!r} is not playable: {exc}") from None
        if game.is_over:
            raise ChallengeError("the opening ends the game")
        return tuple(moves)

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise NotFoundError("that challenge does not exist")
        if row.status != "open":
            raise GameOverError(f"that challenge is no longer open ({row.status})")
        if row.expires_at <= self.clock():
            raise GameOverError("that challenge has expired")
        return row

    async def needs_thread(self, challenge_id: int) -> bool:
        """Whether accepting ``challenge_id`` starts the game in a new thread."""
        row = await self._open_challenge(challenge_id)
        return await self._needs_thread(row)

    async def _needs_thread(self, row: ChallengeRow) -> bool:
        """Whether the challenge's game goes to a new thread; refused when the channel is busy
        and the server opens no threads."""
        return bool(row.thread) or await self._busy_here(row.guild_id, row.channel_id, False)

    async def accept(
        self, challenge_id: int, user_id: int, *, thread_id: int | None = None
    ) -> ActionResult:
        """The challenged user accepts: the game starts in the challenge's channel, or in the
        thread ``thread_id`` (required when the challenge asked for one or the channel is busy:
        :class:`ThreadRequired` says so)."""
        row = await self._open_challenge(challenge_id)
        if user_id != row.opponent_id:
            raise NotAPlayerError(f"only {row.opponent_name} can accept this challenge")
        channel = row.channel_id
        if thread_id is not None:
            channel = thread_id
        elif await self._needs_thread(row):
            raise ThreadRequired("the game needs a thread")
        return await self._start(
            guild_id=row.guild_id,
            channel_id=channel,
            challenger=Player(row.challenger_id, row.challenger_name),
            opponent=Player(row.opponent_id, row.opponent_name),
            variant=row.variant,
            color=row.color,
            move_time=row.move_time,
            opening=tuple(row.opening.split()),
            level=None,
            challenge_id=row.id,
            match=bool(row.match_play),
        )

    async def decline(self, challenge_id: int, user_id: int) -> ActionResult:
        row = await self._open_challenge(challenge_id)
        if user_id != row.opponent_id:
            raise NotAPlayerError(f"only {row.opponent_name} can decline this challenge")
        return await self._close_challenge(
            row,
            "declined",
            Action.CHALLENGE_DECLINED,
            f"{row.opponent_name} declined the challenge.",
            mention=row.challenger_id,
        )

    async def cancel(self, challenge_id: int, user_id: int) -> ActionResult:
        row = await self._open_challenge(challenge_id)
        if user_id != row.challenger_id:
            raise NotAPlayerError(f"only {row.challenger_name} can cancel this challenge")
        return await self._close_challenge(
            row,
            "cancelled",
            Action.CHALLENGE_CANCELLED,
            f"{row.challenger_name} cancelled the challenge.",
            mention=row.opponent_id,
        )

    async def _close_challenge(
        self, row: ChallengeRow, status: str, action: Action, text: str, mention: int
    ) -> ActionResult:
        if not await self.store.close_challenge(row.id, status, self.clock()):
            raise ConflictError("the challenge was answered meanwhile")
        closed = await self.store.challenge(row.id)
        assert closed is not None
        return ActionResult(
            action, text, challenge=self._challenge_view(closed), mentions=(mention,)
        )

    async def challenge_view(self, challenge_id: int) -> ChallengeView:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise NotFoundError("that challenge does not exist")
        return self._challenge_view(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message showing the challenge (its buttons go when it expires)."""
        await self.store.set_challenge_message(challenge_id, message_id)

    async def rematch(
        self,
        game_id: int,
        user_id: int,
        *,
        thread_id: int | None = None,
        parent_id: int | None = None,
    ) -> ActionResult:
        """A player of a finished game asks for a return game: same variant, time, place and
        opening (a balloted game is replayed from the same ballot), colours swapped.  Against
        the computer it starts at once (like :meth:`challenge`); otherwise it is a challenge
        the other player answers."""
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(f"there is no game #{game_id}")
        if row.status == "running":
            raise ChallengeError(f"game #{game_id} is still running")
        if user_id not in (row.white_id, row.black_id):
            raise NotAPlayerError(
                f"only {row.white_name} and {row.black_name} can ask for a rematch"
            )
        white = Player(row.white_id, row.white_name)
        black = Player(row.black_id, row.black_name)
        me, other = (white, black) if user_id == row.white_id else (black, white)
        pending = await self.store.open_challenge_of(other.id, row.channel_id)
        if (
            pending is not None
            and pending.opponent_id == me.id
            and pending.expires_at > self.clock()
            and pending.variant == row.variant
            and not pending.match_play
        ):
            # Both pressed Rematch: the second press answers the first.
            started = await self.accept(pending.id, me.id, thread_id=thread_id)
            return replace(started, challenge=await self.challenge_view(pending.id))
        return await self.challenge(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            challenger=me,
            opponent=other,
            variant=row.variant,
            color="black" if me is white else "white",
            move_time=row.move_time,
            opening=tuple(row.opening.split()),
            level=row.computer_level,
            thread_id=thread_id,
            parent_id=parent_id,
        )

    # -- starting ------------------------------------------------------------------------------

    async def _start(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        variant: str,
        color: str,
        move_time: int,
        opening: tuple[str, ...],
        level: int | None,
        challenge_id: int | None,
        match: bool = False,
    ) -> ActionResult:
        if color == "random":
            color = self._rng.choice(("white", "black"))
        white, black = (challenger, opponent) if color == "white" else (opponent, challenger)
        computer = self.bot.id if opponent.id == self.bot.id else None
        game, values, opening_rows, reply = await self._new_game(
            guild_id=guild_id,
            channel_id=channel_id,
            white=white,
            black=black,
            variant=variant,
            move_time=move_time,
            opening=opening,
            level=level,
            computer=computer,
            match_id="self" if match else None,
        )
        try:
            game_id = await self.store.start_game(values, opening_rows, challenge_id)
        except sqlite3.IntegrityError:
            raise ChallengeError("a game is already running in that channel") from None
        except StoreError as exc:
            raise ConflictError(str(exc)) from None
        row = await self.store.game(game_id)
        assert row is not None
        return self._started(_Live(row, game), reply)

    def _started(self, live: _Live, reply: tuple[MovePlayed, ...] = ()) -> ActionResult:
        """The announcement of a game that has just been stored."""
        self._live[live.row.id] = live
        view = self._view(live)
        white, black = view.white, view.black
        opened = f"{self.bot.name} opened with {reply[-1].pdn}. " if reply else ""
        heading = f"{white.name} (White) v {black.name} (Black): {view.variant_title}"
        if view.match_game is not None:
            heading += f", match game {view.match_game} of 2"
        if view.opening_label is not None:
            heading += f", from the ballot {view.opening_label}"
        return ActionResult(
            Action.GAME_STARTED,
            f"{heading}. {opened}{self._after_move_text(view)}",
            game=view,
            moves=reply,
            post_board=True,
            mentions=tuple(p.id for p in (white, black) if p.id != self.bot.id),
        )

    async def _new_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        white: Player,
        black: Player,
        variant: str,
        move_time: int,
        opening: tuple[str, ...],
        level: int | None,
        computer: int | None,
        match_id: int | str | None,
    ) -> tuple[
        Game, dict[str, Any], list[tuple[int, str, str, int, float]], tuple[MovePlayed, ...]
    ]:
        """A new game's record, row values and opening moves, ready to store (nothing is
        written).  Games between two people in a server are rated; games against the computer
        are not."""
        rules_variant = find_variant(variant)
        game = Game(rules_variant)
        now = self.clock()
        opening_rows = []
        for text in opening:
            mover = white if game.turn is Color.WHITE else black
            move = game.play(text)
            opening_rows.append((game.ply, move.pdn(), game.position.fen(), mover.id, now))
        reply: tuple[MovePlayed, ...] = ()
        if computer is not None and (white if game.turn is Color.WHITE else black).id == computer:
            # The computer's opening is made before the game is stored, so the game is born at
            # the player's turn: the scheduler (which makes the computer's pending moves) never
            # sees a half-started game, and a failed reply is simply retried by it.
            reply = await self._opening_reply(game, level or DEFAULT_LEVEL)
            if reply:
                opening_rows.append((game.ply, reply[0].pdn, game.position.fen(), computer, now))
        values: dict[str, Any] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "white_id": white.id,
            "white_name": white.name,
            "black_id": black.id,
            "black_name": black.name,
            "computer_id": computer,
            "computer_level": level if computer is not None else None,
            "variant": rules_variant.key,
            "start_fen": game.start.fen(),
            "opening": " ".join(opening),
            "status": "running",
            "ply": game.ply,
            "fen": game.position.fen(),
            "move_time": move_time,
            "deadline": None,
            "remind_at": None,
            "created_at": now,
            "updated_at": now,
            "rated": int(guild_id is not None and computer is None),
            "match_id": match_id,
        }
        values.update(self._state_columns(game))
        values.update(self._clock_columns(game, white.id, black.id, move_time, now, computer))
        return game, values, opening_rows, reply

    async def _opening_reply(self, game: Game, level: int) -> tuple[MovePlayed, ...]:
        """The computer's first move, played on ``game`` (not yet stored); none if the computer
        failed (the scheduler makes it later)."""
        try:
            choice = await self.computer.choose_move(game, level)
            move = game.play(choice)
        except Exception:
            log.exception("the computer failed to open a game; the scheduler will retry")
            return ()
        return (MovePlayed(game.ply, move.pdn(), self.bot, True),)

    # -- moves ---------------------------------------------------------------------------------

    async def move(
        self,
        user_id: int,
        text: str,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_ply: int | None = None,
        on_valid: Callable[[GameView], Awaitable[None]] | None = None,
    ) -> ActionResult:
        """Play ``text`` for ``user_id`` in the running game of the channel (or ``game_id``).

        ``expected_ply`` is the position the player saw; if the game has moved on since, the
        move is refused rather than read in a position they did not see.  ``on_valid`` is
        awaited with the game as it stands once the move is known to be legal, before anything
        is written or the computer thinks: the Discord layer defers a slow answer there, so a
        refusal is always answered privately and the move is read only once.
        """
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            color = await self._mover(live, user_id, expected_ply)
            game = live.game
            try:
                move = parse_move(game.position, text, game.legal_moves())
            except MoveError as exc:
                await self._ensure_fresh(live)
                raise IllegalMoveError(str(exc)) from None
            if on_valid is not None:
                await on_valid(self._view(live))
            self._apply(lambda: game.play(move))
            played = MovePlayed(game.ply, move.pdn(), self._player(live.row, color), False)
            await self._save(live, user_id=user_id, moved=True)
            moves = (played,)
            if not game.is_over:
                moves += await self._computer_reply(live)
        view = self._view(live)
        mover = self._player(live.row, color)
        text_out = f"{mover.name} played {move.pdn()}."
        if len(moves) > 1:
            text_out += f" {self.bot.name} replied {moves[-1].pdn}."
        text_out += " " + self._after_move_text(view)
        return await self._ending(
            ActionResult(
                Action.MOVED,
                text_out,
                game=view,
                moves=moves,
                post_board=True,
                mentions=self._mentions_after(view),
            )
        )

    async def _mover(self, live: _Live, user_id: int, expected_ply: int | None) -> Color:
        """The colour of ``user_id`` if they may move now (a player, on turn, in the position
        they saw)."""
        color = self._color_of(live, user_id)
        game = live.game
        if expected_ply is not None and expected_ply != game.ply:
            await self._ensure_fresh(live)
            raise ConflictError()
        if game.turn is not color:
            await self._ensure_fresh(live)
            to_move = self._player(live.row, game.turn)
            raise NotYourTurnError(f"it is {to_move.name}'s turn")
        return color

    def _after_move_text(self, view: GameView) -> str:
        if not view.running:
            return f"Game over: {view.result} {view.termination}."
        assert view.to_move is not None
        return f"{view.to_move.name} to move."

    def _mentions_after(self, view: GameView) -> tuple[int, ...]:
        if view.running:
            return (
                () if view.to_move is None or view.to_move.id == self.bot.id else (view.to_move.id,)
            )
        return tuple(p.id for p in (view.white, view.black) if p.id != self.bot.id)

    async def _computer_reply(self, live: _Live) -> tuple[MovePlayed, ...]:
        """Let the computer move while it is its turn (once: sides alternate)."""
        row, game = live.row, live.game
        if row.computer_id is None or game.is_over:
            return ()
        color = Color.WHITE if row.white_id == row.computer_id else Color.BLACK
        if game.turn is not color:
            return ()
        level = row.computer_level or DEFAULT_LEVEL
        try:
            accepted = game.draw_offer is color.other and await self.computer.answer_draw(
                game, level
            )
            choice = None if accepted else await self.computer.choose_move(game, level)
        except Exception:
            # The player's move has landed; the scheduler retries the reply on its next tick.
            log.exception("the computer failed to reply in game %s", row.id)
            return ()
        if choice is None:
            self._apply(lambda: game.accept_draw(color))
            await self._save(live, user_id=self.bot.id, moved=False)
            return ()
        move = self._apply(lambda: game.play(choice))
        await self._save(live, user_id=self.bot.id, moved=True)
        return (MovePlayed(game.ply, move.pdn(), self.bot, True),)

    async def resume_computer_games(self) -> list[ActionResult]:
        """Make the computer move in every running game where it is its turn: after a restart,
        and on every scheduler tick in case a reply failed."""
        results = []
        for row in await self.store.computer_games_waiting():
            async with self._lock(row.id):
                live = await self._load_quietly(row.id)
                if live is None:
                    continue
                moves = await self._computer_reply(live)
            if moves:
                view = self._view(live)
                results.append(
                    await self._ending(
                        ActionResult(
                            Action.MOVED,
                            f"{self.bot.name} played {moves[-1].pdn}. "
                            f"{self._after_move_text(view)}",
                            game=view,
                            moves=moves,
                            post_board=True,
                            mentions=self._mentions_after(view),
                        )
                    )
                )
        return results

    # -- draws, resignation, abort ---------------------------------------------------------------

    async def offer_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            color = self._color_of(live, user_id)
            game = live.game
            offered_to = self._player(live.row, color.other)
            accepting = game.draw_offer is color.other
            await self._draw_action(live, lambda: game.offer_draw(color))
            await self._save(live, user_id=user_id, moved=False)
            answered = False
            if not game.is_over and offered_to.id == self.bot.id:
                level = live.row.computer_level or DEFAULT_LEVEL
                if await self.computer.answer_draw(game, level):
                    self._apply(lambda: game.accept_draw(color.other))
                else:
                    self._apply(lambda: game.decline_draw(color.other))
                await self._save(live, user_id=self.bot.id, moved=False)
                answered = True
        view = self._view(live)
        me = self._player(live.row, color)
        if not view.running:
            how = "accepted" if answered or accepting else "agreed"
            return await self._ending(
                ActionResult(
                    Action.DRAW_ACCEPTED,
                    f"Draw {how}: {view.result}.",
                    game=view,
                    post_board=True,
                    mentions=self._mentions_after(view),
                )
            )
        if answered:
            return ActionResult(
                Action.DRAW_DECLINED,
                f"{me.name} offered a draw; {self.bot.name} declined." + self._count_sentence(view),
                game=view,
            )
        return ActionResult(
            Action.DRAW_OFFERED,
            f"{me.name} offers a draw. {offered_to.name}, accept or decline?",
            game=view,
            mentions=(offered_to.id,),
        )

    async def accept_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        live, color = await self._player_action(
            user_id, channel_id, game_id, Game.accept_draw, draw=True
        )
        view = self._view(live)
        me = self._player(live.row, color)
        return await self._ending(
            ActionResult(
                Action.DRAW_ACCEPTED,
                f"{me.name} accepted the draw: {view.result}.",
                game=view,
                post_board=True,
                mentions=self._mentions_after(view),
            )
        )

    async def decline_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        live, color = await self._player_action(
            user_id, channel_id, game_id, Game.decline_draw, draw=True
        )
        view = self._view(live)
        me = self._player(live.row, color)
        other = self._player(live.row, color.other)
        return ActionResult(
            Action.DRAW_DECLINED,
            f"{me.name} declined the draw." + self._count_sentence(view),
            game=view,
            mentions=(other.id,) if other.id != self.bot.id else (),
        )

    def _count_sentence(self, view: GameView) -> str:
        if view.advantage_left is None:
            return ""
        decliner = None
        live = self._live.get(view.id)
        if live is not None and live.game.advantage_count is not None:
            decliner = self._player(live.row, live.game.advantage_count.side)
        who = decliner.name if decliner else "The decliner"
        return (
            f" {who} now has {view.advantage_left} moves to show a decisive advantage "
            f"(40-move count: {view.advantage_left} left)."
        )

    async def resign(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        live, color = await self._player_action(user_id, channel_id, game_id, Game.resign)
        view = self._view(live)
        me = self._player(live.row, color)
        return await self._ending(
            ActionResult(
                Action.RESIGNED,
                f"{me.name} resigned: {view.result}.",
                game=view,
                post_board=True,
                mentions=self._mentions_after(view),
            )
        )

    async def abort(
        self,
        user_id: int,
        *,
        is_moderator: bool,
        channel_id: int | None = None,
        game_id: int | None = None,
    ) -> ActionResult:
        """End a game with no result.  Moderators only."""
        if not is_moderator:
            raise ForbiddenError("only moderators can abort a game")
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            self._apply(live.game.abort)
            await self._save(live, user_id=user_id, moved=False)
        view = self._view(live)
        return await self._ending(
            ActionResult(
                Action.ABORTED,
                f"Game #{view.id} ({view.white.name} v {view.black.name}) was aborted by a "
                "moderator.",
                game=view,
                mentions=self._mentions_after(view),
            )
        )

    # -- takebacks -------------------------------------------------------------------------------

    async def request_takeback(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """A player asks to take back their last move (and the opponent's reply, if one has
        been played since).  Against the computer it is granted at once (those games are
        unrated); between people the opponent must agree, which is also the only way a rated
        game can be taken back: both players agree, or nothing changes."""
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            color = self._color_of(live, user_id)
            row = live.row
            plies = self._takeback_plies(live, color)
            me = self._player(row, color)
            other = self._player(row, color.other)
            if row.computer_id is not None:
                await self._take_back(live, plies)
                view = self._view(live)
                return ActionResult(
                    Action.TAKEBACK_ACCEPTED,
                    f"{me.name} took back {self._plies_words(plies)}. "
                    f"{self._after_move_text(view)}",
                    game=view,
                    post_board=True,
                    mentions=self._mentions_after(view),
                )
            if row.takeback_offer is not None:
                await self._ensure_fresh(live)
                asker = row.white_name if row.takeback_offer == "white" else row.black_name
                raise TakebackError(f"{asker}'s takeback request is waiting for an answer")
            if row.takeback_refused_ply == live.game.ply:
                await self._ensure_fresh(live)
                raise TakebackError(
                    "a takeback was already declined in this position; play on, or ask after "
                    "the next move"
                )
            await self._save_row(live, {"takeback_offer": _color_label(color)})
        view = self._view(live)
        return ActionResult(
            Action.TAKEBACK_OFFERED,
            f"{me.name} asks to take back {self._plies_words(plies)}. "
            f"{other.name}, accept or decline?",
            game=view,
            mentions=(other.id,),
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
        """The opponent of the player who asked accepts (the moves are taken back) or
        declines (the same position cannot be asked about again).  ``expected_ply``: the ply of
        the request being answered (its buttons carry it), so an answer to an old request
        never applies to a newer one."""
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            color = self._color_of(live, user_id)
            row = live.row
            stale = expected_ply is not None and expected_ply != live.game.ply
            if stale or row.takeback_offer != _color_label(color.other):
                await self._ensure_fresh(live)
                raise TakebackError("there is no takeback request for you to answer")
            asker = self._player(row, color.other)
            me = self._player(row, color)
            if accept:
                plies = self._takeback_plies(live, color.other)
                await self._take_back(live, plies)
            else:
                await self._save_row(
                    live, {"takeback_offer": None, "takeback_refused_ply": live.game.ply}
                )
        view = self._view(live)
        if not accept:
            return ActionResult(
                Action.TAKEBACK_DECLINED,
                f"{me.name} declined {asker.name}'s takeback request.",
                game=view,
                mentions=(asker.id,),
            )
        return ActionResult(
            Action.TAKEBACK_ACCEPTED,
            f"{me.name} accepted: {asker.name} took back {self._plies_words(plies)}. "
            f"{self._after_move_text(view)}",
            game=view,
            post_board=True,
            mentions=self._mentions_after(view),
        )

    def _takeback_plies(self, live: _Live, color: Color) -> int:
        """How many plies taking back ``color``'s last move removes: one if it is the
        opponent's turn, two (the reply too) if it is ``color``'s.  The opening that was set
        before the game (a ballot) cannot be taken back."""
        game, row = live.game, live.row
        plies = 1 if game.turn is color.other else 2
        fixed = len(row.opening.split())
        if game.ply - plies < fixed:
            raise TakebackError("you have no move of your own to take back yet")
        return plies

    @staticmethod
    def _plies_words(plies: int) -> str:
        return "their last move" if plies == 1 else "their last move and the reply"

    async def _take_back(self, live: _Live, plies: int) -> None:
        """Take ``plies`` back on the in-memory game and store it in one guarded transaction."""
        row, game = live.row, live.game
        try:
            game.take_back(plies)
        except RulesGameError as exc:
            raise TakebackError(str(exc)) from None
        now = self.clock()
        changes = self._state_columns(game)
        clock = self._clock_columns
        changes.update(clock(game, row.white_id, row.black_id, row.move_time, now, row.computer_id))
        changes.update(updated_at=now, takeback_offer=None, takeback_refused_ply=None)
        await self._write(
            live, changes, self.store.take_back(row.id, row.version, changes, game.ply, now)
        )

    async def _save_row(self, live: _Live, changes: dict[str, Any]) -> None:
        """Store row-only changes (no move, same position) under the version guard."""
        row = live.row
        changes = {**changes, "updated_at": self.clock()}
        await self._write(live, changes, self.store.update_game(row.id, row.version, changes))

    async def _write(
        self, live: _Live, changes: dict[str, Any], write: Coroutine[Any, Any, bool]
    ) -> None:
        """Await a guarded store write of ``changes`` and bring the in-memory row up to date.
        On any failure the in-memory game is dropped, so the next action reloads what the
        database really holds; a lost race is "the position changed, try again"."""
        try:
            ok = await write
        except BaseException:
            self._live.pop(live.row.id, None)
            raise
        if not ok:
            self._live.pop(live.row.id, None)
            raise ConflictError()
        live.row = replace(live.row, **changes, version=live.row.version + 1)

    # -- queries -------------------------------------------------------------------------------

    async def game_in(self, channel_id: int) -> GameView | None:
        """The running game of a channel, if any."""
        row = await self.store.running_game_in(channel_id)
        if row is None:
            return None
        async with self._lock(row.id):
            return self._view(await self._load(row.id))

    async def game_view(self, game_id: int) -> GameView:
        """Any game by id, running or finished."""
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(f"there is no game #{game_id}")
        if row.status == "running":
            async with self._lock(game_id):
                return self._view(await self._load(game_id))
        return self._view(_Live(row, await self._replay(row)))

    async def games(self, guild_id: int | None) -> list[GameView]:
        """Running games of a server."""
        views = []
        for row in await self.store.running_games_in_guild(guild_id):
            try:
                views.append(await self.game_view(row.id))
            except ServiceError:
                log.warning("game %s cannot be read; left out of the list", row.id)
        return views

    async def legal_moves(
        self, channel_id: int, user_id: int, prefix: str = ""
    ) -> list[MoveChoice]:
        """Autocomplete for the player to move: their legal moves matching ``prefix`` (captures
        first, at most 25); anyone else gets nothing."""
        row = await self.store.running_game_in(channel_id)
        if row is None:
            return []
        async with self._lock(row.id):
            live = await self._load_quietly(row.id)
            if live is None:
                return []
            game = live.game
            mover = self._player(live.row, game.turn)
            if mover.id != user_id or game.is_over:
                return []
            moves = sorted(game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
        wanted = normalize(prefix[:40]).replace(" ", "").replace(":", "x")
        choices = []
        for m in moves:
            full, short = m.pdn(), m.short()
            if wanted and not (full.startswith(wanted) or short.startswith(wanted)):
                continue
            name = full if short == full else f"{short} ({full})"
            choices.append(MoveChoice(name, full))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    async def move_list(self, channel_id: int) -> tuple[GameView, list[str]]:
        """The running game of the channel and every legal move of the side to move, captures
        first (``/moves``: anyone may look)."""
        gid = await self._resolve(channel_id, None)
        async with self._lock(gid):
            live = await self._load(gid)
            moves = sorted(live.game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
            return self._view(live), [m.pdn() for m in moves]

    async def find_game(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        check_guild: bool = False,
    ) -> GameRow:
        """A game by id, else the channel's running game, else the game that most recently
        ended there.  With ``check_guild`` (what users ask for) a game of another server is
        not found: ids are global, but each server sees only its own games."""
        if game_id is None:
            if channel_id is None:
                raise NotFoundError("name a game")
            row = await self.store.running_game_in(channel_id)
            if row is None:
                row = await self.store.last_finished_game_in(channel_id)
            if row is None:
                raise NotFoundError("there is no game in this channel")
            return row
        row = await self.store.game(game_id)
        if row is None or (check_guild and row.guild_id != guild_id):
            raise NotFoundError(f"there is no game #{game_id} on this server")
        return row

    async def pdn(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        check_guild: bool = False,
    ) -> tuple[str, str]:
        """``(file name, PDN text)`` of a game found as :meth:`find_game` says."""
        row = await self.find_game(
            game_id=game_id, channel_id=channel_id, guild_id=guild_id, check_guild=check_guild
        )
        game_id = row.id
        game = await self._replay(row) if row.status != "running" else None
        if game is None:
            async with self._lock(game_id):
                game = (await self._load(game_id)).game
        date = datetime.fromtimestamp(row.created_at, UTC).strftime("%Y.%m.%d")
        tags = {
            "Event": "Discord draughts",
            "Site": "Discord",
            "Date": date,
            "Round": "-",
            "White": row.white_name,
            "Black": row.black_name,
        }
        if row.match_id is not None:  # a match's games are its rounds
            tags["Event"] = f"Discord draughts match #{row.match_id}"
            tags["Round"] = "1" if row.match_id == row.id else "2"
        return f"draughts-game-{game_id}.pdn", write_game(game, tags)

    # -- scheduler -----------------------------------------------------------------------------

    async def tick(self) -> list[ActionResult]:
        """Everything due now: expired challenges, half-time reminders, timeouts, and computer
        replies that failed earlier.  Called
        periodically by :class:`bot.scheduler.Scheduler`; it reads deadlines from the database,
        so nothing is missed across restarts."""
        now = self.clock()
        events: list[ActionResult] = []
        for row in await self.store.expired_challenges(now):
            if await self.store.close_challenge(row.id, "expired", now):
                closed = await self.store.challenge(row.id)
                assert closed is not None
                events.append(
                    ActionResult(
                        Action.CHALLENGE_EXPIRED,
                        f"The challenge from {row.challenger_name} to {row.opponent_name} expired.",
                        challenge=self._challenge_view(closed),
                        mentions=(row.challenger_id,),
                    )
                )
        timeouts, reminders = await self.store.due_games(now)
        for row in timeouts:
            event = await self._timeout(row.id, now)
            if event is not None:
                events.append(event)
        for row in reminders:
            event = await self._remind(row.id, now)
            if event is not None:
                events.append(event)
        events += await self.resume_computer_games()
        events += await self.resume_matches()
        return events

    async def resume_matches(self) -> list[ActionResult]:
        """Start the second game of any match whose first game ended without it (the second
        normally starts in the first one's final transaction; this catches the rest)."""
        events = []
        for first in await self.store.matches_waiting():
            async with self._lock(first.id):
                try:
                    game_id = await self.store.start_game(*await self._second_game(first))
                except sqlite3.IntegrityError:
                    continue  # the channel is busy; try again on a later tick
                row = await self.store.game(game_id)
                assert row is not None
                events.append(self._started(_Live(row, await self._replay(row))))
        return events

    async def _timeout(self, game_id: int, now: float) -> ActionResult | None:
        async with self._lock(game_id):
            live = await self._load_quietly(game_id)
            if live is None:
                return None
            if live.row.deadline is None or live.row.deadline > now or live.game.is_over:
                return None
            loser = live.game.turn
            self._apply(lambda: live.game.timeout(loser))
            await self._save(live, user_id=self.bot.id, moved=False)
        view = self._view(live)
        late = self._player(live.row, loser)
        return await self._ending(
            ActionResult(
                Action.TIMEOUT,
                f"{late.name} ran out of time: {view.result}.",
                game=view,
                post_board=True,
                mentions=self._mentions_after(view),
            )
        )

    async def _remind(self, game_id: int, now: float) -> ActionResult | None:
        async with self._lock(game_id):
            live = await self._load_quietly(game_id)
            if live is None:
                return None
            row = live.row
            if row.remind_at is None or row.remind_at > now or live.game.is_over:
                return None
            if not await self.store.update_game(row.id, row.version, {"remind_at": None}):
                self._live.pop(game_id, None)
                return None
            live.row = replace(row, remind_at=None, version=row.version + 1)
        view = self._view(live)
        assert view.to_move is not None and view.deadline is not None
        return ActionResult(
            Action.REMINDER,
            f"{view.to_move.name}, it is your move in game #{view.id}: "
            f"half of your time has passed.",
            game=view,
            mentions=(view.to_move.id,),
        )

    # -- internals -----------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _resolve(self, channel_id: int | None, game_id: int | None) -> int:
        if game_id is not None:
            return game_id
        if channel_id is None:
            raise NotFoundError("name a game")
        row = await self.store.running_game_in(channel_id)
        if row is None:
            raise NotFoundError("there is no game running in this channel")
        return row.id

    async def _load_quietly(self, game_id: int) -> _Live | None:
        """:meth:`_load` for background work (scheduler, autocomplete, start-up): a game that
        ended meanwhile or cannot be read is simply skipped (``_load`` has logged why)."""
        try:
            return await self._load(game_id)
        except ServiceError:
            return None

    async def _load(self, game_id: int) -> _Live:
        """The running game ``game_id`` from memory or the database (call under its lock)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(f"there is no game #{game_id}")
        if row.status != "running":
            words = row.termination_detail or row.termination
            raise GameOverError(f"game #{game_id} is over ({row.result} {words})")
        live = _Live(row, await self._replay(row))
        self._live[game_id] = live
        return live

    async def _replay(self, row: GameRow) -> Game:
        moves = await self.store.moves(row.id)
        if [m.ply for m in moves] != list(range(1, row.ply + 1)):
            log.error("game %s: stored moves do not match its ply %s", row.id, row.ply)
            raise DamagedRecordError(f"the record of game #{row.id} is damaged")
        outcome = None
        if row.status != "running":
            outcome = {
                "termination": row.termination,
                "winner": row.winner,
                "detail": row.termination_detail,
            }
        data = {
            "variant": row.variant,
            "start": row.start_fen,
            "moves": [m.pdn for m in moves],
            "draw_offer": row.draw_offer,
            "advantage_count": None
            if row.advantage_side is None
            else {"side": row.advantage_side, "start_ply": row.advantage_start_ply},
            "outcome": outcome,
        }
        try:
            return Game.from_dict(data)
        except ValueError as exc:
            log.error("game %s cannot be replayed: %s", row.id, exc)
            raise DamagedRecordError(f"the record of game #{row.id} is damaged") from None

    async def _player_action(
        self,
        user_id: int,
        channel_id: int | None,
        game_id: int | None,
        action: Callable[[Game, Color], None],
        draw: bool = False,
    ) -> tuple[_Live, Color]:
        """Run ``action(game, player's colour)`` for a player of the game and save the result:
        the common shape of resigning and answering a draw offer."""
        gid = await self._resolve(channel_id, game_id)
        async with self._lock(gid):
            live = await self._load(gid)
            color = self._color_of(live, user_id)
            if draw:
                await self._draw_action(live, lambda: action(live.game, color))
            else:
                self._apply(lambda: action(live.game, color))
            await self._save(live, user_id=user_id, moved=False)
        return live, color

    async def _draw_action(self, live: _Live, action: Callable[[], None]) -> None:
        """A draw offer/answer; refused answers are checked against the database first (the
        offer may have been made or withdrawn by another process)."""
        try:
            self._apply(action)
        except DrawError:
            await self._ensure_fresh(live)
            raise

    async def _ensure_fresh(self, live: _Live) -> None:
        """Before refusing on the strength of the in-memory copy: if another process has written
        the game since (say the old bot during a deploy), drop the copy and ask for a retry
        instead of refusing on a position the player no longer sees."""
        row = await self.store.game(live.row.id)
        if row is None or row.version != live.row.version:
            self._live.pop(live.row.id, None)
            raise ConflictError()

    @staticmethod
    def _apply(action: Callable[[], Any]) -> Any:
        """Run a rules action on the in-memory game, translating the rules' refusals."""
        try:
            return action()
        except DrawOfferError as exc:
            raise DrawError(str(exc)) from None
        except RulesGameError as exc:
            raise GameOverError(str(exc)) from None

    async def _save(self, live: _Live, *, user_id: int, moved: bool) -> None:
        """Persist the in-memory game's new state (and its last move when ``moved``) as one
        guarded transaction.  On any failure the in-memory copy is dropped, so the next action
        reloads what the database really holds."""
        row, game = live.row, live.game
        now = self.clock()
        changes = self._state_columns(game)
        changes["updated_at"] = now
        if moved:
            changes.update(
                self._clock_columns(
                    game, row.white_id, row.black_id, row.move_time, now, row.computer_id
                )
            )
        elif game.is_over:
            changes.update(deadline=None, remind_at=None)
        if moved or game.is_over:
            changes["takeback_offer"] = None  # playing on (or the end) lapses a request
        move = None
        if moved:
            move = (game.ply, game.moves[-1].pdn(), changes["fen"], user_id, now)
        rated = follow_up = None
        finished = game.is_over and changes["status"] == "finished"
        if finished and row.rated and row.guild_id is not None:
            winner = changes["winner"]
            rated = RatedResult(
                row.guild_id,
                row.variant,
                row.white_id,
                row.black_id,
                0.5 if winner is None else float(winner == "white"),
                row.white_name,
                row.black_name,
            )
        if finished and row.match_id == row.id:
            follow_up = await self._second_game(row)
        await self._write(
            live,
            changes,
            self.store.update_game(
                row.id, row.version, changes, move, rated=rated, follow_up=follow_up
            ),
        )
        if game.is_over:
            self._live.pop(row.id, None)
        if follow_up is not None:
            await self._announce_second_game(row.id)

    async def _ending(self, result: ActionResult) -> ActionResult:
        """Add what a game's end brings to the result of the action that ended it: the rating
        changes, the match score, and the match's second game (announced as a follow-up)."""
        view = result.game
        if view is None or view.running:
            return result
        row = await self.store.game(view.id)
        if row is None:
            return result
        extra = []
        if row.white_rating_change is not None and row.black_rating_change is not None:
            assert row.guild_id is not None
            lines = []
            for uid, name, change in (
                (row.white_id, row.white_name, row.white_rating_change),
                (row.black_id, row.black_name, row.black_rating_change),
            ):
                rating = await self.store.rating(row.guild_id, uid, row.variant)
                shown = rating.glicko.shown() if rating else "?"  # just updated: no idle time
                lines.append(f"{name} {shown} ({change:+.0f})")
            extra.append("Ratings: " + ", ".join(lines) + ".")
        if row.match_id is not None:
            extra.append(await self._match_sentence(row))
        text = " ".join([result.text, *extra])
        return replace(result, text=text, follow_up=self._follow_ups.pop(view.id, None))

    async def _match_sentence(self, row: GameRow) -> str:
        """Where a match stands once one of its games has ended."""
        assert row.match_id is not None
        games = await self.store.match_games(row.match_id)
        first = games[0]
        if any(g.status == "aborted" for g in games):
            return "The match was abandoned."
        if len(games) == 1 or games[1].status == "running":
            return "Match game 2 follows, colours swapped."
        a = Player(first.white_id, first.white_name)
        b = Player(first.black_id, first.black_name)
        points = {a.id: 0.0, b.id: 0.0}
        for g in games:
            if g.winner is None:
                points[g.white_id] += 0.5
                points[g.black_id] += 0.5
            else:
                points[g.white_id if g.winner == "white" else g.black_id] += 1
        pa, pb = points[a.id], points[b.id]
        score = f"{a.name} {_points(pa)}–{_points(pb)} {b.name}"
        if pa == pb:
            return f"Match drawn: {score}."
        return f"Match won by {(a if pa > pb else b).name}: {score}."

    async def _second_game(
        self, first: GameRow
    ) -> tuple[dict[str, Any], list[tuple[int, str, str, int, float]]]:
        """Row values and opening moves of a match's second game: same place, variant, time
        and opening as the first, colours swapped."""
        _, values, opening_rows, _ = await self._new_game(
            guild_id=first.guild_id,
            channel_id=first.channel_id,
            white=Player(first.black_id, first.black_name),
            black=Player(first.white_id, first.white_name),
            variant=first.variant,
            move_time=first.move_time,
            opening=tuple(first.opening.split()),
            level=None,
            computer=None,
            match_id=first.id,
        )
        return values, opening_rows

    async def _announce_second_game(self, match_id: int) -> None:
        """Load a match's just-stored second game and keep its announcement for the action
        that ended the first (see :meth:`_ending`)."""
        games = await self.store.match_games(match_id)
        if len(games) == 2:
            second = games[1]
            self._follow_ups[match_id] = self._started(_Live(second, await self._replay(second)))

    @staticmethod
    def _state_columns(game: Game) -> dict[str, Any]:
        outcome = game.outcome
        count = game.advantage_count
        return {
            "ply": game.ply,
            "fen": game.position.fen(),
            "draw_offer": None if game.draw_offer is None else _color_label(game.draw_offer),
            "advantage_side": None if count is None else _color_label(count.side),
            "advantage_start_ply": None if count is None else count.start_ply,
            "status": "running"
            if outcome is None
            else ("aborted" if outcome.termination.value == "aborted" else "finished"),
            "result": None if outcome is None else outcome.result(game.variant),
            "termination": None if outcome is None else outcome.termination.value,
            "termination_detail": "" if outcome is None else outcome.words,
            "winner": None
            if outcome is None or outcome.winner is None
            else _color_label(outcome.winner),
        }

    @staticmethod
    def _clock_columns(
        game: Game,
        white_id: int,
        black_id: int,
        move_time: int,
        now: float,
        computer_id: int | None,
    ) -> dict[str, Any]:
        """Deadline and reminder time for the side to move (none for the computer or a finished
        game)."""
        if game.is_over:
            return {"deadline": None, "remind_at": None}
        to_move_id = white_id if game.turn is Color.WHITE else black_id
        if computer_id is not None and to_move_id == computer_id:
            return {"deadline": None, "remind_at": None}
        return {"deadline": now + move_time, "remind_at": now + move_time / 2}

    def _color_of(self, live: _Live, user_id: int) -> Color:
        row = live.row
        if user_id == row.white_id:
            return Color.WHITE
        if user_id == row.black_id:
            return Color.BLACK
        raise NotAPlayerError(
            f"you are not playing in this game ({row.white_name} v {row.black_name})"
        )

    @staticmethod
    def _player(row: GameRow, color: Color) -> Player:
        if color is Color.WHITE:
            return Player(row.white_id, row.white_name)
        return Player(row.black_id, row.black_name)

    def _view(self, live: _Live) -> GameView:
        row, game = live.row, live.game
        variant = game.variant
        outcome = game.outcome
        winner = None
        if outcome is not None and outcome.winner is not None:
            winner = self._player(row, outcome.winner)
        status = "running"
        if outcome is not None:
            status = "aborted" if outcome.termination.value == "aborted" else "finished"
        names = {Color.WHITE: row.white_name, Color.BLACK: row.black_name}
        return GameView(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            variant=variant.key,
            variant_title=variant.title,
            white=Player(row.white_id, row.white_name),
            black=Player(row.black_id, row.black_name),
            computer_level=row.computer_level,
            computer_id=row.computer_id,
            status=status,
            fen=game.position.fen(),
            ply=game.ply,
            move_number=game.move_number,
            turn=_color_label(game.turn),
            to_move=None if outcome is not None else self._player(row, game.turn),
            last_move=game.moves[-1].pdn() if game.moves else None,
            previous_fen=game.positions[-2].fen() if game.moves else None,
            status_line=game.status_line(names),
            status_parts=tuple(game.status_parts(names)) if outcome is None else (),
            draw_offer=None if game.draw_offer is None else _color_label(game.draw_offer),
            advantage_left=game.advantage_moves_left(),
            deadline=row.deadline if outcome is None else None,
            move_time=row.move_time,
            result=None if outcome is None else outcome.result(variant),
            termination=None if outcome is None else outcome.words,
            winner=winner,
            rated=bool(row.rated),
            match_id=row.match_id,
            match_game=None if row.match_id is None else (1 if row.match_id == row.id else 2),
            opening_label=self._opening_label(row.variant, row.opening),
            takeback_offer=row.takeback_offer if outcome is None else None,
        )

    @staticmethod
    def _opening_label(variant: str, opening: str) -> str | None:
        if variant != "english" or not opening:
            return None
        ballot = ballot_of(opening.split())
        return None if ballot is None else ballot.label

    def _challenge_view(self, row: ChallengeRow) -> ChallengeView:
        variant = find_variant(row.variant)
        return ChallengeView(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            challenger=Player(row.challenger_id, row.challenger_name),
            opponent=Player(row.opponent_id, row.opponent_name),
            variant=variant.key,
            variant_title=variant.title,
            color=row.color,
            move_time=row.move_time,
            thread=bool(row.thread),
            level=row.level,
            status=row.status,
            game_id=row.game_id,
            expires_at=row.expires_at,
            message_id=row.message_id,
            opening=row.opening,
            opening_label=self._opening_label(row.variant, row.opening),
            match=bool(row.match_play),
        )
