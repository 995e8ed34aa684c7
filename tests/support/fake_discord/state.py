"""What the fake Discord holds: its guilds, users, channels, threads, DMs, messages, commands
and interactions, the permissions tests took from the bot, the gateway sessions, and the record of
everything the client did (every REST request, every gateway payload), with the waits on that
record and the objects Discord describes members and channels with.

The other modules of the package are behaviour over this one state: the message store, the
gateway, the interaction builders and the controls are mixed into :class:`FakeDiscord` (they are
what tests call on ``fake``); the REST API is an object of its own that holds the fake."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from .faults import Fault
from .guilds import Guild, check_distinct_ids, user_object
from .protocol import (
    ALL_PERMISSIONS,
    API_PREFIX,
    DM_CHANNEL,
    INTERACTION_WINDOW,
    MEMBER_PERMISSIONS,
    NONCE_WINDOW,
    TOKEN_LIFETIME,
    Snowflakes,
)
from .records import RecordedRequest, Violation
from .sessions import GatewaySession


class DiscordState:
    """Everything the fake holds, shared by its gateway, message store, interaction builders,
    REST routes and controls. ``FakeDiscord(...)`` takes these arguments."""

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
        check_distinct_ids(self.guilds, bot_id)
        self.guild = self.guilds[0]
        """The primary guild: the default for everything not tied to a channel."""
        self.shard_count = shard_count
        """The shard count IDENTIFY must use (else closed with 4010); None: any count."""
        self._recommended_shards: int | None = None
        self.application_id = bot_id  # a bot's application id equals its user id
        self.bot_user = user_object(bot_id, bot_name, bot=True)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.snowflake = Snowflakes()
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
        self.ready_held = False  # see GatewayHub.hold_ready
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
        # Strictness: see the package docstring.
        self.violations: list[Violation] = []
        self.refusals: list[RecordedRequest] = []
        self.interaction_window = INTERACTION_WINDOW
        self.token_lifetime = TOKEN_LIFETIME
        self.nonce_window = NONCE_WINDOW
        self.faults: list[Fault] = []
        self.denied: dict[str, int] = {}  # channel id -> permission bits the bot lacks there
        self.online = False
        self.dispatched_at: dict[str, float] = {}  # token -> loop time of INTERACTION_CREATE
        self.expired_tokens: set[str] = set()
        self.acknowledged_tokens: set[str] = set()  # tokens with an initial response
        self.nonces: dict[tuple[str, str], tuple[float, str]] = {}
        self._sessions: dict[str, GatewaySession] = {}
        self._sockets: list[web.WebSocketResponse] = []  # every open gateway socket
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Condition()
        self.expected_requests: dict[tuple[str, str], asyncio.Future[RecordedRequest]] = {}

    # ------------------------------------------------------------------ where it listens

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

    # ------------------------------------------------------------------ the record, and waiting

    async def notify_changed(self) -> None:
        """Something was recorded: every :meth:`wait_until` checks its condition again."""
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
        self.expected_requests[(method, path)] = future
        return future

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.unknown]

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` (a dispatch nobody waits for) on the loop, keeping the task until it is
        done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ permissions

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

    def _overwrites(self, channel_id: str) -> list[dict[str, Any]]:
        """The bot member's overwrite for what deny() took away (discord.py computes the bot's
        own permissions from these)."""
        bits = self.denied.get(channel_id, 0)
        if not bits:
            return []
        return [{"id": self.bot_user["id"], "type": 1, "allow": "0", "deny": str(bits)}]

    # ------------------------------------------------------------------ members and channels

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
