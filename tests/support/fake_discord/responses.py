"""How the fake answers a REST request: JSON exactly as discord.py decodes it
(:func:`json_response`), and a refusal worded as Discord words it (:class:`ApiError`)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json"
    # (aiohttp's json_response would add "; charset=utf-8").
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class ApiError(Exception):
    """A refusal as Discord answers it: the HTTP status and a body with ``message``, ``code`` and,
    for an invalid form body, the ``errors`` object. Raised by the checks and route handlers,
    answered (and recorded) by the REST plumbing."""

    def __init__(
        self, status: int, message: str, code: int, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.errors = status, message, code, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body
