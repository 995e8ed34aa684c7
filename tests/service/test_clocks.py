"""Fischer clocks in the service: a move is charged from its turn's start (the board shown) less
the lag allowance, the increment added after it; the flag falls by the game's own timer at its
flag time, exactly once, also after a restart; a silence of the bot stops the clocks; a clocked
challenge carries its clock into the game and the rematch.  The clock is moved by hand."""

from __future__ import annotations

import asyncio

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    GUILD,
    Clock,
    Database,
    Services,
    challenge,
    count_rows,
    play,
    start,
)

from bot.enums import TimePool
from bot.errors import ChallengeError
from bot.results import PRESET_CLOCKS, Action, ActionResult, GameView, TimeControl
from bot.service import GameService
from bot.service.clocks import LAG_ALLOWANCE

BLITZ = TimeControl(180, 2)


async def clocked(service: GameService, control: TimeControl = BLITZ) -> GameView:
    """Alice (Black, first to move in English) v Bob on ``control``, started."""
    return await start(service, clock=control)


async def row_of(service: GameService, game_id: int) -> object:
    row = await service.store.game(game_id)
    assert row is not None
    return row


async def test_a_clocked_game_starts_with_both_clocks_full_and_the_first_flag_armed(
    service: GameService, clock: Clock
) -> None:
    view = await clocked(service)
    assert view.clock is not None
    assert (view.clock.control, view.clock.white, view.clock.black) == (BLITZ, 180, 180)
    assert view.clock.flag_at == clock.now + 180 + LAG_ALLOWANCE
    assert view.deadline == view.clock.flag_at
    assert service.flags.armed[view.id] == (view.clock.flag_at, 180 + LAG_ALLOWANCE)
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.clock_base, row.clock_increment, row.clock_started) == (180, 2, clock.now)
    assert row.remind_at is None and row.warn_at is None  # no correspondence reminders


async def test_each_move_is_charged_less_the_lag_allowance_and_gets_the_increment(
    service: GameService, clock: Clock
) -> None:
    view = await clocked(service)
    clock.advance(10.5)  # Alice (Black) thinks 10.5 s: 9.5 charged, then +2
    view = await play(service, view, ["11-15"])
    assert view.clock is not None
    assert (view.clock.black, view.clock.white) == (180 - 9.5 + 2, 180)
    assert view.clock.flag_at == clock.now + 180 + LAG_ALLOWANCE  # White's time runs now
    clock.advance(0.4)  # within the allowance: nothing charged, the increment still added
    view = await play(service, view, ["23-19"])
    assert view.clock is not None
    assert view.clock.white == 182
    assert view.clock.flag_at == clock.now + 172.5 + LAG_ALLOWANCE
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.white_clock, row.black_clock, row.clock_started) == (182, 172.5, clock.now)


async def test_the_turn_starts_when_its_board_is_shown(service: GameService, clock: Clock) -> None:
    view = await clocked(service)
    moved = await service.move(ALICE.id, "11-15", game_id=view.id)
    assert moved.event is not None
    clock.advance(3)  # the board took 3 s to be shown: not Bob's time
    await service.shown(moved.event)
    clock.advance(5.0)
    view = (await service.move(BOB.id, "23-19", game_id=view.id)).game
    assert view is not None and view.clock is not None
    assert view.clock.white == 180 - (5.0 - LAG_ALLOWANCE) + 2


async def test_the_flag_timer_is_set_for_the_flag_time_and_falls_exactly_once(
    service: GameService, clock: Clock
) -> None:
    view = await play(service, await clocked(service), ["11-15", "23-19"])
    flag_at, _delay = service.flags.armed[view.id]
    clock.now = flag_at - 0.001  # a moment early (the loop's clock ran ahead): nothing falls
    assert await service.flags.fall(view.id) is None
    assert service.flags.armed[view.id] == (flag_at, pytest.approx(0.001, abs=1e-6))
    clock.now = flag_at
    shown: list[ActionResult] = []

    async def deliver(result: ActionResult) -> None:
        shown.append(result)

    service.on_background = deliver
    fell = await service.flags.fall(view.id)
    assert fell is not None and fell.action is Action.TIMEOUT
    assert [r.action for r in shown] == [Action.TIMEOUT]
    assert view.id not in service.flags.armed
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.status, row.winner, row.black_clock, row.deadline) == ("finished", "white", 0, None)
    assert await service.flags.fall(view.id) is None  # the timer again: nothing
    assert await service.tick() == []  # the scheduler's check (the backstop): nothing
    assert await count_rows(service, "outbox", "kind = 'timeout'") == 1


async def test_the_timer_fires_on_the_loop_at_the_flag_time(
    service: GameService, clock: Clock
) -> None:
    view = await play(service, await clocked(service), ["11-15", "23-19"])
    fell: asyncio.Queue[ActionResult] = asyncio.Queue()
    service.on_background = fell.put
    flag_at, _delay = service.flags.armed[view.id]
    clock.now = flag_at  # the time is up: armed again now, the timer has no delay left
    service.flags.arm(view.id, flag_at)
    assert service.flags.armed[view.id] == (flag_at, 0.0)
    result = await asyncio.wait_for(fell.get(), timeout=10)
    assert result.action is Action.TIMEOUT and result.game is not None
    assert result.game.id == view.id


