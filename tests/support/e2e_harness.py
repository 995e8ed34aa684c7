"""The end-to-end harness: the real bot process (``python -m bot``'s ``main`` through
``tests/support/discord_launcher.py``) against the fake Discord of
``tests/support/fake_discord.py``.

:class:`BotProcess` starts, stops (SIGTERM), kills (SIGKILL) and restarts the bot on one database
file; :class:`Users` sends what Discord users would do (slash commands with typed options,
autocomplete, button presses) and waits for the bot's answer, failing at once with the bot's log
if the process dies.  Assertions are left to the tests: they look at the recorded requests and
messages, and decode the attachments (PNG, PDN, GIF) the bot uploaded.

Components: :meth:`Users.press` and :meth:`Users.select` act on a public or an ephemeral message
(``Sent.message()``, ``await Sent.followup_message(i)``, ``fake.messages[id]``, or a
``copy.deepcopy`` taken before an edit, for a client that has not caught up), refused by the fake
when Discord could not deliver them; :func:`component`, :func:`select_options` and
:func:`select_values` read menus. Attachments: :func:`attachments_of` (filename, alt text, bytes)
and :func:`images_without_alt_text`. DMs: ``fake.dms_to(user)``, :func:`dm_number`,
``fake.block_dms(user)``.

Several guilds and shards: with ``FakeDiscord(guilds=[...])`` (see ``fake_discord.guild_on_shard``)
:class:`Users` act in the guild of the channel they use (a member of it: ``guild.user_id(name)``,
``guild.channel_id("general")``); ``BotProcess(fake, workdir, database_url, shards=[0, 1],
DEV_GUILD_ID="", SHARD_COUNT=..., ...)`` runs one process of a sharded bot, syncing its commands
globally, and :meth:`BotProcess.start` waits for its shards; ``fake.delivered_to(sent.payload)``
tells which gateway session (``.shard``) got an interaction.

The database: a SQLite file in the test's folder, or, when the suite runs against PostgreSQL
(``E2E_DATABASE=postgresql`` or ``pytest --e2e-database=postgresql``), a fresh schema on the
session's PostgreSQL server for each test (``DATABASE_URL``, :mod:`support.pg_schemas`;
conftest's ``e2e_database`` fixture registers it in :data:`DATABASE_URLS`).  ``bot.database``
is either; :func:`db_rows`, :func:`db_dicts` and :func:`db_run` read and write it through a
connection of their own, with ``?`` placeholders on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest
from PIL import Image, ImageStat

from render.board import layout, square_centre
from support import warm_launcher
from support.fake_discord import (
    EPHEMERAL,
    FakeDiscord,
    Guild,
    RecordedRequest,
    Upload,
    find_component,
    user_object,
)
from support.warm_launcher import ForkedProcess

TESTS = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = 30.0
STEP_TIMEOUT = 15.0
COMMANDS_SETTLED = re.compile(r"synced \d+ commands|commands unchanged since the last sync")
"""What the bot logs once its commands are synced, or found unchanged since the last sync."""
T = TypeVar("T")

ALICE = "1100000000000000101"
BOB = "1100000000000000102"
CAROL = "1100000000000000103"
GENERAL = "1100000000000000201"
DRAUGHTS = "1100000000000000202"
OFFTOPIC = "1100000000000000203"

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ATTACHMENT = 3, 4, 5, 6, 7, 11


E2E_DATABASE = "E2E_DATABASE"
"""The environment variable choosing the e2e suite's database: ``sqlite`` (the default) or
``postgresql``."""

DATABASE_URLS: dict[Path, str] = {}
"""The PostgreSQL database of each test folder, when the suite runs against PostgreSQL: every
:class:`BotProcess` working in that folder gets it as ``DATABASE_URL`` (one database per test,
shared by its bot processes as they share the SQLite file)."""


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end on an event loop of its own in another thread: for sync
    helpers (``poll`` predicates, sync fixtures) while the test's loop runs the fake Discord."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _numbered(sql: str) -> str:
    numbers = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


def db_dicts(database: Path | str, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
    """Rows (column name to value) of ``sql`` from the bot's database, SQLite file or
    PostgreSQL, through a connection of the test's own: what is committed."""
    values = tuple(params)
    if isinstance(database, str):

        async def fetch() -> list[dict[str, Any]]:
            conn = await asyncpg.connect(database)
            try:
                return [dict(row) for row in await conn.fetch(_numbered(sql), *values)]
            finally:
                await conn.close()

        return run_sync(fetch())
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute(sql, values).fetchall()]


