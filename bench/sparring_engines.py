"""The sparring partners of ``bench/sparring.py``: Scan 2.0 and GuiNN 2.06, each in its own
process, spoken to in its own line protocol, and the conversions between our positions and
moves and their notations.

Why apart from ``sparring.py``: these are the parts that depend on the two programs (their
protocols, units and quirks); the match and its report do not.  The conversions are pure
functions, tested without the programs (``tests/engine/test_sparring_protocol.py``).

Both programs are built outside the project (``/work/shared/engines/README.md``: the build
scripts, and where the protocols are defined); they are bench opponents only.

* **Scan 2.0** (International), ``scan hub`` run from its folder (it reads ``scan.ini`` and
  ``data/``).  Each move: ``new`` at a game's start (it clears Scan's table), then ``pos`` with
  the game's start and one ``move`` per move played since (so its repetition history is the
  game's), ``time MS`` and ``go``; it answers ``info DEPTH PLY_AVG SCORE NODES TIME SPEED PV``
  lines (only from depth 12 on, or one at depth 0 for a book or forced move) and ``move M
  [PONDER]``.  ``pos`` resets the search settings, so ``time`` comes after it.  Scan never stops
  before depth 12 whatever the time, which is why the time it used is measured here, from
  ``go`` to its move.  Its book is on unless ``set book false`` is sent before ``init``.
* **GuiNN 2.06** (English), ``guinn_cli`` (the line front end in
  ``/work/shared/engines/guinn/guinn_cli.cpp``): ``newgame`` at a game's start, then ``game FEN
  MOVES...`` (the start and every move, for its repetition checks) and ``go MS``, answered by
  ``bestmove MOVE depth D nodes N score S book 0|1``.  It has no book file.

Moves in both: ``FROM-TO`` or ``FROMxTOxCAP1xCAP2...``, the captured squares in any order
(each program finds its move by origin, destination and the set of captured squares, as the
referee does).  Scores are from the mover's side; Scan counts a man as 100, GuiNN about 190.
"""

from __future__ import annotations

import contextlib
import queue
import re
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from arena import Answer, ArenaError, played, referee_move

from rules import Color, Game, Move
from rules.position import Position

SPARRING = Path.home() / ".cache" / "draughts-sparring"
SCAN = SPARRING / "scan2" / "scan"
GUINN = SPARRING / "guinn" / "bin" / "guinn_cli"

START_TIMEOUT = 120.0
"""Seconds an engine may take to load (Scan's bitbases, GuiNN's nets and database)."""


# -- notation -------------------------------------------------------------------------------------


def hub_move(move: Move) -> str:
    """``move`` as both programs write it: ``32-28``, or ``28x17x22`` (origin, destination,
    then each captured square, ascending)."""
    origin, destination = move.path[0], move.path[-1]
    if not move.captured:
        return f"{origin}-{destination}"
    return f"{origin}x{destination}" + "".join(f"x{square}" for square in sorted(move.captured))


_HUB_MOVE = re.compile(r"^[0-9]+([-x][0-9]+)+$")


def parse_hub_move(text: str) -> tuple[int, int, tuple[int, ...]]:
    """(origin, destination, captured squares ascending) of a move written as :func:`hub_move`
    writes it; a malformed one stops the run."""
    if not _HUB_MOVE.match(text):
        raise ArenaError(f"not a move: {text!r}")
    squares = [int(s) for s in re.split(r"[-x]", text)]
    if "-" in text and len(squares) != 2:
        raise ArenaError(f"not a move: {text!r}")
    return squares[0], squares[1], tuple(sorted(squares[2:]))


def hub_referee(game: Game, text: str) -> Move:
    """The legal move of ``game`` an engine wrote as ``text`` (else the run stops)."""
    origin, destination, captured = parse_hub_move(text)
    return referee_move(game, ("", origin, destination, captured))


def scan_position(position: Position) -> str:
    """Scan's ``pos`` argument: ``w`` or ``b`` to move, then squares 1-50, each ``w``/``b``
    (men), ``W``/``B`` (kings) or ``e`` (empty)."""
    geometry = position.variant.geometry
    cells = ["e"] * geometry.squares
    for bits, letter in (
        (position.white_men, "w"),
        (position.white_kings, "W"),
        (position.black_men, "b"),
        (position.black_kings, "B"),
    ):
        for square in geometry.squares_in(bits):
            cells[square - 1] = letter
    return ("w" if position.turn is Color.WHITE else "b") + "".join(cells)


def scan_info(line: str) -> tuple[int, int, int]:
    """(depth, score, nodes) of a Scan ``info`` line."""
    fields = line.split()
    return int(fields[1]), int(fields[3]), int(fields[4])


def guinn_answer(line: str) -> tuple[str, dict[str, int]]:
    """The move and the numbers (depth, nodes, score, book) of GuiNN's ``bestmove`` line."""
    fields = line.split()
    if len(fields) < 2 or fields[0] != "bestmove" or len(fields) % 2 != 0:
        raise ArenaError(f"GuiNN: not a bestmove line: {line!r}")
    return fields[1], {fields[i]: int(fields[i + 1]) for i in range(2, len(fields), 2)}


