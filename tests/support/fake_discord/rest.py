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

from .controls import Controls
from .faults import fault_response, take_fault
from .protocol import API_PREFIX
from .records import Part, RecordedRequest
from .responses import ApiError, json_response
from .routes_app import AppRoutes
from .routes_channels import ChannelRoutes
from .routes_interactions import InteractionRoutes


class RestApi:
    """Answers ``/api/v10`` as Discord does, through the route handlers, on the fake's state
    (the state is all in the fake: a RestApi holds nothing of its own but its routes)."""

    def __init__(self, fake: Controls) -> None:
        self.fake = fake
        self.routes = _route_table(AppRoutes(fake), InteractionRoutes(fake), ChannelRoutes(fake))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Record the request, check its body, answer an injected fault or route it."""
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
        self.fake.requests.append(rec)
        try:
            refusal = self.fake.check_body(rec)  # recorded as a violation even if a fault answers
            fault = take_fault(self.fake.faults, rec)
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
                if fault is not None and fault.hold > 0:
                    rec.held = True
                    await self.fake.notify_changed()  # made, while its answer is held back
                    await fault.held()
        except ApiError as exc:
            rec.error = exc.body()
            response = json_response(rec.error, status=exc.status)
            if not rec.unknown:
                self.fake.refusals.append(rec)
        except Exception as exc:  # a bug in the fake: make it visible, not a hang
            print(f"fake_discord: handler error for {rec!r}: {exc!r}", file=sys.stderr)
            response = json_response(
                {"message": f"fake handler error: {exc!r}", "code": 0}, status=500
            )
            rec.unknown = True
        rec.status = response.status
        expected = self.fake.expected_requests.pop((rec.method, rec.path), None)
        if expected is not None and not expected.done():
            expected.set_result(rec)
        await self.fake.notify_changed()
        return response

    async def _route(self, rec: RecordedRequest) -> web.StreamResponse:
        for method, pattern, handler in self.routes:
            if method == rec.method and (m := pattern.fullmatch(rec.path)):
                result = handler(rec, **m.groupdict())
                if isinstance(result, web.StreamResponse):
                    return result
                return json_response(result)
        rec.unknown = True
        raise ApiError(404, f"404: Not Found (fake Discord has no {rec.method} {rec.path})", 0)

    async def serve_attachment(self, request: web.Request) -> web.Response:
        """An uploaded file at its attachment url."""
        data = self.fake.files.get(request.match_info["aid"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)


def _no_content(rec: RecordedRequest, **_: str) -> web.Response:
    """Routes Discord answers with 204 and nothing the fake keeps (joining a thread, typing)."""
    return web.Response(status=204)


def _route_table(
    application: AppRoutes, interactions: InteractionRoutes, channels: ChannelRoutes
) -> list[tuple[str, re.Pattern[str], Callable[..., Any]]]:
    """The routes the fake serves: method, path regex (after ``/api/v10``, its named groups
    passed to the handler) and handler, called with the recorded request."""

    app = r"(?P<app_id>\d+)"
    guild = r"(?P<guild_id>\d+)"
    channel = r"(?P<channel_id>\d+)"
    message = r"(?P<message_id>\d+|@original)"
    webhook = r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)"
    table: list[tuple[str, str, Callable[..., Any]]] = [
        ("GET", r"/gateway", application.get_gateway),
        ("GET", r"/gateway/bot", application.get_gateway_bot),
        ("GET", r"/users/@me", application.get_me),
        ("GET", r"/users/(?P<user_id>\d+)", application.get_user),
        ("POST", r"/users/@me/channels", application.create_dm),
        ("GET", r"/oauth2/applications/@me", application.get_application),
        ("GET", r"/applications/@me", application.get_application),
        ("GET", rf"/applications/{app}/commands", application.get_commands),
        ("PUT", rf"/applications/{app}/commands", application.put_commands),
        ("GET", rf"/applications/{app}/guilds/{guild}/commands", application.get_commands),
        ("PUT", rf"/applications/{app}/guilds/{guild}/commands", application.put_commands),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", interactions.callback),
        ("GET", webhook, interactions.get_webhook),
        ("POST", webhook, interactions.execute_webhook),
        ("GET", webhook + rf"/messages/{message}", interactions.get_webhook_message),
        ("PATCH", webhook + rf"/messages/{message}", interactions.edit_webhook_message),
        ("DELETE", webhook + rf"/messages/{message}", interactions.delete_webhook_message),
        ("GET", rf"/channels/{channel}", channels.get_channel),
        ("PATCH", rf"/channels/{channel}", channels.modify_channel),
        ("GET", rf"/channels/{channel}/messages", channels.get_channel_messages),
        ("POST", rf"/channels/{channel}/messages", channels.post_channel_message),
        ("GET", rf"/channels/{channel}/messages/(?P<message_id>\d+)", channels.get_channel_message),
        (
            "PATCH",
            rf"/channels/{channel}/messages/(?P<message_id>\d+)",
            channels.edit_channel_message,
        ),
        (
            "DELETE",
            rf"/channels/{channel}/messages/(?P<message_id>\d+)",
            channels.delete_channel_message,
        ),
        ("POST", rf"/channels/{channel}/threads", channels.create_thread),
        (
            "POST",
            rf"/channels/{channel}/messages/(?P<message_id>\d+)/threads",
            channels.create_thread,
        ),
        ("PUT", rf"/channels/{channel}/thread-members/(?P<user_id>@me|\d+)", _no_content),
        ("POST", rf"/channels/{channel}/typing", _no_content),
    ]

    return [(m, re.compile(p), h) for m, p, h in table]
