"""The storage contract of schema v17 (issue 30: play from a position, hints), run against every
implementation like ``test_store_contract.py``: a challenge keeps the position its game starts
from, and a game counts its hints under the version guard.  Protocol methods only.
"""

from __future__ import annotations

import pytest
from support.store_backends import new_challenge, new_game

from bot.store import StaleVersion, Store

FEN = "W:W21,22,25:B9,10,K30"


async def test_a_challenge_keeps_its_start_position(store: Store) -> None:
    plain = await store.challenge(await store.insert_challenge(new_challenge()))
    assert plain is not None and plain.start_fen is None
    own = await store.insert_challenge(new_challenge(channel_id=101, start_fen=FEN))
    row = await store.challenge(own)
    assert row is not None and row.start_fen == FEN
    assert await store.open_challenge_of(1, 101) == row


async def test_a_game_counts_its_hints_under_the_version_guard(store: Store) -> None:
    game_id = await store.start_game(new_game(start_fen=FEN, fen=FEN, rated=False))
    row = await store.game(game_id)
    assert row is not None and (row.hints, row.start_fen) == (0, FEN)
    await store.update_game(game_id, 0, {"hints": 1})
    with pytest.raises(StaleVersion):
        await store.update_game(game_id, 0, {"hints": 5})
    row = await store.game(game_id)
    assert row is not None and (row.hints, row.version) == (1, 1)
