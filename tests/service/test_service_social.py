"""Social play (issue 7) through the game service, on real SQLite files with a hand-moved clock.

Sections: ratings, standings (stats, leaderboard, history), finding games and their PDN,
takebacks, ballot openings, two-game matches, and per-server settings.  Every feature is driven
through :class:`bot.service.GameService`'s public API and checked both in the result it returns
and in what the database holds afterwards.  Nothing of ours is mocked; the only stand-ins are a
seeded :class:`~bot.service.computer.RandomComputer` and a tiny real ``ComputerPlayer`` whose search
dies (an engine process that crashed mid-reply).
"""

from __future__ import annotations

from typing import Any

import pytest
from support import service_harness as harness
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    MOVE_TIME,
    OTHER_CHANNEL,
    OTHER_GUILD,
    T0,
    THREAD,
    Clock,
    CrashingComputer,
    Database,
    both_moved,
    count_rows,
    execute,
    opened,
    play,
    replied,
    resigns,
    unchanged,
)

from bot.errors import (
    ChallengeError,
    ForbiddenError,
    NotAPlayerError,
    NotFoundError,
    ServiceError,
    TakebackError,
    ThreadRequired,
)
from bot.results import Action, ActionResult, GameView, Player
from bot.service import GameService, ratings
from bot.service.ratings import Rating
from bot.service.settings import DEFAULT_MOVE_TIME
from rules.ballots import CROSSBOARD, ballot_of
from rules.pdn import read_game

CROSSBOARD_OPENINGS = {" ".join(b.moves) for b in CROSSBOARD}

# English, Black first (plies 1, 3, 5... are Black's).
OPENING = ["11-15", "23-19", "8-11", "22-17", "9-13"]


# -- games named by colour --------------------------------------------------------------------
# Ratings, standings and matches are about who played White: here the challenger plays White.


async def start_result(
    service: GameService, *, white: Player = ALICE, black: Player = BOB, **terms: Any
) -> ActionResult:
    """``white`` challenges ``black`` (the harness's terms otherwise: English, an hour a move,
    in CHANNEL of GUILD) and ``black`` accepts; the start announcement."""
    return await harness.start_result(
        service, challenger=white, opponent=black, color="white", **terms
    )


async def start(service: GameService, **options: Any) -> GameView:
    started = await start_result(service, **options)
    assert started.action is Action.GAME_STARTED and started.game is not None
    return started.game


async def finish(service: GameService, view: GameView, winner: str | None) -> ActionResult:
    """End a running game: the loser resigns (``winner`` ``"white"``/``"black"``), or both
    agree a draw (``None``)."""
    if winner is None:
        await both_moved(service, view)
        await service.offer_draw(view.white.id, game_id=view.id)
        return await service.accept_draw(view.black.id, game_id=view.id)
    loser = view.black if winner == "white" else view.white
    return await resigns(service, loser.id, view.id)


# -- ratings ------------------------------------------------------------------------------------


async def test_decisive_rated_game_updates_both_ratings_symmetrically(
    service: GameService,
) -> None:
    """A won game between people moves both Glicko-2 ratings exactly as bot.service.ratings says,
    records the changes on the game and shows them (provisional) in the ending text."""
    view = await start(service)
    assert view.rated is True
    ended = await resigns(service, BOB.id, view.id)  # Alice (White) wins
    won = ratings.update(Rating(), [(Rating(), 1.0)])
    lost = ratings.update(Rating(), [(Rating(), 0.0)])
    alice = await service.store.rating(GUILD, ALICE.id, "english")
    bob = await service.store.rating(GUILD, BOB.id, "english")
    assert alice is not None and bob is not None
    assert (alice.games, bob.games) == (1, 1)
    assert alice.rating > 1500 > bob.rating
    assert alice.rating - 1500 == pytest.approx(1500 - bob.rating)
    assert alice.deviation < 350 and bob.deviation < 350
    assert (alice.rating, alice.deviation, alice.volatility) == pytest.approx(
        (won.rating, won.deviation, won.volatility)
    )
    assert (bob.rating, bob.deviation, bob.volatility) == pytest.approx(
        (lost.rating, lost.deviation, lost.volatility)
    )
    row = await service.store.game(view.id)
    assert row is not None and row.rated == 1
    assert row.white_rating_change == pytest.approx(won.rating - 1500)
    assert row.black_rating_change == pytest.approx(lost.rating - 1500)
    assert row.white_rating == pytest.approx(won.rating)
    assert "Ratings:" in str(ended.text)
    assert f"Alice {won.shown()}" in str(ended.text) and f"Bob {lost.shown()}" in str(ended.text)
    assert won.shown().endswith("?") and lost.shown().endswith("?")
    assert ended.game is not None and ended.game.rated is True


async def test_draw_keeps_equal_ratings_but_shrinks_deviations(service: GameService) -> None:
    """A draw between equal players leaves both at 1500 while the deviations shrink."""
    view = await start(service)
    ended = await finish(service, view, None)
    assert ended.action is Action.DRAW_ACCEPTED and "Ratings:" in str(ended.text)
    drawn = ratings.update(Rating(), [(Rating(), 0.5)])
    for player in (ALICE, BOB):
        row = await service.store.rating(GUILD, player.id, "english")
        assert row is not None and row.games == 1
        assert row.rating == pytest.approx(1500)
        assert row.deviation == pytest.approx(drawn.deviation) and row.deviation < 350
    game = await service.store.game(view.id)
    assert game is not None
    assert game.white_rating_change == pytest.approx(0)
    assert game.black_rating_change == pytest.approx(0)


