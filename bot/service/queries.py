"""Looking games up: by channel or id, the running games of a server, a game's moves and its
PDN; and noting which message shows a game's board.

Reads only (but for :meth:`Queries.board_posted`, which records a message and leaves the game
alone).  A running game is read through its in-memory copy, under its lock, so a lookup never
shows half of an action; an ended game is replayed from the store.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from rules.game import Game
from rules.pdn import write_game
from rules.variants import Notation

from ..enums import GameStatus
from ..errors import NotFoundError, ServiceError
from ..i18n import Text, _, _p
from ..results import GameView
from ..store import GameRow, Store
from .live import Live, LiveGames
from .prefs import PrefsBook
from .views import game_view, moves_shown

log = logging.getLogger(__name__)


class Queries:
    def __init__(self, store: Store, live: LiveGames, prefs: PrefsBook) -> None:
        self.store = store
        self.live = live
        self.prefs = prefs

    async def game_in(self, channel_id: int) -> GameView | None:
        """The running game of a channel, if any."""
        row = await self.store.running_game_in(channel_id)
        if row is None:
            return None
        async with self.live.lock(row.id):
            live = await self.live.load(row.id)
            view = game_view(live.row, live.game)
        # the row just read knows the last board message; the in-memory one may not
        return replace(view, board_message_id=row.board_message_id)

    async def game_view(self, game_id: int) -> GameView:
        """Any game by id, running or finished."""
        view, _ = await self._game(game_id)
        return view

    async def _game(self, game_id: int) -> tuple[GameView, Game]:
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(_("there is no game #{id}", id=game_id))
        if row.status is GameStatus.RUNNING:
            async with self.live.lock(game_id):
                live = await self.live.load(game_id)
                return game_view(live.row, live.game), live.game.copy()
        game = await self.live.replay(row)
        return game_view(row, game), game

    async def game_moves(
        self,
        game_id: int,
        *,
        notation: Notation | str | None = None,
        user_id: int | None = None,
    ) -> tuple[GameView, str]:
        """Any game by id and its whole move list (the Moves button), numbered, one full move a
        line (``"1. 11-15 23-19"``; empty before the first move).  Written in ``notation`` when
        given, else in ``user_id``'s preferred notation when they have one, else in the
        variant's own."""
        if not notation and user_id is not None:
            notation = (await self.prefs.get(user_id)).notation
        view, game = await self._game(game_id)
        return view, moves_shown(game, notation or None)

    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        """The Discord layer posted a public board of ``game_id`` as ``message_id``: the id of
        the board message whose buttons should now go (the previous one; None if there is
        none), see :meth:`bot.store.Store.board_posted`.  One small write that leaves the
        game's version alone, so it never makes a move fail."""
        return await self.store.board_posted(game_id, message_id)

    async def offer_posted(self, game_id: int, message_id: int) -> bool:
        """The Discord layer posted the game's draw offer as ``message_id``: remembered while
        the offer is pending (False when it is over already: its buttons go at once), see
        :meth:`bot.store.Store.offer_posted`.  Leaves the game's version alone."""
        return await self.store.offer_posted(game_id, message_id)

    async def offer_over(self, game_id: int) -> int | None:
        """The message of the game's draw offer once the offer is over, given once (its
        buttons go), see :meth:`bot.store.Store.offer_over`."""
        return await self.store.offer_over(game_id)

    async def games(self, guild_id: int | None) -> list[GameView]:
        """Running games of a server."""
        views = []
        for row in await self.store.running_games_in_guild(guild_id):
            try:
                views.append(await self.game_view(row.id))
            except ServiceError:
                log.warning("game %s cannot be read; left out of the list", row.id)
        return views

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
                raise NotFoundError(_("name a game"))
            row = await self.store.running_game_in(channel_id)
            if row is None:
                row = await self.store.last_finished_game_in(channel_id)
            if row is None:
                raise NotFoundError(_("there is no game in this channel"))
            return row
        row = await self.store.game(game_id)
        if row is None or (check_guild and row.guild_id != guild_id):
            raise NotFoundError(_("there is no game #{id} on this server", id=game_id))
        return row

    async def pdn(
        self,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        check_guild: bool = False,
        words: Callable[[Text], str] = str,
    ) -> tuple[str, str]:
        """``(file name, PDN text)`` of a game found as :meth:`find_game` says; the words of
        its tags (the event) put into a language by ``words`` (English by default)."""
        row = await self.find_game(
            game_id=game_id, channel_id=channel_id, guild_id=guild_id, check_guild=check_guild
        )
        if row.status is GameStatus.RUNNING:
            async with self.live.lock(row.id):
                live: Live = await self.live.load(row.id)
                game = live.game
        else:
            game = await self.live.replay(row)
        tags, event = record_tags(row)
        if row.hints:  # a game played with the computer's help says so (bot.service.hints)
            tags["Hints"] = str(row.hints)
        return f"draughts-game-{row.id}.pdn", write_game(game, {"Event": words(event), **tags})


def record_tags(row: GameRow) -> tuple[dict[str, str], Text]:
    """A stored game's PDN tags but the event, and the event's words (a language's to choose):
    what its record and its annotated record both say of it."""
    date = datetime.fromtimestamp(row.created_at, UTC).strftime("%Y.%m.%d")
    tags = {
        "Site": "Discord",
        "Date": date,
        "Round": "-",
        "White": row.white_name,
        "Black": row.black_name,
    }
    event = _p("PDN event", "Discord draughts")
    if row.match_id is not None:  # a match's games are its rounds
        event = _p("PDN event", "Discord draughts match #{id}", id=row.match_id)
        tags["Round"] = "1" if row.match_id == row.id else "2"
    return tags, event
