"""Issue 14, "play on a phone", at the service: moves shown in each variant's convention, the
move picker and the guarded tap-to-move, the last board message, board orientation and theme,
ratings on the board line, and users' preferences.  Real SQLite files through the harness.

Fair starts (abort, time-outs before a first move), challenge expiry, the last warning and direct
messages are in ``test_service_fair.py``.
"""

from __future__ import annotations

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    BOT_ID,
    CAPTURE_LINE,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Clock,
    Database,
    Services,
    challenge,
    play,
    replied,
    resigns,
    start,
    unchanged,
)

from bot.enums import BoardTheme, Orientation
from bot.errors import (
    ChallengeError,
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    PrefsError,
    StaleError,
)
from bot.results import Action, UserPrefs
from bot.service import GameService
from rules.game import Game
from rules.notation import Notation
from rules.variants import find_variant

STALE = "the position changed since this was shown; press Move again"


# -- notation -------------------------------------------------------------------------------------


async def test_a_russian_move_is_named_in_coordinates(service: GameService) -> None:
    view = await start(service, variant="russian")  # Bob (White) moves first
    assert view.notation is Notation.ALGEBRAIC and view.recent_moves == ""
    assert (view.last_move, view.last_move_shown) == (None, None)
    moved = await service.move(BOB.id, "22-18", game_id=view.id)  # typed in numbers...
    assert str(moved.text) == "Bob played c3-d4."  # ...shown in coordinates
    (played,) = moved.moves
    assert (played.pdn, played.shown) == ("22-18", "c3-d4")
    after = moved.game
    assert after is not None
    assert (after.last_move, after.last_move_shown, after.recent_moves) == (
        "22-18",
        "c3-d4",
        "1. c3-d4",
    )
    stored = await service.store.moves(view.id)
    assert [m.pdn for m in stored] == ["22-18"]  # the record stays PDN


@pytest.mark.parametrize(
    ("variant", "first", "shown"),
    [
        ("english", "11-15", "11-15"),
        ("brazilian", "c3-d4", "c3-d4"),
        ("international", "32-28", "32-28"),
        ("pool", "11-15", "11-15"),
        ("dame", "11-15", "11-15"),
    ],
)
async def test_each_variant_names_moves_its_own_way(
    service: GameService, variant: str, first: str, shown: str
) -> None:
    view = await start(service, variant=variant)
    assert view.to_move is not None
    moved = await service.move(view.to_move.id, first, game_id=view.id)
    assert f"played {shown}." in str(moved.text)
    assert moved.game is not None and moved.game.last_move_shown == shown
    assert moved.game.notation is find_variant(variant).notation


async def test_recent_moves_show_the_last_three_full_moves(service: GameService) -> None:
    view = await start(service)
    view = await play(service, view, CAPTURE_LINE[:7])
    assert view.recent_moves == "2. 8-11 22-17 3. 9-13 28-24 4. 13x22"
    view = await play(service, view, CAPTURE_LINE[7:8])
    assert view.recent_moves == "2. 8-11 22-17 3. 9-13 28-24 4. 13x22 26x17"
    view = await play(service, view, CAPTURE_LINE[8:])
    assert view.recent_moves == "3. 9-13 28-24 4. 13x22 26x17 5. 16-19"


async def test_a_refused_russian_move_names_squares_in_coordinates(service: GameService) -> None:
    view = await start(service, variant="russian")
    async with unchanged(service, view.id):
        with pytest.raises(IllegalMoveError) as info:
            await service.move(BOB.id, "c3-e5", game_id=view.id)
    assert str(info.value.reason).startswith("c3-e5 is not a legal move: the piece on c3 can go to")


async def test_autocomplete_shows_the_convention_and_keeps_pdn_values(
    service: GameService,
) -> None:
    await start(service, variant="russian")
    choices = await service.legal_moves(CHANNEL, BOB.id)
    assert [(c.name, c.value) for c in choices[:3]] == [
        ("a3-b4", "21-17"),
        ("c3-b4", "22-17"),
        ("c3-d4", "22-18"),
    ]
    assert [c.value for c in await service.legal_moves(CHANNEL, BOB.id, "c3")] == [
        "22-17",
        "22-18",
    ]
    assert [c.value for c in await service.legal_moves(CHANNEL, BOB.id, "22")] == [
        "22-17",
        "22-18",
    ]
    _, listed = await service.move_list(CHANNEL)
    assert listed[:2] == ["a3-b4", "c3-b4"]
    _, listed = await service.move_list(CHANNEL, Notation.NUMERIC)  # a viewer's preference
    assert listed[:2] == ["21-17", "22-17"]


