"""End to end, a quiet channel (issue 28): a spectator's ``/board`` answered privately while the
game's board is in view, a user's repeated ``/board`` shown only to them with when they may
post again, resigning before any move aborting the game (unrated, no replay GIF), a spectator's
``/replay`` private, and the aborted game's refusal worded, never ``* aborted``.

One scenario, several checks, in a few seconds: the limits are counted in the bot's memory, so
nothing waits for them to run out (bot/ui/cooldowns.py's own tests move a clock instead).
"""

from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest
from PIL import Image
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    Launch,
    content_of,
    custom_ids,
    embed_of,
    first_answer,
    footer_parts,
    headline_of,
    is_ephemeral,
    png_of,
    poll,
)
from support.fake_discord import FakeDiscord
from test_e2e_faults import game_row
from test_e2e_social import DEFERRED_MESSAGE, MESSAGE, human_game, resign

pytestmark = pytest.mark.e2e


def gifs_posted(fake: FakeDiscord) -> list[str]:
    """Every GIF the bot sent anywhere, by file name."""
    return [name for r in fake.requests for name in r.files if name.endswith(".gif")]


async def test_a_quiet_channel(launch: Launch, fake: FakeDiscord) -> None:
    bot, users = await launch()
    game_id, first_board = await human_game(users, ALICE, BOB)  # Alice White, Bob Black
    # the board message is written down just after it is posted (within 20 ms, retried)
    await bot.alive(poll(lambda: game_row(bot.database, game_id)["board_message_id"], 10))

    # A spectator's /board just after the board was posted: only Carol sees it.
    spectator = await (await users.command("board", CAROL, GENERAL)).callback()
    assert spectator.json["type"] == MESSAGE and is_ephemeral(spectator), spectator.json
    assert content_of(spectator) == (
        "Only you see this board: the game's current board is just above in the channel."
    )
    assert png_of(spectator).size == png_of(first_board).size
    assert custom_ids(spectator) == []  # the buttons stay on the public board

    # A player's /board goes out for everyone; asked again at once, it is shown to them alone,
    # saying when they may post one again (a Discord timestamp, 30 s on).
    asked_at = time.time()
    public = await (await users.command("board", ALICE, GENERAL)).callback()
    assert public.json["type"] == MESSAGE and not is_ephemeral(public), public.json
    again = await (await users.command("board", ALICE, GENERAL)).callback()
    assert again.json["type"] == MESSAGE and is_ephemeral(again), again.json
    said = re.fullmatch(
        r"Only you see this board: boards were just posted here; you can post one for "
        r"everyone again <t:(\d+):R>\.",
        content_of(again),
    )
    assert said is not None, content_of(again)
    assert asked_at + 25 <= int(said[1]) <= time.time() + 31

    # Alice asks to resign (a private question), but Bob resigns first, before anyone moved:
    # the game is aborted, unrated, and no replay is posted.
    alice_asks = await users.command("resign", ALICE, GENERAL)
    assert custom_ids(await alice_asks.callback()) == [f"resign:{game_id}"]
    pressed = await resign(users, BOB, GENERAL, game_id)
    end = await pressed.followup(0)
    assert not is_ephemeral(end)
    embed = embed_of(end)
    assert headline_of(embed) == (
        f"Bob resigned before both players had moved, so game #{game_id} (Alice v Bob) is "
        "aborted: no result, unrated."
    )
    assert "Ratings:" not in embed["description"] and "aborted, unrated" in footer_parts(embed)
    assert "Aborted: no result" in embed["description"]
    assert gifs_posted(fake) == []

    # A spectator's /replay of it is private ("thinking" for Carol only, then the GIF).
    sent = await users.command("replay", CAROL, GENERAL, game=game_id)
    deferred = await sent.callback()
    assert deferred.json["type"] == DEFERRED_MESSAGE and is_ephemeral(deferred), deferred.json
    replay = await first_answer(sent)
    assert content_of(replay).startswith(f"Replay of game #{game_id} (Alice v Bob).")
    assert "Only you see this replay" in content_of(replay)
    gif = Image.open(io.BytesIO(replay.files[f"game-{game_id}.gif"]))
    assert gif.format == "GIF"
    alt = _alt_texts(replay)
    assert alt == [
        f"Animated replay of game #{game_id}, Alice (White) v Bob (Black): Aborted, no result."
    ]
    # the private one only: the end (posted before this was asked) brought none
    assert gifs_posted(fake) == [f"game-{game_id}.gif"]

    # Alice's question, answered now: refused in words, never "Game #1 is over (* aborted)".
    late = await users.press(f"resign:{game_id}", alice_asks.message(), ALICE)
    refused = await late.callback()
    assert is_ephemeral(refused), refused.json
    assert content_of(refused) == f"Game #{game_id} was aborted, with no result.", refused.json


def _alt_texts(request: Any) -> list[str]:
    body = request.json or {}
    data = body.get("data", body)
    return [a.get("description") for a in data.get("attachments") or [] if a.get("description")]
