"""End to end, ``/import``: a PDN file attached to the command (its bytes fetched from the fake
Discord's attachment url, as from Discord's CDN) is shown to the channel as an animated replay
with its buttons, what the reader repaired is told to the importer alone, and a position of the
game is chosen, by taps, to play on from."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    Launch,
    Sent,
    attachment,
    content_of,
    custom_ids,
    is_ephemeral,
)
from support.fake_discord import FakeDiscord
from support.pdn_import_samples import random_game, read_sample
from test_e2e_faults import game_row

pytestmark = pytest.mark.e2e


async def test_import_shows_the_replay_then_a_position_to_play_from(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    text = read_sample("star_result.pdn")
    game = random_game("english", 5, 30)
    sent = await users.command("import", ALICE, GENERAL, file=attachment("club.pdn", text.encode()))

    # The game goes to the channel: the card, the animated replay (a frame per ply), the buttons.
    shown = await sent.original_edit()
    assert not is_ephemeral(shown)
    assert content_of(shown).startswith(
        "Imported game #1: Ada v Bo (English draughts / American checkers), 1-0 after 30 plies."
    )
    (name,) = shown.files
    gif = Image.open(io.BytesIO(shown.files[name]))
    assert gif.format == "GIF" and gif.is_animated and gif.n_frames == len(game.moves) + 1
    assert custom_ids(shown) == ["import:replay:1", "import:analyse:1", "import:play:1"]
    assert "Animated replay of imported game #1" in shown.json["attachments"][0]["description"]

    # What the reader repaired, to Alice alone.
    repaired = await sent.followup(0)
    assert is_ephemeral(repaired)
    assert "The file was not quite PDN" in content_of(repaired)
    assert "read as the Result tag's 1-0" in content_of(repaired)

    # Bob's Replay of Alice's import is his alone (as /replay keeps spectators' replays private).
    again = await users.press("import:replay:1", sent.message(), BOB)
    deferred = await again.callback()
    assert deferred.json["type"] == 5 and deferred.json["data"]["flags"] & 64
    replayed = await again.original_edit()
    assert "someone else imported are private" in content_of(replayed)
    assert list(replayed.files) == [name] and not custom_ids(replayed)

    # Play from here: a private panel of the positions, opened on the final one's page.
    pressed = await users.press("import:play:1", sent.message(), ALICE)
    panel = await pressed.callback()
    assert is_ephemeral(panel)
    assert custom_ids(panel) == ["import:ply:1:1", "import:page:1:0"]
    (menu,) = [
        c for row in panel.json["data"]["components"] for c in row["components"] if c["type"] == 3
    ]
    assert menu["options"][-1]["label"].endswith("(final position)")

    # A tap on an earlier page, then on ply 10: that position, drawn, with its FEN.
    earlier = await users.press("import:page:1:0", pressed.message(), ALICE)
    first_page = await earlier.callback()
    assert custom_ids(first_page)[0] == "import:ply:1:0"
    chosen = await users.select("import:ply:1:0", earlier.message(), ALICE, ["10"])
    position = await chosen.callback()
    assert is_ephemeral(position)
    fen = game.positions[10].fen()
    assert f"`{fen}`" in content_of(position)
    assert re.search(r"at 5\.\.\. \d+[-x]\d+", content_of(position))
    (png,) = position.files.values()
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert custom_ids(position) == ["import:open:1:10", "import:computer:1:10"]

    # Play the computer from there: the game starts in the channel from that position, Alice on
    # the side to move (Black moves first in English: after 10 plies, Black), unrated.
    playing = await users.press("import:computer:1:10", chosen.message(), ALICE)
    started = await playing.callback()
    assert not is_ephemeral(started)
    row = game_row(bot.database, 1)
    assert (row["black_id"], row["rated"]) == (int(ALICE), 0)
    assert row["start_fen"] == row["fen"] == fen and row["ply"] == 0

    # Refused privately: a file too large by Discord's own count (before it is downloaded: its
    # one byte would read as no game), pasted text that is no PDN.
    big = await users.command(
        "import", ALICE, GENERAL, file=attachment("big.pdn", b"*", size=2_000_000)
    )
    assert (
        await refusal(big)
        == "The file is 2,000,000 bytes; at most 1,000,000 bytes can be imported."
    )
    pasted = await users.command("import", ALICE, GENERAL, text="hello there")
    assert (await refusal(pasted)).startswith("No game found: PDN has tags like")


async def refusal(sent: Sent) -> str:
    answer = await sent.callback()
    assert is_ephemeral(answer) and not custom_ids(answer), answer.json
    return content_of(answer)
