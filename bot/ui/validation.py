"""Every slash command's options checked again by the bot, before any command sees them.

Discord's own client keeps to what a command declares (bounds, lengths, choices, channel types),
but Discord does not check the interaction it forwards against the declaration: a modified
client, a stale one, or a request made by hand can carry any value of any type (a game id of
2**63, which SQLite cannot even hold, a negative time per move, text with control characters).
:class:`CheckedTree` is the command tree of the bot, so every command passes through it and
none can forget: before discord.py builds the command's arguments it compares the raw options
with the command's own declaration (the one synced to Discord, so the rules are written once)
and refuses anything Discord's client would not have sent, privately, with nothing changed.
What depends on meaning rather than on the declaration (a bot as an opponent, oneself) is
checked by the commands, also before anything is written.
"""

from __future__ import annotations

import logging
import math
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from ..errors import NotFoundError, ServiceError
from ..i18n import Text, _
from .replies import Reply
from .wording import user_error

log = logging.getLogger(__name__)

DISCORD_INTEGER_MAX = 2**53 - 1
"""Discord's INTEGER options lie within +/- 2^53 - 1, whatever a command declares."""
ID_MAX = 2**63 - 1
"""The largest id a snowflake or a database row can have (a signed 64-bit integer)."""
MAX_STRING = 6000
"""Discord's longest STRING option value, for options that declare no maximum."""
ODD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Unicode categories refused in text: controls, invisible formatting (zero-width characters,
direction overrides that make text read differently than it is), surrogates, private use and
unassigned code points.  No move, name or choice needs them."""

OptionType = discord.AppCommandOptionType
SNOWFLAKE_KINDS = {
    OptionType.user: "users",
    OptionType.channel: "channels",
    OptionType.role: "roles",
    OptionType.mentionable: "users",
    OptionType.attachment: "attachments",
}
"""Option types whose value is an id that Discord resolves, and where it puts the resolved
object in the interaction's ``resolved`` data."""
NESTED = (OptionType.subcommand.value, OptionType.subcommand_group.value)


class OptionError(ServiceError):
    """An option's value that the command's declaration does not allow."""


MALFORMED = _("that command arrived malformed; try again")
NO_SUCH = {
    "game": _("there is no such game"),
    "challenge": _("there is no such challenge"),
    "tournament": _("there is no such tournament"),
}


def checked_id(value: int, what: str) -> int:
    """An id taken from a button's custom id (at most 19 digits, so possibly beyond what a
    database row can have): unchanged if it can exist, else the refusal that there is none
    (``what``: ``game`` or ``challenge``)."""
    if not 1 <= value <= ID_MAX:
        raise NotFoundError(NO_SUCH.get(what) or _("there is no such thing"))
    return value


def odd_character(text: str) -> str | None:
    """The first character of ``text`` in :data:`ODD_CATEGORIES`, if any."""
    for char in text:
        if unicodedata.category(char) in ODD_CATEGORIES:
            return char
    return None


def leaf_options(data: Mapping[str, Any]) -> list[Any]:
    """The options of the command itself, below any subcommand group and subcommand."""
    options = data.get("options") or []
    while (
        isinstance(options, list)
        and len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in NESTED
    ):
        options = options[0].get("options") or []
    if not isinstance(options, list):
        raise OptionError(MALFORMED)
    return options


def check_options(
    command: app_commands.Command[Any, ..., Any],
    options: Sequence[Any],
    resolved: Mapping[str, Any],
    *,
    guild: discord.Guild | None,
    autocomplete: bool = False,
) -> None:
    """Refuse (:class:`OptionError`) any option ``command`` does not declare, a required one
    left out, and any value its declaration does not allow.  For ``autocomplete`` the focused
    option is being typed, so only its type is checked, and options still to come may be
    missing."""
    declared = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            raise OptionError(MALFORMED)
        name = option["name"]
        param = declared.get(name)
        if param is None:
            raise OptionError(
                _(
                    "`/{command}` has no option `{name}` "
                    "(your Discord app may show an old version of it)",
                    command=command.qualified_name,
                    name=name[:32],
                )
            )
        if name in seen:
            raise OptionError(_("`{name}` was given twice", name=name))
        seen.add(name)
        if option.get("type") != param.type.value:
            raise OptionError(_expected(param))
        value = option.get("value")
        if autocomplete and option.get("focused"):
            if not isinstance(value, str | int | float):
                raise OptionError(_expected(param))
            continue
        _check_value(param, value, resolved, guild)
    if not autocomplete:
        for param in command.parameters:
            if param.required and param.display_name not in seen:
                raise OptionError(_("`{name}` is required", name=param.display_name))


def _expected(param: app_commands.Parameter) -> Text:
    """The refusal saying what ``param`` must be."""
    name = param.display_name
    match param.type:
        case OptionType.integer:
            low = -DISCORD_INTEGER_MAX if param.min_value is None else int(param.min_value)
            high = DISCORD_INTEGER_MAX if param.max_value is None else int(param.max_value)
            return _(
                "`{name}` must be a whole number from {low} to {high}",
                name=name,
                low=low,
                high=min(high, DISCORD_INTEGER_MAX),
            )
        case OptionType.number:
            return _("`{name}` must be a number", name=name)
        case OptionType.string:
            low = 0 if param.min_value is None else int(param.min_value)
            high = MAX_STRING if param.max_value is None else int(param.max_value)
            return _(
                "`{name}` must be text of {low} to {high} characters", name=name, low=low, high=high
            )
        case OptionType.boolean:
            return _("`{name}` must be true or false", name=name)
        case OptionType.user | OptionType.mentionable:
            return _("`{name}` must be a user picked from the list", name=name)
        case OptionType.channel:
            return _("`{name}` must be a channel of this server picked from the list", name=name)
        case OptionType.role:
            return _("`{name}` must be a role picked from the list", name=name)
        case _:
            return _(
                "`{name}` must be a {kind} picked from the list", name=name, kind=param.type.name
            )