async def test_timeout_of_a_rated_game_is_rated(service: GameService, clock: Clock) -> None:
    """A game lost on time (ended by the scheduler) updates the ladder like any other end."""
    view = await start(service)  # Bob (Black) to move first
    # Two moves each (a player who never moved does not lose on time), Bob to move again.
    view = await play(service, view, ["11-15", "23-19", "8-11", "22-17"])
    clock.now = T0 + MOVE_TIME + 1
    events = await service.tick()
    [timeout] = [e for e in events if e.action is Action.TIMEOUT]
    assert "Ratings:" in str(timeout.text)
    bob = await service.store.rating(GUILD, BOB.id, "english")
    alice = await service.store.rating(GUILD, ALICE.id, "english")
    assert bob is not None and alice is not None and bob.rating < 1500 < alice.rating
    row = await service.store.game(view.id)
    assert row is not None and row.black_rating_change is not None


async def test_games_against_the_computer_are_unrated(service: GameService) -> None:
    """The computer is nobody's rating: its games are marked unrated and write no rows."""
    started = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT, color="black"
    )
    assert started.action is Action.GAME_STARTED and started.game is not None
    assert started.game.rated is False
    ended = await resigns(service, ALICE.id, started.game.id)
    row = await service.store.game(started.game.id)
    assert row is not None and row.rated == 0
    assert row.white_rating_change is None and row.black_rating_change is None
    assert "Ratings:" not in str(ended.text)
    assert await count_rows(service, "ratings") == 0


async def test_aborted_game_writes_no_rating(service: GameService) -> None:
    """A moderator's abort has no result, so nobody's rating moves."""
    view = await start(service)
    ended = await service.abort(CAROL.id, is_moderator=True, channel_id=CHANNEL)
    assert ended.action is Action.ABORTED and "Ratings:" not in str(ended.text)
    assert await count_rows(service, "ratings") == 0
    row = await service.store.game(view.id)
    assert row is not None and row.rated == 1 and row.white_rating_change is None


async def test_games_outside_a_server_are_unrated(service: GameService) -> None:
    """Ratings are per server: a game in DMs (no guild) is unrated."""
    started = await start_result(service, guild_id=None)
    assert started.game is not None and started.game.rated is False
    ended = await resigns(service, BOB.id, started.game.id)
    assert "Ratings:" not in str(ended.text)
    assert await count_rows(service, "ratings") == 0


async def test_ratings_are_per_server_and_per_variant(service: GameService) -> None:
    """A game in another server or another variant leaves this server's English ladder alone."""
    other_server = await start(service, guild_id=OTHER_GUILD)
    await resigns(service, BOB.id, other_server.id)
    international = await start(service, variant="international")
    await resigns(service, BOB.id, international.id)
    assert await service.store.rating(GUILD, ALICE.id, "english") is None
    assert await service.store.rating(GUILD, BOB.id, "english") is None
    for guild, variant in ((OTHER_GUILD, "english"), (GUILD, "international")):
        row = await service.store.rating(guild, ALICE.id, variant)
        assert row is not None and row.games == 1 and row.rating > 1500
    assert await count_rows(service, "ratings") == 4


async def test_second_game_builds_on_the_first_rating(service: GameService) -> None:
    """Each rated game is one rating period starting from the stored rating."""
    first = await start(service)
    await resigns(service, BOB.id, first.id)
    second = await start(service)
    await resigns(service, BOB.id, second.id)
    once_won = ratings.update(Rating(), [(Rating(), 1.0)])
    once_lost = ratings.update(Rating(), [(Rating(), 0.0)])
    twice = ratings.update(once_won, [(once_lost, 1.0)])
    alice = await service.store.rating(GUILD, ALICE.id, "english")
    assert alice is not None and alice.games == 2
    assert alice.rating == pytest.approx(twice.rating)
    row = await service.store.game(second.id)
    assert row is not None
    assert row.white_rating_change == pytest.approx(twice.rating - once_won.rating)


# -- standings ----------------------------------------------------------------------------------


async def play_rated_games(
    service: GameService, clock: Clock, winners: list[str | None]
) -> list[int]:
    """Alice (White) v Bob (Black) once per entry of ``winners``, a minute apart."""
    ids = []
    for winner in winners:
        clock.advance(60)
        view = await start(service)
        await finish(service, view, winner)
        ids.append(view.id)
    return ids


async def test_stats_of_a_winner_and_a_loser(service: GameService, clock: Clock) -> None:
    """Stats show the rating line, record, streak, rank and latest games, newest first."""
    ids = await play_rated_games(service, clock, ["white", "white"])
    alice = await service.standings.stats(GUILD, ALICE, "english")
    assert alice.variant == "english" and alice.player == ALICE
    assert alice.rating is not None and alice.rating.shown.endswith("?")
    assert alice.rating.games == 2 and alice.rating.rating > 1500
    assert (alice.wins, alice.draws, alice.losses) == (2, 0, 0)
    assert alice.streak == ("W", 2)
    assert alice.rank == (1, 2)
    assert [g.id for g in alice.recent] == ids[::-1]
    assert [g.outcome for g in alice.recent] == ["W", "W"]
    row = await service.store.game(ids[-1])
    assert row is not None
    assert alice.recent[0].rating_change == pytest.approx(row.white_rating_change)
    assert alice.recent[0].rated is True
    bob = await service.standings.stats(GUILD, BOB, "english")
    assert (bob.wins, bob.draws, bob.losses, bob.streak, bob.rank) == (0, 0, 2, ("L", 2), (2, 2))
    assert bob.recent[0].rating_change == pytest.approx(row.black_rating_change)
    assert [g.outcome for g in bob.recent] == ["L", "L"]


async def test_streak_restarts_with_a_different_result(service: GameService, clock: Clock) -> None:
    """The streak counts only the run ending with the latest game."""
    await play_rated_games(service, clock, ["white", "white", None])
    alice = await service.standings.stats(GUILD, ALICE, "english")
    assert (alice.wins, alice.draws, alice.losses) == (2, 1, 0)
    assert alice.streak == ("D", 1)
    assert [g.outcome for g in alice.recent] == ["D", "W", "W"]