# -- a program on pipes ---------------------------------------------------------------------------


class EngineProcess:
    """A program speaking one command a line on stdin and answering on stdout (its stderr
    merged in, so an error message shows with the rest).  A thread reads its lines into a queue,
    so that waiting for an answer can time out."""

    def __init__(self, name: str, argv: Sequence[str], cwd: Path) -> None:
        self.name = name
        self._process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._recent: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, *lines: str) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write("".join(f"{line}\n" for line in lines))
            self._process.stdin.flush()
        except BrokenPipeError as exc:
            raise ArenaError(f"{self.name} has stopped: {self._recent[-5:]}") from exc

    def expect(self, prefix: str, timeout: float) -> list[str]:
        """The lines up to and including the first that starts with ``prefix`` (a line that
        starts with ``error`` instead, the program's end, or the timeout stop the run)."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise ArenaError(f"{self.name}: no {prefix!r} within {timeout:g} s") from None
            if line is None:
                raise ArenaError(f"{self.name} has stopped: {self._recent[-5:]}")
            self._recent = [*self._recent[-20:], line]
            lines.append(line)
            if line.startswith("error"):
                raise ArenaError(f"{self.name}: {line}")
            if line.split(" ", 1)[0] == prefix:
                return lines

    def close(self) -> None:
        with contextlib.suppress(ArenaError):  # it may have stopped already
            self.send("quit")
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


class _External:
    """What both programs share: one process, the game it is playing (a new game clears its
    table), and the time of a search measured here, from the command to the answer."""

    name = ""
    new_game = ""

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self._game: Game | None = None

    def _start(self, game: Game) -> list[str]:
        """The command that starts a new game when ``game`` is not the one being played."""
        if game is self._game:
            return []
        self._game = game
        return [self.new_game]

    def _ask(self, lines: Sequence[str], answer: str, movetime: float) -> tuple[list[str], float]:
        started = time.perf_counter()
        self.process.send(*lines)
        reply = self.process.expect(answer, timeout=60 + 10 * movetime)
        return reply, time.perf_counter() - started

    def close(self) -> None:
        self.process.close()


class ScanPlayer(_External):
    """Scan 2.0 in hub mode, with its book unless ``book`` is false, 4-piece bitbases, one
    thread (as its ``scan.ini`` sets them; sent again so that the run does not depend on it)."""

    name = "Scan 2.0"
    new_game = "new"
    man = 100

    def __init__(self, binary: Path = SCAN, book: bool = True) -> None:
        super().__init__(EngineProcess(self.name, [str(binary), "hub"], binary.parent))
        self.process.send("hub")
        self.process.expect("wait", START_TIMEOUT)
        self.process.send(f"set book {'true' if book else 'false'}", "set threads 1", "init")
        self.process.expect("ready", START_TIMEOUT)

    def choose(self, game: Game, movetime: float) -> tuple[Move, Answer]:
        lines = self._start(game)
        lines.append(f"pos {scan_position(game.start)}")
        lines += [f"move {hub_move(move)}" for move in game.moves]
        lines += [f"time {round(movetime * 1000)}", "go"]
        reply, seconds = self._ask(lines, "move", movetime)
        infos = [scan_info(line) for line in reply if line.startswith("info ")]
        depth, score, nodes = infos[-1] if infos else (0, 0, 0)
        move = hub_referee(game, reply[-1].split()[1])
        book = depth == 0 and nodes == 0
        return move, Answer(played(move), seconds, None if book else depth, nodes, score, book)


class GuinnPlayer(_External):
    """GuiNN 2.06 through ``guinn_cli``: its nets and 4-piece database, no book (none is
    published); ``book`` asks for one all the same, so a book file added later would count."""

    name = "GuiNN 2.06"
    new_game = "newgame"
    man = 190

    def __init__(self, binary: Path = GUINN, book: bool = True) -> None:
        super().__init__(EngineProcess(self.name, [str(binary)], binary.parent))
        self.process.send("init book" if book else "init nobook")
        reply = self.process.expect("ready", START_TIMEOUT)
        info = dict(zip(reply[-2].split()[1::2], reply[-2].split()[2::2], strict=False))
        if info.get("nets", "0") == "0":
            raise ArenaError(f"GuiNN loaded no networks: {reply}")
        self.loaded = info
        """What it loaded: ``nets``, ``book`` (positions), ``db`` (pieces)."""

    def choose(self, game: Game, movetime: float) -> tuple[Move, Answer]:
        lines = self._start(game)
        moves = " ".join(hub_move(move) for move in game.moves)
        lines += [f"game {game.start.fen()} {moves}".rstrip(), f"go {round(movetime * 1000)}"]
        reply, seconds = self._ask(lines, "bestmove", movetime)
        text, numbers = guinn_answer(reply[-1])
        move = hub_referee(game, text)
        book = numbers.get("book", 0) == 1
        depth = None if book else numbers.get("depth")
        return move, Answer(
            played(move), seconds, depth, numbers.get("nodes"), numbers.get("score"), book
        )
