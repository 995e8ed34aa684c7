"""REST routes of channels: getting a channel, posting (idempotently with ``enforce_nonce``),
getting, editing and deleting its messages, starting threads; ephemeral messages are not reached
through them, and DMs refuse posts from users who take none."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .protocol import now_iso
from .records import RecordedRequest
from .refusals import Refusals
from .responses import ApiError


class ChannelRoutes(Refusals):
    """Handlers of the channel, message and thread routes."""

    def _get_channel(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        self._check_permissions(channel_id)
        return self.channel_object(channel_id)

    def _channel_post_message(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self._check_channel(channel_id)
        self._check_permissions(channel_id, *self._post_permissions(rec, channel_id))
        recipient = self.dm_recipients.get(channel_id)
        if recipient is not None and recipient in self.dms_blocked:
            raise ApiError(403, "Cannot send messages to this user", 50007)
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
            raise ApiError(404, "Unknown Message", 10008)
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
            raise ApiError(400, "Cannot execute action on this channel type", 50024)
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
                "archive_timestamp": now_iso(),
                "locked": False,
                "invitable": bool(body.get("invitable", True)),
                "create_timestamp": now_iso(),
            },
            "member": {
                "id": thread_id,
                "user_id": self.bot_user["id"],
                "join_timestamp": now_iso(),
                "flags": 0,
            },
        }
        self.threads[thread_id] = thread
        # Discord also announces the new thread on the gateway (discord.py caches it from there).
        self._spawn(self.dispatch("THREAD_CREATE", {**thread, "newly_created": True}))
        return thread
