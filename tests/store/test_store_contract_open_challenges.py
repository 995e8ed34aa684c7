"""The store contract of open challenges (no opponent named, an optional rating range), on every
backend: they read back as written, the lobby lists a server's open ones, and of two games
started at once from one open challenge exactly one is written, with its accepter as the
challenge's opponent.
"""

from __future__ import annotations

import asyncio

from support.store_backends import T0, new_challenge, new_game

from bot.enums import ChallengeStatus
from bot.store import ChallengeClosed, NewChallenge, Store


def open_challenge(
    channel_id: int = 100, challenger_id: int = 1, **changes: object
) -> NewChallenge:
    return new_challenge(channel_id, challenger_id, opponent_id=None, opponent_name=None, **changes)


async def test_an_open_challenge_reads_back_and_is_listed(store: Store) -> None:
    cid = await store.insert_challenge(open_challenge(min_rating=1400, max_rating=1700))
    row = await store.challenge(cid)
    assert row is not None and (row.opponent_id, row.opponent_name) == (None, None)
    assert (row.min_rating, row.max_rating) == (1400, 1700)
    named = await store.insert_challenge(new_challenge(channel_id=101))
    late = await store.insert_challenge(open_challenge(102, expires_at=T0 + 5000))
    await store.insert_challenge(open_challenge(103, guild_id=11))
    closed = await store.insert_challenge(open_challenge(104))
    await store.close_challenge(closed, ChallengeStatus.CANCELLED, T0 + 1)
    assert [c.id for c in await store.open_challenges_in(10, T0 + 1)] == [cid, late]
    assert [c.id for c in await store.open_challenges_in(10, T0 + 900)] == [late]
    assert named not in [c.id for c in await store.open_challenges_in(10, T0)]


async def test_two_games_from_one_open_challenge_only_one_is_written(store: Store) -> None:
    """Carol (3) and Dave (4) accept Alice's (1) open challenge at once; their games would go to
    two new threads, so only the challenge's status stands between them."""
    cid = await store.insert_challenge(open_challenge())
    carol = new_game(201, white_id=3, white_name="Carol", black_id=1, black_name="Alice")
    dave = new_game(202, white_id=1, white_name="Alice", black_id=4, black_name="Dave")
    outcomes = await asyncio.gather(
        store.start_game(carol, cid), store.start_game(dave, cid), return_exceptions=True
    )
    [game_id] = [o for o in outcomes if isinstance(o, int)]
    assert [type(o) for o in outcomes if not isinstance(o, int)] == [ChallengeClosed]
    row = await store.challenge(cid)
    assert row is not None and row.status is ChallengeStatus.ACCEPTED and row.game_id == game_id
    game = await store.game(game_id)
    assert game is not None
    accepter = (
        (game.white_id, game.white_name)
        if game.black_id == 1
        else (
            game.black_id,
            game.black_name,
        )
    )
    assert (row.opponent_id, row.opponent_name) == accepter
    assert accepter in ((3, "Carol"), (4, "Dave"))
    assert [await store.running_game_in(c) is not None for c in (201, 202)].count(True) == 1


async def test_a_named_opponent_stays_when_the_challenge_is_accepted(store: Store) -> None:
    cid = await store.insert_challenge(new_challenge(color="white"))
    game_id = await store.start_game(new_game(), cid)
    row = await store.challenge(cid)
    assert row is not None and (row.opponent_id, row.opponent_name, row.game_id) == (
        2,
        "Bob",
        game_id,
    )
