"""The REST plumbing: every request under ``/api/v10`` recorded, its body checked
(:mod:`.validation`), an injected fault answered (:mod:`.faults`), else routed to its handler
(:mod:`.routes_app`, :mod:`.routes_interactions`, :mod:`.routes_channels`); unknown routes answer
404. Also serves the uploaded files at their attachment urls."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .faults import fault_response, take_fault
from .protocol import API_PREFIX
from .records import Part, RecordedRequest
from .responses import ApiError, json_response
from .routes_app import AppRoutes
from .routes_channels import ChannelRoutes
from .routes_interactions import InteractionRoutes
from .validation import check_body


class RestApi(AppRoutes, InteractionRoutes, ChannelRoutes):
    """Answers ``/api/v10`` as Discord does, through the handlers of :data:`ROUTES`."""

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
            refusal = check_body(rec, self)  # recorded as a violation even if a fault answers
            fault = take_fault(self.faults, rec)
            if fault is not None:
                rec.injected = True
                if fault.delay > 0:
                    await asyncio.sleep(fault.delay)
            if fault is not None and fault.status >= 400:
                response = fault_response(fault)
            elif refusal is not None:
                raise refusal
            else:
                response = await self._route(rec)
        except ApiError as exc:
            rec.error = exc.body()
            response = json_response(rec.error, status=exc.status)
            if not rec.unknown:
                self.refusals.append(rec)
        except Exception as exc:  # a bug in the fake: make it visible, not a hang
            print(f"fake_discord: handler error for {rec!r}: {exc!r}", file=sys.stderr)
            response = json_response(
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
        for method, pattern, handler in ROUTES:
            if method == rec.method and (m := pattern.fullmatch(rec.path)):
                result = handler(self, rec, **m.groupdict())
                if isinstance(result, web.StreamResponse):
                    return result
                return json_response(result)
        rec.unknown = True
        raise ApiError(404, f"404: Not Found (fake Discord has no {rec.method} {rec.path})", 0)

    def _no_content(self, rec: RecordedRequest, **_: str) -> web.Response:
        """Routes Discord answers with 204 and nothing the fake keeps (joining a thread,
        typing)."""
        return web.Response(status=204)

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.files.get(request.match_info["aid"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)


def _route_table() -> list[tuple[str, re.Pattern[str], Callable[..., Any]]]:
    """The routes the fake serves: method, path regex (after ``/api/v10``, its named groups
    passed to the handler) and handler, called with the fake and the recorded request."""

    app = r"(?P<app_id>\d+)"
    guild = r"(?P<guild_id>\d+)"
    channel = r"(?P<channel_id>\d+)"
    message = r"(?P<message_id>\d+|@original)"
    webhook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
    table: list[tuple[str, str, Callable[..., Any]]] = [
        ("GET", r"/gateway", RestApi._get_gateway),
        ("GET", r"/gateway/bot", RestApi._get_gateway_bot),
        ("GET", r"/users/@me", RestApi._get_me),
        ("GET", r"/users/(?P<user_id>\d+)", RestApi._get_user),
        ("POST", r"/users/@me/channels", RestApi._create_dm),
        ("GET", r"/oauth2/applications/@me", RestApi._get_application),
        ("GET", r"/applications/@me", RestApi._get_application),
        ("GET", rf"/applications/{app}/commands", RestApi._get_commands),
        ("PUT", rf"/applications/{app}/commands", RestApi._put_commands),
        ("GET", rf"/applications/{app}/guilds/{guild}/commands", RestApi._get_commands),
        ("PUT", rf"/applications/{app}/guilds/{guild}/commands", RestApi._put_commands),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", RestApi._callback),
        ("GET", webhook, RestApi._get_webhook),
        ("POST", webhook, RestApi._webhook_execute),
        ("GET", webhook + rf"/messages/{message}", RestApi._webhook_get_message),
        ("PATCH", webhook + rf"/messages/{message}", RestApi._webhook_edit_message),
        ("DELETE", webhook + rf"/messages/{message}", RestApi._webhook_delete_message),
        ("GET", rf"/channels/{channel}", RestApi._get_channel),
        ("POST", rf"/channels/{channel}/messages", RestApi._channel_post_message),
        ("GET", rf"/channels/{channel}/messages/(?P<message_id>\d+)", RestApi._channel_get_msg),
        ("PATCH", rf"/channels/{channel}/messages/(?P<message_id>\d+)", RestApi._channel_edit),
        ("DELETE", rf"/channels/{channel}/messages/(?P<message_id>\d+)", RestApi._channel_del),
        ("POST", rf"/channels/{channel}/threads", RestApi._create_thread),
        (
            "POST",
            rf"/channels/{channel}/messages/(?P<message_id>\d+)/threads",
            RestApi._create_thread,
        ),
        ("PUT", rf"/channels/{channel}/thread-members/(?P<user_id>@me|\d+)", RestApi._no_content),
        ("POST", rf"/channels/{channel}/typing", RestApi._no_content),
    ]

    return [(m, re.compile(p), h) for m, p, h in table]


ROUTES = _route_table()
