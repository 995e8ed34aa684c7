"""Taking moves back: granted at once against the computer, by agreement between people.

A rated game is only ever taken back when both players agree (the request and the accept), and
the taken-back moves are kept in the store's archive rather than lost.  One request can wait at a
time, a declined request cannot be repeated in the same position, and a move lapses a pending
request (see :meth:`~bot.service.live.LiveGames.save`).  Each request pings the opponent, so a
player asks again only :data:`~bot.service.live.ASK_PAUSE_PLIES` plies after their last request
(unless it was granted).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.game import GameError
from rules.variants import Color

from ..enums import Side
from ..errors import TakebackError
from ..i18n import _, from_rules
from ..markdown import shown
from ..results import Action, ActionResult, Player
from . import clocks
from .live import Ask, Live, LiveGames, color_of
from .notices import Notices
from .records import clock_changes, state_changes
from .views import game_view, mentions_after, player


def _takeback_plies(live: Live, color: Color) -> int:
    """How many plies taking back ``color``'s last move removes: one if it is the opponent's
    turn, two (the reply too) if it is ``color``'s.  The opening that was set before the game
    (a ballot) cannot be taken back."""
    game, row = live.game, live.row
    plies = 1 if game.turn is color.other else 2
    fixed = len(row.opening.split())
    if game.ply - plies < fixed:
        raise TakebackError(_("you have no move of your own to take back yet"))
    return plies


class Takebacks:
    def __init__(
        self, live: LiveGames, notices: Notices, *, bot: Player, clock: Callable[[], float]
    ) -> None:
        self.live = live
        self.notices = notices
        self.bot = bot
        self.clock = clock

    async def request_takeback(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """A player asks to take back their last move (and the opponent's reply, if one has
        been played since).  Against the computer it is granted at once (those games are
        unrated); between people the opponent must agree, which is also the only way a rated
        game can be taken back: both players agree, or nothing changes."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = color_of(live, user_id)
            row = live.row
            plies = _takeback_plies(live, color)
            me = player(row, color)
            other = player(row, color.other)
            if row.computer_id is not None:
                event = await self._take_back(live, plies)
                view = game_view(live.row, live.game)
                taken = ActionResult(
                    Action.TAKEBACK_ACCEPTED,
                    _("{name} took back their last move.", name=shown(me.name))
                    if plies == 1
                    else _("{name} took back their last move and the reply.", name=shown(me.name)),
                    game=view,
                    post_board=True,
                    mentions=mentions_after(view, self.bot.id),
                    event=event,
                )
                return await self.notices.turn(taken, actor=user_id)
            if row.takeback_offer is not None:
                await self.live.ensure_fresh(live)
                asker = shown(player(row, row.takeback_offer).name)
                raise TakebackError(
                    _("{name}'s takeback request is waiting for an answer", name=asker)
                )
            if row.takeback_refused_ply == live.game.ply:
                await self.live.ensure_fresh(live)
                raise TakebackError(
                    _(
                        "a takeback was already declined in this position; play on, or ask after "
                        "the next move"
                    )
                )
            live.require_pause(Ask.TAKEBACK, color)
            event = await self.live.save_row(
                live, {"takeback_offer": Side.of(color)}, Action.TAKEBACK_OFFERED
            )
            live.asked[Ask.TAKEBACK, color] = live.game.ply
        view = game_view(live.row, live.game)
        names = {"name": shown(me.name), "other": shown(other.name)}
        if plies == 1:
            asked = _(
                "{name} asks to take back their last move. {other}, accept or decline?", **names
            )
        else:
            asked = _(
                "{name} asks to take back their last move and the reply. {other}, accept or "
                "decline?",
                **names,
            )
        return ActionResult(
            Action.TAKEBACK_OFFERED,
            asked,
            game=view,
            mentions=(other.id,),
            event=event,
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
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = color_of(live, user_id)
            row = live.row
            stale = expected_ply is not None and expected_ply != live.game.ply
            if stale or row.takeback_offer is not Side.of(color.other):
                await self.live.ensure_fresh(live)
                raise TakebackError(_("there is no takeback request for you to answer"))
            asker = player(row, color.other)
            me = player(row, color)
            plies = 0
            if accept:
                plies = _takeback_plies(live, color.other)
                event = await self._take_back(live, plies)
                live.asked.pop((Ask.TAKEBACK, color.other), None)  # granted: no pause
            else:
                event = await self.live.save_row(
                    live,
                    {"takeback_offer": None, "takeback_refused_ply": live.game.ply},
                    Action.TAKEBACK_DECLINED,
                )
        view = game_view(live.row, live.game)
        if not accept:
            return ActionResult(
                Action.TAKEBACK_DECLINED,
                _(
                    "{name} declined {other}'s takeback request.",
                    name=shown(me.name),
                    other=shown(asker.name),
                ),
                game=view,
                mentions=(asker.id,),
                event=event,
            )
        names = {"name": shown(me.name), "other": shown(asker.name)}
        if plies == 1:
            said = _("{name} accepted: {other} took back their last move.", **names)
        else:
            said = _("{name} accepted: {other} took back their last move and the reply.", **names)
        accepted = ActionResult(
            Action.TAKEBACK_ACCEPTED,
            said,
            game=view,
            post_board=True,
            mentions=mentions_after(view, self.bot.id),
            event=event,
        )
        return await self.notices.turn(accepted, actor=user_id)

    async def _take_back(self, live: Live, plies: int) -> str | None:
        """Take ``plies`` back on the in-memory game and store it in one guarded transaction,
        with its announcement (whose id is returned)."""
        row, game = live.row, live.game
        try:
            game.take_back(plies)
        except GameError as exc:
            raise TakebackError(from_rules(exc)) from None
        now = self.clock()
        changes = state_changes(game)
        if row.clock_base is None:
            changes.update(
                clock_changes(game, row.white_id, row.black_id, row.move_time, now, row.computer_id)
            )
        else:  # the clocks stay as they stood; the turn given back starts again
            changes.update(clocks.restart_turn(row, Side.of(game.turn), now))
        changes.update({"updated_at": now, "takeback_offer": None, "takeback_refused_ply": None})
        event = self.live.event(live, Action.TAKEBACK_ACCEPTED)
        await self.live.write(
            live,
            changes,
            lambda: self.live.store.take_back(row.id, row.version, changes, game.ply, now, event),
        )
        return None if event is None else event.id
