"""A game is refused where the bot could not post it (issue 13).

Reminders, timeouts and whatever is delivered after a restart are plain posts in the game's
channel, with the board in an embed and its image attached; where the bot lacks a permission
they used to fail later, unseen.  Now ``/challenge``, Accept and Rematch read the bot's
permissions in the channel from the interaction (``app_permissions``) and refuse at once,
privately, naming what is missing, with nothing changed.  The fake Discord takes permissions
away per channel with ``fake.deny``, and interactions from there carry what is left.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    Launch,
    Sent,
    Users,
    content_of,
    custom_ids,
    embed_of,
    field,
    is_ephemeral,
    user,
)
from support.fake_discord import FakeDiscord

from bot.i18n import Text
from bot.ui.permissions import missing

MANAGE = "(a moderator can grant them)."


async def refused(sent: Sent) -> str:
    """A private answer with no buttons: the refusal."""
    callback = await sent.callback()
    assert callback.json["type"] == 4, callback.json
    assert is_ephemeral(callback), callback.json
    assert not custom_ids(callback), callback.json
    return content_of(callback)


async def challenge(
    users: Users, challenger: str, opponent: str, channel: str, **options: Any
) -> Sent:
    options.setdefault("variant", "english")
    options.setdefault("color", "black")
    return await users.command("challenge", challenger, channel, opponent=user(opponent), **options)


async def posted_challenge(sent: Sent) -> tuple[int, dict[str, Any]]:
    callback = await sent.callback()
    assert callback.json["type"] == 4 and not is_ephemeral(callback), content_of(callback)
    challenge_id = int(embed_of(callback)["footer"]["text"].removeprefix("Challenge #"))
    return challenge_id, sent.message()


# -- which permissions, in process -------------------------------------------------------------


def perms(*names: str) -> discord.Permissions:
    return discord.Permissions(**dict.fromkeys(names, True))


def names(lacking: list[Text]) -> list[str]:
    """The permissions' names as Discord's English client shows them."""
    return [str(name) for name in lacking]


BASIC = ("view_channel", "send_messages", "embed_links", "attach_files")
THREADS = ("create_public_threads", "send_messages_in_threads")


def test_a_game_in_the_channel_needs_view_send_embed_and_attach() -> None:
    assert names(missing(perms(*BASIC), thread=False, new_thread=False)) == []
    assert names(missing(perms(), thread=False, new_thread=False)) == [
        "View Channel",
        "Send Messages",
        "Embed Links",
        "Attach Files",
    ]
    assert names(
        missing(perms("view_channel", "send_messages"), thread=False, new_thread=False)
    ) == [
        "Embed Links",
        "Attach Files",
    ]


def test_a_game_in_a_thread_needs_send_messages_in_threads() -> None:
    assert names(missing(perms(*BASIC), thread=True, new_thread=False)) == [
        "Send Messages in Threads"
    ]
    without_send = perms("view_channel", "embed_links", "attach_files", *THREADS)
    assert names(missing(without_send, thread=False, new_thread=True)) == []
    assert names(missing(perms(*BASIC), thread=False, new_thread=True)) == [
        "Create Public Threads",
        "Send Messages in Threads",
    ]


# -- through the real client ---------------------------------------------------------------------


@pytest.mark.e2e
async def test_e2e_challenge_refused_where_the_bot_cannot_post(
    launch: Launch, fake: FakeDiscord
) -> None:
    _, users = await launch()
    fake.deny(GENERAL, "send_messages", "embed_links")
    said = await refused(await challenge(users, ALICE, BOB, GENERAL))
    assert said == (
        "I cannot hold a game here: I lack the Send Messages and Embed Links permissions in "
        f"this channel {MANAGE}"
    )
    # Against the computer (which starts at once): refused before anything is deferred.
    fake.deny(DRAUGHTS, "attach_files")
    bot_id = fake.bot_user["id"]
    said = await refused(await challenge(users, ALICE, bot_id, DRAUGHTS))
    assert said == (
        "I cannot hold a game here: I lack the Attach Files permission in this channel "
        "(a moderator can grant it)."
    )
    # A game that will get its own thread needs what a thread needs, in the channel it hangs off.
    fake.allow(DRAUGHTS)
    fake.deny(DRAUGHTS, "view_channel")
    said = await refused(await challenge(users, CAROL, BOB, DRAUGHTS, thread=True))
    assert said == (
        "I cannot hold a game here: I lack the View Channel permission in this channel "
        "(a moderator can grant it)."
    )

    # Nothing was made: with the permissions back, the first challenge is #1.
    fake.allow(GENERAL)
    fake.allow(DRAUGHTS)
    challenge_id, _ = await posted_challenge(await challenge(users, ALICE, BOB, GENERAL))
    assert challenge_id == 1
    games = await users.command("games", CAROL, GENERAL)
    assert content_of(await games.callback()).startswith("No games are running")


@pytest.mark.e2e
async def test_e2e_accept_refused_when_the_permission_went_meanwhile(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    challenge_id, message = await posted_challenge(await challenge(users, ALICE, BOB, GENERAL))
    fake.deny(GENERAL, "embed_links", "attach_files")

    press = await users.press(f"challenge:accept:{challenge_id}", message, BOB)
    assert await refused(press) == (
        "I cannot hold a game here: I lack the Embed Links and Attach Files permissions in "
        f"this channel {MANAGE}"
    )
    # Nothing changed: the challenge is open with its buttons, no game runs.
    assert len(custom_ids(fake.messages[message["id"]])) == 3
    assert fake.find_requests("PATCH", rf"/channels/{GENERAL}/messages/{message['id']}") == []
    games = await users.command("games", CAROL, GENERAL)
    assert content_of(await games.callback()).startswith("No games are running")

    # With the permissions back, the same button starts the game.
    fake.allow(GENERAL)
    press = await users.press(f"challenge:accept:{challenge_id}", message, BOB)
    update = await press.callback()
    assert update.json["type"] == 7, update.json
    assert field(embed_of(update), "Status") == "Accepted: game #1"

    # A move each (resigning before both have moved would abort the game: no Rematch), then
    # the game ends; the Rematch is refused while the bot cannot post, and works after.
    for player, text in ((ALICE, "11-15"), (BOB, "22-18")):
        played = await (await users.command("move", player, GENERAL, move=text)).callback()
        assert played.json["type"] == 4 and not is_ephemeral(played), played.json
    resign = await users.command("resign", ALICE, GENERAL)
    assert custom_ids(await resign.callback()) == ["resign:1"]
    await users.press("resign:1", resign.message(), ALICE)

    def final() -> dict[str, Any] | None:
        found = [m for m in fake.messages.values() if "rematch:1" in custom_ids(m)]
        return found[-1] if found else None

    ended = await bot.alive(fake.wait_until(final))
    fake.deny(GENERAL, "send_messages")
    asked = await users.press("rematch:1", ended, ALICE)
    assert await refused(asked) == (
        "I cannot hold a game here: I lack the Send Messages permission in this channel "
        "(a moderator can grant it)."
    )
    fake.allow(GENERAL)
    asked = await users.press("rematch:1", ended, ALICE)
    rematch = await asked.callback()
    assert rematch.json["type"] == 4 and not is_ephemeral(rematch), rematch.json
    assert embed_of(rematch)["footer"]["text"] == "Challenge #2"
