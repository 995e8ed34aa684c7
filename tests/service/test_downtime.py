"""No clock runs while the bot cannot hear the players (issue 13: after the bot was offline past
players' deadlines, the first check ended every such game on time, rated).

The service's wall clock is the test's :class:`Clock`; a second clock stands for the monotonic
time, so a jump of the wall clock is told from time that passed.  Restarts are real (the service
closed and opened again on the same file), and the scheduler is the real one.
"""

from __future__ import annotations

import logging

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    CHANNEL,
    MOVE_TIME,
    T0,
    Clock,
    Database,
    Services,
    count_rows,
    play,
    start,
    start_moved,
)

from bot.results import Action, ActionResult
from bot.scheduler import Scheduler
from bot.service.downtime import GRACE_SECONDS, HEARD_AT, SILENCE_SECONDS
from bot.service.events import HANDOFF_SECONDS
from bot.service.outbox import LATE

HOUR = 3600.0


def actions(events: list[ActionResult]) -> list[tuple[Action, int | None]]:
    return [(e.action, e.game.id if e.game else None) for e in events]


async def test_a_restart_after_the_deadlines_passed_extends_them_and_says_so(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    late = await start_moved(first)  # Alice to move, deadline T0 + 1 h
    near = await start_moved(first, channel_id=CHANNEL + 1, move_time=4 * HOUR)
    far = await start_moved(first, channel_id=CHANNEL + 2, move_time=24 * HOUR)
    clock.advance(10 * 60)
    assert await first.tick() == []  # heard at T0 + 10 min
    await first.close()

    # Away for 3 h 50 min: `late`'s deadline passed, `near`'s is 10 minutes off, `far`'s is not
    # close.
    clock.now = T0 + 4 * HOUR
    again = await services.open(database)
    events = await again.tick()
    assert actions(events) == [(Action.CLOCK_EXTENDED, late.id), (Action.CLOCK_EXTENDED, near.id)]
    silence = 4 * HOUR - 10 * 60
    for event, game in zip(events, (late, near), strict=True):
        assert event.game is not None and event.game.running
        assert event.mentions == (ALICE.id,) and event.event is not None
        # Each keeps the time it had when the bot went quiet.
        assert event.game.deadline == game.deadline + silence  # type: ignore[operator]
        assert str(event.text).startswith("I could not hear anyone for 3 hours 50 minutes, so no")
        assert "Alice to move, with" in str(event.text)
    # What each had left when the bot went quiet at T0 + 10 min.
    assert "with 50 minutes left" in str(events[0].text)
    assert "with 3 hours 50 minutes left" in str(events[1].text)
    stored = await again.store.game(far.id)
    assert stored is not None and stored.deadline == T0 + 24 * HOUR  # untouched
    assert await count_rows(again, "games", "status = 'running'") == 3

    # Nobody lost on time; the extended deadline is a real one.
    assert Action.TIMEOUT not in {a for a, _ in actions(await again.tick())}
    clock.now = late.deadline + silence  # type: ignore[operator]
    assert actions(await again.tick()) == [(Action.TIMEOUT, late.id)]


async def test_a_short_silence_changes_nothing(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    game = await start_moved(first)
    clock.now = game.deadline - 20  # type: ignore[operator]
    # Both reminders are due: only the last warning is given.
    assert actions(await first.tick()) == [(Action.LAST_WARNING, game.id)]
    await first.close()
    clock.advance(SILENCE_SECONDS - 1)  # a quick restart, past the deadline
    again = await services.open(database)
    assert actions(await again.tick()) == [(Action.TIMEOUT, game.id)]


async def test_a_deadline_that_had_passed_gets_at_least_the_grace(
    database: Database, clock: Clock, services: Services
) -> None:
    """The bot went quiet a few seconds before a fast game's deadline: the player gets a whole
    move's time (a fast game stays fast), and a slow game's player the grace."""
    first = await services.open(database)
    fast = await start(first, move_time=60)
    slow = await start(first, channel_id=CHANNEL + 1, move_time=6 * HOUR)
    clock.now = T0 + 55
    assert actions(await first.tick()) == [(Action.REMINDER, fast.id)]
    await first.close()
    clock.now = T0 + 6 * HOUR - 5  # the bot was away most of slow's time too
    again = await services.open(database)
    events = {e.game.id: e.game for e in await again.tick() if e.game is not None}
    assert events[fast.id].deadline == clock.now + 60
    assert events[slow.id].deadline == T0 + 6 * HOUR + (clock.now - (T0 + 55))
    assert events[slow.id].deadline >= clock.now + GRACE_SECONDS  # type: ignore[operator]


async def test_a_forward_clock_jump_forfeits_nobody(
    database: Database, clock: Clock, services: Services
) -> None:
    """The machine's clock jumps two hours ahead (monotonic time moves on by one check
    interval): thirty games that would all have been lost on time are extended instead."""
    monotonic = Clock(0.0)
    svc = await services.open(database, monotonic=monotonic)
    games = [await start_moved(svc, channel_id=CHANNEL + i) for i in range(30)]
    assert await svc.tick() == []
    clock.advance(2 * HOUR)
    monotonic.advance(5)
    events = await svc.tick()
    assert actions(events) == [(Action.CLOCK_EXTENDED, g.id) for g in games]
    assert await count_rows(svc, "games", "status = 'running'") == 30
    # Time that really passes still runs the clocks.
    clock.advance(2 * HOUR)
    monotonic.advance(2 * HOUR)
    assert {a for a, _ in actions(await svc.tick())} == {Action.TIMEOUT}
    assert await count_rows(svc, "games", "status = 'running'") == 0


async def test_the_gateway_down_counts_as_silence(
    database: Database, clock: Clock, services: Services
) -> None:
    """While players cannot reach the bot the scheduler checks nothing; when they can again,
    the time it was deaf is reported and the deadlines it cost are extended."""
    svc = await services.open(database)
    game = await start(svc)
    posted: list[ActionResult] = []

    async def post(result: ActionResult) -> None:
        posted.append(result)

    gateway_up = True
    scheduler = Scheduler(svc, post, 1.0, hearing=lambda: gateway_up, monotonic=clock)
    assert await scheduler.run_once() == 0
    gateway_up = False
    clock.advance(MOVE_TIME + HOUR)  # past the deadline, unheard
    assert await scheduler.run_once() == 0 and posted == []  # no check while deaf
    clock.advance(60)
    assert await scheduler.run_once() == 0 and posted == []
    gateway_up = True
    assert await scheduler.run_once() == 1
    (extended,) = posted
    assert extended.action is Action.CLOCK_EXTENDED and extended.game is not None
    assert extended.game.id == game.id and extended.game.running
    assert extended.game.deadline == game.deadline + MOVE_TIME + HOUR + 60  # type: ignore[operator]


async def test_an_unreadable_record_of_the_last_check_is_ignored(
    database: Database, clock: Clock, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await services.open(database)
    game = await start_moved(svc)
    await svc.store.set_meta(HEARD_AT, "not a time")
    await svc.close()
    clock.advance(MOVE_TIME + 1)
    again = await services.open(database)
    with caplog.at_level(logging.WARNING):
        assert actions(await again.tick()) == [(Action.TIMEOUT, game.id)]
    assert "is not a time" in caplog.text
    assert await again.store.meta(HEARD_AT) == repr(clock.now)


async def test_an_extension_lost_with_the_process_is_posted_late(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    game = await start(first)
    game = await play(first, game, ["11-15"])  # Bob to move
    assert await first.tick() == []
    await first.close()
    clock.advance(MOVE_TIME * 2)
    second = await services.open(database)
    (extended,) = await second.tick()  # ...and the process dies before posting it
    await second.close()
    clock.advance(HANDOFF_SECONDS)
    third = await services.open(database)
    owed = [o for o in await third.outbox.owed() if o.event == extended.event]
    (late,) = owed
    assert late.result is not None and late.result.action is Action.CLOCK_EXTENDED
    assert str(late.result.text).startswith(str(LATE)) and "Bob to move, with" in str(
        late.result.text
    )
    assert late.result.mentions == (BOB.id,)


async def test_connecting_after_a_restart_is_not_counted_twice(
    database: Database, clock: Clock, services: Services
) -> None:
    """After a restart the scheduler waits, deaf, until the bot is connected; that wait is part
    of the silence measured from the database, so it is not added again."""
    first = await services.open(database)
    game = await start(first)
    assert await first.tick() == []  # heard at T0
    await first.close()
    clock.now = T0 + 2 * HOUR
    again = await services.open(database)
    posted: list[ActionResult] = []

    async def post(result: ActionResult) -> None:
        posted.append(result)

    connected = False
    scheduler = Scheduler(again, post, 1.0, hearing=lambda: connected, monotonic=clock)
    assert await scheduler.run_once() == 0  # connecting
    clock.advance(30)
    connected = True
    assert await scheduler.run_once() == 1
    (extended,) = posted
    assert extended.game is not None
    # Silence: 2 h 30 s since the last check, once; Alice had her whole hour left.
    assert extended.game.deadline == game.deadline + 2 * HOUR + 30  # type: ignore[operator]
    assert "with 1 hour left" in str(extended.text)
