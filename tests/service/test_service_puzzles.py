"""Puzzles through the service on each database, with a clock moved by hand: a puzzle solved
move by move with the forced replies, one failed, a hint, the ratings and streaks they leave,
the next puzzle (never a repeat, the server's own first), the daily puzzle posted once a day
across a restart, and the server's games mined once each.

The puzzles are made here and checked by ``rules`` (each line replayed move by move by
:func:`~bot.service.puzzle_terms.checked_puzzle`): English 2-for-1 shots, the solver's first
move a sacrifice, the reply forced, the last a double jump.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    Clock,
    Database,
    Services,
    both_moved,
    count_rows,
    query,
    start,
)

from bot.enums import Side
from bot.errors import (
    ForbiddenError,
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    StaleError,
)
from bot.results import Action
from bot.service import GameService
from bot.service.events import decode, encode
from bot.service.puzzle_daily import day_of
from bot.service.puzzle_mining import (
    CHUNK_PLIES,
    IDLE_PAUSE_SECONDS,
    MIN_PLIES,
    PuzzleSource,
)
from bot.service.puzzle_terms import checked_puzzle, family
from bot.service.ratings import START_RATING
from bot.store import NewPuzzle
from engine.learned import family as engine_family
from rules.variants import VARIANTS

SHOTS = (
    ("W:W17,28,32:B8,18,20", ["28-24", "20x27", "32x23x14"]),
    ("W:W13,22,30:B17,19,24", ["13-9", "17x26", "30x23x16"]),
    ("W:W18,22,30:B2,10,19", ["18-14", "10x17x26", "30x23x16"]),
)
"""(position, line): White to move in each; every move checked legal by the rules."""
THIRD = 30


def shot(index: int, guild_id: int | None = None, rating: float = 1500.0) -> NewPuzzle:
    fen, line = SHOTS[index]
    data = {"variant": "english", "fen": fen, "solution": line, "gain": "material",
            "rating": rating, "source": f"shot {index}"}  # fmt: skip
    made = checked_puzzle(data, guild_id=guild_id, game_id=None, now=0.0)
    assert made is not None
    return made


async def with_puzzles(service: GameService, *puzzles: NewPuzzle) -> None:
    assert await service.store.add_puzzles(puzzles) == len(puzzles)


def test_the_families_are_the_engines_and_keep_their_names() -> None:
    """A family's name keys the stored puzzle ratings and names the weight files: it must not
    drift when the rules' data grows."""
    assert {key: family(key) for key in VARIANTS} == {
        "english": "short-8",
        "dame": "short-8",
        "pool": "flying-8",
        "international": "flying-10",
        "brazilian": "flying-8",
        "russian": "flying-8",
        "italian": "short-8-mirrored",
        "spanish": "flying-8-mirrored",
        "portuguese": "flying-8-mirrored",
        "czech": "flying-8",
        "thai": "stopping-8",
        "antidraughts": "give-away-flying-10",
        "breakthrough": "first-king-flying-10",
        "turkish": "orthogonal-flying-8",
        "canadian": "flying-12",
        "frisian": "eight-way-flying-10",
        "frysk": "eight-way-flying-10",
    }
    assert all(engine_family(v) == family(v) for v in VARIANTS.values())


async def test_every_variant_s_leaderboard_has_a_title(service: GameService) -> None:
    """A family added with a variant (italian's mirrored board, the two goals) once had no
    title, and its leaderboard and standings failed."""
    for key in VARIANTS:
        board = await service.puzzles.leaderboard(GUILD, BOB.id, key)
        assert board.family == family(key) and str(board.family_title), key


def test_a_line_that_does_not_hold_is_left_out() -> None:
    data = {"variant": "english", "fen": SHOTS[0][0], "solution": ["28-24", "20x27", "32-28"]}
    assert checked_puzzle(data, guild_id=None, game_id=None, now=0.0) is None
    even = {"variant": "english", "fen": SHOTS[0][0], "solution": ["28-24", "20x27"]}
    assert checked_puzzle(even, guild_id=None, game_id=None, now=0.0) is None


