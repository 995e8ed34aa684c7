"""A game's rules record and its stored row, each made from the other.

The store keeps a game as its start, its moves and a few columns of state; the service plays on a
:class:`rules.Game`.  These pure functions are the only translation between the two: the columns
a position changes, the clock a move starts, the record of a new game, and the replay that
rebuilds a game from its row (refusing a record that does not add up).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rules.fen import parse_fen
from rules.game import Game
from rules.position import Position
from rules.variants import Color, Variant

from ..enums import GameStatus, Side
from ..errors import DamagedRecordError
from ..i18n import _
from ..results import Player, TimeControl
from ..store import GameChanges, GameRow, MoveRow, NewGame, NewMove
from . import clocks
from .views import status_of

log = logging.getLogger(__name__)


def state_changes(game: Game) -> GameChanges:
    """The columns that follow from the position and the record's draw state."""
    outcome = game.outcome
    count = game.advantage_count
    return {
        "ply": game.ply,
        "fen": game.position.fen(),
        "draw_offer": None if game.draw_offer is None else Side.of(game.draw_offer),
        "advantage_side": None if count is None else Side.of(count.side),
        "advantage_start_ply": None if count is None else count.start_ply,
        "status": status_of(game),
        "result": None if outcome is None else outcome.result(game.variant),
        "termination": None if outcome is None else outcome.termination.value,
        "termination_detail": "" if outcome is None else outcome.words,
        "winner": None if outcome is None or outcome.winner is None else Side.of(outcome.winner),
    }


LAST_WARNING_FRACTION = 0.1
LAST_WARNING_MIN = 60.0
LAST_WARNING_MAX = 3600.0


def last_warning_lead(move_time: float) -> float | None:
    """How long before the deadline the last warning comes: a tenth of the time per move, but at
    least a minute (less is no time to get to the game after reading a message) and at most an
    hour (a day-long move warned two and a half hours ahead is not a *last* warning; an hour
    is ample to find a moment).  None when that would not come after the half-time reminder
    (moves of under two minutes): the reminder is the warning then."""
    lead = min(max(move_time * LAST_WARNING_FRACTION, LAST_WARNING_MIN), LAST_WARNING_MAX)
    return None if lead >= move_time / 2 else lead


def warn_time(deadline: float, move_time: float, now: float) -> float | None:
    """When the last warning of a move due at ``deadline`` comes; None if none comes (too
    short a move, or that moment has passed already)."""
    lead = last_warning_lead(move_time)
    if lead is None or deadline - lead <= now:
        return None
    return deadline - lead


def clock_changes(
    game: Game, white_id: int, black_id: int, move_time: int, now: float, computer_id: int | None
) -> GameChanges:
    """Deadline and reminder times (half-time, last warning) for the side to move (none for the
    computer or a finished game)."""
    if game.is_over:
        return {"deadline": None, "remind_at": None, "warn_at": None}
    to_move_id = white_id if game.turn is Color.WHITE else black_id
    if computer_id is not None and to_move_id == computer_id:
        return {"deadline": None, "remind_at": None, "warn_at": None}
    deadline = now + move_time
    return {
        "deadline": deadline,
        "remind_at": now + move_time / 2,
        "warn_at": warn_time(deadline, move_time, now),
    }


def play_opening(
    variant: Variant,
    opening: Sequence[str],
    white: Player,
    black: Player,
    now: float,
    start_fen: str | None = None,
) -> tuple[Game, list[NewMove]]:
    """A new game from ``start_fen`` (checked; None: the variant's start) with ``opening``
    played (moves already checked to be playable), and those moves as records."""
    game = Game(variant, None if start_fen is None else parse_fen(start_fen, variant))
    moves = []
    for text in opening:
        mover = white if game.turn is Color.WHITE else black
        move = game.play(text)
        moves.append(NewMove(game.ply, move.pdn(), game.position.fen(), mover.id, now))
    return game, moves