async def test_a_flag_before_a_players_first_move_aborts_unrated(
    service: GameService, clock: Clock
) -> None:
    view = await clocked(service)
    clock.now = service.flags.armed[view.id][0]
    fell = await service.flags.fall(view.id)
    assert fell is not None and fell.action is Action.ABORTED
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.status, row.rated, row.white_rating) == ("aborted", True, None)


async def test_after_a_restart_the_next_check_arms_every_clock_and_the_flag_falls_once(
    services: Services, database: Database, clock: Clock
) -> None:
    first = await services.open(database)
    view = await play(first, await clocked(first), ["11-15", "23-19"])
    flag_at = first.flags.armed[view.id][0]
    await first.close()
    clock.advance(30)  # a restart shorter than a silence that stops clocks
    second = await services.open(database)
    assert view.id not in second.flags.armed
    assert await second.tick() == []
    assert second.flags.armed[view.id] == (flag_at, flag_at - clock.now)
    clock.now = flag_at
    fell = await second.flags.fall(view.id)
    assert fell is not None and fell.action is Action.TIMEOUT
    assert await second.tick() == []
    assert await count_rows(second, "outbox", "kind = 'timeout'") == 1


async def test_a_silence_of_the_bot_stops_the_clock(
    services: Services, database: Database, clock: Clock
) -> None:
    first = await services.open(database)
    view = await play(first, await clocked(first), ["11-15", "23-19"])
    flag_at = first.flags.armed[view.id][0]
    clock.advance(20)  # Alice thinks 20 s, then the bot is away for an hour
    assert await first.tick() == []  # the last check that heard players
    await first.close()
    clock.advance(3600)
    second = await services.open(database)
    events = await second.tick()
    assert [e.action for e in events] == [Action.CLOCK_EXTENDED]
    row = await second.store.game(view.id)
    assert row is not None
    assert row.deadline == flag_at + 3600
    assert second.flags.armed[view.id][0] == row.deadline
    moved = (await second.move(ALICE.id, "8-11", game_id=view.id)).game
    assert moved is not None and moved.clock is not None
    assert moved.clock.black == pytest.approx(182 - (20 - LAG_ALLOWANCE) + 2)


async def test_a_clocked_challenge_carries_its_clock_to_the_game_and_the_rematch(
    service: GameService, clock: Clock
) -> None:
    created = await challenge(service, clock=BLITZ)
    assert created.challenge is not None and created.challenge.clock == BLITZ
    started = await service.accept(created.challenge.id, BOB.id)
    assert started.game is not None and started.game.clock is not None
    game_id = started.game.id
    await service.resign(ALICE.id, game_id=game_id)
    rematch = await service.rematch(game_id, BOB.id)
    assert rematch.challenge is not None and rematch.challenge.clock == BLITZ


async def test_a_resignation_stops_the_clock_with_the_time_used(
    service: GameService, clock: Clock
) -> None:
    view = await play(service, await clocked(service), ["11-15", "23-19"])
    clock.advance(31)
    await service.resign(ALICE.id, game_id=view.id)
    row = await service.store.game(view.id)
    assert row is not None
    assert (row.black_clock, row.clock_started, row.deadline) == (182 - 30, None, None)
    assert view.id not in service.flags.armed


@pytest.mark.parametrize(
    ("terms", "refusal"),
    [
        ({"clock": TimeControl(0, 0)}, "positive base"),
        ({"clock": BLITZ, "opponent": BOT}, "without a clock"),
    ],
)
async def test_a_clock_the_game_cannot_run_is_refused_and_changes_nothing(
    service: GameService, terms: dict[str, object], refusal: str
) -> None:
    with pytest.raises(ChallengeError, match=refusal):
        await challenge(service, **terms)
    assert await count_rows(service, "challenges") == 0
    assert await count_rows(service, "games") == 0


def test_typed_clocks_are_read_and_bounded() -> None:
    assert TimeControl.parse("3+2") == BLITZ
    assert TimeControl.parse(" ½ + 0 ") == TimeControl(30, 0)
    assert TimeControl.parse("1,5+1") == TimeControl(90, 1)
    assert TimeControl(30, 0).label == "½+0" and BLITZ.label == "3+2"
    for bad in ("3", "3+", "+2", "three+2", "0+1", "181+0", "3+181", "3-2"):
        with pytest.raises(ChallengeError):
            TimeControl.parse(bad)


