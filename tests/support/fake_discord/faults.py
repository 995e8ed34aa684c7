"""Injected failures (see :meth:`FakeDiscord.inject`): which requests a :class:`Fault`
answers, and its answer as Discord sends it (a 429 with the body and headers discord.py reads)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .records import RecordedRequest
from .responses import json_response


@dataclass
class Fault:
    """An injected failure (see :meth:`FakeDiscord.inject`); ``hits`` counts the requests it
    answered, ``times`` is how many it will answer in all (``-1``: until cleared)."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int = 0
    message: str | None = None
    times: int = 1
    retry_after: float | None = None
    delay: float = 0.0
    skip: int = 0
    """Matching requests to let through untouched before the fault starts answering."""
    hold: float = 0.0
    """Seconds the answer is held back after the request was handled (status below 400), or
    until the faults are cleared: what it made exists, but the client hears of it late, or
    never if it dies meanwhile."""
    hits: int = 0
    released: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the faults are cleared: answers still held go out."""

    async def held(self) -> None:
        """Hold an answer back (see :attr:`hold`)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.released.wait(), self.hold)

    @property
    def exhausted(self) -> bool:
        return self.times >= 0 and self.hits >= self.times

    def matches(self, method: str, path: str) -> bool:
        return (
            not self.exhausted
            and self.method.upper() == method
            and self.path.fullmatch(path) is not None
        )


_DEFAULT_MESSAGES = {
    400: "400: Bad Request",
    401: "401: Unauthorized",
    403: "Missing Permissions",
    404: "404: Not Found",
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


def take_fault(faults: list[Fault], rec: RecordedRequest) -> Fault | None:
    """The first fault, in the order they were injected, that answers this request (counted in
    its ``hits``); a fault still skipping lets the request through and counts it down."""
    for fault in faults:
        if fault.matches(rec.method, rec.path):
            if fault.skip > 0:
                fault.skip -= 1
                continue
            fault.hits += 1
            return fault
    return None


def fault_response(fault: Fault) -> web.Response:
    """The error the fault answers with (for a ``status`` of 400 or more)."""

    if fault.status == 429:
        retry = 1.0 if fault.retry_after is None else fault.retry_after
        body: dict[str, Any] = {
            "message": fault.message or "You are being rate limited.",
            "retry_after": retry,
            "global": False,
        }
        if fault.code:
            body["code"] = fault.code
        headers = {
            "Retry-After": str(max(1, math.ceil(retry))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
            "X-RateLimit-Reset-After": f"{retry:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",  # discord.py takes a 429 without Via for a Cloudflare ban
        }
        return json_response(body, status=429, headers=headers)
    message = fault.message or _DEFAULT_MESSAGES.get(fault.status, f"{fault.status}: Error")
    return json_response({"message": message, "code": fault.code}, status=fault.status)