async def test_the_computer_names_its_russian_move_in_coordinates(service: GameService) -> None:
    view = (await challenge(service, opponent=BOT, variant="russian", color="black")).game
    assert view is not None and view.to_move is not None and view.to_move.id == BOT_ID
    reply = await replied(service, view.id)
    (move,) = reply.moves
    names = find_variant("russian").geometry.names
    expected = "-".join(names[int(s)] for s in move.pdn.split("-"))
    assert move.shown == expected
    assert f"{BOT.name} played {expected}." in str(reply.text)


async def test_the_whole_move_list_in_any_notation(service: GameService) -> None:
    view = await start(service, variant="russian")
    view = await play(service, view, ["22-18", "11-15", "18x11"])
    shown, moves = await service.game_moves(view.id)
    assert shown == view
    assert moves == "1. c3-d4 f6-e5\n2. d4xf6"
    _, numeric = await service.game_moves(view.id, notation="numeric")
    assert numeric == "1. 22-18 11-15\n2. 18x11"
    # A viewer's preference is used when no notation is asked for.
    await service.readers.set_prefs(CAROL.id, notation=Notation.NUMERIC)
    assert (await service.game_moves(view.id, user_id=CAROL.id))[1] == numeric
    assert (await service.game_moves(view.id, user_id=ALICE.id))[1] == moves
    # A finished game too, and a game with no moves has an empty list.
    await service.resign(ALICE.id, game_id=view.id)
    ended, after = await service.game_moves(view.id, notation=Notation.ALGEBRAIC)
    assert not ended.running and after == moves
    fresh = await start(service, channel_id=OTHER_CHANNEL)
    assert (await service.game_moves(fresh.id))[1] == ""
    with pytest.raises(NotFoundError):
        await service.game_moves(4242)


# -- the move picker and tap-to-move --------------------------------------------------------------


async def test_the_picker_lists_the_legal_moves_of_the_board_pressed(
    service: GameService,
) -> None:
    view = await start(service)
    shown, moves = await service.picker(view.id, ALICE.id, 0)
    assert shown == view
    game = Game(find_variant("english"))
    assert sorted(m.pdn() for m in moves) == sorted(m.pdn() for m in game.legal_moves())
    # A capture is compulsory: only the captures, by path.
    view = await play(service, view, CAPTURE_LINE)
    _, moves = await service.picker(view.id, BOB.id, view.ply)
    assert [m.pdn() for m in moves] == ["23x16", "24x15x8"]
    # The game's lock is not held after the picker has answered.
    assert not service._live.lock(view.id).locked()


async def test_the_picker_refuses_clearly_and_changes_nothing(service: GameService) -> None:
    view = await start(service)
    async with unchanged(service, view.id):
        with pytest.raises(NotAPlayerError, match=f"only the players of game #{view.id} can move"):
            await service.picker(view.id, CAROL.id, 0)
        with pytest.raises(NotYourTurnError, match="it is Alice's turn"):
            await service.picker(view.id, BOB.id, 0)
    view = await play(service, view, ["11-15"])
    async with unchanged(service, view.id):
        with pytest.raises(StaleError) as info:
            await service.picker(view.id, BOB.id, 0)
        assert str(info.value.reason) == STALE
        # Opened without a ply (the Move button), a picker shows the position as it is now.
        current, moves = await service.picker(view.id, BOB.id, None)
        assert current.ply == 1 and moves
        with pytest.raises(NotYourTurnError):
            await service.picker(view.id, ALICE.id, None)
    with pytest.raises(NotFoundError):
        await service.picker(4242, ALICE.id, 0)
    await service.resign(ALICE.id, game_id=view.id)
    with pytest.raises(GameOverError):
        await service.picker(view.id, BOB.id, 1)


async def test_a_tapped_move_plays_only_in_the_position_it_was_picked_in(
    service: GameService,
) -> None:
    view = await start(service)
    await start(service, channel_id=OTHER_CHANNEL, challenger=CAROL)
    moved = await service.move(ALICE.id, "11-15", game_id=view.id, ply=0)
    assert moved.game is not None and moved.game.ply == 1
    async with unchanged(service, view.id):
        with pytest.raises(StaleError) as info:  # Alice's old board, pressed again
            await service.move(ALICE.id, "8-11", game_id=view.id, ply=0)
        assert str(info.value.reason) == STALE
        with pytest.raises(StaleError):  # Bob picked at ply 0, before Alice moved
            await service.move(BOB.id, "23-19", game_id=view.id, ply=0)
        # A game named by id must be the channel's when the channel is given.
        with pytest.raises(NotFoundError, match="not played in this channel"):
            await service.move(BOB.id, "23-19", game_id=view.id, channel_id=OTHER_CHANNEL, ply=1)
    played = await service.move(BOB.id, "23-19", game_id=view.id, channel_id=CHANNEL, ply=1)
    assert played.game is not None and played.game.ply == 2


