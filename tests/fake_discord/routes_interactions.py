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
    MODAL,
    UPDATE_MESSAGE,
)
from .records import RecordedRequest
from .refusals import Refusals
from .responses import ApiError, json_response


class InteractionRoutes(Refusals):
    """Handlers of the interaction callback and webhook routes."""

    def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.StreamResponse:
        interaction = self._interaction(token)
        if interaction["id"] != iid:
            raise ApiError(404, "Unknown interaction", 10062)
        if token in self._acknowledged:
            raise ApiError(400, "Interaction has already been acknowledged.", 40060)
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
                raise ApiError(404, "Unknown Message", 10008)
            if mid not in self.messages:  # a forged payload's message: take it as it came
                self.messages[mid] = interaction["message"]
                self._remember(interaction["message"])
            self.original_responses[token] = mid
            if cb_type == UPDATE_MESSAGE:
                message = self._edit_message(rec, mid, data)
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
            return json_response(msg)
        return web.Response(status=204)

    def _webhook_message_id(self, token: str, message_id: str) -> str:
        self._interaction(token)
        self._check_token(token)
        if message_id == "@original":
            try:
                return self.original_responses[token]
            except KeyError:
                raise ApiError(404, "Unknown Message", 10008) from None
        return message_id

    def _webhook_get_message(
        self, rec: RecordedRequest, app_id: str, token: str, message_id: str
    ) -> dict[str, Any]:
        mid = self._webhook_message_id(token, message_id)
        if mid not in self.messages:
            raise ApiError(404, "Unknown Message", 10008)
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
            raise ApiError(404, "Unknown Message", 10008)
        self._delete(mid)
        return web.Response(status=204)
