"""Fischer clocks: what a move, a turn's start, a game's end and a silence of the bot do to a
clocked game's columns (pure functions of its row and the time).

A clocked game keeps each side's time left *at the start of the current turn* (``white_clock``,
``black_clock``: after the last increment) and when the side to move's time started
(``clock_started``); its flag falls at ``deadline``, the same column a correspondence move's time
runs out at, so the scheduler's check, the timeout and the downtime rules serve both kinds of
game.  ``deadline`` is the turn's start plus the time left plus :data:`LAG_ALLOWANCE`:

- a move is charged the time from its turn's start to its arrival, less the allowance (never
  less than nothing); the mover's increment is added after it, and the other side's time starts;
- a turn starts when its board was shown (the service's ``shown`` bookkeeping after the post;
  until then, and after a restart lost that note, from when the move before was stored);
- before a player's first move their clock runs like any other; a flag that falls before it
  aborts the game, unrated, as a correspondence player who never moved does
  (:mod:`bot.service.deadlines`);
- while the bot cannot hear players the clocks stop: a silence moves ``deadline`` and the turn's
  start on together (:mod:`bot.service.downtime`), so the time left is unchanged.
"""

from __future__ import annotations

from ..enums import Side, TimePool
from ..results import ClockView, TimeControl
from ..store import ChallengeRow, GameChanges, GameRow, TournamentRow

LAG_ALLOWANCE = 1.0
"""Seconds of each move not charged: the time Discord takes to show a board and carry a move
back (docs/COMMANDS.md states it)."""
LOW_TIME_FRACTION = 0.1
LOW_TIME_SECONDS = 20.0
LOW_TIME_SHARE_MAX = 0.2
"""A running clock is low (shown on the board) under a tenth of its base time or under 20
seconds, whichever is more, the 20 seconds being at most a fifth of the base (:func:`is_low`)."""
RESUME_GRACE = 10.0
"""After a silence of the bot, the least time a clock gets before its flag can fall (so nobody
loses before they could see the bot was back); never more than the time the player had."""


def control_of(row: GameRow | ChallengeRow | TournamentRow) -> TimeControl | None:
    """The Fischer clock a game, a challenge's or a tournament's games are played on (None: a
    time per move)."""
    if row.clock_base is None:
        return None
    return TimeControl(row.clock_base, row.clock_increment or 0.0)


def pool_of(row: GameRow | ChallengeRow | TournamentRow) -> TimePool:
    """The rating pool a game's result moves: its clock's time class, else correspondence."""
    control = control_of(row)
    return TimePool.CORRESPONDENCE if control is None else control.pool


def _stored(row: GameRow, side: Side) -> float:
    left = row.white_clock if side is Side.WHITE else row.black_clock
    return 0.0 if left is None else left


def _clock(side: Side, left: float) -> GameChanges:
    """The change of ``side``'s stored time to ``left``."""
    return {"white_clock": left} if side is Side.WHITE else {"black_clock": left}


def time_left(row: GameRow, side: Side, to_move: Side | None, now: float) -> float:
    """Seconds ``side`` has at ``now``: its stored time, less what its running turn has used
    beyond the lag allowance."""
    stored = _stored(row, side)
    if side is not to_move or row.clock_started is None or row.deadline is None:
        return stored
    return max(0.0, min(stored, row.deadline - now))


def start(control: TimeControl, now: float) -> GameChanges:
    """A new clocked game: both sides get the base time; White's (the side to move's) runs."""
    return {
        "white_clock": control.base,
        "black_clock": control.base,
        "clock_started": now,
        "deadline": now + control.base + LAG_ALLOWANCE,
        "remind_at": None,
        "warn_at": None,
    }


def after_move(row: GameRow, mover: Side, now: float, *, over: bool) -> GameChanges:
    """The mover is charged and gets the increment; the other side's time starts (unless the
    move ended the game)."""
    control = control_of(row)
    assert control is not None
    left = time_left(row, mover, mover, now) + control.increment
    changes = _clock(mover, left)
    if over:
        changes.update({"clock_started": None, "deadline": None})
    else:
        other = _stored(row, mover.other)
        changes.update({"clock_started": now, "deadline": now + other + LAG_ALLOWANCE})
    changes.update({"remind_at": None, "warn_at": None})
    return changes


def restart_turn(row: GameRow, to_move: Side, now: float) -> GameChanges:
    """The side to move's time starts again at ``now`` from what it had at its turn's start (its
    board was shown only now; a takeback gave the turn back)."""
    return {
        "clock_started": now,
        "deadline": now + _stored(row, to_move) + LAG_ALLOWANCE,
        "remind_at": None,
        "warn_at": None,
    }


def stop(row: GameRow, to_move: Side, now: float) -> GameChanges:
    """The game ended without a move (resignation, draw, flag, abort): the side to move keeps
    what it had left then, and no clock runs."""
    changes = _clock(to_move, time_left(row, to_move, to_move, now))
    changes.update({"clock_started": None, "deadline": None, "remind_at": None, "warn_at": None})
    return changes


def paused(row: GameRow, silence: float, now: float) -> GameChanges:
    """The clocks stood still through ``silence`` seconds the bot could not hear players: the
    flag and the turn's start move on together (at least :data:`RESUME_GRACE` from ``now``, and
    never more than the time the turn started with)."""
    assert row.deadline is not None
    left_at_start = row.deadline - (row.clock_started or row.deadline)
    deadline = max(row.deadline + silence, now + min(RESUME_GRACE, left_at_start))
    return {
        "deadline": deadline,
        "clock_started": deadline - left_at_start,
        "remind_at": None,
        "warn_at": None,
    }


def is_low(control: TimeControl, left: float) -> bool:
    """Whether ``left`` seconds is low time on ``control``: under :data:`LOW_TIME_FRACTION` of
    the base, or under :data:`LOW_TIME_SECONDS` (at most a fifth of the base, so a 1+1 game is
    not low from its first third)."""
    floor = min(LOW_TIME_SECONDS, LOW_TIME_SHARE_MAX * control.base)
    return left < max(LOW_TIME_FRACTION * control.base, floor)


def clock_view(row: GameRow, to_move: Side | None) -> ClockView | None:
    """The clocks as a board shows them: each side's time at the start of the current turn, and
    when the side to move's flag falls (None for a correspondence game)."""
    control = control_of(row)
    if control is None:
        return None
    running = to_move is not None and row.clock_started is not None
    white, black = _stored(row, Side.WHITE), _stored(row, Side.BLACK)
    low = None
    if running and to_move is not None and is_low(control, _stored(row, to_move)):
        low = to_move
    return ClockView(
        control=control,
        white=white,
        black=black,
        flag_at=row.deadline if running else None,
        low=low,
    )
