"""Starting a game: colours, the opening, and the announcement.

A game is born whole: its row and its opening moves are stored in one transaction, together with
the challenge it answers, so two accepts can never both start one.  When the computer has the
first move, it is woken once the game is stored and thinks like on any other turn
(:mod:`bot.service.computer_replies`); the announcement does not wait for its search.

What the game shows for its whole life is fixed here: the server's board orientation at the start,
and in a rated game both players' ratings as standings showed them then.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rules.variants import Color, find_variant

from ..enums import ColorChoice, Orientation, TimePool
from ..errors import ChallengeError, ConflictError
from ..i18n import _
from ..results import Action, ActionResult, Player, TimeControl
from ..store import ChallengeClosed, ChannelBusy, GameRow, Store
from .events import new_event
from .ladder import shown_rating
from .live import Live, LiveGames
from .notices import Notices
from .records import new_game_row, play_opening
from .settings import SettingsBook
from .views import game_view


class Starter:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        settings: SettingsBook,
        notices: Notices,
        *,
        bot: Player,
        clock: Callable[[], float],
        rng: random.Random,
        wake_computer: Callable[[int], None],
    ) -> None:
        """``wake_computer(game_id)``: set the computer thinking in a game just stored where it
        has the first move (its reply is claimed by the start's announcement)."""
        self.store = store
        self.live = live
        self.settings = settings
        self.notices = notices
        self.wake_computer = wake_computer
        self.bot = bot
        self.clock = clock
        self.rng = rng

    async def start(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        variant: str,
        color: ColorChoice,
        move_time: int,
        opening: Sequence[str],
        level: int | None,
        challenge_id: int | None,
        match: bool = False,
        actor: int | None = None,
        clock: TimeControl | None = None,
        start_fen: str | None = None,
    ) -> ActionResult:
        """Store a new game (accepting ``challenge_id`` with it) and announce it; ``actor``
        started it (and needs no message that it is their move); ``start_fen``: the position
        it starts from (checked; None: the variant's start)."""
        if color is ColorChoice.RANDOM:
            color = self.rng.choice((ColorChoice.WHITE, ColorChoice.BLACK))
        white, black = (
            (challenger, opponent) if color is ColorChoice.WHITE else (opponent, challenger)
        )
        computer = self.bot.id if opponent.id == self.bot.id else None
        server = await self.settings.get(guild_id)
        ratings: tuple[str | None, str | None] = (None, None)
        now = self.clock()
        if guild_id is not None and computer is None and start_fen is None:
            pool = TimePool.CORRESPONDENCE if clock is None else clock.pool
            ratings = (
                await self._rating(guild_id, white.id, variant, pool, now),
                await self._rating(guild_id, black.id, variant, pool, now),
            )
        game, moves = play_opening(find_variant(variant), opening, white, black, now, start_fen)
        record = new_game_row(
            game,
            moves,
            guild_id=guild_id,
            channel_id=channel_id,
            white=white,
            black=black,
            move_time=move_time,
            opening=opening,
            level=level,
            computer=computer,
            match_id=None,
            first_of_match=match,
            now=now,
            flip=server.orientation is Orientation.BLACK,
            ratings=ratings,
            control=clock,
        )
        event = new_event(Action.GAME_STARTED, channel_id=channel_id, guild_id=guild_id, now=now)
        try:
            game_id = await self.store.start_game(record, challenge_id, event)
        except ChannelBusy:
            raise ChallengeError(_("a game is already running in that channel")) from None
        except ChallengeClosed:
            raise ConflictError(_("the challenge is no longer open")) from None
        row = await self.store.game(game_id)
        assert row is not None
        result = self.started(Live(row, game), event=event.id)
        if computer is not None and (white if game.turn is Color.WHITE else black).id == computer:
            self.wake_computer(game_id)
        return await self.notices.turn(result, actor=actor)

    async def _rating(
        self, guild_id: int, user_id: int, variant: str, pool: TimePool, now: float
    ) -> str:
        """A player's rating in ``variant`` and ``pool`` as a new game's board shows it
        (``1523``, ``1500?`` before any rated game there)."""
        key = find_variant(variant).key
        return shown_rating(await self.store.rating(guild_id, user_id, key, pool), now)

    async def announce_stored(self, row: GameRow, event: str | None) -> ActionResult:
        """The announcement of a game stored by another path (a match's second game); ``event``
        is the outbox entry stored with it, if any."""
        result = self.started(Live(row, await self.live.replay(row)), event=event)
        return await self.notices.turn(result)

    def started(self, live: Live, *, event: str | None) -> ActionResult:
        """The announcement of a game that has just been stored (a clocked game's flag timer is
        armed, and its first turn starts again when this board is shown)."""
        self.live.remember(live)
        self.live.deadline_moved(live.row)
        if event is not None and live.row.clock_base is not None:
            self.live.turns_shown[event] = (live.row.id, live.game.ply)
        view = game_view(live.row, live.game)
        white, black = view.white, view.black
        # Who plays which side and the variant are on the board message already.
        ballot = view.opening_label
        if view.match_game is None:
            if view.start_fen is not None:
                heading = _("New game, from a position of its own (unrated).")
            elif ballot is None:
                heading = _("New game.")
            else:
                heading = _("New game, from the ballot {ballot}.", ballot=ballot)
        elif ballot is None:
            heading = _("Match game {number} of 2.", number=view.match_game)
        else:
            heading = _(
                "Match game {number} of 2, from the ballot {ballot}.",
                number=view.match_game,
                ballot=ballot,
            )
        return ActionResult(
            Action.GAME_STARTED,
            heading,
            game=view,
            post_board=True,
            mentions=tuple(p.id for p in (white, black) if p.id != self.bot.id),
            event=event,
        )
