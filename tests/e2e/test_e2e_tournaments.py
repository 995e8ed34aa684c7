"""Tournaments end to end, through the real bot process and the fake Discord: a Swiss of 7 over
3 rounds run by a moderator who types only the creation command, and an arena of 6 that
survives a ``kill -9`` of the bot in the middle of a round.  Each ends with its final
standings, and every announcement (the pairings, each game's thread and first board, the
standings) is shown exactly once.
"""

from __future__ import annotations

import copy
import io
import re
from collections import Counter
from typing import Any

import pytest
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

pytestmark = pytest.mark.e2e

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


async def moderate(
    users: Users, announcement: dict[str, Any], action: str, panel: list[str]
) -> str:
    """Alice opens the Manage panel (holding ``panel``'s buttons) and presses ``action``."""
    manage = await users.press("tournament:manage:1", announcement["id"], ALICE)
    assert custom_ids(await manage.callback()) == [f"tournament:{b}:1" for b in panel]
    return await private(await users.press(f"tournament:{action}:1", manage.message(), ALICE))


async def fix_choice(users: Users, white: str, black: str) -> int:
    """The pairing of ``white`` and ``black`` as ``/tournament fix``'s suggestions offer it."""
    payload = users.fake.autocomplete_interaction(
        "tournament",
        [{"name": "fix", "type": 1, "options": [{"name": "pairing", "type": 4, "value": ""}]}],
        "fix",
        user_id=ALICE,
        channel_id=DRAUGHTS,
    )
    payload["data"]["options"][0]["options"][0]["focused"] = True
    del payload["data"]["options"][0]["focused"]
    await users.fake.send_interaction(payload)
    answer = await Sent(users, payload).callback()
    names = {users.fake.guild.users[white].capitalize(), users.fake.guild.users[black].capitalize()}
    [value] = [
        c["value"] for c in answer.json["data"]["choices"] if all(n in c["name"] for n in names)
    ]
    return int(value)


async def test_a_swiss_of_seven_runs_three_rounds_from_one_command_to_final_standings(
    launch: Any, fake: FakeDiscord
) -> None:
    players = add_players(fake, 7)
    bot, users = await launch()

    # Refusals first: a member is no moderator, an option the format does not use.
    refused = await tournament(users, "create", BOB, DRAUGHTS, format="swiss")
    assert await private(refused) == (
        "Only moderators (Manage Server) can do that to a tournament."
    )
    refused = await tournament(users, "create", ALICE, DRAUGHTS, format="swiss", double=True)
    assert await private(refused) == "`double` is for round robins only."

    announcement = await create_and_fill(
        users, fake, players, format="swiss", rounds=3, name="Club Swiss"
    )
    again = await users.press("tournament:join:1", announcement["id"], BOB)
    assert "already" in await private(again)
    manage = await users.press("tournament:manage:1", announcement["id"], BOB)
    assert await private(manage) == "Only moderators (Manage Server) can do that to a tournament."

    before = copy.deepcopy(fake.messages[announcement["id"]])  # as a client that missed edits
    await start_by_buttons(users, announcement)
    listed = await tournament(users, "list", BOB, DRAUGHTS)
    answer = await listed.callback()
    assert is_ephemeral(answer) and embed_of(answer)["description"] == (
        "**#1** Club Swiss · Swiss, 3 rounds · 1 day a move · 7 players · Running: round 1 of 3"
    )
    points: Counter[str] = Counter()
    for round_ in (1, 2, 3):
        found = await round_pairings(users, round_, boards=3)
        if round_ == 1:  # paused: the games go on, the next round waits for Resume
            said = await moderate(users, announcement, "pause", ["pause", "cancel"])
            assert said.startswith("Club Swiss is paused by a moderator")
            shown = fake.messages[announcement["id"]]["embeds"][0]
            assert shown["description"] == "Paused by a moderator: round 1 of 3"
        boards = list(found.items())
        if round_ == 2:  # board 1 is decided by a moderator, with the reason shown to all
            (thread, (white, black)), *boards = boards
            pairing = await fix_choice(users, white, black)
            fixed = await tournament(
                users, "fix", ALICE, DRAUGHTS, pairing=pairing, result="draw", reason="Power cut"
            )
            assert "Power cut" in await private(fixed)
            assert any("Power cut" in p for p in posts(fake, DRAUGHTS))
            points.update({white: 0.5, black: 0.5})
        for thread, (white, black) in boards:
            loser = await resign_in(users, thread)
            points[black if loser == white else white] += 1
        if round_ == 1:
            said = await moderate(users, announcement, "resume", ["resume", "cancel"])
            assert "Club Swiss goes on." in said
        if round_ == 2:  # a player's standings: for everyone, then (too soon) only for them
            asked = await tournament(users, "standings", CAROL, DRAUGHTS)
            public = await asked.callback()
            assert not is_ephemeral(public) and "```" in content_of(public)
            assert [f.filename for f in public.uploads] == ["standings-1-now-1.png"]
            again = await tournament(users, "standings", CAROL, DRAUGHTS)
            assert (await private(again)).startswith("Only you see these standings")

    # The end: the final standings (picture, alt text, text) and the PDN file; the
    # announcement says Finished.
    [final] = await bot.alive(poll(lambda: standings_posts(fake, "1-final"), WAIT))
    table = final.split("```")[1].strip().replace("\u2068", "").replace("\u2069", "").splitlines()
    assert len(table) == 1 + 7 and table[0].split()[:3] == ["#", "Player", "Pts"]
    points.update(m[2] for p in posts(fake, DRAUGHTS) if (m := BYE.fullmatch(p)))
    expected = sorted((points[p] for p in players), reverse=True)
    shown = [row.split()[2] for row in table[1:]]
    assert shown == [
        f"{int(n) if n >= 1 or n == 0 else ''}{'½' if n % 1 else ''}" for n in expected
    ]
    assert sum(expected) == 9 + 3  # every game decided, and three byes of a point

    [pdn] = await bot.alive(poll(lambda: pdn_posts(fake), WAIT))
    assert list(pdn) == ["tournament-1.pdn"]
    assert pdn["tournament-1.pdn"].decode().count('[Event "Club Swiss"]') == 9
    shown = fake.messages[announcement["id"]]
    assert shown["embeds"][0]["description"] == "Finished"
    assert custom_ids(shown) == ["tournament:standings:1"]  # nothing left to manage
    stale = await users.press("tournament:manage:1", before, ALICE)  # an old copy's button
    assert await private(stale) == "Club Swiss is over."

    # Every announcement exactly once: each round's line, each pairing and bye, each game's
    # thread and first board; the standings after rounds 1 and 2.
    said = Counter(posts(fake, DRAUGHTS))
    assert all(count == 1 for count in said.values()), said
    assert sum(bool(PAIRING.fullmatch(p)) for p in said) == 9
    assert sum(bool(BYE.fullmatch(p)) for p in said) == 3
    pictures = standings_files(fake)
    assert sorted(pictures) == [
        "standings-1-final-1.png",
        "standings-1-r2-1.png",
        "standings-1-r3-1.png",
    ]
    assert all("Club Swiss" in alt for alt in pictures.values()), pictures
    assert len(fake.threads) == 9
    assert all(len(first_boards(fake, thread)) == 1 for thread in fake.threads)

    # The event page: its winner and its PDN, privately.
    page = await users.command("history", CAROL, DRAUGHTS, tournaments=True)
    answer = await page.callback()
    assert is_ephemeral(answer) and custom_ids(answer) == ["tournament:pdn:1"]
    line = embed_of(answer)["description"]
    assert line.startswith("**#1** Club Swiss · Swiss, 3 rounds · 7 players · won by ")
    got = await users.press("tournament:pdn:1", page.message(), CAROL)
    assert list((await got.callback()).files) == ["tournament-1.pdn"]