# -- the last board message -----------------------------------------------------------------------


async def test_the_previous_board_is_handed_back_and_moves_still_land(
    service: GameService,
) -> None:
    view = await start(service)
    assert await service.board_posted(view.id, 1000) is None
    before = await service.store.game(view.id)
    moved = await service.move(ALICE.id, "11-15", game_id=view.id)
    assert await service.board_posted(view.id, 1001) == 1000
    assert await service.board_posted(view.id, 999) == 999  # an old board reported late
    after = await service.store.game(view.id)
    assert before is not None and after is not None
    assert after.version == before.version + 1  # the move's bump only
    assert after.board_message_id == 1001
    # The in-memory game did not go stale: the next move is accepted at once.
    assert moved.game is not None
    assert (await service.move(BOB.id, "23-19", game_id=view.id, ply=1)).game is not None


# -- orientation and theme ------------------------------------------------------------------------


async def test_the_orientation_is_fixed_on_each_game_at_its_start(service: GameService) -> None:
    settings = await service.settings.get(GUILD)
    assert (settings.orientation, settings.theme) == (Orientation.WHITE, BoardTheme.WOOD)
    first = await start(service)
    assert first.flip is False
    changed = await service.settings.change(
        GUILD, is_moderator=True, orientation="black", theme="contrast"
    )
    assert (changed.orientation, changed.theme) == (Orientation.BLACK, BoardTheme.CONTRAST)
    second = await start(service, channel_id=OTHER_CHANNEL)
    assert second.flip is True
    computer = (await challenge(service, opponent=BOT, channel_id=300)).game
    assert computer is not None and computer.flip is True
    await service.settings.change(GUILD, is_moderator=True, orientation=Orientation.WHITE)
    # Running games keep the way round they started with.
    assert (await service.game_view(first.id)).flip is False
    assert (await service.game_view(second.id)).flip is True
    moved = await service.move(ALICE.id, "11-15", game_id=second.id)
    assert moved.game is not None and moved.game.flip is True
    assert (await service.settings.get(GUILD)).theme is BoardTheme.CONTRAST
    assert (await service.settings.get(None)).orientation is Orientation.WHITE


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"orientation": "sideways"}, "orientation must be one of white, black"),
        ({"theme": "plaid"}, "theme must be one of wood, green, contrast"),
    ],
)
async def test_unknown_orientations_and_themes_are_refused(
    service: GameService, change: dict[str, str], reason: str
) -> None:
    with pytest.raises(ChallengeError, match=reason):
        await service.settings.change(GUILD, is_moderator=True, **change)  # type: ignore[arg-type]
    assert await service.store.settings(GUILD) is None


async def test_a_match_keeps_its_orientation_for_the_second_game(service: GameService) -> None:
    await service.settings.change(GUILD, is_moderator=True, orientation="black")
    first = await start(service, match=True)
    await service.settings.change(GUILD, is_moderator=True, orientation="white")
    ended = await resigns(service, ALICE.id, first.id)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    assert ended.follow_up.game.flip is True


# -- ratings on the board line --------------------------------------------------------------------


async def test_ratings_as_shown_at_the_start_stay_on_the_game(
    service: GameService, clock: Clock
) -> None:
    first = await start(service)
    assert (first.white_rating, first.black_rating) == ("1500?", "1500?")
    await resigns(service, BOB.id, first.id)  # Alice (Black) wins
    clock.advance(60)
    second = await start(service)
    stats = {
        p.id: (await service.standings.stats(GUILD, p, "english")).rating for p in (ALICE, BOB)
    }
    assert stats[ALICE.id] is not None and stats[BOB.id] is not None
    assert (second.black_rating, second.white_rating) == (
        stats[ALICE.id].shown,
        stats[BOB.id].shown,
    )
    # Later games do not change what this one shows.
    await service.resign(ALICE.id, game_id=second.id)
    assert (await service.game_view(second.id)).black_rating == stats[ALICE.id].shown


async def test_unrated_games_show_no_ratings(service: GameService) -> None:
    computer = (await challenge(service, opponent=BOT)).game
    assert computer is not None and (computer.white_rating, computer.black_rating) == (None, None)
    direct = await start(service, guild_id=None, channel_id=OTHER_CHANNEL)
    assert (direct.white_rating, direct.black_rating) == (None, None)


