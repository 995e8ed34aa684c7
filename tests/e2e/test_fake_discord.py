"""The fake Discord API with the real discord.py client, in a subprocess started by
``tests/support/discord_launcher.py``: a smoke test (log in, sync a guild command, answer ``/ping``
and a button), then each failure the fake can inject (429, 5xx, errors with codes, a slow Discord
and the 3-second window, expired tokens, denied permissions, gateway op 7 and op 9, an outage)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
import pytest
import yarl
from support.discord_launcher import (
    GUARD_MARKER,
    install_network_guard,
    point_discord_at,
    set_network_guard,
)
from support.e2e_harness import (
    BotProcess,
    Users,
    attachments_of,
    custom_ids,
    images_without_alt_text,
    select_values,
)
from support.e2e_harness import user as e2e_user
from support.fake_discord import (
    ALL_PERMISSIONS,
    LATE_GUILDS,
    MEMBER_PERMISSIONS,
    ComponentRefused,
    FakeDiscord,
    Guild,
    NoSessionForGuild,
    RecordedRequest,
    guild_on_shard,
    shard_of,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.no_database(
        reason="the fake Discord itself, and discord.py against it: no bot runs on a database"
    ),
]

TESTS = Path(__file__).resolve().parent.parent
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
                str(TESTS / "support" / "discord_launcher.py"),
                str(fake.port),
                "support.e2e_echo_bot:make_client",
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
    """``tests/support/fake_probe_bot.py`` (or another client factory) in its own process against
    the fake."""

    def __init__(
        self, fake: FakeDiscord, tmp_path: Path, factory: str = "support.fake_probe_bot:make_client"
    ) -> None:
        self.fake = fake
        self.factory = factory
        self.log_path = tmp_path / "probe.log"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(TESTS / "support" / "discord_launcher.py"),
                    str(self.fake.port),
                    self.factory,
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
    # discord.py retries a refused connection after a random wait that doubles with each failure
    # (up to 2, 4, 8, 16 s...): on a loaded machine the few seconds offline can cost it three.
    await probe.alive(fake.wait_for_resume(timeout=60))
    await probe.answered(await probe.command("ping"))


# -- components, ephemeral messages, attachments and DMs, as strict as Discord -------------------

ALICE = "1100000000000000101"
BOB = "1100000000000000102"
CAROL = "1100000000000000103"
PNG = b"\x89PNG\r\n\x1a\n-a-board-"


async def rest(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A request as the bot would make it; the status and the decoded answer."""
    url = fake.api_base + path
    data = body if isinstance(body, aiohttp.FormData) else None
    payload = None if data is not None else body
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, json=payload, data=data) as response,
    ):
        raw = await response.read()
        return response.status, (json.loads(raw) if raw else None)


