"""Issue 14 at the service: fair starts (either player may abort until both have moved; running
out of time before one's first move aborts the game instead of losing it), challenges that stay
open as long as a move may take, the last warning before a deadline, and the direct messages
players ask for, delivered through the outbox like every announcement.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    BOT_ID,
    CAROL,
    CHANNEL,
    EXPIRY,
    GUILD,
    MOVE_TIME,
    T0,
    Background,
    Clock,
    CrashingComputer,
    Database,
    Services,
    challenge,
    count_rows,
    play,
    replied,
    resigns,
    start,
    start_moved,
    unchanged,
)

from bot.errors import ForbiddenError
from bot.results import Action, ActionResult, DirectMessage, Player
from bot.service import GameService
from bot.service.events import HANDOFF_SECONDS, decode, encode
from bot.service.outbox import LATE
from bot.service.records import last_warning_lead

DAY = 24 * 3600
WARN = MOVE_TIME - 360
"""When the last warning of an hour's move comes (a tenth of it before the deadline)."""


def actions(events: list[ActionResult]) -> list[Action]:
    return [e.action for e in events]


async def unrated(service: GameService) -> bool:
    """Nobody has a rating in the harness's server yet."""
    return await count_rows(service, "ratings") == 0


# -- aborting before both have moved --------------------------------------------------------------


@pytest.mark.parametrize("who", [ALICE, BOB])
async def test_either_player_may_abort_before_both_have_moved(
    service: GameService, who: Player
) -> None:
    view = await start(service)  # Alice (Black) to move first
    assert view.abortable
    view = await play(service, view, ["11-15"])
    assert view.abortable
    aborted = await service.abort(who.id, game_id=view.id)
    assert aborted.action is Action.ABORTED
    assert str(aborted.text) == (
        f"Game #{view.id} (Bob v Alice) was aborted by {who.name} before both "
        "players had moved: no result."
    )
    end = aborted.game
    assert end is not None and not end.running and not end.abortable
    assert (end.status, end.result, end.winner) == ("aborted", "*", None)
    assert set(aborted.mentions) == {ALICE.id, BOB.id}
    assert await unrated(service)


async def test_once_both_have_moved_only_a_moderator_may_abort(service: GameService) -> None:
    view = await start_moved(service)
    assert not view.abortable
    async with unchanged(service, view.id):
        with pytest.raises(ForbiddenError, match="resign or offer a draw instead"):
            await service.abort(ALICE.id, game_id=view.id)
    aborted = await service.abort(BOB.id, is_moderator=True, game_id=view.id)
    assert str(aborted.text).endswith("was aborted by a moderator.")


async def test_a_ballots_moves_are_not_the_players_own(service: GameService) -> None:
    """A ballot's three moves are stored with the players' ids, but nobody chose them: the
    players may still abort until each has made a move of their own."""
    view = await start(service, ballot=True)  # three plies played: Bob (White) to move
    assert view.ply == 3 and view.to_move == BOB and view.abortable
    view = await play(service, view, [(await service.picker(view.id, BOB.id, 3))[1][0].pdn()])
    assert view.abortable
    (alice_move, *_) = (await service.picker(view.id, ALICE.id, 4))[1]
    view = await play(service, view, [alice_move.pdn()])
    assert not view.abortable
    with pytest.raises(ForbiddenError):
        await service.abort(BOB.id, game_id=view.id)


async def test_a_game_against_the_computer_may_be_aborted_before_both_have_moved(
    service: GameService,
) -> None:
    view = (await challenge(service, opponent=BOT, color="white")).game  # the computer first
    assert view is not None
    reply = await replied(service, view.id)
    assert reply.game is not None and reply.game.abortable
    aborted = await service.abort(ALICE.id, game_id=view.id)
    assert aborted.game is not None and aborted.game.status == "aborted"


