"""The store contract of puzzles (schema v14), on every backend: a puzzle stored once per place,
the next puzzle never one the user has had (a server's own near their rating first), one
attempt per user and puzzle, an attempt moved on and ended only at the ply it was read at (and
rated once, however concurrently it is ended), one daily post per server and day written with
its outbox entry, and one mining per game written with its puzzles.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from support.store_backends import FINISHED, T0, new_game

from bot.store import NewEvent, NewPuzzle, PuzzleRatingRow, PuzzleRow, Store

GUILD, OTHER = 10, 20
FEN = "W:W27,28:B19,20"


def new_puzzle(fen: str = FEN, guild_id: int | None = None, rating: float = 1500.0) -> NewPuzzle:
    return NewPuzzle(
        guild_id=guild_id,
        variant="english",
        family="short-8",
        fen=fen,
        solution="27-23 20x27 28-24",
        gain="material",
        rating=rating,
        deviation=350.0,
        volatility=0.06,
        source="test",
        game_id=None,
        created_at=T0,
    )


def rated(before: PuzzleRatingRow | None, puzzle: PuzzleRow) -> tuple[PuzzleRatingRow, PuzzleRow]:
    """A stand-in rating: the solver gains 10, the puzzle loses 10 (the store only writes)."""
    streak = 1 if before is None else before.streak + 1
    after = PuzzleRatingRow(
        GUILD, 1, puzzle.family, "Alice", (before.rating if before else 1500.0) + 10, 300.0,
        0.06, (before.attempts if before else 0) + 1, 1, streak, streak, T0,
    )  # fmt: skip
    return after, replace(puzzle, rating=puzzle.rating - 10)


def event(name: str) -> NewEvent:
    return NewEvent(
        id=name, kind="daily_puzzle", guild_id=GUILD, channel_id=100, game_id=None,
        challenge_id=None, created_at=T0, next_attempt_at=T0,
    )  # fmt: skip


async def test_a_puzzle_is_stored_once_per_place(store: Store) -> None:
    assert await store.add_puzzles([new_puzzle(), new_puzzle()]) == 1
    assert await store.add_puzzles([new_puzzle(guild_id=GUILD)]) == 1  # a server's own copy
    assert await store.add_puzzles([new_puzzle(), new_puzzle(guild_id=GUILD)]) == 0
    assert await store.count_puzzles(None, "english") == 1
    assert await store.count_puzzles(GUILD, "english") == 1
    assert await store.count_puzzles(OTHER, "english") == 0


async def test_the_next_puzzle_is_new_to_the_user_and_near_their_rating(store: Store) -> None:
    await store.add_puzzles(
        [
            new_puzzle("W:W27:B19", rating=1500.0),
            new_puzzle("W:W28:B20", rating=1900.0),
            new_puzzle("W:W26:B18", guild_id=GUILD, rating=1700.0),
            new_puzzle("W:W25:B17", guild_id=OTHER, rating=1500.0),
        ]
    )
    first = await store.next_puzzle(GUILD, 1, "english", 1500.0)
    assert first is not None and first.guild_id == GUILD  # the server's own, 200 away
    assert await store.start_attempt(first.id, GUILD, 1, T0) is not None
    assert await store.start_attempt(first.id, GUILD, 1, T0) is None  # never twice
    second = await store.next_puzzle(GUILD, 1, "english", 1500.0)
    assert second is not None and (second.guild_id, second.rating) == (None, 1500.0)
    seen = {first.id, second.id}
    attempt = await store.start_attempt(second.id, GUILD, 1, T0)
    assert attempt is not None
    third = await store.next_puzzle(GUILD, 1, "english", 1500.0)
    assert third is not None and third.id not in seen and third.rating == 1900.0
    await store.start_attempt(third.id, GUILD, 1, T0)
    assert await store.next_puzzle(GUILD, 1, "english", 1500.0) is None  # another server's: never
    # Another user starts afresh; the puzzle counts its plays.
    assert (await store.next_puzzle(GUILD, 2, "english", 1500.0)) == replace(first, plays=1)


async def test_an_attempt_moves_and_ends_only_at_the_ply_it_was_read_at(store: Store) -> None:
    await store.add_puzzles([new_puzzle()])
    puzzle = await store.next_puzzle(GUILD, 1, "english", 1500.0)
    assert puzzle is not None
    attempt_id = await store.start_attempt(puzzle.id, GUILD, 1, T0)
    assert attempt_id is not None
    open_ = await store.open_attempt(1, GUILD)
    assert await store.open_attempt(1, OTHER) is None  # each server's own
    assert open_ is not None and (open_.id, open_.ply, open_.status) == (attempt_id, 0, "open")
    assert await store.advance_attempt(attempt_id, 0, 0, hinted=True)
    assert await store.advance_attempt(attempt_id, 0, 2)
    assert not await store.advance_attempt(attempt_id, 0, 2)  # a stale tap
    kept = await store.attempt(attempt_id)
    assert kept is not None and kept.ply == 2 and kept.hinted
    assert await store.end_attempt(
        attempt_id, 0, to_ply=3, solved=True, wrong_move=None, now=T0, rate=rated
    ) is None  # fmt: skip
    ends = await asyncio.gather(
        *(
            store.end_attempt(
                attempt_id, 2, to_ply=3, solved=True, wrong_move=None, now=T0 + 5, rate=rated
            )
            for _ in range(3)
        )
    )
    done = [end for end in ends if end is not None]
    assert len(done) == 1 and done[0].before is None and done[0].after.rating == 1510.0
    assert done[0].puzzle_rating == 1490.0
    ended = await store.attempt(attempt_id)
    assert ended is not None and (ended.status, ended.ply, ended.rating_after, ended.ended_at) == (
        "solved", 3, 1510.0, T0 + 5,
    )  # fmt: skip
    assert await store.open_attempt(1, GUILD) is None
    mine = await store.puzzle_rating(GUILD, 1, "short-8")
    assert mine is not None and (mine.rating, mine.streak) == (1510.0, 1)
    assert await store.puzzle_ratings_of(GUILD, 1) == [mine]
    assert await store.puzzle_leaderboard(GUILD, "short-8", 10) == [mine]
    assert await store.puzzle_leaderboard(OTHER, "short-8", 10) == []
    stored = await store.puzzle(puzzle.id)
    assert stored is not None and stored.rating == 1490.0


async def test_one_daily_post_per_server_and_day(store: Store) -> None:
    await store.add_puzzles([new_puzzle(), new_puzzle("W:W28:B20", guild_id=GUILD)])
    await store.set_daily(GUILD, 100, "english", 90, T0)
    daily = await store.daily(GUILD)
    assert daily is not None and daily.channel_id == 100
    assert [d.guild_id for d in await store.dailies_due("2023-11-14")] == [GUILD]
    candidate = await store.daily_candidate(GUILD, "english")
    assert candidate is not None and candidate.guild_id == GUILD  # its own first
    posts = await asyncio.gather(
        *(
            store.post_daily(GUILD, "2023-11-14", candidate.id, event(f"daily-{n}"), "{}")
            for n in range(3)
        )
    )
    assert sorted(posts) == [False, False, True]
    assert await store.daily_posted(GUILD, "2023-11-14") == candidate.id
    assert await store.dailies_due("2023-11-14") == []
    pending = await store.pending_events(T0 + 1)
    assert [(e.kind, e.payload) for e in pending] == [("daily_puzzle", "{}")]
    following = await store.daily_candidate(GUILD, "english")
    assert following is not None and following.guild_id is None  # never the same one again
    await store.set_daily(GUILD, None, "english", 90, T0)
    assert await store.daily(GUILD) is None
    assert await store.dailies_due("2023-11-15") == []


async def test_a_game_is_mined_once_with_its_puzzles(store: Store) -> None:
    game_id = await store.start_game(new_game())
    assert await store.games_to_mine(0, 10) == []  # still running
    await store.update_game(game_id, 0, FINISHED)
    assert await store.games_to_mine(41, 10) == []  # shorter than asked
    assert [g.id for g in await store.games_to_mine(0, 10)] == [game_id]
    found = [replace(new_puzzle(guild_id=GUILD), game_id=game_id)]
    results = await asyncio.gather(*(store.mined(game_id, found, T0) for _ in range(3)))
    assert sorted(results) == [False, False, True]
    assert await store.count_puzzles(GUILD, "english") == 1
    assert await store.games_to_mine(0, 10) == []