def multipart(body: dict[str, Any], *files: tuple[str, str, bytes]) -> aiohttp.FormData:
    """A multipart body as discord.py sends it: ``payload_json`` and ``files[n]`` parts."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for name, filename, data in files:
        form.add_field(name, data, filename=filename, content_type="application/octet-stream")
    return form


def button(custom_id: str, **changes: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id, **changes}


def menu(custom_id: str, *values: str, **changes: Any) -> dict[str, Any]:
    options = [{"label": v, "value": v} for v in values]
    return {"type": 3, "custom_id": custom_id, "options": options, **changes}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def board_components() -> list[dict[str, Any]]:
    return [
        row(button("go"), button("off", disabled=True)),
        row(menu("pick", "a", "b", "c", min_values=1, max_values=2)),
        row(menu("one", "x", "y")),
        row(menu("frozen", "x", disabled=True)),
    ]


async def post_message(
    fake: FakeDiscord, components: list[dict[str, Any]], channel: str = GENERAL
) -> dict[str, Any]:
    status, answer = await rest(
        fake, "POST", f"/channels/{channel}/messages", {"content": "m", "components": components}
    )
    assert status == 200, answer
    return fake.messages[answer["id"]]


async def interact(fake: FakeDiscord, user: str = ALICE, channel: str = GENERAL) -> dict[str, Any]:
    return await fake.send_interaction(
        fake.command_interaction("move", user_id=user, channel_id=channel)
    )


async def respond(fake: FakeDiscord, interaction: dict[str, Any], body: Any) -> tuple[int, Any]:
    path = f"/interactions/{interaction['id']}/{interaction['token']}/callback?with_response=true"
    return await rest(fake, "POST", path, body)


def webhook(fake: FakeDiscord, interaction: dict[str, Any]) -> str:
    return f"/webhooks/{fake.application_id}/{interaction['token']}"


async def test_a_press_must_be_on_an_enabled_button_of_the_message(fake: FakeDiscord) -> None:
    message = await post_message(fake, board_components())
    payload = fake.button_interaction("go", message, user_id=BOB)
    assert payload["type"] == 3
    assert payload["data"] == {"custom_id": "go", "component_type": 2}
    # Discord sends the whole message the component is on (a copy, not the fake's own object).
    assert payload["message"] == message and payload["message"] is not message
    assert payload["member"]["user"]["id"] == BOB and payload["channel_id"] == GENERAL
    await fake.send_interaction(payload)
    assert fake.button_interaction("go", message["id"], user_id=BOB)["message"] == message
    for custom_id, why in (
        ("gone", "has no component 'gone'"),
        ("off", "disabled"),
        ("pick", "not a button"),
    ):
        with pytest.raises(ComponentRefused, match=why):
            fake.button_interaction(custom_id, message, user_id=BOB)
    with pytest.raises(ComponentRefused, match="does not exist"):
        fake.button_interaction("go", "1234", user_id=BOB)
    # A payload changed by hand after it was built is checked again when it is sent.
    edited = fake.button_interaction("go", message, user_id=BOB)
    edited["data"]["custom_id"] = "off"
    with pytest.raises(ComponentRefused, match="disabled"):
        await fake.send_interaction(edited)
    edited = fake.button_interaction("go", message, user_id=BOB)
    edited["data"]["component_type"] = 3
    with pytest.raises(ComponentRefused, match="component_type"):
        await fake.send_interaction(edited)


async def test_a_select_takes_only_values_the_menu_offers(fake: FakeDiscord) -> None:
    message = await post_message(fake, board_components())
    payload = fake.select_interaction("pick", message, ["c", "a"], user_id=BOB)
    assert payload["data"] == {"custom_id": "pick", "component_type": 3, "values": ["c", "a"]}
    assert payload["message"] == message
    await fake.send_interaction(payload)
    assert fake.select_interaction("one", message["id"], ["y"])["data"]["values"] == ["y"]
    refused: list[tuple[str, list[Any], str]] = [
        ("pick", ["d"], "not among the options"),
        ("pick", ["a", "a"], "once"),
        ("pick", [], "takes 1 to 2 values, not 0"),
        ("pick", ["a", "b", "c"], "takes 1 to 2 values, not 3"),
        ("pick", [1], "strings"),
        ("one", ["x", "y"], "takes 1 to 1"),  # min_values and max_values default to 1
        ("frozen", ["x"], "disabled"),
        ("go", ["a"], "not a select"),
        ("nope", ["a"], "has no component"),
    ]
    for custom_id, values, why in refused:
        with pytest.raises(ComponentRefused, match=why):
            fake.select_interaction(custom_id, message, values, user_id=BOB)
    edited = fake.select_interaction("pick", message, ["a"], user_id=BOB)
    edited["data"]["values"] = ["z"]
    with pytest.raises(ComponentRefused, match="not among the options"):
        await fake.send_interaction(edited)
    # Only string selects can be chosen from here (user, role... selects need resolved data).
    users = await post_message(fake, [row({"type": 5, "custom_id": "who"})])
    with pytest.raises(ComponentRefused, match="only string selects"):
        fake.select_interaction("who", users, [BOB])


async def test_edits_that_take_buttons_off_reach_later_presses(fake: FakeDiscord) -> None:
    message = await post_message(fake, board_components())
    as_seen = copy.deepcopy(message)  # what a slow client still shows after the edit
    status, _ = await rest(
        fake, "PATCH", f"/channels/{GENERAL}/messages/{message['id']}", {"components": []}
    )
    assert status == 200 and fake.messages[message["id"]]["components"] == []
    for seen in (message, message["id"]):
        with pytest.raises(ComponentRefused, match="has no component 'go'"):
            fake.button_interaction("go", seen, user_id=BOB)
    # A press that beat the edit to Discord is still delivered, with the message as it was.
    stale = await fake.send_interaction(fake.button_interaction("go", as_seen, user_id=BOB))
    assert stale["message"]["components"] == as_seen["components"]
    # A message state that never existed is not (a hand-made copy), unless forged on purpose.
    made_up = copy.deepcopy(as_seen)
    made_up["components"] = [row(button("made-up"))]
    with pytest.raises(ComponentRefused, match="never had these components"):
        fake.button_interaction("made-up", made_up, user_id=BOB)
    forged = fake.button_interaction("made-up", made_up, user_id=BOB, forged=True)
    await fake.send_interaction(forged)
    assert forged["data"] == {"custom_id": "made-up", "component_type": 2}
    # Deleted: no client shows it any more (a copy from before may still race the delete).
    status, _ = await rest(fake, "DELETE", f"/channels/{GENERAL}/messages/{message['id']}")
    assert status == 204
    for seen in (message, message["id"]):
        with pytest.raises(ComponentRefused, match="deleted"):
            fake.button_interaction("go", seen, user_id=BOB)
    late = await fake.send_interaction(fake.button_interaction("go", as_seen, user_id=BOB))
    status, error = await respond(fake, late, {"type": 7, "data": {"content": "x"}})
    assert (status, error["code"]) == (404, 10008)


async def test_webhook_edits_replace_components_too(fake: FakeDiscord) -> None:
    command = await interact(fake)
    status, _ = await respond(
        fake, command, {"type": 4, "data": {"content": "board", "components": [row(button("go"))]}}
    )
    assert status == 200
    original = fake.original_message(command["token"])
    assert original is not None
    status, answer = await rest(
        fake,
        "POST",
        webhook(fake, command) + "?wait=true",
        {"content": "more", "components": [row(button("again"))]},
    )
    assert status == 200
    followup = fake.messages[answer["id"]]
    fake.button_interaction("go", original, user_id=BOB)
    fake.button_interaction("again", followup, user_id=BOB)
    base = webhook(fake, command) + "/messages/"
    for path in (base + "@original", base + followup["id"]):
        status, _ = await rest(fake, "PATCH", path, {"components": []})
        assert status == 200
    with pytest.raises(ComponentRefused):
        fake.button_interaction("go", original, user_id=BOB)
    with pytest.raises(ComponentRefused):
        fake.button_interaction("again", followup, user_id=BOB)
    # The request that made or edited a message leads to it.
    made = fake.find_requests("POST", webhook(fake, command))[-1]
    assert fake.message_of(made) is followup


async def test_ephemeral_pickers_are_their_users_own(fake: FakeDiscord) -> None:
    pieces = row(menu("piece", "11", "12", placeholder="Piece to move"))
    command = await interact(fake, ALICE)
    status, answer = await respond(
        fake,
        command,
        {"type": 4, "data": {"content": "Pick a piece", "flags": 64, "components": [pieces]}},
    )
    assert status == 200 and answer["interaction"]["response_message_ephemeral"] is True
    picker = fake.original_message(command["token"])
    assert picker is not None and picker["flags"] & 64
    assert fake.ephemeral_messages(ALICE) == [picker] and fake.ephemeral_messages(BOB) == []
    # Ephemeral messages are not reachable through the channel's routes.
    path = f"/channels/{GENERAL}/messages/{picker['id']}"
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        status, error = await rest(fake, method, path, body)
        assert (status, error["code"]) == (404, 10008), method
    # Only Alice sees it, so only Alice can use it; Discord sends the message with flag 64.
    with pytest.raises(ComponentRefused, match="ephemeral"):
        fake.select_interaction("piece", picker, ["11"], user_id=BOB)
    chosen = await fake.send_interaction(
        fake.select_interaction("piece", picker, ["11"], user_id=ALICE)
    )
    assert chosen["message"]["id"] == picker["id"] and chosen["message"]["flags"] & 64
    # UPDATE_MESSAGE (7) replaces the picker's components: the piece menu is gone.
    moves = row(menu("to", "11-15", "11-16"))
    status, answer = await respond(
        fake, chosen, {"type": 7, "data": {"content": "Where to?", "components": [moves]}}
    )
    assert status == 200 and answer["resource"]["message"]["id"] == picker["id"]
    assert picker["components"] == [moves] and picker["flags"] & 64
    with pytest.raises(ComponentRefused, match="has no component 'piece'"):
        fake.select_interaction("piece", picker, ["11"], user_id=ALICE)
    # DEFERRED_UPDATE_MESSAGE (6), then an edit of @original: the same ephemeral message.
    moved = await fake.send_interaction(
        fake.select_interaction("to", picker, ["11-16"], user_id=ALICE)
    )
    status, answer = await respond(fake, moved, {"type": 6})
    assert status == 200 and "resource" not in answer  # nothing is created by a deferral
    status, edited = await rest(
        fake,
        "PATCH",
        webhook(fake, moved) + "/messages/@original",
        {"content": "Played 11-16", "components": []},
    )
    assert status == 200 and edited["id"] == picker["id"] and edited["flags"] & 64
    with pytest.raises(ComponentRefused):
        fake.select_interaction("to", picker, ["11-15"], user_id=ALICE)


async def test_deferred_and_follow_up_ephemeral_messages(fake: FakeDiscord) -> None:
    command = await interact(fake, ALICE)
    status, _ = await respond(fake, command, {"type": 5, "data": {"flags": 64}})
    assert status == 200
    status, _ = await rest(
        fake,
        "PATCH",
        webhook(fake, command) + "/messages/@original",
        {"content": "Pick", "components": [row(menu("piece", "11", "12"))]},
    )
    assert status == 200
    picker = fake.original_message(command["token"])
    assert picker is not None and picker["flags"] & 64
    fake.select_interaction("piece", picker, ["12"], user_id=ALICE)
    with pytest.raises(ComponentRefused, match="ephemeral"):
        fake.select_interaction("piece", picker, ["12"], user_id=BOB)
    status, answer = await rest(
        fake,
        "POST",
        webhook(fake, command) + "?wait=true",
        {"content": "More", "flags": 64, "components": [row(button("page:2"))]},
    )
    assert status == 200
    followup = fake.message_of(fake.find_requests("POST", webhook(fake, command))[-1])
    assert followup is not None and followup["id"] == answer["id"] and followup["flags"] & 64
    assert fake.ephemeral_messages(ALICE) == [picker, followup]
    fake.button_interaction("page:2", followup, user_id=ALICE)
    with pytest.raises(ComponentRefused, match="ephemeral"):
        fake.button_interaction("page:2", followup, user_id=BOB)


async def test_the_channel_history_pages_as_discord_does(fake: FakeDiscord) -> None:
    """Newest first; a page just after ``after``, just before ``before``; ephemeral messages
    left out; follow-ups carry their interaction; an empty page without Read Message History."""
    command = await interact(fake, ALICE)
    assert (await respond(fake, command, {"type": 4, "data": {"content": "answer"}}))[0] == 200
    for n in range(3):
        status, _ = await rest(fake, "POST", f"/channels/{GENERAL}/messages", {"content": f"{n}"})
        assert status == 200
    status, _ = await rest(fake, "POST", webhook(fake, command), {"content": "hidden", "flags": 64})
    assert status == 204
    status, _ = await rest(fake, "POST", webhook(fake, command) + "?wait=true", {"content": "more"})
    assert status == 200
    history = f"/channels/{GENERAL}/messages"
    status, page = await rest(fake, "GET", history)
    assert status == 200
    assert [m["content"] for m in page] == ["more", "2", "1", "0", "answer"]
    assert [m.get("interaction_metadata", {}).get("id") for m in page] == [
        command["id"],
        None,
        None,
        None,
        command["id"],
    ]
    first = page[-1]["id"]
    status, after = await rest(fake, "GET", f"{history}?after={first}&limit=2")
    assert [m["content"] for m in after] == ["1", "0"]
    status, before = await rest(fake, "GET", f"{history}?before={page[0]['id']}&limit=1")
    assert [m["content"] for m in before] == ["2"]
    for bad in ("limit=0", "limit=101", f"after={first}&before={first}"):
        status, _ = await rest(fake, "GET", f"{history}?{bad}")
        assert status == 400, bad
    fake.deny(GENERAL, "read_message_history")
    assert await rest(fake, "GET", history) == (200, [])
    fake.deny(GENERAL, "view_channel")
    assert (await rest(fake, "GET", history))[0] == 403


async def test_a_thinking_answer_is_loading_until_it_is_filled_in(fake: FakeDiscord) -> None:
    """A deferred response's message carries the LOADING flag (128) while the bot "thinks", in
    the channel's history and through ``@original``; filling it in clears it."""
    command = await interact(fake, ALICE)
    assert (await respond(fake, command, {"type": 5}))[0] == 200
    original = webhook(fake, command) + "/messages/@original"
    status, thinking = await rest(fake, "GET", original)
    assert status == 200 and thinking["flags"] == 128
    status, page = await rest(fake, "GET", f"/channels/{GENERAL}/messages")
    assert [m["flags"] for m in page] == [128]
    status, filled = await rest(fake, "PATCH", original, {"content": "the board"})
    assert status == 200 and filled["flags"] == 0
    assert (await rest(fake, "GET", original))[1]["flags"] == 0


