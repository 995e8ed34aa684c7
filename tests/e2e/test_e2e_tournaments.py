"""Tournaments end to end, through the real bot process and the fake Discord: a Swiss of 7 over
3 rounds run by a moderator who types only the creation command, and an arena of 6 that
survives a ``kill -9`` of the bot in the middle of a round.  Each ends with its final
standings, and every announcement (the pairings, each game's thread and first board, the
standings) is shown exactly once.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    Sent,
    Users,
    content_of,
    custom_ids,
    embed_of,
    is_ephemeral,
    poll,
)
from support.fake_discord import FakeDiscord
from support.tournament_e2e import (
    BYE,
    PAIRING,
    WAIT,
    add_players,
    create_and_fill,
    first_boards,
    pdn_posts,
    posts,
    private,
    resign_in,
    round_pairings,
    standings_files,
    standings_posts,
    start_by_buttons,
    tournament,
)

pytestmark = pytest.mark.e2e


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
            # entries are closed: the creation's "open for entries" sentence is gone
            assert not fake.messages[announcement["id"]].get("content")
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


async def test_a_round_robin_of_three_meets_everyone_once_by_taps_alone(
    launch: Any, fake: FakeDiscord
) -> None:
    """The third format from one command to its end: three players, so each round has one
    game and one player sitting out (Berger's table); everyone meets everyone once, each game
    in its own thread, the standings between rounds and at the end, each shown once."""
    players = add_players(fake, 3)
    bot, users = await launch()
    announcement = await create_and_fill(
        users, fake, players, format="round_robin", name="Club Trio", clock="5+3"
    )
    await start_by_buttons(users, announcement)
    met: set[frozenset[str]] = set()
    wins: Counter[str] = Counter()
    for round_ in (1, 2, 3):
        found = await round_pairings(users, round_, boards=1)
        [(thread, (white, black))] = found.items()
        met.add(frozenset((white, black)))
        loser = await resign_in(users, thread)
        wins[black if loser == white else white] += 1
    assert met == {frozenset(pair) for pair in ((ALICE, BOB), (ALICE, CAROL), (BOB, CAROL))}

    [final] = await bot.alive(poll(lambda: standings_posts(fake, "1-final"), WAIT))
    table = final.split("```")[1].strip().replace("\u2068", "").replace("\u2069", "")
    rows = table.splitlines()[1:4]
    assert sorted((row.split()[2] for row in rows), reverse=True) == sorted(
        (str(wins[p]) for p in players), reverse=True
    )
    [pdn] = await bot.alive(poll(lambda: pdn_posts(fake), WAIT))
    assert pdn["tournament-1.pdn"].decode().count('[Event "Club Trio"]') == 3
    shown = fake.messages[announcement["id"]]
    assert shown["embeds"][0]["description"] == "Finished"
    said = Counter(posts(fake, DRAUGHTS))
    assert all(count == 1 for count in said.values()), said
    assert sum(bool(PAIRING.fullmatch(p)) for p in said) == 3
    assert sorted(standings_files(fake)) == [
        "standings-1-final-1.png",
        "standings-1-r2-1.png",
        "standings-1-r3-1.png",
    ]
    assert len(fake.threads) == 3
    assert all(len(first_boards(fake, thread)) == 1 for thread in fake.threads)


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
