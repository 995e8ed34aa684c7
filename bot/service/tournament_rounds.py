"""A tournament's steps: what each change writes, decided from the tournament as it stands.

Every function here is pure: it takes a :class:`~bot.store.TournamentState` (read by the store
under the tournament's lock) and answers the :class:`~bot.store.TournamentWrites` to store with
it, outbox entries included.  The same state gives the same answer, so a step that a crash cut
off is simply taken again, and a step that finds its work done (the round already paired, the
result already in) writes nothing: that is what makes two games ending at once pair the next
round once, and a restart between rounds safe.

The pairing and the standings themselves are :mod:`bot.tournaments`' (plain values in and out);
this module turns rows into its :class:`~bot.tournaments.model.Entrant` and
:class:`~bot.tournaments.model.Result` values and its pairings back into rows.

A round is complete when each of its pairings has points.  Then, unless a moderator paused the
event, the next round is paired in the same step, or the event ends: final standings, each
player's performance rating kept, status finished.  An arena pairs whoever is waiting instead of
rounds, and ends at its time; its games still running then do not count (lidraughts'
``TournamentApi.finish`` removes the pairings still being played: ``PairingRepo removePlaying``,
modules/tournament/src/main/TournamentApi.scala).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from rules.position import Position
from rules.variants import find_variant

from ..enums import GameStatus, Side, TournamentStatus
from ..results import Action
from ..store import (
    GameChanges,
    GameRow,
    NewEvent,
    NewPairing,
    PairingChanges,
    PairingRow,
    TournamentState,
    TournamentStep,
    TournamentUpdate,
    TournamentWrites,
)
from ..tournaments.arena import pair_arena
from ..tournaments.berger import BYE, berger_schedule, pair_round_robin, round_robin_rounds
from ..tournaments.model import Entrant, Format, Pairing, Result, Table
from ..tournaments.standings import standings
from ..tournaments.swiss import pair_swiss
from .events import new_event

log = logging.getLogger(__name__)

ARENA_PAIR_AT_ONCE = 4
"""An arena game's end pairs the waiting players at once when at least this many wait (there
is a choice of opponents); fewer are paired by the next tick, so two players who just met are
not paired together again the moment they finish while others are about to."""
PLAYING = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def format_of(state: TournamentState) -> Format:
    return Format(state.tournament.format)


def fewest(format: Format) -> int:
    """The fewest players an event starts with (a Berger table has three at least)."""
    return 3 if format is Format.ROUND_ROBIN else 2


def entrants(state: TournamentState) -> list[Entrant]:
    """The players as the pairing sees them."""
    return [
        Entrant(
            p.user_id,
            p.name,
            p.rating,
            p.number,
            withdrawn=p.withdrawn,
            joined_round=p.joined_round,
        )
        for p in state.players
    ]


def results(state: TournamentState) -> list[Result]:
    """Every decided pairing as a result (an arena numbers its pairings in the order they
    were made: the pairing's sequence number is its ``round``)."""
    arena = format_of(state) is Format.ARENA
    return [
        Result(
            index if arena else p.round,
            p.white_id,
            p.black_id,
            p.white_points or 0.0,
            p.black_points or 0.0,
            forfeit=p.forfeit,
            white_berserk=p.white_berserk,
            black_berserk=p.black_berserk,
            moves=p.moves,
        )
        for index, p in enumerate(state.pairings, 1)
        if p.decided
    ]


def bye_points(state: TournamentState) -> float:
    """A bye's points: the Swiss's value; a round robin's player sitting out scores nothing."""
    return state.tournament.bye_points if format_of(state) is Format.SWISS else 0.0


def total_rounds(state: TournamentState) -> int | None:
    """Rounds planned: a Swiss's, a round robin's from its players (once numbered)."""
    t = state.tournament
    if format_of(state) is Format.ROUND_ROBIN:
        return round_robin_rounds(max(2, len(state.players)), double=t.double_round_robin)
    return t.rounds if format_of(state) is Format.SWISS else None


def table(state: TournamentState) -> Table:
    """The standings after the results so far, the current round's games being played shown
    as such."""
    playing = [
        Pairing(p.round, p.board, p.white_id, p.black_id) for p in current(state) if not p.decided
    ]
    return standings(
        format_of(state),
        entrants(state),
        results(state),
        rounds=total_rounds(state),
        bye_points=bye_points(state),
        pairings=playing,
    )


def event(action: Action, state: TournamentState, now: float, *, background: bool) -> NewEvent:
    """The outbox entry announcing ``action`` in the tournament's channel; ``background``: no
    interaction delivers it, so it is due at once."""
    t = state.tournament
    made = new_event(action, channel_id=t.channel_id, guild_id=t.guild_id, now=now)
    made = replace(made, tournament_id=t.id)
    return replace(made, next_attempt_at=now) if background else made


def then(
    state: TournamentState,
    first: TournamentWrites,
    decide: Callable[[TournamentState], TournamentWrites],
) -> TournamentWrites:
    """``first``, then what ``decide`` answers on the tournament as ``first`` leaves it."""
    second = decide(applied(state, first))
    return TournamentWrites(
        tournament={**first.tournament, **second.tournament},
        new_players=first.new_players + second.new_players,
        removed_players=first.removed_players + second.removed_players,
        players=first.players + second.players,
        pairings=first.pairings + second.pairings,
        new_pairings=first.new_pairings + second.new_pairings,
        removed_pairings=first.removed_pairings + second.removed_pairings,
        events=first.events + second.events,
    )


def applied(state: TournamentState, writes: TournamentWrites) -> TournamentState:
    """The tournament as it will be once ``writes`` are stored (new pairings with negative
    ids until the store gives them theirs)."""
    t = replace(state.tournament, **writes.tournament)
    changed_players = dict(writes.players)
    players = [
        replace(p, **changed_players.get(p.user_id, {}))
        for p in state.players
        if p.user_id not in writes.removed_players
    ]
    players += [replace(p, tournament_id=t.id) for p in writes.new_players]
    changed: dict[int, PairingChanges] = {}
    for pairing_id, change in writes.pairings:
        changed[pairing_id] = {**changed.get(pairing_id, {}), **change}
    pairings = [
        replace(p, **changed.get(p.id, {}))
        for p in state.pairings
        if p.id not in writes.removed_pairings
    ]
    for n, new in enumerate(writes.new_pairings, 1):
        pairings.append(
            PairingRow(
                id=-n,
                tournament_id=t.id,
                round=new.round,
                board=new.board,
                white_id=new.white_id,
                black_id=new.black_id,
                game_id=None,
                white_points=new.white_points,
                black_points=new.black_points,
                forfeit=new.forfeit,
                white_berserk=False,
                black_berserk=False,
                moves=0,
                reminded=False,
                fixed_reason=None,
                fixed_by=None,
                created_at=new.created_at,
                decided_at=new.decided_at,
            )
        )
    players.sort(key=lambda p: (p.number, p.user_id))
    return TournamentState(t, tuple(players), tuple(pairings))


# -- starting ------------------------------------------------------------------------------------


def numbered(state: TournamentState) -> TournamentWrites:
    """Pairing numbers by rating (then who joined first), 1 for the top seed."""
    seeded = sorted(state.players, key=lambda p: (-p.rating, p.joined_at, p.user_id))
    return TournamentWrites(
        players=tuple((p.user_id, {"number": n}) for n, p in enumerate(seeded, 1))
    )


def start(state: TournamentState, now: float, *, background: bool) -> TournamentWrites:
    """Start an open tournament: numbered players and the first round (an arena: its first
    pairings and its end time); too few players (:func:`fewest`) cancel it."""
    t = state.tournament
    if t.status is not TournamentStatus.OPEN:
        return TournamentWrites()
    if len(state.players) < fewest(format_of(state)):
        return TournamentWrites(
            tournament={"status": TournamentStatus.CANCELLED, "ended_at": now},
            events=(event(Action.TOURNAMENT_CANCELLED, state, now, background=background),),
        )
    begun = TournamentWrites(
        tournament={
            "status": TournamentStatus.RUNNING,
            "started_at": now,
            "ends_at": None if t.duration is None else now + t.duration,
        },
        players=numbered(state).players,
        events=(event(Action.TOURNAMENT_STARTED, state, now, background=background),),
    )
    return then(state, begun, lambda s: next_round(s, now, background=background))


# -- rounds --------------------------------------------------------------------------------------


def current(state: TournamentState) -> list[PairingRow]:
    """The pairings of the round being played."""
    return [p for p in state.pairings if p.round == state.tournament.round]


def waiting(state: TournamentState) -> list[Entrant]:
    """An arena's players free to be paired: not withdrawn, not paused, not playing."""
    busy = {who for p in state.pairings if not p.decided for who in (p.white_id, p.black_id)}
    paused = {p.user_id for p in state.players if p.paused}
    return [
        e for e in entrants(state) if not e.withdrawn and e.id not in busy and e.id not in paused
    ]


def new_pairings(
    state: TournamentState, pairings: Iterable[Pairing], now: float, round_no: int
) -> list[NewPairing]:
    """Rows of round ``round_no`` for ``pairings``: a bye is decided at once (its points), as
    is a round robin's game against a withdrawn player (a forfeit won by the one who stayed,
    against that player, on the table's colours)."""
    robin = format_of(state) is Format.ROUND_ROBIN
    absent = withdrawn_opponents(state, round_no) if robin else {}
    made = []
    for p in pairings:
        if p.black is not None:
            made.append(NewPairing(round_no, p.board, p.white, p.black, now))
        elif p.white in absent:
            gone, stays_white = absent[p.white]
            white, black = (p.white, gone) if stays_white else (gone, p.white)
            won = (1.0, 0.0) if stays_white else (0.0, 1.0)
            made.append(NewPairing(round_no, p.board, white, black, now, *won, True, now))
        else:
            bye = bye_points(state)
            made.append(NewPairing(round_no, p.board, p.white, None, now, bye, 0.0, False, now))
    return made


def withdrawn_opponents(state: TournamentState, round_no: int) -> dict[int, tuple[int, bool]]:
    """A round robin's players whose opponent in ``round_no`` withdrew: player -> (that
    opponent, whether the player has White), read from the Berger table itself (the pairing
    gives such a player a round off, as it gives an odd field's sitting player one)."""
    by_number = {p.number: p for p in state.players}
    double = state.tournament.double_round_robin
    schedule = berger_schedule(len(state.players), double=double)
    found: dict[int, tuple[int, bool]] = {}
    for white_no, black_no in schedule[round_no - 1]:
        if BYE in (white_no, black_no):
            continue
        white, black = by_number[white_no], by_number[black_no]
        if white.withdrawn != black.withdrawn:
            stays, gone = (black, white) if white.withdrawn else (white, black)
            found[stays.user_id] = (gone.user_id, stays is white)
    return found


def next_round(state: TournamentState, now: float, *, background: bool) -> TournamentWrites:
    """The next round's pairings if the current one is complete (or none was played), or the
    end after the last; nothing while paused, or while the round is being played.  A round
    decided whole as it is paired (byes and forfeits only) is followed at once by the next."""
    t = state.tournament
    if t.status is not TournamentStatus.RUNNING or format_of(state) is Format.ARENA:
        if t.status is TournamentStatus.RUNNING and t.round == 0:
            return arena_wave(state, now, background=background, least=2)
        return TournamentWrites()
    if any(not p.decided for p in current(state)):
        return TournamentWrites()
    planned = total_rounds(state) or 0
    round_no = t.round + 1
    if round_no > planned:
        return finish(state, now, background=background)
    if format_of(state) is Format.SWISS:
        pairs = pair_swiss(entrants(state), results(state), round_no)
    else:
        pairs = pair_round_robin(entrants(state), round_no, double=t.double_round_robin)
    rows = new_pairings(state, pairs, now, round_no)
    if not rows:
        return finish(state, now, background=background)
    paired = TournamentWrites(
        tournament={"round": round_no},
        new_pairings=tuple(rows),
        events=(event(Action.ROUND_PAIRED, state, now, background=background),),
    )
    return then(state, paired, lambda s: next_round(s, now, background=background))


def arena_wave(
    state: TournamentState, now: float, *, background: bool, least: int = ARENA_PAIR_AT_ONCE
) -> TournamentWrites:
    """An arena's next pairings among the players waiting, when at least ``least`` wait and
    its time is not up."""
    t = state.tournament
    if t.status is not TournamentStatus.RUNNING or (t.ends_at is not None and now >= t.ends_at):
        return TournamentWrites()
    free = waiting(state)
    if len(free) < max(2, least):
        return TournamentWrites()
    wave = t.round + 1
    ratings = {e.id: e.rating for e in free}
    pairs = pair_arena(
        [e.id for e in free], results(state), ratings, first_number=len(state.pairings) + 1
    )
    if not pairs:
        return TournamentWrites()
    return TournamentWrites(
        tournament={"round": wave},
        new_pairings=tuple(new_pairings(state, pairs, now, wave)),
        events=(event(Action.ROUND_PAIRED, state, now, background=background),),
    )


def finish(state: TournamentState, now: float, *, background: bool) -> TournamentWrites:
    """The end: final standings, each player's performance rating kept (an arena's pairings
    still being played are dropped first: they do not count)."""
    t = state.tournament
    if t.status not in PLAYING:
        return TournamentWrites()
    unplayed = tuple(p.id for p in state.pairings if not p.decided)
    final = table(applied(state, TournamentWrites(removed_pairings=unplayed)))
    return TournamentWrites(
        tournament={"status": TournamentStatus.FINISHED, "ended_at": now},
        players=tuple((row.entrant.id, {"performance": row.performance}) for row in final.rows),
        removed_pairings=unplayed,
        events=(event(Action.TOURNAMENT_FINISHED, state, now, background=background),),
    )


def after_results(state: TournamentState, now: float, *, background: bool) -> TournamentWrites:
    """What follows results just in: the next round or the end (an arena: a wave of pairings
    when enough players wait)."""
    if format_of(state) is Format.ARENA:
        return arena_wave(state, now, background=background)
    return next_round(state, now, background=background)


# -- results -------------------------------------------------------------------------------------


def decided(
    pairing: PairingRow,
    white: float,
    black: float,
    now: float,
    *,
    forfeit: bool = False,
    moves: int | None = None,
) -> tuple[int, PairingChanges]:
    changes: PairingChanges = {
        "white_points": white,
        "black_points": black,
        "forfeit": forfeit,
        "decided_at": now,
    }
    if moves is not None:
        changes["moves"] = moves
    return pairing.id, changes


def first_mover(variant: str) -> Side:
    """The side that moves first in ``variant`` (Black in English draughts)."""
    return Side.of(Position.start(find_variant(variant)).turn)


def to_move_early(row: GameRow, ply: int) -> Side:
    """The side to move at ``ply`` of a game from the start position, before captures can
    make a turn longer: the first mover on even plies."""
    first = first_mover(row.variant)
    if ply % 2 == 0:
        return first
    return Side.BLACK if first is Side.WHITE else Side.WHITE


def game_points(row: GameRow, changes: GameChanges) -> tuple[float, float, bool] | None:
    """The points of a tournament game that ``changes`` end: a win, a draw, or (an abort
    before the player to move made a first move: a no-show, a moderator's abort then) a
    forfeit won by the other; None for an abort after both moved (a moderator's: the result
    is theirs to fix)."""
    status = changes.get("status")
    if status is GameStatus.FINISHED:
        winner = changes.get("winner")
        if winner is None:
            return 0.5, 0.5, False
        return (1.0, 0.0, False) if winner is Side.WHITE else (0.0, 1.0, False)
    ply = changes.get("ply", row.ply)
    if status is GameStatus.ABORTED and ply < 2:
        absent = to_move_early(row, ply)
        return (0.0, 1.0, True) if absent is Side.WHITE else (1.0, 0.0, True)
    return None


def result_step(
    pairing_id: int,
    points: tuple[float, float, bool],
    now: float,
    *,
    moves: int = 0,
    fixed: tuple[str, int] | None = None,
    background: bool = True,
    game_id: int | None = None,
) -> TournamentStep:
    """The step recording ``points`` (White's, Black's, forfeit) for a pairing, then what
    follows; nothing if the pairing is already decided (a repeat) or, unless ``fixed`` by a
    moderator (reason, who), if the event is over.  ``background``: no action hands its
    announcements out (a game's end), so they are due at once.  ``game_id``: the game that
    decided it, which must still be the pairing's."""

    def step(state: TournamentState) -> TournamentWrites:
        pairing = next((p for p in state.pairings if p.id == pairing_id), None)
        if pairing is None or (pairing.decided and fixed is None):
            return TournamentWrites()
        if game_id is not None and pairing.game_id != game_id:
            return TournamentWrites()
        if state.tournament.status not in PLAYING and fixed is None:
            return TournamentWrites()
        white, black, forfeit = points
        pid, changes = decided(pairing, white, black, now, forfeit=forfeit, moves=moves)
        if fixed is not None:
            changes["fixed_reason"], changes["fixed_by"] = fixed
        recorded = TournamentWrites(pairings=((pid, changes),))
        if fixed is not None:
            recorded = replace(
                recorded,
                events=(event(Action.RESULT_FIXED, state, now, background=background),),
            )
        return then(state, recorded, lambda s: following(s, now, background=background))

    return step


def following(state: TournamentState, now: float, *, background: bool) -> TournamentWrites:
    """:func:`after_results`, or nothing when it fails (logged): a result is written whatever
    happens to the pairing of the next round, so a fault there never stops a game from ending;
    the tick asks again (and logs again) until it is mended."""
    try:
        return after_results(state, now, background=background)
    except Exception:
        log.exception("tournament %s: what follows a result failed", state.tournament.id)
        return TournamentWrites()


def game_end_update(row: GameRow, changes: GameChanges, now: float) -> TournamentUpdate | None:
    """The tournament step a tournament game's final write carries (see
    :meth:`bot.service.live.LiveGames.save`): its result, and the next round when it completes
    one.  None for other games and for an abort the moderators must settle."""
    if row.pairing_id is None:
        return None
    points = game_points(row, changes)
    if points is None:
        return None
    moves = changes.get("ply", row.ply)
    step = result_step(row.pairing_id, points, now, moves=moves, game_id=row.id)
    return TournamentUpdate(row.pairing_id, step)
