"""Driving a tournament through the real bot and the fake Discord, as its players and its
moderator would: what the end-to-end tournaments (``tests/e2e/test_e2e_tournaments.py``) and the
phone pictures of docs/COMMANDS.md (``docs/images/tournament_screens.py``) both do."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    TURN_LINE,
    Sent,
    Users,
    channel_posts,
    content_of,
    custom_ids,
    embed_of,
    first_answer,
    is_ephemeral,
    poll,
)
from support.fake_discord import FakeDiscord

MESSAGE, UPDATE = 4, 7
MORE = ("1100000000000000104", "1100000000000000105", "1100000000000000106", "1100000000000000107")
NAMES = ("dave", "erin", "frank", "grace")
WAIT = 20.0
PAIRING = re.compile(
    r"Round (\d+), board (\d+): <@(\d+)> \(White\) v <@(\d+)> \(Black\) · pairing #\d+"
)
BYE = re.compile(r"Round (\d+): <@(\d+)> has a bye and scores 1\.")


def add_players(fake: FakeDiscord, count: int) -> list[str]:
    """Alice, Bob, Carol and as many more members of the server as make ``count``."""
    for user_id, name in zip(MORE, NAMES, strict=True):
        fake.guild.users[user_id] = name
    return [ALICE, BOB, CAROL, *MORE][:count]


async def tournament(users: Users, sub: str, user: str, channel: str, **values: Any) -> Sent:
    """``/tournament <sub>`` with options, as Discord nests a subcommand's options."""
    options, resolved = users.options(**values)
    payload = users.fake.command_interaction(
        "tournament",
        [{"name": sub, "type": 1, "options": options}],
        user_id=user,
        channel_id=channel,
        resolved=resolved,
    )
    await users.fake.send_interaction(payload)
    return Sent(users, payload)


async def private(sent: Sent) -> str:
    """A private answer (a refusal, or a moderator's confirmation)."""
    callback = await sent.callback()
    if callback.json["type"] == 5:  # held while working: the private follow-up tells
        return content_of(await first_answer(sent))
    assert callback.json["type"] == MESSAGE and is_ephemeral(callback), callback.json
    return content_of(callback)


def posts(fake: FakeDiscord, channel: str) -> list[str]:
    """What the bot posted straight into ``channel``, in order (its text)."""
    return [str(r.json.get("content") or "") for r in channel_posts(fake, channel)]


def pairings(fake: FakeDiscord, round_: int) -> dict[str, tuple[str, str]]:
    """Round ``round_``'s pairing messages in #draughts: their ids (each its game's thread)
    and (White, Black)."""
    found = {}
    for message in list(fake.messages.values()):
        match = PAIRING.fullmatch(str(message.get("content") or ""))
        if message["channel_id"] == DRAUGHTS and match and int(match[1]) == round_:
            found[message["id"]] = (match[3], match[4])
    return found


def standings_files(fake: FakeDiscord) -> dict[str, str]:
    """The standings pictures posted in #draughts, with their alt text (each decoded: a PNG)."""
    found = {}
    for request in channel_posts(fake, DRAUGHTS):
        for upload in request.uploads:
            if upload.filename.startswith("standings-"):
                assert Image.open(io.BytesIO(upload.data)).format == "PNG"
                found[upload.filename] = upload.description or ""
    return found


def standings_posts(fake: FakeDiscord, label: str) -> list[str]:
    """The text of the standings posts whose pictures are labelled ``label`` (``1-final``)."""
    return [
        str(r.json.get("content") or "")
        for r in channel_posts(fake, DRAUGHTS)
        if any(name.startswith(f"standings-{label}-") for name in r.files)
    ]


def pdn_posts(fake: FakeDiscord) -> list[dict[str, bytes]]:
    """The files of the posts in #draughts carrying the event's PDN."""
    return [r.files for r in channel_posts(fake, DRAUGHTS) if "tournament-1.pdn" in r.files]


def first_boards(fake: FakeDiscord, thread: str) -> list[dict[str, Any]]:
    """The game's first boards posted in ``thread`` (one, if shown exactly once)."""
    return [
        r.json for r in channel_posts(fake, thread) if TURN_LINE.search(r.json.get("content") or "")
    ]


async def create_and_fill(
    users: Users, fake: FakeDiscord, players: list[str], **options: Any
) -> dict[str, Any]:
    """Alice (a moderator) creates the event in #draughts; everyone joins by its button."""
    created = await tournament(users, "create", ALICE, DRAUGHTS, **options)
    answer = await created.callback()
    assert answer.json["type"] == MESSAGE and not is_ephemeral(answer), answer.json
    assert custom_ids(answer) == [
        "tournament:join:1",
        "tournament:leave:1",
        "tournament:standings:1",
        "tournament:manage:1",
    ]
    announcement = created.message()
    for count, player in enumerate(players, 1):
        joined = await users.press("tournament:join:1", announcement["id"], player)
        edit = await joined.callback()
        assert edit.json["type"] == UPDATE, edit.json
        assert embed_of(edit)["fields"][-1]["name"] == f"Players ({count})"
    return announcement


async def start_by_buttons(users: Users, announcement: dict[str, Any]) -> None:
    """The moderator's Manage panel, then Start now: no typing."""
    manage = await users.press("tournament:manage:1", announcement["id"], ALICE)
    panel = await manage.callback()
    assert is_ephemeral(panel) and custom_ids(panel) == [
        "tournament:start:1",
        "tournament:cancel:1",
    ]
    start = await users.press("tournament:start:1", manage.message(), ALICE)
    assert "started" in await private(start)


async def round_pairings(users: Users, round_: int, boards: int) -> dict[str, tuple[str, str]]:
    """Round ``round_``'s ``boards`` pairings once posted, each with its thread and one first
    board there."""
    fake = users.fake

    def posted() -> dict[str, tuple[str, str]]:
        found = pairings(fake, round_)
        return found if len(found) == boards and all(t in fake.threads for t in found) else {}

    found: dict[str, tuple[str, str]] = await users.bot.alive(poll(posted, WAIT))
    for thread in found:
        assert fake.threads[thread]["parent_id"] == DRAUGHTS  # opened on its pairing's message
        await users.bot.alive(poll(lambda t=thread: first_boards(fake, t), WAIT))
    return found


async def resign_in(users: Users, thread: str) -> str:
    """In ``thread``'s game the player to move resigns (a loss in a tournament): who."""
    [board] = first_boards(users.fake, thread)
    turn = TURN_LINE.search(board["content"])
    footer = re.search(r"Game #(\d+)", board["embeds"][0]["footer"]["text"])
    assert turn is not None and footer is not None
    loser, game = turn["id"], footer[1]
    asked = await users.command("resign", loser, thread)
    assert custom_ids(await asked.callback()) == [f"resign:{game}"]
    pressed = await users.press(f"resign:{game}", asked.message(), loser)
    assert (await pressed.callback()).json["type"] == UPDATE
    return loser
