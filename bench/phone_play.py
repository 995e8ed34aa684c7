"""Playing on a phone (issue 14): how long the last tap waits for the public board, and what a
whole game puts in the channel, before and after the Move button and the compact board.

Why it exists: on a phone a move is three taps, Move under the board (a private picker with the
player's side of the board), the piece, and the move; what the player and the channel wait for is
the time from the last tap to the public board.  The first two taps each wait for a picker drawn
with its own image, so they are timed too.  And a channel following a game sees every message the
game makes: issue 14 asked for fewer, smaller ones, with one mention (of the player to move) per
board, so the public messages of one fixed game are counted and weighed in this checkout and in
an older one (``--root``), through the same fake Discord.

Like ``bench/discord_roundtrip.py`` this runs the real bot process (``python -m bot``'s ``main``
through ``tests/support/discord_launcher.py``) against the fake Discord of
``tests/support/fake_discord/`` on 127.0.0.1, so everything but Discord's own network is
measured.  Both trees use this checkout's fake and launcher; only the bot's code (``bot``,
``rules``, ``render``, ``engine``) comes from ``--root``, put first on the bot process's
``PYTHONPATH`` (as ``bench/thinking_load.py`` puts ``--root`` first on its own ``sys.path``).  The
fake refuses the command list of bots older than issue 13, ``aee848e`` among them (two options'
``max_value`` is 2**53, one above Discord's limit): here, and only for that request, the refusal
is recorded as a violation and the list is taken, so such a bot can start and be counted.

How to run (the project's dependencies are enough)::

    git worktree add /tmp/phone-base aee848e
    python bench/phone_play.py --root /tmp/phone-base --markdown   # both parts, before and after
    python bench/phone_play.py --games 20 --seed 3                 # this checkout only
    git worktree remove --force /tmp/phone-base

Method.  Part 1 (this checkout only): ``--games`` English games, one per channel of a fake guild,
started by ``/challenge`` and the Accept button, are played by taps between two users, one game
after another, up to ``--plies`` plies or the end; each ply is a random legal move from the
benchmark's own ``rules.Game`` copy.  For every ply: the Move press until the picker (the
interaction's callback, received in full), the piece chosen until the picker shows its moves (the
type 7 update; skipped when only one piece can move: the picker then opens on it), and the move
chosen until the public board has been received in full (the interaction's first follow-up,
``POST /webhooks/<app>/<token>``); the picker's closing (type 7) comes before it and is timed too.
The first ``--warmup`` plies (worker processes starting) are not counted.  Part 2: the 29-ply game
HELPMATE of ``tests/support/sample_games.py`` is played by ``/move`` in each tree (and by taps in
this one); once it is over and the channel has been quiet for two seconds, every request the bot
made for that channel is sorted: messages created public (not ephemeral) in the channel, their JSON
payloads (the body, or the ``payload_json`` part of a multipart body) and attachments by kind
(board PNGs, PDN, replay GIF), later edits of those messages, and private (ephemeral) messages.
For each board message (one with a PNG): the image's size, the embed's field count, and how many
times the player to move is mentioned in the content (where a mention can ping: pings are
counted from ``allowed_mentions``) and in the embed.  The bot logs at WARNING.  The load average
at the start and the end is printed: the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from PIL import Image  # noqa: E402
from support.fake_discord import FakeDiscord, Guild, RecordedRequest  # noqa: E402
from support.sample_games import HELPMATE  # noqa: E402

from rules import Game, find_variant  # noqa: E402

T = TypeVar("T")
ALICE, BOB = "1100000000000000101", "1100000000000000102"
EPHEMERAL, MESSAGE, UPDATE = 64, 4, 7
STEP_TIMEOUT = 30.0
MENTION = re.compile(r"<@!?(\d+)>")


CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback")
FOLLOW_UP = re.compile(r"/webhooks/\d+/[^/]+")
COMMANDS = re.compile(r"/applications/\d+(/guilds/\d+)?/commands")


class Fake(FakeDiscord):
    """This checkout's fake, except that a command list Discord would refuse is taken (and
    recorded in :attr:`violations`): bots before issue 13 sent one, and could not start."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checking: dict[str, list[float]] = {}
        """Seconds spent checking each request body, by kind (``callback``, ``follow-up``,
        ``other``): part of every timing here, and not Discord's own."""

    def check_body(self, rec: RecordedRequest) -> Any:
        started = time.perf_counter()
        refusal = super().check_body(rec)
        kind = "other"
        if rec.method == "POST" and CALLBACK.fullmatch(rec.path):
            kind = "callback"
        elif rec.method == "POST" and FOLLOW_UP.fullmatch(rec.path):
            kind = "follow-up"
        self.checking.setdefault(kind, []).append(time.perf_counter() - started)
        if refusal is not None and rec.method == "PUT" and COMMANDS.fullmatch(rec.path):
            return None
        return refusal


