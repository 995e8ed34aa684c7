"""Request bodies checked as Discord checks them, against its documented limits
(``discord_limits``) and against the request-body schema of the matching operation in its OpenAPI
description (``openapi_check``). A body Discord would refuse is recorded as a :class:`Violation`
and refused with the error Discord answers."""

from __future__ import annotations

import re
from typing import Any

from support import discord_limits, openapi_check

from .protocol import ATTACHMENT_SIZE_LIMIT
from .records import RecordedRequest, Violation
from .responses import ApiError
from .state import DiscordState

_COMMANDS = re.compile(r"/applications/\d+(/guilds/\d+)?/commands")
_CALLBACK = re.compile(r"/interactions/\d+/(?P<token>[^/]+)/callback")
_WEBHOOK = re.compile(r"/webhooks/\d+/[^/]+")
_WEBHOOK_MESSAGE = re.compile(r"/webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>[^/]+)")
_CHANNEL_MESSAGES = re.compile(r"/channels/\d+/messages")
_CHANNEL_MESSAGE = re.compile(r"/channels/\d+/messages/(?P<mid>\d+)")
_THREADS = re.compile(r"/channels/\d+(/messages/\d+)?/threads")


def check_body(rec: RecordedRequest, state: DiscordState) -> ApiError | None:
    """Discord's documented limits and the OpenAPI schema; a failure is recorded as a
    violation and returned as the error Discord would answer with."""
    problems = limit_problems(rec, state)

    texts = [str(p) for p in problems]
    has_body = rec.json is not None or bool(rec.body) or bool(rec.parts)
    if has_body:
        texts += openapi_check.validate(rec.method, rec.path, rec.json)
    if not texts:
        return None
    state.violations.append(Violation(rec.method, rec.path, texts, rec.json))
    status, code, message, errors = discord_limits.refusal(problems)
    if not problems:  # only the schema objected
        errors = {"_errors": [{"code": "SCHEMA", "message": t} for t in texts]}
    return ApiError(status, message, code, errors)


def limit_problems(rec: RecordedRequest, state: DiscordState) -> list[discord_limits.Problem]:
    """What Discord's documented limits find wrong with the request's body (the kind of
    message, callback or command list is told by its route)."""

    body, path, method = rec.json, rec.path, rec.method
    files = [(p.filename, len(p.data)) for p in rec.parts if p.filename is not None]
    limits = discord_limits
    if method == "PUT" and _COMMANDS.fullmatch(path):
        return limits.check_commands(body)
    if method == "POST" and (m := _CALLBACK.fullmatch(path)):
        interaction = state.interactions.get(m["token"])
        return limits.check_callback(
            body,
            interaction_type=None if interaction is None else interaction["type"],
            files=files,
            focused_type=_focused_type(interaction),
            message_flags=int(_message_of(interaction).get("flags") or 0),
            size_limit=ATTACHMENT_SIZE_LIMIT,
        )
    if method == "POST" and _WEBHOOK.fullmatch(path):
        return limits.check_message(body, kind="followup", files=files)
    if method == "POST" and _CHANNEL_MESSAGES.fullmatch(path):
        return limits.check_message(body, kind="create", files=files)
    if method == "PATCH" and (
        (m := _WEBHOOK_MESSAGE.fullmatch(path)) or (m := _CHANNEL_MESSAGE.fullmatch(path))
    ):
        groups = m.groupdict()
        mid = groups["mid"]
        if mid == "@original":
            mid = state.original_responses.get(groups.get("token") or "", "")
        old_flags = int(state.messages.get(mid, {}).get("flags") or 0)
        return limits.check_message(body, kind="edit", files=files, old_flags=old_flags)
    if method == "POST" and _THREADS.fullmatch(path):
        return limits.check_thread(body)
    return []


def _focused_type(interaction: dict[str, Any] | None) -> int | None:
    """The type of the option an autocomplete interaction is about."""
    if interaction is None:
        return None
    options = list((interaction.get("data") or {}).get("options") or [])
    while options:
        option = options.pop(0)
        if option.get("focused"):
            return int(option["type"])
        options.extend(option.get("options") or [])
    return None


def _message_of(interaction: dict[str, Any] | None) -> dict[str, Any]:
    return dict((interaction or {}).get("message") or {})