async def test_stats_of_an_unrated_player(service: GameService) -> None:
    """Before any rated game there is no rating line, rank or streak."""
    stats = await service.standings.stats(GUILD, CAROL, "english")
    assert stats.rating is None and stats.rank is None and stats.streak is None
    assert (stats.wins, stats.draws, stats.losses, stats.recent) == (0, 0, 0, ())


async def test_leaderboard_order_names_and_own_rank(service: GameService, clock: Clock) -> None:
    """The ladder is ordered by rating, names come from the players' latest games, and the
    asking user's rank is given when they are rated (None otherwise)."""
    await play_rated_games(service, clock, ["white"])  # Alice beats Bob
    clock.advance(60)
    view = await start(service, white=CAROL, black=Player(BOB.id, "Bobby"))
    await finish(service, view, None)  # Carol draws Bob, now named "Bobby"
    board = await service.standings.leaderboard(GUILD, "english", BOB.id)
    assert board.variant == "english"
    assert [line.player.id for line in board.top] == [ALICE.id, CAROL.id, BOB.id]
    assert [line.player.name for line in board.top] == ["Alice", "Carol", "Bobby"]
    assert [line.rating for line in board.top] == sorted(
        (line.rating for line in board.top), reverse=True
    )
    assert board.mine == (3, 3)
    assert board.my_line is not None and board.my_line.player == Player(BOB.id, "Bobby")
    outsider = await service.standings.leaderboard(GUILD, "english", DAVE.id)
    assert outsider.mine is None and outsider.my_line is None
    assert len(outsider.top) == 3
    empty = await service.standings.leaderboard(GUILD, "international", ALICE.id)
    assert empty.top == () and empty.mine is None


async def test_history_lists_ended_games_newest_first(service: GameService, clock: Clock) -> None:
    """History shows finished and aborted games (the latter without a result), newest first,
    and only the named user's games when asked."""
    [won] = await play_rated_games(service, clock, ["white"])
    clock.advance(60)
    aborted = await start(service, white=CAROL, black=DAVE)
    await service.abort(ALICE.id, is_moderator=True, game_id=aborted.id)
    clock.advance(60)
    running = await start(service, channel_id=OTHER_CHANNEL)
    history = await service.standings.history(GUILD)
    assert [g.id for g in history] == [aborted.id, won]
    assert history[0].result is None and history[0].rated is False
    assert history[0].outcome is None
    assert history[1].result == "1-0" and history[1].rated is True
    assert history[1].white == ALICE and history[1].black == BOB
    mine = await service.standings.history(GUILD, BOB.id)
    assert [g.id for g in mine] == [won]
    assert mine[0].outcome == "L" and mine[0].rating_change is not None
    assert mine[0].rating_change < 0
    assert running.id not in {g.id for g in history}
    assert await service.standings.history(OTHER_GUILD) == ()


async def test_history_is_limited_to_ten_games(service: GameService, clock: Clock) -> None:
    """Only the ten latest games are listed."""
    ids = await play_rated_games(service, clock, ["white"] * 11)
    history = await service.standings.history(GUILD)
    assert [g.id for g in history] == ids[::-1][:10]


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.standings.stats(GUILD, ALICE, "chess"),
        lambda s: s.standings.leaderboard(GUILD, "chess", ALICE.id),
        lambda s: s.standings.stats(None, ALICE, "english"),
        lambda s: s.standings.leaderboard(None, "english", ALICE.id),
        lambda s: s.standings.history(None),
    ],
    ids=["stats-variant", "leaderboard-variant", "stats-dm", "leaderboard-dm", "history-dm"],
)
async def test_standings_refusals(service: GameService, call: Any) -> None:
    """An unknown variant, or asking outside a server, is refused with a user-facing reason."""
    with pytest.raises(ServiceError):
        await call(service)


# -- finding games and their PDN ------------------------------------------------------------------


async def test_pdn_by_id_is_limited_to_the_asking_server(service: GameService) -> None:
    """Game ids are global, but a server only finds its own games."""
    view = await start(service)
    with pytest.raises(NotFoundError):
        await service.pdn(game_id=view.id, guild_id=OTHER_GUILD, check_guild=True)
    with pytest.raises(NotFoundError):
        await service.pdn(game_id=view.id, guild_id=None, check_guild=True)
    with pytest.raises(NotFoundError):
        await service.pdn(game_id=view.id + 1, guild_id=GUILD, check_guild=True)
    name, text = await service.pdn(game_id=view.id, guild_id=GUILD, check_guild=True)
    assert name == f"draughts-game-{view.id}.pdn"
    assert '[White "Alice"]' in text and '[Black "Bob"]' in text
    # Without the check (internal use) the id alone finds it.
    assert (await service.pdn(game_id=view.id))[0] == name


async def test_pdn_by_channel_falls_back_to_the_last_ended_game(service: GameService) -> None:
    """Without an id: the channel's running game, else the game that last ended there."""
    with pytest.raises(NotFoundError):
        await service.pdn(channel_id=CHANNEL, guild_id=GUILD, check_guild=True)
    first = await start(service)
    await play(service, first, OPENING[:2])
    name, text = await service.pdn(channel_id=CHANNEL, guild_id=GUILD, check_guild=True)
    assert name == f"draughts-game-{first.id}.pdn"
    assert read_game(text).game.ply == 2
    await resigns(service, BOB.id, first.id)
    name, text = await service.pdn(channel_id=CHANNEL, guild_id=GUILD, check_guild=True)
    assert name == f"draughts-game-{first.id}.pdn" and "1-0" in text
    second = await start(service)
    name, _ = await service.pdn(channel_id=CHANNEL, guild_id=GUILD, check_guild=True)
    assert name == f"draughts-game-{second.id}.pdn"
    found = await service.find_game(channel_id=CHANNEL)
    assert found.id == second.id


# -- takebacks ----------------------------------------------------------------------------------