async def test_a_puzzle_is_solved_move_by_move(service: GameService, clock: Clock) -> None:
    await with_puzzles(service, shot(0))
    turn = await service.puzzles.start(GUILD, ALICE, "english")
    view = turn.view
    assert (view.fen, view.ply, view.solver, view.status) == (SHOTS[0][0], 0, Side.WHITE, "open")
    assert view.solution == () and view.last_move is None  # nothing given away
    # Someone else cannot play in Alice's attempt, and a move that is no legal move ends nothing.
    with pytest.raises(NotAPlayerError):
        await service.puzzles.move(view.attempt_id, BOB, 0, "28-24")
    with pytest.raises(IllegalMoveError):
        await service.puzzles.move(view.attempt_id, ALICE, 0, "28-23")
    right = await service.puzzles.move(view.attempt_id, ALICE, 0, "28-24")
    assert (right.view.ply, right.view.last_move, right.change) == (2, "20x27", None)
    assert "20x27" in str(right.text)
    # The same tap again, from the first board: stale, refused, nothing changed.
    with pytest.raises(StaleError):
        await service.puzzles.move(view.attempt_id, ALICE, 0, "28-24")
    clock.advance(30)
    solved = await service.puzzles.move(view.attempt_id, ALICE, 2, "32x14")  # the short form
    assert solved.view.status == "solved" and solved.view.solution == tuple(SHOTS[0][1])
    change = solved.change
    assert change is not None and change.delta > 0 and (change.streak, change.best_streak) == (1, 1)
    assert change.before == "1500?"
    with pytest.raises(GameOverError):
        await service.puzzles.move(view.attempt_id, ALICE, 3, "14-10")
    (standing,) = await service.puzzles.standings(GUILD, ALICE.id)
    assert (standing.family, standing.attempts, standing.solved, standing.streak) == (
        "short-8", 1, 1, 1,
    )  # fmt: skip
    board = await service.puzzles.leaderboard(GUILD, BOB.id)
    assert [s.user_id for s in board.top] == [ALICE.id] and board.mine is None
    # The puzzle lost to her: rated like a player.
    (rating,) = (await service.store.puzzle(view.puzzle_id),)
    assert rating is not None and rating.rating < 1500.0 and rating.plays == 1


async def test_a_wrong_move_ends_the_attempt_with_the_solution(service: GameService) -> None:
    await with_puzzles(service, shot(0))
    view = (await service.puzzles.start(GUILD, ALICE, "english")).view
    failed = await service.puzzles.move(view.attempt_id, ALICE, 0, "17-13")
    assert failed.view.status == "failed" and failed.view.solution == tuple(SHOTS[0][1])
    assert "17-13" in str(failed.text) and "32x23x14" in str(failed.text)
    assert failed.change is not None and failed.change.delta < 0 and failed.change.streak == 0
    assert await count_rows(service, "puzzle_attempts", "wrong_move = '17-13'") == 1
    puzzle = await service.store.puzzle(view.puzzle_id)
    assert puzzle is not None and puzzle.rating > 1500.0
    with pytest.raises(GameOverError):
        await service.puzzles.hint(view.attempt_id, ALICE, 0)


async def test_a_hint_shows_the_piece_and_a_hinted_solve_counts_half(
    service: GameService,
) -> None:
    await with_puzzles(
        service, shot(0), shot(1), shot(2, guild_id=GUILD), shot(2, guild_id=OTHER_GUILD)
    )
    # In a third server (the starter puzzles only), Alice solves one cleanly, then one with a
    # hint: her streak is neither extended nor broken by it.
    first = (await service.puzzles.start(THIRD, ALICE, "english")).view
    await service.puzzles.move(first.attempt_id, ALICE, 0, first_move(first.fen))
    clean = await service.puzzles.move(first.attempt_id, ALICE, 2, last_move(first.fen))
    assert clean.change is not None and clean.change.streak == 1
    second = (await service.puzzles.start(THIRD, ALICE, "english")).view
    hinted = await service.puzzles.hint(second.attempt_id, ALICE, 0)
    start = first_move(second.fen)
    assert hinted.view.hint_square == int(start.split("-")[0]) and hinted.view.ply == 0
    assert str(hinted.view.hint_square) in str(hinted.text)
    again = await service.puzzles.hint(second.attempt_id, ALICE, 0)  # asked twice: the same
    assert again.view.hint_square == hinted.view.hint_square
    await service.puzzles.move(second.attempt_id, ALICE, 0, start)
    solved = await service.puzzles.move(second.attempt_id, ALICE, 2, last_move(second.fen))
    assert solved.change is not None and solved.change.streak == 1
    # The same fresh puzzle in two servers, from the same fresh rating: Bob solves his with a
    # hint, Carol hers without; only she gains (a hinted solve scores half: a draw).
    gains = []
    for guild, player, hint in ((GUILD, BOB, True), (OTHER_GUILD, CAROL, False)):
        mine = (await service.puzzles.start(guild, player, "english")).view
        assert mine.fen == SHOTS[2][0]
        if hint:
            await service.puzzles.hint(mine.attempt_id, player, 0)
        await service.puzzles.move(mine.attempt_id, player, 0, first_move(mine.fen))
        done = await service.puzzles.move(mine.attempt_id, player, 2, last_move(mine.fen))
        assert done.change is not None
        gains.append(done.change.delta)
    assert gains[0] == 0 < gains[1]  # a draw against an equal puzzle; a win
    assert await count_rows(service, "puzzle_attempts", "hinted = " + true(service)) == 2


