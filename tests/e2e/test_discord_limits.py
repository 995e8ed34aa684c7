"""Each documented Discord limit of ``tests/support/discord_limits.py``: the value at the limit is
accepted and the first one past it refused; then the same checks through the fake's HTTP
answers (Discord's error codes and ``errors`` object, violations recorded, ``enforce_nonce``)."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters
from support import discord_limits as limits
from support import openapi_check
from support.fake_discord import ATTACHMENT_SIZE_LIMIT, FakeDiscord

MAX = 2**53 - 1


def command(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "game",
        "type": 1,
        "description": "Play",
        "options": [
            {"name": "id", "type": 4, "description": "Game id", "required": True},
            {"name": "move", "type": 3, "description": "A move"},
        ],
    }
    return {**base, **changes}


def option(**changes: Any) -> list[dict[str, Any]]:
    return [{"name": "opt", "type": 3, "description": "An option", **changes}]


def button(**changes: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": "go", **changes}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(n: int, **changes: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": "pick", "options": options, **changes}


def opt(value: str = "v", **changes: Any) -> dict[str, Any]:
    return {"label": value or "l", "value": value, **changes}


def menu(component: dict[str, Any]) -> list[Problem]:
    """Problems of a message holding this one select menu."""
    return limits.check_message({"components": [row(component)]}, kind="create")


def attached(**changes: Any) -> dict[str, Any]:
    entry = {"id": 0, "filename": "board.png", **changes}
    return {"content": "x", "attachments": [{k: v for k, v in entry.items() if v is not None}]}


def embed_with(**changes: Any) -> dict[str, Any]:
    return {"content": "x", "embeds": [{"title": "t", **changes}]}


def unique_buttons(n: int) -> list[dict[str, Any]]:
    return [button(custom_id=f"b{i}") for i in range(n)]


def rows(n: int) -> list[dict[str, Any]]:
    return [row(button(custom_id=f"r{i}")) for i in range(n)]


def cmd(**changes: Any) -> list[Problem]:
    return limits.check_commands([command(**changes)])


def msg(body: dict[str, Any], kind: str = "create") -> list[Problem]:
    return limits.check_message(body, kind=kind)


Problem = limits.Problem

# (what, accepted at the limit, refused past it)
CASES: list[tuple[str, Callable[[], list[Problem]], Callable[[], list[Problem]]]] = [
    ("command name length", lambda: cmd(name="a" * 32), lambda: cmd(name="a" * 33)),
    ("command name charset", lambda: cmd(name="जीत-ไทย_1"), lambda: cmd(name="two words")),
    ("chat-input name lowercase", lambda: cmd(name="move"), lambda: cmd(name="Move")),
    (
        "context menu names",
        lambda: cmd(type=2, name="Show Stats", description="", options=None),
        lambda: cmd(type=2, name="Show Stats", description="no"),
    ),
    ("command description", lambda: cmd(description="d" * 100), lambda: cmd(description="d" * 101)),
    ("empty description", lambda: cmd(description="d"), lambda: cmd(description="")),
    (
        "options per command",
        lambda: cmd(options=[{"name": f"o{i}", "type": 5, "description": "x"} for i in range(25)]),
        lambda: cmd(options=[{"name": f"o{i}", "type": 5, "description": "x"} for i in range(26)]),
    ),
    (
        "option name",
        lambda: cmd(options=option(name="o" * 32)),
        lambda: cmd(options=option(name="Opt")),
    ),
    (
        "option description",
        lambda: cmd(options=option(description="d" * 100)),
        lambda: cmd(options=option(description="d" * 101)),
    ),
    ("required first", lambda: cmd(), lambda: cmd(options=list(reversed(command()["options"])))),
    (
        "choices",
        lambda: cmd(
            options=option(choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(25)])
        ),
        lambda: cmd(
            options=option(choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(26)])
        ),
    ),
    (
        "choice name",
        lambda: cmd(options=option(choices=[{"name": "n" * 100, "value": "v"}])),
        lambda: cmd(options=option(choices=[{"name": "n" * 101, "value": "v"}])),
    ),
    (
        "string choice value",
        lambda: cmd(options=option(choices=[{"name": "n", "value": "v" * 100}])),
        lambda: cmd(options=option(choices=[{"name": "n", "value": "v" * 101}])),
    ),
    (
        "integer bounds",
        lambda: cmd(options=option(type=4, min_value=-MAX, max_value=MAX)),
        lambda: cmd(options=option(type=4, min_value=1, max_value=MAX + 1)),
    ),
    (
        "number bounds",
        lambda: cmd(options=option(type=10, min_value=-MAX, max_value=0.5)),
        lambda: cmd(options=option(type=10, min_value=-MAX - 1)),
    ),
    (
        "integer choice value",
        lambda: cmd(options=option(type=4, choices=[{"name": "n", "value": MAX}])),
        lambda: cmd(options=option(type=4, choices=[{"name": "n", "value": MAX + 1}])),
    ),
    (
        "string lengths",
        lambda: cmd(options=option(min_length=0, max_length=6000)),
        lambda: cmd(options=option(max_length=6001)),
    ),
    (
        "autocomplete without choices",
        lambda: cmd(options=option(autocomplete=True)),
        lambda: cmd(options=option(autocomplete=True, choices=[{"name": "n", "value": "v"}])),
    ),
    (
        "subcommands not mixed",
        lambda: cmd(
            options=[
                {"name": "a", "type": 1, "description": "x"},
                {
                    "name": "b",
                    "type": 2,
                    "description": "x",
                    "options": [{"name": "c", "type": 1, "description": "x"}],
                },
            ]
        ),
        lambda: cmd(
            options=[
                {"name": "a", "type": 1, "description": "x"},
                {"name": "b", "type": 3, "description": "x"},
            ]
        ),
    ),
    (
        "group holds subcommands only",
        lambda: cmd(
            options=[
                {
                    "name": "g",
                    "type": 2,
                    "description": "x",
                    "options": [{"name": "s", "type": 1, "description": "x"}],
                }
            ]
        ),
        lambda: cmd(
            options=[
                {
                    "name": "g",
                    "type": 2,
                    "description": "x",
                    "options": [{"name": "s", "type": 2, "description": "x"}],
                }
            ]
        ),
    ),
    (
        "name localizations",
        lambda: cmd(name_localizations={"de": "spiel"}),
        lambda: cmd(name_localizations={"de": "Spiel"}),
    ),
    (
        "command size 4000",
        lambda: cmd(
            options=[
                {
                    "name": f"o{i}",
                    "type": 3,
                    "description": "d" * 100,
                    "choices": [{"name": "n" * 39, "value": str(i)}],
                }
                for i in range(25)
            ]
        ),
        lambda: cmd(
            options=[
                {
                    "name": f"o{i}",
                    "type": 3,
                    "description": "d" * 100,
                    "choices": [{"name": "n" * 60, "value": str(i)}],
                }
                for i in range(25)
            ]
        ),
    ),
    (
        "unique command names",
        lambda: limits.check_commands([command(), command(name="other")]),
        lambda: limits.check_commands([command(), command()]),
    ),
    (
        "100 chat-input commands",
        lambda: limits.check_commands([command(name=f"c{i}") for i in range(100)]),
        lambda: limits.check_commands([command(name=f"c{i}") for i in range(101)]),
    ),
    ("content", lambda: msg({"content": "c" * 2000}), lambda: msg({"content": "c" * 2001})),
    (
        "embeds per message",
        lambda: msg({"embeds": [{"title": "t"}] * 10}),
        lambda: msg({"embeds": [{"title": "t"}] * 11}),
    ),
    (
        "embed title",
        lambda: msg(embed_with(title="t" * 256)),
        lambda: msg(embed_with(title="t" * 257)),
    ),
    (
        "embed description",
        lambda: msg(embed_with(description="d" * 4096)),
        lambda: msg(embed_with(description="d" * 4097)),
    ),
    (
        "embed fields",
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v"}] * 25)),
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v"}] * 26)),
    ),
    (
        "field name",
        lambda: msg(embed_with(fields=[{"name": "n" * 256, "value": "v"}])),
        lambda: msg(embed_with(fields=[{"name": "n" * 257, "value": "v"}])),
    ),
    (
        "field name not empty",
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v"}])),
        lambda: msg(embed_with(fields=[{"name": "", "value": "v"}])),
    ),
    (
        "field value",
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v" * 1024}])),
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v" * 1025}])),
    ),
    (
        "field value not empty",
        lambda: msg(embed_with(fields=[{"name": "n", "value": "v"}])),
        lambda: msg(embed_with(fields=[{"name": "n", "value": ""}])),
    ),
    (
        "footer text",
        lambda: msg(embed_with(footer={"text": "f" * 2048})),
        lambda: msg(embed_with(footer={"text": "f" * 2049})),
    ),
    (
        "author name",
        lambda: msg(embed_with(author={"name": "a" * 256})),
        lambda: msg(embed_with(author={"name": "a" * 257})),
    ),
    (
        "6000 across embeds",
        lambda: msg({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2000}]}),
        lambda: msg({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}),
    ),
    ("action rows", lambda: msg({"components": rows(5)}), lambda: msg({"components": rows(6)})),
    (
        "buttons per row",
        lambda: msg({"components": [row(*unique_buttons(5))]}),
        lambda: msg({"components": [row(*unique_buttons(6))]}),
    ),
    (
        "select alone in its row",
        lambda: msg({"components": [row(select(3))]}),
        lambda: msg({"components": [row(select(3), button())]}),
    ),
    (
        "custom_id length",
        lambda: msg({"components": [row(button(custom_id="c" * 100))]}),
        lambda: msg({"components": [row(button(custom_id="c" * 101))]}),
    ),
    (
        "custom_id unique",
        lambda: msg({"components": [row(*unique_buttons(2))]}),
        lambda: msg({"components": [row(button(), button())]}),
    ),
    (
        "button label",
        lambda: msg({"components": [row(button(label="l" * 80))]}),
        lambda: msg({"components": [row(button(label="l" * 81))]}),
    ),
    (
        "select options",
        lambda: msg({"components": [row(select(25))]}),
        lambda: msg({"components": [row(select(26))]}),
    ),
    (
        "select option label",
        lambda: msg(
            {
                "components": [
                    row(
                        select(
                            1,
                            options=[{"label": "l" * 100, "value": "v", "description": "d" * 100}],
                        )
                    )
                ]
            }
        ),
        lambda: msg({"components": [row(select(1, options=[{"label": "l" * 101, "value": "v"}]))]}),
    ),
    (
        "placeholder",
        lambda: msg({"components": [row(select(2, placeholder="p" * 150))]}),
        lambda: msg({"components": [row(select(2, placeholder="p" * 151))]}),
    ),
    (
        "allowed_mentions shape",
        lambda: msg(
            {
                "content": "x",
                "allowed_mentions": {"parse": ["roles"], "users": ["1"], "replied_user": False},
            }
        ),
        lambda: msg({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}),
    ),
    (
        "allowed_mentions parse values",
        lambda: msg({"content": "x", "allowed_mentions": {"parse": []}}),
        lambda: msg({"content": "x", "allowed_mentions": {"parse": ["here"]}}),
    ),
    ("empty message", lambda: msg({"content": "x"}), lambda: msg({"content": "", "embeds": []})),
    (
        "empty follow-up",
        lambda: msg({"components": rows(1)}, "followup"),
        lambda: msg({"content": "   "}, "followup"),
    ),
    (
        "edits may be empty",
        lambda: msg({"content": ""}, "edit"),
        lambda: msg({"content": "c" * 2001}, "edit"),
    ),
    (
        "files",
        lambda: limits.check_message(
            {}, kind="create", files=[("a", ATTACHMENT_SIZE_LIMIT // 10)] * 10
        ),
        lambda: limits.check_message({}, kind="create", files=[("a", 1)] * 11),
    ),
    (
        "file sizes",
        lambda: limits.check_message({}, kind="create", files=[("a", ATTACHMENT_SIZE_LIMIT)]),
        lambda: limits.check_message(
            {}, kind="create", files=[("a", ATTACHMENT_SIZE_LIMIT // 2 + 1)] * 2
        ),
    ),
    (
        "channel message flags",
        lambda: msg({"content": "x", "flags": 4 | 4096}),
        lambda: msg({"content": "x", "flags": 64}),
    ),
    (
        "ephemeral follow-up",
        lambda: msg({"content": "x", "flags": 64}, "followup"),
        lambda: msg({"content": "x", "flags": 1 << 1}, "followup"),
    ),
    (
        "edit flags",
        lambda: limits.check_message({"flags": 4}, kind="edit", old_flags=0),
        lambda: limits.check_message({"flags": 0}, kind="edit", old_flags=64),
    ),
    (
        "components v2 forbid content",
        lambda: msg({"flags": 1 << 15, "components": [{"type": 10, "content": "text"}]}),
        lambda: msg(
            {"flags": 1 << 15, "content": "x", "components": [{"type": 10, "content": "text"}]}
        ),
    ),
    (
        "nonce",
        lambda: msg({"content": "x", "nonce": "n" * 25, "enforce_nonce": True}),
        lambda: msg({"content": "x", "nonce": "n" * 26, "enforce_nonce": True}),
    ),
    (
        "autocomplete choices",
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": "v"}] * 25}, 3),
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": "v"}] * 26}, 3),
    ),
    (
        "autocomplete choice name",
        lambda: limits.check_autocomplete({"choices": [{"name": "n" * 100, "value": "v"}]}, 3),
        lambda: limits.check_autocomplete({"choices": [{"name": "", "value": "v"}]}, 3),
    ),
    (
        "autocomplete string value",
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": "v" * 100}]}, 3),
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": "v" * 101}]}, 3),
    ),
    (
        "autocomplete value type",
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": 7}]}, 4),
        lambda: limits.check_autocomplete({"choices": [{"name": "n", "value": "7"}]}, 4),
    ),
    (
        "autocomplete answers autocomplete",
        lambda: limits.check_callback({"type": 8, "data": {"choices": []}}, interaction_type=4),
        lambda: limits.check_callback({"type": 4, "data": {"content": "x"}}, interaction_type=4),
    ),
    (
        "update only for components",
        lambda: limits.check_callback({"type": 7, "data": {"content": "x"}}, interaction_type=3),
        lambda: limits.check_callback({"type": 7, "data": {"content": "x"}}, interaction_type=2),
    ),
    (
        "deferred update only for components",
        lambda: limits.check_callback({"type": 6}, interaction_type=3),
        lambda: limits.check_callback({"type": 6}, interaction_type=2),
    ),
    (
        "no modal for autocomplete",
        lambda: limits.check_callback(
            {"type": 9, "data": {"custom_id": "m", "title": "t", "components": rows(1)}},
            interaction_type=2,
        ),
        lambda: limits.check_callback(
            {"type": 9, "data": {"custom_id": "m", "title": "t", "components": rows(1)}},
            interaction_type=4,
        ),
    ),
    (
        "callback message flags",
        lambda: limits.check_callback(
            {"type": 4, "data": {"content": "x", "flags": 64 | 4 | 4096}}, interaction_type=2
        ),
        lambda: limits.check_callback(
            {"type": 4, "data": {"content": "x", "flags": 1 << 8}}, interaction_type=2
        ),
    ),
    (
        "thread name",
        lambda: limits.check_thread({"name": "n" * 100}),
        lambda: limits.check_thread({"name": "n" * 101}),
    ),
    # -- select menus ----------------------------------------------------------------------------
    ("select needs an option", lambda: menu(select(1)), lambda: menu(select(0))),
    (
        "select custom_id",
        lambda: menu(select(2, custom_id="c" * 100)),
        lambda: menu(select(2, custom_id="c" * 101)),
    ),
    ("select custom_id not empty", lambda: menu(select(2)), lambda: menu(select(2, custom_id=""))),
    (
        "select option value",
        lambda: menu(select(1, options=[opt(value="v" * 100)])),
        lambda: menu(select(1, options=[opt(value="v" * 101)])),
    ),
    (
        "select option value not empty",
        lambda: menu(select(1, options=[opt(value="v")])),
        lambda: menu(select(1, options=[opt(value="")])),
    ),
    (
        "select option label not empty",
        lambda: menu(select(1, options=[opt(label="l")])),
        lambda: menu(select(1, options=[opt(label="")])),
    ),
    (
        "select option description",
        lambda: menu(select(1, options=[opt(description="d" * 100)])),
        lambda: menu(select(1, options=[opt(description="d" * 101)])),
    ),
    (
        "select option values unique",
        lambda: menu(select(2)),
        lambda: menu(select(2, options=[opt(label="a"), opt(label="b")])),
    ),
    (
        "select min_values",
        lambda: menu(select(25, min_values=25, max_values=25)),
        lambda: menu(select(25, min_values=26, max_values=25)),
    ),
    (
        "select min_values not negative",
        lambda: menu(select(2, min_values=0)),
        lambda: menu(select(2, min_values=-1)),
    ),
    (
        "select max_values",
        lambda: menu(select(25, max_values=25)),
        lambda: menu(select(25, max_values=26)),
    ),
    (
        "select max_values at least 1",
        lambda: menu(select(2)),
        lambda: menu(select(2, max_values=0)),
    ),
    (
        "select min_values not above max_values",
        lambda: menu(select(3, min_values=2, max_values=2)),
        lambda: menu(select(3, min_values=2)),  # max_values defaults to 1
    ),
    (
        "select max_values within the options",
        lambda: menu(select(3, max_values=3)),
        lambda: menu(select(3, max_values=4)),
    ),
    (
        "select min_values within the options",
        lambda: menu(select(3, min_values=3, max_values=3)),
        lambda: menu(select(2, min_values=3, max_values=3)),
    ),
    (
        "select defaults within max_values",
        lambda: menu(select(3, options=[opt("a", default=True), opt("b"), opt("c")])),
        lambda: menu(select(3, options=[opt("a", default=True), opt("b", default=True)])),
    ),
    (
        "select default is a boolean",
        lambda: menu(select(1, options=[opt(default=False)])),
        lambda: menu(select(1, options=[opt(default="yes")])),
    ),
    (
        "select disabled is a boolean",
        lambda: menu(select(2, disabled=True)),
        lambda: menu(select(2, disabled=1)),
    ),
    (
        "select option emoji",
        lambda: menu(select(1, options=[opt(emoji={"id": None, "name": "⛀"})])),
        lambda: menu(select(1, options=[opt(emoji={"name": "⛀", "url": "x"})])),
    ),
    (
        "custom emoji",
        lambda: menu(select(1, options=[opt(emoji={"id": "123", "name": "m", "animated": True})])),
        lambda: menu(select(1, options=[opt(emoji={"id": "twelve", "name": "m"})])),
    ),
    (
        "emoji name",
        lambda: menu(select(1, options=[opt(emoji={"name": "e" * 32})])),
        lambda: menu(select(1, options=[opt(emoji={"name": "e" * 33})])),
    ),
    (
        "emoji needs a name",
        lambda: menu(select(1, options=[opt(emoji={"name": "⛀"})])),
        lambda: menu(select(1, options=[opt(emoji={"id": "123"})])),
    ),
    (
        "button emoji",
        lambda: msg({"components": [row(button(emoji={"name": "⛀"}, label=None))]}),
        lambda: msg({"components": [row(button(emoji="⛀"))]}),
    ),
    (
        "select options in an update",
        lambda: limits.check_callback(
            {"type": 7, "data": {"components": [row(select(25))]}}, interaction_type=3
        ),
        lambda: limits.check_callback(
            {"type": 7, "data": {"components": [row(select(26))]}}, interaction_type=3
        ),
    ),
    (
        "select options in an ephemeral reply",
        lambda: limits.check_callback(
            {"type": 4, "data": {"flags": 64, "components": [row(select(25))]}}, interaction_type=3
        ),
        lambda: limits.check_callback(
            {
                "type": 4,
                "data": {"flags": 64, "components": [row(select(2, placeholder="p" * 151))]},
            },
            interaction_type=3,
        ),
    ),
    # -- interaction callbacks for components ------------------------------------------------------
    (
        "components take a reply or a deferral",
        lambda: (
            limits.check_callback({"type": 4, "data": {"content": "x"}}, interaction_type=3)
            + limits.check_callback({"type": 5, "data": {"flags": 64}}, interaction_type=3)
        ),
        lambda: limits.check_callback({"type": 8, "data": {"choices": []}}, interaction_type=3),
    ),
    (
        "no update for autocomplete",
        lambda: limits.check_callback({"type": 8, "data": {"choices": []}}, interaction_type=4),
        lambda: limits.check_callback({"type": 6}, interaction_type=4),
    ),
    (
        "an update keeps the ephemeral flag",
        lambda: limits.check_callback(
            {"type": 7, "data": {"content": "x", "flags": 64}},
            interaction_type=3,
            message_flags=64,
        ),
        lambda: limits.check_callback(
            {"type": 7, "data": {"content": "x", "flags": 0}},
            interaction_type=3,
            message_flags=64,
        ),
    ),
    # -- attachments -------------------------------------------------------------------------------
    (
        "attachment alt text",
        lambda: msg(attached(description="d" * 1024)),
        lambda: msg(attached(description="d" * 1025)),
    ),
    (
        "attachment alt text is a string",
        lambda: msg(attached(description="A board")),
        lambda: msg(attached(description=5)),
    ),
    (
        "attachment filename",
        lambda: msg(attached(filename="f" * 1024)),
        lambda: msg(attached(filename="")),
    ),
    ("attachment id", lambda: msg(attached()), lambda: msg(attached(id=None))),
    (
        "attachments per message",
        lambda: msg({"content": "x", "attachments": [{"id": i} for i in range(10)]}),
        lambda: msg({"content": "x", "attachments": [{"id": i} for i in range(11)]}),
    ),
    (
        "attachment alt text in a callback",
        lambda: limits.check_callback(
            {"type": 4, "data": attached(description="d" * 1024)},
            interaction_type=2,
            files=[("board.png", 10)],
        ),
        lambda: limits.check_callback(
            {"type": 4, "data": attached(description="d" * 1025)},
            interaction_type=2,
            files=[("board.png", 10)],
        ),
    ),
    (
        "attachment alt text in an edit",
        lambda: msg(attached(description="d" * 1024), "edit"),
        lambda: msg(attached(description="d" * 1025), "edit"),
    ),
]


@pytest.mark.parametrize(("what", "accepted", "refused"), CASES, ids=[c[0] for c in CASES])
def test_limit(
    what: str,
    accepted: Callable[[], list[Problem]],
    refused: Callable[[], list[Problem]],
) -> None:
    assert accepted() == [], what
    assert refused() != [], what


def test_errors_object_nests_like_the_request() -> None:
    problems = msg({"content": "c" * 2001, "embeds": [{"title": "t" * 257}]})
    status, code, message, errors = limits.refusal(problems)
    assert (status, code, message) == (400, 50035, "Invalid Form Body")
    assert errors == {
        "content": {
            "_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
            ]
        },
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                }
            }
        },
    }


# -- through the fake's HTTP answers ------------------------------------------------------------

GENERAL = "1100000000000000201"


async def post(fake: FakeDiscord, path: str, body: Any) -> tuple[int, Any]:
    url = fake.api_base + path
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json()


async def test_the_fake_refuses_and_records_a_broken_limit(fake: FakeDiscord) -> None:
    status, answer = await post(fake, f"/channels/{GENERAL}/messages", {"content": "c" * 2001})
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert "content" in answer["errors"]
    assert len(fake.violations) == 1 and fake.violations[0].path == f"/channels/{GENERAL}/messages"
    assert fake.messages == {}
    status, answer = await post(fake, f"/channels/{GENERAL}/messages", {"content": "c" * 2000})
    assert status == 200 and answer["content"] == "c" * 2000
    fake.violations.clear()  # seen; the fixture fails any test that leaves one behind


async def test_the_fake_refuses_an_empty_message(fake: FakeDiscord) -> None:
    status, answer = await post(fake, f"/channels/{GENERAL}/messages", {"content": ""})
    assert (status, answer["code"]) == (400, 50006)
    assert answer["message"] == "Cannot send an empty message"
    assert len(fake.violations) == 1
    fake.violations.clear()


async def test_the_fake_refuses_oversized_files(fake: FakeDiscord) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "x"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (ATTACHMENT_SIZE_LIMIT + 1), filename="big.bin")
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/channels/{GENERAL}/messages"
        async with session.post(url, data=form) as response:
            assert response.status == 413 and (await response.json())["code"] == 40005
    assert len(fake.violations) == 1
    fake.violations.clear()


async def test_enforce_nonce_makes_a_repeated_post_return_the_first(fake: FakeDiscord) -> None:
    body = {"content": "once", "nonce": "event-42", "enforce_nonce": True}
    path = f"/channels/{GENERAL}/messages"
    _, first = await post(fake, path, body)
    _, again = await post(fake, path, {**body, "content": "twice"})
    assert again["id"] == first["id"] and again["content"] == "once"
    assert len(fake.messages) == 1
    # Without enforce_nonce, or in another channel, or after the window, a new message.
    _, other = await post(fake, path, {"content": "plain", "nonce": "event-42"})
    _, elsewhere = await post(fake, "/channels/1100000000000000202/messages", body)
    fake.nonce_window = 0.0
    _, later = await post(fake, path, body)
    assert len({first["id"], other["id"], elsewhere["id"], later["id"]}) == 4
    assert len(fake.messages) == 4


def test_a_deep_copy_of_a_case_is_not_mutated_by_checks() -> None:
    body = {"content": "x", "embeds": [{"title": "t", "fields": [{"name": "n", "value": "v"}]}]}
    before = copy.deepcopy(body)
    assert msg(body) == []
    assert body == before


# Where each select, emoji and attachment refusal points (the errors object nests like the body),
# so that a case is refused for its own reason and not for another one it trips by accident.
WHERE = {
    "select needs an option": "components.0.components.0.options",
    "select custom_id": "components.0.components.0.custom_id",
    "select option value": "components.0.components.0.options.0.value",
    "select option label not empty": "components.0.components.0.options.0.label",
    "select option description": "components.0.components.0.options.0.description",
    "select option values unique": "components.0.components.0.options.1.value",
    "select min_values not negative": "components.0.components.0.min_values",
    "select max_values": "components.0.components.0.max_values",
    "select max_values at least 1": "components.0.components.0.max_values",
    "select min_values not above max_values": "components.0.components.0.min_values",
    "select max_values within the options": "components.0.components.0.max_values",
    "select min_values within the options": "components.0.components.0.min_values",
    "select defaults within max_values": "components.0.components.0.options",
    "select default is a boolean": "components.0.components.0.options.0.default",
    "select disabled is a boolean": "components.0.components.0.disabled",
    "select option emoji": "components.0.components.0.options.0.emoji",
    "custom emoji": "components.0.components.0.options.0.emoji.id",
    "emoji name": "components.0.components.0.options.0.emoji.name",
    "emoji needs a name": "components.0.components.0.options.0.emoji.name",
    "button emoji": "components.0.components.0.emoji",
    "select options in an update": "data.components.0.components.0.options",
    "select options in an ephemeral reply": "data.components.0.components.0.placeholder",
    "components take a reply or a deferral": "type",
    "no update for autocomplete": "type",
    "an update keeps the ephemeral flag": "data.flags",
    "attachment alt text": "attachments.0.description",
    "attachment alt text is a string": "attachments.0.description",
    "attachment filename": "attachments.0.filename",
    "attachment id": "attachments.0.id",
    "attachments per message": "attachments",
    "attachment alt text in a callback": "data.attachments.0.description",
    "attachment alt text in an edit": "attachments.0.description",
}


@pytest.mark.parametrize("what", sorted(WHERE))
def test_each_refusal_points_at_its_field(what: str) -> None:
    (refused,) = [case[2] for case in CASES if case[0] == what]
    paths = [".".join(str(p) for p in problem.path) for problem in refused()]
    assert WHERE[what] in paths, (what, [str(p) for p in refused()])


# -- what discord.py itself sends passes (no false refusals) ---------------------------------------


async def test_discord_py_select_menus_and_alt_text_pass_both_checks() -> None:
    """A full picker (25 options with descriptions, emoji and a default, a placeholder, min/max)
    and a file with alt text, serialized by discord.py exactly as it sends them, pass the
    documented limits and Discord's OpenAPI schema; the same body one step past a limit does
    not."""
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(
            label=f"{i}-{i + 4}" * 10,
            value=f"move:{i}:" + "x" * 90,
            description="d" * 100,
            emoji="⛀" if i % 2 else None,
            default=i == 0,
        )
        for i in range(25)
    ]
    view.add_item(
        discord.ui.Select(
            custom_id="c" * 100, placeholder="p" * 150, min_values=1, max_values=25, options=options
        )
    )
    view.add_item(discord.ui.Button(label="Moves", custom_id="moves", emoji="⛁", row=1))
    board = discord.File(io.BytesIO(b"png"), filename="board.png", description="a" * 1024)
    params = handle_message_parameters(content="Pick", view=view, file=board)
    body = json.loads(params.multipart[0]["value"])
    assert body["attachments"] == [{"id": 0, "filename": "board.png", "description": "a" * 1024}]
    files = [("board.png", 3)]
    assert limits.check_message(body, kind="create", files=files) == []
    assert (
        limits.check_callback(
            {"type": 7, "data": body}, interaction_type=3, files=files, message_flags=0
        )
        == []
    )
    if openapi_check.available():
        assert openapi_check.validate("POST", "/channels/1/messages", body) == []
        assert openapi_check.validate("PATCH", "/webhooks/1/t/messages/@original", body) == []
    body["attachments"][0]["description"] += "a"
    assert limits.check_message(body, kind="create", files=files) != []
    if openapi_check.available():
        assert openapi_check.validate("POST", "/channels/1/messages", body) != []
