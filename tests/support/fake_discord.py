"""A fake Discord API (REST + gateway) on 127.0.0.1 that the real, unmodified discord.py client
can talk to, for end-to-end tests of the bot.

Imported as ``from support.fake_discord import FakeDiscord`` (pytest puts ``tests/`` on
``sys.path``, see ``tests/support/__init__.py``).

The bot process is pointed at the fake by ``tests/support/discord_launcher.py`` (it overrides
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and guards
the process against any non-loopback connection). The fake:

* serves the gateway at ``/gateway``: HELLO, IDENTIFY → READY + one GUILD_CREATE per guild of
  the session's shard, heartbeats, RESUME, member chunk requests; :meth:`FakeDiscord.dispatch`
  pushes any event (to the shard of its guild, see *Guilds and shards* below);
* serves the REST endpoints discord.py uses at start-up (``GET /gateway/bot`` included), for
  application commands, interaction responses, follow-ups, channel messages and threads under
  ``/api/v10``; unknown routes answer 404 and are recorded with ``unknown=True``;
* records every REST request (:attr:`FakeDiscord.requests`) with its JSON body or multipart
  parts (``payload_json`` decoded into ``json``, files kept as bytes), and every gateway payload
  the client sent (:attr:`FakeDiscord.gateway_received`);
* builds interaction payloads (:meth:`FakeDiscord.command_interaction`,
  :meth:`FakeDiscord.autocomplete_interaction`, :meth:`FakeDiscord.button_interaction`,
  :meth:`FakeDiscord.select_interaction`), a component interaction carrying the whole message
  as Discord sends it (an ephemeral one with flag 64);
* keeps every message it created (:attr:`FakeDiscord.messages`, with later edits: a PATCH of a
  channel or webhook message, a type 7 update, replaces content, embeds, components and
  attachments), ephemeral ones included (:attr:`FakeDiscord.ephemeral_for`: message id -> the
  one user who sees it; the channel routes answer 404 10008 for them, as Discord does), every
  components array each message has had (:attr:`FakeDiscord.component_versions`), the request
  that made or last edited each message (:meth:`FakeDiscord.message_of`), and each uploaded
  file with the alt text of its ``attachments`` entry (:attr:`RecordedRequest.uploads`,
  :meth:`FakeDiscord.uploads_missing_alt_text`);
* serves DMs: ``POST /users/@me/channels`` opens the bot's DM channel with a guild user (type 1,
  one id per user: :meth:`FakeDiscord.dm_channel_id`), posts there are recorded like channel
  posts (:meth:`FakeDiscord.dms_to`, :meth:`FakeDiscord.dm_messages`), and a component there
  comes as a DM interaction (``user``, no guild, context 1).

Guilds and shards, as on Discord:

* **Guilds.** ``FakeDiscord(guilds=[...])`` serves several guilds (``guild=`` one; default: one
  :class:`Guild` with the fixed ids the tests use). :attr:`FakeDiscord.guild` is the first, the
  primary one, the default for whatever names no channel. Everything else follows the channel:
  a channel or thread belongs to one guild (:meth:`FakeDiscord.guild_of`), and its messages,
  threads, interactions (``guild_id``, ``guild_locale``, the member and its permissions,
  ``authorizing_integration_owners``) and CHANNEL_UPDATEs are that guild's; an interaction
  from a guild channel by a user who is not a member there raises ValueError. A user may be
  in several guilds (``GET /users/{id}`` and DMs know a user of any of them). Guild commands
  are per guild (``PUT /applications/{app}/guilds/{guild}/commands`` for a guild the bot is
  in; another answers 403 50001 Missing Access); global ones apply in every guild and in DMs.
  :func:`guild_on_shard` (``shard, shard_count, index``) makes a guild on a chosen shard, with
  ids of its own (see its docstring), its own three members unless given ``users`` (e.g. the
  primary guild's, to share them); ``Guild.channel_id("general")`` and ``Guild.user_id(name)``
  find its ids.
* **Shards.** ``GET /gateway/bot`` answers the fake's gateway url, ``shards``
  (:attr:`FakeDiscord.recommended_shards`: set by the test, else :attr:`FakeDiscord.shard_count`,
  else 1) and a fixed ``session_start_limit`` (discord.py's ``AutoShardedClient`` asks only when it
  has no ``shard_count``, and connects there; with one, it connects to its default gateway, which
  the launcher points here, as it does to re-identify a shard after op 9 ``false``). An IDENTIFY
  with ``"shard": [id, count]`` makes a session on that shard (:class:`GatewaySession`: ``shard``,
  ``connected``, ``identify``): READY carries that ``shard`` and lists only the guilds with
  ``(guild_id >> 22) % count == id`` (:func:`shard_of`), each followed by its GUILD_CREATE; one
  without ``shard`` is shard ``[0, 1]``, every guild. A bad shard (not two integers, ``count < 1``,
  ``id >= count``, or a count other than :attr:`FakeDiscord.shard_count` when the test set one) is
  closed with 4010 "Invalid shard.", and no shard at all while the test set a ``shard_count`` above
  1 with 4011 "Sharding required." (both recorded in :attr:`FakeDiscord.gateway_closes`). An event
  goes to the sessions whose shard covers its ``guild_id``; an event with none (a DM interaction) to
  shard 0; an unsharded session gets everything. :meth:`FakeDiscord.send_interaction` records where
  each interaction went (:meth:`FakeDiscord.delivered_to`, :meth:`GatewaySession.interactions`);
  when there are gateway sessions but none on the interaction's shard it raises
  :class:`NoSessionForGuild` instead of dispatching (``must_reach=False``: recorded in
  :attr:`FakeDiscord.undelivered` and sent to nobody, a shard that is down); with no session at all
  it is only recorded there (tests that drive the REST routes themselves). A RESUME resumes its
  session on its shard; an IDENTIFY drops the disconnected sessions of the shards it overlaps (a new
  process took over). :meth:`FakeDiscord.connected_shards`, :meth:`FakeDiscord.session_on_shard`,
  :meth:`FakeDiscord.wait_for_shards`, and ``request_reconnect``/``invalidate_session`` take a
  ``shard=`` to act on one shard.

It is as strict as Discord, and can fail the way Discord fails:

* **Documented limits and the OpenAPI schema.** Every request body (JSON, or a multipart
  ``payload_json``) is checked against Discord's documented limits
  (``tests/support/discord_limits.py``: command names and sizes, message content, embeds,
  components, attachments, callback types and flags, autocomplete choices, nonces) and against the
  request-body schema of the matching operation in Discord's own OpenAPI description
  (``tests/support/openapi_check.py``; skipped, with the reason in
  :data:`openapi_check.SKIP_REASON`, only when no copy of the spec can be found). A body Discord
  would refuse is answered as Discord does (400, code 50035 "Invalid Form Body" with an ``errors``
  object; 50006 "Cannot send an empty message"; 413 40005 for oversized files) and appended to
  :attr:`FakeDiscord.violations`; the ``fake`` fixture fails any test that leaves a violation
  behind. Refusals that depend on timing or state rather than on the body (a second callback: 400
  40060; a callback later than :attr:`FakeDiscord.interaction_window` seconds after the dispatch,
  default 3.0: 404 10062; a webhook call on an expired token: 401 50027; a post without permission:
  403 50013/50001) are answered the same way but recorded only in
  :attr:`FakeDiscord.refusals`, since tests provoke them on purpose.
* **Fault injection.** ``fault = fake.inject(method, path, status, *, code=0, message=None,
  times=1, retry_after=None, delay=0.0)``: the next ``times`` requests (``-1``: until
  :meth:`FakeDiscord.clear_faults`) whose method matches and whose path after ``/api/v10``
  fully matches the regex ``path`` get that error instead of being handled; they are recorded
  with ``injected=True`` and counted in ``fault.hits``. ``delay`` sleeps first (a slow Discord);
  a ``status`` below 400 (e.g. 0) only delays and then handles the request normally. A 429 has
  Discord's body (``retry_after``, ``global: false``) and the ``Retry-After``, ``Via`` and
  ``X-RateLimit-*`` headers discord.py reads.
* **Component interactions the client could not send.** A press or a select is refused with
  :class:`ComponentRefused` (an AssertionError, failing the test at once) when Discord would
  refuse the client (400 50035 COMPONENT_VALIDATION_FAILED) and never tell the bot: no such
  custom id on the message as the user's client shows it, a disabled component, a button used
  as a select or the reverse, values not among the options, repeated, or outside
  ``min_values``..``max_values``, someone else's ephemeral message or DM, a deleted message, a
  message state that never existed (see :meth:`FakeDiscord.component_interaction`;
  ``forged=True`` models a modified client on purpose).
* **DMs refused.** ``fake.block_dms(user_id)``: posts into the user's DM channel answer 403 50007
  "Cannot send messages to this user" (a refusal); ``fake.unblock_dms(user_id)`` undoes it.
* **Tokens and the 3-second window.** ``fake.interaction_window`` (seconds, settable per test);
  ``fake.expire_token(token)`` makes follow-ups and webhook edits on it fail with 401 50027 (as
  Discord does 15 minutes after the interaction, :attr:`FakeDiscord.token_lifetime`).
* **Permissions.** ``fake.deny(channel_id, *names)`` (``view_channel``, ``send_messages``,
  ``embed_links``, ``attach_files``, ``send_messages_in_threads``, ``create_public_threads``,
  ``read_message_history``): posts there get 403 50013 "Missing Permissions" (50001 "Missing
  Access" without ``view_channel``), the bot's overwrite in the channel says so (a
  CHANNEL_UPDATE is dispatched), and interactions from that channel carry ``app_permissions``
  without those bits; ``fake.allow(channel_id)`` undoes it. Interaction responses need no
  channel permission, as on Discord.
* **Gateway.** ``await fake.request_reconnect()`` sends op 7 and ``await
  fake.invalidate_session(resumable)`` op 9 (to every connected session, or with ``shard=`` to
  that shard's); RESUME replays the events the session missed and answers RESUMED, or op 9
  ``false`` for an unknown or invalidated session (the client then identifies afresh).
  :attr:`FakeDiscord.sessions_identified` and :attr:`FakeDiscord.sessions_resumed` count
  identifies and resumes.
* **Outages.** ``await fake.go_offline()`` closes every socket and stops listening (new
  connections are refused); ``await fake.go_online()`` listens again on the same port.
* **Idempotent posts.** A channel message created with ``nonce`` and ``enforce_nonce: true``
  within :attr:`FakeDiscord.nonce_window` seconds of an earlier one with the same nonce in the
  same channel returns that message and creates nothing.

Everything runs on the test's event loop; no thread is involved.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import math
import mimetypes
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from support import discord_limits, openapi_check

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ALL_PERMISSIONS = str((1 << 53) - 1)
# An ordinary member: view, send, embed links, attach files, read history, use application
# commands, create public threads, send in threads (no Manage Messages).
MEMBER_PERMISSIONS = str(
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38)
)
GUARD_MARKER = "FAKE-DISCORD NETWORK GUARD"

# Interaction and callback types (Discord API numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
EPHEMERAL = 64
BUTTON, STRING_SELECT = 2, 3
SELECT_TYPES = {STRING_SELECT, 5, 6, 7, 8}
DM_CHANNEL = 1
# The bot's permissions in its DM with a user (``app_permissions`` of an interaction there):
# view, send, embed links, attach files, read history, mention everyone, external emojis.
DM_PERMISSIONS = str(
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17) | (1 << 18)
)
IMAGE_EXTENSIONS = (".png", ".gif", ".jpg", ".jpeg", ".webp", ".avif")

# The channel permissions :meth:`FakeDiscord.deny` can take away, by Discord's bit.
PERMISSION_BITS = {
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
TOKEN_LIFETIME = 15 * 60.0  # an interaction token's webhook lives 15 minutes
INTERACTION_WINDOW = 3.0  # the initial response must come within 3 seconds
NONCE_WINDOW = 5 * 60.0  # "within the past few minutes" (enforce_nonce)
REPLAYED_EVENTS = 2000  # events kept per gateway session for RESUME


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


class _Snowflakes:
    """Increasing snowflakes whose timestamps are "now" (discord.py derives created_at)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))