async def test_takeback_request_is_an_offer_to_the_opponent(service: GameService) -> None:
    """Between people a request waits for the opponent, who is mentioned; nothing moves yet."""
    view = await play(service, await start(service), OPENING[:1])  # Bob moved; Alice to move
    offered = await service.request_takeback(BOB.id, channel_id=CHANNEL)
    assert offered.action is Action.TAKEBACK_OFFERED
    assert offered.mentions == (ALICE.id,)
    assert "Alice" in str(offered.text) and "Bob" in str(offered.text)
    assert offered.game is not None
    assert offered.game.takeback_offer == "black" and offered.game.ply == 1
    assert offered.game.fen == view.fen
    row = await service.store.game(view.id)
    assert row is not None and row.takeback_offer == "black"
    assert len(await service.store.moves(view.id)) == 1


async def test_accepted_takeback_of_the_askers_move_only(service: GameService) -> None:
    """Asked while the opponent is to move: one ply comes off, the move is archived."""
    view = await start(service)
    after = await play(service, view, OPENING[:1])
    await service.request_takeback(BOB.id, channel_id=CHANNEL)
    accepted = await service.answer_takeback(ALICE.id, True, channel_id=CHANNEL)
    assert accepted.action is Action.TAKEBACK_ACCEPTED and accepted.post_board is True
    back = accepted.game
    assert back is not None
    assert (back.ply, back.fen, back.turn, back.takeback_offer) == (0, view.fen, "black", None)
    assert back.to_move == BOB
    assert await service.store.moves(view.id) == []
    taken = await service.store.taken_back_moves(view.id)
    assert [(ply, pdn) for ply, pdn, _ in taken] == [(1, after.last_move)]


async def test_accepted_takeback_includes_the_reply(service: GameService) -> None:
    """Asked on one's own turn: the asker's last move and the reply both come off."""
    view = await start(service)
    before = await play(service, view, OPENING[:2])
    after = await play(service, before, OPENING[2:4])  # ply 4, Bob (Black) to move
    await service.request_takeback(BOB.id, channel_id=CHANNEL)
    accepted = await service.answer_takeback(ALICE.id, True, channel_id=CHANNEL)
    back = accepted.game
    assert back is not None
    assert (back.ply, back.fen, back.to_move) == (2, before.fen, BOB)
    assert "reply" in str(accepted.text)
    assert [m.ply for m in await service.store.moves(view.id)] == [1, 2]
    taken = await service.store.taken_back_moves(view.id)
    assert [(ply, pdn) for ply, pdn, _ in taken] == [(3, OPENING[2]), (4, OPENING[3])]
    assert after.ply == 4
    # Play goes on from there, and the same ply can be played again.
    again = await play(service, back, ["9-14"])
    assert again.ply == 3


async def test_takeback_survives_a_restart(database: Database, clock: Clock) -> None:
    """The taken-back position is what a restarted bot rebuilds from the database."""
    async with opened(database, clock) as service:
        view = await start(service)
        kept = await play(service, view, OPENING[:3])
        await play(service, kept, OPENING[3:4])
        await service.request_takeback(ALICE.id, channel_id=CHANNEL)
        accepted = await service.answer_takeback(BOB.id, True, channel_id=CHANNEL)
        assert accepted.game is not None and accepted.game.fen == kept.fen
    async with opened(database, clock) as service:
        reloaded = await service.game_view(view.id)
        assert (reloaded.ply, reloaded.fen, reloaded.to_move) == (3, kept.fen, ALICE)
        assert [p for p, _, _ in await service.store.taken_back_moves(view.id)] == [4]
        assert (await play(service, reloaded, ["22-17"])).ply == 4


async def test_pending_request_survives_a_restart(database: Database, clock: Clock) -> None:
    """A request waiting for an answer is stored, so it can be answered after a restart."""
    async with opened(database, clock) as service:
        view = await play(service, await start(service), OPENING[:1])
        await service.request_takeback(BOB.id, channel_id=CHANNEL)
    async with opened(database, clock) as service:
        assert (await service.game_view(view.id)).takeback_offer == "black"
        accepted = await service.answer_takeback(ALICE.id, True, channel_id=CHANNEL)
        assert accepted.game is not None and accepted.game.ply == 0


async def test_declined_takeback_cannot_be_asked_again_in_that_position(
    service: GameService,
) -> None:
    """A decline changes nothing on the board; the same position cannot be asked about again
    (by either player), but after the next move asking works again."""
    view = await play(service, await start(service), OPENING[:2])  # Bob to move
    await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    declined = await service.answer_takeback(BOB.id, False, channel_id=CHANNEL)
    assert declined.action is Action.TAKEBACK_DECLINED
    assert declined.mentions == (ALICE.id,)
    assert declined.game is not None
    assert (declined.game.ply, declined.game.fen, declined.game.takeback_offer) == (
        2,
        view.fen,
        None,
    )
    assert [m.ply for m in await service.store.moves(view.id)] == [1, 2]
    assert await service.store.taken_back_moves(view.id) == []
    async with unchanged(service, view.id):
        for asker in (ALICE, BOB):
            with pytest.raises(TakebackError, match="declined"):
                await service.request_takeback(asker.id, channel_id=CHANNEL)
    moved = await play(service, view, OPENING[2:3])
    offered = await service.request_takeback(BOB.id, channel_id=CHANNEL)
    assert offered.action is Action.TAKEBACK_OFFERED
    assert moved.ply == 3


async def test_second_request_while_one_waits_refused(service: GameService) -> None:
    """One request at a time: neither player can ask while a request waits."""
    view = await play(service, await start(service), OPENING[:2])
    await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    async with unchanged(service, view.id):
        for asker in (ALICE, BOB):
            with pytest.raises(TakebackError, match="waiting"):
                await service.request_takeback(asker.id, channel_id=CHANNEL)