def _check_value(
    param: app_commands.Parameter,
    value: object,
    resolved: Mapping[str, Any],
    guild: discord.Guild | None,
) -> None:
    name = param.display_name
    if param.choices:  # one of them exactly, of the same type (True is not 1)
        if not any(type(value) is type(c.value) and value == c.value for c in param.choices):
            raise OptionError(_("`{name}` must be one of the choices listed for it", name=name))
        return
    wrong = OptionError(_expected(param))
    kind = param.type
    if kind is OptionType.integer:
        if type(value) is not int or abs(value) > DISCORD_INTEGER_MAX:
            raise wrong
        _check_bounds(param, value, wrong)
    elif kind is OptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong
        if not math.isfinite(value):
            raise wrong
        _check_bounds(param, value, wrong)
    elif kind is OptionType.string:
        if not isinstance(value, str):
            raise wrong
        low = 0 if param.min_value is None else param.min_value
        high = MAX_STRING if param.max_value is None else param.max_value
        if not low <= len(value) <= high:
            raise wrong
        if odd_character(value) is not None:
            raise OptionError(
                _(
                    "`{name}` contains a character I do not accept (a control or invisible one)",
                    name=name,
                )
            )
    elif kind is OptionType.boolean:
        if not isinstance(value, bool):
            raise wrong
    elif kind in SNOWFLAKE_KINDS:
        _check_resolved(param, value, resolved, guild, wrong)
    else:
        raise wrong


def _check_bounds(param: app_commands.Parameter, value: float, wrong: OptionError) -> None:
    if param.min_value is not None and value < param.min_value:
        raise wrong
    if param.max_value is not None and value > param.max_value:
        raise wrong


def _check_resolved(
    param: app_commands.Parameter,
    value: object,
    resolved: Mapping[str, Any],
    guild: discord.Guild | None,
    wrong: OptionError,
) -> None:
    """An id option: a real snowflake that Discord resolved in the interaction, and for a
    channel one of the declared types in this server."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        raise wrong
    if not 1 <= int(value) <= ID_MAX:
        raise wrong
    kind = param.type
    table = resolved.get(SNOWFLAKE_KINDS[kind])
    found = table.get(value) if isinstance(table, dict) else None
    if found is None and kind is OptionType.mentionable:
        roles = resolved.get("roles")
        found = roles.get(value) if isinstance(roles, dict) else None
    if not isinstance(found, dict):
        raise wrong
    if kind is not OptionType.channel:
        return
    try:
        channel_type = discord.ChannelType(found.get("type"))
    except ValueError:
        raise wrong from None
    if param.channel_types and channel_type not in param.channel_types:
        raise wrong
    if guild is not None and guild.get_channel_or_thread(int(value)) is None:
        raise wrong


class CheckedTree(app_commands.CommandTree[discord.Client]):
    """The bot's command tree: every slash command and autocomplete request is checked by
    :func:`check_options` before discord.py reads it; a refusal is private."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        data: Any = interaction.data
        if not isinstance(data, dict) or data.get("type", 1) != 1:
            return True  # context menus (none are declared) carry no options
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        try:
            self._check(interaction, data, autocomplete)
        except OptionError as error:
            log.info("refused /%s from %s: %s", data.get("name"), interaction.user.id, error.reason)
            try:
                if autocomplete:
                    await interaction.response.autocomplete([])
                else:
                    reply = Reply(interaction)
                    await reply.private(user_error(error, reply.language))
            except discord.HTTPException as exc:
                log.info("the refusal could not be sent: %s", exc)
            return False
        return True

    def _check(self, interaction: discord.Interaction, data: Any, autocomplete: bool) -> None:
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            raise OptionError(
                _("I do not know that command (any more); your Discord app may show an old list")
            )
        if command.guild_only and interaction.guild_id is None:
            raise OptionError(
                _("`/{command}` works only in a server", command=command.qualified_name)
            )
        resolved = data.get("resolved") or {}
        if not isinstance(resolved, dict):
            raise OptionError(MALFORMED)
        guild = interaction.guild if isinstance(interaction.guild, discord.Guild) else None
        if guild is not None and interaction.client.get_guild(guild.id) is None:
            guild = None  # not cached (no gateway data for it): its channels are unknown
        check_options(command, leaf_options(data), resolved, guild=guild, autocomplete=autocomplete)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        """A value a transformer refused (a choice that is no longer offered, say) is a
        refusal like any other, not a bug: answered privately, no traceback."""
        if not isinstance(error, app_commands.TransformerError):
            await super().on_error(interaction, error)
            return
        log.info("refused an option of /%s: %s", getattr(interaction.command, "name", "?"), error)
        if interaction.response.is_done():
            return
        refusal = OptionError(_("one of the options is not a value I accept"))
        try:
            reply = Reply(interaction)
            await reply.private(user_error(refusal, reply.language))
        except discord.HTTPException as exc:
            log.info("the refusal could not be sent: %s", exc)
