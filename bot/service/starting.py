"""Starting a game: colours, the opening, and the announcement.

A game is born whole: its row and its opening moves are stored in one transaction, together with
the challenge it answers, so two accepts can never both start one.  When the computer has the
first move, it is woken once the game is stored and thinks like on any other turn
(:mod:`bot.service.computer_replies`); the announcement does not wait for its search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rules.variants import Color, find_variant

from ..enums import ColorChoice
from ..errors import ChallengeError, ConflictError
from ..markdown import shown
from ..results import Action, ActionResult, Player
from ..store import ChallengeClosed, ChannelBusy, GameRow, Store
from .events import new_event
from .live import Live, LiveGames
from .records import new_game_row, play_opening
from .views import after_move_text, game_view


class Starter:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
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
    ) -> ActionResult:
        """Store a new game (accepting ``challenge_id`` with it) and announce it."""
        if color is ColorChoice.RANDOM:
            color = self.rng.choice((ColorChoice.WHITE, ColorChoice.BLACK))
        white, black = (
            (challenger, opponent) if color is ColorChoice.WHITE else (opponent, challenger)
        )
        computer = self.bot.id if opponent.id == self.bot.id else None
        now = self.clock()
        game, moves = play_opening(find_variant(variant), opening, white, black, now)
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
        )
        event = new_event(Action.GAME_STARTED, channel_id=channel_id, guild_id=guild_id, now=now)
        try:
            game_id = await self.store.start_game(record, challenge_id, event)
        except ChannelBusy:
            raise ChallengeError("a game is already running in that channel") from None
        except ChallengeClosed as exc:
            raise ConflictError(str(exc)) from None
        row = await self.store.game(game_id)
        assert row is not None
        result = self.started(Live(row, game), event=event.id)
        if computer is not None and (white if game.turn is Color.WHITE else black).id == computer:
            self.wake_computer(game_id)
        return result

    async def announce_stored(self, row: GameRow, event: str | None) -> ActionResult:
        """The announcement of a game stored by another path (a match's second game); ``event``
        is the outbox entry stored with it, if any."""
        return self.started(Live(row, await self.live.replay(row)), event=event)

    def started(self, live: Live, *, event: str | None) -> ActionResult:
        """The announcement of a game that has just been stored."""
        self.live.remember(live)
        view = game_view(live.row, live.game)
        white, black = view.white, view.black
        heading = f"{shown(white.name)} (White) v {shown(black.name)} (Black): {view.variant_title}"
        if view.match_game is not None:
            heading += f", match game {view.match_game} of 2"
        if view.opening_label is not None:
            heading += f", from the ballot {view.opening_label}"
        return ActionResult(
            Action.GAME_STARTED,
            f"{heading}. {after_move_text(view)}",
            game=view,
            post_board=True,
            mentions=tuple(p.id for p in (white, black) if p.id != self.bot.id),
            event=event,
        )
