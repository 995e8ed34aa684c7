"""The refusals of REST requests that depend on state and time rather than on the body: an
unknown application, guild, channel or interaction token, a late or repeated interaction
response, an expired token, a missing channel permission (see :meth:`FakeDiscord.deny`)."""

from __future__ import annotations

import time
from typing import Any

from .gateway import GatewayHub
from .protocol import PERMISSION_BITS
from .records import RecordedRequest
from .responses import ApiError


class Refusals:
    """The checks the REST route handlers make before acting, on the fake's state; the base of
    each group of handlers."""

    def __init__(self, fake: GatewayHub) -> None:
        self.fake = fake

    def check_window(self, token: str) -> None:
        """The initial response must come within the window after the dispatch."""
        sent = self.fake.dispatched_at.get(token)
        late = sent is not None and time.monotonic() - sent > self.fake.interaction_window
        if late or token in self.fake.expired_tokens:
            raise ApiError(404, "Unknown interaction", 10062)

    def check_token(self, token: str) -> None:
        """Follow-ups and webhook edits work for 15 minutes after the interaction."""
        sent = self.fake.dispatched_at.get(token)
        old = sent is not None and time.monotonic() - sent > self.fake.token_lifetime
        if old or token in self.fake.expired_tokens:
            raise ApiError(401, "Invalid Webhook Token", 50027)

    def check_permissions(self, channel_id: str, *needed: str) -> None:
        """A bot request in a channel, refused as Discord would when deny() took a needed
        permission away."""
        denied = self.fake.denied_in(channel_id)
        if denied & PERMISSION_BITS["view_channel"]:
            raise ApiError(403, "Missing Access", 50001)
        if any(denied & PERMISSION_BITS[name] for name in needed):
            raise ApiError(403, "Missing Permissions", 50013)

    def post_permissions(self, rec: RecordedRequest, channel_id: str) -> list[str]:
        body = rec.json or {}
        needed = [
            "send_messages_in_threads" if channel_id in self.fake.threads else "send_messages"
        ]
        if body.get("embeds"):
            needed.append("embed_links")
        if any(p.filename is not None for p in rec.parts):
            needed.append("attach_files")
        if body.get("message_reference"):
            needed.append("read_message_history")
        return needed

    def check_app(self, app_id: str) -> None:
        if app_id != self.fake.application_id:
            raise ApiError(404, "Unknown Application", 10002)

    def check_command_guild(self, guild_id: str | None) -> None:
        """Guild commands only in a guild the bot is in (Discord: 403 50001 Missing Access)."""
        if guild_id is not None and self.fake.guild_by_id(guild_id) is None:
            raise ApiError(403, "Missing Access", 50001)

    def check_channel(self, channel_id: str) -> None:
        if not (
            channel_id in self.fake.threads
            or channel_id in self.fake.dm_recipients
            or self.fake.guild_of(channel_id) is not None
        ):
            raise ApiError(404, "Unknown Channel", 10003)

    def known_interaction(self, token: str) -> dict[str, Any]:
        try:
            return self.fake.interactions[token]
        except KeyError:
            raise ApiError(401, "Invalid Webhook Token", 50027) from None
