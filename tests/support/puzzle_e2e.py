"""Driving puzzles through the fake Discord, shared by ``tests/e2e/test_e2e_puzzles.py`` and the
phone pictures of ``docs/images/puzzle_screens.py``: ``/puzzle <sub>`` as Discord nests a
subcommand's options, and a puzzle stored as the server's own (served before any shipped one)."""

from __future__ import annotations

from typing import Any

from support.e2e_harness import GENERAL, BotProcess, Sent, Users, db_run

SHOTS = (
    ("W:W17,28,32:B8,18,20", ("28-24", "20x27", "32x23x14")),
    ("W:W13,22,30:B17,19,24", ("13-9", "17x26", "30x23x16")),
)
"""English 2-for-1 shots, White to move (the service's tests check them with the rules): the
first move gives a man, the reply is forced, and the last takes two."""


async def puzzle(users: Users, sub: str, user: str, **values: Any) -> Sent:
    """``/puzzle <sub>`` by ``user`` in #general with options."""
    options, resolved = users.options(**values)
    payload = users.fake.command_interaction(
        "puzzle",
        [{"name": sub, "type": 1, "options": options}],
        user_id=user,
        channel_id=GENERAL,
        resolved=resolved,
    )
    await users.fake.send_interaction(payload)
    return Sent(users, payload)


def store_puzzle(bot: BotProcess, guild_id: str, fen: str, line: tuple[str, ...]) -> None:
    """Store an English puzzle as server ``guild_id``'s own, rated 1500 like a newcomer."""
    db_run(
        bot.database,
        "INSERT INTO puzzles (guild_id, variant, family, fen, solution, gain, rating, deviation,"
        " volatility, source, game_id, created_at)"
        " VALUES (?, 'english', 'short-8', ?, ?, 'material', 1500, 350, 0.06, 'game', NULL, 0)",
        (int(guild_id), fen, " ".join(line)),
    )
