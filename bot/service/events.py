"""Announcements as outbox entries: a new entry for a change, and a result kept as text.

Every change players must see is written together with an outbox entry (see
:class:`bot.store.NewEvent`), so the announcement can be delivered later if the first attempt
fails or the process dies first.  When a first delivery fails, the message as it was built is kept
with the entry (:func:`encode`), so a later delivery shows exactly what the first would have, even
if the game has moved on meanwhile; :func:`decode` reads it back.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from ..i18n import Text
from ..results import Action, ActionResult
from ..store import NewEvent

T = TypeVar("T")

EVENT_ID_BYTES = 16
"""22 URL-safe characters: unique, and with a two-character suffix per message still within
the 25 characters Discord allows a message's ``nonce``."""
HANDOFF_SECONDS = 30.0
"""How long a new entry is left to the action that wrote it (which answers its interaction
with it) before the background delivery may post it instead."""


def new_event(
    action: Action,
    *,
    channel_id: int,
    guild_id: int | None,
    now: float,
    game_id: int | None = None,
    challenge_id: int | None = None,
) -> NewEvent:
    """An outbox entry announcing ``action``; the id is random, so two processes never clash."""
    return NewEvent(
        id=secrets.token_urlsafe(EVENT_ID_BYTES),
        kind=action.value,
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        challenge_id=challenge_id,
        created_at=now,
        next_attempt_at=now + HANDOFF_SECONDS,
    )


def encode(result: ActionResult) -> str:
    """``result`` as JSON (enums by value, tuples as lists, words as :meth:`Text.to_json`),
    without what its poster reads afresh (the fields marked :data:`~bot.results.NOT_STORED`)."""
    return json.dumps(_plain(result), separators=(",", ":"), ensure_ascii=False)


def decode(text: str) -> ActionResult:
    """The result :func:`encode` wrote; ``ValueError`` for text that is not one.  Words stored
    as plain strings (before announcements were kept as catalog text) are shown as they are."""
    try:
        result: ActionResult = _build(ActionResult, json.loads(text))
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a stored announcement: {exc}") from exc
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, Text):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.metadata.get("stored", True)
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(kind: Any, raw: Any) -> Any:
    """``raw`` (parsed JSON) as a value of the annotated type ``kind``."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        if raw is None:
            return None
        (inner,) = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return _build(inner, raw)
    if kind is Text:
        return Text.from_json(raw)
    if origin is tuple:
        item = typing.get_args(kind)[0]
        return tuple(_build(item, element) for element in raw)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        names = {f.name for f in dataclasses.fields(kind)}
        return kind(**{name: _build(hints[name], raw[name]) for name in names if name in raw})
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(raw)
    if kind is float and isinstance(raw, int):
        return float(raw)
    if kind in (int, str, float, bool) and not isinstance(raw, kind):
        raise TypeError(f"{raw!r} is not a {kind.__name__}")
    return raw