class BotProcess:
    """The bot of one checkout, through this checkout's launcher, logging to a file."""

    def __init__(self, fake: FakeDiscord, root: Path, workdir: Path) -> None:
        self.fake, self.root, self.workdir = fake, root, workdir
        self.log_path = workdir / "bot.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        # The root first; this checkout after it, so that the launcher (which puts this
        # checkout first unless it is on the path already) leaves the order alone.
        paths = [str(root)] + ([str(ROOT)] if root != ROOT else [])
        env.update(
            DISCORD_TOKEN="bench-token",
            DATABASE_PATH=str(workdir / "bench.db"),
            DEV_GUILD_ID=fake.guild.id,
            LOG_LEVEL="WARNING",
            PYTHONPATH=os.pathsep.join(paths),
        )
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None

    def code_from(self) -> str:
        """Where the bot process imports ``bot`` from (a check that ``--root`` is used)."""
        out = subprocess.run(
            [sys.executable, "-c", "import bot, rules; print(bot.__file__, rules.__file__)"],
            cwd=self.workdir,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()

    async def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "tests" / "support" / "discord_launcher.py"),
                    str(self.fake.port),
                    "bot.__main__:main",
                    "--main",
                ],
                cwd=self.workdir,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        fake = self.fake
        await self.alive(fake.wait_until(lambda: fake.sessions_identified > 0, timeout=60))
        await self.alive(fake.wait_until(lambda: fake.commands.get(fake.guild.id), timeout=60))

    async def alive(self, waiting: Awaitable[T], timeout: float = STEP_TIMEOUT) -> T:
        """Await ``waiting``; stop at once, with the log, if the bot exits or it takes too long."""
        task = asyncio.ensure_future(waiting)
        deadline = time.monotonic() + timeout
        try:
            while True:
                await asyncio.wait({task}, timeout=0.05)
                if task.done():
                    return task.result()
                if self.proc is not None and self.proc.poll() is not None:
                    raise SystemExit(f"the bot exited with {self.proc.returncode}:\n{self.log()}")
                if time.monotonic() > deadline:
                    raise SystemExit(f"no answer in {timeout} s; the bot's log:\n{self.log()}")
        finally:
            task.cancel()

    def log(self) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-4000:]

    async def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


# -- reading requests and messages ----------------------------------------------------------


def body_of(request: RecordedRequest) -> dict[str, Any]:
    """The message part of a request: ``data`` of an interaction callback, else the body."""
    body = request.json if isinstance(request.json, dict) else {}
    if "type" in body and "data" in body:
        return dict(body["data"] or {})
    return dict(body)


def custom_ids(message: dict[str, Any]) -> list[str]:
    rows = message.get("components") or []
    return [c["custom_id"] for row in rows for c in row.get("components", []) if "custom_id" in c]


def options_of(message: dict[str, Any], custom_id: str) -> list[str]:
    for row in message.get("components") or []:
        for c in row.get("components", []):
            if c.get("custom_id") == custom_id:
                return [str(o["value"]) for o in c.get("options") or []]
    return []


def json_bytes(request: RecordedRequest) -> int:
    """The size of the request's JSON: the body, or a multipart body's ``payload_json``."""
    for part in request.parts:
        if part.name == "payload_json":
            return len(part.data)
    return len(request.body)


def kind_of(filename: str) -> str:
    suffix = filename.rsplit(".", 1)[-1].lower()
    return suffix if suffix in ("png", "pdn", "gif") else "other"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# -- playing -----------------------------------------------------------------------------------