async def test_only_component_interactions_take_update_callbacks(fake: FakeDiscord) -> None:
    for kind in (6, 7):
        command = await interact(fake)
        status, error = await respond(fake, command, {"type": kind, "data": {"content": "x"}})
        assert (status, error["code"]) == (400, 50035), kind
    assert len(fake.violations) == 2
    fake.violations.clear()
    message = await post_message(fake, [row(button("go"))])
    for kind in (4, 5, 6, 7):
        press = await fake.send_interaction(fake.button_interaction("go", message, user_id=BOB))
        data = {"content": "ok", "components": [row(button("go"))]}
        status, _ = await respond(fake, press, {"type": kind, "data": data})
        assert status == 200, kind
    autocomplete = await fake.send_interaction(
        fake.autocomplete_interaction("move", [{"name": "m", "type": 3, "value": ""}], "m")
    )
    status, _ = await respond(fake, autocomplete, {"type": 7, "data": {"content": "x"}})
    assert status == 400
    fake.violations.clear()


async def test_alt_text_of_attachments(fake: FakeDiscord) -> None:
    path = f"/channels/{GENERAL}/messages"
    body = {
        "content": "board",
        "attachments": [
            {"id": 0, "filename": "board.png", "description": "The board: Black to move"},
            {"id": 1, "filename": "game.pdn"},
        ],
    }
    status, answer = await rest(
        fake,
        "POST",
        path,
        multipart(body, ("files[0]", "board.png", PNG), ("files[1]", "game.pdn", b"[Event]")),
    )
    assert status == 200
    request = fake.find_requests("POST", path)[-1]
    assert [(u.filename, u.description, u.data, u.is_image) for u in attachments_of(request)] == [
        ("board.png", "The board: Black to move", PNG, True),
        ("game.pdn", None, b"[Event]", False),
    ]
    stored = fake.messages[answer["id"]]["attachments"]
    assert stored[0]["description"] == "The board: Black to move"
    assert stored[0]["content_type"] == "image/png" and "description" not in stored[1]
    assert images_without_alt_text(fake) == []
    # The entries pair with the parts by id, whatever their order.
    swapped = {
        "attachments": [{"id": 1, "description": "second"}, {"id": 0, "description": "first"}]
    }
    status, _ = await rest(
        fake,
        "POST",
        path,
        multipart(swapped, ("files[0]", "a.png", PNG), ("files[1]", "b.gif", PNG)),
    )
    assert status == 200
    request = fake.find_requests("POST", path)[-1]
    assert [(u.filename, u.description) for u in request.uploads] == [
        ("a.png", "first"),
        ("b.gif", "second"),
    ]
    # Images without alt text (none, or blank) are listed; refused requests are not.
    for description in (None, "  "):
        entry: dict[str, Any] = {"id": 0, "filename": "bare.png"}
        if description is not None:
            entry["description"] = description
        form = multipart({"attachments": [entry]}, ("files[0]", "bare.png", PNG))
        assert (await rest(fake, "POST", path, form))[0] == 200
    assert images_without_alt_text(fake) == [f"POST {path}: bare.png"] * 2
    fake.deny(GENERAL, "attach_files")
    form = multipart({"attachments": [{"id": 0}]}, ("files[0]", "refused.png", PNG))
    assert (await rest(fake, "POST", path, form))[0] == 403
    fake.allow(GENERAL)
    assert len(images_without_alt_text(fake)) == 2
    # Alt text is at most 1024 characters.
    long = {"attachments": [{"id": 0, "description": "d" * 1025}]}
    status, error = await rest(fake, "POST", path, multipart(long, ("files[0]", "x.png", PNG)))
    assert (status, error["code"]) == (400, 50035)
    assert "description" in error["errors"]["attachments"]["0"]
    assert len(fake.violations) == 1
    fake.violations.clear()


