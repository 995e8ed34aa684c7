"""The computer thinks off the game's lock: nothing a player asks waits for its search.

Issue 13 measured ``/board``, ``/moves`` and ``/games`` waiting 2.4-4.1 s behind the lock a search
held.  Here the search is a real ``ComputerPlayer`` held open by the test (it waits on an event),
so "does not wait" is not a timing: an action that waited for the search would never finish, and
``finished`` turns that hang into a failure.  What the search finds is played only in the game it
read; when a player acted meanwhile the thought is dropped and the computer looks again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import pytest
from support.service_harness import (
    ALICE,
    BOT,
    BOT_ID,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Background,
    Clock,
    Database,
    challenge,
    opened,
    replied,
    start,
)

from bot.results import Action
from bot.service.computer import RandomComputer
from rules.game import Game
from rules.move import Move

T = TypeVar("T")

HANG = 10.0
"""Seconds after which an action is taken to be waiting for the held search (a deadlock guard,
not a timing: the search never ends while held)."""


async def finished(action: Awaitable[T]) -> T:
    """``action``'s value; a failure if it waits for the held search."""
    try:
        return await asyncio.wait_for(action, HANG)
    except TimeoutError:
        raise AssertionError("the action waited for the computer's search") from None


class HeldComputer:
    """A real computer player whose every search waits until the test lets it go."""

    def __init__(self, accept_draws: bool = False) -> None:
        self.inner = RandomComputer(seed=4)
        self.accept_draws = accept_draws
        self.searching = asyncio.Event()
        self.go = asyncio.Event()
        self.searches: list[int] = []
        """The ply of each game the computer searched, in order."""

    async def _held(self, game: Game) -> None:
        self.searches.append(game.ply)
        self.searching.set()
        await self.go.wait()
        self.searching.clear()

    async def choose_move(self, game: Game, level: int) -> Move:
        await self._held(game)
        return await self.inner.choose_move(game, level)

    async def answer_draw(self, game: Game, level: int) -> bool:
        await self._held(game)
        return self.accept_draws

    async def release(self) -> None:
        """Let the current search finish (and any later one run straight through)."""
        self.go.set()


async def test_nothing_a_player_asks_waits_for_the_search(database: Database, clock: Clock) -> None:
    held = HeldComputer()
    async with opened(database, clock, computer=held) as svc:
        view = (await challenge(svc, opponent=BOT)).game
        assert view is not None
        moved = await finished(svc.move(ALICE.id, "11-15", channel_id=CHANNEL))
        assert moved.game is not None and moved.game.ply == 1
        await finished(held.searching.wait())  # the computer is thinking now...
        # ...and everything about the game answers meanwhile.
        shown = await finished(svc.game_in(CHANNEL))
        assert shown is not None and shown.ply == 1 and shown.to_move is not None
        assert shown.to_move.id == BOT_ID
        listed, moves = await finished(svc.move_list(CHANNEL))
        assert listed.ply == 1 and moves
        games = await finished(svc.games(GUILD))
        assert [g.id for g in games] == [view.id]
        assert await finished(svc.legal_moves(CHANNEL, ALICE.id)) == []  # not her turn
        # Another game goes on too.
        await finished(start(svc, channel_id=OTHER_CHANNEL))  # Alice (Black) moves first
        await finished(svc.move(ALICE.id, "11-15", channel_id=OTHER_CHANNEL))
        await held.release()
        reply = await finished(replied(svc, view.id))
        assert reply.game is not None and reply.game.ply == 2 and reply.game.to_move == ALICE
    assert held.searches == [1]


async def test_a_search_made_stale_by_a_draw_offer_is_dropped(
    database: Database, clock: Clock
) -> None:
    """Alice offers a draw while the computer thinks about its move: the move it found in the
    position without the offer is not played; it looks again and answers the offer (declining
    by moving)."""
    held = HeldComputer()
    async with opened(database, clock, computer=held) as svc:
        view = (await challenge(svc, opponent=BOT)).game
        assert view is not None
        await held.release()  # a move each first: no draw before both players have moved
        await svc.move(ALICE.id, "11-15", channel_id=CHANNEL)
        await finished(replied(svc, view.id))
        held.go.clear()
        second = (await svc.legal_moves(CHANNEL, ALICE.id))[0].value
        await svc.move(ALICE.id, second, channel_id=CHANNEL)
        await finished(held.searching.wait())
        offered = await finished(svc.offer_draw(ALICE.id, channel_id=CHANNEL))
        assert offered.action is Action.DRAW_OFFERED
        await held.release()
        reply = await finished(replied(svc, view.id))
        assert reply.action is Action.MOVED and reply.game is not None
        assert reply.game.ply == 4 and reply.game.draw_offer is None
        movers = [m.user_id for m in await svc.store.moves(view.id)]
        assert movers == [ALICE.id, BOT_ID, ALICE.id, BOT_ID]
    # The search at ply 3 (no offer) was thrown away; the next judged the offer, then searched
    # its move.
    assert held.searches == [1, 3, 3, 3]