class Table:
    """Two users playing in the channels of one fake guild, through one bot process."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess) -> None:
        self.fake, self.bot = fake, bot
        self.sent_at = 0.0  # when the last interaction was sent (perf_counter)

    def callback_path(self, payload: dict[str, Any]) -> str:
        return f"/interactions/{payload['id']}/{payload['token']}/callback"

    def followup_path(self, payload: dict[str, Any]) -> str:
        return f"/webhooks/{self.fake.application_id}/{payload['token']}"

    async def interact(
        self, payload: dict[str, Any], method: str, path: str
    ) -> tuple[float, RecordedRequest]:
        """Send ``payload`` as Discord would; the time until the bot's ``method path`` request
        has been received in full, and that request."""
        arrived = self.fake.expect(method, path)
        self.sent_at = started = time.perf_counter()
        await self.fake.send_interaction(payload)
        request = await self.bot.alive(arrived)
        return time.perf_counter() - started, request

    def public(self, request: RecordedRequest, channel: str) -> dict[str, Any] | None:
        """The public message of ``channel`` the request created or edited, if it did."""
        if not 200 <= request.status < 300 or request.message_id is None:
            return None
        message = self.fake.messages.get(request.message_id) or self.fake.deleted_messages.get(
            request.message_id
        )
        if message is None or message.get("channel_id") != channel:
            return None
        ephemeral = int(message.get("flags") or 0) & EPHEMERAL
        if request.message_id in self.fake.ephemeral_for or ephemeral:
            return None
        return message

    async def board_since(self, since: int, channel: str) -> dict[str, Any]:
        """The first public board message (one with a PNG) posted in ``channel`` by a request
        after the ``since``-th."""

        def found() -> dict[str, Any] | None:
            for request in self.fake.requests[since:]:
                if any(n.endswith(".png") for n in request.files):
                    message = self.public(request, channel)
                    if message is not None:
                        return message
            return None

        return await self.bot.alive(self.fake.wait_until(found, timeout=STEP_TIMEOUT))

    async def start_game(self, channel: str, variant: str = "english") -> dict[str, Any]:
        """Alice challenges Bob to ``variant`` (Alice plays Black), Bob presses Accept: the
        first board message."""
        options = [
            {"name": "opponent", "type": 6, "value": BOB},
            {"name": "variant", "type": 3, "value": variant},
            {"name": "color", "type": 3, "value": "black"},
        ]
        resolved = {
            "users": {BOB: {"id": BOB, "username": "bob", "discriminator": "0", "avatar": None}},
            "members": {},
        }
        payload = self.fake.command_interaction(
            "challenge", options, user_id=ALICE, channel_id=channel, resolved=resolved
        )
        await self.interact(payload, "POST", self.callback_path(payload))
        message = self.fake.original_message(payload["token"])
        assert message is not None, "the challenge made no message"
        (accept,) = [c for c in custom_ids(message) if "accept" in c]
        since = len(self.fake.requests)
        press = self.fake.button_interaction(accept, message, user_id=BOB)
        await self.interact(press, "POST", self.callback_path(press))
        return await self.board_since(since, channel)

    async def command_move(self, board: dict[str, Any], player: str, move: str) -> dict[str, Any]:
        """``/move`` by ``player`` in the board's channel: the next board message."""
        channel = board["channel_id"]
        payload = self.fake.command_interaction(
            "move", [{"name": "move", "type": 3, "value": move}], user_id=player, channel_id=channel
        )
        since = len(self.fake.requests)
        _, callback = await self.interact(payload, "POST", self.callback_path(payload))
        if int(body_of(callback).get("flags") or 0) & EPHEMERAL:
            raise SystemExit(f"/move {move} was refused: {body_of(callback).get('content')}")
        return await self.board_since(since, channel)

    async def tap_move(
        self, board: dict[str, Any], player: str, move: str, timings: Timings | None
    ) -> dict[str, Any]:
        """Play ``move`` (full PDN) by taps on ``board``: Move, the piece (unless the picker
        opens on it), the move.  The public board that follows."""
        fake = self.fake
        (button,) = [c for c in custom_ids(board) if c.startswith("board:move:")]
        press = fake.button_interaction(button, fake.messages[board["id"]], user_id=player)
        took, callback = await self.interact(press, "POST", self.callback_path(press))
        body = callback.json or {}
        if body.get("type") != MESSAGE or not int(body_of(callback).get("flags") or 0) & EPHEMERAL:
            raise SystemExit(f"Move gave no private picker: {body}")
        picker = fake.original_message(press["token"])
        assert picker is not None
        if timings is not None:
            timings.picker.append(took)
        origin = move.replace("x", "-").split("-")[0]
        select = self.picker_select(picker)
        if select.split(":")[3] == "0":  # the pieces first
            if origin not in options_of(picker, select):
                raise SystemExit(f"piece {origin} is not offered: {options_of(picker, select)}")
            choice = fake.select_interaction(select, picker, [origin], user_id=player)
            took, callback = await self.interact(choice, "POST", self.callback_path(choice))
            if (callback.json or {}).get("type") != UPDATE:
                raise SystemExit(f"choosing a piece did not update the picker: {callback.json}")
            if timings is not None:
                timings.piece.append(took)
            picker = fake.messages[picker["id"]]
            select = self.picker_select(picker)
        if select.split(":")[3] != origin or move not in options_of(picker, select):
            raise SystemExit(f"{move} is not offered in {select}: {options_of(picker, select)}")
        choice = fake.select_interaction(select, picker, [move], user_id=player)
        closed = fake.expect("POST", self.callback_path(choice))
        closed_at: list[float] = []
        closed.add_done_callback(lambda _: closed_at.append(time.perf_counter()))
        took, followup = await self.interact(choice, "POST", self.followup_path(choice))
        started = self.sent_at
        closing = await self.bot.alive(closed)
        if (closing.json or {}).get("type") != UPDATE:
            raise SystemExit(f"choosing the move did not close the picker: {closing.json}")
        if int(body_of(followup).get("flags") or 0) & EPHEMERAL:
            raise SystemExit(f"the board after {move} is private: {body_of(followup)}")
        if timings is not None:
            timings.board.append(took)
            timings.closed.append(closed_at[0] - started)
        message = fake.message_of(followup)
        if message is None:
            raise SystemExit(f"the board after {move} made no message: {followup!r}")
        return message

    @staticmethod
    def picker_select(message: dict[str, Any]) -> str:
        (select,) = [c for c in custom_ids(message) if c.startswith("pick:")]
        return select


