"""Ending a game by the players' (or a moderator's) word: draw offers and their answers,
resignation, and abort (by either player until both have moved, so a game nobody really started
can be cleared away; by a moderator at any time).

A game has a result only once both players have made a move of their own, as a loss on time
before a player's first move is an abort (:mod:`bot.service.deadlines`): until then resigning
aborts the game, unrated, and a draw cannot be offered (abort instead), so two accounts cannot
trade rating points without playing.  A player offers a draw at most once every
:data:`~bot.service.live.ASK_PAUSE_PLIES` plies, since each offer pings the opponent.

The rules record judges what is allowed (:meth:`rules.Game.offer_draw` and friends); this module
wakes the computer when the offer is made to it (it answers in its own time, see
:mod:`bot.service.computer_replies`), and words what happened.  A refused draw
action is checked against the database first, since the offer may have been made or withdrawn by
another process.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.game import Game
from rules.variants import Color

from ..errors import DrawError, ForbiddenError
from ..i18n import _, join
from ..markdown import shown
from ..results import Action, ActionResult, Player
from .computer_replies import ComputerReplies
from .endings import Endings
from .live import Ask, Live, LiveGames, apply_rules, color_of
from .views import abortable, count_sentence, game_view, mentions_after, player


class Draws:
    def __init__(
        self, live: LiveGames, replies: ComputerReplies, endings: Endings, *, bot: Player
    ) -> None:
        self.live = live
        self.replies = replies
        self.endings = endings
        self.bot = bot

    async def offer_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Offer a draw (or agree to the opponent's pending offer).  An offer to the computer
        wakes it to think about it; its answer is claimed for the offer's caller to show next."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = color_of(live, user_id)
            game = live.game
            offered_to = player(live.row, color.other)
            accepting = game.draw_offer is color.other
            if game.draw_offer is None:  # a pending offer is answered or refused by the rules
                await self._may_offer(live, color)
            await self._draw_action(live, lambda: game.offer_draw(color))
            event = await self.live.save(
                live,
                user_id=user_id,
                moved=False,
                announce=Action.DRAW_ACCEPTED if game.is_over else Action.DRAW_OFFERED,
            )
            if not game.is_over:
                live.asked[Ask.DRAW, color] = game.ply
                if offered_to.id == self.bot.id:
                    self.replies.wake(gid, claim=True)
        view = game_view(live.row, game)
        me = player(live.row, color)
        if not view.running:
            # the result is said once, by the board's result line
            text = _("Draw accepted.") if accepting else _("Draw agreed.")
            return await self.endings.board_result(Action.DRAW_ACCEPTED, text, view, event=event)
        if offered_to.id == self.bot.id:
            return ActionResult(
                Action.DRAW_OFFERED,
                _(
                    "{name} offers a draw; {other} is thinking it over.",
                    name=shown(me.name),
                    other=shown(offered_to.name),
                ),
                game=view,
                event=event,
            )
        return ActionResult(
            Action.DRAW_OFFERED,
            _(
                "{name} offers a draw. {other}, accept or decline?",
                name=shown(me.name),
                other=shown(offered_to.name),
            ),
            game=view,
            mentions=(offered_to.id,),
            event=event,
        )

    async def accept_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        live, color, event = await self._player_action(
            user_id, channel_id, game_id, Game.accept_draw, Action.DRAW_ACCEPTED
        )
        view = game_view(live.row, live.game)
        me = shown(player(live.row, color).name)
        return await self.endings.board_result(
            Action.DRAW_ACCEPTED,
            _("{name} accepted the draw.", name=me),
            view,
            event=event,
        )

    async def decline_draw(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        live, color, event = await self._player_action(
            user_id, channel_id, game_id, Game.decline_draw, Action.DRAW_DECLINED
        )
        view = game_view(live.row, live.game)
        other = player(live.row, color.other)
        return ActionResult(
            Action.DRAW_DECLINED,
            join(
                (
                    _("{name} declined the draw.", name=shown(player(live.row, color).name)),
                    count_sentence(view, live.row, live.game),
                )
            ),
            game=view,
            mentions=(other.id,) if other.id != self.bot.id else (),
            event=event,
        )

    async def resign(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """Resign: the opponent wins, or, before both players have moved, the game is aborted
        without a result (unrated, no replay)."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = color_of(live, user_id)
            aborting = abortable(live.row, live.game)
            if aborting:
                apply_rules(live.game.abort)
            else:
                apply_rules(lambda: live.game.resign(color))
            event = await self.live.save(
                live,
                user_id=user_id,
                moved=False,
                announce=Action.ABORTED if aborting else Action.RESIGNED,
            )
        if aborting:
            return await self._aborted(live, user_id, by_player=True, resigned=True, event=event)
        view = game_view(live.row, live.game)
        me = shown(player(live.row, color).name)
        return await self.endings.board_result(
            Action.RESIGNED, _("{name} resigned.", name=me), view, event=event
        )

    async def abort(
        self,
        user_id: int,
        *,
        is_moderator: bool = False,
        channel_id: int | None = None,
        game_id: int | None = None,
    ) -> ActionResult:
        """End a game with no result (unrated, no rating moves): either player may while not
        both have made a move of their own (:func:`~bot.service.views.abortable`), a
        moderator at any time."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            row = live.row
            by_player = user_id in (row.white_id, row.black_id) and abortable(row, live.game)
            if not by_player and not is_moderator:
                await self.live.ensure_fresh(live)
                if user_id in (row.white_id, row.black_id) and row.pairing_id is not None:
                    raise ForbiddenError(
                        _(
                            "a tournament game counts for the event and cannot be aborted by "
                            "its players: resign, offer a draw, or ask a moderator"
                        )
                    )
                if user_id in (row.white_id, row.black_id):
                    raise ForbiddenError(
                        _(
                            "both players have moved, so the game can no longer be aborted: "
                            "resign or offer a draw instead"
                        )
                    )
                raise ForbiddenError(
                    _("only the players (before both have moved) or moderators can abort a game")
                )
            apply_rules(live.game.abort)
            event = await self.live.save(
                live, user_id=user_id, moved=False, announce=Action.ABORTED
            )
        return await self._aborted(live, user_id, by_player=by_player, event=event)

    async def _aborted(
        self,
        live: Live,
        user_id: int,
        *,
        by_player: bool,
        resigned: bool = False,
        event: str | None,
    ) -> ActionResult:
        """The announcement of an aborted game: who aborted it (a player, by /abort or by
        resigning before both had moved, or a moderator) and that it has no result."""
        view = game_view(live.row, live.game)
        game: dict[str, str | int] = {
            "id": view.id,
            "white": shown(view.white.name),
            "black": shown(view.black.name),
        }
        if by_player:
            who = shown(player(live.row, color_of(live, user_id)).name)
            if resigned:
                text = _(
                    "{name} resigned before both players had moved, so game #{id} ({white} v "
                    "{black}) is aborted: no result, unrated.",
                    name=who,
                    **game,
                )
            else:
                text = _(
                    "Game #{id} ({white} v {black}) was aborted by {name} before both players "
                    "had moved: no result.",
                    name=who,
                    **game,
                )
        else:
            text = _("Game #{id} ({white} v {black}) was aborted by a moderator.", **game)
        return await self.endings.announce(
            ActionResult(
                Action.ABORTED,
                text,
                game=view,
                mentions=mentions_after(view, self.bot.id),
                event=event,
            )
        )

    async def _player_action(
        self,
        user_id: int,
        channel_id: int | None,
        game_id: int | None,
        action: Callable[[Game, Color], None],
        announce: Action,
    ) -> tuple[Live, Color, str | None]:
        """Run ``action(game, player's colour)`` for a player of the game and save the result:
        the common shape of accepting and declining a draw offer."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = color_of(live, user_id)
            await self._draw_action(live, lambda: action(live.game, color))
            event = await self.live.save(live, user_id=user_id, moved=False, announce=announce)
        return live, color, event

    async def _may_offer(self, live: Live, color: Color) -> None:
        """Refuse a new draw offer before both players have moved (abort then) or within
        :data:`~bot.service.live.ASK_PAUSE_PLIES` of the player's last offer."""
        if abortable(live.row, live.game):
            await self.live.ensure_fresh(live)
            raise DrawError(
                _(
                    "a draw can be offered once both players have moved; until then, abort the "
                    "game instead"
                )
            )
        live.require_pause(Ask.DRAW, color)

    async def _draw_action(self, live: Live, action: Callable[[], None]) -> None:
        """A draw offer or answer; a refusal is checked against the database first."""
        try:
            apply_rules(action)
        except DrawError:
            await self.live.ensure_fresh(live)
            raise