async def test_direct_messages(fake: FakeDiscord) -> None:
    status, channel = await rest(fake, "POST", "/users/@me/channels", {"recipient_id": int(BOB)})
    assert status == 200 and channel["type"] == 1
    assert [u["id"] for u in channel["recipients"]] == [BOB]
    _, again = await rest(fake, "POST", "/users/@me/channels", {"recipient_id": BOB})
    assert again["id"] == channel["id"] == fake.dm_channel_id(BOB) != fake.dm_channel_id(ALICE)
    status, error = await rest(fake, "POST", "/users/@me/channels", {"recipient_id": "42"})
    assert (status, error["code"]) == (400, 50033)
    status, user = await rest(fake, "GET", f"/users/{BOB}")
    assert status == 200 and user["username"] == "bob"
    assert (await rest(fake, "GET", "/users/42"))[1]["code"] == 10013
    status, got = await rest(fake, "GET", f"/channels/{channel['id']}")
    assert status == 200 and got["type"] == 1

    path = f"/channels/{channel['id']}/messages"
    body = {"content": "Your move in game #1", "components": [row(button("dm:go"))]}
    status, sent = await rest(fake, "POST", path, body)
    assert status == 200 and "guild_id" not in sent and "member" not in sent
    assert [r.json["content"] for r in fake.dms_to(BOB)] == ["Your move in game #1"]
    assert fake.dm_messages(BOB) == [fake.messages[sent["id"]]]
    assert fake.dms_to(ALICE) == [] and fake.dm_messages(ALICE) == []

    # A button in the DM: only Bob sees it, and the interaction comes from a DM.
    press = fake.button_interaction("dm:go", sent["id"], user_id=BOB)
    assert press["user"]["id"] == BOB and "member" not in press and "guild_id" not in press
    assert press["context"] == 1 and press["channel"]["type"] == 1
    assert press["channel_id"] == channel["id"]
    with pytest.raises(ComponentRefused, match="DM"):
        fake.button_interaction("dm:go", sent["id"], user_id=ALICE)
    await fake.send_interaction(press)
    status, answer = await respond(fake, press, {"type": 7, "data": {"components": []}})
    assert status == 200 and fake.messages[sent["id"]]["components"] == []
    reply = await fake.send_interaction(fake.command_interaction("board", channel_id=channel["id"]))
    status, answer = await respond(fake, reply, {"type": 4, "data": {"content": "in the DM"}})
    assert status == 200 and "guild_id" not in answer["resource"]["message"]

    # Bob stops taking DMs: Discord answers 403 50007.
    fake.block_dms(BOB)
    status, error = await rest(fake, "POST", path, {"content": "again"})
    assert status == 403
    assert error == {"message": "Cannot send messages to this user", "code": 50007}
    assert len(fake.dms_to(BOB)) == 1 and len(fake.dms_to(BOB, delivered=False)) == 2
    assert fake.refusals[-1].path == path and fake.violations == []
    fake.unblock_dms(BOB)
    assert (await rest(fake, "POST", path, {"content": "back"}))[0] == 200
    assert len(fake.dms_to(BOB)) == 2


# -- the same with the real discord.py client ----------------------------------------------------