@dataclass
class Timings:
    picker: list[float] = field(default_factory=list)
    piece: list[float] = field(default_factory=list)
    closed: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)


async def settle(fake: FakeDiscord, quiet: float = 2.0, limit: float = 60.0) -> None:
    """Wait until the bot has made no request for ``quiet`` seconds (at most ``limit``)."""
    seen, since = len(fake.requests), time.monotonic()
    deadline = since + limit
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        if len(fake.requests) != seen:
            seen, since = len(fake.requests), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


# -- counting a game's messages -------------------------------------------------------------


@dataclass
class Tally:
    """What one game put in its channel."""

    label: str
    public: int = 0  # messages created public in the channel
    boards: int = 0  # of which board messages (with a PNG)
    others: list[str] = field(default_factory=list)  # the other public messages, shortened
    json_bytes: int = 0  # the JSON of the requests that created them
    edits: int = 0  # later edits of those messages (type 7 updates, PATCHes)
    edit_bytes: int = 0
    files: dict[str, list[int]] = field(default_factory=dict)  # kind -> sizes (public)
    png_sizes: set[tuple[int, int]] = field(default_factory=set)
    gif: list[str] = field(default_factory=list)  # "WxH, N frames"
    fields: list[int] = field(default_factory=list)  # embed fields per board
    description: list[int] = field(default_factory=list)  # embed description chars per board
    mover_content: list[int] = field(default_factory=list)  # per running board
    mover_embed: list[int] = field(default_factory=list)
    pings: int = 0  # users a public message could ping, summed over the game
    buttons: list[int] = field(default_factory=list)  # per board
    alt_text: list[int] = field(default_factory=list)  # image alt text chars per board
    board_json: list[int] = field(default_factory=list)  # JSON bytes per board
    private: int = 0  # ephemeral messages created
    private_updates: int = 0  # and their later updates
    private_bytes: int = 0  # the JSON and files of both
    private_png: int = 0  # of which images
    violations: list[str] = field(default_factory=list)


def embed_texts(message: dict[str, Any]) -> str:
    parts = []
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [(embed.get("footer") or {}).get("text") or ""]
        parts += [(embed.get("author") or {}).get("name") or ""]
        for f in embed.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
    return "\n".join(parts)


