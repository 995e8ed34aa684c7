"""What the end of a game adds to the message of the action that ended it.

The rating changes, where a match stands, and the announcement of a match's second game (which
was stored in the same transaction as the first game's end, see
:meth:`~bot.service.live.LiveGames.save`), so players see the whole consequence in one message.
"""

from __future__ import annotations

from dataclasses import replace

from ..enums import GameStatus, TimePool
from ..i18n import Text, _, join, verbatim
from ..markdown import shown
from ..results import Action, ActionResult, GameView, MovePlayed
from ..store import Store
from ..words import POOL_TITLES
from .clocks import pool_of
from .ladder import glicko
from .matches import match_sentence
from .notices import Notices
from .starting import Starter
from .views import mentions_after


class Endings:
    def __init__(
        self, store: Store, starter: Starter, notices: Notices, *, computer_id: int
    ) -> None:
        self.store = store
        self.starter = starter
        self.notices = notices
        self.computer_id = computer_id

    async def board_result(
        self,
        action: Action,
        text: Text,
        view: GameView,
        moves: tuple[MovePlayed, ...] = (),
        *,
        event: str | None,
        actor: int | None = None,
    ) -> ActionResult:
        """The result of an action that shows everyone the board (a move, a game's end): the
        player to move is pinged (and sent a direct message if they asked for one, unless they
        are the ``actor`` who brought it about), or both players once it is over, with what the
        end brings."""
        result = ActionResult(
            action,
            text,
            game=view,
            moves=moves,
            post_board=True,
            mentions=mentions_after(view, self.computer_id),
            event=event,
        )
        return await self.announce(await self.notices.turn(result, actor=actor))

    async def announce(self, result: ActionResult) -> ActionResult:
        """``result`` with what its game's end brings; unchanged while the game runs."""
        view = result.game
        if view is None or view.running:
            return result
        row = await self.store.game(view.id)
        if row is None:
            return result
        extra: list[Text] = []
        if row.white_rating_change is not None and row.black_rating_change is not None:
            assert row.guild_id is not None
            lines = []
            for uid, name, change in (
                (row.white_id, row.white_name, row.white_rating_change),
                (row.black_id, row.black_name, row.black_rating_change),
            ):
                rating = await self.store.rating(row.guild_id, uid, row.variant, pool_of(row))
                standing = glicko(rating).shown() if rating else "?"  # just updated: no idle
                lines.append(verbatim(f"{shown(name)} {standing} ({change:+.0f})"))
            ratings = join(lines, ", ")
            pool = pool_of(row)
            if pool is TimePool.CORRESPONDENCE:  # the only pool before clocks: named by none
                extra.append(_("Ratings: {ratings}.", ratings=ratings))
            else:
                extra.append(
                    _("Ratings ({pool}): {ratings}.", pool=POOL_TITLES[pool], ratings=ratings)
                )
        follow_up = None
        if row.match_id is not None:
            games = await self.store.match_games(row.match_id)
            extra.append(match_sentence(games))
            second = games[1] if row.match_id == row.id and len(games) == 2 else None
            if (
                row.status is GameStatus.FINISHED
                and second is not None
                and second.status is GameStatus.RUNNING
            ):
                # Stored with the first game's end, so announced with it (under its entry).
                follow_up = await self.starter.announce_stored(second, None)
        text = join((result.text, *extra))
        return replace(result, text=text, follow_up=follow_up)
