"""The outbox at the service level: every change players must see is written with an entry in the
same transaction, a refused action writes none, a failed delivery keeps the message exactly, and a
change whose process died before announcing it is rebuilt from the database after a restart.

Delivery itself (interaction answer, channel post, retries) is proven end to end in
``test_e2e_delivery.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    BOT_ID,
    CHANNEL,
    GUILD,
    MOVE_TIME,
    Background,
    Clock,
    CrashingComputer,
    Database,
    Services,
    challenge,
    count_rows,
    play,
    query,
    start,
    start_moved,
    start_result,
    unchanged,
)

from bot.errors import ServiceError
from bot.i18n import Kind, Text, verbatim
from bot.i18n import _ as message
from bot.results import Action, ActionResult, AnswerBy
from bot.service import GameService
from bot.service.events import HANDOFF_SECONDS, decode, encode
from bot.service.outbox import (
    ANSWER_SETTLE_SECONDS,
    GIVE_UP_AFTER,
    KEEP_DELIVERED_SECONDS,
    LATE,
    TOKEN_LIFE_SECONDS,
)

FAR = 10.0**12


async def entries(service: GameService) -> list[tuple[str, str, int | None, int | None]]:
    """Every undelivered entry: (id, kind, game, challenge), oldest first."""
    rows = await service.store.pending_events(FAR, limit=1000)
    return [(row.id, row.kind, row.game_id, row.challenge_id) for row in rows]


async def test_every_action_writes_one_entry_with_its_change(service: GameService) -> None:
    made = await challenge(service)
    assert made.challenge is not None and made.event is not None
    started = await service.accept(made.challenge.id, BOB.id)
    game = started.game
    assert game is not None
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    replied_to = await service.move(BOB.id, "22-18", game_id=game.id)
    offered = await service.offer_draw(BOB.id, game_id=game.id)
    declined = await service.decline_draw(ALICE.id, game_id=game.id)
    asked = await service.request_takeback(ALICE.id, game_id=game.id)
    refused = await service.answer_takeback(BOB.id, False, game_id=game.id)
    resigned = await service.resign(BOB.id, game_id=game.id)
    results = [made, started, moved, replied_to, offered, declined, asked, refused, resigned]
    assert [(e[0], e[1]) for e in await entries(service)] == [
        (r.event, r.action.value) for r in results
    ]
    assert all(e[2] == game.id for e in (await entries(service))[1:])
    assert (await entries(service))[0][3] == made.challenge.id


async def test_the_scheduler_writes_entries_for_what_time_did(
    service: GameService, clock: Clock
) -> None:
    waiting = await challenge(service, channel_id=CHANNEL + 1)
    game = await start_moved(service)
    clock.advance(MOVE_TIME * 0.6)
    reminded = await service.tick()
    clock.advance(MOVE_TIME)
    ended = await service.tick()
    kinds = {(r.action, r.event) for r in reminded + ended}
    assert {action for action, _ in kinds} == {
        Action.REMINDER,
        Action.CHALLENGE_EXPIRED,
        Action.TIMEOUT,
    }
    assert waiting.challenge is not None
    pending = {e[0]: e for e in await entries(service)}
    for _, event in kinds:
        assert event in pending
    assert pending[next(e for a, e in kinds if a is Action.TIMEOUT)][2] == game.id


async def test_a_refused_action_writes_no_entry(service: GameService) -> None:
    game = await start(service)
    before = await entries(service)
    async with unchanged(service, game.id):
        for refused in (
            service.move(ALICE.id, "11-99", game_id=game.id),
            service.move(BOB.id, "22-18", game_id=game.id),
            service.accept_draw(ALICE.id, game_id=game.id),
            service.resign(777, game_id=game.id),
        ):
            with pytest.raises(ServiceError):
                await refused
    assert await entries(service) == before


async def test_new_entries_are_left_to_their_action_for_a_while(
    service: GameService, clock: Clock
) -> None:
    assert await service.outbox.owed() == []  # the start-up round: nothing from before
    await start(service)
    assert await service.outbox.owed() == []
    clock.advance(HANDOFF_SECONDS)
    assert len(await service.outbox.owed()) == 2  # the challenge and the game's start


async def test_a_new_process_owes_everything_written_before_it(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    started = await start_result(first)
    await first.close()
    again = await services.open(database)  # at once: no handoff time has passed
    owed = await again.outbox.owed()
    assert started.event in {o.event for o in owed}
    assert await again.outbox.owed() == []  # afterwards, the handoff time applies again


async def test_a_delivered_entry_is_never_owed_again(service: GameService, clock: Clock) -> None:
    started = await start_result(service)
    assert started.event is not None
    await service.outbox.delivered(started.event)
    clock.advance(HANDOFF_SECONDS)
    assert [o.event for o in await service.outbox.owed()] != [started.event]
    assert started.event not in {o.event for o in await service.outbox.owed()}


async def test_a_failed_delivery_keeps_the_message_exactly(
    service: GameService, clock: Clock
) -> None:
    game = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    assert moved.event is not None
    await service.outbox.failed(moved.event, moved)
    await play(service, moved.game, ["22-18"])  # type: ignore[arg-type]
    [owed] = [o for o in await service.outbox.owed() if o.event == moved.event]
    assert owed.result == moved  # the board as it was then, though the game moved on
    assert owed.attempts == 1


async def test_retries_back_off_and_give_up(service: GameService, clock: Clock) -> None:
    await service.outbox.owed()  # the start-up round
    started = await start_result(service)
    assert started.event is not None
    await service.outbox.failed(started.event, started, attempts=3)
    assert started.event not in {o.event for o in await service.outbox.owed()}
    clock.advance(5 * 2**3 * 1.25 + 1)
    assert started.event in {o.event for o in await service.outbox.owed()}
    await service.outbox.failed(started.event, started, attempts=GIVE_UP_AFTER - 1)
    clock.advance(10**6)
    assert started.event not in {o.event for o in await service.outbox.owed()}


def test_a_stored_message_reads_back_equal() -> None:
    text = message("{opponent} declined the challenge.", opponent="Bob")
    result = ActionResult(Action.CHALLENGE_DECLINED, text, mentions=(1, 2), event="e")
    assert decode(encode(result)) == result
    with pytest.raises(ValueError):
        decode('{"action": "moved"}')
    with pytest.raises(ValueError):
        decode('{"action": "no such action", "text": "x"}')


async def played_results(service: GameService) -> list[ActionResult]:
    """The results of a rated match game played with most of what can happen in one: a
    challenge, moves with a direct message for Bob, a draw declined (the 40-move count), a
    takeback, and a resignation with its ratings and the match's second game."""
    await service.readers.set_prefs(BOB.id, dm_turn=True)
    made = await challenge(service, match=True)
    assert made.challenge is not None
    results = [made, await service.accept(made.challenge.id, BOB.id)]
    view = results[-1].game
    assert view is not None
    for text in ["11-15", "23-19", "8-11", "22-17"]:
        assert view.to_move is not None
        results.append(await service.move(view.to_move.id, text, game_id=view.id))
        view = results[-1].game
        assert view is not None
    results.append(await service.offer_draw(BOB.id, game_id=view.id))
    results.append(await service.decline_draw(ALICE.id, game_id=view.id))
    results.append(await service.request_takeback(BOB.id, game_id=view.id))
    results.append(await service.answer_takeback(ALICE.id, True, game_id=view.id))
    results.append(await service.resign(ALICE.id, game_id=view.id))
    return results


