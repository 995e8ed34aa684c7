"""The storage contract of schema v7 ("play on a phone"), run against every implementation like
``test_store_contract.py``: what a game fixes at its start (orientation, ratings shown), the last
warning's time, the last board message, a draw offer's message (v10), a match's second game built
from the first one's ladder change, users' preferences and the new server settings.  Protocol
methods only.
"""

from __future__ import annotations

from support.store_backends import FINISHED, T0, new_game

from bot.enums import GameStatus
from bot.store import LadderChange, NewGame, RatedGame, RatingRow, Store


def rating_row(user_id: int, rating: float, deviation: float = 80.0) -> RatingRow:
    return RatingRow(10, user_id, "english", rating, deviation, 0.06, 1, T0, "", 1, 0, 0, "W", 1)


# -- what a game keeps from its start -------------------------------------------------------------


async def test_a_new_game_has_no_orientation_ratings_or_board_by_default(store: Store) -> None:
    row = await store.game(await store.start_game(new_game()))
    assert row is not None
    assert (row.flip, row.white_rating_shown, row.black_rating_shown) == (False, None, None)
    assert (row.board_message_id, row.warn_at) == (None, None)


async def test_orientation_ratings_and_last_warning_read_back_as_written(store: Store) -> None:
    game_id = await store.start_game(
        new_game(flip=True, white_rating_shown="1523", black_rating_shown="1500?", warn_at=T0 + 9)
    )
    row = await store.game(game_id)
    assert row is not None
    assert (row.flip, row.white_rating_shown, row.black_rating_shown, row.warn_at) == (
        True,
        "1523",
        "1500?",
        T0 + 9,
    )
    await store.update_game(game_id, 0, {"warn_at": None})
    row = await store.game(game_id)
    assert row is not None and (row.warn_at, row.flip, row.version) == (None, True, 1)


async def test_a_last_warning_due_is_a_reminder_unless_the_deadline_passed(store: Store) -> None:
    warned = await store.start_game(new_game(deadline=T0 + 90, remind_at=T0 + 50, warn_at=T0 + 10))
    await store.start_game(
        new_game(channel_id=101, deadline=T0 + 90, remind_at=T0 + 50, warn_at=T0 + 60)
    )
    late = await store.start_game(
        new_game(channel_id=102, deadline=T0 + 15, remind_at=None, warn_at=T0 + 10)
    )
    timeouts, reminders = await store.due_games(T0 + 20)
    assert [g.id for g in timeouts] == [late]
    assert [g.id for g in reminders] == [warned]


# -- the last board message -----------------------------------------------------------------------


async def test_the_last_board_message_is_kept_without_touching_the_game(store: Store) -> None:
    game_id = await store.start_game(new_game())
    assert await store.board_posted(game_id, 500) is None
    assert await store.board_posted(game_id, 700) == 500
    assert await store.board_posted(game_id, 700) is None  # reported twice: nothing to strip
    # A board posted earlier but reported late is the one that loses its buttons.
    assert await store.board_posted(game_id, 600) == 600
    row = await store.game(game_id)
    assert row is not None and (row.board_message_id, row.version) == (700, 0)
    await store.update_game(game_id, 0, {"updated_at": T0 + 1})  # the guard is unaffected
    assert await store.board_posted(game_id, 900) == 700
    assert await store.board_posted(4242, 1) is None  # no such game: nothing happens


# -- a draw offer's message (schema v10) ----------------------------------------------------------


async def test_a_draw_offers_message_is_given_back_once_when_the_offer_is_over(
    store: Store,
) -> None:
    game_id = await store.start_game(new_game())
    assert await store.offer_posted(game_id, 800) is False  # no offer pending: not remembered
    assert await store.offer_over(game_id) is None
    await store.update_game(game_id, 0, {"draw_offer": "black"})
    assert await store.offer_posted(game_id, 801) is True
    assert await store.offer_over(game_id) is None  # the offer stands
    row = await store.game(game_id)
    assert row is not None and (row.offer_message_id, row.version) == (801, 1)
    await store.update_game(game_id, 1, {"draw_offer": None})  # declined, or a move answered it
    assert await store.offer_over(game_id) == 801
    assert await store.offer_over(game_id) is None  # once
    assert await store.offer_over(4242) is None  # no such game: nothing happens