async def test_a_match_game_two_shows_the_ratings_game_one_left(service: GameService) -> None:
    first = await start(service, match=True)  # Alice Black, Bob White
    ended = await resigns(service, BOB.id, first.id)
    assert ended.follow_up is not None and ended.follow_up.game is not None
    second = ended.follow_up.game
    alice = (await service.standings.stats(GUILD, ALICE, "english")).rating
    bob = (await service.standings.stats(GUILD, BOB, "english")).rating
    assert alice is not None and bob is not None
    assert (second.white_rating, second.black_rating) == (alice.shown, bob.shown)
    assert second.white == ALICE


# -- preferences ----------------------------------------------------------------------------------


async def test_preferences_default_change_and_reset(database: Database, services: Services) -> None:
    service = await services.open(database)
    assert await service.readers.prefs(ALICE.id) == UserPrefs(ALICE.id)
    changed = await service.readers.set_prefs(ALICE.id, theme="green", dm_turn=True)
    assert changed == UserPrefs(ALICE.id, theme=BoardTheme.GREEN, dm_turn=True)
    changed = await service.readers.set_prefs(
        ALICE.id, notation=Notation.ALGEBRAIC, last_warning=True, dm_turn=False
    )
    assert changed == UserPrefs(
        ALICE.id, BoardTheme.GREEN, Notation.ALGEBRAIC, dm_turn=False, last_warning=True
    )
    assert await service.readers.set_prefs(ALICE.id) == changed  # nothing asked, nothing changed
    await service.close()
    again = await services.open(database)  # kept across a restart, and per user
    assert await again.readers.prefs(ALICE.id) == changed
    assert await again.readers.prefs(BOB.id) == UserPrefs(BOB.id)
    reset = await again.readers.set_prefs(ALICE.id, theme="", notation="")
    assert (reset.theme, reset.notation, reset.last_warning) == (None, None, True)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"theme": "plaid"}, "the theme must be one of wood, green, contrast"),
        ({"notation": "klingon"}, "the notation must be one of numeric, algebraic"),
    ],
)
async def test_unknown_preferences_are_refused(
    service: GameService, change: dict[str, str], reason: str
) -> None:
    with pytest.raises(PrefsError, match=reason):
        await service.readers.set_prefs(ALICE.id, **change)  # type: ignore[arg-type]
    assert await service.store.prefs(ALICE.id) is None


async def test_the_game_started_announcement_reads_the_same(service: GameService) -> None:
    started = await challenge(service)
    assert started.challenge is not None
    result = await service.accept(started.challenge.id, BOB.id)
    assert result.action is Action.GAME_STARTED
    assert str(result.text) == "New game."


# -- a draw offer's message -----------------------------------------------------------------------


async def test_a_draw_offers_message_is_over_once_a_takeback_withdraws_it(
    service: GameService,
) -> None:
    """Each way a draw offer ends hands its message back once, so its buttons go: here a
    takeback (the offer stood until then), then a decline of a second offer, with the
    bookkeeping the Discord layer calls after posting (``shown`` with the settled game)."""
    view = await start(service)
    await service.move(ALICE.id, "11-15", game_id=view.id)
    await service.move(BOB.id, "23-19", game_id=view.id)
    offered = await service.offer_draw(ALICE.id, game_id=view.id)
    assert offered.action is Action.DRAW_OFFERED
    assert await service.offer_posted(view.id, 900) is True
    assert await service.offer_over(view.id) is None  # the offer stands
    asked = await service.request_takeback(ALICE.id, game_id=view.id)
    assert asked.action is Action.TAKEBACK_OFFERED
    assert await service.shown(None, (), None, [view.id]) == {}  # the offer still stands
    taken = await service.answer_takeback(BOB.id, True, game_id=view.id)
    assert taken.game is not None and taken.game.draw_offer is None
    assert await service.shown(None, [(view.id, 901)], None, [view.id]) == {view.id: [900]}
    assert await service.offer_over(view.id) is None  # once
    await service.move(ALICE.id, "11-15", game_id=view.id)  # both move again: a draw may be
    await service.move(BOB.id, "23-19", game_id=view.id)  # offered (the takeback undid both)
    await service.offer_draw(BOB.id, game_id=view.id)  # Alice offered one moves ago: Bob
    assert await service.offer_posted(view.id, 902) is True
    declined = await service.decline_draw(ALICE.id, game_id=view.id)
    assert declined.game is not None and declined.game.draw_offer is None
    assert await service.offer_over(view.id) == 902
