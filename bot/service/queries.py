"""Looking games up: by channel or id, the running games of a server, and a game's PDN.

Reads only.  A running game is read through its in-memory copy, under its lock, so a lookup never
shows half of an action; an ended game is replayed from the store.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from rules.pdn import write_game

from ..enums import GameStatus
from ..errors import NotFoundError, ServiceError
from ..results import GameView
from ..store import GameRow, Store
from .live import Live, LiveGames
from .views import game_view

log = logging.getLogger(__name__)


class Queries:
    def __init__(self, store: Store, live: LiveGames) -> None:
        self.store = store
        self.live = live

    async def game_in(self, channel_id: int) -> GameView | None:
        """The running game of a channel, if any."""
        row = await self.store.running_game_in(channel_id)
        if row is None:
            return None
        async with self.live.lock(row.id):
            live = await self.live.load(row.id)
            return game_view(live.row, live.game)

    async def game_view(self, game_id: int) -> GameView:
        """Any game by id, running or finished."""
        row = await self.store.game(game_id)
        if row is None:
            raise NotFoundError(f"there is no game #{game_id}")
        if row.status is GameStatus.RUNNING:
            async with self.live.lock(game_id):
                live = await self.live.load(game_id)
                return game_view(live.row, live.game)
        return game_view(row, await self.live.replay(row))

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
        if row.status is GameStatus.RUNNING:
            async with self.live.lock(row.id):
                live: Live = await self.live.load(row.id)
                game = live.game
        else:
            game = await self.live.replay(row)
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
        return f"draughts-game-{row.id}.pdn", write_game(game, tags)