def db_rows(database: Path | str, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    """:func:`db_dicts` as tuples."""
    return [tuple(row.values()) for row in db_dicts(database, sql, params)]


def db_run(database: Path | str, sql: str, params: Iterable[Any] = ()) -> None:
    """One statement, committed, in the bot's database (what a crash or an older run left)."""
    values = tuple(params)
    if isinstance(database, str):

        async def run() -> None:
            conn = await asyncpg.connect(database)
            try:
                await conn.execute(_numbered(sql), *values)
            finally:
                await conn.close()

        run_sync(run())
        return
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute(sql, values)


async def poll(predicate: Callable[[], Any], timeout: float) -> Any:
    """Wait until ``predicate()`` is truthy, checking every 50 ms: for what the bot writes to its
    log, which wakes no waiter of the fake's (that only re-checks on requests it receives)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"condition not met in {timeout}s")
        await asyncio.sleep(0.05)
    return value


class BotProcess:
    """The bot as a separate process, with a log file and one database that outlives restarts:
    ``workdir/draughts.db``, or the PostgreSQL database :data:`DATABASE_URLS` gives the folder
    (``database_url`` overrides).

    ``settings`` are environment variables over the defaults of :meth:`env`: an empty value
    leaves a setting out, e.g. ``DEV_GUILD_ID=""`` for a bot that syncs its commands globally
    (they then apply in every guild of the fake). Several processes may share one database: give
    each its own ``workdir`` (log, heartbeat) and the same ``database_url`` (or point
    ``DATABASE_PATH`` at one SQLite file). ``shards``: the shard ids the process connects (its
    settings choose them); :meth:`start` then also waits until the fake has a session on each.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        database_url: str | None = None,
        *,
        shards: Iterable[int] | None = None,
        **settings: str,
    ) -> None:
        self.fake = fake
        self.workdir = workdir
        shared_file = settings.get("DATABASE_PATH", "").strip()
        self.database_file = Path(shared_file) if shared_file else workdir / "draughts.db"
        self.database_url = database_url or DATABASE_URLS.get(workdir)
        self.database: Path | str = self.database_url or self.database_file
        """Where the bot keeps its data: the SQLite file, or the PostgreSQL DSN."""
        heartbeat = settings.get("HEARTBEAT_PATH", "").strip()
        if heartbeat:
            self.heartbeat = workdir / heartbeat  # relative to the bot's working directory
        elif self.database_url:
            self.heartbeat = self.database_file.parent / "heartbeat"
        else:
            self.heartbeat = Path(f"{self.database_file}-alive")
        """The heartbeat file (``bot.config``: ``HEARTBEAT_PATH``, else beside the SQLite file,
        or in its folder with ``DATABASE_URL``)."""
        self.log_path = workdir / "bot.log"
        self.settings = settings
        self.shards: frozenset[int] | None = None if shards is None else frozenset(shards)
        self.proc: ForkedProcess | None = None
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("DISCORD_") and k != "DATABASE_URL"
        }
        env.update(
            {
                "DISCORD_TOKEN": "test-token",
                "DATABASE_PATH": str(self.database_file),
                "DEV_GUILD_ID": self.fake.guild.id,
                "LOG_LEVEL": "INFO",
                "SCHEDULER_INTERVAL_SECONDS": "0.2",
                "ENGINE_MOVE_TIME_SECONDS": "0.2",
                "PYTHONUNBUFFERED": "1",
            }
        )
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
        env.update(self.settings)
        return env

    def spawn(self) -> None:
        """Start the bot process (``python -m bot``'s ``main`` through the launcher, forked
        warm: see ``tests/support/warm_launcher.py``), logging to :attr:`log_path`; callers wait for
        what they need."""
        self.proc = warm_launcher.spawn(
            [str(self.fake.port), "bot.__main__:main", "--main"],
            self.env(),
            self.workdir,
            self.log_path,
        )
        self.starts += 1

    async def start(self) -> None:
        """Start the bot and wait until it has synced its commands and identified on the gateway
        (on each of :attr:`shards`, when given; after that it answers interactions). A process
        without shard 0 syncs no commands (shard 0's process does), so that is not waited for."""
        identified = self.fake.sessions_identified
        settled = len(COMMANDS_SETTLED.findall(self.log()))
        syncs = self.shards is None or 0 in self.shards
        self.spawn()
        await self.alive(
            poll(
                lambda: (
                    # synced, or (a restart on the same database) found unchanged
                    (not syncs or len(COMMANDS_SETTLED.findall(self.log())) > settled)
                    and self.fake.sessions_identified > identified
                    and self._ready_logged()
                ),
                timeout=STARTUP_TIMEOUT,
            )
        )
        if self.shards is not None:
            # discord.py identifies one shard every 5 seconds.
            await self.alive(self.fake.wait_for_shards(*self.shards, timeout=STARTUP_TIMEOUT))

    def _command_syncs(self) -> list[RecordedRequest]:
        """The bot's command syncs: to its development guild, or global without one."""
        guild_id = self.env().get("DEV_GUILD_ID", "").strip()
        app = self.fake.application_id
        path = f"/applications/{app}/guilds/{guild_id}/commands" if guild_id else None
        path = path or f"/applications/{app}/commands"
        return [r for r in self.fake.requests if r.method == "PUT" and r.path == path]

    def _ready_logged(self) -> bool:
        return self.log().count("ready to serve") >= self.starts

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def alive(self, waiting: Awaitable[T]) -> T:
        """Await ``waiting``, failing at once (with the log) if the bot exits meanwhile; what
        the bot did before it exited is still found."""
        task = asyncio.ensure_future(waiting)
        try:
            while True:
                await asyncio.wait({task}, timeout=0.05)
                if task.done():
                    return task.result()
                if self.proc is not None and self.proc.poll() is not None:
                    pytest.fail(f"the bot exited with {self.proc.returncode}:\n{self.log()}")
        finally:
            task.cancel()

    async def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM, and wait for a clean exit without blocking the fake's event loop."""
        proc = self.proc
        assert proc is not None
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:  # waited for in a thread, so the fake goes on answering the bot's last requests
            return await asyncio.to_thread(proc.wait, timeout)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGUSR1)  # the launcher logs every asyncio task,
            await asyncio.sleep(0.5)
            proc.send_signal(signal.SIGABRT)  # and its faulthandler every thread
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
            proc.kill()
            proc.wait(5)
            pytest.fail(f"the bot did not stop on SIGTERM:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no cleanup at all, as in a crash or an OOM kill."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)


