"""Where puzzles come from: the shipped starter set, loaded into the store once, and the
server's own finished games, mined in the background.

The service does not import the engine: what finds puzzles is handed in as a
:class:`PuzzleSource` (the bot's is :data:`bot.puzzle_source.ENGINE_PUZZLES`, the engine's
``engine.puzzles``).  Mining runs through the computer's background lane
(:meth:`~bot.service.computer.ComputerPlayer.background`): a game is split into short jobs of
a few plies each (:data:`CHUNK_PLIES`), behind every live game's reply, one game at a time in
this process; a later job's puzzle that starts inside an earlier one's line (the same
combination, joined late) is dropped.  Each game is mined at most once:
the store writes its puzzles with the mark that it was mined, in one transaction, so a crash
before that write mines it again and one after it never does; a game whose mining fails for a
reason other than the computer being away is marked mined with nothing found (logged), so it is
not tried forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..store import GameRow, NewPuzzle, Store
from .computer import ComputerPlayer, ComputerUnavailable
from .live import LiveGames
from .puzzle_terms import checked_puzzle, line_positions
from .shards import ShardOwnership

log = logging.getLogger(__name__)

MIN_PLIES = 20
"""Games shorter than this are not mined (an early resignation has no tactics to speak of)."""
CHUNK_PLIES = {8: 6, 10: 3}
"""Positions looked at by one background job, by board size: a game takes the engine 1-10 s
to mine, so it is mined a few plies a job (measured on random 60-ply games: a job's median
0.03 s on 8x8, 0.13 s on 10x10 at 6 plies; a 10x10 position can take a second or two on its
own, hence fewer of them a job), and a live game's reply waits one of them at most."""
JOB_SECONDS = 2.0
"""A job's limit (the positions left when it is up are not tried): a cap, not a budget."""
GAMES_PER_ROUND = 5
"""Games mined by one round of mining (started by the tick when none is running)."""
IDLE_PAUSE_SECONDS = 60.0
"""After a round that found no game to mine, the next looks again this much later (not at
every tick: the question reads the finished games)."""

Finder = Callable[[dict[str, object], float, int, int], list[dict[str, object]]]
"""``engine.puzzles.find_puzzles`` over some plies (:func:`bot.puzzle_source.find_between`): a
finished game's record (``Game.to_dict()``), the seconds it may take, and the plies whose
positions it looks at (``first`` to ``stop - 1``), to the puzzles found (``Puzzle.to_dict()``);
module-level, it is pickled."""


@dataclass(frozen=True)
class PuzzleSource:
    """What makes puzzles: the starter set of a variant, and the finder of a game's."""

    starter: Callable[[str], Sequence[Mapping[str, object]]]
    find: Finder


class Library:
    """The starter set in the store: each variant's loaded at its first use in this process
    (stored once however many processes load it: the store keeps one puzzle per position)."""

    def __init__(self, store: Store, source: PuzzleSource | None, clock: Callable[[], float]):
        self.store = store
        self.source = source
        self.clock = clock
        self._loaded: set[str] = set()

    async def ensure(self, variant: str) -> None:
        if self.source is None or variant in self._loaded:
            return
        try:
            shipped = await asyncio.to_thread(self.source.starter, variant)
        except (OSError, ValueError) as exc:  # a broken install: the server's own still serve
            log.warning("the starter puzzles of %s could not be read: %s", variant, exc)
            shipped = ()
        now = self.clock()
        puzzles = [
            p
            for data in shipped
            if (p := checked_puzzle(data, guild_id=None, game_id=None, now=now))
        ]
        if await self.store.count_puzzles(None, variant) < len(puzzles):
            added = await self.store.add_puzzles(puzzles)
            log.info("%d starter puzzle(s) of %s stored", added, variant)
        self._loaded.add(variant)


class Mining:
    """The server's finished games made puzzles, one at a time in the background."""

    def __init__(
        self,
        store: Store,
        live: LiveGames,
        ownership: ShardOwnership,
        source: PuzzleSource | None,
        computer: Callable[[], ComputerPlayer],
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.live = live
        self.ownership = ownership
        self.source = source
        self.computer = computer
        self.clock = clock
        self._task: asyncio.Task[int] | None = None
        self._idle_until = 0.0

    def start(self) -> None:
        """Start a round of mining unless one is running, or the last found nothing to mine
        less than :data:`IDLE_PAUSE_SECONDS` ago (the tick calls this)."""
        if self.source is None or (self._task is not None and not self._task.done()):
            return
        if self.clock() < self._idle_until:
            return
        self._task = asyncio.create_task(self._round(), name="puzzle-mining")
        self._task.add_done_callback(_report)

    async def _round(self) -> int:
        mined = await self.mine(GAMES_PER_ROUND)
        if not mined:
            self._idle_until = self.clock() + IDLE_PAUSE_SECONDS
        return mined

    async def settle(self) -> None:
        """Wait for the round of mining running, if any (tests, and a shutdown's grace)."""
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._task

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        await self.settle()

    async def mine(self, games: int) -> int:
        """Mine up to ``games`` finished games of this process's servers, oldest first; how
        many were mined.  Stops early while the computer is away (the games wait)."""
        if self.source is None:
            return 0
        mine = await self.ownership.current()
        if mine.empty:
            return 0
        done = 0
        for row in await self.store.games_to_mine(MIN_PLIES, games, shards=mine):
            try:
                puzzles = await self._puzzles_of(row)
            except ComputerUnavailable:
                break
            except Exception:
                log.exception("mining game %s failed; it is left out", row.id)
                puzzles = []
            if await self.store.mined(row.id, puzzles, self.clock()):
                done += 1
                if puzzles:
                    log.info("game %s gave %d puzzle(s)", row.id, len(puzzles))
        return done

    async def _puzzles_of(self, row: GameRow) -> list[NewPuzzle]:
        """The puzzles of one finished game, a few plies a background job, each checked by
        the rules; one starting inside an earlier one's line is left out."""
        assert self.source is not None
        game = await self.live.replay(row)
        record = game.to_dict()
        puzzles: list[NewPuzzle] = []
        inside: set[str] = set()
        chunk = CHUNK_PLIES[game.variant.size]
        for first in range(0, game.ply, chunk):
            stop = min(first + chunk, game.ply)
            find = self.source.find
            found = await self.computer().background(find, record, JOB_SECONDS, first, stop)
            now = self.clock()
            for data in found:
                puzzle = checked_puzzle(data, guild_id=row.guild_id, game_id=row.id, now=now)
                if puzzle is None or puzzle.fen in inside:
                    continue
                inside |= line_positions(puzzle)
                named = puzzle.source.replace("game", f"game {row.id}", 1)
                puzzles.append(replace(puzzle, source=named))
        return puzzles


def _report(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("puzzle mining stopped", exc_info=task.exception())