async def test_only_the_opponent_answers_a_request(service: GameService) -> None:
    """The asker cannot answer their own request, an outsider is not a player, and there is
    nothing to answer without a request."""
    view = await play(service, await start(service), OPENING[:2])
    async with unchanged(service, view.id):
        with pytest.raises(TakebackError):
            await service.answer_takeback(BOB.id, True, channel_id=CHANNEL)
    await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    async with unchanged(service, view.id):
        for accept in (True, False):
            with pytest.raises(TakebackError):
                await service.answer_takeback(ALICE.id, accept, channel_id=CHANNEL)
            with pytest.raises(NotAPlayerError):
                await service.answer_takeback(CAROL.id, accept, channel_id=CHANNEL)
        with pytest.raises(NotAPlayerError):
            await service.request_takeback(CAROL.id, channel_id=CHANNEL)


async def test_playing_a_move_lapses_a_pending_request(service: GameService) -> None:
    """The opponent playing on instead of answering withdraws the request."""
    view = await play(service, await start(service), OPENING[:1])
    await service.request_takeback(BOB.id, channel_id=CHANNEL)
    moved = await play(service, view, OPENING[1:2])
    assert moved.takeback_offer is None
    row = await service.store.game(view.id)
    assert row is not None and row.takeback_offer is None
    with pytest.raises(TakebackError):
        await service.answer_takeback(ALICE.id, True, channel_id=CHANNEL)


async def test_resigning_lapses_a_pending_request(service: GameService) -> None:
    """The game's end withdraws a request; the finished row keeps none."""
    view = await play(service, await start(service), OPENING[:1])
    await service.request_takeback(BOB.id, channel_id=CHANNEL)
    ended = await service.resign(ALICE.id, channel_id=CHANNEL)
    assert ended.game is not None and ended.game.takeback_offer is None
    row = await service.store.game(view.id)
    assert row is not None and row.takeback_offer is None


async def test_nothing_to_take_back_before_ones_first_move(service: GameService) -> None:
    """At ply 0 neither player has a move to take back; at ply 1 only the mover has."""
    view = await start(service)
    async with unchanged(service, view.id):
        for asker in (ALICE, BOB):
            with pytest.raises(TakebackError):
                await service.request_takeback(asker.id, channel_id=CHANNEL)
    view = await play(service, view, OPENING[:1])
    async with unchanged(service, view.id):
        with pytest.raises(TakebackError):
            await service.request_takeback(ALICE.id, channel_id=CHANNEL)


async def test_a_ballot_opening_cannot_be_taken_back(service: GameService) -> None:
    """The three balloted moves were set before the game: no takeback reaches into them."""
    view = await start(service, ballot=True)
    assert view.ply == 3
    async with unchanged(service, view.id):
        for asker in (ALICE, BOB):
            with pytest.raises(TakebackError):
                await service.request_takeback(asker.id, channel_id=CHANNEL)
    # White's own first move can be taken back, and only that one.
    legal = (await service.move_list(CHANNEL))[1]
    moved = await play(service, view, [legal[0]])
    async with unchanged(service, view.id):
        with pytest.raises(TakebackError):
            await service.request_takeback(BOB.id, channel_id=CHANNEL)
    await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    back = await service.answer_takeback(BOB.id, True, channel_id=CHANNEL)
    assert back.game is not None and (back.game.ply, back.game.fen) == (3, view.fen)
    assert moved.ply == 4


async def test_against_the_computer_a_takeback_is_immediate(service: GameService) -> None:
    """Against the computer the player's move and the computer's reply come off at once."""
    started = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT, color="black"
    )
    assert started.game is not None
    start_fen = started.game.fen
    await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
    reply = await replied(service, started.game.id)
    assert reply.game is not None and reply.game.ply == 2
    result = await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    assert result.action is Action.TAKEBACK_ACCEPTED and result.post_board is True
    back = result.game
    assert back is not None
    assert (back.ply, back.fen, back.to_move, back.takeback_offer) == (0, start_fen, ALICE, None)
    assert back.deadline == T0 + DEFAULT_MOVE_TIME
    assert len(await service.store.taken_back_moves(started.game.id)) == 2
    # The computer does not move again by itself: it is Alice's turn.
    assert await service.tick() == []
    assert await service.resume_computer_games() == 0


async def test_the_computers_opening_move_cannot_be_taken_back(service: GameService) -> None:
    """When the computer opened, the player has nothing to take back until they move; then
    their move and the reply come off, back to the computer's opening."""
    started = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT, color="white"
    )
    assert started.game is not None and started.game.ply == 0
    opening = await replied(service, started.game.id)
    assert opening.game is not None and opening.game.ply == 1
    async with unchanged(service, started.game.id):
        with pytest.raises(TakebackError):
            await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    legal = (await service.move_list(CHANNEL))[1]
    await service.move(ALICE.id, legal[0], channel_id=CHANNEL)
    await replied(service, started.game.id)
    result = await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    assert result.game is not None
    assert (result.game.ply, result.game.fen, result.game.to_move) == (
        1,
        opening.game.fen,
        ALICE,
    )


async def test_takeback_while_the_computer_failed_to_reply(
    database: Database, clock: Clock
) -> None:
    """If the computer's reply failed (its turn), only the player's move comes off."""
    async with opened(database, clock, computer=CrashingComputer()) as service:
        started = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT, color="black"
        )
        assert started.game is not None
        moved = await service.move(ALICE.id, "11-15", channel_id=CHANNEL)
        assert moved.game is not None and moved.game.ply == 1
        result = await service.request_takeback(ALICE.id, channel_id=CHANNEL)
        assert result.game is not None
        assert (result.game.ply, result.game.fen, result.game.to_move) == (
            0,
            started.game.fen,
            ALICE,
        )
        assert "reply" not in str(result.text)