def first_move(fen: str) -> str:
    return next(line[0] for f, line in SHOTS if f == fen)


def last_move(fen: str) -> str:
    return next(line[2] for f, line in SHOTS if f == fen)


def true(service: GameService) -> str:
    return "true" if "Postgres" in type(service.store).__name__ else "1"


async def test_the_next_puzzle_is_new_near_the_rating_the_servers_own_first(
    service: GameService,
) -> None:
    await with_puzzles(
        service, shot(0, rating=1500.0), shot(1, guild_id=GUILD, rating=1650.0),
        shot(2, guild_id=OTHER_GUILD, rating=1500.0),
    )  # fmt: skip
    first = await service.puzzles.start(GUILD, ALICE)  # the server's variant: English
    assert first.view.fen == SHOTS[1][0]  # the server's own, 150 points away
    # Asking again while it is open shows it again: no skipping.
    assert (await service.puzzles.start(GUILD, ALICE)).view.attempt_id == first.view.attempt_id
    await service.puzzles.move(first.view.attempt_id, ALICE, 0, "22-18")  # wrong: over
    second = await service.puzzles.start(GUILD, ALICE)
    assert second.view.fen == SHOTS[0][0]
    await service.puzzles.move(second.view.attempt_id, ALICE, 0, "17-13")
    with pytest.raises(Exception, match="every English draughts"):
        await service.puzzles.start(GUILD, ALICE)  # another server's puzzle is never served
    with pytest.raises(GameOverError):  # a puzzle she had, asked for by its id (the daily's)
        await service.puzzles.start(GUILD, ALICE, puzzle_id=second.view.puzzle_id)


async def test_the_starter_set_is_loaded_once(service: GameService) -> None:
    assert await service.store.count_puzzles(None, "english") == 0
    source = PuzzleSource(starter=lambda variant: [_dict(i) for i in range(3)], find=_nothing)
    svc = GameService(service.store, bot_user_id=999, clock=service.clock, puzzle_source=source)
    turn = await svc.puzzles.start(GUILD, ALICE, "english")
    assert turn.view.source.startswith("shot")
    assert await service.store.count_puzzles(None, "english") == 3
    await svc.puzzles.start(GUILD, BOB, "english")
    assert await count_rows(service, "puzzles") == 3


def _dict(index: int) -> dict[str, object]:
    fen, line = SHOTS[index]
    return {"variant": "english", "fen": fen, "solution": line, "gain": "material",
            "rating": 1500, "source": f"shot {index}"}  # fmt: skip


def _nothing(
    record: dict[str, object], seconds: float, first: int, stop: int
) -> list[dict[str, object]]:
    return []


async def test_the_daily_puzzle_is_posted_once_a_day_across_a_restart(
    services: Services, database: Database, clock: Clock
) -> None:
    service = await services.open(database)
    await with_puzzles(service, shot(0), shot(1, guild_id=GUILD))
    with pytest.raises(ForbiddenError):
        await service.puzzles.set_daily(GUILD, CHANNEL, ALICE.id)
    assert await service.tick() == []  # no channel chosen: nothing
    setting = await service.puzzles.set_daily(GUILD, CHANNEL, ALICE.id, is_moderator=True)
    assert setting is not None and (setting.channel_id, setting.variant) == (CHANNEL, "english")
    posts = [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE]
    assert len(posts) == 1
    daily = posts[0].puzzle
    assert daily is not None and daily.channel_id == CHANNEL and daily.fen == SHOTS[1][0]
    assert daily.day == day_of(clock.now) and posts[0].event is not None
    assert [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE] == []
    await service.close()  # a restart, the post not delivered yet
    clock.advance(3600)
    service = await services.open(database)
    assert [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE] == []
    owed = [o for o in await service.owed() if o.result and o.result.puzzle]
    assert len(owed) == 1 and owed[0].event == posts[0].event
    assert owed[0].result == decode(encode(posts[0]))
    await service.shown(owed[0].event)
    await service.outbox.flush()
    assert [o for o in await service.owed() if o.result and o.result.puzzle] == []
    # The next day: another puzzle, never the same one.
    clock.advance(24 * 3600)
    tomorrow = [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE]
    assert len(tomorrow) == 1 and tomorrow[0].puzzle is not None
    assert tomorrow[0].puzzle.puzzle_id != daily.puzzle_id
    assert await count_rows(service, "puzzle_daily_posts") == 2
    # Solving it from its post: an attempt of that very puzzle.
    turn = await service.puzzles.start(GUILD, BOB, puzzle_id=daily.puzzle_id)
    assert turn.view.puzzle_id == daily.puzzle_id
    await service.puzzles.set_daily(GUILD, None, ALICE.id, is_moderator=True)
    clock.advance(24 * 3600)
    assert [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE] == []


