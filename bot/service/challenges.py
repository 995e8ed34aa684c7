"""Challenges: making one (or starting at once against the computer), answering it, rematches.

Every check a challenge needs is made before anything is written, in :meth:`Challenges.prepare`,
which :meth:`Challenges.check_challenge` runs alone: the Discord layer asks first and only then
defers a slow start, so a refusal is always answered privately.  One open challenge per
challenger and channel is the database's rule (:class:`~bot.store.errors.ChallengeOpen`), so two
racing challenges cannot both be posted.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Unpack

from rules.ballots import draw_ballot
from rules.variants import find_variant

from ..enums import ChallengeStatus, ColorChoice, GameStatus, ThreadMode
from ..errors import (
    ChallengeError,
    ConflictError,
    GameOverError,
    NotAPlayerError,
    NotFoundError,
    ThreadRequired,
)
from ..i18n import _, from_rules
from ..markdown import shown
from ..results import (
    MAX_RATING,
    Action,
    ActionResult,
    ChallengeTerms,
    ChallengeView,
    Player,
    TimeControl,
)
from ..store import ChallengeOpen, ChallengeRow, GameRow, NewChallenge, Store
from ..words import CHALLENGE_STATUS, variant_title
from .challenge_terms import (
    Terms,
    check_range,
    checked_color,
    checked_opening,
    checked_start,
)
from .clocks import control_of
from .computer import DEFAULT_LEVEL
from .events import new_event
from .settings import SettingsBook
from .standings import challenge_rating
from .starting import Starter
from .views import (
    challenge_closed_text,
    challenge_mentions,
    challenge_text,
    challenge_view,
    clean_name,
    start_of,
)

LEVELS = range(1, 7)
DAY = 24 * 3600.0
OPEN_CHALLENGE = _("you already have an open challenge in this channel: cancel it first")
BUSY_NO_THREADS = _(
    "a game is already running here, and this server plays without threads: wait for it to end"
)


class Challenges:
    def __init__(
        self,
        store: Store,
        settings: SettingsBook,
        starter: Starter,
        *,
        bot: Player,
        clock: Callable[[], float],
        rng: random.Random,
        expiry: float,
        expiry_cap: float = DAY,
    ) -> None:
        """See :meth:`expires_after` for ``expiry`` and ``expiry_cap``."""
        self.store = store
        self.settings = settings
        self.starter = starter
        self.bot = bot
        self.clock = clock
        self.rng = rng
        self.expiry = expiry
        self.expiry_cap = expiry_cap

    def expires_after(self, move_time: int) -> float:
        """How long a challenge with ``move_time`` seconds per move stays open: at least as
        long as one move may take (someone asked to play a move a day may fairly answer within
        the day), capped at ``expiry_cap`` (a day: an open challenge holds its channel's
        challenger to it), and never less than the configured ``expiry``.  The cap is the
        knob for a short life: with a cap at or below ``expiry`` (the tests' setting) every
        challenge lasts exactly ``expiry``."""
        return max(self.expiry, min(float(move_time), self.expiry_cap))

    async def challenge(
        self, *, guild_id: int | None, **terms: Unpack[ChallengeTerms]
    ) -> ActionResult:
        """Post a challenge, or start a game at once when the opponent is the bot itself (in
        ``thread_id`` when given; :class:`ThreadRequired` when a thread is wanted or the channel
        is busy and none is given)."""
        t = await self.prepare(guild_id=guild_id, **terms)
        now = self.clock()
        if t.opponent is not None and t.opponent.id == self.bot.id:
            return await self.starter.start(
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
                actor=t.challenger.id,
                start_fen=t.start_fen,
            )
        await self._busy_here(guild_id, t.channel_id, t.thread)
        stale = await self.store.open_challenge_of(t.challenger.id, t.channel_id)
        if stale is not None and stale.expires_at <= now:
            # Expired but not yet swept by the scheduler: it must not block a new challenge.
            await self.store.close_challenge(stale.id, ChallengeStatus.EXPIRED, now)
        created = new_event(
            Action.CHALLENGE_CREATED, channel_id=t.channel_id, guild_id=guild_id, now=now
        )
        try:
            challenge_id = await self.store.insert_challenge(
                NewChallenge(
                    guild_id=guild_id,
                    channel_id=t.channel_id,
                    challenger_id=t.challenger.id,
                    challenger_name=t.challenger.name,
                    opponent_id=None if t.opponent is None else t.opponent.id,
                    opponent_name=None if t.opponent is None else t.opponent.name,
                    variant=t.variant.key,
                    color=t.color,
                    move_time=t.move_time,
                    thread=t.thread,
                    opening=" ".join(t.opening),
                    match_play=t.match,
                    created_at=now,
                    min_rating=t.min_rating,
                    max_rating=t.max_rating,
                    # a clocked game is played at once or not at all: the shortest expiry
                    expires_at=now + self.expires_after(t.move_time if t.clock is None else 0),
                    clock_base=None if t.clock is None else t.clock.base,
                    clock_increment=None if t.clock is None else t.clock.increment,
                    start_fen=t.start_fen,
                ),
                created,
            )
        except ChallengeOpen:
            raise ChallengeError(OPEN_CHALLENGE) from None
        view = await self.challenge_view(challenge_id)
        return ActionResult(
            Action.CHALLENGE_CREATED,
            challenge_text(view),
            challenge=view,
            mentions=challenge_mentions(view),
            event=created.id,
        )

    async def check_challenge(
        self, *, guild_id: int | None = None, **terms: Unpack[ChallengeTerms]
    ) -> bool:
        """Refuse what :meth:`challenge` would refuse (including :class:`ThreadRequired`),
        without writing.  For a challenge between people, whether accepting it will need a new
        thread (one was asked for or the server always uses them, or the channel has a game), so
        a place that cannot hold one is refused at once."""
        t = await self.prepare(guild_id=guild_id, **terms)
        if t.opponent is not None and t.opponent.id == self.bot.id:
            return False  # a needed thread was refused above (ThreadRequired) or is given
        stale = await self.store.open_challenge_of(t.challenger.id, t.channel_id)
        if stale is not None and stale.expires_at > self.clock():
            raise ChallengeError(OPEN_CHALLENGE)
        return t.thread or await self._busy_here(guild_id, t.channel_id, t.thread)

    async def _busy_here(self, guild_id: int | None, channel_id: int, thread: bool) -> bool:
        """Whether the channel has a game already; refused outright when a challenge without a
        thread of its own would need one for that and the server plays without threads."""
        busy = await self.store.running_game_in(channel_id) is not None
        if busy and not thread and (await self.settings.get(guild_id)).threads is ThreadMode.NEVER:
            raise ChallengeError(BUSY_NO_THREADS)
        return busy

    async def prepare(
        self,
        *,
        channel_id: int,
        challenger: Player,
        opponent: Player | None,
        variant: str | None = None,
        color: ColorChoice | str = ColorChoice.RANDOM,
        move_time: int | None = None,
        clock: TimeControl | None = None,
        thread: bool = False,
        opening: Sequence[str] = (),
        ballot: bool = False,
        match: bool = False,
        level: int | None = None,
        thread_id: int | None = None,
        parent_id: int | None = None,
        guild_id: int | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        start_fen: str | None = None,
    ) -> Terms:
        """The checks of a challenge, and its terms with the defaults filled in (the server's
        settings first), the opening's moves read and the names cleaned."""
        server = await self.settings.get(guild_id)
        server.check_channel(channel_id, parent_id)
        try:
            rules_variant = find_variant(variant or server.variant)
        except ValueError as exc:
            raise ChallengeError(from_rules(exc)) from None
        if move_time is None:
            move_time = server.move_time
        chosen = checked_color(color)
        if move_time <= 0:
            raise ChallengeError(_("the time per move must be positive"))
        if opponent is not None and challenger.id == opponent.id:
            raise ChallengeError(_("you cannot challenge yourself"))
        if challenger.id == self.bot.id:
            raise ChallengeError(_("the computer does not issue challenges"))
        against_computer = opponent is not None and opponent.id == self.bot.id
        check_range(opponent, min_rating, max_rating)
        if level is not None and level not in LEVELS:
            raise ChallengeError(_("the level must be between 1 and 6"))
        if match and against_computer:
            raise ChallengeError(_("matches are played between two people; challenge a person"))
        if clock is not None:
            clock.playable()
            if against_computer:
                raise ChallengeError(
                    _(
                        "the computer plays without a clock (its level sets how long it "
                        "thinks); leave the clock out"
                    )
                )
        if ballot:
            if opening:
                raise ChallengeError(_("choose either a ballot or opening moves, not both"))
            if rules_variant.key != "english":
                raise ChallengeError(
                    _(
                        "ballot openings exist for English draughts only (the ACF three-move "
                        "ballot); other variants have no sound published list"
                    )
                )
            opening = draw_ballot(self.rng).moves
        start = checked_start(rules_variant, start_fen)
        if start is not None and (opening or match):
            raise ChallengeError(
                _("a game from a position is a single game without opening moves or a ballot")
            )
        opening_moves = checked_opening(rules_variant, opening)
        if server.threads is ThreadMode.NEVER and thread:
            raise ChallengeError(
                _("this server plays games in the channel itself, without threads")
            )
        if server.threads is ThreadMode.ALWAYS and parent_id is None:
            thread = True
        if (
            against_computer
            and thread_id is None
            and (thread or await self.store.running_game_in(channel_id) is not None)
        ):
            if server.threads is ThreadMode.NEVER:
                raise ChallengeError(BUSY_NO_THREADS)
            raise ThreadRequired("the game needs a thread")
        return Terms(
            channel_id=channel_id,
            challenger=Player(challenger.id, clean_name(challenger.name)),
            opponent=None if opponent is None else Player(opponent.id, clean_name(opponent.name)),
            variant=rules_variant,
            color=chosen,
            move_time=move_time,
            clock=clock,
            thread=thread,
            opening=opening_moves,
            match=match,
            level=level,
            thread_id=thread_id,
            min_rating=min_rating,
            max_rating=max_rating,
            start_fen=start,
        )

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise NotFoundError(_("that challenge does not exist"))
        if row.status is not ChallengeStatus.OPEN:
            raise GameOverError(
                _(
                    "that challenge is no longer open ({status})",
                    status=CHALLENGE_STATUS[row.status],
                )
            )
        if row.expires_at <= self.clock():
            raise GameOverError(_("that challenge has expired"))
        return row

    async def needs_thread(self, challenge_id: int) -> bool:
        """Whether accepting ``challenge_id`` starts the game in a new thread."""
        return await self._needs_thread(await self._open_challenge(challenge_id))

    async def _needs_thread(self, row: ChallengeRow) -> bool:
        """Whether the challenge's game goes to a new thread; refused when the channel is busy
        and the server opens no threads."""
        return row.thread or await self._busy_here(row.guild_id, row.channel_id, False)

    async def accept(
        self,
        challenge_id: int,
        user_id: int,
        *,
        name: str = "",
        thread_id: int | None = None,
    ) -> ActionResult:
        """The challenged user accepts (anyone but the challenger and the computer, within its
        rating range, an open challenge; ``name``: theirs, shown in the game): the game starts
        in the challenge's channel, or in the thread ``thread_id`` (required when the challenge
        asked for one or the channel is busy: :class:`ThreadRequired` says so).  Of two people
        accepting an open challenge at once exactly one starts the game: the store accepts a
        challenge only while it is open, and the other is told it no longer is."""
        row = await self._open_challenge(challenge_id)
        opponent = await self._accepter(row, user_id, name)
        channel = row.channel_id
        if thread_id is not None:
            channel = thread_id
        elif await self._needs_thread(row):
            # The game in the channel may be this challenge's, started by a racing accept (in
            # another process, on PostgreSQL): then it is no longer open, and that is the answer.
            await self._open_challenge(challenge_id)
            raise ThreadRequired("the game needs a thread")
        try:
            return await self._start_accepted(row, opponent, channel, user_id)
        except ChallengeError:
            # A busy channel may be this challenge's own game, started by someone accepting
            # it at the same moment (in another process): then it is no longer open, and that
            # is the answer.
            await self._open_challenge(challenge_id)
            raise

    async def _start_accepted(
        self, row: ChallengeRow, opponent: Player, channel: int, user_id: int
    ) -> ActionResult:
        return await self.starter.start(
            guild_id=row.guild_id,
            channel_id=channel,
            challenger=Player(row.challenger_id, row.challenger_name),
            opponent=opponent,
            variant=row.variant,
            color=row.color,
            move_time=row.move_time,
            opening=tuple(row.opening.split()),
            level=None,
            challenge_id=row.id,
            match=row.match_play,
            actor=user_id,
            clock=control_of(row),
            start_fen=row.start_fen,
        )

    async def _accepter(self, row: ChallengeRow, user_id: int, name: str) -> Player:
        """Who accepts ``row``: its named opponent alone; an open challenge anyone but its
        challenger and the computer, whose rating lies in its range."""
        if row.opponent_id is not None:
            if user_id != row.opponent_id:
                raise NotAPlayerError(
                    _("only {name} can accept this challenge", name=shown(row.opponent_name or ""))
                )
            return Player(row.opponent_id, row.opponent_name or "")
        if user_id == row.challenger_id:
            raise NotAPlayerError(
                _("this is your own challenge: wait for someone to accept it, or cancel it")
            )
        if user_id == self.bot.id:
            raise NotAPlayerError(_("the computer does not accept open challenges"))
        if row.min_rating is not None or row.max_rating is not None:
            rating = await challenge_rating(self.store, row, user_id)
            low = row.min_rating if row.min_rating is not None else 0
            high = row.max_rating if row.max_rating is not None else MAX_RATING
            if not low <= rating <= high:
                raise ChallengeError(
                    _(
                        "this challenge is for players rated {low} to {high}; your {variant} "
                        "rating here is {rating}",
                        low=low,
                        high=high,
                        variant=variant_title(find_variant(row.variant)),
                        rating=rating,
                    )
                )
        return Player(user_id, clean_name(name))

    async def open_challenges(self, guild_id: int | None) -> list[ChallengeView]:
        """The server's open challenges anyone may accept (``/lobby``), oldest first."""
        if guild_id is None:
            return []
        rows = await self.store.open_challenges_in(guild_id, self.clock())
        return [challenge_view(row) for row in rows]

    async def decline(self, challenge_id: int, user_id: int) -> ActionResult:
        row = await self._open_challenge(challenge_id)
        if row.opponent_id is None:
            raise NotAPlayerError(
                _(
                    "an open challenge is not declined: leave it for someone else "
                    "(its challenger may cancel it)"
                )
            )
        if user_id != row.opponent_id:
            raise NotAPlayerError(
                _("only {name} can decline this challenge", name=shown(row.opponent_name))
            )
        return await self._close(
            row,
            ChallengeStatus.DECLINED,
            Action.CHALLENGE_DECLINED,
            mention=row.challenger_id,
        )

    async def cancel(self, challenge_id: int, user_id: int) -> ActionResult:
        row = await self._open_challenge(challenge_id)
        if user_id != row.challenger_id:
            raise NotAPlayerError(
                _("only {name} can cancel this challenge", name=shown(row.challenger_name))
            )
        return await self._close(
            row,
            ChallengeStatus.CANCELLED,
            Action.CHALLENGE_CANCELLED,
            mention=row.opponent_id,
        )

    async def _close(
        self, row: ChallengeRow, status: ChallengeStatus, action: Action, mention: int | None
    ) -> ActionResult:
        now = self.clock()
        event = new_event(
            action, channel_id=row.channel_id, guild_id=row.guild_id, challenge_id=row.id, now=now
        )
        if not await self.store.close_challenge(row.id, status, now, event):
            raise ConflictError(_("the challenge was answered meanwhile"))
        view = await self.challenge_view(row.id)
        return ActionResult(
            action,
            challenge_closed_text(action, view),
            challenge=view,
            mentions=() if mention is None else (mention,),
            event=event.id,
        )

    async def challenge_view(self, challenge_id: int) -> ChallengeView:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise NotFoundError(_("that challenge does not exist"))
        return challenge_view(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message showing the challenge (its buttons go when it expires)."""
        await self.store.set_challenge_message(challenge_id, message_id)

    async def _is_rematch(
        self, pending: ChallengeRow, game: GameRow, me: int, mine: ColorChoice
    ) -> bool:
        """Whether ``pending``, the other player's open challenge in the game's channel, is the
        rematch their own press offered: to ``me``, colours swapped as Rematch swaps them
        (``mine`` is my colour in it), and the game's variant, time per move and opening, as a
        single game (a rematch is never a match; rated as the game was, since the same two
        people in the same server are), from the game's start position, and without a thread
        of its own unless the server puts every game in one.  Any other challenge of theirs,
        however alike, is a different offer and is left alone: accepting it would start a game
        nobody asked for."""
        theirs = ColorChoice.WHITE if mine is ColorChoice.BLACK else ColorChoice.BLACK
        if not (
            pending.opponent_id == me
            and pending.expires_at > self.clock()
            and pending.color is theirs
            and pending.variant == game.variant
            and pending.move_time == game.move_time
            and control_of(pending) == control_of(game)
            and pending.opening.split() == game.opening.split()
            and pending.start_fen == start_of(game)
            and not pending.match_play
            and pending.level is None
            and pending.guild_id == game.guild_id
        ):
            return False
        return not pending.thread or (
            (await self.settings.get(game.guild_id)).threads is ThreadMode.ALWAYS
        )

    async def rematch(
        self,
        game_id: int,
        user_id: int,
        *,
        thread_id: int | None = None,
        parent_id: int | None = None,
    ) -> ActionResult:
        """A player of a finished game asks for a return game: same variant, time, place and
        opening (a balloted game is replayed from the same ballot, a game from a position from
        that position), colours swapped.  Against
        the computer it starts at once (like :meth:`challenge`); otherwise it is a challenge
        the other player answers."""
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(_("there is no game #{id}", id=game_id))
        if row.status is GameStatus.RUNNING:
            raise ChallengeError(_("game #{id} is still running", id=game_id))
        if user_id not in (row.white_id, row.black_id):
            raise NotAPlayerError(
                _(
                    "only {white} and {black} can ask for a rematch",
                    white=shown(row.white_name),
                    black=shown(row.black_name),
                )
            )
        white = Player(row.white_id, row.white_name)
        black = Player(row.black_id, row.black_name)
        me, other = (white, black) if user_id == row.white_id else (black, white)
        mine = ColorChoice.BLACK if me is white else ColorChoice.WHITE
        pending = await self.store.open_challenge_of(other.id, row.channel_id)
        if pending is not None and await self._is_rematch(pending, row, me.id, mine):
            # Both pressed Rematch: the second press answers the first.
            started = await self.accept(pending.id, me.id, thread_id=thread_id)
            return replace(started, challenge=await self.challenge_view(pending.id))
        return await self.challenge(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            challenger=me,
            opponent=other,
            variant=row.variant,
            color=mine,
            move_time=row.move_time,
            clock=control_of(row),
            opening=tuple(row.opening.split()),
            level=row.computer_level,
            thread_id=thread_id,
            parent_id=parent_id,
            start_fen=start_of(row),
        )