@dataclass
class Sent:
    """An interaction the fake sent, and helpers to find what the bot did with it."""

    users: Users
    payload: dict[str, Any]

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    async def callback(self) -> RecordedRequest:
        """The bot's initial response."""
        path = rf"/interactions/{self.payload['id']}/{self.token}/callback"
        return await self.users.bot.alive(
            self.users.fake.wait_for_request("POST", path, timeout=STEP_TIMEOUT)
        )

    async def followup(self, index: int = 0) -> RecordedRequest:
        """The ``index``-th follow-up message the bot sent for this interaction."""
        path = rf"/webhooks/{self.users.fake.application_id}/{self.token}"

        def found() -> RecordedRequest | None:
            hits = [r for r in self.users.fake.requests if r.method == "POST" and r.path == path]
            return hits[index] if len(hits) > index else None

        return await self.users.bot.alive(self.users.fake.wait_until(found, timeout=STEP_TIMEOUT))

    async def original_edit(self) -> RecordedRequest:
        """The edit of the original response (a deferred answer filled in)."""
        path = rf"/webhooks/{self.users.fake.application_id}/{self.token}/messages/@original"
        return await self.users.bot.alive(
            self.users.fake.wait_for_request("PATCH", path, timeout=STEP_TIMEOUT)
        )

    def message(self) -> dict[str, Any]:
        """The message the response created (or the one it updated)."""
        message = self.users.fake.original_message(self.token)
        assert message is not None, "the interaction created no message"
        return message

    async def followup_message(self, index: int = 0) -> dict[str, Any]:
        """The stored message (as it is now, with later edits) that the ``index``-th follow-up
        created: e.g. an ephemeral picker sent as a follow-up, to press or select on."""
        request = await self.followup(index)
        message = self.users.fake.message_of(request)
        assert message is not None, f"follow-up {index} created no message: {request!r}"
        return message


