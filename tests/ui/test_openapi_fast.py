"""The fake Discord's compiled schema check (``tests/support/openapi_fast.py``) gives jsonschema's
verdicts: on bodies shaped as the bot sends them and on hundreds of damaged copies of them (each
value replaced by one of another type or size, a key dropped, an unknown key added), both say yes
or both say no.  The compiled check decides what the fake accepts, so a disagreement here would
let a request Discord refuses through, or refuse one it takes."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from support import openapi_check, openapi_fast

pytestmark = pytest.mark.skipif(not openapi_check.available(), reason=openapi_check.SKIP_REASON)

EMBED = {
    "title": "Game #12",
    "description": "**Alice** vs **Bob**",
    "color": 0x8B5A2B,
    "fields": [{"name": "Clock", "value": "3:00", "inline": True}],
    "image": {"url": "attachment://board.png"},
    "footer": {"text": "English draughts"},
}
ROWS = [
    {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "Move", "custom_id": "draughts:move:12:4"},
            {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"},
        ],
    },
    {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "draughts:pick:12:4",
                "placeholder": "Your move",
                "min_values": 1,
                "max_values": 1,
                "options": [
                    {"label": "11-15", "value": "11-15", "default": False},
                    {"label": "9x18x27", "value": "9x18x27", "description": "two men"},
                ],
            }
        ],
    },
]
MESSAGE = {
    "content": "<@123> to move",
    "embeds": [EMBED],
    "components": ROWS,
    "allowed_mentions": {"parse": [], "users": [123]},
    "attachments": [{"id": 0, "filename": "board.png", "description": "the board"}],
    "nonce": "b0ard-12-4",
    "enforce_nonce": True,
    "flags": 4096,
}
BODIES = [
    ("POST", "/channels/1/messages", MESSAGE),
    ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {**MESSAGE, "flags": 64}}),
    ("POST", "/interactions/1/tok/callback", {"type": 7, "data": {"components": ROWS}}),
    (
        "POST",
        "/interactions/1/tok/callback",
        {"type": 8, "data": {"choices": [{"name": "11-15", "value": "11-15"}]}},
    ),
    ("PATCH", "/webhooks/1/tok/messages/@original", {"content": "x", "components": []}),
    (
        "POST",
        "/channels/1/threads",
        {"name": "Game #12", "type": 11, "auto_archive_duration": 1440},
    ),
    ("PATCH", "/channels/1/messages/2", {"embeds": [EMBED], "components": [], "attachments": []}),
]
REPLACEMENTS: tuple[Any, ...] = (None, True, 7, -1, 2.5, "", "x", "y" * 5000, [], {}, [1], 2**70)
CASES_PER_BODY = 60


def places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside ``node`` (dict keys and list indexes), the root first."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from places(value, (*path, index))


def damaged(body: Any, rng: random.Random) -> Iterator[Any]:
    """Copies of ``body`` each damaged in one place, in a seeded order."""
    changes: list[tuple[tuple[Any, ...], str, Any]] = []
    for path in places(body):
        if not path:
            continue
        changes += [(path, "set", value) for value in REPLACEMENTS]
        changes.append((path, "drop", None))
        changes.append((path, "unknown", None))
    rng.shuffle(changes)
    for path, how, value in changes[:CASES_PER_BODY]:
        copied = copy.deepcopy(body)
        holder = copied
        for step in path[:-1]:
            holder = holder[step]
        if how == "set":
            holder[path[-1]] = value
        elif how == "drop":
            del holder[path[-1]]
        elif isinstance(holder[path[-1]], dict):
            holder[path[-1]]["zz_unknown"] = 1
        else:
            continue
        yield copied


@pytest.mark.parametrize(("method", "path", "body"), BODIES, ids=[f"{m} {p}" for m, p, _ in BODIES])
def test_the_compiled_check_and_jsonschema_agree(method: str, path: str, body: Any) -> None:
    template = openapi_check.template_for(path)
    assert template is not None
    assert openapi_check.fast_verdict(template, method, body) is True
    assert openapi_check.slow_problems(template, method, body) == []
    rng = random.Random(f"{method} {path}")
    verdicts = {True: 0, False: 0}
    for copied in damaged(body, rng):
        fast = openapi_check.fast_verdict(template, method, copied)
        slow = openapi_check.slow_problems(template, method, copied) == []
        assert fast is slow, (copied, openapi_check.slow_problems(template, method, copied))
        verdicts[slow] += 1
    assert verdicts[False] > 0  # the damage is real: some copies are refused


def test_a_refused_body_is_worded_by_jsonschema() -> None:
    problems = openapi_check.validate("POST", "/channels/1/messages", {"content": 5})
    assert problems and problems[0].startswith("OpenAPI POST /channels/{channel_id}/messages: ")
    assert "content" in problems[0]


def test_code_another_fastjsonschema_wrote_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two virtual environments on one machine (CI's fresh one, a developer's) can hold different
    versions of fastjsonschema, whose code imports names the other lacks: each keeps its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    document = {"definitions": {"n": {"type": "object", "properties": {"n": {"type": "integer"}}}}}
    ours = openapi_fast.cache_folder("0" * 64)
    assert ours.name.endswith(f"-{fastjsonschema.VERSION}")
    other = ours.with_name(ours.name.removesuffix(fastjsonschema.VERSION) + "0.0.0")
    name = hashlib.sha256(b"#/definitions/n").hexdigest()[:24] + ".py"
    other.mkdir(parents=True)
    (other / name).write_text("from fastjsonschema import NoSuchName\n", encoding="utf-8")
    check = openapi_fast.compiled(document, "0" * 64, "#/definitions/n")
    assert check is not None
    assert check({"n": 1}) == {"n": 1}
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        check({"n": "one"})
    assert (ours / name).is_file()
