"""From the last game of a round to the next round's pairings, through the service.

Why it exists: issue 29 asks for the time from the last game of a round to the next round's
pairings.  The service pairs the next round inside the last game's own final transaction (the
result, the pairing and their announcement land together), so that time is the time of the
last game's final action: this measures it, round by round, on a real database.

How to run (the project's own dependencies are enough)::

    python3 -m venv /tmp/bvenv && /tmp/bvenv/bin/pip install -e .
    /tmp/bvenv/bin/python bench/tournament_round.py                    # 200 players, 9 rounds
    /tmp/bvenv/bin/python bench/tournament_round.py --players 50 --rounds 5
    /tmp/bvenv/bin/python bench/tournament_round.py --database postgresql://...  # an empty one

Method: a Swiss of ``--players`` entrants (rated alike: the start rating) over ``--rounds``
rounds, on a new SQLite file unless ``--database`` names an empty PostgreSQL database.  In each
round every game but the last is decided by a moderator's fixed result (so the run takes
seconds, not hours); the last one is opened in its thread, both players move once, and the
loser resigns: that resignation is timed, from the call to its return, with the next round's
pairings written by then (checked).  Reported per round: that time, and the pairing alone
(``pair_swiss`` on the same results, outside the database) for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.results import Player, TournamentSpec
from bot.service import GameService
from bot.service.tournament_rounds import entrants, results
from bot.tournaments.model import Format
from bot.tournaments.swiss import pair_swiss

GUILD, CHANNEL, THREADS = 10, 100, 10_000


async def run(database: str | Path, players: int, rounds: int) -> list[tuple[int, float, float]]:
    service = await GameService.open(database, bot_user_id=1)
    measured = []
    try:
        spec = TournamentSpec("Bench", Format.SWISS, "english", rounds=rounds)
        created = await service.tournaments.create(
            GUILD, CHANNEL, Player(2, "Mod"), spec, is_moderator=True
        )
        assert created.tournament is not None
        tid = created.tournament.id
        for n in range(players):
            await service.tournaments.join(tid, Player(1000 + n, f"P{n}"))
        await service.tournaments.start_now(tid, 2, is_moderator=True)
        for round_no in range(1, rounds + 1):
            view = await service.tournaments.view(tid)
            games = [p for p in view.pairings if p.black is not None and p.result is None]
            *fixed, last = games
            for p in fixed:
                await service.tournaments.fix_result(
                    tid, 2, p.id, 1.0, 0.0, "bench", is_moderator=True
                )
            opened = await service.tournaments.open_game(last.id, THREADS + last.id)
            assert opened is not None and opened.game is not None
            game = opened.game
            for _ in range(2):
                assert game.to_move is not None
                move = (await service.legal_moves(game.channel_id, game.to_move.id))[0]
                played = await service.move(game.to_move.id, move.value, game_id=game.id)
                assert played.game is not None
                game = played.game
            loser = game.black if game.to_move and game.to_move.id == game.black.id else game.white
            began = time.perf_counter()
            await service.resign(loser.id, game_id=game.id)
            took = time.perf_counter() - began
            after = await service.tournaments.view(tid)
            assert after.round == round_no + 1 or round_no == rounds, "not paired"
            state = await service.store.tournament_state(tid)
            assert state is not None
            done = [r for r in results(state) if r.round < round_no + 1]
            began = time.perf_counter()
            pair_swiss(entrants(state), done, round_no + 1)
            alone = time.perf_counter() - began
            measured.append((round_no, took, alone))
    finally:
        await service.close()
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--database", help="an empty PostgreSQL database (default: SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or Path(folder) / "bench.db"
        measured = asyncio.run(run(database, args.players, args.rounds))
    where = "PostgreSQL" if args.database else "SQLite"
    print(f"{args.players} players, {args.rounds} rounds ({where})")
    print("round  last game's end + next round (ms)  pairing alone (ms)")
    for round_no, took, alone in measured:
        print(f"{round_no:5}  {took * 1000:33.1f}  {alone * 1000:18.1f}")
    paired = [took for round_no, took, _ in measured if round_no < args.rounds]
    print(f"median {statistics.median(paired) * 1000:.1f} ms, slowest {max(paired) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