@dataclass
class Part:
    """One part of a multipart request body."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request the client made, as the fake received it."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/interactions/1/tok/callback"
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None  # the JSON body, or the decoded ``payload_json`` part of a multipart body
    parts: list[Part] = field(default_factory=list)
    body: bytes = b""
    unknown: bool = False  # no fake endpoint matched (answered 404)
    status: int = 0
    injected: bool = False  # answered by an injected fault (see FakeDiscord.inject)
    error: dict[str, Any] | None = None  # the error body, when the fake refused the request
    message_id: str | None = None  # the message this request created or edited, if any

    @property
    def files(self) -> dict[str, bytes]:
        """Uploaded files by filename."""
        return {p.filename: p.data for p in self.parts if p.filename is not None}

    @property
    def message_body(self) -> dict[str, Any]:
        """The message part of the body: ``data`` of an interaction callback, else the body."""
        body = self.json if isinstance(self.json, dict) else {}
        if re.fullmatch(r"/interactions/\d+/[^/]+/callback", self.path):
            return dict(body.get("data") or {})
        return dict(body)

    @property
    def uploads(self) -> list[Upload]:
        """The files uploaded with this request, each with its entry of the body's
        ``attachments`` array (alt text in ``description``), in upload order."""
        return uploads_of(self.parts, self.message_body)

    def __repr__(self) -> str:
        flag = " UNKNOWN" if self.unknown else ""
        flag += " INJECTED" if self.injected else ""
        return f"<{self.method} {self.path} -> {self.status}{flag}>"


@dataclass(frozen=True)
class Upload:
    """One uploaded file as Discord reads it: the ``files[n]`` part and the entry with ``id``
    ``n`` in the message's ``attachments`` array (discord.py's ``File(description=...)`` puts
    the alt text there)."""

    filename: str
    description: str | None
    data: bytes
    content_type: str | None = None

    @property
    def is_image(self) -> bool:
        return self.filename.lower().endswith(IMAGE_EXTENSIONS) or (
            self.content_type or ""
        ).startswith("image/")


def uploads_of(parts: Iterable[Part], body: dict[str, Any]) -> list[Upload]:
    """Pair each file part (``files[n]``, or the n-th file part) with the ``attachments``
    entry whose ``id`` is ``n``."""
    entries: dict[str, dict[str, Any]] = {}
    for entry in body.get("attachments") or []:
        if isinstance(entry, dict) and entry.get("id") is not None:
            entries[str(entry["id"])] = entry
    out: list[Upload] = []
    files = [p for p in parts if p.filename is not None]
    for index, part in enumerate(files):
        match = re.fullmatch(r"files\[(\d+)\]", part.name)
        entry = entries.get(match[1] if match else str(index), {})
        description = entry.get("description")
        out.append(
            Upload(
                filename=str(part.filename),
                description=description if isinstance(description, str) else None,
                data=part.data,
                content_type=part.content_type,
            )
        )
    return out


class ComponentRefused(AssertionError):
    """A component interaction the Discord client could not have sent: a custom id the
    message does not have (or a message state that never existed), a disabled component, select
    values outside the menu's options or its min/max, someone else's ephemeral message or DM.
    Discord answers the client 400 50035 COMPONENT_VALIDATION_FAILED and the bot never hears of
    it, so the fake fails the test instead of dispatching."""


def walk_components(components: Any) -> Iterable[dict[str, Any]]:
    """Every component of a message, depth first (action rows, their children, and the
    Components V2 containers and section accessories)."""
    for component in components or []:
        if not isinstance(component, dict):
            continue
        yield component
        for key in ("components", "accessory"):
            child = component.get(key)
            if isinstance(child, list):
                yield from walk_components(child)
            elif isinstance(child, dict):
                yield from walk_components([child])


def find_component(message: dict[str, Any], custom_id: str) -> dict[str, Any] | None:
    """The interactive component with this custom id on the message, if any."""
    for component in walk_components(message.get("components")):
        if component.get("custom_id") == custom_id:
            return component
    return None


@dataclass
class Fault:
    """An injected failure (see :meth:`FakeDiscord.inject`); ``hits`` counts the requests it
    answered, ``times`` is how many it will answer in all (``-1``: until cleared)."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int = 0
    message: str | None = None
    times: int = 1
    retry_after: float | None = None
    delay: float = 0.0
    skip: int = 0
    """Matching requests to let through untouched before the fault starts answering."""
    hits: int = 0

    @property
    def exhausted(self) -> bool:
        return self.times >= 0 and self.hits >= self.times

    def matches(self, method: str, path: str) -> bool:
        return (
            not self.exhausted
            and self.method.upper() == method
            and self.path.fullmatch(path) is not None
        )


@dataclass
class Violation:
    """A request Discord would have refused for its body: the bot's bug, never the test's."""

    method: str
    path: str
    problems: list[str]
    body: Any = None

    def __repr__(self) -> str:
        return f"<Violation {self.method} {self.path}: {'; '.join(self.problems)}>"


@dataclass(eq=False)
class GatewaySession:
    """One gateway session, on one shard: what it was sent, so that a RESUME can replay what it
    missed. An IDENTIFY without ``shard`` makes a session on shard ``(0, 1)``, which covers every
    guild (and DMs)."""

    id: str
    sequence: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    shard: tuple[int, int] = (0, 1)
    """``(shard_id, shard_count)`` as identified (``(0, 1)`` when IDENTIFY had no ``shard``)."""
    sharded: bool = False
    """Whether IDENTIFY carried a ``shard`` (an unsharded client sends none)."""
    identify: dict[str, Any] = field(default_factory=dict)
    """The ``d`` of the IDENTIFY that made the session."""

    @property
    def shard_id(self) -> int:
        return self.shard[0]

    @property
    def shard_count(self) -> int:
        return self.shard[1]

    @property
    def connected(self) -> bool:
        """A client is on the session now (else it is waiting for a RESUME)."""
        return self.ws is not None and not self.ws.closed

    def covers(self, guild_id: str | int | None) -> bool:
        """Whether the session gets the guild's events (``None``: a DM, or an event of no
        guild, which shard 0 gets), as Discord routes them."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    def interactions(self) -> list[dict[str, Any]]:
        """The interactions dispatched to this session (sent, or kept for its RESUME), oldest
        first among the last :data:`REPLAYED_EVENTS` events."""
        return [e["d"] for e in self.sent if e.get("t") == "INTERACTION_CREATE"]


class NoSessionForGuild(AssertionError):
    """:meth:`FakeDiscord.send_interaction` found gateway sessions, but none on the shard of the
    interaction's guild (shard 0 for a DM): on Discord the user would see "The application did
    not respond", and the test would wait in vain for an answer, so it fails at once instead."""


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """The shard that gets a guild's events: ``(guild_id >> 22) % shard_count`` (Discord's
    formula)."""
    return (int(guild_id) >> 22) % shard_count


def _shards_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether some guild is on shard ``a`` and on shard ``b`` (of their own counts)."""
    return (a[0] - b[0]) % math.gcd(a[1], b[1]) == 0


@dataclass
class Guild:
    """A guild the fake serves, with fixed ids so tests can refer to them. The defaults are the
    fake's primary guild (``FakeDiscord().guild``); :func:`guild_on_shard` makes others, each
    with ids of its own."""

    id: str = "1100000000000000001"
    name: str = "Fake Guild"
    owner_id: str = "1100000000000000101"
    locale: str = "en-US"
    """The server's language (its community locale), sent as every interaction's
    ``guild_locale`` and as the guild's ``preferred_locale``."""
    channels: dict[str, str] = field(
        default_factory=lambda: {
            "1100000000000000201": "general",
            "1100000000000000202": "draughts",
            "1100000000000000203": "off-topic",
        }
    )
    # user id -> username; the bot user is added by FakeDiscord.
    users: dict[str, str] = field(
        default_factory=lambda: {
            "1100000000000000101": "alice",
            "1100000000000000102": "bob",
            "1100000000000000103": "carol",
        }
    )
    extra_role_id: str = "1100000000000000301"
    # Users whose interactions carry every permission (moderators); others get MEMBER_PERMISSIONS.
    moderators: set[str] = field(default_factory=lambda: {"1100000000000000101"})

    def shard(self, shard_count: int) -> int:
        """The shard that gets this guild's events when the bot runs ``shard_count`` shards."""
        return shard_of(self.id, shard_count)

    def channel_id(self, name: str) -> str:
        """The id of the channel with this name (e.g. ``"general"``)."""
        for channel_id, channel_name in self.channels.items():
            if channel_name == name:
                return channel_id
        raise KeyError(f"guild {self.id} has no channel {name!r}: {self.channels}")

    def user_id(self, name: str) -> str:
        """The id of the member with this username."""
        for user_id, username in self.users.items():
            if username == name:
                return user_id
        raise KeyError(f"guild {self.id} has no member {name!r}: {self.users}")


# Ids of the guilds guild_on_shard() makes: snowflakes of a moment (early 2024) that neither the
# primary guild's fixed ids (2023) nor the fake's own snowflakes (now) use.
_SHARDED_GUILD_EPOCH = 1_200_000_000_000_000_000 >> 22
_MAX_SHARD_COUNT = 1023  # the shard count is kept in bits 12..21 of the ids
_MEMBER_NAMES = ("alice", "bob", "carol")