async def test_a_draw_offers_message_is_over_when_the_game_ends(store: Store) -> None:
    game_id = await store.start_game(new_game())
    await store.update_game(game_id, 0, {"draw_offer": "white"})
    assert await store.offer_posted(game_id, 900) is True
    await store.update_game(game_id, 1, {"status": GameStatus.FINISHED, "result": "1/2-1/2"})
    assert await store.offer_over(game_id) == 900


# -- a match's second game, built from the first one's ladder change -----------------------------


async def test_a_follow_up_is_built_from_the_ladder_change_in_the_transaction(
    store: Store,
) -> None:
    first = await store.start_game(new_game(first_of_match=True))
    changes: list[LadderChange | None] = []

    def rate(white: RatingRow | None, black: RatingRow | None) -> LadderChange:
        return LadderChange(rating_row(1, 1612.0), rating_row(2, 1388.0), 12.0, -12.0)

    def second(change: LadderChange | None) -> NewGame:
        changes.append(change)
        assert change is not None
        return new_game(
            white_id=2,
            black_id=1,
            match_id=first,
            white_rating_shown=str(round(change.black.rating)),
            black_rating_shown=str(round(change.white.rating)),
        )

    rated = RatedGame(10, "english", 1, 2, rate)
    await store.update_game(first, 0, FINISHED, rated=rated, follow_up=second)
    assert len(changes) == 1
    games = await store.match_games(first)
    assert [g.status for g in games] == [GameStatus.FINISHED, GameStatus.RUNNING]
    assert (games[1].white_rating_shown, games[1].black_rating_shown) == ("1388", "1612")


async def test_an_unrated_follow_up_is_built_without_a_change(store: Store) -> None:
    first = await store.start_game(new_game(first_of_match=True, rated=False))
    seen: list[LadderChange | None] = []

    def second(change: LadderChange | None) -> NewGame:
        seen.append(change)
        return new_game(match_id=first)

    await store.update_game(first, 0, FINISHED, follow_up=second)
    assert seen == [None]
    assert len(await store.match_games(first)) == 2


# -- users' preferences ---------------------------------------------------------------------------


async def test_preferences_start_from_the_defaults_and_change_one_at_a_time(
    store: Store,
) -> None:
    assert await store.prefs(1) is None
    await store.save_prefs(1, {"dm_turn": True}, when=T0)
    row = await store.prefs(1)
    assert row is not None
    assert (row.user_id, row.theme, row.notation, row.dm_turn, row.last_warning) == (
        1,
        "",
        "",
        True,
        False,
    )
    assert row.updated_at == T0
    await store.save_prefs(
        1, {"theme": "green", "notation": "algebraic", "last_warning": True}, when=T0 + 5
    )
    row = await store.prefs(1)
    assert row is not None
    assert (row.theme, row.notation, row.dm_turn, row.last_warning, row.updated_at) == (
        "green",
        "algebraic",
        True,
        True,
        T0 + 5,
    )
    await store.save_prefs(1, {"theme": "", "dm_turn": False}, when=T0 + 6)
    row = await store.prefs(1)
    assert row is not None and (row.theme, row.dm_turn, row.notation) == ("", False, "algebraic")
    assert await store.prefs(2) is None  # one user's preferences are theirs alone


# -- server settings ------------------------------------------------------------------------------


async def test_orientation_and_theme_are_server_settings(store: Store) -> None:
    await store.save_settings(10, {"variant": "dame"}, when=T0)
    row = await store.settings(10)
    assert row is not None and (row.orientation, row.theme) == ("white", "")
    await store.save_settings(10, {"orientation": "black", "theme": "contrast"}, when=T0 + 1)
    row = await store.settings(10)
    assert row is not None
    assert (row.variant, row.orientation, row.theme) == ("dame", "black", "contrast")
