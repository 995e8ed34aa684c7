"""The bot's contract with Discord: its whole synced command payload passes Discord's
documented limits (``tests/support/discord_limits.py``) and the request-body schema of Discord's
OpenAPI description (``tests/support/openapi_check.py``); each check catches a deliberate violation;
and the spec is found the documented ways (environment, ``../shared``, beside a clone's origin)."""

from __future__ import annotations

import asyncio
import copy
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import discord_limits as limits
from support import openapi_check

from bot.config import Settings
from bot.service import GameService
from bot.ui.client import DraughtsBot

GUILD_COMMANDS = "/applications/1100000000000000010/guilds/1100000000000000001/commands"
GLOBAL_COMMANDS = "/applications/1100000000000000010/commands"
needs_spec = pytest.mark.skipif(not openapi_check.available(), reason=openapi_check.SKIP_REASON)


async def synced_payload(service: GameService) -> list[dict[str, Any]]:
    """The commands exactly as ``CommandTree.sync`` sends them (built as the client builds
    them; the same construction as the payload pinned in ``tests/ui/test_bot_ui.py``)."""
    bot = DraughtsBot(Settings())
    try:
        await bot.add_commands(service)
        return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await asyncio.to_thread(bot.media.close)


async def test_the_synced_commands_keep_to_the_documented_limits(service: GameService) -> None:
    payload = await synced_payload(service)
    assert len(payload) > 10
    assert limits.check_commands(payload) == []
    assert all(limits.command_size(c) <= 4000 for c in payload)


@needs_spec
@pytest.mark.parametrize("path", [GUILD_COMMANDS, GLOBAL_COMMANDS])
async def test_the_synced_commands_match_discords_openapi(service: GameService, path: str) -> None:
    payload = await synced_payload(service)
    assert openapi_check.validate("PUT", path, payload) == []


def _set(command: str, option: str, **changes: Any) -> Callable[[list[dict[str, Any]]], None]:
    def mutate(payload: list[dict[str, Any]]) -> None:
        found = next(c for c in payload if c["name"] == command)
        target = next(o for o in found["options"] if o["name"] == option)
        target.update(changes)

    return mutate


def _command(which: str, /, **changes: Any) -> Callable[[list[dict[str, Any]]], None]:
    def mutate(payload: list[dict[str, Any]]) -> None:
        next(c for c in payload if c["name"] == which).update(changes)

    return mutate


def _many_choices(payload: list[dict[str, Any]]) -> None:
    _set("challenge", "variant", choices=[{"name": f"v{i}", "value": f"v{i}"} for i in range(26)])(
        payload
    )


def _duplicate(payload: list[dict[str, Any]]) -> None:
    payload.append(copy.deepcopy(payload[0]))


# (what, mutation, caught by the OpenAPI schema too)
VIOLATIONS = [
    ("the 2**53 game id bound", _set("pdn", "game", max_value=2**53), True),
    ("an upper-case command name", _command("help", name="Help"), False),
    ("a 33-character name", _command("help", name="h" * 33), True),
    ("a 101-character description", _command("help", description="d" * 101), True),
    ("26 choices", _many_choices, True),
    (
        "autocomplete with choices",
        _set("move", "move", autocomplete=True, choices=[{"name": "a", "value": "a"}]),
        False,
    ),
    ("a max_length past 6000", _set("move", "move", max_length=6001), True),
    ("a required option after an optional one", _set("challenge", "level", required=True), False),
    ("two commands of one name", _duplicate, False),
]


@pytest.mark.parametrize(
    ("what", "mutate", "schema_too"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS]
)
async def test_each_check_catches_a_deliberate_violation(
    service: GameService,
    what: str,
    mutate: Callable[[list[dict[str, Any]]], None],
    schema_too: bool,
) -> None:
    payload = await synced_payload(service)
    mutate(payload)
    assert limits.check_commands(payload) != [], what
    if schema_too and openapi_check.available():
        assert openapi_check.validate("PUT", GUILD_COMMANDS, payload) != [], what


@needs_spec
def test_the_schema_check_knows_message_routes() -> None:
    ok = {"content": "hi", "allowed_mentions": {"users": [1100000000000000102], "parse": []}}
    assert openapi_check.validate("POST", "/channels/1/messages", ok) == []
    assert openapi_check.validate("POST", "/channels/1/messages", {"content": 5}) != []
    assert openapi_check.validate("POST", "/channels/1/messages", {"embeds": "x"}) != []
    callback = "/interactions/1/tok/callback"
    assert openapi_check.validate("POST", callback, {"type": 8, "data": {"choices": []}}) == []
    assert openapi_check.validate("POST", callback, {"type": 99}) != []
    edit = "/webhooks/1/tok/messages/@original"
    assert (
        openapi_check.template_for(edit)
        == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert openapi_check.validate("PATCH", edit, {"content": "x"}) == []
    assert openapi_check.validate("GET", "/users/@me", None) == []  # no body, nothing to check


# -- finding the spec ---------------------------------------------------------------------------


def _spec_at(root: Path) -> Path:
    spec = root / "shared" / "discord-api-spec" / "openapi.json"
    spec.parent.mkdir(parents=True)
    spec.write_text("{}")
    return spec


def test_the_environment_names_the_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _spec_at(tmp_path)
    monkeypatch.setenv(openapi_check.ENV_VAR, str(spec))
    assert openapi_check.locate(tmp_path / "nowhere") == spec
    monkeypatch.setenv(openapi_check.ENV_VAR, str(tmp_path / "missing.json"))
    with pytest.raises(openapi_check.SpecMissing):
        openapi_check.locate(tmp_path / "nowhere")


def test_the_spec_beside_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(openapi_check.ENV_VAR, raising=False)
    spec = _spec_at(tmp_path)
    (tmp_path / "main").mkdir()
    assert openapi_check.locate(tmp_path / "main") == spec


def test_the_spec_beside_a_clones_origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(openapi_check.ENV_VAR, raising=False)
    spec = _spec_at(tmp_path / "work")
    origin = tmp_path / "work" / "main"
    clone = tmp_path / "ci" / "clone"
    for repo in (origin, clone):
        repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(clone), "remote", "add", "origin", str(origin)], check=True)
    assert openapi_check.locate(clone) == spec
    subprocess.run(
        ["git", "-C", str(clone), "remote", "set-url", "origin", "https://example.invalid/x.git"],
        check=True,
    )
    assert openapi_check.locate(clone) is None  # a network remote is never looked at