async def test_rated_game_takeback_needs_both_and_stays_rated(service: GameService) -> None:
    """A rated game is taken back only by agreement, and stays rated afterwards."""
    view = await play(service, await start(service), OPENING[:2])
    assert view.rated is True
    offered = await service.request_takeback(ALICE.id, channel_id=CHANNEL)
    assert offered.action is Action.TAKEBACK_OFFERED and offered.game is not None
    assert offered.game.ply == 2
    accepted = await service.answer_takeback(BOB.id, True, channel_id=CHANNEL)
    assert accepted.game is not None and accepted.game.rated is True
    ended = await resigns(service, BOB.id, accepted.game.id)
    assert "Ratings:" in str(ended.text)
    row = await service.store.rating(GUILD, ALICE.id, "english")
    assert row is not None and row.games == 1


# -- ballots ------------------------------------------------------------------------------------


async def test_ballot_challenge_draws_a_crossboard_opening(service: GameService) -> None:
    """A ballot challenge stores one of the ACF cross-board openings, shown by its label."""
    created = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        variant="english",
        ballot=True,
    )
    view = created.challenge
    assert view is not None
    assert view.opening in CROSSBOARD_OPENINGS
    ballot = ballot_of(view.opening.split())
    assert ballot is not None and view.opening_label == ballot.label
    assert view.opening_label.startswith("ACF #")


async def test_balloted_game_starts_after_the_three_moves(service: GameService) -> None:
    """Accepting starts at ply 3 with White to move; the announcement names the ballot."""
    started = await start_result(service, ballot=True)
    view = started.game
    assert view is not None
    assert (view.ply, view.turn, view.to_move) == (3, "white", ALICE)
    assert view.opening_label is not None and view.opening_label.startswith("ACF #")
    assert "ballot" in str(started.text) and view.opening_label in str(started.text)
    moves = await service.store.moves(view.id)
    assert [m.user_id for m in moves] == [BOB.id, ALICE.id, BOB.id]
    assert " ".join(m.pdn for m in moves) in CROSSBOARD_OPENINGS


async def test_ballot_against_the_computer(service: GameService) -> None:
    """A ballot works against the computer too: when it plays White it answers the ballot."""
    started = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOT,
        color="black",
        ballot=True,
    )
    assert started.game is not None and started.game.opening_label is not None
    # The ballot's three plies are played; the computer (White) answers them in its own time.
    assert (started.game.ply, started.game.to_move) == (3, BOT)
    answer = await replied(service, started.game.id)
    assert answer.game is not None and (answer.game.ply, answer.game.to_move) == (4, ALICE)


@pytest.mark.parametrize(
    ("terms", "reason"),
    [
        ({"variant": "international", "ballot": True}, "English"),
        ({"variant": "english", "ballot": True, "opening": ["11-15"]}, "either"),
    ],
    ids=["international", "with-opening"],
)
async def test_ballot_refusals(service: GameService, terms: dict[str, Any], reason: str) -> None:
    """Ballots exist only for English, and exclude explicit opening moves."""
    with pytest.raises(ChallengeError, match=reason):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, **terms
        )
    assert await count_rows(service, "challenges") == 0


# -- matches ------------------------------------------------------------------------------------


async def test_match_challenge_starts_game_one(service: GameService) -> None:
    """A match challenge says so, and its first game is match game 1 named by its own id."""
    created = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        variant="english",
        color="white",
        match=True,
    )
    assert created.challenge is not None and created.challenge.match is True
    assert "match" in str(created.text)
    started = await service.accept(created.challenge.id, BOB.id)
    view = started.game
    assert view is not None
    assert (view.match_game, view.match_id) == (1, view.id)
    assert str(started.text) == "Match game 1 of 2."
    assert view.rated is True


@pytest.mark.parametrize("ballot", [False, True], ids=["free", "ballot"])
async def test_ending_game_one_starts_game_two_with_colours_swapped(
    service: GameService, ballot: bool
) -> None:
    """Game 1's end starts game 2 in the same place, same opening, colours swapped, and the
    ending action carries its announcement as a follow-up."""
    first = await start(service, match=True, ballot=ballot)
    ended = await resigns(service, BOB.id, first.id)
    assert "Match game 2 follows" in str(ended.text)
    follow = ended.follow_up
    assert follow is not None and follow.action is Action.GAME_STARTED
    second = follow.game
    assert second is not None and second.id != first.id
    assert (second.match_game, second.match_id) == (2, first.id)
    assert (second.white, second.black) == (BOB, ALICE)
    assert (second.channel_id, second.guild_id) == (first.channel_id, first.guild_id)
    assert (second.move_time, second.variant, second.rated) == (MOVE_TIME, "english", True)
    assert (second.ply, second.fen) == (first.ply, first.fen)
    assert second.opening_label == first.opening_label
    assert str(follow.text).startswith("Match game 2 of 2")
    assert set(follow.mentions) == {ALICE.id, BOB.id}
    rows = await service.store.match_games(first.id)
    assert [r.id for r in rows] == [first.id, second.id]
    assert rows[0].opening == rows[1].opening
    assert (await service.game_in(CHANNEL)) == second
    if ballot:
        assert second.opening_label is not None


@pytest.mark.parametrize(
    ("first_winner", "second_winner", "sentence"),
    [
        ("white", "white", "Match drawn: Alice 1–1 Bob."),
        ("white", "black", "Match won by Alice: Alice 2–0 Bob."),
        ("black", "white", "Match won by Bob: Alice 0–2 Bob."),
        ("white", None, "Match won by Alice: Alice 1½–½ Bob."),
        (None, "white", "Match won by Bob: Alice ½–1½ Bob."),
        (None, None, "Match drawn: Alice 1–1 Bob."),
    ],
)
async def test_match_score_after_game_two(
    service: GameService,
    first_winner: str | None,
    second_winner: str | None,
    sentence: str,
) -> None:
    """The second game's end reports the match, first game's White named first, halves as ½."""
    first = await start(service, match=True)  # Alice White in game 1, Bob White in game 2
    ended = await finish(service, first, first_winner)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    final = await finish(service, ended.follow_up.game, second_winner)
    assert str(final.text).endswith(sentence), str(final.text)
    assert final.follow_up is None
    assert await service.game_in(CHANNEL) is None
    assert await service.tick() == []  # no third game
    assert len(await service.store.match_games(first.id)) == 2


