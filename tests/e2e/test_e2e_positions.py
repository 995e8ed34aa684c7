"""Play from a position against the computer, with a hint, in the running bot (issue 30): one
scenario.  A malformed position is refused privately and nothing is stored; a FEN starts an
unrated game there (its board says so and offers Hint); a spectator's Hint is refused privately;
the player's Hint is deferred privately at once, then shows the computer's move as an arrow on
their side of the board (a real PNG with alt text); the game counts it, the next boards say so,
and so do the final board and its PDN (with the start position)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    Launch,
    RecordedRequest,
    Sent,
    attachments_of,
    content_of,
    custom_ids,
    db_rows,
    embed_of,
    footer_of,
    headline_of,
    is_ephemeral,
    png_of,
    post_number,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord

from rules import Game, find_variant, parse_fen, read_game

pytestmark = pytest.mark.e2e

FEN = "W:W21,22,25:B9,10,K30"
"""English, White to move: Alice (White) against the computer from here."""
DEFERRED, MESSAGE = 5, 4
HINTED = re.compile(r"Hint for game #1: the computer would play \*\*(\S+)\*\* \(the arrow\)\. ")


async def first_answer(sent: Sent) -> RecordedRequest:
    """The interaction's answer: its first response, or the deferred one filled in."""
    answer = await sent.callback()
    if answer.json["type"] == DEFERRED:
        return await sent.original_edit()
    return answer


async def test_a_game_from_a_position_against_the_computer_with_a_hint(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    me = str(fake.bot_user["id"])
    terms: dict[str, Any] = {"opponent": user(me), "variant": "english", "color": "white"}

    # A position off the board: refused privately, nothing stored.
    refused = await first_answer(
        await users.command("challenge", ALICE, GENERAL, position="W:W21,33:B9", **terms)
    )
    assert is_ephemeral(refused)
    assert "square 33 is not on the board (1-32)" in content_of(refused)
    assert db_rows(bot.database, "SELECT count(*) FROM games") == [(0,)]

    # From the position: an unrated game, White (Alice) to move, with a Hint button.
    started = await users.command("challenge", ALICE, GENERAL, position=FEN, level=1, **terms)
    start = await first_answer(started)
    assert not is_ephemeral(start)
    embed = embed_of(start)
    assert (headline_of(embed) or "").startswith("New game, from a position of its own (unrated).")
    assert f"Started from `{FEN}`" in embed["description"]
    assert footer_of(embed).endswith("casual") and to_move_in(start) == ALICE
    assert "board:hint:1" in custom_ids(start)
    png_of(start)
    board = started.message()

    # A spectator's press is refused privately (after the private "thinking" every press gets).
    spectator = await users.press("board:hint:1", board, BOB)
    assert is_ephemeral(await spectator.callback())
    assert "not playing in this game" in content_of(await spectator.original_edit())

    # Alice's: "thinking" privately at once, then the hint with its picture.
    pressed = await users.press("board:hint:1", board, ALICE)
    thinking = await pressed.callback()
    assert thinking.json["type"] == DEFERRED and is_ephemeral(thinking)
    hint = await pressed.original_edit()
    said = HINTED.match(content_of(hint))
    assert said, content_of(hint)
    variant = find_variant("english")
    legal = {m.pdn() for m in Game(variant, parse_fen(FEN, variant)).legal_moves()}
    assert said[1] in legal
    assert "1 hint taken in this game" in content_of(hint)
    (picture,) = attachments_of(hint)
    assert picture.filename == "hint-1-0.png" and picture.is_image
    assert picture.description is not None
    assert picture.description.endswith(f"The arrow shows the hint, {said[1]}.")
    assert png_of(hint).width > 330
    assert db_rows(bot.database, "SELECT hints FROM games WHERE id = 1") == [(1,)]

    # Alice plays it; the computer answers; the boards say a hint was taken.
    moved = await first_answer(await users.command("move", ALICE, GENERAL, move=said[1]))
    assert "1 hint taken" in embed_of(moved)["description"]
    reply = await post_number(users, GENERAL, 0)
    assert to_move_in(reply) == ALICE and "1 hint taken" in embed_of(reply)["description"]

    # Alice resigns: the final board and its PDN say where the game started and the hint.
    resign = await users.command("resign", ALICE, GENERAL)
    await resign.callback()
    pressed = await users.press("resign:1", resign.message(), ALICE)
    await pressed.callback()
    final = await pressed.followup(0)
    assert "1 hint taken" in embed_of(final)["description"]
    assert footer_of(embed_of(final)).endswith("casual")
    record = read_game(final.files["draughts-game-1.pdn"])
    assert record.tags["FEN"] == FEN and record.tags["Hints"] == "1"
    assert record.game.start.fen() == FEN and record.game.moves[0].pdn() == said[1]
