"""Tournaments' life cycle: creating one, joining and leaving it, starting, pausing, resuming
and cancelling it, and reading it (a view, a server's list, the event's PDN).

Every change is one step of :mod:`bot.service.tournament_rounds` run by the store under the
tournament's lock (:meth:`bot.store.Store.change_tournament`): a refusal raised inside the step
rolls everything back, so two people pressing Join at once for the last place, or one person
pressing it twice, are decided one after the other on what the first one wrote.  Each
announcement is written as an outbox entry in the same transaction and handed back in the
action's results (:class:`~bot.results.ActionResult` with its ``tournament`` view).

Only moderators create and run events; the Discord layer says who is one (``is_moderator``,
as for ``/abort``).  The games themselves, no-shows, drops, fixed results, berserk and the
tick are in :mod:`bot.service.tournament_games`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from rules.pdn import write_game
from rules.variants import find_variant

from ..enums import TournamentStatus
from ..errors import ForbiddenError, NotFoundError, TournamentError
from ..i18n import Text, _, _n
from ..markdown import shown
from ..results import Action, ActionResult, Player, TournamentSpec, TournamentView
from ..store import (
    NewTournament,
    PlayerChanges,
    Store,
    TournamentPlayerRow,
    TournamentRow,
    TournamentState,
    TournamentStep,
    TournamentWrites,
)
from ..tournaments.model import Format
from .events import new_event
from .live import LiveGames
from .settings import SettingsBook
from .standings import challenge_rating
from .tournament_rounds import after_results, event, start, then
from .tournament_views import tournament_result, tournament_view
from .views import clean_name

NAME_LENGTH = 80
SWISS_ROUNDS = (1, 20)
ROUND_ROBIN_PLAYERS = 16
"""Berger tables are for small events: 16 players play 15 rounds."""
LONGEST = 7 * 24 * 3600.0
"""An arena's length and the wait before a forfeit are at most a week (and more than nothing:
the Discord layer checks its own lower bounds before scaling times, as for clocks)."""
CLOCKED_FORFEIT = 300.0
"""With a clock, a player who has not made a first move after five minutes loses by forfeit
(lidraughts aborts a tournament game at once and withdraws the player; a server's players may
need a few minutes to see the thread)."""
FIXABLE = ((1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (0.0, 0.0))
"""The results a moderator may set: a win, a draw, a loss, or both lost (a double forfeit)."""


def moderators_only(is_moderator: bool) -> None:
    if not is_moderator:
        raise ForbiddenError(_("only moderators can run a tournament"))


class Tournaments:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        settings: SettingsBook,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.live = live
        self.settings = settings
        self.clock = clock

    # -- reading -------------------------------------------------------------------------------

    async def state(self, tournament_id: int) -> TournamentState:
        state = await self.store.tournament_state(tournament_id)
        if state is None:
            raise NotFoundError(_("there is no tournament #{id}", id=tournament_id))
        return state

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament as it stands, with its standings and current pairings."""
        state = await self.state(tournament_id)
        return tournament_view(state, await self.store.tournament_games(tournament_id))

    async def listing(self, guild_id: int, *, finished: bool) -> list[TournamentView]:
        """A server's tournaments still open or being played (``finished``: over), newest
        first."""
        rows = await self.store.tournaments_in(guild_id, finished=finished)
        return [await self.view(row.id) for row in rows]

    async def pdn(self, tournament_id: int) -> str:
        """Every game of the event in one PDN file, each with the event's name and its round."""
        state = await self.state(tournament_id)
        rounds = {p.game_id: p for p in state.pairings if p.game_id is not None}
        texts = []
        for row in await self.store.tournament_games(tournament_id):
            pairing = rounds.get(row.id)
            game = await self.live.replay(row)
            tags = {
                "Event": state.tournament.name,
                "Site": "Discord",
                "Date": datetime.fromtimestamp(row.created_at, UTC).strftime("%Y.%m.%d"),
                "Round": "-" if pairing is None else f"{pairing.round}.{pairing.board}",
                "White": row.white_name,
                "Black": row.black_name,
            }
            texts.append(write_game(game, tags).strip())
        return "\n\n".join(texts) + "\n" if texts else ""

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The announcement with the Join / Leave buttons was posted as ``message_id``."""
        await self.store.change_tournament(
            tournament_id, lambda s: TournamentWrites(tournament={"message_id": message_id})
        )

    # -- changing ------------------------------------------------------------------------------

    async def change(
        self, tournament_id: int, step: TournamentStep, **words: str
    ) -> list[ActionResult]:
        """Run ``step`` and announce what it wrote, each entry with the view it led to."""
        writes = await self.store.change_tournament(tournament_id, step)
        if writes is None:
            raise NotFoundError(_("there is no tournament #{id}", id=tournament_id))
        view = await self.view(tournament_id)
        return [tournament_result(Action(e.kind), view, event=e.id, **words) for e in writes.events]

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
        """A moderator creates an event in ``channel_id``, open for entries."""
        moderators_only(is_moderator)
        now = self.clock() if now is None else now
        new = await self._checked(guild_id, channel_id, moderator, spec, now)
        made = new_event(
            Action.TOURNAMENT_CREATED, channel_id=channel_id, guild_id=guild_id, now=now
        )  # its tournament_id is filled in by the store
        tournament_id = await self.store.create_tournament(new, made)
        return tournament_result(
            Action.TOURNAMENT_CREATED, await self.view(tournament_id), event=made.id
        )

    async def _checked(
        self, guild_id: int, channel_id: int, moderator: Player, spec: TournamentSpec, now: float
    ) -> NewTournament:
        """The row of ``spec``, or a refusal naming the first term that cannot be."""
        name = clean_name(spec.name)[:NAME_LENGTH]
        if not spec.name.strip():
            raise TournamentError(_("give the tournament a name"))
        try:
            variant = find_variant(spec.variant).key
        except ValueError:
            raise TournamentError(_("there is no variant {name}", name=spec.variant)) from None
        clock = None if spec.clock is None else spec.clock.playable()
        move_time = spec.move_time or (await self.settings.get(guild_id)).move_time
        rounds = spec.rounds
        if spec.format is Format.SWISS:
            low, high = SWISS_ROUNDS
            if rounds is None or not low <= rounds <= high:
                raise TournamentError(
                    _("a Swiss needs between {low} and {high} rounds", low=low, high=high)
                )
        else:
            rounds = None
        duration = spec.duration
        if spec.format is Format.ARENA:
            if duration is None or not 0 < duration <= LONGEST:
                raise TournamentError(_("an arena needs a length of at most a week"))
        else:
            duration = None
        if spec.berserk and (spec.format is not Format.ARENA or clock is None):
            raise TournamentError(_("berserk is for arenas played with a clock"))
        low_r, high_r = spec.min_rating, spec.max_rating
        if low_r is not None and high_r is not None and low_r > high_r:
            raise TournamentError(_("the lowest rating allowed is above the highest"))
        most = spec.max_players
        if spec.format is Format.ROUND_ROBIN:
            most = min(most or ROUND_ROBIN_PLAYERS, ROUND_ROBIN_PLAYERS)
        if most is not None and most < 2:
            raise TournamentError(_("a tournament needs room for at least 2 players"))
        forfeit = spec.forfeit_after or (CLOCKED_FORFEIT if clock is not None else move_time / 2)
        if not 0 < forfeit <= LONGEST:
            raise TournamentError(_("the wait before a forfeit can be at most a week"))
        if spec.starts_at is not None and spec.starts_at <= now:
            raise TournamentError(_("the start time has passed already"))
        if spec.format is Format.SWISS and not 0 <= spec.bye_points <= 1:
            raise TournamentError(_("a bye is worth between 0 and 1 point"))
        return NewTournament(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            format=spec.format.value,
            variant=variant,
            move_time=move_time,
            clock_base=None if clock is None else clock.base,
            clock_increment=None if clock is None else clock.increment,
            rated=spec.rated,
            rounds=rounds,
            double_round_robin=spec.double and spec.format is Format.ROUND_ROBIN,
            duration=duration,
            starts_at=spec.starts_at,
            min_rating=low_r,
            max_rating=high_r,
            max_players=most,
            forfeit_after=forfeit,
            berserk=spec.berserk,
            bye_points=spec.bye_points if spec.format is Format.SWISS else 0.0,
            created_by=moderator.id,
            created_at=now,
        )

    async def join(self, tournament_id: int, player: Player) -> ActionResult:
        """``player`` enters (a Swiss from its next round, an arena at once, while they run);
        refused when the event is closed, full, or outside their rating range, or when they are
        in already."""
        row = await self._row(tournament_id)
        rating = await challenge_rating(self.store, row, player.id)
        name = clean_name(player.name)
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            t = state.tournament
            late = t.format in (Format.SWISS.value, Format.ARENA.value) and t.status in (
                TournamentStatus.RUNNING,
                TournamentStatus.PAUSED,
            )
            if t.status is not TournamentStatus.OPEN and not late:
                raise TournamentError(_("{name} takes no more entries", name=shown(t.name)))
            mine = next((p for p in state.players if p.user_id == player.id), None)
            if mine is not None and not mine.withdrawn:
                raise TournamentError(_("you have already joined {name}", name=shown(t.name)))
            playing = [p for p in state.players if not p.withdrawn]
            if t.max_players is not None and len(playing) >= t.max_players:
                raise TournamentError(
                    _n(
                        "{name} is full ({count} player)",
                        "{name} is full ({count} players)",
                        len(playing),
                        name=shown(t.name),
                    )
                )
            if (t.min_rating is not None and rating < t.min_rating) or (
                t.max_rating is not None and rating > t.max_rating
            ):
                raise TournamentError(_in_range(t, rating))
            first = t.round + 1 if late else 1
            joined = event(Action.TOURNAMENT_JOINED, state, now, background=False)
            if mine is not None:  # back after leaving a running event
                change: PlayerChanges = {
                    "withdrawn": False,
                    "joined_round": max(mine.joined_round, first),
                }
                return TournamentWrites(players=((player.id, change),), events=(joined,))
            number = max((p.number for p in state.players), default=0) + 1
            new = TournamentPlayerRow(t.id, player.id, name, rating, number, now, first)
            return TournamentWrites(new_players=(new,), events=(joined,))

        (result,) = await self.change(tournament_id, step, player=shown(name))
        return result

    async def leave(self, tournament_id: int, user_id: int) -> ActionResult:
        """A player leaves: before the start they are taken off the list; once it runs they
        withdraw (their games played still count, they are paired no more)."""
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            t = state.tournament
            mine = next((p for p in state.players if p.user_id == user_id), None)
            if mine is None or mine.withdrawn:
                raise TournamentError(_("you are not playing in {name}", name=shown(t.name)))
            left = event(Action.TOURNAMENT_JOINED, state, now, background=False)
            if t.status is TournamentStatus.OPEN:
                return TournamentWrites(removed_players=(user_id,), events=(left,))
            if t.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
                raise TournamentError(_("{name} is over", name=shown(t.name)))
            return TournamentWrites(players=((user_id, {"withdrawn": True}),), events=(left,))

        state = await self.state(tournament_id)
        who = next((p.name for p in state.players if p.user_id == user_id), "?")
        (result,) = await self.change(tournament_id, step, left=shown(who))
        return result

    async def start_now(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """A moderator starts the event now: the first round is paired (an arena's first
        pairings); with fewer than two players it is cancelled instead."""
        moderators_only(is_moderator)
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            if state.tournament.status is not TournamentStatus.OPEN:
                raise TournamentError(
                    _("{name} has started already", name=shown(state.tournament.name))
                )
            return start(state, now, background=False)

        return await self.change(tournament_id, step)

    async def pause(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> ActionResult:
        """A moderator pauses a running event: the games being played go on, but no new round
        (or arena pairing) is made until it is resumed."""
        moderators_only(is_moderator)
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            if state.tournament.status is not TournamentStatus.RUNNING:
                raise TournamentError(_("{name} is not running", name=shown(state.tournament.name)))
            return TournamentWrites(
                tournament={"status": TournamentStatus.PAUSED},
                events=(event(Action.TOURNAMENT_PAUSED, state, now, background=False),),
            )

        (result,) = await self.change(tournament_id, step)
        return result

    async def resume(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """A moderator resumes a paused event; a round completed meanwhile is followed by the
        next one at once (a ``ROUND_PAIRED`` after the ``TOURNAMENT_RESUMED``)."""
        moderators_only(is_moderator)
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            if state.tournament.status is not TournamentStatus.PAUSED:
                raise TournamentError(_("{name} is not paused", name=shown(state.tournament.name)))
            resumed = TournamentWrites(
                tournament={"status": TournamentStatus.RUNNING},
                events=(event(Action.TOURNAMENT_RESUMED, state, now, background=False),),
            )
            return then(state, resumed, lambda s: after_results(s, now, background=False))

        return await self.change(tournament_id, step)

    async def cancel(
        self, tournament_id: int, moderator_id: int, *, is_moderator: bool = False
    ) -> ActionResult:
        """A moderator cancels the event: no more rounds, no standings; games being played
        finish as ordinary games (rated if the event was)."""
        moderators_only(is_moderator)
        now = self.clock()

        def step(state: TournamentState) -> TournamentWrites:
            t = state.tournament
            if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
                raise TournamentError(_("{name} is over", name=shown(t.name)))
            return TournamentWrites(
                tournament={"status": TournamentStatus.CANCELLED, "ended_at": now},
                events=(event(Action.TOURNAMENT_CANCELLED, state, now, background=False),),
            )

        (result,) = await self.change(tournament_id, step)
        return result

    async def _row(self, tournament_id: int) -> TournamentRow:
        row = await self.store.tournament(tournament_id)
        if row is None:
            raise NotFoundError(_("there is no tournament #{id}", id=tournament_id))
        return row


def _in_range(t: TournamentRow, rating: int) -> Text:
    if t.min_rating is not None and t.max_rating is not None:
        return _(
            "{name} is for ratings from {low} to {high}; yours is {rating}",
            name=shown(t.name),
            low=t.min_rating,
            high=t.max_rating,
            rating=rating,
        )
    if t.min_rating is not None:
        return _(
            "{name} is for ratings of {low} and above; yours is {rating}",
            name=shown(t.name),
            low=t.min_rating,
            rating=rating,
        )
    return _(
        "{name} is for ratings up to {high}; yours is {rating}",
        name=shown(t.name),
        high=t.max_rating or 0,
        rating=rating,
    )