def texts_of(value: object) -> list[Text]:
    """Every :class:`Text` inside a result (its game's, its direct messages', its follow-up's)."""
    if isinstance(value, Text):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value for text in texts_of(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            text for f in dataclasses.fields(value) for text in texts_of(getattr(value, f.name))
        ]
    return []


async def test_every_word_of_a_played_game_reads_back_unchanged(service: GameService) -> None:
    results = await played_results(service)
    ended = results[-1]
    assert ended.follow_up is not None and "Ratings:" in str(ended.text)
    assert any(dm.user_id == BOB.id for r in results for dm in r.dms)
    texts = [text for result in results for text in texts_of(result)]
    assert len(texts) > 30 and all(
        text.kind is Kind.MESSAGE or text.parts for text in (result.text for result in results)
    )
    for result in results:
        again = decode(encode(result))
        assert again == result
        assert [str(t) for t in texts_of(again)] == [str(t) for t in texts_of(result)]


def _as_stored_before_catalogs(raw: object) -> object:
    """A result as JSON the way it was kept before there were catalogs: every word a string."""
    if isinstance(raw, dict):
        if "k" in raw and "m" in raw:
            return str(Text.from_json(raw))
        return {key: _as_stored_before_catalogs(value) for key, value in raw.items()}
    if isinstance(raw, list):
        return [_as_stored_before_catalogs(item) for item in raw]
    return raw


