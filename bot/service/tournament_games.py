"""A tournament's games: opening each pairing's game exactly once, the moderators' drops and
fixed results, an arena's berserk, and what time brings (the tick: events whose start time
came, an arena's pairings and end, no-show reminders and forfeits).

A game is opened by :meth:`TournamentGames.open_game` once the Discord layer has made its
thread (the store writes it only if the pairing has none yet: calling it again after a crash
opens nothing twice).  A game's end writes its pairing's result with what follows
(:func:`~bot.service.tournament_rounds.game_end_update`, in the game's final transaction).
Where a moderator or the clock decides a running game (a drop, a fixed result, a no-show), the
game is ended under its lock and that decision is the step its final write carries, so the
game and the standings never disagree.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from rules.variants import find_variant

from ..enums import GameStatus, Orientation, Side, TimePool, TournamentStatus
from ..errors import ConflictError, NotAPlayerError, NotFoundError, TournamentError
from ..i18n import _
from ..markdown import shown
from ..results import Action, ActionResult, Player
from ..store import (
    ChannelBusy,
    GameChanges,
    GameRow,
    PairingChanges,
    PairingRow,
    Shards,
    Store,
    StoreUnavailable,
    TournamentRow,
    TournamentState,
    TournamentStep,
    TournamentUpdate,
    TournamentWrites,
)
from ..tournaments.model import Format
from .clocks import control_of, pool_of
from .events import new_event
from .ladder import shown_rating
from .live import Live, LiveGames, apply_rules
from .records import new_game_row, play_opening
from .settings import SettingsBook
from .starting import Starter
from .tournament_rounds import (
    after_results,
    arena_wave,
    event,
    finish,
    first_mover,
    result_step,
    start,
    then,
    to_move_early,
)
from .tournament_views import no_show_text, result_label, tournament_result
from .tournaments import FIXABLE, Tournaments, moderators_only
from .views import game_view

log = logging.getLogger(__name__)

REOPEN_AFTER = 120.0
"""A pairing still without its game this long after it was made is announced again (the
Discord layer showed the round whole but could not post a pairing's message): the new
announcement opens what is missing, and nothing twice (:meth:`TournamentGames.open_game`).
Not while the round's own announcement is still owed: its delivery goes on where it stopped
(after a restart too, finding its posts again), and a second announcement beside it could post
a pairing's message twice."""
BERSERK_SHARE = 0.5
"""Berserk halves the berserker's clock (lidraughts also drops the increment; a game here has
one increment for both sides, so the time alone is halved)."""


class TournamentGames:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        starter: Starter,
        settings: SettingsBook,
        tournaments: Tournaments,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.live = live
        self.starter = starter
        self.settings = settings
        self.tournaments = tournaments
        self.clock = clock
        self._reannounced: dict[int, float] = {}
        """Tournament -> when its unopened games were last announced again (this process)."""

    # -- opening games -----------------------------------------------------------------------

    async def open_game(self, pairing_id: int, channel_id: int) -> ActionResult | None:
        """Start the pairing's game in the thread ``channel_id`` and announce it there (as any
        game start); None when the pairing has its game already (or is decided, or its event
        is not running): nothing is written then."""
        pairing = await self.store.pairing(pairing_id)
        if pairing is None:
            raise NotFoundError(_("there is no pairing #{id}", id=pairing_id))
        if pairing.game_id is not None or pairing.decided or pairing.black_id is None:
            return None
        state = await self.tournaments.state(pairing.tournament_id)
        t = state.tournament
        names = {p.user_id: p.name for p in state.players}
        white = Player(pairing.white_id, names.get(pairing.white_id, "?"))
        black = Player(pairing.black_id, names.get(pairing.black_id, "?"))
        now = self.clock()
        game, moves = play_opening(find_variant(t.variant), (), white, black, now)
        server = await self.settings.get(t.guild_id)
        ratings: tuple[str | None, str | None] = (None, None)
        if t.rated:
            pool = pool_of(t)
            ratings = (
                await self._shown(t, white.id, pool, now),
                await self._shown(t, black.id, pool, now),
            )
        record = new_game_row(
            game,
            moves,
            guild_id=t.guild_id,
            channel_id=channel_id,
            white=white,
            black=black,
            move_time=t.move_time,
            opening=(),
            level=None,
            computer=None,
            match_id=None,
            first_of_match=False,
            now=now,
            flip=server.orientation is Orientation.BLACK,
            ratings=ratings,
            control=control_of(t),
        )
        if not t.rated:
            record = replace(record, rated=False, white_rating_shown=None, black_rating_shown=None)
        started = new_event(
            Action.GAME_STARTED, channel_id=channel_id, guild_id=t.guild_id, now=now
        )
        try:
            game_id = await self.store.open_tournament_game(pairing_id, record, started)
        except ChannelBusy:
            raise TournamentError(_("a game is already running in that channel")) from None
        if game_id is None:
            return None
        row = await self.store.game(game_id)
        assert row is not None
        result = self.starter.started(Live(row, game), event=started.id)
        return await self.starter.notices.turn(result)

    async def _shown(self, t: TournamentRow, user_id: int, pool: TimePool, now: float) -> str:
        return shown_rating(await self.store.rating(t.guild_id, user_id, t.variant, pool), now)

    # -- moderators ----------------------------------------------------------------------------

    async def drop(
        self, tournament_id: int, moderator_id: int, user_id: int, *, is_moderator: bool = False
    ) -> list[ActionResult]:
        """A moderator drops a player: withdrawn (their games played still count); an
        undecided game of theirs in the current round is lost by forfeit (ended, if it runs)."""
        moderators_only(is_moderator)
        state = await self.tournaments.state(tournament_id)
        mine = next((p for p in state.players if p.user_id == user_id), None)
        t = state.tournament
        if mine is None or mine.withdrawn:
            raise TournamentError(_("they are not playing in {name}", name=shown(t.name)))
        if t.status not in (
            TournamentStatus.OPEN,
            TournamentStatus.RUNNING,
            TournamentStatus.PAUSED,
        ):
            raise TournamentError(_("{name} is over", name=shown(t.name)))
        now = self.clock()
        open_pairing = next(
            (p for p in state.pairings if not p.decided and user_id in (p.white_id, p.black_id)),
            None,
        )

        def withdraw(state: TournamentState) -> TournamentWrites:
            dropped = event(Action.PLAYER_DROPPED, state, now, background=False)
            if state.tournament.status is TournamentStatus.OPEN:
                return TournamentWrites(removed_players=(user_id,), events=(dropped,))
            return TournamentWrites(players=((user_id, {"withdrawn": True}),), events=(dropped,))

        step: TournamentStep = withdraw
        if open_pairing is not None:
            lost = (0.0, 1.0, True) if open_pairing.white_id == user_id else (1.0, 0.0, True)
            decide = result_step(open_pairing.id, lost, now, background=False)
            step = _both(withdraw, decide)
        results = await self._decide(tournament_id, open_pairing, step, player=shown(mine.name))
        return results

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
        """A moderator sets a pairing's result, with the reason shown beside it (a game still
        running is ended with it); the standings, and the next round if this completes one,
        follow."""
        moderators_only(is_moderator)
        state = await self.tournaments.state(tournament_id)
        pairing = next((p for p in state.pairings if p.id == pairing_id), None)
        if pairing is None or pairing.black_id is None:
            raise TournamentError(
                _(
                    "there is no game #{id} in {name}",
                    id=pairing_id,
                    name=shown(state.tournament.name),
                )
            )
        if (white_points, black_points) not in FIXABLE:
            raise TournamentError(_("a result is 1-0, ½-½, 0-1 or 0-0 (both lost)"))
        why = " ".join(reason.split())[:200]
        if not why:
            raise TournamentError(_("say why the result is set: players see the reason"))
        now = self.clock()
        forfeit = pairing.game_id is None or white_points + black_points < 1
        step = result_step(
            pairing_id,
            (white_points, black_points, forfeit),
            now,
            fixed=(why, moderator_id),
            background=False,
        )
        names = {p.user_id: p.name for p in state.players}
        fixed = replace(
            pairing, white_points=white_points, black_points=black_points, forfeit=forfeit
        )
        said = (
            f"{shown(names.get(pairing.white_id, '?'))} {result_label(fixed)}"
            f" {shown(names.get(pairing.black_id, '?'))}"
        )
        return await self._decide(tournament_id, pairing, step, result=said, reason=shown(why))

    async def _decide(
        self, tournament_id: int, pairing: PairingRow | None, step: TournamentStep, **words: str
    ) -> list[ActionResult]:
        """Run ``step``: in the final write of the pairing's game when it is still running
        (the game ends, aborted, with the step's result), else on the tournament alone."""
        game = None if pairing is None or pairing.game_id is None else pairing.game_id
        if game is not None:
            row = await self.store.game(game)
            if row is not None and row.status is GameStatus.RUNNING:
                assert pairing is not None
                async with self.live.lock(game):
                    live = await self.live.load(game)
                    apply_rules(live.game.abort)
                    steps: list[TournamentWrites] = []

                    def recording(state: TournamentState) -> TournamentWrites:
                        steps.append(step(state))
                        return steps[-1]

                    aborted = await self.live.save(
                        live,
                        user_id=0,
                        moved=False,
                        announce=Action.ABORTED,
                        tournament=TournamentUpdate(pairing.id, recording),
                    )
                view = await self.tournaments.view(tournament_id)
                ended = ActionResult(
                    Action.ABORTED,
                    _("A moderator ended this game; its result is set in the tournament."),
                    game=game_view(live.row, live.game),
                    event=aborted,
                )
                made = [e for s in steps for e in s.events]
                return [
                    ended,
                    *(tournament_result(Action(e.kind), view, event=e.id, **words) for e in made),
                ]
        return await self.tournaments.change(tournament_id, step, **words)

    # -- berserk -------------------------------------------------------------------------------

    async def berserk(
        self, user_id: int, *, channel_id: int | None = None, game_id: int | None = None
    ) -> ActionResult:
        """An arena player halves their own clock before their first move, for an extra point
        if they win (having made a few moves: :mod:`bot.tournaments`' standings count it)."""
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            row = live.row
            if row.pairing_id is None:
                raise TournamentError(_("berserk is for arenas played with a clock"))
            pairing = await self.store.pairing(row.pairing_id)
            t = None if pairing is None else await self.store.tournament(pairing.tournament_id)
            if pairing is None or t is None or not t.berserk or row.clock_base is None:
                raise TournamentError(_("berserk is for arenas played with a clock"))
            if user_id not in (row.white_id, row.black_id):
                raise NotAPlayerError(_("you are not playing in this game"))
            side = Side.WHITE if user_id == row.white_id else Side.BLACK
            moved = row.ply >= (1 if side is first_mover(row.variant) else 2)
            already = pairing.white_berserk if side is Side.WHITE else pairing.black_berserk
            if moved or already:
                raise TournamentError(_("berserk is only possible before your first move"))
            changes = _halved(row, side, Side.of(live.game.turn))
            flag: PairingChanges = (
                {"white_berserk": True} if side is Side.WHITE else {"black_berserk": True}
            )
            marked = TournamentWrites(pairings=((pairing.id, flag),))
            announced = self.live.event(live, Action.BERSERK)
            changes["updated_at"] = self.clock()
            await self.live.write(
                live,
                changes,
                lambda: self.store.update_game(
                    row.id,
                    row.version,
                    changes,
                    event=announced,
                    tournament=TournamentUpdate(pairing.id, lambda state: marked),
                ),
            )
            view = game_view(live.row, live.game)
        who = shown(row.white_name if side is Side.WHITE else row.black_name)
        return ActionResult(
            Action.BERSERK,
            _("{name} goes berserk: half the clock, an extra point for a win.", name=who),
            game=view,
            event=None if announced is None else announced.id,
        )

    # -- the tick ------------------------------------------------------------------------------

    async def tick(self, mine: Shards) -> list[ActionResult]:
        """What time brings to the tournaments of this process's servers: events starting,
        an arena's pairings of waiting players and its end, games never opened announced again,
        no-show reminders and forfeits."""
        results: list[ActionResult] = []
        now = self.clock()
        for t in await self.store.live_tournaments(shards=mine):
            try:
                results += await self._due(t, now)
            except (TournamentError, ConflictError) as refused:  # changed meanwhile
                log.info("tournament %s: %s", t.id, refused)
            except StoreUnavailable:
                raise  # the whole tick waits for the database
            except Exception:  # one broken event must not stop the others, nor the games
                log.exception("tournament %s: its due work failed; tried again next tick", t.id)
        results += await self._no_shows(mine, now)
        return results

    async def _due(self, t: TournamentRow, now: float) -> list[ActionResult]:
        """Whatever is due for ``t``, decided first on the tournament read without its lock
        (most ticks find nothing to do, and write nothing), then taken as a step under it."""
        step: TournamentStep | None = None
        if t.status is TournamentStatus.OPEN:
            if t.starts_at is not None and t.starts_at <= now:
                step = lambda s: start(s, now, background=False)  # noqa: E731
            return [] if step is None else await self.tournaments.change(t.id, step)
        if t.status is not TournamentStatus.RUNNING:
            return []
        state = await self.tournaments.state(t.id)
        if t.format == Format.ARENA.value:
            if t.ends_at is not None and t.ends_at <= now:
                step = lambda s: finish(s, now, background=False)  # noqa: E731
            else:
                step = lambda s: arena_wave(s, now, background=False, least=2)  # noqa: E731
        else:
            step = lambda s: after_results(s, now, background=False)  # noqa: E731
        results = []
        if not step(state).empty:
            results = await self.tournaments.change(t.id, step)
        if t.format != Format.ARENA.value:
            results += await self._unopened(t, now)
        return results

    async def _unopened(self, t: TournamentRow, now: float) -> list[ActionResult]:
        """The round announced again when its games were not all opened in time."""
        state = await self.tournaments.state(t.id)
        waiting = [
            p
            for p in state.pairings
            if p.round == t.round and not p.decided and p.game_id is None and p.black_id
        ]
        last = self._reannounced.get(t.id, -REOPEN_AFTER)
        if not waiting or min(p.created_at for p in waiting) + REOPEN_AFTER > now:
            return []
        if now - last < REOPEN_AFTER:
            return []
        if await self.store.tournament_announcement_owed(t.id, Action.ROUND_PAIRED.value):
            return []
        self._reannounced[t.id] = now
        return await self.tournaments.change(
            t.id,
            lambda s: TournamentWrites(
                events=(event(Action.ROUND_PAIRED, s, now, background=False),)
            ),
        )

    async def _no_shows(self, mine: Shards, now: float) -> list[ActionResult]:
        results = []
        for row in await self.store.tournament_games_unstarted(shards=mine):
            assert row.pairing_id is not None
            pairing = await self.store.pairing(row.pairing_id)
            if pairing is None:
                continue
            t = await self.store.tournament(pairing.tournament_id)
            if t is None or t.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
                continue
            moves = await self.store.moves(row.id)
            since = row.created_at if not moves else moves[-1].played_at
            if now >= since + t.forfeit_after:
                forfeit = await self._forfeit(row.id, t)
                if forfeit is not None:
                    results.append(forfeit)
            elif now >= since + t.forfeit_after / 2 and not pairing.reminded:
                reminded = await self._remind(row, pairing, t, since + t.forfeit_after - now)
                if reminded is not None:
                    results.append(reminded)
        return results

    async def _remind(
        self, row: GameRow, pairing: PairingRow, t: TournamentRow, left: float
    ) -> ActionResult | None:
        now = self.clock()
        white = to_move_early(row, row.ply) is Side.WHITE
        to_move = row.white_id if white else row.black_id
        name = row.white_name if white else row.black_name
        made = new_event(
            Action.REMINDER,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            game_id=row.id,
            now=now,
        )

        def step(state: TournamentState) -> TournamentWrites:
            current = next((p for p in state.pairings if p.id == pairing.id), None)
            if current is None or current.reminded or current.decided:
                return TournamentWrites()
            return TournamentWrites(pairings=((pairing.id, {"reminded": True}),), events=(made,))

        writes = await self.store.change_tournament(t.id, step)
        if writes is None or not writes.events:
            return None
        view = game_view(row, await self.live.replay(row))
        return ActionResult(
            Action.REMINDER,
            no_show_text(name, t.name, left),
            game=view,
            mentions=(to_move,),
            event=made.id,
            tournament=await self.tournaments.view(t.id),
        )

    async def _forfeit(self, game_id: int, t: TournamentRow) -> ActionResult | None:
        """The player to move never made a first move: the game ends, lost by forfeit
        (:func:`~bot.service.tournament_rounds.game_points` reads the abort so)."""
        async with self.live.lock(game_id):
            live = await self.live.load_quietly(game_id)
            if live is None or live.game.is_over or live.row.ply >= 2:
                return None
            white = to_move_early(live.row, live.row.ply) is Side.WHITE
            absent = live.row.white_name if white else live.row.black_name
            apply_rules(live.game.abort)
            try:
                event_id = await self.live.save(
                    live, user_id=0, moved=False, announce=Action.FORFEIT
                )
            except ConflictError:
                return None  # moved meanwhile (another process)
            view = game_view(live.row, live.game)
        return ActionResult(
            Action.FORFEIT,
            _(
                "{name} did not make a first move in time and loses this game of {event} by "
                "forfeit.",
                name=shown(absent),
                event=shown(t.name),
            ),
            game=view,
            event=event_id,
            tournament=await self.tournaments.view(t.id),
        )


def _halved(row: GameRow, side: Side, to_move: Side) -> GameChanges:
    """The berserker's clock halved (and, on their turn, their flag brought forward)."""
    if side is Side.WHITE:
        assert row.white_clock is not None
        cut = row.white_clock * BERSERK_SHARE
        changes: GameChanges = {"white_clock": row.white_clock - cut}
    else:
        assert row.black_clock is not None
        cut = row.black_clock * BERSERK_SHARE
        changes = {"black_clock": row.black_clock - cut}
    if to_move is side and row.deadline is not None:
        changes["deadline"] = row.deadline - cut
    return changes


def _both(first: TournamentStep, second: TournamentStep) -> TournamentStep:
    """``first``, then ``second`` on the tournament as ``first`` leaves it."""
    return lambda state: then(state, first(state), second)