class _Pieces(discord.ui.View):
    """An ephemeral picker: a piece (up to two), then that piece's move."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="pick:piece",
        placeholder="Piece to move",
        min_values=1,
        max_values=2,
        options=[
            discord.SelectOption(label="11", value="11", description="Black man on 11"),
            discord.SelectOption(label="12", value="12", emoji="⛀"),
        ],
    )
    async def piece(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        picked = ",".join(select.values)
        await interaction.response.edit_message(content=f"picked {picked}", view=_Moves())


class _Moves(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="pick:move",
        options=[discord.SelectOption(label=m, value=m) for m in ("11-15", "11-16")],
    )
    async def move(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()  # a component: DEFERRED_UPDATE_MESSAGE
        await interaction.edit_original_response(content=f"moved {select.values[0]}", view=None)


class _Ack(discord.ui.View):
    def __init__(self, custom_id: str) -> None:
        super().__init__(timeout=None)
        ack = discord.ui.Button(label="OK", custom_id=custom_id)
        ack.callback = self.ack  # type: ignore[method-assign]
        self.add_item(ack)

    async def ack(self, interaction: discord.Interaction) -> None:
        where = "dm" if interaction.guild_id is None else "guild"
        await interaction.response.edit_message(content=f"acked in {where}", view=None)


class PickerClient(discord.Client):
    """``/pick`` (an ephemeral select picker), ``/file`` (images with and without alt text),
    ``/dm`` (DMs the user, with a button; says how it went) and ``/strip`` (a reply and a
    channel post whose buttons are then edited away)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)
        tree = self.tree

        @tree.command(name="pick", description="An ephemeral picker")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick a piece", view=_Pieces(), ephemeral=True)

        @tree.command(name="file", description="Images with and without alt text")
        async def file(interaction: discord.Interaction) -> None:
            board = discord.File(
                io.BytesIO(PNG), filename="board.png", description="The board, Black to move"
            )
            await interaction.response.send_message("board", file=board)
            await interaction.followup.send(file=discord.File(io.BytesIO(PNG), filename="bare.png"))

        @tree.command(name="dm", description="DMs you")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                await interaction.user.send("Your move", view=_Ack("dm:ack"))
                result = "dm sent"
            except discord.HTTPException as exc:
                result = f"dm failed {exc.status} {exc.code}"
            await interaction.followup.send(result, ephemeral=True)

        @tree.command(name="strip", description="Buttons edited away")
        async def strip(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reply", view=_Ack("strip:reply"))
            channel = interaction.channel
            assert isinstance(channel, discord.abc.Messageable)
            posted = await channel.send("post", view=_Ack("strip:post"))
            await posted.edit(view=None)
            await (await interaction.original_response()).edit(view=None)

    async def setup_hook(self) -> None:
        guild = discord.Object(int(FakeDiscord().guild.id))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def make_picker_client() -> PickerClient:
    return PickerClient()


async def test_selects_alt_text_dms_and_stripped_buttons_with_discord_py(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    probe = Probe(fake, tmp_path, "e2e.test_fake_discord:make_picker_client")
    await probe.start()
    try:
        # An ephemeral picker: Alice's alone; a select updates it (7), the next defers (6)
        # and edits @original.
        pick = await fake.send_interaction(fake.command_interaction("pick", user_id=ALICE))
        reply = await probe.callback(pick)
        assert reply.json["type"] == 4 and reply.json["data"]["flags"] == 64, reply.json
        picker = fake.original_message(pick["token"])
        assert picker is not None and fake.ephemeral_messages(ALICE) == [picker]
        assert select_values(picker, "pick:piece") == ["11", "12"]
        with pytest.raises(ComponentRefused, match="ephemeral"):
            fake.select_interaction("pick:piece", picker, ["11"], user_id=BOB)
        chosen = await fake.send_interaction(
            fake.select_interaction("pick:piece", picker, ["12", "11"], user_id=ALICE)
        )
        update = await probe.callback(chosen)
        assert update.json["type"] == 7 and update.json["data"]["content"] == "picked 12,11"
        assert custom_ids(picker) == ["pick:move"] and picker["flags"] & 64
        moved = await fake.send_interaction(
            fake.select_interaction("pick:move", picker, ["11-16"], user_id=ALICE)
        )
        assert (await probe.callback(moved)).json["type"] == 6
        edit_path = rf"/webhooks/{fake.application_id}/{moved['token']}/messages/@original"
        await probe.alive(fake.wait_for_request("PATCH", edit_path, timeout=STEP_TIMEOUT))
        assert picker["content"] == "moved 11-16" and picker["components"] == []

        # discord.File(description=...) is the alt text of the attachment.
        file = await fake.send_interaction(fake.command_interaction("file"))
        (upload,) = attachments_of(await probe.callback(file))
        assert (upload.filename, upload.description, upload.data) == (
            "board.png",
            "The board, Black to move",
            PNG,
        )
        message = fake.original_message(file["token"])
        assert message is not None
        assert message["attachments"][0]["description"] == "The board, Black to move"
        followup = await probe.followup(file)
        assert images_without_alt_text(fake) == [f"POST {followup.path}: bare.png"]

        # A DM with a button Bob presses there; then Bob blocks DMs: 403 50007.
        dm = await fake.send_interaction(fake.command_interaction("dm", user_id=BOB))
        assert (await probe.followup(dm)).json["content"] == "dm sent"
        (post,) = fake.dms_to(BOB)
        assert post.json["content"] == "Your move"
        (in_dm,) = fake.dm_messages(BOB)
        with pytest.raises(ComponentRefused, match="DM"):
            fake.button_interaction("dm:ack", in_dm, user_id=ALICE)
        ack = await fake.send_interaction(fake.button_interaction("dm:ack", in_dm, user_id=BOB))
        assert (await probe.callback(ack)).json["data"]["content"] == "acked in dm"
        assert in_dm["content"] == "acked in dm" and in_dm["components"] == []
        fake.block_dms(BOB)
        dm = await fake.send_interaction(fake.command_interaction("dm", user_id=BOB))
        assert (await probe.followup(dm)).json["content"] == "dm failed 403 50007"
        assert len(fake.dms_to(BOB)) == 1 and len(fake.dms_to(BOB, delivered=False)) == 2

        # Buttons edited off a channel post and off an interaction reply cannot be pressed.
        strip = await fake.send_interaction(fake.command_interaction("strip"))
        original = rf"/webhooks/{fake.application_id}/{strip['token']}/messages/@original"
        edited = await probe.alive(fake.wait_for_request("PATCH", original, timeout=STEP_TIMEOUT))
        assert edited.json["components"] == []
        reply_message = fake.original_message(strip["token"])
        (post,) = channel_posts(fake, GENERAL)
        posted = fake.message_of(post)
        assert reply_message is not None and posted is not None
        edits = fake.find_requests("PATCH", rf"/channels/{GENERAL}/messages/{posted['id']}")
        assert [e.json["components"] for e in edits] == [[]]
        for custom_id, message in (("strip:reply", reply_message), ("strip:post", posted)):
            assert message["components"] == []
            with pytest.raises(ComponentRefused, match="has no component"):
                fake.button_interaction(custom_id, message, user_id=BOB)
        assert fake.unknown_requests == []
    finally:
        code = await probe.stop()
    log = probe.log()
    assert GUARD_MARKER not in log and "Traceback" not in log, log
    assert code == 0, log


# -- several guilds and several shards -------------------------------------------------------------

SHARDS = 4


def four_guilds() -> list[Guild]:
    """One guild per shard of four, the first sharing the primary guild's Alice and Bob."""
    shared = {ALICE: "alice", BOB: "bob"}
    return [guild_on_shard(0, SHARDS, users=shared)] + [
        guild_on_shard(shard, SHARDS) for shard in range(1, SHARDS)
    ]


@contextlib.asynccontextmanager
async def serving(**options: Any) -> AsyncIterator[FakeDiscord]:
    """A fake made with these options, checked like the ``fake`` fixture's."""
    install_network_guard()
    try:
        async with FakeDiscord(**options) as server:
            yield server
            assert server.violations == [], server.violations
            assert server.unknown_requests == [], server.unknown_requests
    finally:
        set_network_guard(False)


@pytest.fixture
def discord_at() -> Iterator[Callable[[FakeDiscord], None]]:
    """Point this process's discord.py at a fake (as the launcher does in a bot process), and
    back at Discord after the test."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    yield lambda fake: point_discord_at(fake.port)
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


class ShardedClient(discord.AutoShardedClient):
    """A real ``AutoShardedClient`` (discord.py's own identify pacing: 5 seconds between the
    shards of a process) that notes every interaction it gets."""

    def __init__(self, shard_ids: list[int] | None, shard_count: int | None = SHARDS) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            shard_count=shard_count,
            shard_ids=shard_ids,
            guild_ready_timeout=0.3,
        )
        self.seen: list[tuple[str, int | None]] = []  # (interaction id, guild id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append((str(interaction.id), interaction.guild_id))

    def saw(self, interaction: dict[str, Any]) -> bool:
        return any(iid == interaction["id"] for iid, _ in self.seen)


@contextlib.asynccontextmanager
async def running(*clients: discord.Client) -> AsyncIterator[None]:
    """``client.start()`` of each client in the background (together: each process paces its
    own shards) until all are ready, or the error of one that stopped; closed at the end."""
    started = [asyncio.create_task(c.start("test-token")) for c in clients]
    ready = asyncio.gather(*(c.wait_until_ready() for c in clients))
    try:
        pending: set[asyncio.Future[Any]] = {ready, *started}
        deadline = time.monotonic() + 30
        while not ready.done() and time.monotonic() < deadline:
            done, pending = await asyncio.wait(
                pending, timeout=deadline - time.monotonic(), return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                if task is not ready:
                    task.result()  # raises what stopped it
                    raise AssertionError("a client stopped before it was ready")
        assert ready.done(), "the clients did not get ready in 30 s"
        yield
    finally:
        ready.cancel()
        for client in clients:
            await client.close()
        for task in started:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)


async def settle(predicate: Callable[[], Any], timeout: float = STEP_TIMEOUT) -> Any:
    """Wait for what the fake's own waiters do not see (a client's state, a spawned event)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, "condition not met"
        await asyncio.sleep(0.02)
    return value


async def test_two_sharded_processes_each_get_their_own_guilds(discord_at: Any) -> None:
    guilds = four_guilds()
    async with serving(guilds=guilds, shard_count=SHARDS) as fake:
        discord_at(fake)
        first, second = ShardedClient([0, 1]), ShardedClient([2, 3])
        async with running(first, second):
            # Each sees exactly the guilds of its shards; discord.py agrees on the shards.
            assert {str(g.id) for g in first.guilds} == {guilds[0].id, guilds[1].id}
            assert {str(g.id) for g in second.guilds} == {guilds[2].id, guilds[3].id}
            for client, ids in ((first, [0, 1]), (second, [2, 3])):
                assert sorted(client.shards) == ids and client.shard_count == SHARDS
                assert all(client.shards[i].id == i for i in ids)
                assert all(client.shards[i].shard_count == SHARDS for i in ids)
                assert all(g.shard_id == guilds[g.shard_id].shard(SHARDS) for g in client.guilds)
            assert fake.connected_shards() == {0, 1, 2, 3} and fake.sessions_identified == 4
            for shard in range(SHARDS):
                session = fake.session_on_shard(shard)
                assert session is not None and session.sharded
                assert session.shard == (shard, SHARDS)
                assert session.identify["shard"] == [shard, SHARDS]
                ready = session.sent[0]
                assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, SHARDS]
                assert ready["d"]["guilds"] == [{"id": guilds[shard].id, "unavailable": True}]
                creates = [e["d"]["id"] for e in session.sent if e["t"] == "GUILD_CREATE"]
                assert creates == [guilds[shard].id]