async def test_next_keeps_the_variant_and_an_open_puzzle_is_each_servers(
    service: GameService,
) -> None:
    russian = checked_puzzle(
        {"variant": "russian", "fen": "W:W15,24,25:B8,16,19",
         "solution": ["24-20", "19x10", "20x11x4"], "source": "r"},
        guild_id=None, game_id=None, now=0.0,
    )  # fmt: skip
    assert russian is not None and russian.family == "flying-8"
    await with_puzzles(service, russian, shot(0), shot(1))
    first = (await service.puzzles.start(GUILD, ALICE, "russian")).view
    assert first.variant == "russian"
    # Her open puzzle is this server's: another server gives her one of its own.
    elsewhere = (await service.puzzles.start(OTHER_GUILD, ALICE, "english")).view
    assert elsewhere.attempt_id != first.attempt_id and elsewhere.variant == "english"
    hinted = await service.puzzles.hint(first.attempt_id, ALICE, 0)
    assert "the piece on g3." in str(hinted.text)  # Russian squares by their coordinates
    await service.puzzles.move(first.attempt_id, ALICE, 0, "25-22")  # wrong
    # Next (after the Russian one): Russian again, not the server's English; none is left.
    with pytest.raises(Exception, match="every Russian"):
        await service.puzzles.start(GUILD, ALICE, after=first.puzzle_id)
    following = (await service.puzzles.start(GUILD, ALICE, after=elsewhere.puzzle_id)).view
    assert following.variant == "english" and following.puzzle_id != elsewhere.puzzle_id


async def test_a_daily_without_puzzles_waits_quietly_until_there_are(
    service: GameService, clock: Clock
) -> None:
    await service.puzzles.set_daily(GUILD, CHANNEL, ALICE.id, "russian", is_moderator=True)
    assert await service.tick() == []  # no Russian puzzle anywhere
    await with_puzzles(service, shot(0, guild_id=GUILD))  # an English one: still none
    assert await service.tick() == []
    await service.puzzles.set_daily(GUILD, CHANNEL, ALICE.id, "english", is_moderator=True)
    (posted,) = await service.tick()
    assert posted.puzzle is not None and posted.puzzle.variant == "english"


async def test_start_refuses_a_puzzle_of_another_server(service: GameService) -> None:
    await with_puzzles(service, shot(0, guild_id=OTHER_GUILD))
    puzzle = await service.store.next_puzzle(OTHER_GUILD, ALICE.id, "english", START_RATING)
    assert puzzle is not None
    with pytest.raises(Exception, match="no such puzzle"):
        await service.puzzles.start(GUILD, ALICE, puzzle_id=puzzle.id)
    assert await count_rows(service, "puzzle_attempts") == 0


# -- mining ---------------------------------------------------------------------------------


async def finished_game(
    service: GameService, plies: int = MIN_PLIES, channel_id: int = CHANNEL
) -> int:
    """A game of this server played for ``plies`` (each side's first legal move), resigned."""
    view = await start(service, channel_id=channel_id)
    for _ in range(plies):
        assert view.to_move is not None
        moves = await service.legal_moves(view.channel_id, view.to_move.id)
        played = await service.move(view.to_move.id, moves[0].value, game_id=view.id)
        assert played.game is not None
        view = played.game
    await service.resign(ALICE.id, game_id=view.id)
    return view.id


JOBS: list[tuple[int, int]] = []
"""The plies each job of :func:`found_shot` was given, in order."""


def found_shot(
    record: dict[str, object], seconds: float, first: int, stop: int
) -> list[dict[str, object]]:
    """A finder (run in the computer's background lane, a few plies a job) finding shot 0 in
    the first job, as the engine names a game's puzzles, and a line that does not hold (left out
    by the service); every later job finds shot 0 again and the same combination joined after
    its first two moves (left out too: inside the first one's line)."""
    JOBS.append((first, stop))
    shot_0 = {**_dict(0), "source": "game ply 12"}
    if first == 0:
        bad = {**_dict(1), "solution": ["13-9", "17x26", "30-26"], "source": "game ply 9"}
        return [shot_0, bad]
    late = {**_dict(0), "fen": "W:W17,32:B8,18,27", "solution": ["32x23x14"], "source": "game"}
    return [shot_0, late]


