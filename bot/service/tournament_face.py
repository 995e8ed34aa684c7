"""``GameService.tournaments``: the tournament actions the Discord layer calls, each written out
with its signature and handed to the room doing the work (:mod:`bot.service.tournaments`, the
life cycle; :mod:`bot.service.tournament_games`, the games), every result on its way out given
what posting it needs (:meth:`~bot.service.announcing.Announcing.ready_or_bare`), as the
face's own methods do.  A face of its own keeps the game service's face from growing by a
dozen methods, and is reached as a property, so the Discord layer still uses methods only.
"""

from __future__ import annotations

from ..results import ActionResult, Player, TournamentSpec, TournamentView
from .announcing import Announcing
from .tournament_games import TournamentGames
from .tournaments import Tournaments


class TournamentFace:
    """Every tournament action: refusals raise :class:`~bot.errors.ServiceError` (nothing
    changed); changes come back as results carrying the tournament's view."""

    def __init__(
        self, tournaments: Tournaments, games: TournamentGames, announcing: Announcing
    ) -> None:
        self._tournaments = tournaments
        self._games = games
        self._announcing = announcing

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        moderator: Player,
        spec: TournamentSpec,
        now: float | None = None,
        *,
        is_moderator: bool = False,
    ) -> ActionResult:
        """A moderator creates an event open for entries (``TOURNAMENT_CREATED``)."""
        created = await self._tournaments.create(
            guild_id, channel_id, moderator, spec, now, is_moderator=is_moderator
        )
        return await self._ready(created)

    async def join(self, tournament_id: int, player: Player) -> ActionResult:
        """``player`` enters (``TOURNAMENT_JOINED``; a Swiss or arena also while it runs)."""
        return await self._ready(await self._tournaments.join(tournament_id, player))

    async def leave(self, tournament_id: int, user_id: int) -> ActionResult:
        """A player leaves (before the start) or withdraws (``TOURNAMENT_JOINED``)."""
        return await self._ready(await self._tournaments.leave(tournament_id, user_id))

    async def start_now(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """``TOURNAMENT_STARTED`` and ``ROUND_PAIRED`` (``TOURNAMENT_CANCELLED``: too few)."""
        started = await self._tournaments.start_now(
            tournament_id, moderator_id, is_moderator=is_moderator
        )
        return await self._all(started)

    async def pause(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> ActionResult:
        """``TOURNAMENT_PAUSED``: no new round until resumed."""
        paused = await self._tournaments.pause(
            tournament_id, moderator_id, is_moderator=is_moderator
        )
        return await self._ready(paused)

    async def resume(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """``TOURNAMENT_RESUMED`` (and ``ROUND_PAIRED`` when a round completed meanwhile)."""
        resumed = await self._tournaments.resume(
            tournament_id, moderator_id, is_moderator=is_moderator
        )
        return await self._all(resumed)

    async def drop(
        self, tournament_id: int, moderator_id: int, user_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """``PLAYER_DROPPED`` (an undecided game of theirs lost by forfeit, and what follows)."""
        dropped = await self._games.drop(
            tournament_id, moderator_id, user_id, is_moderator=is_moderator
        )
        return await self._all(dropped)

    async def fix_result(
        self,
        tournament_id: int,
        moderator_id: int,
        pairing_id: int,
        white_points: float,
        black_points: float,
        reason: str,
        *,
        is_moderator: bool = False,
    ) -> list[ActionResult]:
        """``RESULT_FIXED`` with its reason (a running game ended first; the next round when
        this completes one)."""
        fixed = await self._games.fix_result(
            tournament_id,
            moderator_id,
            pairing_id,
            white_points,
            black_points,
            reason,
            is_moderator=is_moderator,
        )
        return await self._all(fixed)

    async def cancel(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> ActionResult:
        """``TOURNAMENT_CANCELLED``."""
        cancelled = await self._tournaments.cancel(
            tournament_id, moderator_id, is_moderator=is_moderator
        )
        return await self._ready(cancelled)

    async def open_game(self, pairing_id: int, channel_id: int) -> ActionResult | None:
        """The pairing's game in its thread (``GAME_STARTED``); None: opened already."""
        opened = await self._games.open_game(pairing_id, channel_id)
        return None if opened is None else await self._ready(opened)

    async def berserk(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """An arena player halves their clock before their first move (``BERSERK``)."""
        return await self._ready(
            await self._games.berserk(user_id, channel_id=channel_id, game_id=game_id)
        )

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The announcement with the Join / Leave buttons was posted as ``message_id``."""
        await self._tournaments.set_message(tournament_id, message_id)

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament with its standings (``table``) and current pairings."""
        return await self._tournaments.view(tournament_id)

    async def listing(self, guild_id: int, *, finished: bool) -> list[TournamentView]:
        """A server's events being run (or, ``finished``, over), newest first."""
        return await self._tournaments.listing(guild_id, finished=finished)

    async def pdn(self, tournament_id: int) -> str:
        """Every game of the event in one PDN text (Event and Round tags set)."""
        return await self._tournaments.pdn(tournament_id)

    async def _ready(self, result: ActionResult) -> ActionResult:
        return await self._announcing.ready_or_bare(result)

    async def _all(self, results: list[ActionResult]) -> list[ActionResult]:
        return [await self._ready(result) for result in results]