ARENA_PAIRING = re.compile(
    r"Pairing #\d+: <@(\d+)> \(White\) v <@(\d+)> \(Black\): your game is in the thread below\."
)
THREAD_START = rf"/channels/{DRAUGHTS}/messages/\d+/threads"


def arena_pairings(fake: FakeDiscord) -> dict[str, tuple[str, str]]:
    """The arena's pairing messages in #draughts (each its game's thread): (White, Black)."""
    found = {}
    for message in list(fake.messages.values()):
        match = ARENA_PAIRING.fullmatch(str(message.get("content") or ""))
        if message["channel_id"] == DRAUGHTS and match:
            found[message["id"]] = (match[1], match[2])
    return found


async def test_an_arena_of_six_survives_a_kill_in_the_middle_of_a_round(
    launch: Any, fake: FakeDiscord
) -> None:
    """The bot dies (SIGKILL) while it opens the games' threads: Discord made the second thread
    but the bot never heard.  The new process finds the pairing messages and that thread again
    (Discord refuses a second thread on a message with 160004) instead of posting them twice,
    opens every game once, and the arena goes on, pairs players again as they finish, and
    ends on time with its final standings."""
    players = add_players(fake, 6)
    bot, users = await launch(MOVE_TIME_SCALE="0.01")  # 15 minutes of arena: 9 seconds
    announcement = await create_and_fill(
        users, fake, players, format="arena", duration=15, name="Blitz Arena"
    )
    held = fake.inject("POST", THREAD_START, 200, skip=1, hold=60.0)
    manage = await users.press("tournament:manage:1", announcement["id"], ALICE)
    await manage.callback()
    await users.press("tournament:start:1", manage.message(), ALICE)
    await bot.alive(
        poll(lambda: held.hits and any(r.held and r.status == 0 for r in fake.requests), WAIT)
    )
    bot.kill()
    fake.clear_faults()
    await bot.start()

    # Three games, each pairing posted once, each with one thread and one first board.
    first = await bot.alive(
        poll(lambda: len(arena_pairings(fake)) >= 3 and arena_pairings(fake), WAIT)
    )
    threads = list(first)[:3]
    for thread in threads:
        await bot.alive(poll(lambda t=thread: first_boards(fake, t), WAIT))
    assert len(fake.threads) == 3 and sorted(fake.threads) == sorted(threads)
    refused = [r for r in fake.requests if r.path.endswith("/threads") and r.status == 400]
    assert [r.error["code"] for r in refused if r.error] == [160004]
    assert Counter(p for pair in first.values() for p in pair) == Counter(players)

    # Two games end; their players are paired again while the third plays on.
    for thread in threads[:2]:
        await resign_in(users, thread)
    await bot.alive(poll(lambda: len(arena_pairings(fake)) >= 5, WAIT))

    # Time is up: the final standings, once, and the PDN file.
    [final] = await bot.alive(poll(lambda: standings_posts(fake, "1-final"), WAIT))
    table = final.split("```")[1].strip().splitlines()
    assert len(table) == 1 + 6
    said = Counter(posts(fake, DRAUGHTS))
    assert all(count == 1 for count in said.values()), said
    assert all(len(first_boards(fake, thread)) == 1 for thread in fake.threads)
    assert fake.messages[announcement["id"]]["embeds"][0]["description"] == "Finished"
    [pdn] = await bot.alive(poll(lambda: pdn_posts(fake), WAIT))
    assert pdn["tournament-1.pdn"].decode().count('[Event "Blitz Arena"]') == 2  # the games ended