def pinged(body: dict[str, Any], content: str) -> int:
    """How many users the content mentions in a way the message lets ping."""
    allowed = body.get("allowed_mentions")
    mentioned = set(MENTION.findall(content))
    if allowed is None:  # Discord's default: every mention in the content pings
        return len(mentioned)
    if "users" in (allowed.get("parse") or []):
        return len(mentioned)
    return len(mentioned & {str(u) for u in allowed.get("users") or []})


def tally(
    fake: FakeDiscord, table: Table, channel: str, since: int, moves: tuple[str, ...], label: str
) -> Tally:
    """Sort the requests after the ``since``-th that concern ``channel`` (see the module's
    docstring); ``moves`` are the game's moves, to know who is to move on each board."""
    game = Game(find_variant("english"))
    movers = []  # the player to move at each ply, None once the game is over
    for move in (*moves, None):
        movers.append(None if game.is_over else ALICE if game.turn.label == "black" else BOB)
        if move is not None:
            game.play(move)
    out = Tally(label)
    created: set[str] = set()
    for request in fake.requests[since:]:
        mid = request.message_id
        if mid is None or not 200 <= request.status < 300:
            continue
        message = fake.messages.get(mid) or fake.deleted_messages.get(mid)
        if message is None or message.get("channel_id") != channel:
            continue
        files = [(p.filename, p.data) for p in request.parts if p.filename is not None]
        size = json_bytes(request)
        if table.public(request, channel) is None:
            if mid not in created:
                out.private += 1
                created.add(mid)
            else:
                out.private_updates += 1
            out.private_bytes += size + sum(len(d) for _, d in files)
            out.private_png += sum(len(d) for n, d in files if kind_of(n) == "png")
            continue
        if mid in created:
            out.edits += 1
            out.edit_bytes += size + sum(len(d) for _, d in files)
            continue
        created.add(mid)
        body = body_of(request)
        content = str(body.get("content") or "")
        out.public += 1
        out.json_bytes += size
        out.pings += pinged(body, content)
        for name, data in files:
            kind = kind_of(name)
            out.files.setdefault(kind, []).append(len(data))
            if kind in ("png", "gif"):
                image = Image.open(io.BytesIO(data))
                if kind == "png":
                    out.png_sizes.add(image.size)
                else:
                    frames = getattr(image, "n_frames", 1)
                    out.gif.append(f"{image.size[0]}x{image.size[1]}, {frames} frames")
        pngs = [name for name, _ in files if kind_of(name) == "png"]
        if pngs:
            # game-<id>-<ply>.png in both trees; else boards are taken to come one per ply
            named = re.search(r"-(\d+)\.png$", pngs[0])
            ply = int(named[1]) if named else out.boards
            out.boards += 1
            embeds = body.get("embeds") or []
            out.fields.append(sum(len(e.get("fields") or []) for e in embeds))
            out.description.append(sum(len(e.get("description") or "") for e in embeds))
            out.buttons.append(len(custom_ids(body)))
            out.board_json.append(size)
            alts = [a.get("description") or "" for a in body.get("attachments") or []]
            out.alt_text.append(sum(len(a) for a in alts))
            mover = movers[ply] if ply < len(movers) else None
            if mover is not None:
                out.mover_content.append(sum(u == mover for u in MENTION.findall(content)))
                texts = embed_texts({"embeds": embeds})
                out.mover_embed.append(sum(u == mover for u in MENTION.findall(texts)))
        else:
            text = content or embed_texts(body)
            shown = " ".join(text.split())
            names = ", ".join(name for name, _ in files)
            out.others.append((shown[:70] + ("…" if len(shown) > 70 else "")) + f" [{names}]")
    out.violations = [repr(v)[:200] for v in getattr(fake, "violations", [])]
    return out


# -- the two parts ------------------------------------------------------------------------------


async def play_helpmate(
    table: Table, channel: str, *, taps: bool, label: str, fake: FakeDiscord
) -> Tally:
    since = len(fake.requests)
    board = await table.start_game(channel)
    game = Game(find_variant("english"))
    for move in HELPMATE:
        player = ALICE if game.turn.label == "black" else BOB
        if taps:
            board = await table.tap_move(board, player, move, None)
        else:
            board = await table.command_move(board, player, move)
        game.play(move)
    assert game.is_over, "HELPMATE did not end the game"
    await settle(fake)
    return tally(fake, table, channel, since, HELPMATE, label)