async def test_a_player_abort_of_a_match_game_abandons_the_match(service: GameService) -> None:
    first = await start(service, match=True)
    ended = await resigns(service, ALICE.id, first.id)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    second = ended.follow_up.game
    assert second.abortable
    aborted = await service.abort(ALICE.id, game_id=second.id)
    assert str(aborted.text).endswith("The match was abandoned.")


# -- running out of time before one's first move --------------------------------------------------


async def test_no_first_move_in_time_aborts_the_game(service: GameService, clock: Clock) -> None:
    view = await start(service)  # Alice (Black) to move, and she never does
    clock.now = T0 + MOVE_TIME
    (event,) = await service.tick()
    assert event.action is Action.ABORTED
    assert (
        str(event.text)
        == f"Game #{view.id} (Bob v Alice) was aborted: Alice never moved. No result."
    )
    end = event.game
    assert end is not None and (end.status, end.result, end.winner) == ("aborted", "*", None)
    assert str(end.termination) == "aborted: Black never moved"
    assert set(event.mentions) == {ALICE.id, BOB.id}
    row = await service.store.game(view.id)
    assert row is not None and (row.status, row.termination, row.rated) == (
        "aborted",
        "aborted",
        True,
    )
    assert row.white_rating_change is None and await unrated(service)
    assert await service.tick() == []


async def test_the_second_player_who_never_moves_aborts_the_game_too(
    service: GameService, clock: Clock
) -> None:
    view = await play(service, await start(service), ["11-15"])  # Bob to move, never does
    clock.now = T0 + MOVE_TIME
    (event,) = await service.tick()
    assert event.action is Action.ABORTED and "Bob never moved" in str(event.text)
    assert await unrated(service)
    assert (await service.game_view(view.id)).status == "aborted"


async def test_after_ones_first_move_running_out_of_time_loses(
    service: GameService, clock: Clock
) -> None:
    await start_moved(service)  # Alice to move again
    clock.now = T0 + MOVE_TIME
    events = await service.tick()
    assert actions(events) == [Action.TIMEOUT]
    assert events[0].game is not None and events[0].game.winner == BOB
    assert "Ratings:" in str(events[0].text)


async def test_a_match_whose_first_game_nobody_started_is_abandoned(
    service: GameService, clock: Clock
) -> None:
    first = await start(service, match=True)
    clock.now = T0 + MOVE_TIME
    (event,) = await service.tick()
    assert event.action is Action.ABORTED and event.follow_up is None
    assert str(event.text).endswith("The match was abandoned.")
    clock.advance(60)
    assert await service.tick() == []  # no second game later either
    assert await count_rows(service, "games") == 1
    assert await service.store.match_games(first.id) == [await service.store.game(first.id)]


@pytest.mark.parametrize(("color", "computer_first"), [("black", False), ("white", True)])
async def test_a_human_who_never_moves_against_the_computer_aborts(
    service: GameService, clock: Clock, color: str, computer_first: bool
) -> None:
    view = (await challenge(service, opponent=BOT, color=color)).game
    assert view is not None
    if computer_first:
        await replied(service, view.id)
    clock.advance(MOVE_TIME)
    (event,) = await service.tick()
    assert event.action is Action.ABORTED and "Alice never moved" in str(event.text)


async def test_against_the_computer_after_a_move_time_loses(
    service: GameService, clock: Clock
) -> None:
    view = (await challenge(service, opponent=BOT)).game
    assert view is not None
    await service.move(ALICE.id, "11-15", game_id=view.id)
    await replied(service, view.id)
    clock.advance(MOVE_TIME)
    (event,) = await service.tick()
    assert event.action is Action.TIMEOUT
    assert event.game is not None and event.game.winner is not None
    assert event.game.winner.id == BOT_ID


# -- how long a challenge stays open --------------------------------------------------------------