async def test_a_held_ready_keeps_discord_py_waiting_until_released(discord_at: Any) -> None:
    """hold_ready: discord.py (its own 2 s wait for more guilds) is connected but not ready for
    as long as the test holds, and ready soon after the release, with every guild."""
    async with serving() as fake:
        discord_at(fake)
        fake.hold_ready()
        client = discord.Client(intents=discord.Intents.default())
        started = asyncio.create_task(client.start("test-token"))
        try:
            await fake.wait_for_shards(0)
            await asyncio.sleep(4.0)  # twice discord.py's wait for the next guild
            assert not client.is_ready() and not started.done()
            assert len(client.guilds) > 4  # guilds keep arriving meanwhile
            fake.release_ready()
            await asyncio.wait_for(client.wait_until_ready(), 10)
            assert fake.guild.id in {str(g.id) for g in client.guilds}
            assert len(client.guilds) == 1 + LATE_GUILDS
        finally:
            await client.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(started, 10)


async def test_interactions_reach_the_process_of_their_shard(discord_at: Any) -> None:
    guilds = four_guilds()
    async with serving(guilds=guilds, shard_count=SHARDS) as fake:
        discord_at(fake)
        first, second = ShardedClient([0, 1]), ShardedClient([2, 3])
        async with running(first, second):
            general = guilds[2].channel_id("general")
            in_two = await fake.send_interaction(
                fake.command_interaction("ping", channel_id=general)
            )
            (session,) = fake.delivered_to(in_two)
            assert session.shard == (2, SHARDS) and in_two in session.interactions()
            await settle(lambda: second.saw(in_two))
            assert second.seen == [(in_two["id"], int(guilds[2].id))]
            # A DM is shard 0's: the first process; it never saw the guild's interaction
            # (which its socket would have carried first).
            dm = fake.dm_channel_id(ALICE)
            in_dm = await fake.send_interaction(fake.command_interaction("ping", channel_id=dm))
            assert "guild_id" not in in_dm
            assert [s.shard for s in fake.delivered_to(in_dm)] == [(0, SHARDS)]
            await settle(lambda: first.saw(in_dm))
            assert first.seen == [(in_dm["id"], None)]
            assert len(second.seen) == 1
            # Guild 1's interaction goes to the first process, on shard 1.
            one = guilds[1].channel_id("draughts")
            in_one = await fake.send_interaction(fake.command_interaction("x", channel_id=one))
            assert [s.shard_id for s in fake.delivered_to(in_one)] == [1]
            await settle(lambda: first.saw(in_one))
            # CHANNEL_UPDATE goes to the channel's shard only.
            fake.deny(guilds[3].channel_id("general"), "send_messages")
            three = fake.session_on_shard(3)
            assert three is not None
            await settle(lambda: any(e["t"] == "CHANNEL_UPDATE" for e in three.sent))
            for shard in (0, 1, 2):
                session_of = fake.session_on_shard(shard)
                assert session_of is not None
                assert all(e["t"] != "CHANNEL_UPDATE" for e in session_of.sent)
            # One shard reconnects and RESUMEs its own session; the others are untouched.
            await fake.request_reconnect(shard=2)
            await fake.wait_for_resume(timeout=STEP_TIMEOUT)
            assert fake.sessions_identified == 4 and fake.session_on_shard(2) is session
            again = await fake.send_interaction(
                fake.command_interaction("ping", channel_id=general)
            )
            assert fake.delivered_to(again) == [session]
            await settle(lambda: second.saw(again))
            assert not first.saw(again) and not first.saw(in_two)