async def test_both_match_games_are_rated(service: GameService) -> None:
    """Each game of a match counts on the ladder, and the history marks them 1 and 2."""
    first = await start(service, match=True)
    ended = await resigns(service, BOB.id, first.id)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    final = await resigns(service, ALICE.id, ended.follow_up.game.id)
    assert "Ratings:" in str(ended.text) and "Ratings:" in str(final.text)
    for player in (ALICE, BOB):
        row = await service.store.rating(GUILD, player.id, "english")
        assert row is not None and row.games == 2
    history = await service.standings.history(GUILD)
    assert [g.match_game for g in history] == [2, 1]


async def test_aborting_game_one_abandons_the_match(service: GameService) -> None:
    """An aborted first game ends the match: no second game, now or on a later tick."""
    first = await start(service, match=True)
    aborted = await service.abort(CAROL.id, is_moderator=True, game_id=first.id)
    assert aborted.follow_up is None
    assert "The match was abandoned." in str(aborted.text)
    assert await service.tick() == []
    assert [r.id for r in await service.store.match_games(first.id)] == [first.id]
    assert await service.game_in(CHANNEL) is None


async def test_aborting_game_two_abandons_the_match(service: GameService) -> None:
    """An aborted second game leaves the match without a score."""
    first = await start(service, match=True)
    ended = await resigns(service, BOB.id, first.id)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    aborted = await service.abort(CAROL.id, is_moderator=True, game_id=ended.follow_up.game.id)
    assert str(aborted.text).endswith("The match was abandoned.")


async def test_match_against_the_computer_refused(service: GameService) -> None:
    """Matches are between two people."""
    with pytest.raises(ChallengeError):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT, match=True
        )
    assert await count_rows(service, "games") == 0


async def test_a_missing_second_game_is_started_by_the_scheduler(
    database: Database, clock: Clock
) -> None:
    """Crash safety: a match whose first game finished without its second game (as a bot
    killed between the two writes, or an older version, would leave it) gets the second game
    on the next tick, once, and only when the channel is free."""
    async with opened(database, clock) as service:
        first = await start(service, match=True, ballot=True)
        ended = await resigns(service, BOB.id, first.id)
        assert ended.follow_up is not None and ended.follow_up.game is not None
        lost = ended.follow_up.game.id
    # the second game never got written
    await execute(database, "DELETE FROM moves WHERE game_id = ?", (lost,))
    await execute(database, "DELETE FROM games WHERE id = ?", (lost,))
    async with opened(database, clock) as service:
        assert await service.store.matches_waiting() != []
        busy = await start(service, white=CAROL, black=DAVE)
        assert await service.tick() == []  # the channel is taken: try later
        await resigns(service, DAVE.id, busy.id)
        events = await service.tick()
        [started] = [e for e in events if e.action is Action.GAME_STARTED]
        second = started.game
        assert second is not None
        assert (second.match_game, second.match_id) == (2, first.id)
        assert (second.white, second.black, second.channel_id) == (BOB, ALICE, CHANNEL)
        assert (second.ply, second.fen, second.opening_label) == (
            first.ply,
            first.fen,
            first.opening_label,
        )
        assert await service.tick() == []
        assert await service.store.matches_waiting() == []
        final = await resigns(service, ALICE.id, second.id)
        assert str(final.text).endswith("Match drawn: Alice 1–1 Bob.")


# -- server settings ----------------------------------------------------------------------------


async def test_default_settings(service: GameService) -> None:
    """A server that never changed anything plays English, a day a move, threads on request,
    in every channel."""
    settings = await service.settings.get(GUILD)
    assert (settings.variant, settings.move_time, settings.threads, settings.channels) == (
        "english",
        86400,
        "optional",
        (),
    )
    created = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB
    )
    assert created.challenge is not None
    assert (created.challenge.variant, created.challenge.move_time) == ("english", 86400)


async def test_only_moderators_change_settings(service: GameService) -> None:
    """A member without Manage Server cannot change anything; outside a server nothing."""
    with pytest.raises(ForbiddenError):
        await service.settings.change(GUILD, is_moderator=False, variant="international")
    with pytest.raises(ServiceError):
        await service.settings.change(None, is_moderator=True, variant="international")
    assert (await service.settings.get(GUILD)).variant == "english"
    assert await count_rows(service, "guild_settings") == 0


async def test_server_defaults_fill_in_a_challenge(service: GameService) -> None:
    """The server's variant and time per move apply when a challenge names none; an explicit
    choice still wins; another server keeps the defaults."""
    changed = await service.settings.change(
        GUILD, is_moderator=True, variant="International", move_time=3600
    )
    assert (changed.variant, changed.move_time) == ("international", 3600)
    created = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        variant=None,
        move_time=None,
    )
    assert created.challenge is not None
    assert (created.challenge.variant, created.challenge.move_time) == ("international", 3600)
    explicit = await service.challenge(
        guild_id=GUILD,
        channel_id=OTHER_CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        variant="english",
        move_time=60,
    )
    assert explicit.challenge is not None
    assert (explicit.challenge.variant, explicit.challenge.move_time) == ("english", 60)
    elsewhere = await service.challenge(
        guild_id=OTHER_GUILD, channel_id=THREAD, challenger=ALICE, opponent=BOB
    )
    assert elsewhere.challenge is not None and elsewhere.challenge.variant == "english"