async def test_a_blitz_result_moves_only_the_blitz_rating(
    service: GameService, clock: Clock
) -> None:
    slow = await play(service, await start(service), ["11-15", "23-19"])  # a time per move
    await service.resign(BOB.id, game_id=slow.id)
    correspondence = await service.stats(GUILD, ALICE, "english")
    assert correspondence.pool is TimePool.CORRESPONDENCE and correspondence.rating is not None
    before = correspondence.rating.rating

    blitz = await play(service, await clocked(service), ["11-15", "23-19"])
    ended = await service.resign(ALICE.id, game_id=blitz.id)
    assert "Ratings (Blitz)" in str(ended.text)
    after = await service.stats(GUILD, ALICE, "english", TimePool.CORRESPONDENCE)
    assert after.rating is not None and after.rating.rating == before
    assert (after.wins, after.losses) == (1, 0)
    fast = await service.stats(GUILD, ALICE, "english")  # by default: her latest rated game's
    assert fast.pool is TimePool.BLITZ and fast.rating is not None
    assert fast.rating.rating < 1500 and (fast.wins, fast.losses) == (0, 1)
    assert [g.pool for g in fast.recent] == [TimePool.BLITZ, TimePool.CORRESPONDENCE]
    board = await service.leaderboard(GUILD, "english", BOB.id, TimePool.BLITZ)
    assert [line.player.id for line in board.top] == [BOB.id, ALICE.id]
    assert (await service.leaderboard(GUILD, "english", BOB.id)).pool is TimePool.BLITZ
    line = await service.rating(GUILD, ALICE.id, "english", TimePool.RAPID)
    assert line is None  # no rapid games: unrated there
    line = await service.rating(GUILD, ALICE.id, "english", TimePool.BLITZ)
    assert line is not None and line.rating == fast.rating.rating


def test_time_classes_follow_the_estimated_length() -> None:
    pools = {c.label: c.pool for c in PRESET_CLOCKS}
    assert pools == {
        "1+1": TimePool.BULLET,
        "3+2": TimePool.BLITZ,
        "5+3": TimePool.BLITZ,
        "10+5": TimePool.RAPID,
        "15+10": TimePool.RAPID,
    }
    assert TimeControl(1800, 20).pool is TimePool.CLASSICAL
    assert TimeControl(120, 1).pool is TimePool.BULLET  # 120 + 40 x 1 = 160 s: under 3 minutes
    assert TimeControl(120, 2).pool is TimePool.BLITZ  # 200 s


async def test_no_flag_falls_while_players_are_unheard(service: GameService, clock: Clock) -> None:
    view = await play(service, await clocked(service), ["11-15", "23-19"])
    flag_at = service.flags.armed[view.id][0]
    heard = False
    service.hear_by(lambda: heard)
    clock.now = flag_at + 1  # the gateway is down as the time runs out
    assert await service.flags.fall(view.id) is None
    heard = True  # back, but the scheduler's check has not given the silence back yet
    assert await service.flags.fall(view.id) is None
    row = await service.store.game(view.id)
    assert row is not None and row.status == "running"
    service.deaf(120)  # the scheduler's check: two minutes unheard, the clocks stood still
    events = await service.tick()
    assert [e.action for e in events] == [Action.CLOCK_EXTENDED]
    assert service.flags.armed[view.id][0] == flag_at + 120
    clock.now = flag_at + 120
    fell = await service.flags.fall(view.id)
    assert fell is not None and fell.action is Action.TIMEOUT


async def test_a_takeback_leaves_the_clocks_and_starts_the_turn_afresh(
    service: GameService, clock: Clock
) -> None:
    view = await play(service, await clocked(service), ["11-15"])
    clock.advance(30)  # Bob (White) thinks 30 s, then plays; Alice asks for her move back
    view = await play(service, view, ["23-19"])
    assert view.clock is not None and view.clock.white == 180 - 29 + 2
    clock.advance(5)
    await service.request_takeback(ALICE.id, game_id=view.id)
    accepted = await service.answer_takeback(BOB.id, True, game_id=view.id)
    assert accepted.game is not None and accepted.game.clock is not None
    row = await service.store.game(view.id)
    assert row is not None
    # Alice's turn again (her 11-15 and Bob's reply taken back): both clocks as they stood,
    # and her time runs from now (the takeback's own seconds are charged to nobody).
    assert (row.black_clock, row.white_clock) == (182, 153)
    assert row.clock_started == clock.now
    assert row.deadline == clock.now + 182 + LAG_ALLOWANCE
    assert service.flags.armed[view.id][0] == row.deadline


async def test_a_clocked_challenge_expires_as_soon_as_any(
    service: GameService, clock: Clock
) -> None:
    created = await challenge(service, clock=TimeControl(10800, 0), move_time=7 * 86400)
    assert created.challenge is not None
    assert created.challenge.expires_at == clock.now + 600  # the service's shortest expiry


async def test_a_long_silence_stops_even_a_far_flag(
    services: Services, database: Database, clock: Clock
) -> None:
    """A three-hour clock's flag is hours away, past the horizon of correspondence deadlines a
    silence moves on: a clock stands still all the same."""
    first = await services.open(database)
    view = await play(first, await clocked(first, TimeControl(10800, 0)), ["11-15", "23-19"])
    flag_at = first.flags.armed[view.id][0]
    assert await first.tick() == []
    await first.close()
    clock.advance(7200)
    second = await services.open(database)
    assert [e.action for e in await second.tick()] == [Action.CLOCK_EXTENDED]
    row = await second.store.game(view.id)
    assert row is not None and row.deadline == flag_at + 7200
