"""REST routes of channels: getting a channel, posting (idempotently with ``enforce_nonce``),
getting, editing and deleting its messages, starting threads; ephemeral messages are not reached
through them, and DMs refuse posts from users who take none."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .protocol import PERMISSION_BITS, now_iso
from .records import RecordedRequest
from .refusals import Refusals
from .responses import ApiError


class ChannelRoutes(Refusals):
    """Handlers of the channel, message and thread routes."""

    def get_channel(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self.check_channel(channel_id)
        self.check_permissions(channel_id)
        return self.fake.channel_object(channel_id)

    def post_channel_message(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        self.check_channel(channel_id)
        self.check_permissions(channel_id, *self.post_permissions(rec, channel_id))
        recipient = self.fake.dm_recipients.get(channel_id)
        if recipient is not None and recipient in self.fake.dms_blocked:
            raise ApiError(403, "Cannot send messages to this user", 50007)
        body = rec.json or {}
        key = (channel_id, str(body.get("nonce")))
        now = time.monotonic()
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = self.fake.nonces.get(key)
            if earlier is not None and now - earlier[0] <= self.fake.nonce_window:
                existing = self.fake.messages.get(earlier[1])
                if existing is not None:
                    rec.message_id = existing["id"]
                    return existing
        message = self.fake.make_message(rec, channel_id)
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
            if body.get("enforce_nonce"):
                self.fake.nonces[key] = (now, message["id"])
        return message

    def modify_channel(self, rec: RecordedRequest, channel_id: str) -> dict[str, Any]:
        """``PATCH /channels/{id}``, as far as the bot uses it: archiving (or reopening) a thread.
        Its owner (the bot, for the threads it opens) may archive it, anyone else needs Manage
        Threads (Discord: 403 50013); ``archived`` is no field of a text channel (400 50035).
        The change is announced on the gateway (``THREAD_UPDATE``)."""
        self.check_channel(channel_id)
        self.check_permissions(channel_id)
        body = rec.json or {}
        thread = self.fake.threads.get(channel_id)
        if thread is None:
            if "archived" in body or "locked" in body:
                raise ApiError(400, "Invalid Form Body", 50035)
            return self.fake.channel_object(channel_id)
        owner = thread.get("owner_id") == self.fake.bot_user["id"]
        if not owner and self.fake.denied_in(channel_id) & PERMISSION_BITS["manage_threads"]:
            raise ApiError(403, "Missing Permissions", 50013)
        metadata = thread["thread_metadata"]
        if "archived" in body:
            metadata["archived"] = bool(body["archived"])
            metadata["archive_timestamp"] = now_iso()
        if "locked" in body:
            metadata["locked"] = bool(body["locked"])
        if "name" in body:
            thread["name"] = str(body["name"])
        self.fake.spawn(self.fake.dispatch("THREAD_UPDATE", dict(thread)))
        return thread

    def get_channel_messages(self, rec: RecordedRequest, channel_id: str) -> list[dict[str, Any]]:
        """A page of the channel's history, newest first, as Discord gives it: ``limit`` (1 to
        100, default 50) messages just after ``after``, just before ``before``, around
        ``around`` (at most one of them), else the newest.  Without Read Message History the
        page is empty (not a refusal); ephemeral messages are never in it."""
        self.check_channel(channel_id)
        self.check_permissions(channel_id)
        query = rec.query
        anchors = [key for key in ("around", "before", "after") if key in query]
        try:
            limit = int(query.get("limit", "50"))
            anchor = int(query[anchors[0]]) if anchors else 0
        except ValueError:
            raise ApiError(400, "Invalid Form Body", 50035) from None
        if not 1 <= limit <= 100 or len(anchors) > 1:
            raise ApiError(400, "Invalid Form Body", 50035)
        if self.fake.denied_in(channel_id) & PERMISSION_BITS["read_message_history"]:
            return []
        history = sorted(
            (
                m
                for m in self.fake.messages.values()
                if m["channel_id"] == channel_id and m["id"] not in self.fake.ephemeral_for
            ),
            key=lambda m: int(m["id"]),
        )
        if not anchors:
            page = history[-limit:]
        elif anchors[0] == "after":
            page = [m for m in history if int(m["id"]) > anchor][:limit]
        elif anchors[0] == "before":
            page = [m for m in history if int(m["id"]) < anchor][-limit:]
        else:
            older = (
                [m for m in history if int(m["id"]) < anchor][-(limit // 2) :] if limit > 1 else []
            )
            page = older + [m for m in history if int(m["id"]) >= anchor][: limit - len(older)]
        return page[::-1]

    def _channel_message(self, channel_id: str, message_id: str) -> dict[str, Any]:
        """A message through the channel routes; an ephemeral one is not there (only its
        interaction's webhook reaches it)."""
        self.check_channel(channel_id)
        msg = self.fake.messages.get(message_id)
        if msg is None or msg["channel_id"] != channel_id or message_id in self.fake.ephemeral_for:
            raise ApiError(404, "Unknown Message", 10008)
        return msg

    def get_channel_message(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self.check_permissions(channel_id, "read_message_history")
        return self._channel_message(channel_id, message_id)

    def edit_channel_message(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> dict[str, Any]:
        self.check_permissions(channel_id)
        self._channel_message(channel_id, message_id)
        return self.fake.edit_message(rec, message_id)

    def delete_channel_message(
        self, rec: RecordedRequest, channel_id: str, message_id: str
    ) -> web.Response:
        self.check_permissions(channel_id)
        self._channel_message(channel_id, message_id)
        self.fake.delete_message(message_id)
        return web.Response(status=204)

    def create_thread(
        self, rec: RecordedRequest, channel_id: str, message_id: str | None = None
    ) -> dict[str, Any]:
        self.check_channel(channel_id)
        if channel_id in self.fake.dm_recipients or channel_id in self.fake.threads:
            raise ApiError(400, "Cannot execute action on this channel type", 50024)
        self.check_permissions(channel_id, "create_public_threads")
        body = rec.json or {}
        start = None if message_id is None else self._channel_message(channel_id, message_id)
        if message_id in self.fake.threads:  # one thread per message, ever
            raise ApiError(400, "A thread has already been created for this message", 160004)
        # A thread started from a message has the message's id.
        thread_id = message_id or self.fake.snowflake()
        thread = {
            "id": thread_id,
            "type": int(body.get("type") or 11),
            "guild_id": (self.fake.guild_of(channel_id) or self.fake.guild).id,
            "parent_id": channel_id,
            "owner_id": self.fake.bot_user["id"],
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
                "user_id": self.fake.bot_user["id"],
                "join_timestamp": now_iso(),
                "flags": 0,
            },
        }
        self.fake.threads[thread_id] = thread
        if start is not None:  # Discord marks the message (HAS_THREAD) and shows its thread
            start["flags"] = int(start.get("flags") or 0) | 1 << 5
            start["thread"] = dict(thread)
        # Discord also announces the new thread on the gateway (discord.py caches it from there).
        self.fake.spawn(self.fake.dispatch("THREAD_CREATE", {**thread, "newly_created": True}))
        return thread