async def timed_games(
    table: Table, channels: list[str], args: argparse.Namespace
) -> tuple[Timings, int, int]:
    """Part 1: the games by taps, one after another; the timings and the plies and games."""
    rng = random.Random(args.seed)
    timings = Timings()
    plies = ended = 0
    for channel in channels:
        board = await table.start_game(channel)
        game = Game(find_variant("english"))
        for _ in range(args.plies):
            if game.is_over:
                break
            move = rng.choice(game.legal_moves()).pdn()
            player = ALICE if game.turn.label == "black" else BOB
            counted = plies >= args.warmup
            board = await table.tap_move(board, player, move, timings if counted else None)
            game.play(move)
            plies += 1
        ended += game.is_over
    return timings, plies, ended


@dataclass
class TreeRun:
    """What one bot process of one checkout gave."""

    code: str  # where its bot and rules packages were imported from
    tallies: list[Tally]
    timings: Timings | None = None
    plies: int = 0
    ended: int = 0
    checking: dict[str, list[float]] = field(default_factory=dict)


async def run_tree(root: Path, args: argparse.Namespace, *, timing: bool) -> TreeRun:
    """One bot process of ``root``: HELPMATE by ``/move``; with ``timing``, HELPMATE by taps
    too and then the timed games."""
    channels = [str(1100000000000001000 + i) for i in range(args.games + 2)]
    guild = Guild(channels={c: f"table-{i}" for i, c in enumerate(channels)})
    label = "after" if root == ROOT else "before"
    with tempfile.TemporaryDirectory() as tmp:
        async with Fake(guild=guild) as fake:
            bot = BotProcess(fake, root, Path(tmp))
            out = TreeRun(code=bot.code_from(), tallies=[])
            await bot.start()
            table = Table(fake, bot)
            try:
                out.tallies.append(
                    await play_helpmate(
                        table, channels[0], taps=False, label=f"{label}, /move", fake=fake
                    )
                )
                if timing:
                    out.tallies.append(
                        await play_helpmate(
                            table, channels[1], taps=True, label=f"{label}, taps", fake=fake
                        )
                    )
                    fake.checking.clear()
                    out.timings, out.plies, out.ended = await timed_games(table, channels[2:], args)
                    out.checking = dict(fake.checking)
                    # A bot that broke Discord's contract did not do the work being timed.
                    if fake.violations:
                        raise SystemExit(f"Discord would refuse requests: {fake.violations[:3]}")
            finally:
                await bot.stop()
    return out


# -- the report ---------------------------------------------------------------------------------


def spread(values: list[int]) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    mean = statistics.mean(values)
    return f"{mean:.1f} ({low}-{high})" if low != high else str(low)


def kib(n: float) -> str:
    return f"{n / 1024:.1f} KiB"


def message_rows(t: Tally) -> list[tuple[str, str]]:
    def files(kind: str) -> str:
        sizes = t.files.get(kind, [])
        if not sizes:
            return "none"
        return f"{len(sizes)}, {kib(sum(sizes))} (each {kib(statistics.mean(sizes))})"

    attached = sum(sum(s) for s in t.files.values())
    sizes = ", ".join(f"{w}x{h}" for w, h in sorted(t.png_sizes)) or "-"
    return [
        ("public messages", str(t.public)),
        ("of which board messages", str(t.boards)),
        ("other public messages", str(len(t.others))),
        ("JSON of the public messages", kib(t.json_bytes)),
        ("JSON per board message (bytes)", spread(t.board_json)),
        ("board PNGs: count, total (each)", files("png")),
        ("board image size (px)", sizes),
        ("PDN files", files("pdn")),
        ("replay GIF", files("gif") + (f"; {', '.join(t.gif)}" if t.gif else "")),
        ("everything public (JSON + files)", kib(t.json_bytes + attached)),
        ("edits of public messages: count, bytes", f"{t.edits}, {kib(t.edit_bytes)}"),
        ("embed fields per board", spread(t.fields)),
        ("embed description chars per board", spread(t.description)),
        ("image alt text chars per board", spread(t.alt_text)),
        ("buttons per board", spread(t.buttons)),
        ("mover mentioned per running board, content", spread(t.mover_content)),
        ("mover mentioned per running board, embed", spread(t.mover_embed)),
        ("pings in the game (allowed mentions)", str(t.pings)),
        (
            "private messages: count, updates, bytes (PNGs)",
            f"{t.private}, {t.private_updates}, {kib(t.private_bytes)} ({kib(t.private_png)})",
        ),
    ]


