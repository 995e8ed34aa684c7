"""Direct messages for players who asked for them (see :class:`~bot.results.UserPrefs`): one when
it becomes their turn, and the last warning before their time runs out.

A direct message travels inside the :class:`~bot.results.ActionResult` of the change it tells
of, so it is delivered with that announcement and, like it, again if the process dies first:
the outbox rebuilds an announcement through the same functions, reading the preferences then.
Nobody is told what they did themselves (the ``actor``), and the computer is never told anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..i18n import Text, _, duration, join
from ..markdown import shown
from ..results import Action, ActionResult, DirectMessage, GameView
from .prefs import PrefsBook
from .views import last_warning_text

TURN_ACTIONS = frozenset({Action.MOVED, Action.GAME_STARTED, Action.TAKEBACK_ACCEPTED})
"""The actions after which it may have become someone's turn."""


def turn_text(action: Action, view: GameView, now: float) -> Text:
    """The direct message telling the player to move that it is their turn."""
    assert view.to_move is not None
    white, black = shown(view.white.name), shown(view.black.name)
    left = (
        None if view.deadline is None else _("You have {time}.", time=duration(view.deadline - now))
    )
    if action is Action.GAME_STARTED:
        said = _(
            "Your game #{id} ({white} v {black}) has started, {variant}: it is your move.",
            id=view.id,
            white=white,
            black=black,
            variant=view.variant_title,
        )
    elif action is Action.MOVED and view.last_move_shown is not None:
        mover = view.player(view.turn.other)
        said = _(
            "Your move in game #{id} ({white} v {black}): {name} played {move}.",
            id=view.id,
            white=white,
            black=black,
            name=shown(mover.name),
            move=view.last_move_shown,
        )
    else:
        said = _(
            "Your move in game #{id} ({white} v {black}).", id=view.id, white=white, black=black
        )
    return join((said, left))


class Notices:
    def __init__(self, prefs: PrefsBook, *, computer_id: int, clock: Callable[[], float]) -> None:
        self.prefs = prefs
        self.computer_id = computer_id
        self.clock = clock

    async def turn(
        self,
        result: ActionResult,
        *,
        actor: int | None = None,
        because: Action | None = None,
    ) -> ActionResult:
        """``result`` with a direct message to the player whose turn it became, if they asked
        for one and did not bring it about themselves (``actor``).  ``because``: the action that
        made it their turn when ``result`` announces a later one (a rebuilt announcement that
        covers older ones); otherwise the result's own action says whether the turn changed."""
        view = result.game
        action = because or result.action
        if (
            action not in TURN_ACTIONS
            or view is None
            or not view.running
            or view.to_move is None
            or view.to_move.id in (self.computer_id, actor)
            or any(dm.user_id == view.to_move.id for dm in result.dms)
        ):
            return result
        if not (await self.prefs.get(view.to_move.id)).dm_turn:
            return result
        text = turn_text(action, view, self.clock())
        return replace(result, dms=(*result.dms, self._dm(view, view.to_move.id, text)))

    async def last_warning(self, view: GameView) -> tuple[DirectMessage, ...]:
        """The last warning by direct message, for a player to move who asked for it."""
        if view.to_move is None or view.to_move.id == self.computer_id:
            return ()
        if not (await self.prefs.get(view.to_move.id)).last_warning:
            return ()
        return (self._dm(view, view.to_move.id, last_warning_text(view, self.clock())),)

    @staticmethod
    def _dm(view: GameView, user_id: int, text: Text) -> DirectMessage:
        return DirectMessage(user_id, text, view.guild_id, view.channel_id, view.id)
