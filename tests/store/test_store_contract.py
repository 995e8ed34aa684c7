"""The storage contract (:class:`bot.store.Store`), run against every implementation.

Only protocol methods are used here, so a second backend passes or fails the same tests: rows come
back as written (with enum members), each write lands whole or not at all, refusals are the domain
errors of :mod:`bot.store.errors`, and the version guard lets exactly one of two racing writers
through.  Backend-specific checks (PRAGMAs, SQLite migrations) are in ``test_store_sqlite.py``.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from support.store_backends import FINISHED, START_FEN, T0, first_move, new_challenge, new_game

from bot.enums import ChallengeStatus, ColorChoice, GameStatus, Side, ThreadMode
from bot.errors import ConflictError
from bot.results import Player
from bot.service import GameService
from bot.store import (
    ChallengeClosed,
    ChallengeOpen,
    ChannelBusy,
    EventAnswer,
    GameChanges,
    LadderChange,
    NewEvent,
    NewMove,
    RatedGame,
    RatingRow,
    StaleVersion,
    Store,
)

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")


def rating_row(user_id: int, rating: float, games: int = 1, **changes: object) -> RatingRow:
    values: dict[str, object] = {
        "guild_id": 10,
        "user_id": user_id,
        "variant": "english",
        "rating": rating,
        "deviation": 200.0,
        "volatility": 0.06,
        "games": games,
        "updated_at": T0,
        "name": f"player {user_id}",
        "wins": games,
        "draws": 0,
        "losses": 0,
        "streak": "W",
        "streak_length": games,
    }
    values.update(changes)
    return RatingRow(**values)  # type: ignore[arg-type]


# -- health ---------------------------------------------------------------------------------------


async def test_a_new_store_is_healthy_and_migrated(store: Store) -> None:
    assert await store.integrity_check() == "ok"
    assert await store.schema_version() >= 4


# -- challenges -----------------------------------------------------------------------------------


async def test_a_challenge_reads_back_as_written(store: Store) -> None:
    written = new_challenge(color="black", thread=True, opening="11-15", match_play=True)
    challenge_id = await store.insert_challenge(written)
    row = await store.challenge(challenge_id)
    assert row is not None and row.id == challenge_id
    assert row.status is ChallengeStatus.OPEN and row.color is ColorChoice.BLACK
    assert (row.thread, row.match_play, row.opening) == (True, True, "11-15")
    assert (row.challenger_id, row.opponent_name, row.expires_at) == (1, "Bob", T0 + 900)
    assert (row.game_id, row.message_id, row.level) == (None, None, None)
    assert await store.open_challenge_of(1, 100) == row
    assert await store.open_challenge_of(1, 101) is None
    assert await store.challenge(challenge_id + 1) is None


async def test_one_open_challenge_per_challenger_and_channel(store: Store) -> None:
    first = await store.insert_challenge(new_challenge())
    with pytest.raises(ChallengeOpen):
        await store.insert_challenge(new_challenge())
    other_channel = await store.insert_challenge(new_challenge(channel_id=101))
    other_challenger = await store.insert_challenge(new_challenge(challenger_id=3))
    assert len({first, other_channel, other_challenger}) == 3
    assert await store.close_challenge(first, ChallengeStatus.CANCELLED, T0 + 1)
    assert await store.insert_challenge(new_challenge()) > other_challenger


async def test_racing_challenges_let_exactly_one_through(store: Store) -> None:
    outcomes = await asyncio.gather(
        *(store.insert_challenge(new_challenge()) for _ in range(5)), return_exceptions=True
    )
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert sum(isinstance(o, ChallengeOpen) for o in outcomes) == 4


async def test_a_challenge_closes_once(store: Store) -> None:
    challenge_id = await store.insert_challenge(new_challenge())
    assert await store.close_challenge(challenge_id, ChallengeStatus.DECLINED, T0 + 5)
    assert not await store.close_challenge(challenge_id, ChallengeStatus.EXPIRED, T0 + 6)
    row = await store.challenge(challenge_id)
    assert row is not None and (row.status, row.updated_at) == (ChallengeStatus.DECLINED, T0 + 5)
    assert await store.open_challenge_of(1, 100) is None


async def test_the_challenge_message_is_remembered(store: Store) -> None:
    challenge_id = await store.insert_challenge(new_challenge())
    await store.set_challenge_message(challenge_id, 555)
    row = await store.challenge(challenge_id)
    assert row is not None and row.message_id == 555


async def test_expired_challenges_are_the_open_ones_past_their_time(store: Store) -> None:
    late = await store.insert_challenge(new_challenge(expires_at=T0 + 50))
    early = await store.insert_challenge(new_challenge(channel_id=101, expires_at=T0 + 10))
    await store.insert_challenge(new_challenge(channel_id=102, expires_at=T0 + 500))
    answered = await store.insert_challenge(new_challenge(channel_id=103, expires_at=T0 + 1))
    await store.close_challenge(answered, ChallengeStatus.DECLINED, T0)
    assert [c.id for c in await store.expired_challenges(T0 + 100)] == [early, late]
    assert await store.expired_challenges(T0) == []


# -- starting games -------------------------------------------------------------------------------


async def test_a_game_reads_back_as_written(store: Store) -> None:
    move = first_move()
    game_id = await store.start_game(new_game(ply=1, fen=move.fen_after, moves=(move,)))
    row = await store.game(game_id)
    assert row is not None
    assert (row.id, row.status, row.version, row.ply) == (game_id, GameStatus.RUNNING, 0, 1)
    assert (row.white_name, row.black_id, row.start_fen, row.fen) == (
        "Alice",
        2,
        START_FEN,
        move.fen_after,
    )
    assert (row.rated, row.match_id, row.winner, row.draw_offer, row.takeback_offer) == (
        True,
        None,
        None,
        None,
        None,
    )
    assert (row.deadline, row.remind_at, row.created_at, row.updated_at) == (
        T0 + 3600,
        T0 + 1800,
        T0,
        T0,
    )
    assert (row.result, row.termination, row.termination_detail) == (None, None, "")
    [stored] = await store.moves(game_id)
    assert (stored.game_id, stored.ply, stored.pdn, stored.fen_after, stored.user_id) == (
        game_id,
        1,
        "11-15",
        move.fen_after,
        1,
    )
    assert await store.running_game_in(100) == row
    assert await store.running_games_in_guild(10) == [row]


async def test_a_match_is_named_by_its_first_game(store: Store) -> None:
    first = await store.start_game(new_game(first_of_match=True))
    row = await store.game(first)
    assert row is not None and row.match_id == first
    assert [g.id for g in await store.match_games(first)] == [first]


async def test_one_running_game_per_channel(store: Store) -> None:
    first = await store.start_game(new_game())
    with pytest.raises(ChannelBusy):
        await store.start_game(new_game())
    assert [g.id for g in await store.running_games_in_guild(10)] == [first]
    await store.update_game(first, 0, FINISHED)
    second = await store.start_game(new_game())
    assert (await store.running_game_in(100)) == await store.game(second)


async def test_starting_accepts_the_challenge_in_the_same_transaction(store: Store) -> None:
    challenge_id = await store.insert_challenge(new_challenge())
    game_id = await store.start_game(new_game(), challenge_id)
    row = await store.challenge(challenge_id)
    assert row is not None and (row.status, row.game_id) == (ChallengeStatus.ACCEPTED, game_id)
    # A second accept of the same challenge starts nothing, not even in a free channel.
    with pytest.raises(ChallengeClosed):
        await store.start_game(new_game(channel_id=101), challenge_id)
    assert await store.running_game_in(101) is None


async def test_a_busy_channel_leaves_the_challenge_open(store: Store) -> None:
    await store.start_game(new_game())
    challenge_id = await store.insert_challenge(new_challenge(challenger_id=3))
    with pytest.raises(ChannelBusy):
        await store.start_game(new_game(), challenge_id)
    row = await store.challenge(challenge_id)
    assert row is not None and row.status is ChallengeStatus.OPEN


# -- guarded updates ------------------------------------------------------------------------------


async def test_update_with_a_stale_version_writes_nothing(store: Store) -> None:
    service = GameService(store, bot_user_id=999)
    created = await service.challenge(
        guild_id=1, channel_id=5, challenger=ALICE, opponent=BOB, variant="english"
    )
    assert created.challenge is not None
    view = (await service.accept(created.challenge.id, BOB.id)).game
    assert view is not None
    row = await store.game(view.id)
    assert row is not None
    move = NewMove(1, "9-13", "fen", ALICE.id, T0)
    with pytest.raises(StaleVersion):
        await store.update_game(view.id, row.version + 1, {"ply": 1}, move)
    assert await store.game(view.id) == row and await store.moves(view.id) == []
    await store.update_game(view.id, row.version, {"ply": 1}, move)
    after = await store.game(view.id)
    assert after is not None and (after.ply, after.version) == (1, row.version + 1)
    with pytest.raises(StaleVersion):  # stale now
        await store.update_game(view.id, row.version, {"ply": 1}, move)
    assert len(await store.moves(view.id)) == 1


async def test_racing_updates_let_exactly_one_through(store: Store) -> None:
    game_id = await store.start_game(new_game())
    move = first_move()
    outcomes = await asyncio.gather(
        *(store.update_game(game_id, 0, {"ply": 1, "fen": move.fen_after}, move) for _ in range(5)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 4
    row = await store.game(game_id)
    assert row is not None and (row.version, row.ply) == (1, 1)
    assert len(await store.moves(game_id)) == 1


async def test_every_changeable_column_round_trips(store: Store) -> None:
    game_id = await store.start_game(new_game())
    changes: GameChanges = {
        "draw_offer": Side.BLACK,
        "advantage_side": Side.WHITE,
        "advantage_start_ply": 7,
        "takeback_offer": Side.BLACK,
        "takeback_refused_ply": 3,
        "deadline": None,
        "remind_at": T0 + 5,
        "updated_at": T0 + 6,
    }
    await store.update_game(game_id, 0, changes)
    row = await store.game(game_id)
    assert row is not None
    assert (row.draw_offer, row.advantage_side, row.advantage_start_ply) == (
        Side.BLACK,
        Side.WHITE,
        7,
    )
    assert (row.takeback_offer, row.takeback_refused_ply) == (Side.BLACK, 3)
    assert (row.deadline, row.remind_at, row.updated_at, row.version) == (None, T0 + 5, T0 + 6, 1)
    await store.update_game(game_id, 1, FINISHED)
    ended = await store.game(game_id)
    assert ended is not None
    assert (ended.status, ended.winner, ended.result, ended.termination_detail) == (
        GameStatus.FINISHED,
        Side.WHITE,
        "1-0",
        "resignation",
    )
    assert await store.running_game_in(100) is None
    assert await store.last_finished_game_in(100) == ended


# -- what a game's end writes with it -------------------------------------------------------------


async def test_a_rated_end_writes_both_ladder_rows_and_records_them(store: Store) -> None:
    first = await store.start_game(new_game())
    seen: list[tuple[RatingRow | None, RatingRow | None]] = []

    def rate(white: RatingRow | None, black: RatingRow | None) -> LadderChange:
        seen.append((white, black))
        games = 1 if white is None else white.games + 1
        return LadderChange(
            rating_row(1, 1600.0 + games, games), rating_row(2, 1400.0 - games, games), 12.5, -7.5
        )

    await store.update_game(first, 0, FINISHED, rated=RatedGame(10, "english", 1, 2, rate))
    assert seen == [(None, None)]
    row = await store.game(first)
    assert row is not None
    assert (row.white_rating, row.white_rating_change) == (1601.0, 12.5)
    assert (row.black_rating, row.black_rating_change) == (1399.0, -7.5)
    assert await store.rating(10, 1, "english") == rating_row(1, 1601.0, 1)
    second = await store.start_game(new_game())
    await store.update_game(second, 0, FINISHED, rated=RatedGame(10, "english", 1, 2, rate))
    assert seen[1] == (rating_row(1, 1601.0, 1), rating_row(2, 1399.0, 1))
    assert await store.rating(10, 2, "english") == rating_row(2, 1398.0, 2)
    assert await store.rating(10, 2, "international") is None
    assert await store.rating(11, 2, "english") is None


async def test_a_failing_rating_rolls_the_whole_end_back(store: Store) -> None:
    game_id = await store.start_game(new_game())

    def broken(white: RatingRow | None, black: RatingRow | None) -> LadderChange:
        raise ZeroDivisionError("bug in the rating rules")

    with pytest.raises(ZeroDivisionError):
        await store.update_game(game_id, 0, FINISHED, rated=RatedGame(10, "english", 1, 2, broken))
    row = await store.game(game_id)
    assert row is not None and (row.status, row.version) == (GameStatus.RUNNING, 0)
    assert await store.rating(10, 1, "english") is None


async def test_a_match_game_follows_in_the_same_transaction(store: Store) -> None:
    first = await store.start_game(new_game(first_of_match=True))
    follow_up = new_game(
        white_id=2, white_name="Bob", black_id=1, black_name="Alice", match_id=first
    )
    await store.update_game(first, 0, FINISHED, follow_up=follow_up)
    games = await store.match_games(first)
    assert len(games) == 2 and games[0].id == first
    assert (games[1].status, games[1].white_id, games[1].match_id) == (
        GameStatus.RUNNING,
        2,
        first,
    )
    assert await store.matches_waiting() == []


async def test_a_follow_up_into_a_busy_channel_writes_nothing(store: Store) -> None:
    first = await store.start_game(new_game(first_of_match=True))
    await store.start_game(new_game(channel_id=101))
    with pytest.raises(ChannelBusy):
        await store.update_game(
            first, 0, FINISHED, follow_up=new_game(channel_id=101, match_id=first)
        )
    row = await store.game(first)
    assert row is not None and (row.status, row.version) == (GameStatus.RUNNING, 0)


async def test_a_finished_first_game_without_its_second_is_waiting(store: Store) -> None:
    first = await store.start_game(new_game(first_of_match=True))
    await store.update_game(first, 0, FINISHED)
    assert [g.id for g in await store.matches_waiting()] == [first]
    await store.start_game(new_game(match_id=first))
    assert await store.matches_waiting() == []


# -- takebacks ------------------------------------------------------------------------------------


async def test_a_takeback_archives_the_moves_it_removes(store: Store) -> None:
    move = first_move()
    game_id = await store.start_game(new_game(ply=1, fen=move.fen_after, moves=(move,)))
    with pytest.raises(StaleVersion):
        await store.take_back(game_id, 5, {"ply": 0, "fen": START_FEN}, 0, T0 + 20)
    assert len(await store.moves(game_id)) == 1 and await store.taken_back_moves(game_id) == []
    await store.take_back(game_id, 0, {"ply": 0, "fen": START_FEN}, 0, T0 + 20)
    assert await store.moves(game_id) == []
    assert await store.taken_back_moves(game_id) == [(1, "11-15", T0 + 20)]
    row = await store.game(game_id)
    assert row is not None and (row.ply, row.fen, row.version) == (0, START_FEN, 1)
    await store.update_game(game_id, 1, {"ply": 1}, replace(move, pdn="9-13"))
    assert [m.pdn for m in await store.moves(game_id)] == ["9-13"]


# -- what is due, and lists -----------------------------------------------------------------------


async def test_due_games_split_timeouts_from_reminders(store: Store) -> None:
    late = await store.start_game(new_game(deadline=T0 + 10, remind_at=T0 + 5))
    halfway = await store.start_game(new_game(channel_id=101, deadline=T0 + 90, remind_at=T0 + 5))
    await store.start_game(new_game(channel_id=102, deadline=T0 + 90, remind_at=T0 + 60))
    computer = await store.start_game(
        new_game(channel_id=103, computer_id=999, deadline=None, remind_at=None)
    )
    timeouts, reminders = await store.due_games(T0 + 20)
    assert [g.id for g in timeouts] == [late]
    assert [g.id for g in reminders] == [halfway]
    assert [g.id for g in await store.computer_games_waiting()] == [computer]


async def test_running_games_by_server(store: Store) -> None:
    here = await store.start_game(new_game())
    elsewhere = await store.start_game(new_game(channel_id=101, guild_id=11))
    direct = await store.start_game(new_game(channel_id=102, guild_id=None))
    assert [g.id for g in await store.running_games_in_guild(10)] == [here]
    assert [g.id for g in await store.running_games_in_guild(11)] == [elsewhere]
    assert [g.id for g in await store.running_games_in_guild(None)] == [direct]


async def test_finished_games_newest_first_by_player_and_variant(store: Store) -> None:
    ended = []
    for n, (white, black, variant) in enumerate(
        [(1, 2, "english"), (2, 3, "english"), (1, 3, "international"), (3, 4, "english")]
    ):
        game_id = await store.start_game(
            new_game(channel_id=100 + n, white_id=white, black_id=black, variant=variant)
        )
        await store.update_game(game_id, 0, {**FINISHED, "updated_at": T0 + n})
        ended.append(game_id)
    running = await store.start_game(new_game(channel_id=200))
    assert [g.id for g in await store.finished_games(10)] == ended[::-1]
    assert [g.id for g in await store.finished_games(10, limit=2)] == ended[:1:-1]
    assert [g.id for g in await store.finished_games(10, user_id=1)] == [ended[2], ended[0]]
    assert [g.id for g in await store.finished_games(10, user_id=3, variant="english")] == [
        ended[3],
        ended[1],
    ]
    assert await store.finished_games(11) == []
    assert running not in [g.id for g in await store.finished_games(10)]


async def test_the_ladder_and_ranks_break_ties_the_same_way(store: Store) -> None:
    rows = [
        rating_row(5, 1500.0, games=3),
        rating_row(4, 1600.0, games=1),
        rating_row(3, 1500.0, games=3),
        rating_row(2, 1500.0, games=9),
        rating_row(6, 1400.0, games=2, variant="international"),
    ]
    for n, row in enumerate(rows):
        game_id = await store.start_game(new_game(channel_id=300 + n))
        pair = LadderChange(row, rating_row(100 + n, 1000.0 - n, variant=row.variant), 0.0, 0.0)
        await store.update_game(
            game_id,
            0,
            FINISHED,
            rated=RatedGame(10, row.variant, row.user_id, 100 + n, lambda w, b, p=pair: p),
        )
    ladder = await store.leaderboard(10, "english", limit=4)
    assert [r.user_id for r in ladder] == [4, 2, 3, 5]
    for position, row in enumerate(ladder, start=1):
        assert await store.rank(row) == (position, 8)
    assert [r.user_id for r in await store.leaderboard(10, "international")] == [6, 104]


async def test_ratings_are_kept_per_time_class(store: Store) -> None:
    """A blitz result is written to, and read from, the blitz pool only."""
    game_id = await store.start_game(new_game(clock_base=180.0, clock_increment=2.0))
    blitz = LadderChange(
        rating_row(1, 1550.0, pool="blitz"), rating_row(2, 1450.0, pool="blitz"), 50.0, -50.0
    )
    rated = RatedGame(10, "english", 1, 2, lambda w, b: blitz, pool="blitz")
    await store.update_game(game_id, 0, FINISHED, rated=rated)
    assert await store.rating(10, 1, "english", "blitz") == blitz.white
    assert await store.rating(10, 1, "english") is None  # correspondence: untouched
    assert [r.user_id for r in await store.leaderboard(10, "english", pool="blitz")] == [1, 2]
    assert await store.leaderboard(10, "english") == []
    assert await store.rank(blitz.black) == (2, 2)


async def test_a_clocked_game_round_trips_and_its_running_clock_is_listed(store: Store) -> None:
    clocked = await store.start_game(
        new_game(
            clock_base=180.0,
            clock_increment=2.0,
            white_clock=180.0,
            black_clock=180.0,
            clock_started=T0,
            deadline=T0 + 181,
            remind_at=None,
        )
    )
    await store.start_game(new_game(channel_id=101))  # a time per move: no clock
    stopped = await store.start_game(
        new_game(channel_id=102, clock_base=60.0, clock_increment=1.0, deadline=None)
    )
    row = await store.game(clocked)
    assert row is not None
    assert (row.clock_base, row.clock_increment, row.white_clock, row.clock_started) == (
        180.0,
        2.0,
        180.0,
        T0,
    )
    changes: GameChanges = {"black_clock": 171.5, "clock_started": T0 + 9, "deadline": T0 + 190}
    await store.update_game(clocked, 0, changes)
    assert [g.id for g in await store.running_clocks()] == [clocked]
    row = await store.game(clocked)
    assert row is not None and (row.black_clock, row.clock_started) == (171.5, T0 + 9)
    assert stopped not in [g.id for g in await store.running_clocks()]
    challenge_id = await store.insert_challenge(
        new_challenge(clock_base=300.0, clock_increment=3.0)
    )
    challenge = await store.challenge(challenge_id)
    assert challenge is not None and (challenge.clock_base, challenge.clock_increment) == (300, 3)


# -- server settings ------------------------------------------------------------------------------


async def test_settings_and_channels_change_together(store: Store) -> None:
    assert await store.settings(10) is None and await store.game_channels(10) == []
    await store.save_settings(10, {"variant": "dame"}, allow=(7, 5), when=T0)
    row = await store.settings(10)
    assert row is not None
    assert (row.variant, row.move_time, row.threads, row.updated_at) == (
        "dame",
        None,
        ThreadMode.OPTIONAL,
        T0,
    )
    assert await store.game_channels(10) == [5, 7]
    await store.save_settings(
        10, {"threads": ThreadMode.NEVER, "move_time": 60}, disallow=(5,), when=T0 + 1
    )
    row = await store.settings(10)
    assert row is not None and (row.variant, row.move_time, row.threads) == (
        "dame",
        60,
        ThreadMode.NEVER,
    )
    assert await store.game_channels(10) == [7]
    await store.save_settings(10, {}, all_channels=True, allow=(9,), when=T0 + 2)
    assert await store.game_channels(10) == [9]
    assert await store.settings(11) is None


async def test_the_service_refuses_a_stale_write_as_a_conflict(store: Store) -> None:
    """Two services on one database (a deploy's old and new process): the one that lost the
    race says "try again" and then sees the winner's move."""
    first = GameService(store, bot_user_id=999)
    second = GameService(store, bot_user_id=999)
    created = await first.challenge(
        guild_id=1, channel_id=5, challenger=ALICE, opponent=BOB, color="black"
    )
    assert created.challenge is not None
    view = (await first.accept(created.challenge.id, BOB.id)).game
    assert view is not None
    await second.game_view(view.id)  # both hold the game in memory now
    assert (await second.game_in(5)) is not None
    await first.move(ALICE.id, "11-15", channel_id=5)
    with pytest.raises(ConflictError):
        await second.move(ALICE.id, "11-15", channel_id=5)
    again = await second.game_in(5)
    assert again is not None and again.ply == 1 and again.last_move == "11-15"


# -- the outbox and meta --------------------------------------------------------------------------


def outbox_entry(event_id: str, **changes: object) -> NewEvent:
    values: dict[str, object] = {
        "id": event_id,
        "kind": "moved",
        "guild_id": 10,
        "channel_id": 100,
        "game_id": None,
        "challenge_id": None,
        "created_at": T0,
        "next_attempt_at": T0,
    }
    values.update(changes)
    return NewEvent(**values)  # type: ignore[arg-type]


async def test_an_entry_lands_with_its_change_and_names_the_new_game(store: Store) -> None:
    game_id = await store.start_game(new_game(), event=outbox_entry("start"))
    challenge_id = await store.insert_challenge(new_challenge(), outbox_entry("made", kind="x"))
    [started, made] = await store.pending_events(T0)
    assert (started.id, started.game_id, started.challenge_id) == ("start", game_id, None)
    assert (made.id, made.challenge_id, made.game_id) == ("made", challenge_id, None)
    assert started.seq < made.seq and started.payload is None and started.attempts == 0


async def test_an_entry_is_not_written_without_its_change(store: Store) -> None:
    game_id = await store.start_game(new_game())
    move = first_move()
    stale = outbox_entry("stale", game_id=game_id)
    with pytest.raises(StaleVersion):
        await store.update_game(game_id, 7, {"ply": 1}, move, event=stale)
    with pytest.raises(ChannelBusy):
        await store.start_game(new_game(), event=outbox_entry("busy"))
    challenge_id = await store.insert_challenge(new_challenge())
    assert await store.close_challenge(challenge_id, ChallengeStatus.DECLINED, T0)
    late = outbox_entry("late", challenge_id=challenge_id)
    assert not await store.close_challenge(challenge_id, ChallengeStatus.CANCELLED, T0, late)
    with pytest.raises(StaleVersion):
        await store.take_back(game_id, 7, {"ply": 0}, 0, T0, outbox_entry("back"))
    assert await store.pending_events(T0 + 10**6) == []


async def test_entries_come_due_in_order_and_leave_once_delivered(store: Store) -> None:
    game_id = await store.start_game(new_game())
    move = first_move()
    await store.update_game(game_id, 0, {"ply": 1}, move, event=outbox_entry("a", game_id=game_id))
    await store.update_game(
        game_id, 1, {}, event=outbox_entry("b", game_id=game_id, next_attempt_at=T0 + 30)
    )
    await store.take_back(game_id, 2, {"ply": 0}, 0, T0, outbox_entry("c", game_id=game_id))
    assert [e.id for e in await store.pending_events(T0)] == ["a", "c"]
    assert [e.id for e in await store.pending_events(T0 + 30, game_id=game_id)] == ["a", "b", "c"]
    assert await store.pending_events(T0 + 30, game_id=game_id + 1) == []
    assert [e.id for e in await store.pending_events(T0 + 30, limit=1)] == ["a"]
    await store.event_failed("a", '{"kept": 1}', T0 + 60)
    await store.event_failed("a", '{"kept": 2}', T0 + 90)  # the first message is kept
    await store.mark_events([("c", T0)])
    assert [e.id for e in await store.pending_events(T0 + 89)] == ["b"]
    [again, _] = await store.pending_events(T0 + 90)
    assert (again.id, again.attempts, again.payload) == ("a", 2, '{"kept": 1}')
    await store.mark_events([("a", T0 + 90)])
    await store.event_failed("a", "{}", T0)  # a late failure report changes nothing
    assert [e.id for e in await store.pending_events(T0 + 10**6)] == ["b"]


async def test_an_answer_is_kept_only_while_it_is_on_its_way(store: Store) -> None:
    game_id = await store.start_game(new_game())
    for version, name in enumerate(("a", "b", "c")):
        await store.update_game(game_id, version, {}, event=outbox_entry(name, game_id=game_id))
    await store.event_answering("a", EventAnswer(701, 801, "token-a", T0 + 1))
    await store.event_answering("b", EventAnswer(702, 802, None, T0 + 2))  # a follow-up
    a, b, c = await store.pending_events(T0)
    assert (a.answer_token, a.answer_at, a.answer_interaction, a.answer_channel) == (
        "token-a",
        T0 + 1,
        701,
        801,
    )
    assert (b.answer_token, b.answer_at, b.answer_interaction, b.answer_channel) == (
        None,
        T0 + 2,
        702,
        802,
    )
    assert (c.answer_token, c.answer_interaction) == (None, None)
    await store.event_failed("a", "{}", T0)  # the answer failed: nothing to look for
    await store.event_answering("c", EventAnswer(703, 803, "token-c", T0 + 3))
    # One transaction: the delivery marks of two entries.
    await store.mark_events([("b", T0 + 3), ("c", T0 + 4)])
    [a] = await store.pending_events(T0)
    assert (a.answer_token, a.answer_interaction) == (None, None)
    await store.event_answering("b", EventAnswer(704, 804, "late", T0 + 5))  # delivered already
    assert [e.id for e in await store.pending_events(T0)] == ["a"]
    [a] = await store.pending_events(T0)
    assert a.answer_interaction is None


async def test_only_delivered_entries_are_pruned(store: Store) -> None:
    game_id = await store.start_game(new_game())
    for version, name in enumerate(("old", "new", "owed")):
        await store.update_game(game_id, version, {}, event=outbox_entry(name, game_id=game_id))
    await store.mark_events([("old", T0)])
    await store.mark_events([("new", T0 + 100)])
    assert await store.prune_events(T0 + 50) == 1
    assert await store.prune_events(T0 + 50) == 0
    assert [e.id for e in await store.pending_events(T0)] == ["owed"]
    # A pruned entry is gone for good: reports about it change nothing.
    await store.event_failed("old", "{}", T0)
    assert [e.id for e in await store.pending_events(T0 + 10**6)] == ["owed"]


async def test_meta_values_are_kept_and_replaced(store: Store) -> None:
    assert await store.meta("commands") is None
    await store.set_meta("commands", "abc")
    await store.set_meta("commands", "def")
    await store.set_meta("alive", "1")
    assert (await store.meta("commands"), await store.meta("alive")) == ("def", "1")