@pytest.mark.parametrize(
    ("move_time", "open_for"),
    [(60, EXPIRY), (MOVE_TIME, MOVE_TIME), (DAY, DAY), (3 * DAY, DAY)],
)
async def test_a_challenge_stays_open_as_long_as_a_move_may_take(
    database: Database, clock: Clock, services: Services, move_time: int, open_for: float
) -> None:
    service = await services.open(database, challenge_expiry_cap=DAY)
    made = await challenge(service, move_time=move_time)
    assert made.challenge is not None
    assert made.challenge.expires_at == T0 + open_for
    clock.now = T0 + open_for - 1
    assert await service.tick() == []
    clock.now = T0 + open_for
    assert actions(await service.tick()) == [Action.CHALLENGE_EXPIRED]


async def test_a_cap_at_the_expiry_keeps_every_challenge_short(
    database: Database, services: Services
) -> None:
    service = await services.open(database, challenge_expiry=5, challenge_expiry_cap=5)
    made = await challenge(service, move_time=DAY)
    assert made.challenge is not None and made.challenge.expires_at == T0 + 5


# -- the last warning -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move_time", "lead"),
    [(60, None), (119, None), (120, None), (121, 60.0), (3600, 360.0), (DAY, 3600.0)],
)
def test_the_last_warning_comes_a_tenth_before_within_a_minute_and_an_hour(
    move_time: int, lead: float | None
) -> None:
    assert last_warning_lead(move_time) == lead


@given(st.integers(1, 30 * DAY))
def test_the_last_warning_always_comes_after_half_time(move_time: int) -> None:
    lead = last_warning_lead(move_time)
    assert lead is None or (60 <= lead <= 3600 and lead < move_time / 2)
    assert (lead is None) == (move_time <= 120)