async def test_a_takeback_during_the_search_leaves_nothing_to_reply(
    database: Database, clock: Clock
) -> None:
    held = HeldComputer()
    async with opened(database, clock, computer=held) as svc:
        shown = Background(svc)
        view = (await challenge(svc, opponent=BOT)).game
        assert view is not None
        await svc.move(ALICE.id, "11-15", channel_id=CHANNEL)
        await finished(held.searching.wait())
        taken = await finished(svc.request_takeback(ALICE.id, channel_id=CHANNEL))
        assert taken.action is Action.TAKEBACK_ACCEPTED
        assert taken.game is not None and taken.game.ply == 0 and taken.game.to_move == ALICE
        await held.release()
        assert await finished(svc.computer_reply(view.id)) is None
        assert await shown.settle() == []
        assert await svc.store.moves(view.id) == []


async def test_a_shutdown_stops_the_search_and_the_restart_replies(
    database: Database, clock: Clock
) -> None:
    held = HeldComputer()
    async with opened(database, clock, computer=held) as svc:
        view = (await challenge(svc, opponent=BOT)).game
        assert view is not None
        await svc.move(ALICE.id, "11-15", channel_id=CHANNEL)
        await finished(held.searching.wait())
        await finished(svc.stop_thinking())  # the search is cancelled, not waited for
        assert await svc.computer_reply(view.id) is None
        await finished(svc.settle())
    async with opened(database, clock) as again:
        shown = Background(again)
        assert await again.resume_computer_games() == 1
        (reply,) = await shown.settle()
        assert reply.game is not None and reply.game.ply == 2
        assert [m.user_id for m in await again.store.moves(view.id)] == [ALICE.id, BOT_ID]


async def test_the_computers_opening_is_made_once_when_the_scheduler_races_the_start(
    database: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scheduler check right after a computer-first game is stored wakes the same thinking
    task the start claims: one opening move, shown once, by the start's caller."""
    async with opened(database, clock) as svc:
        shown = Background(svc)
        original = svc.store.start_game

        async def start_game_then_check(*args: object, **kwargs: object) -> int:
            game_id = await original(*args, **kwargs)  # type: ignore[arg-type]
            assert await svc.resume_computer_games() == 1
            return game_id

        monkeypatch.setattr(svc.store, "start_game", start_game_then_check)
        started = await challenge(svc, opponent=BOT, color="white")
        assert started.game is not None and started.game.ply == 0
        opening = await replied(svc, started.game.id)
        assert opening.game is not None and opening.game.ply == 1
        assert await shown.settle() == []
        stored = await svc.store.moves(started.game.id)
        assert [(m.ply, m.user_id) for m in stored] == [(1, BOT_ID)]
        # The game kept in memory is the one the computer moved in: Alice plays on at once.
        (choice, *_) = await svc.legal_moves(CHANNEL, ALICE.id)
        moved = await svc.move(ALICE.id, choice.value, channel_id=CHANNEL)
        assert moved.game is not None and moved.game.ply == 2


async def test_a_failed_opening_is_made_by_the_scheduler(database: Database, clock: Clock) -> None:
    class FailsOnce(RandomComputer):
        calls = 0

        async def choose_move(self, game: Game, level: int) -> Move:
            self.calls += 1
            if self.calls == 1:
                raise RuntimeError("engine crashed")
            return await super().choose_move(game, level)

    async with opened(database, clock, computer=FailsOnce(seed=3)) as svc:
        shown = Background(svc)
        started = await challenge(svc, opponent=BOT, color="white")
        assert started.game is not None and started.game.ply == 0 and started.moves == ()
        assert await svc.computer_reply(started.game.id) is None  # it crashed
        assert await svc.tick() == []
        (opening,) = await shown.settle()
        assert opening.action is Action.MOVED
        assert opening.game is not None and opening.game.ply == 1


async def test_an_accepted_draw_ends_the_game_only_if_nothing_changed(
    database: Database, clock: Clock
) -> None:
    """The computer accepts an offer made on Alice's turn; Alice moves while it thinks (which
    withdraws nothing, but changes the game): it judges again, and accepts the offer as it
    stands now."""
    held = HeldComputer(accept_draws=True)
    async with opened(database, clock, computer=held) as svc:
        view = (await challenge(svc, opponent=BOT, color="white")).game  # the computer opens
        assert view is not None
        await held.release()
        await finished(replied(svc, view.id))  # its opening
        first = (await svc.legal_moves(CHANNEL, ALICE.id))[0].value
        await svc.move(ALICE.id, first, channel_id=CHANNEL)  # no draw before both have moved
        await finished(replied(svc, view.id))
        held.go.clear()
        await svc.offer_draw(ALICE.id, channel_id=CHANNEL)
        await finished(held.searching.wait())
        second = (await svc.legal_moves(CHANNEL, ALICE.id))[0].value
        await svc.move(ALICE.id, second, channel_id=CHANNEL)
        await held.release()
        result = await finished(replied(svc, view.id))
        assert result.action is Action.DRAW_ACCEPTED and result.finished
        row = await svc.store.game(view.id)
        assert row is not None and row.ply == 4 and row.result == "1/2-1/2"
