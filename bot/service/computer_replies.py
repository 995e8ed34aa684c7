"""The computer's side of a game, thought out away from the game: its moves and its answers to
draw offers.

A search takes up to the level's think time.  Held under the game's lock it made everything else
about that game wait (``/board``, ``/moves``, ``/games``, the player's own answer), so the
computer thinks on a copy of the game, in a task of its own per game, and comes back to the
game's lock only to play what it found, and only if the game is still where it was (the version
it read).  When someone acted meanwhile (a draw offer, a takeback, a resignation, another
process), the thought is dropped and the computer looks again.

Who shows the reply: the action that set the computer thinking (a move, a draw offer, a new game)
*claims* it, and the Discord layer shows it after that action's own answer (:meth:`collect`), so
the channel reads in order; a reply nobody claimed (resumed by the scheduler after a restart or a
failure) goes to :attr:`deliver`.  Either way the reply was written with its outbox entry, so a
reply nobody shows is still posted later.

A search that fails (the engine worker died) never takes the player's move with it: the failure
is logged and the scheduler asks again on its next tick.  When the computer cannot think at all
(:class:`~bot.service.computer.ComputerUnavailable`: its workers cannot start), the game waits
the same way, and its player is told so once (a :data:`Action.COMPUTER_AWAY` notice, shown as
a reply is), until the computer plays in that game again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from rules.game import Game
from rules.move import Move
from rules.notation import show_move
from rules.variants import Color

from ..i18n import _, join
from ..markdown import shown
from ..results import Action, ActionResult, MovePlayed, Player
from .computer import DEFAULT_LEVEL, ComputerPlayer, ComputerUnavailable
from .endings import Endings
from .live import Live, LiveGames, apply_rules
from .views import count_sentence, game_view

log = logging.getLogger(__name__)

MAX_RETHINKS = 5
"""Searches in a row thrown away because the game changed meanwhile, before the computer leaves
the game to the scheduler's next tick (someone offering and withdrawing draws all along)."""
CLOSE_GRACE_SECONDS = 2.0
"""How long a shutdown waits for replies being written or posted (searches are cancelled)."""


@dataclass(frozen=True)
class _Duty:
    """What the computer owes a game, read under its lock: its colour, its level, a copy of
    the game to think on, and the version the copy was taken at."""

    color: Color
    level: int
    game: Game
    version: int


@dataclass(frozen=True)
class _Decision:
    """What the computer chose: to accept the draw offered, to decline it, or a move."""

    accept: bool = False
    move: Move | None = None


