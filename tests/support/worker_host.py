"""A stand-in for the bot process in the kill -9 test of tests/process/test_workers.py: it opens the
engine's and the replay renderer's pools as the bot does, uses both once (so every worker, the
forkserver and the resource tracker are running), prints ``READY`` and waits to be killed."""

from __future__ import annotations

import asyncio

from bot.engine_player import EngineComputer
from bot.ui.media import Media
from rules import Game, find_variant
from rules.pdn import write_game


async def main() -> None:
    computer = EngineComputer(movetime=0.05, workers=2)
    media = Media()
    game = Game(find_variant("english"))
    # Two searches at once, so both engine workers start.
    first, _ = await asyncio.gather(computer.choose_move(game, 6), computer.choose_move(game, 6))
    game.play(first)
    await media.replay(write_game(game, {"White": "A", "Black": "B"}))
    print("READY", flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":  # the forkserver imports this module again in its workers
    asyncio.run(main())