async def test_an_announcement_stored_before_catalogs_reads_as_it_was(
    service: GameService,
) -> None:
    for result in await played_results(service):
        old = json.dumps(_as_stored_before_catalogs(json.loads(encode(result))))
        assert '"k":' not in old.replace(" ", "")
        read = decode(old)
        assert [str(t) for t in texts_of(read)] == [str(t) for t in texts_of(result)]
        assert all(t.kind is Kind.VERBATIM for t in texts_of(read))
        assert read.text == verbatim(str(result.text))
    plain = '{"action": "challenge_declined", "text": "Bob declined the challenge.", "event": "e"}'
    assert decode(plain) == ActionResult(
        Action.CHALLENGE_DECLINED, verbatim("Bob declined the challenge."), event="e"
    )


async def test_after_a_crash_each_game_is_shown_once_as_it_stands(
    database: Database, clock: Clock, services: Services
) -> None:
    """The process died after each change and before any announcement: after the restart,
    every game is announced once (its newest entry, the board as it stands, with what its
    end brought), and older entries of the same game are covered by it."""
    first = await services.open(database)
    game = await start(first)
    await play(first, game, ["11-15", "22-18"])
    other = await play(first, await start(first, channel_id=CHANNEL + 7), ["11-15", "22-18"])
    await first.resign(ALICE.id, game_id=other.id)
    await first.close()  # as good as a crash: nothing was delivered

    clock.advance(HANDOFF_SECONDS)
    again = await services.open(database)
    owed = await again.outbox.owed()
    shown = [o.result for o in owed if o.result is not None]
    covered = [o for o in owed if o.result is None]
    by_game = {r.game.id: r for r in shown if r.game is not None}
    assert set(by_game) == {game.id, other.id}
    running, ended = by_game[game.id], by_game[other.id]
    assert running.post_board and running.game is not None and running.game.ply == 2
    assert running.text == LATE  # the board it comes with says whose turn it is
    assert running.game.to_move is not None and running.game.to_move.name == "Alice"
    assert running.mentions == (running.game.to_move.id,)
    assert ended.game is not None and not ended.game.running
    # the result is the board's (its result line), said once; the text adds the ratings
    assert (ended.game.result, str(ended.game.termination)) == ("1-0", "Black resigned")
    assert str(ended.text).startswith(str(LATE)) and "Ratings:" in str(ended.text)
    # The challenges were accepted meanwhile: their own entries have nothing left to show.
    assert len(covered) == len(owed) - 2
    for o in owed:
        await again.outbox.delivered(o.event)
    assert await again.outbox.owed() == []


async def test_an_entry_a_crash_left_is_covered_by_a_later_change_of_its_game(
    database: Database, clock: Clock, services: Services
) -> None:
    """A process died between a move's commit and its announcement; in the next process the
    players acted again, and their own answers showed the game, before the catch-up looked
    at what the dead process left.  Rebuilt, that entry would show the same board (or the
    same end) once more: it is covered instead, as long as nothing else has happened since."""
    first = await services.open(database)
    game = await start(first)
    moved = await first.move(ALICE.id, "11-15", game_id=game.id)  # never announced
    assert moved.event is not None
    ended = await start(first, channel_id=CHANNEL + 3)
    await play(first, ended, ["11-15"])  # never announced either
    await first.close()
    clock.advance(1)
    again = await services.open(database)
    clock.advance(1)
    answered = await again.move(BOB.id, "22-18", game_id=game.id)
    resigned = await again.resign(ALICE.id, game_id=ended.id)
    for own in (answered, resigned):  # shown by their own answers
        assert own.event is not None
        await again.outbox.delivered(own.event)
    owed = {o.event: o.result for o in await again.outbox.owed()}
    assert moved.event in owed and owed[moved.event] is None
    left = [e for e, result in owed.items() if result is not None]
    assert left == [], [owed[e] for e in left]


