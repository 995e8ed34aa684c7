"""A quiet channel and honest results, at the service: no result before both players have
moved (resigning aborts, unrated; a draw cannot be offered), one draw offer or takeback request
per player every few moves, and a game's end told in words, never as a bare result code."""

from __future__ import annotations

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    CHANNEL,
    count_rows,
    play,
    start,
    start_moved,
    unchanged,
)

from bot.errors import DrawError, GameOverError, TakebackError
from bot.results import Action, GameView
from bot.service import GameService


async def play_on(service: GameService, view: GameView, plies: int) -> GameView:
    """``plies`` more moves, each the first legal one of whoever is to move."""
    for _ in range(plies):
        assert view.to_move is not None
        moves = await service.legal_moves(view.channel_id, view.to_move.id)
        played = await service.move(view.to_move.id, moves[0].value, game_id=view.id)
        assert played.game is not None and played.game.running
        view = played.game
    return view


# -- no result before both players have moved ---------------------------------------------------


async def test_resigning_before_both_have_moved_aborts_unrated(service: GameService) -> None:
    """Bob resigning before any move once made Alice win a rated game (+117/-88): two accounts
    could farm the ladder.  It aborts the game now, as a loss on time before the first move
    does: no result, no rating, nothing rated in the store."""
    view = await start(service)
    assert view.rated is True
    ended = await service.resign(BOB.id, channel_id=CHANNEL)
    assert ended.action is Action.ABORTED and ended.game is not None
    assert ended.game.status == "aborted" and ended.game.winner is None
    assert str(ended.text) == (
        "Bob resigned before both players had moved, so game #1 (Bob v Alice) is aborted: "
        "no result, unrated."
    )
    assert "Ratings:" not in str(ended.text)
    row = await service.store.game(view.id)
    assert row is not None and row.status == "aborted" and row.winner is None
    assert row.white_rating_change is None and row.black_rating_change is None
    assert await count_rows(service, "ratings") == 0


async def test_resigning_after_one_move_only_still_aborts(service: GameService) -> None:
    """The rule is the abort rule's: until both players have made a move of their own."""
    view = await play(service, await start(service), ["11-15"])  # Alice moved, Bob not yet
    ended = await service.resign(ALICE.id, game_id=view.id)
    assert ended.action is Action.ABORTED and await count_rows(service, "ratings") == 0


async def test_resigning_once_both_have_moved_is_a_rated_loss(service: GameService) -> None:
    view = await start_moved(service)
    ended = await service.resign(BOB.id, game_id=view.id)
    assert ended.action is Action.RESIGNED and ended.game is not None
    assert ended.game.winner == ALICE and "Ratings:" in str(ended.text)
    assert await count_rows(service, "ratings") == 2


async def test_no_draw_offer_before_both_have_moved(service: GameService) -> None:
    view = await play(service, await start(service), ["11-15"])
    async with unchanged(service, view.id):
        with pytest.raises(DrawError, match="once both players have moved"):
            await service.offer_draw(BOB.id, game_id=view.id)


# -- one ask per player every few moves --------------------------------------------------------


async def test_a_declined_draw_is_not_offered_again_for_five_moves(service: GameService) -> None:
    """Each offer pings the opponent: after Alice's offer (declined, or answered by a move),
    Alice offers again only ten plies later; Bob may offer meanwhile."""
    view = await start_moved(service)  # ply 2, Alice (Black) to move
    await service.offer_draw(ALICE.id, game_id=view.id)
    await service.decline_draw(BOB.id, game_id=view.id)
    async with unchanged(service, view.id):
        with pytest.raises(DrawError, match="offer again from move 7"):
            await service.offer_draw(ALICE.id, game_id=view.id)
    view = await play_on(service, view, 8)  # ply 10: Alice to move, move 6
    assert view.move_number == 6
    with pytest.raises(DrawError, match="offer again from move 7"):
        await service.offer_draw(ALICE.id, game_id=view.id)
    offered = await service.offer_draw(BOB.id, game_id=view.id)  # the other player may
    assert offered.action is Action.DRAW_OFFERED
    view = await play_on(service, view, 1)  # Alice plays on: Bob's offer is declined
    assert view.draw_offer is None
    with pytest.raises(DrawError, match="offer again from move 7"):
        await service.offer_draw(ALICE.id, game_id=view.id)
    view = await play_on(service, view, 1)
    assert view.ply == 12 and view.move_number == 7
    again = await service.offer_draw(ALICE.id, game_id=view.id)
    assert again.action is Action.DRAW_OFFERED and again.mentions == (BOB.id,)


async def test_an_offer_answered_by_a_move_counts_too(service: GameService) -> None:
    view = await start_moved(service)
    await service.offer_draw(BOB.id, game_id=view.id)  # out of turn
    view = await play(service, view, ["8-11", "22-18"])  # Bob plays on
    with pytest.raises(DrawError, match="offer again from move 7"):
        await service.offer_draw(BOB.id, game_id=view.id)


async def test_a_takeback_request_waits_five_moves_unless_granted(service: GameService) -> None:
    view = await start_moved(service)  # ply 2: Alice to move
    await service.request_takeback(ALICE.id, game_id=view.id)
    await service.answer_takeback(BOB.id, False, game_id=view.id)
    view = await play(service, view, ["8-11", "22-18"])  # a new position: no longer the rule
    async with unchanged(service, view.id):
        with pytest.raises(TakebackError, match="ask again from move 7"):
            await service.request_takeback(ALICE.id, game_id=view.id)
    await service.request_takeback(BOB.id, game_id=view.id)  # Bob has not asked
    granted = await service.answer_takeback(ALICE.id, True, game_id=view.id)
    assert granted.action is Action.TAKEBACK_ACCEPTED and granted.game is not None
    await service.request_takeback(BOB.id, game_id=view.id)  # granted: no pause
    declined = await service.answer_takeback(ALICE.id, False, game_id=view.id)
    assert declined.action is Action.TAKEBACK_DECLINED


# -- a game's end in words ---------------------------------------------------------------------


async def test_an_action_on_an_aborted_game_says_aborted_not_a_code(service: GameService) -> None:
    """``Game #1 is over (* aborted).`` leaked the stored result code of an aborted game."""
    view = await start(service)
    await service.abort(ALICE.id, game_id=view.id)
    with pytest.raises(GameOverError) as refused:
        await service.move(ALICE.id, "11-15", game_id=view.id)
    assert str(refused.value) == "game #1 was aborted, with no result"
    assert "*" not in str(refused.value)


async def test_an_action_on_a_won_game_names_the_winner(service: GameService) -> None:
    view = await start_moved(service)
    await service.resign(BOB.id, game_id=view.id)
    with pytest.raises(GameOverError) as refused:
        await service.offer_draw(ALICE.id, game_id=view.id)
    assert str(refused.value) == "game #1 is over: Alice wins, 0-1 (White resigned)"
