"""``GameService.analysis``: the analysis of a finished game of this server, the one thing the
Discord layer's ``/analyse`` and a final board's Analyse button call, handed to the room doing
the work (:mod:`bot.service.analyses`).  A face of its own keeps the game service's face from
growing, and is reached as a property, so the Discord layer still uses methods only.
"""

from __future__ import annotations

from ..analysis_results import AnalysisView
from ..enums import GameStatus
from ..errors import GameOverError
from ..i18n import _
from ..store import Store
from .analyses import Analyses
from .live import LiveGames
from .queries import Queries, record_tags


class AnalysisFace:
    """Analyses of this server's finished games; refusals raise
    :class:`~bot.errors.ServiceError`."""

    def __init__(self, analyses: Analyses, store: Store, queries: Queries, live: LiveGames) -> None:
        self._analyses = analyses
        self._store = store
        self._queries = queries
        self._live = live

    async def game(
        self,
        guild_id: int | None,
        user_id: int,
        game_id: int | None = None,
        *,
        channel_id: int | None = None,
    ) -> AnalysisView:
        """The analysis of game ``game_id`` of server ``guild_id`` (None: the channel's last
        finished game, else its running one, which is refused), asked by ``user_id``: stored,
        or computed now (:meth:`Analyses.analyse`).  A running game is refused (the players
        must not get the engine's help), as is an aborted game or one without moves."""
        if game_id is None and channel_id is not None:
            row = await self._store.last_finished_game_in(channel_id)
            if row is None:
                row = await self._queries.find_game(channel_id=channel_id)
        else:
            row = await self._queries.find_game(
                game_id=game_id, channel_id=channel_id, guild_id=guild_id, check_guild=True
            )
        if row.status is GameStatus.RUNNING:
            raise GameOverError(
                _("game #{id} is still being played: it can be analysed once it ends", id=row.id)
            )
        if row.status is GameStatus.ABORTED:
            raise GameOverError(_("game #{id} was aborted: there is nothing to analyse", id=row.id))
        tags, event = record_tags(row)
        return await self._analyses.analyse(
            f"game:{row.id}",
            await self._live.replay(row),
            guild_id=row.guild_id,
            user_id=user_id,
            white=row.white_name,
            black=row.black_name,
            title=_("Game #{id}", id=row.id),
            file_stem=f"draughts-game-{row.id}-analysis",
            tags=tags,
            event=event,
        )
