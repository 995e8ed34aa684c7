"""Phone-sized pictures of a tournament as the bot really runs one:
``python docs/images/tournament_screens.py`` (``... de`` for a German server).

Like ``make_screens.py`` (whose drawing of Discord's mobile app it uses), this runs the real bot
process against the fake Discord on 127.0.0.1 and keeps messages exactly as the bot sent them,
while Alice, a moderator, runs a five-player Swiss with nothing typed but ``/tournament create``:

* ``phone-tournament.png``: the announcement taking entries, with Join, Leave, Standings and
  Manage;
* ``phone-tournament-manage.png``: the private panel Manage gives a moderator (Start now...);
* ``phone-tournament-pairing.png``: a pairing's message of round 1 (its game's thread hangs off
  it);
* ``phone-tournament-standings.png``: the standings posted with round 2 (the picture, its text
  version);
* ``phone-tournament-running.png``: the announcement during round 2, with its leader board.

The games of round 1 end by resignation, as in ``tests/e2e/test_e2e_tournaments.py``, whose
driving of the event (``tests/support/tournament_e2e.py``) this shares.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import make_screens
from make_screens import Shot, snapshot
from support.discord_launcher import install_network_guard
from support.e2e_harness import ALICE, DRAUGHTS, BotProcess, Users
from support.fake_discord import FakeDiscord
from support.tournament_e2e import (
    add_players,
    create_and_fill,
    pairings,
    resign_in,
    round_pairings,
    standings_posts,
)

PLAYERS = 5
"""Alice, Bob, Carol, Dave and Erin: an odd number, so a round has a bye too."""


Scenario = Callable[[FakeDiscord, Users, list[str]], Awaitable[dict[str, Shot]]]
"""What a picture script does with the running bot: its messages to keep, by file name."""


async def capture(
    language: str, scenario: Scenario | None = None, players: int = PLAYERS
) -> dict[str, Shot]:
    """Run the real bot against the fake Discord with ``players`` members (Alice, Bob,
    Carol...) whose clients and server speak ``language``, and keep what ``scenario`` (this
    script's tournament by default; ``analysis_screens.py`` passes its own) returns."""
    install_network_guard()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.guild.locale = language
            members = add_players(fake, players)
            bot = BotProcess(fake, Path(tmp))
            try:
                await bot.start()
                users = Users(fake, bot)
                users.locales.update({member: language for member in members})
                shots = await (scenario or run_event)(fake, users, members)
                code = await bot.stop()
                if code != 0:
                    raise SystemExit(f"the bot exited with {code}:\n{bot.log()}")
                return shots
            finally:
                if bot.proc is not None and bot.proc.poll() is None:
                    bot.proc.kill()
                    bot.proc.wait(10)


async def run_event(fake: FakeDiscord, users: Users, players: list[str]) -> dict[str, Shot]:
    announcement = await create_and_fill(
        users, fake, players, format="swiss", rounds=3, name="Friday Swiss", clock="10+5"
    )
    shots = {"phone-tournament.png": snapshot(fake, fake.messages[announcement["id"]])}
    manage = await users.press("tournament:manage:1", announcement["id"], ALICE)
    await manage.callback()
    shots["phone-tournament-manage.png"] = snapshot(fake, manage.message())
    start = await users.press("tournament:start:1", manage.message(), ALICE)
    await start.callback()
    first = await round_pairings(users, 1, boards=PLAYERS // 2)
    shots["phone-tournament-pairing.png"] = snapshot(fake, fake.messages[next(iter(first))])
    for thread in first:
        await resign_in(users, thread)
    await round_pairings(users, 2, boards=PLAYERS // 2)
    assert pairings(fake, 2)
    [table] = [
        message
        for message in fake.messages.values()
        if message["channel_id"] == DRAUGHTS
        and any(a["filename"].startswith("standings-1-r2-") for a in message.get("attachments", []))
    ]
    assert standings_posts(fake, "1-r2")
    shots["phone-tournament-standings.png"] = snapshot(fake, table)
    shots["phone-tournament-running.png"] = snapshot(fake, fake.messages[announcement["id"]])
    return shots


def main(argv: list[str], scenario: Scenario | None = None, players: int = PLAYERS) -> int:
    """Draw the pictures of ``scenario`` (:func:`capture`) in English, or in the Discord
    locale given (``de``)."""
    language = argv[0] if argv else "en-US"
    make_screens.LANGUAGE[0] = language
    shots = asyncio.run(capture(language, scenario, players))
    make_screens.write_out({name: (shot, False) for name, shot in shots.items()}, language)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
