"""The fake Discord API with the real discord.py client, in a subprocess started by
``tests/discord_launcher.py``: a smoke test (log in, sync a guild command, answer ``/ping`` and a
button), then each failure the fake can inject (429, 5xx, errors with codes, a slow Discord and
the 3-second window, expired tokens, denied permissions, gateway op 7 and op 9, an outage)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
from discord_launcher import GUARD_MARKER
from fake_discord import FakeDiscord, RecordedRequest

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


# -- failures on demand, with the real discord.py client ------------------------------------------

GENERAL = "1100000000000000201"
DRAUGHTS = "1100000000000000202"


class Probe:
    """``tests/fake_probe_bot.py`` in its own process against the fake."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.log_path = tmp_path / "probe.log"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(TESTS / "discord_launcher.py"),
                    str(self.fake.port),
                    "fake_probe_bot:make_client",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=TESTS.parent,
            )
        guild_commands = (
            rf"/applications/{self.fake.application_id}/guilds/{self.fake.guild.id}/commands"
        )
        await self.alive(self.fake.wait_for_request("PUT", guild_commands, timeout=STARTUP_TIMEOUT))
        await self.alive(self.fake.wait_for_identify(timeout=STARTUP_TIMEOUT))

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def alive(self, waiting: Awaitable[T]) -> T:
        assert self.proc is not None
        return await _while_alive(self.proc, self.log_path, waiting)

    async def command(self, name: str, channel: str = GENERAL) -> dict[str, Any]:
        return await self.fake.send_interaction(
            self.fake.command_interaction(name, channel_id=channel)
        )

    async def callback(self, interaction: dict[str, Any], count: int = 1) -> RecordedRequest:
        path = rf"/interactions/{interaction['id']}/{interaction['token']}/callback"
        return await self.alive(
            self.fake.wait_for_request("POST", path, count=count, timeout=STEP_TIMEOUT)
        )

    async def followup(self, interaction: dict[str, Any]) -> RecordedRequest:
        path = rf"/webhooks/{self.fake.application_id}/{interaction['token']}"
        return await self.alive(self.fake.wait_for_request("POST", path, timeout=STEP_TIMEOUT))

    async def answered(self, interaction: dict[str, Any]) -> None:
        """The callback of a command succeeded (it answers within the window)."""
        response = await self.callback(interaction)
        assert 200 <= response.status < 300, (response, response.error)

    async def stop(self) -> int:
        assert self.proc is not None
        return await _stop(self.proc)


@pytest.fixture
async def probe(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Probe]:
    bot = Probe(fake, tmp_path)
    await bot.start()
    try:
        yield bot
    finally:
        code = await bot.stop()
    output = bot.log()
    assert GUARD_MARKER not in output, output
    assert code == 0, output


def channel_posts(fake: FakeDiscord, channel: str) -> list[RecordedRequest]:
    return fake.find_requests("POST", rf"/channels/{channel}/messages")


async def test_a_429_is_retried_after_retry_after(fake: FakeDiscord, probe: Probe) -> None:
    fault = fake.inject("POST", r"/interactions/\d+/[^/]+/callback", 429, retry_after=0.4)
    ping = await probe.command("ping")
    first = await probe.callback(ping)
    second = await probe.callback(ping, count=2)
    assert first.injected and first.status == 429
    assert first.error is None  # not a refusal of the fake: Discord's rate limiter answered
    assert second.status == 200 and not second.injected
    assert fault.hits == 1 and fault.exhausted
    assert fake.original_message(ping["token"])["content"] == "pong"
    assert "is rate limited. Retrying in 0.40 seconds" in probe.log()


async def test_the_429_body_and_headers_are_discords(fake: FakeDiscord) -> None:
    fake.inject("GET", r"/users/@me", 429, retry_after=2.5, times=-1)
    async with aiohttp.ClientSession() as session:
        for _ in range(2):  # times=-1: until cleared
            async with session.get(fake.api_base + "/users/@me") as response:
                assert response.status == 429
                assert await response.json() == {
                    "message": "You are being rate limited.",
                    "retry_after": 2.5,
                    "global": False,
                }
                assert response.headers["Retry-After"] == "3"
                assert response.headers["X-RateLimit-Remaining"] == "0"
                assert float(response.headers["X-RateLimit-Reset-After"]) == 2.5
                assert response.headers["Via"]
        fake.clear_faults()
        async with session.get(fake.api_base + "/users/@me") as response:
            assert response.status == 200


async def test_a_5xx_is_retried(fake: FakeDiscord, probe: Probe) -> None:
    fault = fake.inject("POST", rf"/channels/{GENERAL}/messages", 500)
    post = await probe.command("post")
    await probe.answered(post)
    followup = await probe.followup(post)
    assert followup.json["content"] == "posted; can send: True"
    statuses = [(r.status, r.injected) for r in channel_posts(fake, GENERAL)]
    assert statuses == [(500, True), (200, False)]
    assert fault.hits == 1


async def test_an_injected_error_reaches_the_client_with_its_code(
    fake: FakeDiscord, probe: Probe
) -> None:
    fake.inject("POST", rf"/channels/{GENERAL}/messages", 403, code=50013, times=2)
    post = await probe.command("post")
    followup = await probe.followup(post)
    assert followup.json["content"] == "error 403 50013; can send: True"