async def test_a_bad_shard_is_closed_with_4010(discord_at: Any) -> None:
    async with serving(guilds=four_guilds(), shard_count=SHARDS) as fake:
        async with aiohttp.ClientSession() as session:
            for shard in ([4, 4], [0, 2], [0, 0], [-1, 4], [1], "0,4", [0.0, 4]):
                async with session.ws_connect(fake.gateway_url) as ws:
                    assert (await ws.receive_json())["op"] == 10
                    await ws.send_json({"op": 2, "d": {"token": "test-token", "shard": shard}})
                    closed = await ws.receive()
                    assert closed.type == aiohttp.WSMsgType.CLOSE, (shard, closed)
                    assert (closed.data, closed.extra) == (4010, "Invalid shard."), shard
        assert fake.gateway_closes == [(4010, "Invalid shard.")] * 7
        assert fake.sessions == [] and fake.sessions_identified == 0
        # discord.py stops on it (4010 is not a close it reconnects after).
        discord_at(fake)
        client = ShardedClient([0], shard_count=2)
        try:
            with pytest.raises(discord.ConnectionClosed) as closed_with:
                await asyncio.wait_for(client.start("test-token"), 30)
        finally:
            await client.close()
        assert closed_with.value.code == 4010
        # The test made the bot shard: a session for every guild is refused (Discord: 4011).
        async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": "test-token"}})
            closed = await ws.receive()
            assert (closed.data, closed.extra) == (4011, "Sharding required.")
        assert fake.gateway_closes[-2:] == [(4010, "Invalid shard."), (4011, "Sharding required.")]
        # Without a shard count set, any valid shard is taken; no shard at all is [0, 1].
        fake.shard_count = None
        async with aiohttp.ClientSession() as session:
            for shard, guilds in (([1, 2], 2), (None, 4)):
                async with session.ws_connect(fake.gateway_url) as ws:
                    await ws.receive_json()
                    d: dict[str, Any] = {"token": "test-token"}
                    if shard is not None:
                        d["shard"] = shard
                    await ws.send_json({"op": 2, "d": d})
                    ready = await ws.receive_json()
                    assert ready["d"]["shard"] == (shard or [0, 1])
                    assert len(ready["d"]["guilds"]) == guilds


async def test_an_interaction_no_session_covers() -> None:
    guilds = four_guilds()
    async with (
        serving(guilds=guilds, shard_count=SHARDS) as fake,
        aiohttp.ClientSession() as session,
    ):
        # No session at all (tests of the REST routes alone): recorded, nothing raised.
        alone = await fake.send_interaction(
            fake.command_interaction("ping", channel_id=guilds[2].channel_id("general"))
        )
        assert fake.undelivered == [alone] and fake.delivered_to(alone) == []
        async with session.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": "test-token", "shard": [0, SHARDS]}})
            ready = await ws.receive_json()
            assert (await ws.receive_json())["t"] == "GUILD_CREATE"
            # A bot is there, only not on shard 2: the test would wait in vain.
            on_two = fake.command_interaction("ping", channel_id=guilds[2].channel_id("general"))
            with pytest.raises(NoSessionForGuild, match="no gateway session on its shard"):
                await fake.send_interaction(on_two)
            assert fake.undelivered == [alone] and on_two["token"] not in fake.interactions
            await fake.send_interaction(on_two, must_reach=False)  # a shard that is down
            assert fake.undelivered == [alone, on_two] and fake.delivered_to(on_two) == []
            # Shard 0 takes its guild's and the DMs.
            on_zero = await fake.send_interaction(
                fake.command_interaction("ping", channel_id=guilds[0].channel_id("general"))
            )
            assert (await ws.receive_json())["d"]["id"] == on_zero["id"]
            (zero,) = fake.sessions
            assert fake.delivered_to(on_zero) == [zero] and fake.connected_shards() == {0}
        await fake.wait_until(lambda: not zero.connected)
        # Disconnected, the session still takes shard 0's events, for its RESUME.
        dm = fake.dm_channel_id(BOB)
        missed = await fake.send_interaction(fake.command_interaction("ping", channel_id=dm))
        assert fake.delivered_to(missed) == [zero] and fake.connected_shards() == set()
        async with session.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            seq = 3  # READY, GUILD_CREATE, the interaction
            resume = {"token": "test-token", "session_id": ready["d"]["session_id"], "seq": seq}
            await ws.send_json({"op": 6, "d": resume})
            replayed = await ws.receive_json()
            assert replayed["d"]["id"] == missed["id"] and "guild_id" not in replayed["d"]
            assert (await ws.receive_json())["t"] == "RESUMED"
            assert fake.sessions == [zero] and zero.connected and zero.shard == (0, SHARDS)


async def test_gateway_bot_tells_the_url_and_the_shard_count(discord_at: Any) -> None:
    guilds = [guild_on_shard(0, 2), guild_on_shard(1, 2)]
    async with serving(guilds=guilds) as fake:
        fake.recommended_shards = 2
        status, answer = await rest(fake, "GET", "/gateway/bot")
        assert status == 200
        assert answer == {
            "url": fake.gateway_url,
            "shards": 2,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }
        assert await rest(fake, "GET", "/gateway") == (200, {"url": fake.gateway_url})
        # An AutoShardedClient without a shard count asks, and connects to the url it is given
        # (its default gateway here leads nowhere).
        discord_at(fake)
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:9/gateway")
        client = ShardedClient(None, shard_count=None)
        async with running(client):
            assert len(fake.find_requests("GET", r"/gateway/bot")) == 2  # the test's, the client's
            assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
            assert {s.shard for s in fake.sessions} == {(0, 2), (1, 2)}
            assert {str(g.id) for g in client.guilds} == {guilds[0].id, guilds[1].id}