def guild_on_shard(
    shard: int,
    shard_count: int,
    index: int = 0,
    *,
    users: dict[str, str] | None = None,
    moderators: set[str] | None = None,
    name: str | None = None,
    locale: str = "en-US",
) -> Guild:
    """A guild whose events go to shard ``shard`` of ``shard_count`` (``(int(id) >> 22) %
    shard_count == shard``); ``index`` tells apart several guilds on the same shard.

    Its ids are all its own, never those of another ``(shard, shard_count, index)`` nor of the
    primary guild: the guild id is ``(t << 22) | (shard_count << 12)`` with ``t`` (the
    snowflake's timestamp) ``≡ shard (mod shard_count)`` in early 2024; its channels
    ``general``, ``draughts``, ``off-topic`` are the guild id ``| 0x201``, ``| 0x202``,
    ``| 0x203``, its Admin role ``| 0x301``. Its members are ``users`` (user id -> username;
    pass ids of another guild, e.g. the primary guild's Alice, to put the same person in both, as
    on Discord), by default three of its own: ``| 0x101``, ``| 0x102``, ``| 0x103``, named
    ``alice.S.I``, ``bob.S.I``, ``carol.S.I`` (``S`` the shard, ``I`` the index). The owner is
    the first member, and the only moderator unless ``moderators`` says otherwise."""
    if not 1 <= shard_count <= _MAX_SHARD_COUNT:
        raise ValueError(f"shard_count must be 1..{_MAX_SHARD_COUNT}, not {shard_count}")
    if not 0 <= shard < shard_count:
        raise ValueError(f"shard must be 0..{shard_count - 1}, not {shard}")
    if index < 0:
        raise ValueError(f"index must be at least 0, not {index}")
    base = -(-_SHARDED_GUILD_EPOCH // shard_count) * shard_count  # a multiple of the count
    t = base + index * shard_count + shard
    guild_id = (t << 22) | (shard_count << 12)

    def sub(low: int) -> str:
        return str(guild_id | low)

    if users is None:
        users = {sub(0x101 + n): f"{who}.{shard}.{index}" for n, who in enumerate(_MEMBER_NAMES)}
    if not users:
        raise ValueError("a guild needs at least one member (its owner)")
    owner = next(iter(users))
    guild = Guild(
        id=str(guild_id),
        name=name or f"Fake Guild {shard}/{shard_count} #{index}",
        owner_id=owner,
        locale=locale,
        channels={sub(0x201): "general", sub(0x202): "draughts", sub(0x203): "off-topic"},
        users=dict(users),
        extra_role_id=sub(0x301),
        moderators=set(moderators) if moderators is not None else {owner},
    )
    assert guild.shard(shard_count) == shard
    return guild


def _check_distinct_ids(guilds: list[Guild], bot_id: str) -> None:
    """Guild, channel and role ids are Discord snowflakes: no two things share one (a user may
    be in several guilds, but is no guild, channel or role)."""
    seen: dict[str, str] = {bot_id: "the bot"}
    for guild in guilds:
        things = [(guild.id, f"guild {guild.id}"), (guild.extra_role_id, f"role of {guild.id}")]
        things += [(cid, f"channel {cid} of guild {guild.id}") for cid in guild.channels]
        for thing_id, what in things:
            if thing_id in seen:
                raise ValueError(f"id {thing_id} is both {seen[thing_id]} and {what}")
            seen[thing_id] = what
    for guild in guilds:
        for user_id in guild.users:
            if user_id in seen:
                raise ValueError(f"user id {user_id} of guild {guild.id} is {seen[user_id]}")


def user_object(user_id: str, username: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": user_id,
        "username": username,
        "discriminator": "0",
        "global_name": None if bot else username.capitalize(),
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
    }


class FakeDiscord:
    """The fake API server. ``async with FakeDiscord() as fake:`` starts it on a random port."""

    def __init__(
        self,
        *,
        guild: Guild | None = None,
        guilds: Iterable[Guild] | None = None,
        bot_id: str = "1100000000000000010",
        bot_name: str = "DraughtsBot",
        heartbeat_interval_ms: int = 41250,
        shard_count: int | None = None,
    ) -> None:
        if guild is not None and guilds is not None:
            raise ValueError("pass guild= (one guild) or guilds= (several), not both")
        self.guilds: list[Guild] = list(guilds) if guilds is not None else [guild or Guild()]
        """Every guild the bot is in; the first is :attr:`guild`."""
        if not self.guilds:
            raise ValueError("the fake serves at least one guild")
        _check_distinct_ids(self.guilds, bot_id)
        self.guild = self.guilds[0]
        """The primary guild: the default for everything not tied to a channel."""
        self.shard_count = shard_count
        """The shard count IDENTIFY must use (else closed with 4010); None: any count."""
        self._recommended_shards: int | None = None
        self.application_id = bot_id  # a bot's application id equals its user id
        self.bot_user = user_object(bot_id, bot_name, bot=True)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.snowflake = _Snowflakes()
        self.port = 0
        self.requests: list[RecordedRequest] = []
        self.gateway_received: list[dict[str, Any]] = []
        self.messages: dict[str, dict[str, Any]] = {}  # message id -> message object
        self.files: dict[str, bytes] = {}  # attachment id -> bytes
        self.threads: dict[str, dict[str, Any]] = {}
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> interaction payload
        self.original_responses: dict[str, str] = {}  # token -> message id
        # Every components array each message has had (a client may show any of them while
        # an edit is on its way), the user who alone sees an ephemeral message, and deleted
        # messages (a press on one can no longer reach the bot).
        self.component_versions: dict[str, list[list[Any]]] = {}
        self.ephemeral_for: dict[str, str] = {}  # message id -> user id
        self.deleted_messages: dict[str, dict[str, Any]] = {}
        self._forged: set[str] = set()  # interaction ids built with forged=True
        # DMs: one channel per user, created by POST /users/@me/channels; users who do not
        # take DMs from the bot (posts there answer 403 50007).
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id
        self.dm_recipients: dict[str, str] = {}  # DM channel id -> user id
        self.dms_blocked: set[str] = set()
        self.sessions_identified = 0
        self.sessions_resumed = 0
        # Shards: the gateway closes this went through (code, reason), where each interaction
        # went (interaction id -> the sessions it was dispatched to), those no session took.
        self.gateway_closes: list[tuple[int, str]] = []
        self.deliveries: dict[str, list[GatewaySession]] = {}
        self.undelivered: list[dict[str, Any]] = []
        # The bot's own permissions in interactions (``app_permissions``); tests may narrow them
        # for every channel, or per channel with deny().
        self.app_permissions = ALL_PERMISSIONS
        self.sequence = 0  # dispatches so far (each session numbers its own events)
        # Strictness: see the module docstring.
        self.violations: list[Violation] = []
        self.refusals: list[RecordedRequest] = []
        self.interaction_window = INTERACTION_WINDOW
        self.token_lifetime = TOKEN_LIFETIME
        self.nonce_window = NONCE_WINDOW
        self.faults: list[Fault] = []
        self.denied: dict[str, int] = {}  # channel id -> permission bits the bot lacks there
        self.online = False
        self._dispatched_at: dict[str, float] = {}  # token -> loop time of INTERACTION_CREATE
        self._expired_tokens: set[str] = set()
        self._acknowledged: set[str] = set()  # tokens with an initial response
        self._nonces: dict[tuple[str, str], tuple[float, str]] = {}
        self._sessions: dict[str, GatewaySession] = {}
        self._sockets: list[web.WebSocketResponse] = []  # every open gateway socket
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Condition()
        self._expected: dict[tuple[str, str], asyncio.Future[RecordedRequest]] = {}
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = []
        self._add_routes()

    # ------------------------------------------------------------------ lifecycle

    def _make_app(self) -> web.Application:
        # A fresh application per start: an aiohttp app cannot be served again once cleaned up.
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        return app

    async def start(self) -> None:
        """Listen on ``self.port`` (a free one the first time)."""
        openapi_check.spec()  # parsed once per process; raises if DISCORD_API_SPEC is wrong
        runner = web.AppRunner(
            self._make_app(), access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port, reuse_address=True)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._runner = runner
        self.online = True

    async def stop(self) -> None:
        self.online = False
        for ws in list(self._sockets):
            await ws.close(code=1001)  # "going away": a client reconnects after it
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def go_offline(self) -> None:
        """Discord goes away: every gateway socket and HTTP connection is closed and the port
        stops listening (connections are refused) until :meth:`go_online`. Gateway sessions
        stay resumable, and events dispatched meanwhile are replayed on RESUME."""
        await self.stop()

    async def go_online(self) -> None:
        """Discord comes back on the same port."""
        await self.start()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def recommended_shards(self) -> int:
        """The ``shards`` of ``GET /gateway/bot``: what the test set, else :attr:`shard_count`,
        else 1."""
        if self._recommended_shards is not None:
            return self._recommended_shards
        return self.shard_count or 1

    @recommended_shards.setter
    def recommended_shards(self, value: int) -> None:
        self._recommended_shards = value

    # ------------------------------------------------------------------ guilds

    def guild_by_id(self, guild_id: str | int | None) -> Guild | None:
        """The guild with this id, if the bot is in it."""
        return next((g for g in self.guilds if g.id == str(guild_id)), None)

    def guild_of(self, channel_id: str) -> Guild | None:
        """The guild a channel or thread belongs to; None for a DM or an unknown channel."""
        thread = self.threads.get(channel_id)
        if thread is not None:
            return self.guild_by_id(thread.get("guild_id"))
        return next((g for g in self.guilds if channel_id in g.channels), None)

    def username(self, user_id: str) -> str | None:
        """The user's username, if the user is in any of the bot's guilds (or is the bot)."""
        if user_id == self.bot_user["id"]:
            return str(self.bot_user["username"])
        return next((g.users[user_id] for g in self.guilds if user_id in g.users), None)

    def guilds_on_shard(self, shard: int, shard_count: int) -> list[Guild]:
        """The bot's guilds whose events go to that shard."""
        return [g for g in self.guilds if g.shard(shard_count) == shard]

    # ------------------------------------------------------------------ waiting helpers

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every request/gateway message);
        returns its value. Raises TimeoutError with a summary of what was recorded."""

        async def _wait() -> Any:
            async with self._changed:
                while not (value := predicate()):
                    await self._changed.wait()
                return value

        try:
            return await asyncio.wait_for(_wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"condition not met in {timeout}s; requests={self.requests!r}; "
                f"gateway ops={[m.get('op') for m in self.gateway_received]}"
            ) from None

    def find_requests(
        self, method: str | None = None, pattern: str | None = None
    ) -> list[RecordedRequest]:
        """Recorded requests with this method and whose path fully matches the regex."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method)
            and (pattern is None or re.fullmatch(pattern, r.path))
        ]

    async def wait_for_request(
        self, method: str, pattern: str, *, count: int = 1, timeout: float = 10.0
    ) -> RecordedRequest:
        """Wait for the ``count``-th request matching (see :meth:`find_requests`); return it."""

        def found() -> RecordedRequest | None:
            got = self.find_requests(method, pattern)
            return got[count - 1] if len(got) >= count else None

        return await self.wait_until(found, timeout)

    def expect(self, method: str, path: str) -> asyncio.Future[RecordedRequest]:
        """A future for the next request with exactly this method and path: O(1) per request,
        for benchmarks that would otherwise rescan every recorded request on each arrival."""
        future = asyncio.get_running_loop().create_future()
        self._expected[(method, path)] = future
        return future

    async def wait_for_identify(self, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: self.sessions_identified > 0, timeout)

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.unknown]

    # ------------------------------------------------------------------ failures on demand

    def inject(
        self,
        method: str,
        path: str,
        status: int,
        *,
        code: int = 0,
        message: str | None = None,
        times: int = 1,
        retry_after: float | None = None,
        delay: float = 0.0,
        skip: int = 0,
    ) -> Fault:
        """Answer the next ``times`` matching requests (``-1``: until :meth:`clear_faults`),
        after letting ``skip`` of them through, with this error instead of handling them; see
        the module docstring. Faults are tried in the order they were injected."""
        fault = Fault(
            method=method.upper(),
            path=re.compile(path),
            status=status,
            code=code,
            message=message,
            times=times,
            retry_after=retry_after,
            delay=delay,
            skip=skip,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def expire_token(self, token: str) -> None:
        """The interaction token's webhook is gone, as 15 minutes after the interaction."""
        self._expired_tokens.add(token)

    def deny(self, channel_id: str, *permissions: str) -> None:
        """The bot lacks these permissions (names in :data:`PERMISSION_BITS`) in the channel
        (and in threads under it)."""
        bits = 0
        for name in permissions:
            try:
                bits |= PERMISSION_BITS[name]
            except KeyError:
                known = list(PERMISSION_BITS)
                raise ValueError(f"unknown permission {name!r}; known: {known}") from None
        self.denied[channel_id] = self.denied.get(channel_id, 0) | bits
        self._announce_channel(channel_id)

    def allow(self, channel_id: str) -> None:
        """Undo :meth:`deny` for the channel."""
        self.denied.pop(channel_id, None)
        self._announce_channel(channel_id)

    def block_dms(self, user_id: str) -> None:
        """The user takes no DMs from the bot (privacy settings, or a block): the DM channel can
        still be opened, but a post there answers 403 50007 "Cannot send messages to this user"
        (recorded in :attr:`refusals`)."""
        self.dms_blocked.add(user_id)

    def unblock_dms(self, user_id: str) -> None:
        self.dms_blocked.discard(user_id)

    def denied_in(self, channel_id: str) -> int:
        """Permission bits the bot lacks in a channel (a thread inherits its parent's)."""
        bits = self.denied.get(channel_id, 0)
        thread = self.threads.get(channel_id)
        if thread is not None:
            bits |= self.denied.get(str(thread.get("parent_id")), 0)
        return bits

    def permissions_in(self, channel_id: str) -> str:
        """The bot's ``app_permissions`` in a channel, as interactions from there carry them."""
        return str(int(self.app_permissions) & ~self.denied_in(channel_id))

    def _announce_channel(self, channel_id: str) -> None:
        """CHANNEL_UPDATE for a guild channel, to the sessions of its guild's shard."""
        guild = self.guild_of(channel_id)
        if not self._sessions or guild is None or channel_id not in guild.channels:
            return
        self._spawn(self.dispatch("CHANNEL_UPDATE", self.channel_object(channel_id)))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fault_for(self, rec: RecordedRequest) -> Fault | None:
        for fault in self.faults:
            if fault.matches(rec.method, rec.path):
                if fault.skip > 0:
                    fault.skip -= 1
                    continue
                fault.hits += 1
                return fault
        return None

    def _fault_response(self, fault: Fault) -> web.Response:
        if fault.status == 429:
            retry = 1.0 if fault.retry_after is None else fault.retry_after
            body: dict[str, Any] = {
                "message": fault.message or "You are being rate limited.",
                "retry_after": retry,
                "global": False,
            }
            if fault.code:
                body["code"] = fault.code
            headers = {
                "Retry-After": str(max(1, math.ceil(retry))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                "X-RateLimit-Reset-After": f"{retry:.3f}",
                "X-RateLimit-Bucket": "fake-bucket",
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",  # discord.py takes a 429 without Via for a Cloudflare ban
            }
            return _json_response(body, status=429, headers=headers)
        message = fault.message or _DEFAULT_MESSAGES.get(fault.status, f"{fault.status}: Error")
        return _json_response({"message": message, "code": fault.code}, status=fault.status)

    # ------------------------------------------------------------------ gateway

    @property
    def sessions(self) -> list[GatewaySession]:
        """The gateway sessions: connected ones, and those waiting for a RESUME."""
        return list(self._sessions.values())

    def sessions_for(self, guild_id: str | int | None) -> list[GatewaySession]:
        """The sessions that get a guild's events (``None``: a DM's, shard 0's), connected or
        waiting for a RESUME; an unsharded session gets every guild's."""
        return [s for s in self._sessions.values() if s.covers(guild_id)]

    def connected_shards(self) -> set[int]:
        """The shard ids with a client connected now (0 for an unsharded session)."""
        return {s.shard_id for s in self._sessions.values() if s.connected}

    def session_on_shard(self, shard_id: int) -> GatewaySession | None:
        """The newest session identified on that shard, if any."""
        found = [s for s in self._sessions.values() if s.shard_id == shard_id]
        return found[-1] if found else None

    def delivered_to(self, interaction: dict[str, Any] | str) -> list[GatewaySession]:
        """The sessions an interaction (or interaction id) was dispatched to by
        :meth:`send_interaction`: its guild's shard, shard 0 for a DM (a session waiting for a
        RESUME gets it when it resumes); ``[]`` if none took it or it was never sent."""
        iid = interaction if isinstance(interaction, str) else str(interaction["id"])
        return list(self.deliveries.get(iid, []))

    async def wait_for_shards(self, *shard_ids: int, timeout: float = 10.0) -> None:
        """Wait until a client is connected (READY sent) on each of these shards."""
        wanted = set(shard_ids)
        await self.wait_until(lambda: wanted <= self.connected_shards(), timeout)

    async def dispatch(self, event: str, data: dict[str, Any]) -> list[GatewaySession]:
        """Send a DISPATCH (op 0) event to the sessions whose shard covers ``data["guild_id"]``
        (no ``guild_id``: shard 0), as Discord routes events; an unsharded session gets them
        all. A session whose client is disconnected keeps it for a RESUME. Returns the
        sessions it went to."""
        self.sequence += 1
        if event == "INTERACTION_CREATE":
            self.interactions[data["token"]] = data
            self._dispatched_at[data["token"]] = time.monotonic()
        sessions = self.sessions_for(data.get("guild_id"))
        for session in sessions:
            await self._send_to(session, event, data)
        return sessions

    async def _send_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.sequence += 1
        payload = {"op": 0, "t": event, "s": session.sequence, "d": data}
        session.sent.append(payload)
        if len(session.sent) > REPLAYED_EVENTS:
            del session.sent[: len(session.sent) - REPLAYED_EVENTS]
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_str(json.dumps(payload))
            except ConnectionResetError:  # the client is going away; it may RESUME
                session.ws = None

    async def send_interaction(
        self, interaction: dict[str, Any], *, must_reach: bool = True
    ) -> dict[str, Any]:
        """Dispatch an interaction to the sessions of its guild's shard (shard 0 for a DM; see
        :meth:`dispatch`) and return it; :meth:`delivered_to` tells which sessions got it.

        If no session covers it, it is appended to :attr:`undelivered`; and when some gateway
        session exists (a bot is there, only not on that shard) and ``must_reach`` is true, it
        is not dispatched at all and :class:`NoSessionForGuild` is raised, since the test would
        wait in vain for an answer (``must_reach=False``: a test of a shard that is down).
        With no session at all (tests that drive the REST routes themselves) it is recorded
        and kept, as before.

        A component interaction is checked again against the message it carries (see
        :meth:`component_interaction`), so a hand-edited payload is refused too, unless it was
        built with ``forged=True``."""
        if interaction.get("type") == MESSAGE_COMPONENT and interaction["id"] not in self._forged:
            data = interaction.get("data") or {}
            user = interaction.get("member", {}).get("user") or interaction.get("user") or {}
            message = self._message_as_seen(dict(interaction.get("message") or {}))
            component = self._check_component_use(
                message, str(data.get("custom_id")), data.get("values"), str(user.get("id"))
            )
            if data.get("component_type") != component.get("type"):
                raise ComponentRefused(
                    f"component_type {data.get('component_type')} but {data.get('custom_id')!r}"
                    f" is of type {component.get('type')}"
                )
        guild_id = interaction.get("guild_id")
        if not self.sessions_for(guild_id):
            if not self._sessions or not must_reach:
                self.undelivered.append(interaction)
            else:
                shards = sorted({s.shard for s in self._sessions.values()})
                raise NoSessionForGuild(
                    f"interaction {interaction['id']} in "
                    f"{'guild ' + str(guild_id) if guild_id else 'a DM'}: no gateway session "
                    f"on its shard (sessions on {shards}); pass must_reach=False to send it "
                    f"to nobody"
                )
        sessions = await self.dispatch("INTERACTION_CREATE", interaction)
        self.deliveries[str(interaction["id"])] = sessions
        return interaction

    def _shard_sessions(self, shard: int | None) -> list[GatewaySession]:
        return [
            s
            for s in self._sessions.values()
            if s.connected and (shard is None or s.shard_id == shard)
        ]

    async def request_reconnect(self, *, shard: int | None = None) -> None:
        """Op 7 on every connected session (or those on shard ``shard``): the client closes
        and RESUMEs."""
        for session in self._shard_sessions(shard):
            assert session.ws is not None
            await session.ws.send_json({"op": 7, "d": None})

    async def invalidate_session(self, resumable: bool, *, shard: int | None = None) -> None:
        """Op 9 on every connected session (or those on shard ``shard``). Not resumable: the
        sessions are forgotten, so the client must IDENTIFY again (a RESUME of them gets op 9
        ``false``)."""
        for session in self._shard_sessions(shard):
            assert session.ws is not None
            await session.ws.send_json({"op": 9, "d": resumable})
            if not resumable:
                del self._sessions[session.id]

    async def wait_for_resume(self, count: int = 1, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: self.sessions_resumed >= count, timeout)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_received.append(payload)
                await self._on_gateway_payload(ws, payload)
                await self._notify()
        finally:
            self._sockets.remove(ws)
            for session in self._sessions.values():
                if session.ws is ws:
                    session.ws = None
            await self._notify()
        return ws

    async def _on_gateway_payload(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        if op == 1:  # heartbeat
            await ws.send_json({"op": 11})
        elif op == 2:  # identify: a new session on a shard
            await self._identify(ws, payload.get("d") or {})
        elif op == 6:  # resume: replay what the session missed, or refuse
            d = payload.get("d") or {}
            session = self._sessions.get(str(d.get("session_id")))
            if session is None or not isinstance(d.get("seq"), int):
                await ws.send_json({"op": 9, "d": False})
                return
            if session.ws is not None and session.ws is not ws and not session.ws.closed:
                await session.ws.close(code=4000)
            session.ws = ws
            for missed in [e for e in session.sent if e["s"] > d["seq"]]:
                await ws.send_str(json.dumps(missed))
            self.sessions_resumed += 1
            await self._send_to(session, "RESUMED", {"_trace": ["fake-discord"]})
        elif op == 8:  # request guild members: answered on the asking session
            await self._request_members(ws, payload.get("d") or {})

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        """IDENTIFY: READY with the guilds of the shard, one GUILD_CREATE for each; a bad
        ``shard`` is closed with 4010 (see :meth:`_identify_shard`)."""
        if d.get("shard") is None and (self.shard_count or 1) > 1:
            # The test made the bot shard: a session for every guild is refused, as Discord
            # refuses one that would hold too many guilds.
            await self._close(ws, 4011, "Sharding required.")
            return
        shard = self._identify_shard(d.get("shard"))
        if shard is None:
            await self._close(ws, 4010, "Invalid shard.")
            return
        # Sessions nobody is connected to are dropped when a session for (some of) their guilds
        # identifies: a new process took over.
        self._sessions = {
            k: v
            for k, v in self._sessions.items()
            if v.ws is not None or not _shards_overlap(v.shard, shard)
        }
        session = GatewaySession(
            id="fake-session-" + self.snowflake(),
            ws=ws,
            shard=shard,
            sharded=d.get("shard") is not None,
            identify=dict(d),
        )
        self._sessions[session.id] = session
        self.sessions_identified += 1
        await self._send_to(session, "READY", self.ready_payload(session.id, shard))
        for guild in self.guilds_on_shard(*shard):
            await self._send_to(session, "GUILD_CREATE", self.guild_payload(guild))

    async def _close(self, ws: web.WebSocketResponse, code: int, reason: str) -> None:
        self.gateway_closes.append((code, reason))
        await ws.close(code=code, message=reason.encode())

    async def _request_members(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        """Op 8: every member in one chunk, on the asking session, for a guild of its shard
        (Discord sends nothing for another guild)."""
        asking = next((s for s in self._sessions.values() if s.ws is ws), None)
        guild = self.guild_by_id(d["guild_id"]) if "guild_id" in d else self.guild
        if asking is None or guild is None or not asking.covers(guild.id):
            return
        await self._send_to(
            asking,
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": guild.id,
                "members": self.member_objects(guild),
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": d.get("nonce"),
            },
        )

    def _identify_shard(self, shard: Any) -> tuple[int, int] | None:
        """The ``(shard_id, shard_count)`` of an IDENTIFY (none: ``(0, 1)``), or None for one
        Discord closes with 4010 "Invalid shard": not two whole numbers, a count below 1, an id
        outside ``0..count-1``, or (when the test set :attr:`shard_count`) another count. (No
        ``shard`` while the test set a :attr:`shard_count` above 1 is closed with 4011 "Sharding
        required" before this.)"""
        if shard is None:
            return (0, 1)
        if (
            not isinstance(shard, list)
            or len(shard) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        ):
            return None
        shard_id, count = shard
        if count < 1 or not 0 <= shard_id < count:
            return None
        if self.shard_count is not None and count != self.shard_count:
            return None
        return (shard_id, count)

    def ready_payload(
        self, session_id: str = "fake-session", shard: tuple[int, int] = (0, 1)
    ) -> dict[str, Any]:
        """READY for a session on ``shard``: the guilds on that shard, as unavailable (each
        GUILD_CREATE follows)."""
        guilds = self.guilds_on_shard(*shard)
        return {
            "v": 10,
            "user": {**self.bot_user, "verified": True, "mfa_enabled": False},
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": list(shard),
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }

    def member_object(
        self, user_id: str, *, with_permissions: bool = False, guild: Guild | None = None
    ) -> dict[str, Any]:
        """The user as a member of ``guild`` (default: the primary guild)."""
        guild = guild or self.guild
        username = self.bot_user["username"] if user_id == self.bot_user["id"] else None
        user = (
            self.bot_user
            if username is not None
            else user_object(user_id, guild.users.get(user_id, f"user{user_id[-4:]}"))
        )
        member: dict[str, Any] = {
            "user": user,
            "nick": None,
            "avatar": None,
            "roles": [guild.extra_role_id] if user_id == guild.owner_id else [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            member["permissions"] = (
                ALL_PERMISSIONS if user_id in guild.moderators else MEMBER_PERMISSIONS
            )
        return member

    def member_objects(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The bot and every user of ``guild`` (default: the primary guild) as members."""
        guild = guild or self.guild
        ids = [self.bot_user["id"], *guild.users]
        return [self.member_object(uid, guild=guild) for uid in ids]

    def channel_object(self, channel_id: str) -> dict[str, Any]:
        """A thread, a DM channel, or a text channel of the guild it belongs to (an unknown id:
        a channel of the primary guild)."""
        if channel_id in self.threads:
            return self.threads[channel_id]
        if channel_id in self.dm_recipients:
            return self.dm_channel_object(channel_id)
        guild = self.guild_of(channel_id) or self.guild
        names = list(guild.channels)
        return {
            "id": channel_id,
            "type": 0,
            "guild_id": guild.id,
            "name": guild.channels.get(channel_id, f"channel-{channel_id[-4:]}"),
            "position": names.index(channel_id) if channel_id in names else 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "permission_overwrites": self._overwrites(channel_id),
            "flags": 0,
        }

    # ------------------------------------------------------------------ DMs

    def dm_channel_id(self, user_id: str) -> str:
        """The id of the bot's DM channel with a user: the same for the fake's whole life (what
        POST /users/@me/channels answers; made on first use)."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self.snowflake()
            self.dm_channels[user_id] = channel_id
            self.dm_recipients[channel_id] = user_id
        return channel_id

    def dm_channel_object(self, channel_id: str) -> dict[str, Any]:
        user_id = self.dm_recipients[channel_id]
        last = [m["id"] for m in self.messages.values() if m["channel_id"] == channel_id]
        return {
            "id": channel_id,
            "type": DM_CHANNEL,
            "last_message_id": last[-1] if last else None,
            "flags": 0,
            "recipients": [user_object(user_id, self.username(user_id) or "user")],
        }

    def dms_to(self, user_id: str, *, delivered: bool = True) -> list[RecordedRequest]:
        """The bot's posts into its DM channel with the user, in order: those Discord took
        (``delivered``), or every attempt, refused ones (403 50007) included."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            return []
        posts = self.find_requests("POST", rf"/channels/{channel_id}/messages")
        return [r for r in posts if 200 <= r.status < 300] if delivered else posts

    def dm_messages(self, user_id: str) -> list[dict[str, Any]]:
        """The messages (as stored, with later edits) in the bot's DM channel with the user."""
        channel_id = self.dm_channels.get(user_id)
        return [m for m in self.messages.values() if m["channel_id"] == channel_id]

    def _overwrites(self, channel_id: str) -> list[dict[str, Any]]:
        """The bot member's overwrite for what deny() took away (discord.py computes the bot's
        own permissions from these)."""
        bits = self.denied.get(channel_id, 0)
        if not bits:
            return []
        return [{"id": self.bot_user["id"], "type": 1, "allow": "0", "deny": str(bits)}]

    def guild_payload(self, guild: Guild | None = None) -> dict[str, Any]:
        """GUILD_CREATE of ``guild`` (default: the primary guild)."""
        g = guild or self.guild
        members = self.member_objects(g)
        roles = [
            {
                "id": g.id,  # @everyone has the guild's id
                "name": "@everyone",
                "permissions": "1071698660929",
                "position": 0,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
            },
            {
                "id": g.extra_role_id,
                "name": "Admin",
                "permissions": "8",
                "position": 1,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
            },
        ]
        return {
            "id": g.id,
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": g.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": next(iter(g.channels)),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": g.locale,
            "nsfw_level": 0,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [self.channel_object(cid) for cid in g.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": True,
        }

    # ------------------------------------------------------------------ interaction payloads

    def _interaction_base(
        self,
        type_: int,
        data: dict[str, Any],
        *,
        user_id: str | None,
        channel_id: str | None,
        locale: str,
    ) -> dict[str, Any]:
        channel_id = channel_id or next(iter(self.guild.channels))
        interaction_id = self.snowflake()
        token = f"itoken-{interaction_id}"
        if channel_id in self.dm_recipients:
            # In the bot's DM: ``user`` instead of ``member``, no guild (context BOT_DM).
            user_id = user_id or self.dm_recipients[channel_id]
            return {
                "id": interaction_id,
                "application_id": self.application_id,
                "type": type_,
                "data": data,
                "channel_id": channel_id,
                "channel": {**self.dm_channel_object(channel_id), "permissions": DM_PERMISSIONS},
                "user": user_object(user_id, self.username(user_id) or "user"),
                "token": token,
                "version": 1,
                "app_permissions": DM_PERMISSIONS,
                "locale": locale,
                "entitlements": [],
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,
                "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            }
        guild = self.guild_of(channel_id) or self.guild
        user_id = user_id or next(iter(guild.users))
        if user_id not in guild.users:
            raise ValueError(
                f"user {user_id} is not a member of guild {guild.id} (channel {channel_id}): "
                f"Discord sends no interaction from there; members: {list(guild.users)}"
            )
        channel = dict(self.channel_object(channel_id))
        channel["permissions"] = self.permissions_in(channel_id)
        return {
            "id": interaction_id,
            "application_id": self.application_id,
            "type": type_,
            "data": data,
            "guild_id": guild.id,
            "guild": {"id": guild.id, "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "channel_id": channel_id,
            "channel": channel,
            "member": self.member_object(user_id, with_permissions=True, guild=guild),
            "token": token,
            "version": 1,
            "app_permissions": self.permissions_in(channel_id),
            "locale": locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    def _command_scope(self, channel_id: str | None) -> Guild | None:
        """The guild whose commands apply in a channel (None in a DM: global ones only)."""
        channel_id = channel_id or next(iter(self.guild.channels))
        if channel_id in self.dm_recipients:
            return None
        return self.guild_of(channel_id) or self.guild

    def _command_id(self, name: str, guild: Guild | None) -> str:
        """The id of the command as registered for the guild, else globally (a fresh id for
        one that was never registered)."""
        for scope in ((guild.id,) if guild is not None else ()) + (None,):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return str(cmd["id"])
        return self.snowflake()

    def _command_guild(self, name: str, guild: Guild | None) -> str | None:
        """The guild id of a guild command (its interactions carry ``data.guild_id``)."""
        if guild is not None and any(c["name"] == name for c in self.commands.get(guild.id, [])):
            return guild.id
        return None

    def command_interaction(
        self,
        name: str,
        options: Iterable[dict[str, Any]] = (),
        *,
        user_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
        resolved: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A slash command (type 2). ``options`` are Discord option objects, e.g.
        ``{"name": "variant", "type": 3, "value": "russian"}`` (sub-commands nest them)."""
        scope = self._command_scope(channel_id)
        data: dict[str, Any] = {
            "id": self._command_id(name, scope),
            "name": name,
            "type": 1,
            "options": list(options),
        }
        if (gid := self._command_guild(name, scope)) is not None:
            data["guild_id"] = gid
        if resolved is not None:
            data["resolved"] = resolved
        return self._interaction_base(
            APPLICATION_COMMAND, data, user_id=user_id, channel_id=channel_id, locale=locale
        )

    def autocomplete_interaction(
        self,
        name: str,
        options: Iterable[dict[str, Any]],
        focused: str,
        *,
        user_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """An autocomplete request (type 4); the option named ``focused`` gets ``focused: true``
        (and must be among ``options``, with its partial ``value``)."""
        opts = [{**o, "focused": True} if o["name"] == focused else dict(o) for o in options]
        interaction = self.command_interaction(
            name, opts, user_id=user_id, channel_id=channel_id, locale=locale
        )
        interaction["type"] = AUTOCOMPLETE
        return interaction

    def button_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        *,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A button press (type 3, ``component_type`` 2) on ``message``; see
        :meth:`component_interaction` for what ``message`` may be and what is refused."""
        return self.component_interaction(
            custom_id, message, user_id=user_id, locale=locale, forged=forged
        )

    def select_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        values: Iterable[str],
        *,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A choice in a string select menu (type 3, ``component_type`` 3, ``values`` in the
        order given); see :meth:`component_interaction`."""
        return self.component_interaction(
            custom_id, message, values=list(values), user_id=user_id, locale=locale, forged=forged
        )

    def component_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        *,
        values: list[str] | None = None,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A MESSAGE_COMPONENT interaction: a button press (``values`` None) or a string select
        choice, carrying the message as Discord does (the whole message object; an ephemeral
        one with flag 64).

        ``message`` is what the user's client shows: a message id or the fake's own stored
        object (``fake.messages[id]``, ``fake.original_message(token)``, ``Sent.message()``):
        the message as it is now; or a copy taken earlier (``copy.deepcopy``): a client that
        has not caught up with a later edit, which Discord still delivers if the press beat the
        edit, so the copy must be a state the message really had (its ``components`` equal to
        one the fake stored). Refused with :class:`ComponentRefused`, as Discord refuses the
        client: a custom id not on that message, a button pressed as a select or the reverse,
        a disabled component, values not among the options, repeated, or fewer than
        ``min_values`` / more than ``max_values`` (both default to 1), an ephemeral message or
        a DM by anyone but the user it was for, a deleted or unknown message. ``forged=True``
        skips every check: a hand-made payload of a modified client, which real Discord never
        delivers.

        The interaction comes from the message's channel, so from its guild (a DM's user
        when ``user_id`` is not given; else the guild's first member)."""
        if forged:
            shown = self.messages[message] if isinstance(message, str) else message
        else:
            shown = self._message_as_seen(message)
        channel_id = str(shown["channel_id"])
        if user_id is None:
            guild = self.guild_of(channel_id) or self.guild
            user_id = self.dm_recipients.get(channel_id) or next(iter(guild.users))
        if forged:
            component = find_component(shown, custom_id) or {}
            kind = component.get("type") or (BUTTON if values is None else STRING_SELECT)
        else:
            kind = self._check_component_use(shown, custom_id, values, user_id)["type"]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        interaction = self._interaction_base(
            MESSAGE_COMPONENT, data, user_id=user_id, channel_id=channel_id, locale=locale
        )
        interaction["message"] = copy.deepcopy(shown)
        if forged:
            self._forged.add(interaction["id"])
        return interaction

    def _message_as_seen(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """The message state a component interaction comes from (see
        :meth:`component_interaction`)."""
        if isinstance(message, str):
            stored = self.messages.get(message)
            if stored is None:
                gone = "was deleted" if message in self.deleted_messages else "does not exist"
                raise ComponentRefused(f"message {message} {gone}")
            return stored
        mid = str(message.get("id"))
        stored = self.messages.get(mid)
        if stored is not None and message is stored:
            return stored
        if message is self.deleted_messages.get(mid):
            raise ComponentRefused(f"message {mid} was deleted: no client shows it any more")
        versions = self.component_versions.get(mid)
        if versions is None:
            raise ComponentRefused(f"the fake never held a message {mid}")
        if (message.get("components") or []) not in versions:
            raise ComponentRefused(
                f"message {mid} never had these components, so no client shows them "
                f"(a hand-made message? pass forged=True to model a modified client): "
                f"{message.get('components')!r}"
            )
        return message

    def _check_component_use(
        self,
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None,
        user_id: str,
    ) -> dict[str, Any]:
        """The component the user used, or :class:`ComponentRefused` for an interaction the
        client could not have sent."""
        mid = str(message.get("id"))
        owner = self.ephemeral_for.get(mid)
        if owner is not None and owner != user_id:
            raise ComponentRefused(
                f"message {mid} is ephemeral, shown only to {owner}: {user_id} cannot use it"
            )
        recipient = self.dm_recipients.get(str(message.get("channel_id")))
        if recipient is not None and recipient != user_id:
            raise ComponentRefused(
                f"message {mid} is in the DM with {recipient}: {user_id} cannot see it"
            )
        component = find_component(message, custom_id)
        if component is None:
            shown = [
                c["custom_id"]
                for c in walk_components(message.get("components"))
                if "custom_id" in c
            ]
            raise ComponentRefused(f"message {mid} has no component {custom_id!r} (it has {shown})")
        kind = component.get("type")
        if component.get("disabled"):
            raise ComponentRefused(f"component {custom_id!r} of message {mid} is disabled")
        if values is None:
            if kind != BUTTON:
                raise ComponentRefused(f"{custom_id!r} is not a button (type {kind}): select it")
            return component
        if kind not in SELECT_TYPES:
            raise ComponentRefused(f"{custom_id!r} is not a select menu (type {kind}): press it")
        if kind != STRING_SELECT:
            raise ComponentRefused(f"{custom_id!r} is a type {kind} select: only string selects")
        if not all(isinstance(v, str) for v in values):
            raise ComponentRefused(f"select values are strings, not {values!r}")
        offered = [str(o.get("value")) for o in component.get("options") or []]
        unknown = [v for v in values if v not in offered]
        if unknown:
            raise ComponentRefused(f"{unknown} not among the options of {custom_id!r}: {offered}")
        if len(set(values)) != len(values):
            raise ComponentRefused(f"an option can be chosen once, not {values!r}")
        low = component.get("min_values")
        high = component.get("max_values")
        low = 1 if low is None else int(low)
        high = 1 if high is None else int(high)
        if not low <= len(values) <= high:
            raise ComponentRefused(
                f"{custom_id!r} takes {low} to {high} values, not {len(values)}: {values!r}"
            )
        return component

    def original_message(self, token: str) -> dict[str, Any] | None:
        """The message created by the interaction's response, if any."""
        mid = self.original_responses.get(token)
        return None if mid is None else self.messages.get(mid)

    def message_of(self, request: RecordedRequest) -> dict[str, Any] | None:
        """The stored message (as it is now) that a request created or edited: a channel post,
        a follow-up, a callback's reply or update, an edit."""
        return None if request.message_id is None else self.messages.get(request.message_id)

    def ephemeral_messages(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """The ephemeral messages the fake holds (only their user sees them), oldest first."""
        return [
            self.messages[mid]
            for mid, owner in self.ephemeral_for.items()
            if mid in self.messages and (user_id is None or owner == user_id)
        ]

    def uploads_missing_alt_text(self) -> list[tuple[RecordedRequest, Upload]]:
        """Every image the bot uploaded (in a request Discord took) without alt text: no
        ``description`` in its ``attachments`` entry, or only blanks."""
        return [
            (request, upload)
            for request in self.requests
            if 200 <= request.status < 300 and request.parts
            for upload in request.uploads
            if upload.is_image and not (upload.description or "").strip()
        ]

    # ------------------------------------------------------------------ REST plumbing

    def _add_routes(self) -> None:
        app = r"(?P<app_id>\d+)"
        guild = r"(?P<guild_id>\d+)"
        channel = r"(?P<channel_id>\d+)"
        message = r"(?P<message_id>\d+|@original)"
        webhook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
        table: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway_bot),
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(?P<user_id>\d+)", self._get_user),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", rf"/applications/{app}/commands", self._get_commands),
            ("PUT", rf"/applications/{app}/commands", self._put_commands),
            ("GET", rf"/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", rf"/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("GET", webhook, self._get_webhook),
            ("POST", webhook, self._webhook_execute),
            ("GET", webhook + rf"/messages/{message}", self._webhook_get_message),
            ("PATCH", webhook + rf"/messages/{message}", self._webhook_edit_message),
            ("DELETE", webhook + rf"/messages/{message}", self._webhook_delete_message),
            ("GET", rf"/channels/{channel}", self._get_channel),
            ("POST", rf"/channels/{channel}/messages", self._channel_post_message),
            ("GET", rf"/channels/{channel}/messages/(?P<message_id>\d+)", self._channel_get_msg),
            ("PATCH", rf"/channels/{channel}/messages/(?P<message_id>\d+)", self._channel_edit),
            ("DELETE", rf"/channels/{channel}/messages/(?P<message_id>\d+)", self._channel_del),
            ("POST", rf"/channels/{channel}/threads", self._create_thread),
            (
                "POST",
                rf"/channels/{channel}/messages/(?P<message_id>\d+)/threads",
                self._create_thread,
            ),
            ("PUT", rf"/channels/{channel}/thread-members/(?P<user_id>@me|\d+)", self._no_content),
            ("POST", rf"/channels/{channel}/typing", self._no_content),
        ]
        self._routes = [(m, re.compile(p), h) for m, p, h in table]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :]
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            headers=dict(request.headers),
        )
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read(decode=False)  # type: ignore[union-attr]
                rec.parts.append(
                    Part(
                        name=part.name or "",  # type: ignore[union-attr]
                        filename=part.filename,  # type: ignore[union-attr]
                        content_type=part.headers.get("Content-Type"),
                        data=bytes(data),
                    )
                )
                if part.name == "payload_json":  # type: ignore[union-attr]
                    rec.json = json.loads(data)
        else:
            rec.body = await request.read()
            if rec.body:
                try:
                    rec.json = json.loads(rec.body)
                except ValueError:
                    rec.json = None
        self.requests.append(rec)
        try:
            refusal = self._check_body(rec)  # recorded as a violation even if a fault answers
            fault = self._fault_for(rec)
            if fault is not None:
                rec.injected = True
                if fault.delay > 0:
                    await asyncio.sleep(fault.delay)
            if fault is not None and fault.status >= 400:
                response = self._fault_response(fault)
            elif refusal is not None:
                raise refusal
            else:
                response = await self._route(rec)
        except _ApiError as exc:
            rec.error = exc.body()
            response = _json_response(rec.error, status=exc.status)
            if not rec.unknown:
                self.refusals.append(rec)
        except Exception as exc:  # a bug in the fake: make it visible, not a hang
            print(f"fake_discord: handler error for {rec!r}: {exc!r}", file=sys.stderr)
            response = _json_response(
                {"message": f"fake handler error: {exc!r}", "code": 0}, status=500
            )
            rec.unknown = True
        rec.status = response.status
        expected = self._expected.pop((rec.method, rec.path), None)
        if expected is not None and not expected.done():
            expected.set_result(rec)
        await self._notify()
        return response

    # ------------------------------------------------------------------ strictness

    _COMMANDS = re.compile(r"/applications/\d+(/guilds/\d+)?/commands")
    _CALLBACK = re.compile(r"/interactions/\d+/(?P<token>[^/]+)/callback")
    _WEBHOOK = re.compile(r"/webhooks/\d+/[^/]+")
    _WEBHOOK_MESSAGE = re.compile(r"/webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)")
    _CHANNEL_MESSAGES = re.compile(r"/channels/\d+/messages")
    _CHANNEL_MESSAGE = re.compile(r"/channels/\d+/messages/(?P<mid>\d+)")
    _THREADS = re.compile(r"/channels/\d+(/messages/\d+)?/threads")

    def _check_body(self, rec: RecordedRequest) -> _ApiError | None:
        """Discord's documented limits and the OpenAPI schema; a failure is recorded as a
        violation and returned as the error Discord would answer with."""
        problems = self._limit_problems(rec)
        texts = [str(p) for p in problems]
        has_body = rec.json is not None or bool(rec.body) or bool(rec.parts)
        if has_body:
            texts += openapi_check.validate(rec.method, rec.path, rec.json)
        if not texts:
            return None
        self.violations.append(Violation(rec.method, rec.path, texts, rec.json))
        status, code, message, errors = discord_limits.refusal(problems)
        if not problems:  # only the schema objected
            errors = {"_errors": [{"code": "SCHEMA", "message": t} for t in texts]}
        return _ApiError(status, message, code, errors)

    def _limit_problems(self, rec: RecordedRequest) -> list[discord_limits.Problem]:
        body, path, method = rec.json, rec.path, rec.method
        files = [(p.filename, len(p.data)) for p in rec.parts if p.filename is not None]
        limits = discord_limits
        if method == "PUT" and self._COMMANDS.fullmatch(path):
            return limits.check_commands(body)
        if method == "POST" and (m := self._CALLBACK.fullmatch(path)):
            interaction = self.interactions.get(m["token"])
            return limits.check_callback(
                body,
                interaction_type=None if interaction is None else interaction["type"],
                files=files,
                focused_type=_focused_type(interaction),
                message_flags=int(_message_of(interaction).get("flags") or 0),
                size_limit=ATTACHMENT_SIZE_LIMIT,
            )
        if method == "POST" and self._WEBHOOK.fullmatch(path):
            return limits.check_message(body, kind="followup", files=files)
        if method == "POST" and self._CHANNEL_MESSAGES.fullmatch(path):
            return limits.check_message(body, kind="create", files=files)
        if method == "PATCH" and (
            (m := self._WEBHOOK_MESSAGE.fullmatch(path))
            or (m := self._CHANNEL_MESSAGE.fullmatch(path))
        ):
            groups = m.groupdict()
            mid = groups["mid"]
            if mid == "@original":
                mid = self.original_responses.get(groups.get("token") or "", "")
            old_flags = int(self.messages.get(mid, {}).get("flags") or 0)
            return limits.check_message(body, kind="edit", files=files, old_flags=old_flags)
        if method == "POST" and self._THREADS.fullmatch(path):
            return limits.check_thread(body)
        return []

    def _check_window(self, token: str) -> None:
        """The initial response must come within the window after the dispatch."""
        sent = self._dispatched_at.get(token)
        late = sent is not None and time.monotonic() - sent > self.interaction_window
        if late or token in self._expired_tokens:
            raise _ApiError(404, "Unknown interaction", 10062)

    def _check_token(self, token: str) -> None:
        """Follow-ups and webhook edits work for 15 minutes after the interaction."""
        sent = self._dispatched_at.get(token)
        old = sent is not None and time.monotonic() - sent > self.token_lifetime
        if old or token in self._expired_tokens:
            raise _ApiError(401, "Invalid Webhook Token", 50027)

    def _check_permissions(self, channel_id: str, *needed: str) -> None:
        """A bot request in a channel, refused as Discord would when deny() took a needed
        permission away."""
        denied = self.denied_in(channel_id)
        if denied & PERMISSION_BITS["view_channel"]:
            raise _ApiError(403, "Missing Access", 50001)
        if any(denied & PERMISSION_BITS[name] for name in needed):
            raise _ApiError(403, "Missing Permissions", 50013)

    def _post_permissions(self, rec: RecordedRequest, channel_id: str) -> list[str]:
        body = rec.json or {}
        needed = ["send_messages_in_threads" if channel_id in self.threads else "send_messages"]
        if body.get("embeds"):
            needed.append("embed_links")
        if any(p.filename is not None for p in rec.parts):
            needed.append("attach_files")
        if body.get("message_reference"):
            needed.append("read_message_history")
        return needed

    async def _route(self, rec: RecordedRequest) -> web.StreamResponse:
        for method, pattern, handler in self._routes:
            if method == rec.method and (m := pattern.fullmatch(rec.path)):
                result = handler(rec, **m.groupdict())
                if isinstance(result, web.StreamResponse):
                    return result
                return _json_response(result)
        rec.unknown = True
        raise _ApiError(404, f"404: Not Found (fake Discord has no {rec.method} {rec.path})", 0)

    @staticmethod
    def _no_content(rec: RecordedRequest, **_: str) -> web.Response:
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST handlers

    def _get_gateway(self, rec: RecordedRequest) -> dict[str, Any]:
        return {"url": self.gateway_url}

    def _get_gateway_bot(self, rec: RecordedRequest) -> dict[str, Any]:
        """Where to connect and how many shards to run (an ``AutoShardedClient`` without a
        ``shard_count`` asks, then connects to ``url``)."""
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    def _get_me(self, rec: RecordedRequest) -> dict[str, Any]:
        return {**self.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US"}

    def _get_user(self, rec: RecordedRequest, user_id: str) -> dict[str, Any]:
        if user_id == self.bot_user["id"]:
            return dict(self.bot_user)
        username = self.username(user_id)  # a user of any of the bot's guilds
        if username is None:
            raise _ApiError(404, "Unknown User", 10013)
        return user_object(user_id, username)

    def _create_dm(self, rec: RecordedRequest) -> dict[str, Any]:
        """POST /users/@me/channels ``{recipient_id}``: the DM channel (type 1), the same one
        every time for a user (a user of any of the bot's guilds)."""
        recipient = (rec.json or {}).get("recipient_id") if isinstance(rec.json, dict) else None
        if recipient is None or str(recipient) == self.bot_user["id"]:
            raise _ApiError(400, "Invalid Recipient(s)", 50033)
        if self.username(str(recipient)) is None:
            raise _ApiError(400, "Invalid Recipient(s)", 50033)
        return self.dm_channel_object(self.dm_channel_id(str(recipient)))

    def _get_application(self, rec: RecordedRequest) -> dict[str, Any]:
        owner = user_object(self.guild.owner_id, self.guild.users.get(self.guild.owner_id, "x"))
        return {
            "id": self.application_id,
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": 0,
            "bot": self.bot_user,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "approximate_guild_count": len(self.guilds),
        }

    def _get_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_app(app_id)
        self._check_command_guild(guild_id)
        return self.commands.get(guild_id, [])

    def _put_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_app(app_id)
        self._check_command_guild(guild_id)
        old = {c["name"]: c["id"] for c in self.commands.get(guild_id, [])}
        echoed = []
        for cmd in rec.json or []:
            out = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **cmd,
                "id": old.get(cmd["name"]) or self.snowflake(),
                "application_id": self.application_id,
                "version": self.snowflake(),
            }
            if guild_id is not None:
                out["guild_id"] = guild_id
            echoed.append(out)
        self.commands[guild_id] = echoed
        return echoed

    def _check_app(self, app_id: str) -> None:
        if app_id != self.application_id:
            raise _ApiError(404, "Unknown Application", 10002)

    def _check_command_guild(self, guild_id: str | None) -> None:
        """Guild commands only in a guild the bot is in (Discord: 403 50001 Missing Access)."""
        if guild_id is not None and self.guild_by_id(guild_id) is None:
            raise _ApiError(403, "Missing Access", 50001)

    def _check_channel(self, channel_id: str) -> None:
        if not (
            channel_id in self.threads
            or channel_id in self.dm_recipients
            or self.guild_of(channel_id) is not None
        ):
            raise _ApiError(404, "Unknown Channel", 10003)

    def _interaction(self, token: str) -> dict[str, Any]:
        try:
            return self.interactions[token]
        except KeyError:
            raise _ApiError(401, "Invalid Webhook Token", 50027) from None

    def _make_message(
        self,
        rec: RecordedRequest,
        channel_id: str,
        *,
        interaction: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        body = body if body is not None else (rec.json or {})
        message_id = self.snowflake()
        guild = self.guild_of(channel_id) or self.guild
        msg: dict[str, Any] = {
            "id": message_id,
            "channel_id": channel_id,
            "guild_id": guild.id,
            "author": self.bot_user,
            "member": self.member_object(self.bot_user["id"], guild=guild),
            "content": body.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
        }
        del msg["member"]["user"]
        if channel_id in self.dm_recipients:  # a DM: no guild, no member
            del msg["guild_id"], msg["member"]
        if interaction is not None:
            user = _interaction_user(interaction)
            msg["webhook_id"] = self.application_id
            msg["application_id"] = self.application_id
            msg["type"] = 20 if interaction["type"] == APPLICATION_COMMAND else 0
            msg["interaction_metadata"] = {
                "id": interaction["id"],
                "type": interaction["type"],
                "user": user,
                "authorizing_integration_owners": interaction["authorizing_integration_owners"],
            }
            if msg["flags"] & EPHEMERAL:
                self.ephemeral_for[message_id] = str(user.get("id"))
        msg["attachments"] = self._attachments(rec, channel_id, body, [])
        self.messages[message_id] = msg
        self._remember(msg)
        rec.message_id = message_id
        return msg

    def _remember(self, msg: dict[str, Any]) -> None:
        """Keep the message's components among the states a client may show."""
        versions = self.component_versions.setdefault(msg["id"], [])
        components = copy.deepcopy(msg.get("components") or [])
        if components not in versions:
            versions.append(components)

    def _attachments(
        self,
        rec: RecordedRequest,
        channel_id: str,
        body: dict[str, Any],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Attachments after a create/edit: kept existing ones (by id) plus uploaded files, each
        with the alt text (``description``) of its ``attachments`` entry."""
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or [] if isinstance(a, dict)}
            kept = [a for a in existing if a["id"] in wanted]
        else:
            kept = list(existing)
        for upload in uploads_of(rec.parts, body):
            aid = self.snowflake()
            self.files[aid] = upload.data
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{upload.filename}"
            content_type = upload.content_type
            if content_type in (None, "application/octet-stream"):  # Discord sniffs the type
                content_type = mimetypes.guess_type(upload.filename)[0] or content_type
            attachment: dict[str, Any] = {
                "id": aid,
                "filename": upload.filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
                "content_type": content_type or "application/octet-stream",
            }
            if upload.description is not None:
                attachment["description"] = upload.description
            kept.append(attachment)
        return kept

    def _edit_message(
        self, rec: RecordedRequest, message_id: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        try:
            msg = self.messages[message_id]
        except KeyError:
            raise _ApiError(404, "Unknown Message", 10008) from None
        body = body if body is not None else (rec.json or {})
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        msg["attachments"] = self._attachments(rec, msg["channel_id"], body, msg["attachments"])
        msg["edited_timestamp"] = _now_iso()
        self._remember(msg)
        rec.message_id = message_id
        return msg

    def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.StreamResponse:
        interaction = self._interaction(token)
        if interaction["id"] != iid:
            raise _ApiError(404, "Unknown interaction", 10062)
        if token in self._acknowledged:
            raise _ApiError(400, "Interaction has already been acknowledged.", 40060)
        self._check_window(token)
        self._acknowledged.add(token)
        body = rec.json or {}
        cb_type = body.get("type")
        data = body.get("data") or {}
        result: dict[str, Any] = {
            "interaction": {
                "id": iid,
                "type": interaction["type"],
                "response_message_loading": cb_type == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        message: dict[str, Any] | None = None
        if cb_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            if cb_type == DEFERRED_CHANNEL_MESSAGE:  # a "thinking" message: only flags count
                data = {"flags": data.get("flags")} if data.get("flags") is not None else {}
            message = self._make_message(
                rec, interaction["channel_id"], interaction=interaction, body=data
            )
            self.original_responses[token] = message["id"]
        elif cb_type in (UPDATE_MESSAGE, DEFERRED_UPDATE) and "message" in interaction:
            mid = interaction["message"]["id"]
            if mid in self.deleted_messages and mid not in self.messages:
                raise _ApiError(404, "Unknown Message", 10008)
            if mid not in self.messages:  # a forged payload's message: take it as it came
                self.messages[mid] = interaction["message"]
                self._remember(interaction["message"])
            self.original_responses[token] = mid
            if cb_type == UPDATE_MESSAGE:
                message = self._edit_message(rec, mid, data)
        elif cb_type not in (AUTOCOMPLETE_RESULT, MODAL, DEFERRED_UPDATE, UPDATE_MESSAGE):
            raise _ApiError(400, f"Invalid interaction response type {cb_type}", 50035)
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["interaction"]["response_message_ephemeral"] = bool(message["flags"] & EPHEMERAL)
            result["resource"] = {"type": cb_type, "message": message}
        elif cb_type in (AUTOCOMPLETE_RESULT, MODAL):
            result["resource"] = {"type": cb_type}
        if rec.query.get("with_response") in ("1", "true", "True"):
            return _json_response(result)
        return web.Response(status=204)

    def _get_webhook(self, rec: RecordedRequest, app_id: str, token: str) -> dict[str, Any]:
        interaction = self._interaction(token)
        self._check_token(token)
        return {
            "id": app_id,
            "type": 3,
            "token": token,
            "application_id": self.application_id,
            "channel_id": interaction["channel_id"],
            "guild_id": interaction.get("guild_id"),  # None for a DM interaction
            "name": self.bot_user["username"],
            "avatar": None,
        }

    def _webhook_execute(self, rec: RecordedRequest, app_id: str, token: str) -> web.StreamResponse:
        interaction = self._interaction(token)
        self._check_app(app_id)
        self._check_token(token)
        msg = self._make_message(rec, interaction["channel_id"], interaction=interaction)
        if rec.query.get("wait") in ("1", "true", "True"):
            return _json_response(msg)
        return web.Response(status=204)

    def _webhook_message_id(self, token: str, message_id: str) -> str:
        self._interaction(token)
        self._check_token(token)
        if message_id == "@original":
            try:
                return self.original_responses[token]
            except KeyError:
                raise _ApiError(404, "Unknown Message", 10008) from None
        return message_id

    def _webhook_get_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        mid = self._webhook_message_id(token, message_id)
        if mid not in self.messages:
            raise _ApiError(404, "Unknown Message", 10008)
        return self.messages[mid]

    def _webhook_edit_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        return self._edit_message(rec, self._webhook_message_id(token, message_id))

    def _webhook_delete_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> web.Response:
        mid = self._webhook_message_id(token, message_id)
        if mid not in self.messages:
            raise _ApiError(404, "Unknown Message", 10008)
        self._delete(mid)
        return web.Response(status=204)

    def _delete(self, message_id: str) -> None:
        self.deleted_messages[message_id] = self.messages.pop(message_id)

    def _get_channel(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        self._check_permissions(channel_id)
        return self.channel_object(channel_id)

    def _channel_post_message(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        self._check_permissions(channel_id, *self._post_permissions(rec, channel_id))
        recipient = self.dm_recipients.get(channel_id)
        if recipient is not None and recipient in self.dms_blocked:
            raise _ApiError(403, "Cannot send messages to this user", 50007)
        body = rec.json or {}
        key = (channel_id, str(body.get("nonce")))
        now = time.monotonic()
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = self._nonces.get(key)
            if earlier is not None and now - earlier[0] <= self.nonce_window:
                existing = self.messages.get(earlier[1])
                if existing is not None:
                    rec.message_id = existing["id"]
                    return existing
        message = self._make_message(rec, channel_id)
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
            if body.get("enforce_nonce"):
                self._nonces[key] = (now, message["id"])
        return message

    def _channel_message(self, channel_id: str, message_id: str) -> dict[str, Any]:
        """A message through the channel routes; an ephemeral one is not there (only its
        interaction's webhook reaches it)."""
        self._check_channel(channel_id)
        msg = self.messages.get(message_id)
        if msg is None or msg["channel_id"] != channel_id or message_id in self.ephemeral_for:
            raise _ApiError(404, "Unknown Message", 10008)
        return msg

    def _channel_get_msg(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self._check_permissions(channel_id, "read_message_history")
        return self._channel_message(channel_id, message_id)

    def _channel_edit(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self._check_permissions(channel_id)
        self._channel_message(channel_id, message_id)
        return self._edit_message(rec, message_id)

    def _channel_del(self, rec: RecordedRequest, channel_id: str, message_id: str) -> web.Response:
        self._check_permissions(channel_id)
        self._channel_message(channel_id, message_id)
        self._delete(message_id)
        return web.Response(status=204)

    def _create_thread(
        self, rec: RecordedRequest, channel_id: str, message_id: str | None = None
    ) -> dict[str, Any]:
        self._check_channel(channel_id)
        if channel_id in self.dm_recipients or channel_id in self.threads:
            raise _ApiError(400, "Cannot execute action on this channel type", 50024)
        self._check_permissions(channel_id, "create_public_threads")
        body = rec.json or {}
        if message_id is not None:
            self._channel_message(channel_id, message_id)
        # A thread started from a message has the message's id.
        thread_id = message_id or self.snowflake()
        thread = {
            "id": thread_id,
            "type": int(body.get("type") or 11),
            "guild_id": (self.guild_of(channel_id) or self.guild).id,
            "parent_id": channel_id,
            "owner_id": self.bot_user["id"],
            "name": body.get("name", "thread"),
            "last_message_id": None,
            "rate_limit_per_user": int(body.get("rate_limit_per_user") or 0),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 1440),
                "archive_timestamp": _now_iso(),
                "locked": False,
                "invitable": bool(body.get("invitable", True)),
                "create_timestamp": _now_iso(),
            },
            "member": {
                "id": thread_id,
                "user_id": self.bot_user["id"],
                "join_timestamp": _now_iso(),
                "flags": 0,
            },
        }
        self.threads[thread_id] = thread
        # Discord also announces the new thread on the gateway (discord.py caches it from there).
        self._spawn(self.dispatch("THREAD_CREATE", {**thread, "newly_created": True}))
        return thread

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.files.get(request.match_info["aid"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)


_DEFAULT_MESSAGES = {
    400: "400: Bad Request",
    401: "401: Unauthorized",
    403: "Missing Permissions",
    404: "404: Not Found",
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


def _focused_type(interaction: dict[str, Any] | None) -> int | None:
    """The type of the option an autocomplete interaction is about."""
    if interaction is None:
        return None
    options = list((interaction.get("data") or {}).get("options") or [])
    while options:
        option = options.pop(0)
        if option.get("focused"):
            return int(option["type"])
        options.extend(option.get("options") or [])
    return None


def _interaction_user(interaction: dict[str, Any]) -> dict[str, Any]:
    """The user who made the interaction (``member.user`` in a guild, ``user`` in a DM)."""
    member = interaction.get("member")
    if isinstance(member, dict) and member.get("user"):
        return dict(member["user"])
    return dict(interaction.get("user") or {})


def _message_of(interaction: dict[str, Any] | None) -> dict[str, Any]:
    return dict((interaction or {}).get("message") or {})


def _json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json"
    # (aiohttp's json_response would add "; charset=utf-8").
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class _ApiError(Exception):
    def __init__(
        self, status: int, message: str, code: int, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.errors = status, message, code, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body
