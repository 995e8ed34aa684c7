"""Smoke test of the fake Discord API: the real discord.py client, in a subprocess started by
``tests/discord_launcher.py``, logs in, syncs a guild command, answers ``/ping`` and a button."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import pytest
from discord_launcher import GUARD_MARKER
from fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

TESTS = Path(__file__).resolve().parent
STARTUP_TIMEOUT = 20.0
STEP_TIMEOUT = 10.0
T = TypeVar("T")


async def _stop(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> int:
    """Terminate the bot and wait without blocking the loop (it closes its gateway socket,
    which the fake must answer)."""
    if proc.poll() is None:
        proc.terminate()
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
        proc.wait(5)
    return proc.returncode


async def _while_alive(proc: subprocess.Popen[bytes], log: Path, waiting: Awaitable[T]) -> T:
    """Await ``waiting`` but fail at once, with the bot's log, if the bot process exits."""
    task = asyncio.ensure_future(waiting)
    try:
        while not task.done():
            if proc.poll() is not None:
                pytest.fail(f"the bot exited with {proc.returncode}:\n{log.read_text()}")
            await asyncio.wait({task}, timeout=0.05)
        return task.result()
    finally:
        task.cancel()


async def test_echo_bot_answers_ping_and_button(fake: FakeDiscord, tmp_path: Path) -> None:
    log_path = tmp_path / "bot.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                str(TESTS / "discord_launcher.py"),
                str(fake.port),
                "e2e_echo_bot:make_client",
                "--token",
                "test-token",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=TESTS.parent,
        )
    try:
        guild_commands = rf"/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
        put = await _while_alive(
            proc, log_path, fake.wait_for_request("PUT", guild_commands, timeout=STARTUP_TIMEOUT)
        )
        await _while_alive(proc, log_path, fake.wait_for_identify(timeout=STARTUP_TIMEOUT))
        assert [c["name"] for c in put.json] == ["ping"]
        assert put.headers["Authorization"] == "Bot test-token"
        identify = next(m for m in fake.gateway_received if m["op"] == 2)
        assert identify["d"]["token"] == "test-token"

        ping = await fake.send_interaction(fake.command_interaction("ping"))
        callback = await _while_alive(
            proc,
            log_path,
            fake.wait_for_request(
                "POST",
                rf"/interactions/{ping['id']}/{ping['token']}/callback",
                timeout=STEP_TIMEOUT,
            ),
        )
        assert callback.json["type"] == 4
        assert callback.json["data"]["content"] == "pong"
        button = callback.json["data"]["components"][0]["components"][0]
        assert button["custom_id"] == "echo:again"

        message = fake.original_message(ping["token"])
        assert message is not None and message["content"] == "pong"
        press = await fake.send_interaction(fake.button_interaction("echo:again", message))
        update = await _while_alive(
            proc,
            log_path,
            fake.wait_for_request(
                "POST",
                rf"/interactions/{press['id']}/{press['token']}/callback",
                timeout=STEP_TIMEOUT,
            ),
        )
        assert update.json["type"] == 7
        assert update.json["data"]["content"] == "pong again"
        assert fake.messages[message["id"]]["content"] == "pong again"

        assert fake.unknown_requests == []
        assert proc.poll() is None, "the bot exited early"
    finally:
        code = await _stop(proc)
    output = log_path.read_text(errors="replace")
    assert GUARD_MARKER not in output, output
    assert "Traceback" not in output, output
    assert code == 0, output