async def test_the_last_warning_is_given_once_and_kept_over_a_restart(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    view = await start_moved(first)
    clock.now = T0 + MOVE_TIME / 2
    assert actions(await first.tick()) == [Action.REMINDER]
    clock.now = T0 + WARN - 1
    assert await first.tick() == []
    clock.now = T0 + WARN
    (warned,) = await first.tick()
    assert warned.action is Action.LAST_WARNING
    assert (
        str(warned.text) == f"Alice, last warning: 6 minutes left for your move in game #{view.id}."
    )
    assert warned.mentions == (ALICE.id,) and warned.dms == () and not warned.post_board
    assert warned.game is not None and warned.game.deadline == T0 + MOVE_TIME
    assert await first.tick() == []
    await first.close()
    again = await services.open(database)
    assert await again.tick() == []  # not twice after a restart
    clock.now = T0 + MOVE_TIME
    assert actions(await again.tick()) == [Action.TIMEOUT]


async def test_a_short_move_has_only_the_half_time_reminder(
    service: GameService, clock: Clock
) -> None:
    await start(service, move_time=100)
    seen = []
    for second in range(0, 100, 5):
        clock.now = T0 + second
        seen += actions(await service.tick())
    assert seen == [Action.REMINDER]


async def test_the_last_warning_by_direct_message_for_those_who_asked(
    service: GameService, clock: Clock
) -> None:
    await service.readers.set_prefs(ALICE.id, last_warning=True)
    await service.readers.set_prefs(
        BOB.id, dm_turn=True
    )  # Bob asked for his turns, not for warnings
    view = await start_moved(service)
    clock.now = T0 + MOVE_TIME / 2
    (reminded,) = await service.tick()
    assert reminded.dms == ()  # the half-time reminder stays in the channel
    clock.now = T0 + WARN
    (warned,) = await service.tick()
    assert warned.dms == (DirectMessage(ALICE.id, warned.text, GUILD, CHANNEL, view.id),)
    await play(service, warned.game, ["8-11"])  # type: ignore[arg-type]
    clock.now = T0 + WARN + MOVE_TIME - 360
    (bob_warned,) = await service.tick()
    assert bob_warned.action is Action.LAST_WARNING and bob_warned.dms == ()


async def test_a_silence_sets_the_last_warning_for_the_new_deadline(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    view = await start_moved(first)
    assert await first.tick() == []
    await first.close()
    clock.now = T0 + 2 * MOVE_TIME  # away past the deadline: extended by the silence
    again = await services.open(database)
    (extended,) = await again.tick()
    assert extended.action is Action.CLOCK_EXTENDED and extended.game is not None
    deadline = extended.game.deadline
    assert deadline is not None
    row = await again.store.game(view.id)
    assert row is not None and row.warn_at == deadline - 360
    clock.now = deadline - 360
    assert actions(await again.tick()) == [Action.LAST_WARNING]


# -- a direct message when it is one's turn -------------------------------------------------------


async def test_a_player_who_asked_is_told_when_it_is_their_move(service: GameService) -> None:
    await service.readers.set_prefs(BOB.id, dm_turn=True)
    view = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=view.id)
    (dm,) = moved.dms
    assert (dm.user_id, dm.guild_id, dm.channel_id, dm.game_id) == (BOB.id, GUILD, CHANNEL, view.id)
    assert (
        str(dm.text)
        == f"Your move in game #{view.id} (Bob v Alice): Alice played 11-15. You have 1 hour."
    )
    replied_to = await service.move(BOB.id, "23-19", game_id=view.id)
    assert replied_to.dms == ()  # Alice did not ask


async def test_the_player_to_move_first_is_told_the_game_started(service: GameService) -> None:
    await service.readers.set_prefs(ALICE.id, dm_turn=True)
    await service.readers.set_prefs(BOB.id, dm_turn=True)
    made = await challenge(service)
    assert made.challenge is not None
    started = await service.accept(made.challenge.id, BOB.id)
    assert started.game is not None
    (dm,) = started.dms
    assert dm.user_id == ALICE.id and dm.game_id == started.game.id
    assert str(dm.text) == (
        f"Your game #{started.game.id} (Bob v Alice) has started, English draughts / American "
        "checkers: it is your move. You have 1 hour."
    )
    # Who accepts and moves first is there already: no message.
    made = await challenge(service, challenger=CAROL, color="white", channel_id=CHANNEL + 1)
    assert made.challenge is not None
    assert (await service.accept(made.challenge.id, BOB.id)).dms == ()


async def test_the_computer_tells_only_a_player_who_is_away(
    database: Database, services: Services
) -> None:
    """A reply the player's own move waits for is shown to them at once: no message.  A reply
    made in the background (after a restart) may find them away: a message."""
    first = await services.open(database)
    await first.readers.set_prefs(ALICE.id, dm_turn=True)
    view = (await challenge(first, opponent=BOT)).game
    assert view is not None and view.to_move == ALICE
    moved = await first.move(ALICE.id, "11-15", game_id=view.id)
    assert moved.dms == ()  # the computer's turn
    reply = await replied(first, view.id)
    assert reply.action is Action.MOVED and reply.dms == ()
    await first.close()

    crashing = await services.open(database, computer=CrashingComputer())
    await crashing.move(ALICE.id, "8-11", game_id=view.id)
    assert await crashing.computer_reply(view.id) is None  # the engine died
    await crashing.close()
    again = await services.open(database)
    background = Background(again)
    assert await again.resume_computer_games() == 1
    (late,) = await background.settle()
    (dm,) = late.dms
    assert dm.user_id == ALICE.id and str(dm.text).startswith(f"Your move in game #{view.id}")
    assert f"{BOT.name} played" in str(dm.text)


async def test_a_takeback_tells_the_player_it_gave_the_move_back_to(
    service: GameService,
) -> None:
    await service.readers.set_prefs(ALICE.id, dm_turn=True)
    view = await play(service, await start(service), ["11-15", "23-19"])
    await service.request_takeback(ALICE.id, game_id=view.id)
    accepted = await service.answer_takeback(BOB.id, True, game_id=view.id)
    assert accepted.action is Action.TAKEBACK_ACCEPTED
    (dm,) = accepted.dms
    assert dm.user_id == ALICE.id and str(dm.text).startswith(f"Your move in game #{view.id}")


async def test_a_match_game_two_tells_its_first_mover(service: GameService) -> None:
    await service.readers.set_prefs(BOB.id, dm_turn=True)
    first = await start(service, match=True)  # Alice Black; game 2: Bob Black, to move first
    ended = await resigns(service, BOB.id, first.id)
    assert ended.dms == ()
    assert ended.follow_up is not None
    (dm,) = ended.follow_up.dms
    assert dm.user_id == BOB.id and "has started" in str(dm.text)


# -- direct messages travel with their announcement -------------------------------------------


async def test_a_failed_delivery_keeps_its_direct_messages(service: GameService) -> None:
    await service.readers.set_prefs(BOB.id, dm_turn=True)
    view = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=view.id)
    assert moved.event is not None and moved.dms
    assert decode(encode(moved)) == moved
    await service.outbox.failed(moved.event, moved)
    [owed] = [o for o in await service.outbox.owed() if o.event == moved.event]
    assert owed.result == moved