class Users:
    """What people in the fake's guilds do: each command, autocomplete, press or select comes
    from the guild of its channel (the message's channel for a press or a select), or from a
    DM, and the user must be a member there."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess) -> None:
        self.fake = fake
        self.bot = bot
        self.locales: dict[str, str] = {}
        """Each user's client language (Discord's ``locale``), sent with everything they do;
        ``en-US`` for users not listed."""

    def locale(self, user_id: str) -> str:
        return self.locales.get(user_id, "en-US")

    def _member(self, user_id: str, guild: Guild | None = None) -> dict[str, Any]:
        member = self.fake.member_object(user_id, guild=guild)
        member.pop("user")
        return member

    def _user(self, user_id: str) -> dict[str, Any]:
        if user_id == self.fake.bot_user["id"]:
            return dict(self.fake.bot_user)
        username = self.fake.username(user_id)
        if username is None:
            raise KeyError(f"user {user_id} is in none of the fake's guilds")
        return user_object(user_id, username)

    def options(self, **values: Any) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """Discord option objects for keyword values; a value wrapped by :func:`user` is a user
        option with its resolved user and member (of the primary guild), one wrapped by
        :func:`channel` a channel option with its resolved channel."""
        return self._options(values, None)

    def _options(
        self, values: dict[str, Any], channel_id: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """:meth:`options` for a command in a channel (None: the primary guild): a user
        option's resolved member is of the channel's guild, and there is none for a user who
        is not a member there, or in a DM, as Discord resolves them."""
        in_dm = channel_id is not None and channel_id in self.fake.dm_recipients
        guild = (self.fake.guild_of(channel_id) if channel_id else None) or self.fake.guild
        options: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {"users": {}, "members": {}}
        for name, value in values.items():
            if isinstance(value, UserRef):
                options.append({"name": name, "type": USER, "value": value.id})
                resolved["users"][value.id] = self._user(value.id)
                is_member = value.id in guild.users or value.id == self.fake.bot_user["id"]
                if is_member and not in_dm:
                    resolved["members"][value.id] = self._member(value.id, guild)
            elif isinstance(value, ChannelRef):
                options.append({"name": name, "type": CHANNEL, "value": value.id})
                channel_data = {**self.fake.channel_object(value.id)}
                channel_data["permissions"] = self.fake.app_permissions
                resolved.setdefault("channels", {})[value.id] = channel_data
            elif isinstance(value, AttachmentRef):
                aid = self.fake.snowflake()
                self.fake.files[aid] = value.data  # served at its url, as Discord's CDN would
                options.append({"name": name, "type": ATTACHMENT, "value": aid})
                cid = channel_id or next(iter(self.fake.guild.channels))
                url = f"{self.fake.base_url}/attachments/{cid}/{aid}/{value.filename}"
                resolved.setdefault("attachments", {})[aid] = {
                    "id": aid,
                    "filename": value.filename,
                    "size": value.size,
                    "url": url,
                    "proxy_url": url,
                    "content_type": "application/octet-stream",
                }
            elif isinstance(value, bool):
                options.append({"name": name, "type": BOOLEAN, "value": value})
            elif isinstance(value, int):
                options.append({"name": name, "type": INTEGER, "value": value})
            else:
                options.append({"name": name, "type": STRING, "value": str(value)})
        kept = resolved["users"] or resolved.get("channels") or resolved.get("attachments")
        return options, (resolved if kept else None)

    async def command(self, name: str, user: str, channel: str = GENERAL, /, **values: Any) -> Sent:
        """``/name`` by ``user`` in ``channel`` with typed options (positional-only parameters,
        so options may be called ``user`` or ``channel`` too). The guild is the channel's."""
        options, resolved = self._options(values, channel)
        payload = self.fake.command_interaction(
            name,
            options,
            user_id=user,
            channel_id=channel,
            resolved=resolved,
            locale=self.locale(user),
        )
        await self.fake.send_interaction(payload)
        return Sent(self, payload)

    async def autocomplete(
        self, name: str, user: str, channel: str, focused: str, **values: Any
    ) -> list[dict[str, Any]]:
        options, _ = self._options(values, channel)
        payload = self.fake.autocomplete_interaction(
            name, options, focused, user_id=user, channel_id=channel, locale=self.locale(user)
        )
        await self.fake.send_interaction(payload)
        callback = await Sent(self, payload).callback()
        assert callback.json["type"] == 8
        return list(callback.json["data"]["choices"])

    async def press(
        self, custom_id: str, message: dict[str, Any] | str, user: str, *, forged: bool = False
    ) -> Sent:
        """``user`` presses the button ``custom_id`` on ``message``: a message id or the fake's
        stored object (the message as it is now), or a ``copy.deepcopy`` taken earlier (a
        client that has not seen a later edit yet). The fake refuses (``ComponentRefused``,
        failing the test) what Discord would not deliver: no such button on that message, a
        disabled one, someone else's ephemeral message; ``forged=True`` sends it anyway (a
        modified client; see :meth:`FakeDiscord.component_interaction`)."""
        payload = self.fake.button_interaction(
            custom_id, message, user_id=user, forged=forged, locale=self.locale(user)
        )
        await self.fake.send_interaction(payload)
        return Sent(self, payload)

    async def select(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        user: str,
        values: Iterable[str],
        *,
        forged: bool = False,
    ) -> Sent:
        """``user`` picks ``values`` in the string select ``custom_id`` on ``message`` (as for
        :meth:`press`, on a public or an ephemeral message). Refused like a press, and also for
        values not among the menu's options, repeated, or outside ``min_values`` ..
        ``max_values`` (both 1 unless the menu says otherwise)."""
        payload = self.fake.select_interaction(
            custom_id, message, list(values), user_id=user, forged=forged, locale=self.locale(user)
        )
        await self.fake.send_interaction(payload)
        return Sent(self, payload)


