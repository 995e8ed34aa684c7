"""Crash-test helper for ``tests/service/test_service_reliability.py``: plays moves until it is
killed.

Run as ``python tests/support/crash_player.py DATABASE SEED``.  It opens the game service on
DATABASE, prints ``READY``, then keeps ``GAMES`` games going at once (one per channel), resuming the
running game of each channel if there is one, accepting a challenge a killed predecessor left open,
and starting a new game when one ends.  Each loop plays random legal moves (seeded), now and then
offering a draw first or resigning, and acknowledges every move only after ``move()`` has returned
(that is, after its transaction committed) with one flushed line::

    ACK <game id> <ply> <pdn>

The parent kills it with SIGKILL at a random moment and checks that every acknowledged move is in
the database.  Importing this module does nothing (pytest imports it for doctests).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import traceback

from bot.errors import ChallengeError, DrawError
from bot.results import Player
from bot.service import GameService

GAMES = 3
VARIANTS = ("english", "russian", "international", "pool")
BOT_ID = 999


def _players(slot: int) -> tuple[Player, Player]:
    return Player(100 + 2 * slot, f"White{slot}"), Player(101 + 2 * slot, f"Black{slot}")


async def _start(svc: GameService, slot: int, rng: random.Random) -> None:
    """A running game in the slot's channel: accept the challenge left open by a killed run, or
    challenge afresh."""
    channel = 5000 + slot
    white, black = _players(slot)
    try:
        result = await svc.challenge(
            guild_id=1,
            channel_id=channel,
            challenger=white,
            opponent=black,
            variant=rng.choice(VARIANTS),
            color="white",
            move_time=3600,
        )
        assert result.challenge is not None
        challenge_id = result.challenge.id
    except ChallengeError:
        row = await svc.store.open_challenge_of(white.id, channel)
        assert row is not None, "ChallengeError without an open challenge"
        challenge_id = row.id
    await svc.accept(challenge_id, black.id)


async def _loop(svc: GameService, slot: int, rng: random.Random) -> None:
    channel = 5000 + slot
    while True:
        view = await svc.game_in(channel)
        if view is None:
            await _start(svc, slot, rng)
            continue
        assert view.to_move is not None
        user = view.to_move.id
        if rng.random() < 0.01:
            await svc.resign(user, channel_id=channel)
            continue
        if rng.random() < 0.05 and view.draw_offer is None:
            # too early (before both have moved, or just after this player's last offer):
            # refused, and nothing is written
            with contextlib.suppress(DrawError):
                await svc.offer_draw(user, channel_id=channel)
        choices = await svc.legal_moves(channel, user)
        text = rng.choice(choices).value
        # Nothing else writes these games, so any error (even a ServiceError) is a bug.
        result = await svc.move(user, text, channel_id=channel, expected_ply=view.ply)
        played = result.moves[0]
        print(f"ACK {view.id} {played.ply} {played.pdn}", flush=True)


async def main(database: str, seed: int) -> None:
    svc = await GameService.open(database, bot_user_id=BOT_ID, rng=random.Random(seed))
    print("READY", flush=True)
    rng = random.Random(seed)
    loops = [_loop(svc, slot, random.Random(rng.random())) for slot in range(GAMES)]
    await asyncio.gather(*loops)


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    except BaseException as exc:
        # Report and stop at once: the database's worker thread would keep the process alive.
        print(f"ERROR {type(exc).__name__}: {exc}", flush=True)
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
