"""Phone-sized pictures of a puzzle as the bot really serves one:
``python docs/images/puzzle_screens.py`` (``... de`` for a German server).

Like ``tournament_screens.py``, this runs the real bot process against the fake Discord on
127.0.0.1, with the drawing of Discord's mobile app of ``make_screens.py``, and keeps the
messages exactly as the bot sent them.  A shot from the server's own games is stored as its
puzzle (an English 2-for-1, the line checked by the rules as the bot checks a mined one), then
Alice solves it by taps alone:

* ``phone-puzzle.png``: ``/puzzle solve``'s private board, from her side, with its menu of moves
  shown open and Hint;
* ``phone-puzzle-reply.png``: after her first move, the bot's forced reply on the board;
* ``phone-puzzle-solved.png``: the end, the solution drawn as arrows and the rating change;
* ``phone-puzzle-daily.png``: the daily puzzle Alice, a moderator, asked for in #general, with
  Solve (its thread for answers hangs off it).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import make_screens
from make_screens import Shot, snapshot
from support.discord_launcher import install_network_guard
from support.e2e_harness import (
    ALICE,
    GENERAL,
    BotProcess,
    Users,
    channel,
    custom_ids,
)
from support.fake_discord import FakeDiscord
from support.puzzle_e2e import SHOTS, puzzle, store_puzzle


async def capture(language: str) -> dict[str, tuple[Shot, bool]]:
    install_network_guard()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.guild.locale = language
            bot = BotProcess(fake, Path(tmp))
            try:
                await bot.start()
                users = Users(fake, bot)
                users.locales[ALICE] = language
                shots = await solve(fake, users, bot)
                code = await bot.stop()
                if code != 0:
                    raise SystemExit(f"the bot exited with {code}:\n{bot.log()}")
                return shots
            finally:
                if bot.proc is not None and bot.proc.poll() is None:
                    bot.proc.kill()
                    bot.proc.wait(10)


async def solve(fake: FakeDiscord, users: Users, bot: BotProcess) -> dict[str, tuple[Shot, bool]]:
    fen, line = SHOTS[0]
    store_puzzle(bot, fake.guild.id, fen, line)
    sent = await puzzle(users, "solve", ALICE)
    await sent.callback()
    board = sent.message()
    shots = {"phone-puzzle.png": (snapshot(fake, board), True)}
    board = await tap(users, board, line[0])
    shots["phone-puzzle-reply.png"] = (snapshot(fake, board), False)
    board = await tap(users, board, line[2])
    shots["phone-puzzle-solved.png"] = (snapshot(fake, board), False)
    daily = await puzzle(users, "daily", ALICE, channel=channel(GENERAL))
    await daily.callback()

    def posted() -> dict[str, Any] | None:
        return next(
            (
                m
                for m in fake.messages.values()
                if m["channel_id"] == GENERAL and "puzb:solve:" in str(m.get("components"))
            ),
            None,
        )

    post = await bot.alive(fake.wait_until(posted, timeout=20))
    shots["phone-puzzle-daily.png"] = (snapshot(fake, post), False)
    return shots


async def tap(users: Users, board: dict[str, Any], move: str) -> dict[str, Any]:
    (menu,) = [c for c in custom_ids(board) if c.startswith("puz:")]
    sent = await users.select(menu, board, ALICE, [move])
    await sent.callback()
    return users.fake.messages[board["id"]]


def main(argv: list[str]) -> int:
    """Draw the pictures in English, or in the Discord locale given (``de``)."""
    language = argv[0] if argv else "en-US"
    make_screens.LANGUAGE[0] = language
    make_screens.write_out(asyncio.run(capture(language)), language)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