@dataclass(frozen=True)
class UserRef:
    id: str


def user(user_id: str) -> UserRef:
    return UserRef(user_id)


@dataclass(frozen=True)
class ChannelRef:
    id: str


@dataclass(frozen=True)
class AttachmentRef:
    filename: str
    data: bytes
    size: int


def attachment(filename: str, data: bytes, size: int | None = None) -> AttachmentRef:
    """An attachment option's value: a file the user uploads with the command (the fake serves
    its bytes at the attachment's url); ``size``: the size Discord states, if not the data's."""
    return AttachmentRef(filename, data, len(data) if size is None else size)


def channel(channel_id: str) -> ChannelRef:
    """A channel option's value (``allow_channel=channel(DRAUGHTS)``)."""
    return ChannelRef(channel_id)


# -- reading what the bot sent -----------------------------------------------------------------


def is_ephemeral(request: RecordedRequest) -> bool:
    body = request.json or {}
    data = body.get("data", body)
    return bool(int(data.get("flags") or 0) & EPHEMERAL)


def body_of(request: RecordedRequest) -> dict[str, Any]:
    """The message part of a callback (``data``) or of a webhook/channel message request."""
    body = request.json or {}
    return dict(body.get("data", body)) if "type" in body and "data" in body else dict(body)


def content_of(request: RecordedRequest) -> str:
    return str(body_of(request).get("content") or "")


def embed_of(request: RecordedRequest) -> dict[str, Any]:
    embeds = body_of(request).get("embeds") or []
    assert embeds, f"no embed in {request!r}: {request.json}"
    return dict(embeds[0])


def field(embed: dict[str, Any], name: str) -> str:
    for f in embed.get("fields", []):
        if f["name"] == name or f["name"].endswith(" " + name):
            return str(f["value"])
    raise AssertionError(f"no field {name!r} in {[f['name'] for f in embed.get('fields', [])]}")


def custom_ids(request_or_message: RecordedRequest | dict[str, Any]) -> list[str]:
    if isinstance(request_or_message, RecordedRequest):
        rows = body_of(request_or_message).get("components") or []
    else:
        rows = request_or_message.get("components") or []
    return [c["custom_id"] for row in rows for c in row.get("components", []) if "custom_id" in c]


def components_of(request_or_message: RecordedRequest | dict[str, Any]) -> list[dict[str, Any]]:
    """The top-level components (action rows) of a request's message body or of a message."""
    if isinstance(request_or_message, RecordedRequest):
        return list(body_of(request_or_message).get("components") or [])
    return list(request_or_message.get("components") or [])


def component(
    request_or_message: RecordedRequest | dict[str, Any], custom_id: str
) -> dict[str, Any]:
    """The component with this custom id (a button or a select menu); fails if there is none."""
    found = find_component({"components": components_of(request_or_message)}, custom_id)
    assert found is not None, f"no component {custom_id!r}: {custom_ids(request_or_message)}"
    return found


def select_options(
    request_or_message: RecordedRequest | dict[str, Any], custom_id: str
) -> list[dict[str, Any]]:
    """The options (``label``, ``value``, ``description``, ``default``...) of a string select."""
    menu = component(request_or_message, custom_id)
    assert menu.get("type") == 3, f"{custom_id!r} is not a string select: {menu}"
    return list(menu.get("options") or [])


def select_values(
    request_or_message: RecordedRequest | dict[str, Any], custom_id: str
) -> list[str]:
    """The values a user can pick in a string select, in order."""
    return [str(o["value"]) for o in select_options(request_or_message, custom_id)]