def broken_finder(
    record: dict[str, object], seconds: float, first: int, stop: int
) -> list[dict[str, object]]:
    raise RuntimeError("the finder failed")


async def test_a_finished_game_is_mined_once(services: Services, database: Database) -> None:
    source = PuzzleSource(starter=lambda variant: [], find=found_shot)
    one = await services.open(database, puzzle_source=source)
    other = await services.open(database, puzzle_source=source)  # a second process
    game_id = await finished_game(one)
    short = await start(one, channel_id=OTHER_CHANNEL)
    await one.resign(ALICE.id, game_id=(await both_moved(one, short)).id)  # too short to mine
    JOBS.clear()
    mined = await asyncio.gather(one.puzzles.mine(5), other.puzzles.mine(5))
    assert sorted(mined) == [0, 1]
    # A few plies a job, the whole game covered once (both processes may have looked at it).
    starts = sorted(set(JOBS))
    chunk = CHUNK_PLIES[8]
    assert starts[0] == (0, chunk) and all(b - a <= chunk for a, b in starts)
    assert {p for a, b in starts for p in range(a, b)} == set(range(MIN_PLIES))
    assert await one.puzzles.mine(5) == 0
    assert await count_rows(one, "puzzle_mined") == 1
    rows = await query(one, "SELECT guild_id, game_id, source, fen FROM puzzles")
    assert [tuple(r) for r in rows] == [(GUILD, game_id, f"game {game_id} ply 12", SHOTS[0][0])]
    # The server's own puzzle is served to its players (and only to them).
    turn = await one.puzzles.start(GUILD, BOB, "english")
    assert turn.view.game_id == game_id
    with pytest.raises(Exception, match="every English draughts"):
        await one.puzzles.start(OTHER_GUILD, CAROL, "english")


async def test_the_tick_mines_in_the_background_and_a_failing_game_is_left_out(
    services: Services, database: Database, clock: Clock
) -> None:
    service = await services.open(
        database, puzzle_source=PuzzleSource(starter=lambda variant: [], find=broken_finder)
    )
    await finished_game(service)
    await service.tick()  # starts a round of mining, without waiting for it
    await service.puzzles.settle()
    assert await count_rows(service, "puzzle_mined", "found = 0") == 1  # never tried again
    assert await count_rows(service, "puzzles") == 0
    await service.tick()  # a round that finds nothing to mine ...
    await service.puzzles.settle()
    await finished_game(service, channel_id=OTHER_CHANNEL)
    await service.tick()  # ... so the next looks only a minute later
    await service.puzzles.settle()
    assert await count_rows(service, "puzzle_mined") == 1
    clock.advance(IDLE_PAUSE_SECONDS)
    await service.tick()
    await service.puzzles.settle()
    assert await count_rows(service, "puzzle_mined") == 2


async def test_the_engine_finds_puzzles_that_hold(services: Services, database: Database) -> None:
    from bot.puzzle_source import ENGINE_PUZZLES

    service = await services.open(database, puzzle_source=replace(ENGINE_PUZZLES, starter=_none))
    game_id = await finished_game(service, 30)
    assert await service.puzzles.mine(5) == 1
    for fen, solution, source in await query(
        service, "SELECT fen, solution, source FROM puzzles WHERE game_id = ?", (game_id,)
    ):
        data = {"variant": "english", "fen": fen, "solution": solution.split()}
        assert checked_puzzle(data, guild_id=GUILD, game_id=game_id, now=0.0) is not None
        assert source.startswith(f"game {game_id} ply ")


def _none(variant: str) -> list[dict[str, object]]:
    return []


@pytest.mark.parametrize("variant", ["english", "international"])
async def test_a_shipped_starter_puzzle_is_served_and_solved_by_its_line(
    services: Services, database: Database, variant: str
) -> None:
    from bot.puzzle_source import ENGINE_PUZZLES

    service = await services.open(database, puzzle_source=ENGINE_PUZZLES)
    turn = await service.puzzles.start(GUILD, ALICE, variant)
    assert turn.view.variant == variant and turn.view.game_id is None
    assert await service.store.count_puzzles(None, variant) == len(ENGINE_PUZZLES.starter(variant))
    puzzle = await service.store.puzzle(turn.view.puzzle_id)
    assert puzzle is not None
    line = puzzle.solution.split()
    for ply in range(0, len(line), 2):
        turn = await service.puzzles.move(turn.view.attempt_id, ALICE, ply, line[ply])
    assert turn.view.status == "solved" and turn.change is not None