async def test_a_turns_direct_message_is_rebuilt_after_a_crash(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    await first.readers.set_prefs(BOB.id, dm_turn=True)
    view = await start(first)
    moved = await first.move(ALICE.id, "11-15", game_id=view.id)
    await first.close()  # as good as a crash: nothing was delivered
    clock.advance(HANDOFF_SECONDS)
    again = await services.open(database)
    owed = {o.event: o.result for o in await again.outbox.owed()}
    rebuilt = owed[moved.event]  # type: ignore[index]
    assert rebuilt is not None and str(rebuilt.text).startswith(str(LATE))
    (dm,) = rebuilt.dms
    assert (dm.user_id, dm.game_id, dm.guild_id, dm.channel_id) == (BOB.id, view.id, GUILD, CHANNEL)
    assert "Alice played 11-15" in str(dm.text)


async def test_direct_messages_of_covered_entries_ride_on_the_covering_one(
    database: Database, clock: Clock, services: Services
) -> None:
    """After a crash a game is shown once, by its newest entry: that entry carries the direct
    messages of the turn the older ones announced, and of its own last warning."""
    first = await services.open(database)
    await first.readers.set_prefs(BOB.id, dm_turn=True)
    await first.readers.set_prefs(ALICE.id, last_warning=True)
    moving = await start(first)
    moved = await first.move(ALICE.id, "11-15", game_id=moving.id)
    warned_game = await start_moved(first, channel_id=CHANNEL + 1)
    clock.now = T0 + WARN
    warnings = {e.game.id: e for e in await first.tick() if e.game is not None}
    # Both players to move get the last warning; only Alice asked for it by message too.
    assert [w.action for w in warnings.values()] == [Action.LAST_WARNING] * 2
    assert warnings[moving.id].dms == ()
    await first.close()  # as good as a crash: nothing was delivered

    clock.advance(HANDOFF_SECONDS)
    again = await services.open(database)
    owed = {o.event: o.result for o in await again.outbox.owed()}
    assert owed[moved.event] is None  # type: ignore[index]  # covered by the warning...
    covering = owed[warnings[moving.id].event]  # type: ignore[index]
    assert covering is not None and covering.action is Action.LAST_WARNING
    (dm,) = covering.dms  # ...which carries the turn's message
    assert (dm.user_id, dm.game_id) == (BOB.id, moving.id) and "Alice played 11-15" in str(dm.text)
    warning = owed[warnings[warned_game.id].event]  # type: ignore[index]
    assert warning is not None and warning.action is Action.LAST_WARNING
    (warning_dm,) = warning.dms
    assert warning_dm.user_id == ALICE.id and "last warning" in str(warning_dm.text)
    assert await again.tick() == []  # and no warning is given a second time