def timing_rows(timings: Timings) -> list[tuple[str, list[float]]]:
    return [
        ("Move pressed → picker", timings.picker),
        ("piece chosen → its moves", timings.piece),
        ("move chosen → picker closed", timings.closed),
        ("move chosen (last tap) → public board", timings.board),
    ]


def report(runs: list[TreeRun], args: argparse.Namespace, load: tuple[str, str]) -> None:
    md = args.markdown
    print(
        f"# phone play, python {platform.python_version()}, {os.cpu_count()} CPUs "
        f"({cpu_model()}), {time.strftime('%Y-%m-%d')}; load average at start {load[0]}, "
        f"at the end {load[1]}"
    )
    for run in runs:
        print(f"# {run.tallies[0].label.split(',')[0]}: bot code from {run.code}")
    timed = runs[-1]
    if timed.timings is not None:
        print(
            f"\n## Part 1: taps, {args.games} English games, up to {args.plies} plies each "
            f"({timed.plies} plies, {timed.ended} games ended, first {args.warmup} plies not "
            f"timed), seed {args.seed}"
        )
        header = ("step", "count", "p50 ms", "p90 ms", "p99 ms", "max ms")
        if md:
            print("\n| " + " | ".join(header) + " |\n|---|---:|---:|---:|---:|---:|")
        for name, values in timing_rows(timed.timings):
            ms = [v * 1000 for v in values]
            if not ms:
                continue
            cells = (
                name,
                str(len(ms)),
                f"{statistics.median(ms):.1f}",
                f"{percentile(ms, 90):.1f}",
                f"{percentile(ms, 99):.1f}",
                f"{max(ms):.1f}",
            )
            if md:
                print("| " + " | ".join(cells) + " |")
            else:
                print(
                    f"  {cells[0]:40} n={cells[1]:>4}  p50 {cells[2]:>6}  p90 {cells[3]:>6}  "
                    f"p99 {cells[4]:>6}  max {cells[5]:>6} ms"
                )
        checks = ", ".join(
            f"{kind} {statistics.median(v) * 1000:.1f} ms p50 (n={len(v)})"
            for kind, v in sorted(timed.checking.items())
        )
        print(f"\nthe fake's own checks of a request body (in the figures above): {checks}")
    tallies = [t for run in runs for t in run.tallies]
    print(f"\n## Part 2: the public messages of one game (HELPMATE, {len(HELPMATE)} plies)")
    rows = [message_rows(t) for t in tallies]
    if md:
        print("\n| per game | " + " | ".join(t.label for t in tallies) + " |")
        print("|---|" + "---|" * len(tallies))
        for i, (name, _) in enumerate(rows[0]):
            print(f"| {name} | " + " | ".join(r[i][1] for r in rows) + " |")
    else:
        for t, r in zip(tallies, rows, strict=True):
            print(f"\n{t.label}")
            for name, value in r:
                print(f"  {name:48} {value}")
    for t in tallies:
        print(f"\n{t.label}: the public messages that are not boards")
        for line in t.others:
            print(f"  - {line}")
        for v in t.violations:
            print(f"  ! the fake took, though Discord would refuse: {v}")


async def run(args: argparse.Namespace) -> None:
    load_start = loadavg()
    runs = []
    if args.root is not None:
        runs.append(await run_tree(args.root.resolve(), args, timing=False))
    runs.append(await run_tree(ROOT, args, timing=True))
    report(runs, args, (load_start, loadavg()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--root", type=Path, default=None, help="an older checkout to count messages of (before)"
    )
    parser.add_argument("--games", type=int, default=20, help="games played by taps, timed")
    parser.add_argument("--plies", type=int, default=30, help="plies per timed game at most")
    parser.add_argument("--warmup", type=int, default=4, help="first plies not timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
