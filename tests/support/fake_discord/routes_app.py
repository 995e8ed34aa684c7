"""REST routes of the application and its users: ``/gateway`` and ``/gateway/bot`` (where to
connect, how many shards), the bot user and other users, DM channels, the application, and its
global and guild application commands."""

from __future__ import annotations

from typing import Any

from .guilds import user_object
from .records import RecordedRequest
from .refusals import Refusals
from .responses import ApiError


class AppRoutes(Refusals):
    """Handlers of the application, user, gateway and command routes."""

    def get_gateway(self, rec: RecordedRequest) -> dict[str, Any]:
        return {"url": self.fake.gateway_url}

    def get_gateway_bot(self, rec: RecordedRequest) -> dict[str, Any]:
        """Where to connect and how many shards to run (an ``AutoShardedClient`` without a
        ``shard_count`` asks, then connects to ``url``)."""
        return {
            "url": self.fake.gateway_url,
            "shards": self.fake.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    def get_me(self, rec: RecordedRequest) -> dict[str, Any]:
        return {**self.fake.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US"}

    def get_user(self, rec: RecordedRequest, user_id: str) -> dict[str, Any]:
        if user_id == self.fake.bot_user["id"]:
            return dict(self.fake.bot_user)
        username = self.fake.username(user_id)  # a user of any of the bot's guilds
        if username is None:
            raise ApiError(404, "Unknown User", 10013)
        return user_object(user_id, username)

    def create_dm(self, rec: RecordedRequest) -> dict[str, Any]:
        """POST /users/@me/channels ``{recipient_id}``: the DM channel (type 1), the same one
        every time for a user (a user of any of the bot's guilds)."""
        recipient = (rec.json or {}).get("recipient_id") if isinstance(rec.json, dict) else None
        if recipient is None or str(recipient) == self.fake.bot_user["id"]:
            raise ApiError(400, "Invalid Recipient(s)", 50033)
        if self.fake.username(str(recipient)) is None:
            raise ApiError(400, "Invalid Recipient(s)", 50033)
        return self.fake.dm_channel_object(self.fake.dm_channel_id(str(recipient)))

    def get_application(self, rec: RecordedRequest) -> dict[str, Any]:
        owner = user_object(
            self.fake.guild.owner_id, self.fake.guild.users.get(self.fake.guild.owner_id, "x")
        )
        return {
            "id": self.fake.application_id,
            "name": self.fake.bot_user["username"],
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
            "bot": self.fake.bot_user,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "approximate_guild_count": len(self.fake.guilds),
        }

    def get_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self.check_app(app_id)
        self.check_command_guild(guild_id)
        return self.fake.commands.get(guild_id, [])

    def put_commands(
        self, rec: RecordedRequest, app_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self.check_app(app_id)
        self.check_command_guild(guild_id)
        old = {c["name"]: c["id"] for c in self.fake.commands.get(guild_id, [])}
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
                "id": old.get(cmd["name"]) or self.fake.snowflake(),
                "application_id": self.fake.application_id,
                "version": self.fake.snowflake(),
            }
            if guild_id is not None:
                out["guild_id"] = guild_id
            echoed.append(out)
        self.fake.commands[guild_id] = echoed
        return echoed
