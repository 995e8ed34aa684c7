"""Message components as a Discord client shows them, and the rules by which Discord refuses
a component interaction no client could have sent (:class:`ComponentRefused`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .protocol import BUTTON, SELECT_TYPES, STRING_SELECT


class ComponentRefused(AssertionError):
    """A component interaction the Discord client could not have sent: a custom id the
    message does not have (or a message state that never existed), a disabled component, select
    values outside the menu's options or its min/max, someone else's ephemeral message or DM.
    Discord answers the client 400 50035 COMPONENT_VALIDATION_FAILED and the bot never hears of
    it, so the fake fails the test instead of dispatching."""


def walk_components(components: Any) -> Iterable[dict[str, Any]]:
    """Every component of a message, depth first (action rows, their children, and the
    Components V2 containers and section accessories)."""
    for component in components or []:
        if not isinstance(component, dict):
            continue
        yield component
        for key in ("components", "accessory"):
            child = component.get(key)
            if isinstance(child, list):
                yield from walk_components(child)
            elif isinstance(child, dict):
                yield from walk_components([child])


def find_component(message: dict[str, Any], custom_id: str) -> dict[str, Any] | None:
    """The interactive component with this custom id on the message, if any."""
    for component in walk_components(message.get("components")):
        if component.get("custom_id") == custom_id:
            return component
    return None


def check_component_use(
    message: dict[str, Any],
    custom_id: str,
    values: list[str] | None,
    user_id: str,
    *,
    shown_only_to: str | None,
    dm_with: str | None,
) -> dict[str, Any]:
    """The component the user used, or :class:`ComponentRefused` for an interaction the
    client could not have sent. ``shown_only_to``: the user an ephemeral message is for;
    ``dm_with``: the user whose DM the message is in."""
    mid = str(message.get("id"))
    if shown_only_to is not None and shown_only_to != user_id:
        raise ComponentRefused(
            f"message {mid} is ephemeral, shown only to {shown_only_to}: {user_id} cannot use it"
        )
    if dm_with is not None and dm_with != user_id:
        raise ComponentRefused(
            f"message {mid} is in the DM with {dm_with}: {user_id} cannot see it"
        )
    component = find_component(message, custom_id)
    if component is None:
        shown = [
            c["custom_id"] for c in walk_components(message.get("components")) if "custom_id" in c
        ]
        raise ComponentRefused(f"message {mid} has no component {custom_id!r} (it has {shown})")
    kind = component.get("type")
    if component.get("disabled"):
        raise ComponentRefused(f"component {custom_id!r} of message {mid} is disabled")
    if values is None:
        if kind != BUTTON:
            raise ComponentRefused(f"{custom_id!r} is not a button (type {kind}): select it")
        return component
    if kind not in SELECT_TYPES:
        raise ComponentRefused(f"{custom_id!r} is not a select menu (type {kind}): press it")
    if kind != STRING_SELECT:
        raise ComponentRefused(f"{custom_id!r} is a type {kind} select: only string selects")
    if not all(isinstance(v, str) for v in values):
        raise ComponentRefused(f"select values are strings, not {values!r}")
    offered = [str(o.get("value")) for o in component.get("options") or []]
    unknown = [v for v in values if v not in offered]
    if unknown:
        raise ComponentRefused(f"{unknown} not among the options of {custom_id!r}: {offered}")
    if len(set(values)) != len(values):
        raise ComponentRefused(f"an option can be chosen once, not {values!r}")
    low = component.get("min_values")
    high = component.get("max_values")
    low = 1 if low is None else int(low)
    high = 1 if high is None else int(high)
    if not low <= len(values) <= high:
        raise ComponentRefused(
            f"{custom_id!r} takes {low} to {high} values, not {len(values)}: {values!r}"
        )
    return component