async def test_a_slow_discord_makes_the_answer_late(fake: FakeDiscord, probe: Probe) -> None:
    """A delay without an error status only delays; past the window the callback is refused as
    Discord does (404 10062), and that is a refusal, not a violation of the bot."""
    fake.interaction_window = 0.5
    fault = fake.inject("POST", r"/interactions/\d+/[^/]+/callback", 0, delay=0.8)
    ping = await probe.command("ping")
    late = await probe.callback(ping)
    assert late.injected and fault.hits == 1
    assert late.status == 404 and late.error == {"message": "Unknown interaction", "code": 10062}
    assert fake.refusals == [late] and fake.violations == []
    # In time, the same command is answered.
    ping = await probe.command("ping")
    await probe.answered(ping)


async def test_a_second_callback_is_refused(fake: FakeDiscord, probe: Probe) -> None:
    ping = await probe.command("ping")
    await probe.answered(ping)
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/interactions/{ping['id']}/{ping['token']}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 40060


async def test_an_expired_token_refuses_the_follow_up(fake: FakeDiscord, probe: Probe) -> None:
    hold = await probe.command("hold")
    await probe.answered(hold)
    fake.expire_token(hold["token"])
    await probe.answered(await probe.command("release"))
    followup = await probe.followup(hold)
    assert followup.status == 401 and followup.error is not None
    assert followup.error["code"] == 50027
    posted = await probe.alive(fake.wait_until(lambda: channel_posts(fake, GENERAL)))
    assert posted[0].json["content"] == "follow-up failed 401 50027"


async def test_a_live_token_takes_the_follow_up(fake: FakeDiscord, probe: Probe) -> None:
    hold = await probe.command("hold")
    await probe.answered(hold)
    await probe.answered(await probe.command("release"))
    followup = await probe.followup(hold)
    assert followup.status == 200 and followup.json["content"] == "held"


async def test_denied_permissions(fake: FakeDiscord, probe: Probe) -> None:
    fake.deny(DRAUGHTS, "send_messages")
    post = await probe.command("post", DRAUGHTS)
    assert post["app_permissions"] == fake.permissions_in(DRAUGHTS)
    assert not int(post["app_permissions"]) & (1 << 11)
    followup = await probe.followup(post)  # interaction answers need no channel permission
    assert followup.json["content"] == "error 403 50013; can send: False"
    # Other channels are untouched; without View Channel it is "Missing Access".
    post = await probe.command("post", GENERAL)
    assert (await probe.followup(post)).json["content"] == "posted; can send: True"
    fake.deny(DRAUGHTS, "view_channel")
    post = await probe.command("post", DRAUGHTS)
    assert (await probe.followup(post)).json["content"] == "error 403 50001; can send: False"
    fake.allow(DRAUGHTS)
    post = await probe.command("post", DRAUGHTS)
    assert (await probe.followup(post)).json["content"] == "posted; can send: True"
    with pytest.raises(ValueError):
        fake.deny(DRAUGHTS, "fly")


async def test_embeds_and_files_need_their_permissions(fake: FakeDiscord) -> None:
    fake.deny(GENERAL, "embed_links", "attach_files")
    url = f"{fake.api_base}/channels/{GENERAL}/messages"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"content": "plain"}) as response:
            assert response.status == 200
        embed = {"embeds": [{"title": "t"}]}
        async with session.post(url, json=embed) as response:
            assert response.status == 403 and (await response.json())["code"] == 50013
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "x"}', content_type="application/json")
        form.add_field("files[0]", b"data", filename="a.txt")
        async with session.post(url, data=form) as response:
            assert response.status == 403 and (await response.json())["code"] == 50013


async def test_op7_reconnect_resumes_and_replays_what_was_missed(
    fake: FakeDiscord, probe: Probe
) -> None:
    await fake.request_reconnect()
    ping = await probe.command("ping")  # sent while the client is away: replayed on RESUME
    await fake.wait_for_resume(timeout=STEP_TIMEOUT)
    await probe.answered(ping)
    assert fake.sessions_identified == 1
    resume = [m for m in fake.gateway_received if m["op"] == 6]
    assert len(resume) == 1 and resume[0]["d"]["token"] == "test-token"
    await probe.answered(await probe.command("ping"))


async def test_op9_resumable_resumes(fake: FakeDiscord, probe: Probe) -> None:
    await fake.invalidate_session(resumable=True)
    await fake.wait_for_resume(timeout=STEP_TIMEOUT)
    assert fake.sessions_identified == 1
    await probe.answered(await probe.command("ping"))


async def test_op9_not_resumable_identifies_again(fake: FakeDiscord, probe: Probe) -> None:
    await fake.invalidate_session(resumable=False)
    await probe.alive(fake.wait_until(lambda: fake.sessions_identified == 2, STEP_TIMEOUT))
    assert fake.sessions_resumed == 0
    await probe.answered(await probe.command("ping"))


async def test_a_resume_of_an_unknown_session_is_refused(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 6, "d": {"token": "t", "session_id": "nope", "seq": 3}})
        assert await ws.receive_json() == {"op": 9, "d": False}


async def test_offline_and_back_on_the_same_port(fake: FakeDiscord, probe: Probe) -> None:
    port = fake.port
    await fake.go_offline()
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            async with session.get(fake.api_base + "/users/@me"):
                pass
    await fake.go_online()
    assert fake.port == port
    await probe.alive(fake.wait_for_resume(timeout=30))
    await probe.answered(await probe.command("ping"))
