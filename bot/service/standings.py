"""Read-only views of a server's play: ratings, records, the ladder and game history.

Ratings are written (by :mod:`bot.service.ladder`, through the store) in the same transaction
that ends a rated game; this module only reads, so ``/stats``, ``/leaderboard`` and ``/history``
never contend with games.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.variants import find_variant

from ..enums import GameStatus, Side, TimePool
from ..errors import ChallengeError
from ..i18n import Text, _, from_rules
from ..results import GameSummary, Leaderboard, Player, RatingLine, Stats
from ..store import ChallengeRow, GameRow, RatingRow, Store, TournamentRow
from ..words import termination_words, variant_title
from .clocks import pool_of
from .ladder import glicko
from .ratings import START_RATING, idle

HISTORY_LENGTH = 10
RECENT_GAMES = 5
LEADERBOARD_SIZE = 10


class Standings:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def stats(
        self,
        guild_id: int | None,
        player: Player,
        variant: str,
        pool: TimePool | None = None,
    ) -> Stats:
        """A player's rating, rank, rated record and streak in one variant and time class (by
        default the class of their latest rated game in it), and their latest games in the
        variant (each naming its class)."""
        key, title = _variant(variant)
        guild = _guild(guild_id)
        recent = await self.store.finished_games(
            guild, user_id=player.id, variant=key, limit=RECENT_GAMES
        )
        pool = pool or _latest_pool(recent)
        row = await self.store.rating(guild, player.id, key, pool)
        # The rating row carries the rated record and streak (written with the rating).
        return Stats(
            player=player,
            variant=key,
            variant_title=title,
            rating=None if row is None else self._line(row, player.name),
            rank=None if row is None else await self.store.rank(row),
            wins=0 if row is None else row.wins,
            draws=0 if row is None else row.draws,
            losses=0 if row is None else row.losses,
            streak=None if row is None or row.streak is None else (row.streak, row.streak_length),
            recent=tuple(_summary(g, player.id) for g in recent),
            pool=pool,
        )

    async def rating(
        self, guild_id: int, user_id: int, variant: str, pool: TimePool
    ) -> RatingLine | None:
        """``user_id``'s rating in ``variant`` and ``pool`` as of now (None before their first
        rated game there): what a rating range of an open challenge is checked against."""
        key, _title = _variant(variant)
        row = await self.store.rating(guild_id, user_id, key, pool)
        return None if row is None else self._line(row, row.name or "?")

    async def leaderboard(
        self,
        guild_id: int | None,
        variant: str,
        user_id: int,
        pool: TimePool | None = None,
    ) -> Leaderboard:
        """The server's top players in a variant and time class (by default the class of the
        asking user's latest rated game in it), and where the asking user stands."""
        key, title = _variant(variant)
        guild = _guild(guild_id)
        if pool is None:
            mine_recent = await self.store.finished_games(
                guild, user_id=user_id, variant=key, limit=RECENT_GAMES
            )
            pool = _latest_pool(mine_recent)
        top = await self.store.leaderboard(guild, key, LEADERBOARD_SIZE, pool)
        mine = await self.store.rating(guild, user_id, key, pool)
        return Leaderboard(
            variant=key,
            variant_title=title,
            top=tuple(self._line(r, r.name or "?") for r in top),
            mine=None if mine is None else await self.store.rank(mine),
            my_line=None if mine is None else self._line(mine, mine.name or "?"),
            pool=pool,
        )

    def _line(self, row: RatingRow, name: str) -> RatingLine:
        """A rating as of now: the deviation has grown over the days since the last game."""
        rating = idle(glicko(row), self.clock() - row.updated_at)
        return RatingLine(
            player=Player(row.user_id, name),
            rating=rating.rating,
            deviation=rating.deviation,
            games=row.games,
            shown=rating.shown(),
        )

    async def history(
        self, guild_id: int | None, user_id: int | None = None
    ) -> tuple[GameSummary, ...]:
        """The server's latest ended games (only ``user_id``'s when given), newest first."""
        rows = await self.store.finished_games(
            _guild(guild_id), user_id=user_id, limit=HISTORY_LENGTH
        )
        return tuple(_summary(g, user_id) for g in rows)


async def challenge_rating(
    store: Store, challenge: ChallengeRow | TournamentRow, user_id: int
) -> int:
    """The rating of ``user_id`` that ``challenge``'s rating range is checked against (a
    tournament's too, and its seeding): their rating in the challenge's pool on its server
    (its variant, its clock's time class), as ``/stats`` shows it, rounded; the start rating
    for someone who has not played a rated game there.  The one reading of it, so what decides
    the pool is changed here alone."""
    row = None
    if challenge.guild_id is not None:
        row = await store.rating(challenge.guild_id, user_id, challenge.variant, pool_of(challenge))
    return round(START_RATING if row is None else row.rating)


def _latest_pool(games: list[GameRow]) -> TimePool:
    """The time class of the latest rated game among ``games`` (newest first); correspondence
    when none was rated."""
    rated = (g for g in games if g.rated and g.status is GameStatus.FINISHED)
    return next((pool_of(g) for g in rated), TimePool.CORRESPONDENCE)


def _guild(guild_id: int | None) -> int:
    if guild_id is None:
        raise ChallengeError(_("ratings and history belong to a server"))
    return guild_id


def _variant(variant: str) -> tuple[str, Text]:
    try:
        v = find_variant(variant)
    except ValueError as exc:
        raise ChallengeError(from_rules(exc)) from None
    return v.key, variant_title(v)


def _summary(row: GameRow, user_id: int | None) -> GameSummary:
    """A game in a list; with ``user_id``, seen from that player (outcome, rating change)."""
    finished = row.status is GameStatus.FINISHED
    outcome = change = None
    if user_id is not None and finished:
        white = user_id == row.white_id
        won = row.winner is not None and (row.winner is Side.WHITE) == white
        outcome = "D" if row.winner is None else ("W" if won else "L")
        change = row.white_rating_change if white else row.black_rating_change
    match_game = None
    if row.match_id is not None:
        match_game = 1 if row.match_id == row.id else 2
    return GameSummary(
        id=row.id,
        variant=row.variant,
        variant_title=variant_title(row.variant),
        white=Player(row.white_id, row.white_name),
        black=Player(row.black_id, row.black_name),
        result=row.result if finished else None,
        termination=termination_words(row.termination_detail or (row.termination or "")),
        ended_at=row.updated_at,
        rated=row.rated and finished,
        rating_change=change,
        outcome=outcome,
        match_game=match_game,
        pool=pool_of(row),
    )
