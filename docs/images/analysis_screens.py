"""A phone-sized picture of a game's analysis as the bot really sends it:
``python docs/images/analysis_screens.py`` (``... de`` for German players).

Like ``make_screens.py`` (whose drawing of Discord's mobile app it uses, through
``tournament_screens.py``'s running of the bot), this runs the real bot
process, with its engine, against the fake Discord on 127.0.0.1: Alice (Black) and Bob play the
game of ``tests/support/analysis_games.py``, in which Alice's ``11-15`` at move 16 lets Bob
take two men and crown; Alice resigns, Bob taps Analyse on the final board, and the private
answer is kept exactly as the bot sent it:

* ``phone-analysis.png``: the evaluation graph, each side's accuracy and judged moves with the
  better move, the thresholds, and the annotated PDN file.
"""

from __future__ import annotations

import sys

import tournament_screens
from make_screens import Shot, snapshot
from support.analysis_games import BLUNDER_MOVES
from support.e2e_harness import ALICE, BOB, GENERAL, Users, user
from support.fake_discord import FakeDiscord


async def play(fake: FakeDiscord, users: Users, players: list[str]) -> dict[str, Shot]:
    """Alice and Bob play the game, Alice resigns, Bob taps Analyse: his private answer."""
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    await sent.callback()
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    await accepted.callback()
    for number, text in enumerate(BLUNDER_MOVES):
        moved = await users.command("move", (ALICE, BOB)[number % 2], GENERAL, move=text)
        await moved.callback()
    resign = await users.command("resign", ALICE, GENERAL)
    await resign.callback()
    pressed = await users.press("resign:1", resign.message(), ALICE)
    final = fake.message_of(await pressed.followup(0))
    assert final is not None
    tapped = await users.press("analyse:1", final, BOB)
    await tapped.original_edit()
    return {"phone-analysis.png": snapshot(fake, tapped.message())}


def main(argv: list[str]) -> int:
    """Draw the picture in English, or in the Discord locale given (``de``)."""
    return tournament_screens.main(argv, play, players=2)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