async def test_threads_never(service: GameService) -> None:
    """Without threads a challenge cannot ask for one, and a busy channel takes no new game
    (refused outright, never as ThreadRequired), whether the challenge is new or was made
    before the setting changed."""
    await start(service)  # Alice v Bob now running in CHANNEL
    earlier = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=CAROL, opponent=DAVE
    )
    assert earlier.challenge is not None
    await service.settings.change(GUILD, is_moderator=True, threads="never")
    with pytest.raises(ChallengeError):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL + 1, challenger=ALICE, opponent=BOB, thread=True
        )
    with pytest.raises(ChallengeError) as refused:
        await service.accept(earlier.challenge.id, DAVE.id)
    assert not isinstance(refused.value, ThreadRequired)
    with pytest.raises(ChallengeError) as needs:
        await service.needs_thread(earlier.challenge.id)
    assert not isinstance(needs.value, ThreadRequired)
    assert (await service.challenge_view(earlier.challenge.id)).status == "open"
    for make in (service.check_challenge, service.challenge):
        with pytest.raises(ChallengeError) as checked:
            await make(guild_id=GUILD, channel_id=CHANNEL, challenger=DAVE, opponent=ALICE)
        assert not isinstance(checked.value, ThreadRequired)
    with pytest.raises(ChallengeError) as computer:
        await service.challenge(guild_id=GUILD, channel_id=CHANNEL, challenger=CAROL, opponent=BOT)
    assert not isinstance(computer.value, ThreadRequired)


async def test_threads_always(service: GameService) -> None:
    """Every game gets its own thread: the check says a thread is needed and accepting without
    one asks for it; inside a thread (parent given) no further thread is needed."""
    await service.settings.change(GUILD, is_moderator=True, threads="always")
    terms: dict[str, Any] = {"channel_id": CHANNEL, "challenger": ALICE, "opponent": BOB}
    assert await service.check_challenge(guild_id=GUILD, **terms) is True
    created = await service.challenge(guild_id=GUILD, **terms)
    assert created.challenge is not None and created.challenge.thread is True
    with pytest.raises(ThreadRequired):
        await service.accept(created.challenge.id, BOB.id)
    started = await service.accept(created.challenge.id, BOB.id, thread_id=THREAD)
    assert started.game is not None and started.game.channel_id == THREAD
    in_thread = await service.check_challenge(
        guild_id=GUILD, channel_id=THREAD + 1, parent_id=CHANNEL, challenger=CAROL, opponent=DAVE
    )
    assert in_thread is False


async def test_allowed_game_channels(service: GameService) -> None:
    """With a channel list, games are refused elsewhere (naming the allowed channels) and
    allowed in those channels and their threads; disallowing or resetting lifts the limit."""
    await service.settings.change(GUILD, is_moderator=True, allow=[CHANNEL])
    assert (await service.settings.get(GUILD)).channels == (CHANNEL,)
    with pytest.raises(ChallengeError, match=f"<#{CHANNEL}>"):
        await service.challenge(
            guild_id=GUILD, channel_id=OTHER_CHANNEL, challenger=ALICE, opponent=BOB
        )
    with pytest.raises(ChallengeError, match=f"<#{CHANNEL}>"):
        await service.challenge(
            guild_id=GUILD, channel_id=OTHER_CHANNEL, challenger=ALICE, opponent=BOT
        )
    ok = await service.challenge(guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB)
    assert ok.challenge is not None
    threaded = await service.challenge(
        guild_id=GUILD, channel_id=THREAD, parent_id=CHANNEL, challenger=ALICE, opponent=BOB
    )
    assert threaded.challenge is not None
    with pytest.raises(ChallengeError):
        await service.challenge(
            guild_id=GUILD,
            channel_id=THREAD + 1,
            parent_id=OTHER_CHANNEL,
            challenger=ALICE,
            opponent=BOB,
        )
    # Other servers are not limited.
    other = await service.challenge(
        guild_id=OTHER_GUILD, channel_id=OTHER_CHANNEL, challenger=ALICE, opponent=BOB
    )
    assert other.challenge is not None
    cleared = await service.settings.change(GUILD, is_moderator=True, disallow=[CHANNEL])
    assert cleared.channels == ()
    await service.settings.change(GUILD, is_moderator=True, allow=[CHANNEL, THREAD])
    reset = await service.settings.change(GUILD, is_moderator=True, all_channels=True)
    assert reset.channels == ()
    free = await service.challenge(
        guild_id=GUILD, channel_id=OTHER_CHANNEL + 1, challenger=ALICE, opponent=BOB
    )
    assert free.challenge is not None


@pytest.mark.parametrize(
    "change",
    [
        {"threads": "sometimes"},
        {"variant": "chess"},
        {"move_time": 0},
        {"move_time": -60},
        {"allow": [CHANNEL], "disallow": [CHANNEL]},
    ],
    ids=["threads", "variant", "zero-time", "negative-time", "allow-and-disallow"],
)
async def test_invalid_setting_refused(service: GameService, change: dict[str, Any]) -> None:
    """A bad value is refused with a reason and nothing is stored."""
    with pytest.raises(ChallengeError):
        await service.settings.change(GUILD, is_moderator=True, **change)
    assert await count_rows(service, "guild_settings") == 0
    assert await count_rows(service, "guild_channels") == 0


async def test_settings_persist_across_a_restart(database: Database, clock: Clock) -> None:
    """Settings live in the database, not in the process."""
    async with opened(database, clock) as service:
        await service.settings.change(
            GUILD,
            is_moderator=True,
            variant="russian",
            move_time=600,
            threads="never",
            allow=[CHANNEL, OTHER_CHANNEL],
        )
    async with opened(database, clock) as service:
        settings = await service.settings.get(GUILD)
        assert (settings.variant, settings.move_time, settings.threads, settings.channels) == (
            "russian",
            600,
            "never",
            (CHANNEL, OTHER_CHANNEL),
        )
        # A partial change keeps the rest.
        changed = await service.settings.change(GUILD, is_moderator=True, move_time=1200)
        assert (changed.variant, changed.threads, changed.move_time) == ("russian", "never", 1200)