async def test_a_move_made_while_an_entry_is_rebuilt_is_not_shown_by_it(
    database: Database, clock: Clock, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process died between a move's commit and its announcement; in the next one the other
    player moves just as the catch-up rebuilds that entry: after it looked whether the game
    changed since, before it read the game to show.  Seen in the chaos run as one board shown
    twice, posted by the catch-up and answered by the move 20 ms later.  The entry shows the
    game as it was when it looked, or nothing: never the board the move's own answer shows."""
    first = await services.open(database)
    game = await start(first)
    moved = await first.move(ALICE.id, "11-15", game_id=game.id)  # never announced
    assert moved.event is not None
    await first.close()
    clock.advance(1)
    again = await services.open(database)
    clock.advance(1)
    store = again.outbox.store
    read_moves = store.moves
    moving: list[asyncio.Task[ActionResult]] = []

    async def moves_then_a_move_lands(game_id: int) -> list[Any]:
        rows = await read_moves(game_id)
        monkeypatch.setattr(store, "moves", read_moves)  # only the catch-up's look
        move = asyncio.create_task(again.move(BOB.id, "22-18", game_id=game.id))
        moving.append(move)
        if again.outbox.live.lock(game.id).locked():
            await asyncio.sleep(0)  # the move waits for the game: let it start waiting
        else:
            await move  # nothing holds the game: the move lands now
        return rows

    monkeypatch.setattr(store, "moves", moves_then_a_move_lands)
    owed = {o.event: o.result for o in await again.outbox.owed()}
    answer = await moving[0]
    assert answer.game is not None and answer.game.ply == 2
    rebuilt = owed[moved.event]
    assert rebuilt is None or (rebuilt.game is not None and rebuilt.game.ply == 1), rebuilt


async def test_a_lost_challenge_post_is_rebuilt_only_while_it_is_open(
    database: Database, clock: Clock, services: Services
) -> None:
    first = await services.open(database)
    made = await challenge(first)
    gone = await challenge(first, channel_id=CHANNEL + 1)
    assert gone.challenge is not None
    declined = await first.decline(gone.challenge.id, BOB.id)
    await first.close()
    clock.advance(HANDOFF_SECONDS)
    again = await services.open(database)
    owed = {o.event: o.result for o in await again.outbox.owed()}
    reposted = owed[made.event]  # type: ignore[index]
    assert reposted is not None and reposted.action is Action.CHALLENGE_CREATED
    assert reposted.challenge == made.challenge and reposted.mentions == (BOB.id,)
    assert owed[gone.event] is None  # type: ignore[index]
    said = owed[declined.event]  # type: ignore[index]
    assert said is not None and str(said.text) == str(declined.text)


async def test_entries_are_written_in_the_games_transaction(
    database: Database, clock: Clock
) -> None:
    """Read through a separate connection: the entry and the move are there together."""
    from support.service_harness import opened

    async with opened(database, clock) as svc:
        game = await start(svc)
        moved = await svc.move(ALICE.id, "11-15", game_id=game.id)
        rows = await query(
            database,
            "SELECT o.kind, g.ply FROM outbox o JOIN games g ON g.id = o.game_id WHERE o.id = ?",
            (moved.event,),
        )
        assert rows == [("moved", 1)]
        assert GUILD and BOT_ID  # the harness's constants name the place and the bot


async def test_a_game_waiting_for_the_computer_is_covered_by_its_reply(
    database: Database, clock: Clock, services: Services
) -> None:
    """The process died after Alice's move and before the computer replied: the move's entry is
    not rebuilt on its own ("the computer to move" shows nothing new); the computer's reply,
    made after the restart, covers it, so the channel sees the game once, as it stands."""
    first = await services.open(database, computer=CrashingComputer())
    view = (await challenge(first, opponent=BOT)).game
    assert view is not None
    moved = await first.move(ALICE.id, "11-15", channel_id=CHANNEL)
    assert await first.computer_reply(view.id) is None  # the engine died
    await first.close()

    again = await services.open(database)
    owed_at_start = await again.outbox.owed()
    assert moved.event not in {o.event for o in owed_at_start}
    assert all(o.result is None for o in owed_at_start)  # the start: covered by the move
    pending = {row.id for row in await again.store.pending_events(FAR, limit=100)}
    assert moved.event in pending  # still owed, waiting for the reply
    shown = Background(again)
    await again.resume_computer_games()
    (reply,) = await shown.settle()
    assert reply.action is Action.MOVED and reply.event is not None
    # Showing the reply hands out the game's older entries first, due or not: the move's is
    # covered by it (nothing of its own to show), so it is never posted "late" afterwards.
    owed = {o.event: o for o in await again.outbox.owed(game_id=view.id, covered=True)}
    assert moved.event in owed and owed[moved.event].result is None
    assert reply.event in owed  # its own entry, which the one showing it skips


async def test_a_new_process_leaves_its_own_new_entries_to_their_actions(
    database: Database, clock: Clock, services: Services
) -> None:
    """The catch-up of a new process (its first hand-out) owes what earlier processes left, not
    the entries of its own actions still being answered (a slow answer within Discord's window
    would otherwise be posted a second time)."""
    first = await services.open(database)
    left = await start_result(first)
    await first.close()
    clock.advance(1)
    again = await services.open(database)
    clock.advance(1)
    mine = await challenge(again, channel_id=CHANNEL + 1)
    owed = {o.event for o in await again.outbox.owed()}
    assert left.event in owed and mine.event not in owed
    clock.advance(HANDOFF_SECONDS)  # its action never said it was delivered: now it is owed
    assert mine.event in {o.event for o in await again.outbox.owed()}


async def test_an_answer_cut_off_by_a_crash_is_checked_once_it_must_have_arrived(
    database: Database, clock: Clock, services: Services
) -> None:
    """A process died while Discord held its answer: the next one neither posts the entry at
    once (the answer may still arrive) nor forgets it; once the answer must have arrived it
    hands the entry out with the token to ask Discord about, while the token still works."""
    first = await services.open(database)
    moved = await start_result(first)
    assert moved.event is not None
    sent_at = clock()
    await first.outbox.answering(moved.event, AnswerBy(701, 801, "token-1"))
    await first.close()  # killed with the answer in flight

    again = await services.open(database)
    assert moved.event not in {o.event for o in await again.outbox.owed()}
    clock.advance(ANSWER_SETTLE_SECONDS)
    [owed] = [o for o in await again.outbox.owed() if o.event == moved.event]
    assert owed.answer == AnswerBy(701, 801, "token-1", sent_at) and owed.result is not None
    clock.advance(TOKEN_LIFE_SECONDS)
    [owed] = [o for o in await again.outbox.owed() if o.event == moved.event]
    assert owed.answer == AnswerBy(701, 801, None, sent_at)  # too old for the token: look around
    await again.outbox.failed(owed.event, owed.result)  # Discord said no: posting failed
    clock.advance(TOKEN_LIFE_SECONDS)
    [owed] = [o for o in await again.outbox.owed() if o.event == moved.event]
    assert owed.answer is None  # failed: nothing to look for, just post it


async def test_a_post_cut_off_by_a_crash_is_handed_out_with_when_it_began(
    database: Database, clock: Clock, services: Services
) -> None:
    """A post in the channel (no interaction) written down before it went out: the next process
    hands it out with its channel and time, to look for it among the bot's posts there."""
    first = await services.open(database)
    moved = await start_result(first)
    assert moved.event is not None
    sent_at = clock()
    await first.outbox.answering(moved.event, AnswerBy(None, 801, None))
    await first.close()  # killed with the post in flight
    clock.advance(ANSWER_SETTLE_SECONDS)
    again = await services.open(database)
    [owed] = [o for o in await again.outbox.owed() if o.event == moved.event]
    assert owed.answer == AnswerBy(None, 801, None, sent_at) and owed.result is not None


async def test_delivered_entries_are_pruned_after_a_week(
    service: GameService, clock: Clock
) -> None:
    game = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    assert moved.event is not None
    await service.outbox.delivered(moved.event)
    await service.outbox.flush()
    await service.outbox.owed()  # the first hand-out prunes (nothing old enough yet)
    assert await count_rows(service, "outbox", f"id = '{moved.event}'") == 1
    clock.advance(KEEP_DELIVERED_SECONDS + 1)
    await service.outbox.owed()
    assert await count_rows(service, "outbox", f"id = '{moved.event}'") == 0
    assert await count_rows(service, "outbox", "delivered_at IS NULL") > 0  # the owed ones stay


async def test_delivery_marks_are_written_together_and_never_lost_on_close(
    database: Database, clock: Clock, services: Services
) -> None:
    """Delivery marks wait a moment to share one write; meanwhile the entries are not handed
    out, and closing the service writes them."""
    svc = await services.open(database)
    game = await start(svc)
    results = [await svc.move(ALICE.id, "11-15", game_id=game.id)]
    results.append(await svc.move(BOB.id, "22-18", game_id=game.id))
    events = {r.event for r in results}
    clock.advance(HANDOFF_SECONDS)  # due, if they were not delivered
    for event in events:
        assert event is not None
        await svc.outbox.delivered(event)
    # Handed out neither before their marks are written nor after.
    assert not events & {o.event for o in await svc.outbox.owed()}
    await svc.close()
    again = await services.open(database)
    pending = {row.id for row in await again.store.pending_events(FAR, limit=1000)}
    assert not events & pending
