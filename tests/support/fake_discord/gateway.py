"""The gateway: websocket sessions (HELLO; IDENTIFY answered with READY and one GUILD_CREATE
per guild of the session's shard, or closed 4010/4011; heartbeats; RESUME replaying what the
session missed; member chunks; op 7 and op 9 on demand) and events dispatched to the sessions of
their guild's shard, interactions included."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import WSMsgType, web

from .components import ComponentRefused
from .guilds import Guild, guild_on_shard
from .messages import MessageStore
from .protocol import MESSAGE_COMPONENT, REPLAYED_EVENTS
from .sessions import GatewaySession, NoSessionForGuild, shards_overlap

LATE_GUILDS = 240
"""How many more guilds READY lists while :meth:`GatewayHub.hold_ready` holds: two minutes of
them, one every :data:`LATE_GUILD_INTERVAL`."""
LATE_GUILD_INTERVAL = 0.5
"""Seconds between the held guilds' GUILD_CREATEs: well inside the 2 s discord.py waits for the
next guild before it gives up and reports ready."""
LATE_GUILD_INDEX = 500
"""The first ``guild_on_shard`` index of the held guilds, clear of those tests make."""


class GatewayHub(MessageStore):
    """Serves ``/gateway`` and dispatches events to the sessions of each event's shard."""

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

    def hold_ready(self) -> None:
        """Keep the sessions that identify from now on connected but short of discord.py's
        ready, until :meth:`release_ready`: as for a bot in hundreds of servers, READY lists
        :data:`LATE_GUILDS` more guilds and their GUILD_CREATEs arrive one every
        :data:`LATE_GUILD_INTERVAL` (discord.py reports ready 2 s after the last guild, so it
        keeps waiting).  The bot answers interactions meanwhile, as it would.  Deterministic
        where racing discord.py's 2 s is not."""
        self.ready_held = True

    def release_ready(self) -> None:
        """The held guilds' GUILD_CREATEs come at once: ready follows 2 s after the last."""
        self.ready_held = False

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
            self.dispatched_at[data["token"]] = time.monotonic()
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

    async def wait_for_identify(self, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: self.sessions_identified > 0, timeout)

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
                await self.notify_changed()
        finally:
            self._sockets.remove(ws)
            for session in self._sessions.values():
                if session.ws is ws:
                    session.ws = None
            await self.notify_changed()
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
            if v.ws is not None or not shards_overlap(v.shard, shard)
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
        late = (
            [guild_on_shard(*shard, LATE_GUILD_INDEX + n) for n in range(LATE_GUILDS)]
            if self.ready_held
            else []
        )
        await self._send_to(session, "READY", self.ready_payload(session.id, shard, late))
        for guild in self.guilds_on_shard(*shard):
            await self._send_to(session, "GUILD_CREATE", self.guild_payload(guild))
        if late:
            self.spawn(self._late_guilds(session, late))

    async def _late_guilds(self, session: GatewaySession, late: list[Guild]) -> None:
        """The held guilds of :meth:`hold_ready`, while the session is connected."""
        for guild in late:
            if self.ready_held:
                await asyncio.sleep(LATE_GUILD_INTERVAL)
            if not session.connected:
                return
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
        self,
        session_id: str = "fake-session",
        shard: tuple[int, int] = (0, 1),
        late: list[Guild] | None = None,
    ) -> dict[str, Any]:
        """READY for a session on ``shard``: the guilds on that shard and the ``late`` ones of
        :meth:`hold_ready`, as unavailable (each GUILD_CREATE follows)."""
        guilds = [*self.guilds_on_shard(*shard), *(late or [])]
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

    def guild_payload(self, guild: Guild | None = None) -> dict[str, Any]:
        """GUILD_CREATE of ``guild`` (default: the primary guild)."""
        g = guild or self.guild
        members = self.member_objects(g)
        roles = [
            _role(g.id, "@everyone", "1071698660929", 0),  # @everyone has the guild's id
            _role(g.extra_role_id, "Admin", "8", 1),
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


def _role(role_id: str, name: str, permissions: str, position: int) -> dict[str, Any]:
    """A role of a GUILD_CREATE, uncoloured, unhoisted, unmanaged."""
    return {
        "id": role_id,
        "name": name,
        "permissions": permissions,
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