class ComputerReplies:
    def __init__(
        self, live: LiveGames, computer: ComputerPlayer, endings: Endings, bot: Player
    ) -> None:
        self.live = live
        self.computer = computer
        self.endings = endings
        self.bot = bot
        self.deliver: Callable[[ActionResult], Awaitable[None]] | None = None
        """Where replies nobody claimed are shown (the Discord layer's channel post)."""
        self._thinking: dict[int, asyncio.Task[ActionResult | None]] = {}
        self._claims: dict[int, asyncio.Task[ActionResult | None]] = {}
        """Per game, the thinking task whose reply an action's caller will collect."""
        self._claimed: set[asyncio.Task[ActionResult | None]] = set()
        """Thinking tasks whose reply is collected, not delivered (until they end)."""
        self._searching: set[asyncio.Task[Any]] = set()
        self._all: set[asyncio.Task[ActionResult | None]] = set()
        self._told_away: set[int] = set()
        """Games whose player was told the computer cannot think now (told once each)."""
        self._closed = False

    def wake(self, game_id: int, *, claim: bool = False) -> None:
        """Have the computer look at ``game_id`` (it does nothing when it owes the game nothing).
        ``claim``: the caller will show the reply after its own answer (:meth:`collect`)."""
        if self._closed:
            return
        task = self._thinking.get(game_id)
        if task is None or task.done():
            task = asyncio.create_task(self._run(game_id), name=f"computer-game-{game_id}")
            self._thinking[game_id] = task
            self._all.add(task)
            task.add_done_callback(self._all.discard)
        if claim:
            self._claims[game_id] = task
            self._claimed.add(task)

    async def collect(self, game_id: int) -> ActionResult | None:
        """The reply claimed for ``game_id`` once it is played (None: nothing was claimed, the
        computer owed nothing, failed, or is being shut down)."""
        task = self._claims.pop(game_id, None)
        if task is None:
            return None
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                return None  # the search was stopped by a shutdown; the caller goes on
            raise

    async def settle(self) -> None:
        """Wait until the computer has finished thinking in every game (and shown its unclaimed
        replies): a test's way to see what it did."""
        while self._all:
            await asyncio.gather(*list(self._all), return_exceptions=True)

    async def close(self) -> None:
        """Stop thinking: searches are cancelled (their games are picked up after the restart),
        replies being written or posted get :data:`CLOSE_GRACE_SECONDS`."""
        self._closed = True
        for task in list(self._searching):
            task.cancel()
        pending = list(self._all)
        if pending:
            _done, late = await asyncio.wait(pending, timeout=CLOSE_GRACE_SECONDS)
            for task in late:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

    async def _run(self, game_id: int) -> ActionResult | None:
        task = asyncio.current_task()
        assert task is not None
        try:
            result = await self._reply(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer failed to reply in game %s; retried next tick", game_id)
            return None
        finally:
            if self._thinking.get(game_id) is task:
                del self._thinking[game_id]
            claimed = task in self._claimed
            self._claimed.discard(task)
        if result is None or claimed or self.deliver is None:
            return result
        try:
            await self.deliver(result)
        except Exception:  # it stays owed in the outbox, posted later
            log.exception("showing the computer's reply in game %s failed", game_id)
        return result

    async def _reply(self, game_id: int) -> ActionResult | None:
        """Think (off the lock) and play what was found, looking again when the game changed
        during the search."""
        for _attempt in range(MAX_RETHINKS):
            async with self.live.lock(game_id):
                duty = await self._duty(game_id)
            if duty is None:
                return None
            try:
                decision = await self._search(duty)
            except ComputerUnavailable:
                return await self._away(game_id)
            async with self.live.lock(game_id):
                live = await self.live.load_quietly(game_id)
                if live is None:
                    return None
                if live.row.version == duty.version:
                    self._told_away.discard(game_id)
                    return await self._play(live, duty.color, decision)
        log.info("game %s kept changing while the computer thought; left to the scheduler", game_id)
        return None

    async def _away(self, game_id: int) -> ActionResult | None:
        """The notice that the computer cannot think now and the game waits for it, to its
        player, the first time in this game (None afterwards: the scheduler's every tick asks
        again, quietly; the pool logged the cause once)."""
        if game_id in self._told_away:
            return None
        async with self.live.lock(game_id):
            live = await self.live.load_quietly(game_id)
            if live is None:
                return None
            row = live.row
            view = game_view(row, live.game)
        self._told_away.add(game_id)
        player = row.black_id if row.white_id == row.computer_id else row.white_id
        return ActionResult(
            Action.COMPUTER_AWAY,
            _(
                "The computer is unavailable right now; your game waits, and it will move as "
                "soon as it is back."
            ),
            game=view,
            mentions=(player,),
        )

    async def _duty(self, game_id: int) -> _Duty | None:
        """What the computer owes ``game_id`` now: a move on its turn, or an answer to a draw
        offered to it (call under the game's lock)."""
        live = await self.live.load_quietly(game_id)
        if live is None:
            return None
        row, game = live.row, live.game
        if row.computer_id is None or game.is_over:
            return None
        color = Color.WHITE if row.white_id == row.computer_id else Color.BLACK
        if game.turn is not color and game.draw_offer is not color.other:
            return None
        return _Duty(color, row.computer_level or DEFAULT_LEVEL, game.copy(), row.version)

    async def _search(self, duty: _Duty) -> _Decision:
        """The computer's choice, on its copy of the game; cancelled by :meth:`close`."""
        task = asyncio.current_task()
        assert task is not None
        self._searching.add(task)
        try:
            game = duty.game
            if game.draw_offer is duty.color.other and await self.computer.answer_draw(
                game, duty.level
            ):
                return _Decision(accept=True)
            if game.turn is not duty.color:
                return _Decision()  # declined; not its turn to move
            return _Decision(move=await self.computer.choose_move(game, duty.level))
        finally:
            self._searching.discard(task)

    async def _play(self, live: Live, color: Color, decision: _Decision) -> ActionResult:
        """Play ``decision`` in the game (unchanged since the search) and word it; under the
        game's lock.  The move is checked by the rules like any player's."""
        game = live.game
        bot = shown(self.bot.name)
        if decision.accept:
            apply_rules(lambda: game.accept_draw(color))
            event = await self.live.save(
                live, user_id=self.bot.id, moved=False, announce=Action.DRAW_ACCEPTED
            )
            view = game_view(live.row, game)
            return await self.endings.board_result(
                Action.DRAW_ACCEPTED,
                _("{name} accepted the draw.", name=bot),
                view,
                event=event,
            )
        if decision.move is None:
            apply_rules(lambda: game.decline_draw(color))
            event = await self.live.save(
                live, user_id=self.bot.id, moved=False, announce=Action.DRAW_DECLINED
            )
            view = game_view(live.row, game)
            return ActionResult(
                Action.DRAW_DECLINED,
                join(
                    (
                        _("{name} declined the draw.", name=bot),
                        count_sentence(view, live.row, game),
                    )
                ),
                game=view,
                mentions=tuple(p.id for p in (view.white, view.black) if p.id != self.bot.id),
                event=event,
            )
        chosen = decision.move
        if chosen not in game.legal_moves():
            raise RuntimeError(f"the computer chose {chosen.pdn()}, which is not legal here")
        move = apply_rules(lambda: game.play(chosen))
        event = await self.live.save(live, user_id=self.bot.id, moved=True, announce=Action.MOVED)
        view = game_view(live.row, game)
        text = show_move(move, game.variant)
        played = (MovePlayed(game.ply, move.pdn(), self.bot, True, text),)
        # A reply the player's own action is waiting for is shown to them at once; one made in
        # the background (after a restart) may find them away, so it may message them.
        human = live.row.black_id if color is Color.WHITE else live.row.white_id
        claimed = asyncio.current_task() in self._claimed
        return await self.endings.board_result(
            Action.MOVED,
            _("{name} played {move}.", name=bot, move=text),
            view,
            played,
            event=event,
            actor=human if claimed else None,
        )
