"""REST routes of interactions: the interaction callback (the one initial response, within
the window) and the interaction's webhook (follow-ups, and getting, editing and deleting its
messages while the token lives)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .protocol import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MODAL,
    UPDATE_MESSAGE,
)
from .records import RecordedRequest
from .refusals import Refusals
from .responses import ApiError, json_response


class InteractionRoutes(Refusals):
    """Handlers of the interaction callback and webhook routes."""

    def callback(self, rec: RecordedRequest, iid: str, token: str) -> web.StreamResponse:
        interaction = self.known_interaction(token)
        if interaction["id"] != iid:
            raise ApiError(404, "Unknown interaction", 10062)
        if token in self.fake.acknowledged_tokens:
            raise ApiError(400, "Interaction has already been acknowledged.", 40060)
        self.check_window(token)
        self.fake.acknowledged_tokens.add(token)
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
                data = {"flags": int(data.get("flags") or 0) | LOADING}
            message = self.fake.make_message(
                rec, interaction["channel_id"], interaction=interaction, body=data
            )
            self.fake.original_responses[token] = message["id"]
        elif cb_type in (UPDATE_MESSAGE, DEFERRED_UPDATE) and "message" in interaction:
            mid = interaction["message"]["id"]
            if mid in self.fake.deleted_messages and mid not in self.fake.messages:
                raise ApiError(404, "Unknown Message", 10008)
            if mid not in self.fake.messages:  # a forged payload's message: take it as it came
                self.fake.messages[mid] = interaction["message"]
                self.fake.remember_components(interaction["message"])
            self.fake.original_responses[token] = mid
            if cb_type == UPDATE_MESSAGE:
                message = self.fake.edit_message(rec, mid, data)
        elif cb_type not in (AUTOCOMPLETE_RESULT, MODAL, DEFERRED_UPDATE, UPDATE_MESSAGE):
            raise ApiError(400, f"Invalid interaction response type {cb_type}", 50035)
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["interaction"]["response_message_ephemeral"] = bool(message["flags"] & EPHEMERAL)
            result["resource"] = {"type": cb_type, "message": message}
        elif cb_type in (AUTOCOMPLETE_RESULT, MODAL):
            result["resource"] = {"type": cb_type}
        if rec.query.get("with_response") in ("1", "true", "True"):
            return json_response(result)
        return web.Response(status=204)

    def get_webhook(self, rec: RecordedRequest, app_id: str, token: str) -> dict[str, Any]:
        interaction = self.known_interaction(token)
        self.check_token(token)
        return {
            "id": app_id,
            "type": 3,
            "token": token,
            "application_id": self.fake.application_id,
            "channel_id": interaction["channel_id"],
            "guild_id": interaction.get("guild_id"),  # None for a DM interaction
            "name": self.fake.bot_user["username"],
            "avatar": None,
        }

    def execute_webhook(self, rec: RecordedRequest, app_id: str, token: str) -> web.StreamResponse:
        interaction = self.known_interaction(token)
        self.check_app(app_id)
        self.check_token(token)
        msg = self.fake.make_message(rec, interaction["channel_id"], interaction=interaction)
        if rec.query.get("wait") in ("1", "true", "True"):
            return json_response(msg)
        return web.Response(status=204)

    def _webhook_message_id(self, token: str, message_id: str) -> str:
        self.known_interaction(token)
        self.check_token(token)
        if message_id == "@original":
            try:
                return self.fake.original_responses[token]
            except KeyError:
                raise ApiError(404, "Unknown Message", 10008) from None
        return message_id

    def get_webhook_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        mid = self._webhook_message_id(token, message_id)
        if mid not in self.fake.messages:
            raise ApiError(404, "Unknown Message", 10008)
        return self.fake.messages[mid]

    def edit_webhook_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        return self.fake.edit_message(rec, self._webhook_message_id(token, message_id))

    def delete_webhook_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> web.Response:
        mid = self._webhook_message_id(token, message_id)
        if mid not in self.fake.messages:
            raise ApiError(404, "Unknown Message", 10008)
        self.fake.delete_message(mid)
        return web.Response(status=204)