def attachments_of(request: RecordedRequest) -> list[Upload]:
    """The files uploaded with a request, in order, each an :class:`Upload` with ``filename``,
    ``description`` (the alt text of its ``attachments`` entry; None without one), ``data``
    (the bytes), ``content_type`` and ``is_image``."""
    return request.uploads


def images_without_alt_text(fake: FakeDiscord) -> list[str]:
    """Every image the bot uploaded (in a request Discord took) with no or a blank alt text,
    as ``"METHOD path: filename"``; ``[]`` when every image has a description."""
    return [f"{r.method} {r.path}: {u.filename}" for r, u in fake.uploads_missing_alt_text()]


def png_of(request: RecordedRequest) -> Image.Image:
    """The board PNG uploaded with ``request``, decoded (and checked to be a real image)."""
    pngs = {n: d for n, d in request.files.items() if n.endswith(".png")}
    assert len(pngs) == 1, f"expected one PNG in {request!r}, got {list(request.files)}"
    (data,) = pngs.values()
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def game_id_of(embed: dict[str, Any]) -> int:
    # "Game #7", or "Game #7 · English draughts / American checkers · rated"
    match = re.fullmatch(r"Game #(\d+)(?: · .+)?", embed["footer"]["text"])
    assert match, embed.get("footer")
    return int(match.group(1))


def channel_posts(fake: FakeDiscord, channel: str) -> list[RecordedRequest]:
    """Messages the bot posted straight into a channel or thread (not interaction answers)."""
    return [
        r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"
    ]


async def post_number(
    users: Users, channel: str, index: int, timeout: float = STEP_TIMEOUT
) -> RecordedRequest:
    """The ``index``-th message (from 0) the bot posted straight into ``channel``, once posted:
    the computer's replies come this way, after the answer to the move they reply to."""

    def found() -> RecordedRequest | None:
        posts = channel_posts(users.fake, channel)
        return posts[index] if len(posts) > index else None

    post: RecordedRequest = await users.bot.alive(users.fake.wait_until(found, timeout=timeout))
    return post


async def dm_number(
    users: Users, user: str, index: int, timeout: float = STEP_TIMEOUT
) -> RecordedRequest:
    """The ``index``-th message (from 0) the bot delivered into its DM with ``user``, once
    delivered (refused posts, as to a user who blocks DMs, are not counted: see
    ``fake.dms_to(user, delivered=False)``)."""

    def found() -> RecordedRequest | None:
        posts = users.fake.dms_to(user)
        return posts[index] if len(posts) > index else None

    post: RecordedRequest = await users.bot.alive(users.fake.wait_until(found, timeout=timeout))
    return post


async def first_answer(sent: Sent) -> RecordedRequest:
    """After a deferred "thinking" response: the edit that fills it in, or (on a refusal) the
    private follow-up, whichever comes first, so that a refusal fails at once and readably."""
    fake = sent.users.fake
    base = rf"/webhooks/{fake.application_id}/{sent.token}"

    def found() -> RecordedRequest | None:
        for r in fake.requests:
            if (r.method, r.path) in (("PATCH", base + "/messages/@original"), ("POST", base)):
                return r
        return None

    answer: RecordedRequest = await sent.users.bot.alive(
        fake.wait_until(found, timeout=STEP_TIMEOUT)
    )
    assert answer.method == "PATCH", f"refused instead: {content_of(answer)!r}"
    return answer


Launch = Callable[..., Awaitable[tuple[BotProcess, Users]]]
"""The ``launch`` fixture: ``bot, users = await launch(SETTING="value", ...)``."""


# -- the board message (issue 14: "a quiet channel") -------------------------------------------
#
# A board message: the content says whose turn it is (``<@ID> to move, due <t:TS:R>.``, the only
# mention) or, once the game is over, pings both players; the embed has no title and no fields,
# only a description of a few lines (players, headline, recent moves, a status or result line,
# the opening) and a footer ``Game #ID · Variant title · kind``; the image is the board PNG.

TURN_LINE = re.compile(
    r"<@(?P<id>\d+)> to move(?:, due <t:(?P<due>\d+):R>|, flag falls <t:(?P<flag>\d+):R>)?\."
)
"""The content of a running game's board message (a deadline, or a clocked game's flag)."""
STATUS_LINE = re.compile(
    r"\*\*[^*]+\*\*: .+|Aborted: no result|Takeback asked by .+|Draw offered by .+"
    r"|\d+-move count: \d+ left.*|.+: \d+ left.*|position repeated .+"
)
"""A status line (something pending) or the result line of a finished game."""


def board_lines(embed: dict[str, Any]) -> list[str]:
    """The lines of a board message's description, in order."""
    return str(embed.get("description") or "").split("\n")


