"""What posting a result needs, handed out with it, and the bookkeeping of a post in two calls
(:mod:`bot.service.announcing`): the Discord layer asks the service nothing else to post a move.

The posts themselves are proven end to end (``test_e2e_game.py``, ``test_e2e_delivery.py``);
``bench/service_calls.py`` counts the calls a ``/move`` makes in the real bot.
"""

from __future__ import annotations

import json

from support.service_harness import ALICE, BOB, GUILD, start

from bot.enums import BoardTheme
from bot.results import AnswerBy, Locales, Publishing
from bot.service import GameService
from bot.service.events import decode, encode

FAR = 10.0**12


async def test_a_move_carries_the_servers_theme_and_no_record(service: GameService) -> None:
    await service.settings.change(GUILD, is_moderator=True, theme="green")
    game = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    assert moved.post_board
    assert moved.publishing == Publishing(BoardTheme.GREEN, None)


async def test_a_theme_changed_is_the_next_boards_theme(service: GameService) -> None:
    game = await start(service)
    first = await service.move(ALICE.id, "11-15", game_id=game.id)
    assert first.publishing is not None and first.publishing.theme is BoardTheme.WOOD
    await service.change_settings(GUILD, is_moderator=True, theme="contrast")
    second = await service.move(BOB.id, "23-19", game_id=game.id)
    assert second.publishing is not None and second.publishing.theme is BoardTheme.CONTRAST


async def test_an_ended_game_carries_its_record(service: GameService) -> None:
    game = await start(service)
    resigned = await service.resign(ALICE.id, game_id=game.id)
    assert resigned.publishing is not None and resigned.publishing.record is not None
    name, text = resigned.publishing.record
    assert (name, text) == await service.pdn(game_id=game.id)
    assert "[Result " in text


async def test_what_posting_needs_is_not_kept_with_the_announcement(
    service: GameService,
) -> None:
    game = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    stored = encode(moved)
    assert "publishing" not in json.loads(stored)
    late = decode(stored)
    assert late.publishing is None and late == moved  # equal in all that is kept
    again = await service.with_publishing(late)
    assert again.publishing == moved.publishing


async def test_a_post_is_bookkept_in_one_call_before_it_and_one_after(
    service: GameService,
) -> None:
    game = await start(service)
    moved = await service.move(ALICE.id, "11-15", game_id=game.id)
    assert moved.event is not None
    # Before this process has handed out what earlier ones left, every game may owe some.
    assert await service.delivering(moved.event, game.id, AnswerBy(701, 801, "token-1")) is True
    # Written before it returns: the message it announces goes out next.
    [row] = [r for r in await service.store.pending_events(FAR, limit=100) if r.id == moved.event]
    assert (row.answer_token, row.answer_interaction, row.answer_channel) == ("token-1", 701, 801)
    assert await service.shown(moved.event, [(game.id, 500)]) == {}  # the game's first board
    await service.outbox.flush()
    assert moved.event not in {r.id for r in await service.store.pending_events(FAR, limit=100)}
    await service.owed()  # the start-up round: nothing left from before
    replied = await service.move(BOB.id, "23-19", game_id=game.id)
    assert replied.event is not None
    assert await service.delivering(replied.event, game.id) is False
    locales = Locales(BOB.id, "de", GUILD, "fr")
    assert await service.shown(replied.event, [(game.id, 501)], locales) == {game.id: [500]}
    assert (
        await service.readers.user_locale(BOB.id),
        await service.readers.server_locale(GUILD),
    ) == ("de", "fr")
    assert await service.shown(None, [(game.id, 501)]) == {}  # the same board again: nothing
