"""The fake Discord's ``PATCH /channels/{id}`` as Discord answers it for threads: the thread's
owner archives it, a text channel has no ``archived`` (400), Manage Threads is needed for a
thread someone else opened, and a message posted in an archived thread reopens it."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from support.fake_discord import FakeDiscord

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.no_database(reason="the fake Discord itself: no bot runs on a database"),
]

GENERAL = "1100000000000000201"


async def rest(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body) as response,
    ):
        raw = await response.read()
        return response.status, (json.loads(raw) if raw else None)


async def test_a_thread_is_archived_by_its_owner_and_reopened_by_a_post(
    fake: FakeDiscord,
) -> None:
    status, thread = await rest(
        fake, "POST", f"/channels/{GENERAL}/threads", {"name": "Alice v Bob", "type": 11}
    )
    assert status == 200
    tid = thread["id"]
    status, archived = await rest(fake, "PATCH", f"/channels/{tid}", {"archived": True})
    assert status == 200 and archived["thread_metadata"]["archived"] is True
    assert fake.threads[tid]["thread_metadata"]["archived"] is True
    status, _ = await rest(fake, "POST", f"/channels/{tid}/messages", {"content": "rematch?"})
    assert status == 200 and fake.threads[tid]["thread_metadata"]["archived"] is False

    status, refused = await rest(fake, "PATCH", f"/channels/{GENERAL}", {"archived": True})
    assert (status, refused["code"]) == (400, 50035)

    fake.threads[tid]["owner_id"] = "1100000000000000101"  # opened by someone else
    fake.deny(GENERAL, "manage_threads")
    status, refused = await rest(fake, "PATCH", f"/channels/{tid}", {"archived": True})
    assert (status, refused["code"]) == (403, 50013)
    assert fake.threads[tid]["thread_metadata"]["archived"] is False


async def test_a_thread_started_from_a_message_has_its_id_and_only_one_can_be(
    fake: FakeDiscord,
) -> None:
    """What makes a tournament game's thread idempotent across a crash: Discord gives a thread
    started from a message the message's id, marks the message, and refuses a second one with
    160004 (the bot then knows the thread: it has the message's id)."""
    status, message = await rest(
        fake, "POST", f"/channels/{GENERAL}/messages", {"content": "Board 1: Ann v Bob"}
    )
    assert status == 200
    mid = message["id"]
    start = f"/channels/{GENERAL}/messages/{mid}/threads"
    status, thread = await rest(fake, "POST", start, {"name": "Ann v Bob"})
    assert status == 200 and thread["id"] == mid and thread["parent_id"] == GENERAL
    status, shown = await rest(fake, "GET", f"/channels/{GENERAL}/messages/{mid}")
    assert status == 200 and shown["thread"]["id"] == mid and shown["flags"] & 1 << 5

    status, refused = await rest(fake, "POST", start, {"name": "Ann v Bob"})
    assert (status, refused["code"]) == (400, 160004)
    assert list(fake.threads) == [mid]

    status, refused = await rest(
        fake, "POST", f"/channels/{mid}/messages/{mid}/threads", {"name": "x"}
    )
    assert (status, refused["code"]) == (400, 50024)  # a thread cannot hold a thread