async def test_interactions_in_another_guild_are_that_guilds(tmp_path: Path) -> None:
    guilds = [Guild(), *four_guilds()]
    primary, other = guilds[0], guilds[3]  # other: shard 2, with members of its own
    other.locale = "fr"
    async with serving(guilds=guilds) as fake:
        assert fake.guild is primary and fake.guilds == guilds
        general = other.channel_id("general")
        owner, member = other.owner_id, other.user_id("bob.2.0")
        assert fake.guild_of(general) is other and fake.guild_of(GENERAL) is primary
        # Commands: per guild for a guild the bot is in; global ones everywhere.
        app = fake.application_id
        status, _ = await rest(
            fake,
            "PUT",
            f"/applications/{app}/guilds/{other.id}/commands",
            [{"name": "move", "description": "Move", "type": 1}],
        )
        assert status == 200
        status, error = await rest(fake, "PUT", f"/applications/{app}/guilds/42/commands", [])
        assert (status, error["code"]) == (403, 50001)
        fake.refusals.clear()
        status, (global_help,) = await rest(
            fake,
            "PUT",
            f"/applications/{app}/commands",
            [{"name": "help", "description": "Help", "type": 1}],
        )
        assert status == 200

        move = fake.command_interaction("move", user_id=owner, channel_id=general)
        assert move["guild_id"] == other.id and move["guild_locale"] == "fr"
        assert move["guild"] == {"id": other.id, "locale": "fr", "features": []}
        assert move["authorizing_integration_owners"] == {"0": other.id}
        assert move["channel"]["guild_id"] == other.id and move["channel_id"] == general
        assert move["member"]["user"]["username"] == "alice.2.0"
        assert move["member"]["roles"] == [other.extra_role_id]
        assert move["member"]["permissions"] == ALL_PERMISSIONS  # the owner moderates
        (registered,) = fake.commands[other.id]
        assert move["data"]["id"] == registered["id"] and move["data"]["guild_id"] == other.id
        by_member = fake.command_interaction("help", user_id=member, channel_id=general)
        assert by_member["member"]["permissions"] == MEMBER_PERMISSIONS
        assert by_member["data"]["id"] == global_help["id"] and "guild_id" not in by_member["data"]
        # The primary guild has no "move" of its own: a fresh id, no guild_id.
        here = fake.command_interaction("move", user_id=ALICE, channel_id=GENERAL)
        assert here["guild_id"] == primary.id and "guild_id" not in here["data"]
        assert here["data"]["id"] != registered["id"]
        # The default user is the channel's guild's; someone from elsewhere cannot be there.
        assert fake.command_interaction("help", channel_id=general)["member"]["user"]["id"] == (
            owner
        )
        with pytest.raises(ValueError, match="not a member of guild"):
            fake.command_interaction("help", user_id=CAROL, channel_id=general)
        complete = fake.autocomplete_interaction(
            "move", [{"name": "move", "type": 3, "value": "1"}], "move", channel_id=general
        )
        assert complete["guild_id"] == other.id and complete["type"] == 4

        # Messages, threads and components in that guild's channel are that guild's.
        status, posted = await rest(
            fake,
            "POST",
            f"/channels/{general}/messages",
            {"content": "m", "components": board_components()},
        )
        assert status == 200 and posted["guild_id"] == other.id
        press = fake.button_interaction("go", posted["id"], user_id=member)
        pick = fake.select_interaction("pick", posted["id"], ["a"])
        for payload in (press, pick):
            assert payload["guild_id"] == other.id and payload["guild_locale"] == "fr"
            assert payload["authorizing_integration_owners"] == {"0": other.id}
        assert pick["member"]["user"]["id"] == owner
        assert fake.component_interaction("go", posted["id"], user_id=member)["guild_id"] == (
            other.id
        )
        status, thread = await rest(
            fake, "POST", f"/channels/{general}/threads", {"name": "t", "type": 11}
        )
        assert status == 200 and thread["guild_id"] == other.id
        assert fake.guild_of(thread["id"]) is other
        in_thread = fake.command_interaction("help", user_id=member, channel_id=thread["id"])
        assert in_thread["guild_id"] == other.id
        assert fake.channel_object(general)["guild_id"] == other.id
        assert fake.guild_payload(other)["id"] == other.id
        assert [m["user"]["id"] for m in fake.member_objects(other)][1:] == list(other.users)

        # A user shared by two guilds, as on Discord; users of any guild are known.
        shared = guilds[1]
        assert ALICE in shared.users and ALICE in primary.users
        in_shared = fake.command_interaction(
            "help", user_id=ALICE, channel_id=shared.channel_id("general")
        )
        assert in_shared["guild_id"] == shared.id and in_shared["member"]["user"]["id"] == ALICE
        assert (await rest(fake, "GET", f"/users/{member}"))[1]["username"] == "bob.2.0"
        status, dm = await rest(fake, "POST", "/users/@me/channels", {"recipient_id": member})
        assert status == 200 and dm["recipients"][0]["username"] == "bob.2.0"
        dm_command = fake.command_interaction("help", channel_id=dm["id"])
        assert dm_command["user"]["id"] == member and "guild_id" not in dm_command
        assert dm_command["data"]["id"] == global_help["id"]

        # The harness's users act in whichever guild the channel is in.
        users = Users(fake, BotProcess(fake, tmp_path))
        sent = await users.command(
            "move", owner, general, opponent=e2e_user(member), where=e2e_user(ALICE)
        )
        assert sent.payload["guild_id"] == other.id
        resolved = sent.payload["data"]["resolved"]
        assert resolved["members"][member]["roles"] == []
        assert set(resolved["users"]) == {member, ALICE}
        assert ALICE not in resolved["members"]  # not a member of that guild
        pressed = await users.press("go", posted["id"], member)
        assert pressed.payload["guild_id"] == other.id
        chosen = await users.select("pick", posted["id"], owner, ["b"])
        assert chosen.payload["guild_id"] == other.id
        assert fake.undelivered[-3:] == [sent.payload, pressed.payload, chosen.payload]


def test_guilds_on_shards_have_ids_of_their_own() -> None:
    made = [
        guild_on_shard(shard, count, index)
        for count in (1, 2, 3, 4, 16)
        for shard in range(count)
        for index in range(3)
    ]
    ids = [Guild().id, *Guild().channels, *Guild().users, Guild().extra_role_id]
    for guild in made:
        count = int(guild.id) >> 12 & 0x3FF
        assert (int(guild.id) >> 22) % count == guild.shard(count) == shard_of(guild.id, count)
        ids += [guild.id, *guild.channels, *guild.users, guild.extra_role_id]
    assert len(ids) == len(set(ids))  # no id used twice, the primary guild's included
    assert all(int(i) < (int(time.time() * 1000) - 1420070400000) << 22 for i in ids)
    assert [guild_on_shard(s, 4).shard(4) for s in range(4)] == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        guild_on_shard(4, 4)
    with pytest.raises(ValueError):
        guild_on_shard(0, 0)
    with pytest.raises(ValueError, match="both"):
        FakeDiscord(guilds=[Guild(), Guild()])
    with pytest.raises(ValueError, match="not both"):
        FakeDiscord(guild=Guild(), guilds=[Guild()])
    # A guild= of its own is the primary guild, alone.
    only = guild_on_shard(1, 2)
    fake = FakeDiscord(guild=only)
    assert fake.guild is only and fake.guilds == [only]