def new_game_row(
    game: Game,
    moves: Sequence[NewMove],
    *,
    guild_id: int | None,
    channel_id: int,
    white: Player,
    black: Player,
    move_time: int,
    opening: Sequence[str],
    level: int | None,
    computer: int | None,
    match_id: int | None,
    first_of_match: bool,
    now: float,
    flip: bool = False,
    ratings: tuple[str | None, str | None] = (None, None),
    control: TimeControl | None = None,
) -> NewGame:
    """The row of a game about to be stored.  Games between two people in a server from the
    variant's start are rated (and show the players' ``ratings``, White's first, as they stand
    at the start); games against the computer are not.  ``flip``: public boards show Black at
    the bottom.
    ``control``: a Fischer clock (both sides' time starts with the game; never against the
    computer), else the time per move runs."""
    if control is not None and computer is None:
        clock = clocks.start(control, now)
    else:
        clock = clock_changes(game, white.id, black.id, move_time, now, computer)
        control = None
    # A game from a position of its own is a lesson or an exercise, never rated.
    from_start = game.start == Position.start(game.variant)
    rated = guild_id is not None and computer is None and from_start
    return NewGame(
        guild_id=guild_id,
        channel_id=channel_id,
        white_id=white.id,
        white_name=white.name,
        black_id=black.id,
        black_name=black.name,
        computer_id=computer,
        computer_level=level if computer is not None else None,
        variant=game.variant.key,
        start_fen=game.start.fen(),
        opening=" ".join(opening),
        ply=game.ply,
        fen=game.position.fen(),
        move_time=move_time,
        deadline=clock.get("deadline"),
        remind_at=clock.get("remind_at"),
        warn_at=clock.get("warn_at"),
        created_at=now,
        rated=rated,
        match_id=match_id,
        flip=flip,
        white_rating_shown=ratings[0] if rated else None,
        black_rating_shown=ratings[1] if rated else None,
        first_of_match=first_of_match,
        moves=tuple(moves),
        clock_base=None if control is None else control.base,
        clock_increment=None if control is None else control.increment,
        white_clock=clock.get("white_clock"),
        black_clock=clock.get("black_clock"),
        clock_started=clock.get("clock_started"),
    )


def replay(row: GameRow, moves: Sequence[MoveRow]) -> Game:
    """The rules record of a stored game; :class:`DamagedRecordError` (logged) when its moves
    and columns do not describe a legal game."""
    if [m.ply for m in moves] != list(range(1, row.ply + 1)):
        log.error("game %s: stored moves do not match its ply %s", row.id, row.ply)
        raise DamagedRecordError(_("the record of game #{id} is damaged", id=row.id))
    outcome = None
    if row.status is not GameStatus.RUNNING:
        outcome = {
            "termination": row.termination,
            "winner": None if row.winner is None else str(row.winner),
            "detail": row.termination_detail,
        }
    data = {
        "variant": row.variant,
        "start": row.start_fen,
        "moves": [m.pdn for m in moves],
        "draw_offer": None if row.draw_offer is None else str(row.draw_offer),
        "advantage_count": None
        if row.advantage_side is None
        else {"side": str(row.advantage_side), "start_ply": row.advantage_start_ply},
        "outcome": outcome,
    }
    try:
        return Game.from_dict(data)
    except ValueError as exc:
        log.error("game %s cannot be replayed: %s", row.id, exc)
        raise DamagedRecordError(_("the record of game #{id} is damaged", id=row.id)) from None


def replay_problem(row: GameRow, moves: Sequence[MoveRow]) -> str | None:
    """What is wrong with a stored game, checked as the service reads it (``python -m bot
    migrate-db`` checks every copied game with it): its moves replayed by the rules must reach
    the row's position, ply, status and result.  None when they do."""
    try:
        game = replay(row, moves)
    except DamagedRecordError:
        return "its moves do not replay by the rules"
    changes = state_changes(game)
    pairs = (
        ("ply", changes.get("ply"), row.ply),
        ("position", changes.get("fen"), row.fen),
        ("status", changes.get("status"), row.status),
        ("result", changes.get("result"), row.result),
        ("termination", changes.get("termination"), row.termination),
    )
    for name, replayed, stored in pairs:
        if replayed != stored:
            return f"its moves give the {name} {replayed!r}, its row says {stored!r}"
    return None