def players_line(embed: dict[str, Any]) -> str:
    """The first line: ``**Alice** (White, 1500?) v **Bob** (Black, 1500?)``."""
    return board_lines(embed)[0]


@dataclass(frozen=True)
class Seat:
    """One side of the players line (``name`` already Markdown-escaped)."""

    name: str
    rating: str | None = None
    level: int | None = None

    def text(self, colour: str) -> str:
        """``**Alice** (White, 1500?)``, ``**Alice** (Black)`` (a casual game),
        ``**DraughtsBot** (White, computer level 3)``."""
        if self.level is not None:
            colour += f", computer level {self.level}"
        elif self.rating:
            colour += f", {self.rating}"
        return f"**{self.name}** ({colour})"


def seat(name: str, rating: str | None = None, *, level: int | None = None) -> Seat:
    """One side of the players line as the bot writes it (see :class:`Seat`)."""
    return Seat(name, rating, level)


def players_text(white: Seat, black: Seat) -> str:
    """The players line for two seats."""
    return f"{white.text('White')} v {black.text('Black')}"


@dataclass(frozen=True)
class BoardText:
    """A board message's description, read line by line (absent parts are None)."""

    players: str
    headline: str | None
    moves: str | None
    """The recent moves, without the code span's backticks: ``1. 11-15 22-18 2. 15x22``."""
    status: str | None
    """While running: what is pending (``Draw offered by Alice``); once over: the result."""
    opening: str | None
    """The ballot's name (what follows ``Opening: ``)."""
    clock: str | None = None
    """A clocked game's clocks: ``Clock 3+2 (Blitz): White 2:58 · Black 3:00``."""
    started: str | None = None
    """A game from a position of its own: its FEN (from ``Started from `W:...```)."""


def board_text(embed: dict[str, Any]) -> BoardText:
    """The parts of a board message's description (see :class:`BoardText`)."""
    players, *rest = board_lines(embed)
    clock = rest.pop(0) if rest and rest[0].startswith("Clock ") else None
    started = None
    if rest and rest[-1].startswith("Started from `"):
        started = rest.pop().removeprefix("Started from `").removesuffix("`")
    opening = None
    if rest and rest[-1].startswith("Opening: "):
        opening = rest.pop().removeprefix("Opening: ")
    spans = [i for i, line in enumerate(rest) if len(line) > 1 and line[0] == line[-1] == "`"]
    assert len(spans) <= 1, rest
    moves = None
    if spans:
        (i,) = spans
        moves = rest[i][1:-1]
        before, after = rest[:i], rest[i + 1 :]
    elif rest and STATUS_LINE.fullmatch(rest[-1]):
        before, after = rest[:-1], rest[-1:]
    else:
        before, after = rest, []
    assert len(after) <= 1, rest
    return BoardText(
        players=players,
        headline="\n".join(before) or None,
        moves=moves,
        status=after[0] if after else None,
        opening=opening,
        clock=clock,
        started=started,
    )


def headline_of(embed: dict[str, Any]) -> str | None:
    """What just happened (``Alice played 11-15. Bob to move.``), if the message says."""
    return board_text(embed).headline


def moves_of(embed: dict[str, Any]) -> str | None:
    """The recent moves shown (``1. 11-15 22-18``), without the backticks; None before any."""
    return board_text(embed).moves


def status_of(embed: dict[str, Any]) -> str | None:
    """The status line (running) or the result line (over), if there is one."""
    return board_text(embed).status


def last_move_of(embed: dict[str, Any]) -> str | None:
    """The last move in the recent moves (``15x22``); None before the first move."""
    moves = moves_of(embed)
    return None if moves is None else moves.split()[-1]


def footer_of(embed: dict[str, Any]) -> str:
    """The footer text: ``Game #1 · English draughts / American checkers · rated``."""
    return str(embed["footer"]["text"])


def footer_parts(embed: dict[str, Any]) -> tuple[int, str, str]:
    """The footer's game id, variant title and kind (``rated``, ``casual``, ``aborted,
    unrated``, with ``, match game N of 2`` when it is one)."""
    match = re.fullmatch(r"Game #(\d+) · (.+?) · (.+)", footer_of(embed))
    assert match, embed.get("footer")
    return int(match[1]), match[2], match[3]


