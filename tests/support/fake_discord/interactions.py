"""Interaction payloads as Discord sends them: slash commands, autocomplete requests, button
presses and select choices (each carrying the message as the user's client shows it, refused with
:class:`ComponentRefused` when no client could send it), from a guild channel or a DM."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from .components import find_component
from .guilds import Guild, user_object
from .messages import MessageStore
from .protocol import (
    APPLICATION_COMMAND,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    BUTTON,
    DM_PERMISSIONS,
    MESSAGE_COMPONENT,
    STRING_SELECT,
)


class InteractionBuilders(MessageStore):
    """Builds the interactions a test sends with :meth:`FakeDiscord.send_interaction`."""

    def _interaction_base(
        self,
        type_: int,
        data: dict[str, Any],
        *,
        user_id: str | None,
        channel_id: str | None,
        locale: str,
    ) -> dict[str, Any]:
        channel_id = channel_id or next(iter(self.guild.channels))
        interaction_id = self.snowflake()
        token = f"itoken-{interaction_id}"
        if channel_id in self.dm_recipients:
            # In the bot's DM: ``user`` instead of ``member``, no guild (context BOT_DM).
            user_id = user_id or self.dm_recipients[channel_id]
            return {
                "id": interaction_id,
                "application_id": self.application_id,
                "type": type_,
                "data": data,
                "channel_id": channel_id,
                "channel": {**self.dm_channel_object(channel_id), "permissions": DM_PERMISSIONS},
                "user": user_object(user_id, self.username(user_id) or "user"),
                "token": token,
                "version": 1,
                "app_permissions": DM_PERMISSIONS,
                "locale": locale,
                "entitlements": [],
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,
                "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            }
        guild = self.guild_of(channel_id) or self.guild
        user_id = user_id or next(iter(guild.users))
        if user_id not in guild.users:
            raise ValueError(
                f"user {user_id} is not a member of guild {guild.id} (channel {channel_id}): "
                f"Discord sends no interaction from there; members: {list(guild.users)}"
            )
        channel = dict(self.channel_object(channel_id))
        channel["permissions"] = self.permissions_in(channel_id)
        return {
            "id": interaction_id,
            "application_id": self.application_id,
            "type": type_,
            "data": data,
            "guild_id": guild.id,
            "guild": {"id": guild.id, "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "channel_id": channel_id,
            "channel": channel,
            "member": self.member_object(user_id, with_permissions=True, guild=guild),
            "token": token,
            "version": 1,
            "app_permissions": self.permissions_in(channel_id),
            "locale": locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    def _command_scope(self, channel_id: str | None) -> Guild | None:
        """The guild whose commands apply in a channel (None in a DM: global ones only)."""
        channel_id = channel_id or next(iter(self.guild.channels))
        if channel_id in self.dm_recipients:
            return None
        return self.guild_of(channel_id) or self.guild

    def _command_id(self, name: str, guild: Guild | None) -> str:
        """The id of the command as registered for the guild, else globally (a fresh id for
        one that was never registered)."""
        for scope in ((guild.id,) if guild is not None else ()) + (None,):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return str(cmd["id"])
        return self.snowflake()

    def _command_guild(self, name: str, guild: Guild | None) -> str | None:
        """The guild id of a guild command (its interactions carry ``data.guild_id``)."""
        if guild is not None and any(c["name"] == name for c in self.commands.get(guild.id, [])):
            return guild.id
        return None

    def command_interaction(
        self,
        name: str,
        options: Iterable[dict[str, Any]] = (),
        *,
        user_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
        resolved: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A slash command (type 2). ``options`` are Discord option objects, e.g.
        ``{"name": "variant", "type": 3, "value": "russian"}`` (sub-commands nest them)."""
        scope = self._command_scope(channel_id)
        data: dict[str, Any] = {
            "id": self._command_id(name, scope),
            "name": name,
            "type": 1,
            "options": list(options),
        }
        if (gid := self._command_guild(name, scope)) is not None:
            data["guild_id"] = gid
        if resolved is not None:
            data["resolved"] = resolved
        return self._interaction_base(
            APPLICATION_COMMAND, data, user_id=user_id, channel_id=channel_id, locale=locale
        )

    def autocomplete_interaction(
        self,
        name: str,
        options: Iterable[dict[str, Any]],
        focused: str,
        *,
        user_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """An autocomplete request (type 4); the option named ``focused`` gets ``focused: true``
        (and must be among ``options``, with its partial ``value``)."""
        opts = [{**o, "focused": True} if o["name"] == focused else dict(o) for o in options]
        interaction = self.command_interaction(
            name, opts, user_id=user_id, channel_id=channel_id, locale=locale
        )
        interaction["type"] = AUTOCOMPLETE
        return interaction

    def button_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        *,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A button press (type 3, ``component_type`` 2) on ``message``; see
        :meth:`component_interaction` for what ``message`` may be and what is refused."""
        return self.component_interaction(
            custom_id, message, user_id=user_id, locale=locale, forged=forged
        )

    def select_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        values: Iterable[str],
        *,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A choice in a string select menu (type 3, ``component_type`` 3, ``values`` in the
        order given); see :meth:`component_interaction`."""
        return self.component_interaction(
            custom_id, message, values=list(values), user_id=user_id, locale=locale, forged=forged
        )

    def component_interaction(
        self,
        custom_id: str,
        message: dict[str, Any] | str,
        *,
        values: list[str] | None = None,
        user_id: str | None = None,
        locale: str = "en-US",
        forged: bool = False,
    ) -> dict[str, Any]:
        """A MESSAGE_COMPONENT interaction: a button press (``values`` None) or a string select
        choice, carrying the message as Discord does (the whole message object; an ephemeral
        one with flag 64).

        ``message`` is what the user's client shows: a message id or the fake's own stored
        object (``fake.messages[id]``, ``fake.original_message(token)``, ``Sent.message()``):
        the message as it is now; or a copy taken earlier (``copy.deepcopy``): a client that
        has not caught up with a later edit, which Discord still delivers if the press beat the
        edit, so the copy must be a state the message really had (its ``components`` equal to
        one the fake stored). Refused with :class:`ComponentRefused`, as Discord refuses the
        client: a custom id not on that message, a button pressed as a select or the reverse,
        a disabled component, values not among the options, repeated, or fewer than
        ``min_values`` / more than ``max_values`` (both default to 1), an ephemeral message or
        a DM by anyone but the user it was for, a deleted or unknown message. ``forged=True``
        skips every check: a hand-made payload of a modified client, which real Discord never
        delivers.

        The interaction comes from the message's channel, so from its guild (a DM's user
        when ``user_id`` is not given; else the guild's first member)."""
        if forged:
            shown = self.messages[message] if isinstance(message, str) else message
        else:
            shown = self._message_as_seen(message)
        channel_id = str(shown["channel_id"])
        if user_id is None:
            guild = self.guild_of(channel_id) or self.guild
            user_id = self.dm_recipients.get(channel_id) or next(iter(guild.users))
        if forged:
            component = find_component(shown, custom_id) or {}
            kind = component.get("type") or (BUTTON if values is None else STRING_SELECT)
        else:
            kind = self._check_component_use(shown, custom_id, values, user_id)["type"]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        interaction = self._interaction_base(
            MESSAGE_COMPONENT, data, user_id=user_id, channel_id=channel_id, locale=locale
        )
        interaction["message"] = copy.deepcopy(shown)
        if forged:
            self._forged.add(interaction["id"])
        return interaction
