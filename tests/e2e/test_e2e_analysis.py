"""Post-game analysis end to end: the real bot (its engine in worker processes) against the fake
Discord.  One scenario: a game is played and resigned, a spectator taps Analyse on its final
board and gets, privately and after a deferral, the graph (a PNG with alt text), both players'
accuracy and judgements, and the annotated PDN; a player's ``/analyse`` of the same game is
answered from the store with the same analysis; an unknown game is refused privately."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    Sent,
    attachments_of,
    content_of,
    custom_ids,
    embed_of,
    is_ephemeral,
)
from support.fake_discord import FakeDiscord
from test_e2e_game import move, start_game

from rules.pdn import parse_pdn, read_game

pytestmark = pytest.mark.e2e

DEFERRED = 5
PLAYED = ["11-15", "22-18"]


async def private_answer(sent: Sent) -> Any:
    """The answer to ``sent``: a private "thinking…" first, then that message filled in."""
    callback = await sent.callback()
    assert callback.json["type"] == DEFERRED and is_ephemeral(callback), callback.json
    return await sent.original_edit()


async def test_tap_analyse_on_a_finished_game(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    await start_game(users, ALICE, BOB, challenge_id=1, game_id=1)
    for number, text in enumerate(PLAYED):
        await move(users, (ALICE, BOB)[number % 2], text)
    resign = await users.command("resign", ALICE, GENERAL)
    await resign.callback()
    pressed = await users.press("resign:1", resign.message(), ALICE)
    final = await pressed.followup(0)
    assert custom_ids(final) == ["board:moves:1", "rematch:1", "analyse:1"]
    board = fake.message_of(final)
    assert board is not None

    # A spectator taps Analyse: deferred privately, then the analysis.
    tapped = await users.press("analyse:1", board, CAROL)
    answer = await private_answer(tapped)
    embed = embed_of(answer)
    assert embed["title"] == "Engine analysis: Game #1"
    white, black = embed["fields"]
    assert white["name"].startswith("Bob (White): accuracy ")
    assert black["name"].startswith("Alice (Black): accuracy ")
    assert "Scores in men from White's side" in embed["footer"]["text"]
    graph, record = attachments_of(answer)
    assert graph.filename == "draughts-game-1-analysis.png" and graph.description
    assert graph.description.startswith("Evaluation graph of Game #1")
    assert embed["image"]["url"] == f"attachment://{graph.filename}"
    image = Image.open(io.BytesIO(graph.data))
    assert image.format == "PNG" and image.width == 640
    assert record.filename == "draughts-game-1-analysis.pdn"
    pdn = record.data.decode()
    read = read_game(pdn)
    assert [m.pdn() for m in read.game.moves] == PLAYED and read.game.result() == "1-0"
    assert read.tags["Annotator"] == "Engine analysis" and read.tags["White"] == "Bob"
    assert pdn.count("[%eval ") == len(PLAYED)
    # The board keeps its buttons; nothing public was posted for the spectator.
    assert custom_ids(fake.messages[board["id"]]) == custom_ids(final)

    # A player asks by /analyse (the channel's last finished game): the stored analysis.
    again = await users.command("analyse", BOB, GENERAL)
    shown = await private_answer(again)
    assert embed_of(shown)["fields"] == embed["fields"]
    [[_, stored]] = [
        [u.filename, u.data] for u in attachments_of(shown) if u.filename.endswith(".pdn")
    ]
    assert parse_pdn(stored)[0].moves == parse_pdn(record.data)[0].moves
    assert stored == record.data

    # An unknown game: refused privately, in words.
    unknown = await users.command("analyse", ALICE, GENERAL, game=99)
    refused = await private_answer(unknown)
    assert content_of(refused) == "There is no game #99 on this server."
    assert not attachments_of(refused)
