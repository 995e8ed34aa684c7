"""Analyses of finished games: computed once per subject through the computer's background
lane, kept in the store, shown again from there.

The engine scores one position per job (:data:`bot.analysis_results.EVALUATE`), one job after
another behind every live game's reply (:meth:`ComputerPlayer.background`), then reads the
scores together (:data:`~bot.analysis_results.ASSEMBLE`, one more job); a 120-ply game is
about 25 seconds of one worker.  The same subject asked for twice at once is computed once:
the second caller waits for the first one's work (:attr:`Analyses._running`), and a caller who
leaves does not stop it, so the others still get it and it is kept.  A user has one analysis
computed at a time (a second is refused while the first runs): one user cannot fill the lane
with a server's history while others wait.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from rules.game import Game

from ..analysis_results import (
    ASSEMBLE,
    EVALUATE,
    NODES_PER_POSITION,
    SECONDS_PER_POSITION,
    AnalysisView,
    GameAnalysis,
)
from ..errors import ServiceError
from ..i18n import Text, _, verbatim
from ..store import AnalysisRow, Store, StoreUnavailable
from .computer import ComputerPlayer, ComputerUnavailable

log = logging.getLogger(__name__)


class AnalysisBusy(ServiceError):
    """The user's previous analysis is still being computed."""


class AnalysisFailed(ServiceError):
    """The engine could not analyse the game now (its workers cannot start, or a job failed)."""


class Analyses:
    """The analyses of games and imported games, by subject."""

    def __init__(
        self,
        store: Store,
        computer: Callable[[], ComputerPlayer],
        *,
        clock: Callable[[], float],
    ) -> None:
        """``computer()`` is the computer now (replaceable while the service runs)."""
        self.store = store
        self._computer = computer
        self._clock = clock
        self.budget = (SECONDS_PER_POSITION, NODES_PER_POSITION)
        """Seconds and nodes per position at most (tests and benchmarks make it smaller)."""
        self._running: dict[str, asyncio.Task[GameAnalysis]] = {}
        self._users: dict[int, str] = {}

    async def close(self) -> None:
        """Stop the analyses being computed (a shutdown: their callers are told it failed, and
        nothing is kept); a job already in a worker ends there on its own."""
        running = list(self._running.values())
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def stored(self, subject: str) -> GameAnalysis | None:
        """The analysis kept for ``subject``, if any (a damaged row reads as none, and is
        computed again)."""
        row = await self.store.analysis(subject)
        if row is None:
            return None
        try:
            return GameAnalysis.from_dict(json.loads(row.analysis))
        except (ValueError, KeyError, TypeError):
            log.warning("the stored analysis of %s cannot be read; computing it again", subject)
            return None

    async def analyse(
        self,
        subject: str,
        game: Game,
        *,
        guild_id: int | None,
        user_id: int | None = None,
        white: str = "?",
        black: str = "?",
        title: Text | None = None,
        file_stem: str | None = None,
        tags: Mapping[str, str] | None = None,
        event: Text | None = None,
    ) -> AnalysisView:
        """The analysis of ``game`` (which has moves) under ``subject``: as stored, or computed
        now and kept.  ``user_id`` asked for it (one computed at a time each:
        :class:`AnalysisBusy`); the other arguments are what showing it needs
        (:class:`~bot.analysis_results.AnalysisView`).  :class:`AnalysisFailed` when the
        engine cannot do it now; :class:`~bot.store.StoreUnavailable` from reading passes on
        (the Discord layer says so), while an analysis computed but not kept is still shown."""
        if not game.moves:
            raise ServiceError(_("there is nothing to analyse: no move was played"))
        analysis = await self.stored(subject)
        fresh = analysis is None
        if analysis is None:
            analysis = await self._computed(subject, game, guild_id, user_id)
        return AnalysisView(
            subject=subject,
            game=game,
            analysis=analysis,
            white=white,
            black=black,
            title=title if title is not None else verbatim(subject),
            file_stem=file_stem or subject.replace(":", "-") + "-analysis",
            tags=dict(tags or {}),
            event=event,
            fresh=fresh,
        )

    async def _computed(
        self, subject: str, game: Game, guild_id: int | None, user_id: int | None
    ) -> GameAnalysis:
        task = self._running.get(subject)
        if task is None:
            if user_id is not None and self._users.get(user_id) not in (None, subject):
                raise AnalysisBusy(
                    _("your previous analysis is still being computed; ask again when it is shown")
                )
            task = asyncio.ensure_future(self._compute(subject, game, guild_id))
            self._running[subject] = task
            if user_id is not None:
                self._users[user_id] = subject
            task.add_done_callback(lambda _: self._finished(subject, user_id))
        return await asyncio.shield(task)

    def _finished(self, subject: str, user_id: int | None) -> None:
        self._running.pop(subject, None)
        if user_id is not None and self._users.get(user_id) == subject:
            del self._users[user_id]

    async def _compute(self, subject: str, game: Game, guild_id: int | None) -> GameAnalysis:
        kept = await self.stored(subject)  # kept meanwhile, by another caller's computation
        if kept is not None:
            return kept
        record = game.to_dict()
        computer = self._computer()
        seconds, nodes = self.budget
        try:
            found: list[dict[str, Any]] = []
            for ply in range(len(game.moves) + 1):
                found.append(await computer.background(EVALUATE, record, ply, seconds, nodes))
            analysis = GameAnalysis.from_dict(await computer.background(ASSEMBLE, record, found))
        except ComputerUnavailable as exc:
            raise AnalysisFailed(
                _("the engine cannot analyse games right now; try again in a few minutes")
            ) from exc
        except Exception as exc:
            log.exception("the analysis of %s failed", subject)
            raise AnalysisFailed(
                _("the engine could not analyse this game; try again in a few minutes")
            ) from exc
        row = AnalysisRow(
            subject=subject,
            guild_id=guild_id,
            variant=game.variant.key,
            analysis=json.dumps(analysis.to_dict(), separators=(",", ":")),
            created_at=self._clock(),
        )
        try:
            await self.store.save_analysis(row)
        except StoreUnavailable:  # shown all the same; computed again next time
            log.warning("the analysis of %s was computed but could not be kept", subject)
        return analysis