def numbered(moves: list[str], last: int = 3) -> str:
    """The recent moves as the board message shows them, for ``moves`` played from the start
    (first mover first): the last ``last`` full moves, ``1. 11-15 22-18 2. 15x22``."""
    full = [f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return " ".join(full[-last:])


def to_move_in(request: RecordedRequest | dict[str, Any]) -> str | None:
    """The user id the content of a board message (a request or a stored message) says is to
    move (``<@ID> to move[, due <t:TS:R>].``); None when it says no one (a finished game)."""
    if isinstance(request, RecordedRequest):
        content = content_of(request)
    else:
        content = str(request.get("content") or "")
    match = TURN_LINE.fullmatch(content)
    return match["id"] if match else None


def due_in(request: RecordedRequest) -> int | None:
    """The deadline (a Unix time) in a running game's board content, if it shows one."""
    match = TURN_LINE.fullmatch(content_of(request))
    return int(match["due"]) if match and match["due"] else None


def flag_in(request: RecordedRequest) -> int | None:
    """When the flag of a clocked game's side to move falls (a Unix time), if shown."""
    match = TURN_LINE.fullmatch(content_of(request))
    return int(match["flag"]) if match and match["flag"] else None


def pinged(request: RecordedRequest) -> list[str]:
    """The users a message may ping (its ``allowed_mentions.users``), as ids."""
    allowed = body_of(request).get("allowed_mentions") or {}
    return [str(u) for u in allowed.get("users") or []]


def board_buttons(
    game_id: int,
    *,
    running: bool,
    abortable: bool = False,
    ply: int | None = None,
    hint: bool = False,
) -> list[str]:
    """The custom ids under a board message: while the game runs, the move menu of the
    position at ``ply``, then Arrows, Move list, More (and Abort until both players have
    moved, and Hint in a game against the computer); a finished game's (Move list, Rematch)
    are checked by the tests."""
    if not running:
        return [f"board:moves:{game_id}"]
    assert ply is not None, "a running game's board has the move menu of its ply"
    ids = [f"play:{game_id}:{ply}", *(f"board:{b}:{game_id}" for b in ("move", "moves", "more"))]
    if abortable:
        ids.append(f"board:abort:{game_id}")
    return [*ids, f"board:hint:{game_id}"] if hint else ids


def board_alt_text(request: RecordedRequest) -> str:
    """The alt text of the (one) board PNG of a message; fails if it is missing or blank."""
    pngs = [u for u in attachments_of(request) if u.filename.endswith(".png")]
    assert len(pngs) == 1, [u.filename for u in attachments_of(request)]
    text = (pngs[0].description or "").strip()
    assert text, f"the board image {pngs[0].filename} has no alt text"
    return text


async def buttons_taken_off(
    users: Users, channel: str, message_id: str, timeout: float = STEP_TIMEOUT
) -> RecordedRequest:
    """The edit that took the buttons off an older board message once a newer board of its
    game was posted (``PATCH`` with ``components: []``); the stored message has none left."""
    path = rf"/channels/{channel}/messages/{message_id}"

    def found() -> RecordedRequest | None:
        for r in users.fake.requests:
            if r.method == "PATCH" and r.path == path and (r.json or {}).get("components") == []:
                return r
        return None

    edit: RecordedRequest = await users.bot.alive(users.fake.wait_until(found, timeout=timeout))
    assert users.fake.messages[message_id]["components"] == []
    return edit


def seats_of(embed: dict[str, Any]) -> tuple[str, str]:
    """The names (as written, Markdown-escaped) of White and Black in the players line."""
    match = re.fullmatch(
        r"\*\*(?P<white>.+?)\*\* \(White.*\) v \*\*(?P<black>.+?)\*\* \(Black.*\)",
        players_line(embed),
    )
    assert match, players_line(embed)
    return match["white"], match["black"]


def white_at_bottom(request: RecordedRequest, size: int = 8) -> bool:
    """Whether the board PNG of ``request`` shows White at the bottom, read from two pieces
    that have not moved yet: a black man on PDN square 1 and a white man on the last square
    (``size * size // 2``).  Where square 1 is drawn unflipped, a flipped board draws the last
    square, so a light piece there means Black is at the bottom."""
    image = png_of(request).convert("L")
    half = layout(size, image.width).square // 6

    def lightness(square: int) -> float:
        x, y = square_centre(size, image.width, square, False)
        box = image.crop((x - half, y - half, x + half + 1, y + half + 1))
        return float(ImageStat.Stat(box).mean[0])

    top, bottom = lightness(1), lightness(size * size // 2)
    assert abs(top - bottom) > 40, (top, bottom)  # one dark piece, one light one
    return top < bottom
