"""A fake Discord API (REST + gateway) on 127.0.0.1 that the real, unmodified discord.py client
can talk to, for end-to-end tests of the bot.

Imported as a plain module (``from fake_discord import FakeDiscord``): pytest puts this
directory on ``sys.path`` because ``tests/`` is not a package.

The bot process is pointed at the fake by ``tests/discord_launcher.py`` (it overrides
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and guards
the process against any non-loopback connection). The fake:

* serves the gateway at ``/gateway``: HELLO, IDENTIFY → READY + GUILD_CREATE (one guild),
  heartbeats, RESUME, member chunk requests; :meth:`FakeDiscord.dispatch` pushes any event;
* serves the REST endpoints discord.py uses at start-up, for application commands, interaction
  responses, follow-ups, channel messages and threads under ``/api/v10``; unknown routes answer
  404 and are recorded with ``unknown=True``;
* records every REST request (:attr:`FakeDiscord.requests`) with its JSON body or multipart
  parts (``payload_json`` decoded into ``json``, files kept as bytes), and every gateway payload
  the client sent (:attr:`FakeDiscord.gateway_received`);
* builds interaction payloads (:meth:`FakeDiscord.command_interaction`,
  :meth:`FakeDiscord.autocomplete_interaction`, :meth:`FakeDiscord.button_interaction`).

Everything runs on the test's event loop; no thread is involved.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

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

    @property
    def files(self) -> dict[str, bytes]:
        """Uploaded files by filename."""
        return {p.filename: p.data for p in self.parts if p.filename is not None}

    def __repr__(self) -> str:
        flag = " UNKNOWN" if self.unknown else ""
        return f"<{self.method} {self.path} -> {self.status}{flag}>"


@dataclass
class Guild:
    """The one guild the fake serves, with fixed ids so tests can refer to them."""

    id: str = "1100000000000000001"
    name: str = "Fake Guild"
    owner_id: str = "1100000000000000101"
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
        bot_id: str = "1100000000000000010",
        bot_name: str = "DraughtsBot",
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self.guild = guild or Guild()
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
        self.sessions_identified = 0
        # The bot's own permissions in interactions (``app_permissions``); tests may narrow them.
        self.app_permissions = ALL_PERMISSIONS
        self.sequence = 0
        self._session_id = "fake-session-" + self.snowflake()
        self._sockets: list[web.WebSocketResponse] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Condition()
        self._expected: dict[tuple[str, str], asyncio.Future[RecordedRequest]] = {}
        self._runner: web.AppRunner | None = None
        self._app = web.Application(client_max_size=64 * 1024 * 1024)
        self._app.router.add_get("/gateway", self._gateway)
        self._app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        self._app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = []
        self._add_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self._runner = web.AppRunner(self._app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

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

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) event to every identified gateway connection."""
        self.sequence += 1
        payload = {"op": 0, "t": event, "s": self.sequence, "d": data}
        if event == "INTERACTION_CREATE":
            self.interactions[data["token"]] = data
        text = json.dumps(payload)
        for ws in list(self._sockets):
            if not ws.closed:
                await ws.send_str(text)

    async def send_interaction(self, interaction: dict[str, Any]) -> dict[str, Any]:
        await self.dispatch("INTERACTION_CREATE", interaction)
        return interaction

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
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
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _on_gateway_payload(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        if op == 1:  # heartbeat
            await ws.send_json({"op": 11})
        elif op == 2:  # identify
            self._sockets.append(ws)
            self.sessions_identified += 1
            await self.dispatch("READY", self.ready_payload())
            await self.dispatch("GUILD_CREATE", self.guild_payload())
        elif op == 6:  # resume: accept it, nothing was missed
            self._sockets.append(ws)
            await self.dispatch("RESUMED", {})
        elif op == 8:  # request guild members
            members = self.member_objects()
            await self.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": self.guild.id,
                    "members": members,
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": payload["d"].get("nonce"),
                },
            )

    def ready_payload(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user, "verified": True, "mfa_enabled": False},
            "guilds": [{"id": self.guild.id, "unavailable": True}],
            "session_id": self._session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": [0, 1],
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }

    def member_object(self, user_id: str, *, with_permissions: bool = False) -> dict[str, Any]:
        username = self.bot_user["username"] if user_id == self.bot_user["id"] else None
        user = (
            self.bot_user
            if username is not None
            else user_object(user_id, self.guild.users.get(user_id, f"user{user_id[-4:]}"))
        )
        member: dict[str, Any] = {
            "user": user,
            "nick": None,
            "avatar": None,
            "roles": [self.guild.extra_role_id] if user_id == self.guild.owner_id else [],
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
                ALL_PERMISSIONS if user_id in self.guild.moderators else MEMBER_PERMISSIONS
            )
        return member

    def member_objects(self) -> list[dict[str, Any]]:
        ids = [self.bot_user["id"], *self.guild.users]
        return [self.member_object(uid) for uid in ids]

    def channel_object(self, channel_id: str) -> dict[str, Any]:
        if channel_id in self.threads:
            return self.threads[channel_id]
        names = list(self.guild.channels)
        return {
            "id": channel_id,
            "type": 0,
            "guild_id": self.guild.id,
            "name": self.guild.channels.get(channel_id, f"channel-{channel_id[-4:]}"),
            "position": names.index(channel_id) if channel_id in names else 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "permission_overwrites": [],
            "flags": 0,
        }

    def guild_payload(self) -> dict[str, Any]:
        g = self.guild
        members = self.member_objects()
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
            "preferred_locale": "en-US",
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
        user_id = user_id or next(iter(self.guild.users))
        channel_id = channel_id or next(iter(self.guild.channels))
        interaction_id = self.snowflake()
        token = f"itoken-{interaction_id}"
        channel = dict(self.channel_object(channel_id))
        channel["permissions"] = self.app_permissions
        return {
            "id": interaction_id,
            "application_id": self.application_id,
            "type": type_,
            "data": data,
            "guild_id": self.guild.id,
            "guild": {"id": self.guild.id, "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel_id": channel_id,
            "channel": channel,
            "member": self.member_object(user_id, with_permissions=True),
            "token": token,
            "version": 1,
            "app_permissions": self.app_permissions,
            "locale": locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": self.guild.id},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    def _command_id(self, name: str) -> str:
        for scope in (self.guild.id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return cmd["id"]
        return self.snowflake()

    def _command_guild(self, name: str) -> str | None:
        if any(c["name"] == name for c in self.commands.get(self.guild.id, [])):
            return self.guild.id
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
        data: dict[str, Any] = {
            "id": self._command_id(name),
            "name": name,
            "type": 1,
            "options": list(options),
        }
        if (gid := self._command_guild(name)) is not None:
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
    ) -> dict[str, Any]:
        """A button press (type 3) on ``message`` (a message object or the id of one the fake
        stored, e.g. ``fake.original_message(token)``)."""
        if isinstance(message, str):
            message = self.messages[message]
        data = {"custom_id": custom_id, "component_type": 2}
        interaction = self._interaction_base(
            MESSAGE_COMPONENT,
            data,
            user_id=user_id,
            channel_id=message["channel_id"],
            locale=locale,
        )
        interaction["message"] = message
        return interaction

    def original_message(self, token: str) -> dict[str, Any] | None:
        """The message created by the interaction's response, if any."""
        mid = self.original_responses.get(token)
        return None if mid is None else self.messages.get(mid)

    # ------------------------------------------------------------------ REST plumbing

    def _add_routes(self) -> None:
        app = r"(?P<app_id>\d+)"
        guild = r"(?P<guild_id>\d+)"
        channel = r"(?P<channel_id>\d+)"
        message = r"(?P<message_id>\d+|@original)"
        webhook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
        table: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", r"/users/@me", self._get_me),
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
            response = await self._route(rec)
        except _ApiError as exc:
            response = _json_response({"message": exc.message, "code": exc.code}, status=exc.status)
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

    def _get_me(self, rec: RecordedRequest) -> dict[str, Any]:
        return {**self.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US"}

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
            "approximate_guild_count": 1,
        }

    def _get_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_app(app_id)
        return self.commands.get(guild_id, [])

    def _put_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_app(app_id)
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

    def _check_channel(self, channel_id: str) -> None:
        if channel_id not in self.guild.channels and channel_id not in self.threads:
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
        msg: dict[str, Any] = {
            "id": message_id,
            "channel_id": channel_id,
            "guild_id": self.guild.id,
            "author": self.bot_user,
            "member": {k: v for k, v in self.member_object(self.bot_user["id"]).items()},
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
        if interaction is not None:
            msg["webhook_id"] = self.application_id
            msg["application_id"] = self.application_id
            msg["type"] = 20 if interaction["type"] == APPLICATION_COMMAND else 0
            msg["interaction_metadata"] = {
                "id": interaction["id"],
                "type": interaction["type"],
                "user": interaction["member"]["user"],
                "authorizing_integration_owners": interaction["authorizing_integration_owners"],
            }
        msg["attachments"] = self._attachments(rec, channel_id, body, [])
        self.messages[message_id] = msg
        return msg

    def _attachments(
        self,
        rec: RecordedRequest,
        channel_id: str,
        body: dict[str, Any],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Attachments after a create/edit: kept existing ones (by id) plus uploaded files."""
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or []}
            kept = [a for a in existing if a["id"] in wanted]
        else:
            kept = list(existing)
        for part in rec.parts:
            if part.filename is None:
                continue
            aid = self.snowflake()
            self.files[aid] = part.data
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{part.filename}"
            kept.append(
                {
                    "id": aid,
                    "filename": part.filename,
                    "size": len(part.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": part.content_type or "application/octet-stream",
                }
            )
        return kept

    def _edit_message(self, rec: RecordedRequest, message_id: str) -> dict[str, Any]:
        try:
            msg = self.messages[message_id]
        except KeyError:
            raise _ApiError(404, "Unknown Message", 10008) from None
        body = rec.json or {}
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        msg["attachments"] = self._attachments(rec, msg["channel_id"], body, msg["attachments"])
        msg["edited_timestamp"] = _now_iso()
        return msg

    def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.StreamResponse:
        interaction = self._interaction(token)
        if interaction["id"] != iid:
            raise _ApiError(404, "Unknown interaction", 10062)
        if token in self.original_responses or any(
            r.path == rec.path and r is not rec and r.status < 300 for r in self.requests
        ):
            raise _ApiError(400, "Interaction has already been acknowledged.", 40060)
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
            message = self._make_message(
                rec, interaction["channel_id"], interaction=interaction, body=data
            )
            self.original_responses[token] = message["id"]
        elif cb_type in (UPDATE_MESSAGE, DEFERRED_UPDATE) and "message" in interaction:
            mid = interaction["message"]["id"]
            if mid not in self.messages:
                self.messages[mid] = interaction["message"]
            self.original_responses[token] = mid
            if cb_type == UPDATE_MESSAGE:
                fake = RecordedRequest(rec.method, rec.path, {}, {}, json=data, parts=rec.parts)
                message = self._edit_message(fake, mid)
        elif cb_type not in (AUTOCOMPLETE_RESULT, MODAL, DEFERRED_UPDATE, UPDATE_MESSAGE):
            raise _ApiError(400, f"Invalid interaction response type {cb_type}", 50035)
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"] = {"type": cb_type, "message": message}
        elif cb_type in (AUTOCOMPLETE_RESULT, MODAL):
            result["resource"] = {"type": cb_type}
        if rec.query.get("with_response") in ("1", "true", "True"):
            return _json_response(result)
        return web.Response(status=204)

    def _get_webhook(self, rec: RecordedRequest, app_id: str, token: str) -> dict[str, Any]:
        interaction = self._interaction(token)
        return {
            "id": app_id,
            "type": 3,
            "token": token,
            "application_id": self.application_id,
            "channel_id": interaction["channel_id"],
            "guild_id": self.guild.id,
            "name": self.bot_user["username"],
            "avatar": None,
        }

    def _webhook_execute(self, rec: RecordedRequest, app_id: str, token: str) -> web.StreamResponse:
        interaction = self._interaction(token)
        self._check_app(app_id)
        msg = self._make_message(rec, interaction["channel_id"], interaction=interaction)
        if rec.query.get("wait") in ("1", "true", "True"):
            return _json_response(msg)
        return web.Response(status=204)

    def _webhook_message_id(self, token: str, message_id: str) -> str:
        self._interaction(token)
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
        if self.messages.pop(mid, None) is None:
            raise _ApiError(404, "Unknown Message", 10008)
        return web.Response(status=204)

    def _get_channel(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        return self.channel_object(channel_id)

    def _channel_post_message(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        return self._make_message(rec, channel_id)

    def _channel_message(self, channel_id: str, message_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        msg = self.messages.get(message_id)
        if msg is None or msg["channel_id"] != channel_id:
            raise _ApiError(404, "Unknown Message", 10008)
        return msg

    def _channel_get_msg(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        return self._channel_message(channel_id, message_id)

    def _channel_edit(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self._channel_message(channel_id, message_id)
        return self._edit_message(rec, message_id)

    def _channel_del(self, rec: RecordedRequest, channel_id: str, message_id: str) -> web.Response:
        self._channel_message(channel_id, message_id)
        del self.messages[message_id]
        return web.Response(status=204)

    def _create_thread(
        self, rec: RecordedRequest, channel_id: str, message_id: str | None = None
    ) -> dict[str, Any]:
        self._check_channel(channel_id)
        body = rec.json or {}
        if message_id is not None:
            self._channel_message(channel_id, message_id)
        # A thread started from a message has the message's id.
        thread_id = message_id or self.snowflake()
        thread = {
            "id": thread_id,
            "type": int(body.get("type") or 11),
            "guild_id": self.guild.id,
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
        task = asyncio.get_running_loop().create_task(
            self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return thread

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.files.get(request.match_info["aid"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json"
    # (aiohttp's json_response would add "; charset=utf-8").
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class _ApiError(Exception):
    def __init__(self, status: int, message: str, code: int) -> None:
        super().__init__(message)
        self.status, self.message, self.code = status, message, code
