"""Discord's documented limits on what a bot may send, as small table-driven checks.

The fake Discord (``tests/support/fake_discord.py``) runs these on every request body, refuses what
Discord would refuse and records it as a violation; ``tests/e2e/test_discord_limits.py`` shows each
check refusing the first value past a limit and accepting the limit itself. The numbers are
Discord's documented ones (application commands, message, embed, component and interaction-response
references); the OpenAPI description (``tests/support/openapi_check.py``) adds the shapes. Select
menus are checked in full (1-25 options with unique values, label/value/description lengths, the
placeholder, ``min_values``/``max_values`` and their defaults of 1, ``default`` flags, emoji
shape), and so are the alt text and file names of ``attachments`` entries (1024 characters).

Each check returns a list of :class:`Problem` (empty: fine). :func:`refusal` turns problems into
the answer Discord gives: 400 with code 50035 "Invalid Form Body" and an ``errors`` object that
nests like the request (``{"embeds": {"0": {"title": {"_errors": [...]}}}}``), or 50006 for an
empty message, or 413 40005 for files over the size limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import regex

MAX_SAFE_INTEGER = 2**53 - 1  # Discord's INTEGER and NUMBER options are bounded by +-(2^53 - 1)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # an un-boosted server
MAX_FILES = 10

# Flags a bot may send, per kind of message request.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS = 1 << 2, 1 << 6, 1 << 12
IS_VOICE_MESSAGE, IS_COMPONENTS_V2 = 1 << 13, 1 << 15
_SETTABLE_FLAGS = {
    "create": SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2,
    "followup": SUPPRESS_EMBEDS
    | EPHEMERAL
    | SUPPRESS_NOTIFICATIONS
    | IS_VOICE_MESSAGE
    | IS_COMPONENTS_V2,
    "reply": SUPPRESS_EMBEDS
    | EPHEMERAL
    | SUPPRESS_NOTIFICATIONS
    | IS_VOICE_MESSAGE
    | IS_COMPONENTS_V2,
    "deferred": EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2,
}
# An edit may only toggle these; other bits must stay as the message has them.
_EDITABLE_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2

# Interaction type -> callback types Discord accepts for it.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL, LAUNCH_ACTIVITY = 8, 9, 12
CALLBACK_TYPES = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
        LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# Application command and option types.
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
OPTION_TYPES = set(range(1, 12))
COMMAND_NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
MAX_CHAT_INPUT_COMMANDS, MAX_CONTEXT_COMMANDS = 100, 15
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""The locales Discord accepts as keys of ``name_localizations`` and
``description_localizations`` (any other key is refused)."""

# Components: types Discord lets a bot put in a message's action row.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = {STRING_SELECT, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One broken limit: where in the body, and Discord's words for it."""

    path: Path
    message: str
    code: str = "BASE_TYPE_INVALID"

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "(body)"
        return f"{where}: {self.message}"


EMPTY = "EMPTY_MESSAGE"
TOO_LARGE = "FILE_TOO_LARGE"


def refusal(problems: Sequence[Problem]) -> tuple[int, int, str, dict[str, Any] | None]:
    """Discord's answer to a body with these problems: status, code, message, errors."""
    if any(p.code == TOO_LARGE for p in problems):
        return 413, 40005, "Request entity too large", None
    if any(p.code == EMPTY for p in problems):
        return 400, 50006, "Cannot send an empty message", None
    return 400, 50035, "Invalid Form Body", errors_object(problems)


def errors_object(problems: Iterable[Problem]) -> dict[str, Any]:
    """The nested ``errors`` object of a 50035 answer."""
    root: dict[str, Any] = {}
    for problem in problems:
        node = root
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return root


# -- small helpers ------------------------------------------------------------------------------


def _length(value: Any, path: Path, low: int, high: int, *, required: bool = True) -> list[Problem]:
    """A string of ``low..high`` characters (absent or null is fine unless required)."""
    if value is None:
        return [Problem(path, "This field is required", "BASE_TYPE_REQUIRED")] if required else []
    if not isinstance(value, str):
        return [Problem(path, "Must be a string.", "BASE_TYPE_STRING")]
    if len(value) > high:
        return [Problem(path, f"Must be {high} or fewer in length.", "BASE_TYPE_MAX_LENGTH")]
    if len(value) < low:
        return [Problem(path, f"Must be {low} or more in length.", "BASE_TYPE_MIN_LENGTH")]
    return []


def _count(value: Any, path: Path, high: int, low: int = 0) -> list[Problem]:
    """A list of ``low..high`` items (absent or null counts as empty)."""
    items = value or []
    if not isinstance(items, list):
        return [Problem(path, "Must be an array.", "BASE_TYPE_ARRAY")]
    if len(items) > high:
        return [Problem(path, f"Must be {high} or fewer in length.", "BASE_TYPE_MAX_LENGTH")]
    if len(items) < low:
        return [Problem(path, f"Must be {low} or more in length.", "BASE_TYPE_MIN_LENGTH")]
    return []


def _integer(value: Any, path: Path, low: int, high: int) -> list[Problem]:
    if isinstance(value, bool) or not isinstance(value, int):
        return [Problem(path, "Value is not int.", "NUMBER_TYPE_COERCE")]
    if not low <= value <= high:
        return [Problem(path, f"Int value should be between {low} and {high}.", "NUMBER_TYPE_MAX")]
    return []


def _number(value: Any, path: Path) -> list[Problem]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return [Problem(path, "Value is not a number.", "NUMBER_TYPE_COERCE")]
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return [Problem(path, "Number is out of range.", "NUMBER_TYPE_MAX")]
    return []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# -- application commands -----------------------------------------------------------------------


def check_commands(commands: Any) -> list[Problem]:
    """A bulk overwrite (PUT .../commands, global or guild): every command, the counts per
    type and unique names."""
    if not isinstance(commands, list):
        return [Problem((), "Must be an array.", "BASE_TYPE_ARRAY")]
    problems: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    per_type: dict[int, int] = {}
    for i, command in enumerate(commands):
        problems += check_command(command, (i,))
        kind = _dict(command).get("type") or CHAT_INPUT
        name = _dict(command).get("name")
        per_type[kind] = per_type.get(kind, 0) + 1
        if (kind, name) in seen:
            problems.append(Problem((i, "name"), "Application command names must be unique"))
        seen.add((kind, name))
    problems += _unique_localized(
        [_dict(c) for c in commands], (), "Application command names must be unique"
    )
    if per_type.get(CHAT_INPUT, 0) > MAX_CHAT_INPUT_COMMANDS:
        problems.append(
            Problem(
                (),
                f"Maximum number of {MAX_CHAT_INPUT_COMMANDS} chat input commands reached",
                "MAX_COMMANDS",
            )
        )
    for kind in (USER_COMMAND, MESSAGE_COMMAND):
        if per_type.get(kind, 0) > MAX_CONTEXT_COMMANDS:
            problems.append(
                Problem(
                    (),
                    f"Maximum number of {MAX_CONTEXT_COMMANDS} context menu commands reached",
                    "MAX_COMMANDS",
                )
            )
    return problems


def _name(value: Any, path: Path, *, chat_input: bool) -> list[Problem]:
    if not chat_input:
        return _length(value, path, 1, 32)
    if not isinstance(value, str) or not COMMAND_NAME.match(value):
        return [Problem(path, "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")]
    if value != value.lower():
        return [
            Problem(path, "Command name must be lower case", "APPLICATION_COMMAND_INVALID_NAME")
        ]
    return []


def _localized(
    value: Any, path: Path, field: str, *, name: bool, chat_input: bool = True
) -> list[Problem]:
    """``name_localizations`` / ``description_localizations``: each follows the field's rule."""
    problems: list[Problem] = []
    for locale, text in _dict(value).items():
        where = (*path, f"{field}_localizations", locale)
        if locale not in LOCALES:
            problems.append(Problem(where, f"Invalid locale: {locale}", "LOCALE_INVALID"))
        if name:
            problems += _name(text, where, chat_input=chat_input)
        else:
            problems += _length(text, where, 1, 100)
    return problems


def _unique_localized(items: Sequence[dict[str, Any]], path: Path, message: str) -> list[Problem]:
    """Siblings' names must differ in every locale too: a name as a user of that locale sees it
    (its localization, else the default name)."""
    problems: list[Problem] = []
    locales = {loc for item in items for loc in _dict(item.get("name_localizations"))}
    for locale in sorted(locales):
        seen: set[Any] = set()
        for i, item in enumerate(items):
            shown = _dict(item.get("name_localizations")).get(locale, item.get("name"))
            if shown in seen:
                where = (*path, i, "name_localizations", locale)
                problems.append(
                    Problem(where, message, "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME")
                )
            seen.add(shown)
    return problems


def _longest(base: Any, localizations: Any) -> int:
    texts = [base, *_dict(localizations).values()]
    return max((len(t) for t in texts if isinstance(t, str)), default=0)


def command_size(command: dict[str, Any]) -> int:
    """The characters Discord counts against a command's 4000: names, descriptions, choice
    names and values, through every option (the longest localization of each field)."""

    def option_size(option: dict[str, Any]) -> int:
        size = _longest(option.get("name"), option.get("name_localizations"))
        size += _longest(option.get("description"), option.get("description_localizations"))
        for choice in _list(option.get("choices")):
            choice = _dict(choice)
            size += _longest(choice.get("name"), choice.get("name_localizations"))
            size += len(str(choice.get("value", "")))
        return size + sum(option_size(_dict(o)) for o in _list(option.get("options")))

    return option_size(command)


def check_command(command: Any, path: Path = ()) -> list[Problem]:
    if not isinstance(command, dict):
        return [Problem(path, "Must be an object.", "DICT_TYPE_CONVERT")]
    kind = command.get("type") or CHAT_INPUT
    if kind not in (CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND, PRIMARY_ENTRY_POINT):
        return [Problem((*path, "type"), "Value must be one of {1, 2, 3, 4}.", "BASE_TYPE_CHOICES")]
    chat_input = kind == CHAT_INPUT
    problems = _name(command.get("name"), (*path, "name"), chat_input=chat_input)
    problems += _localized(
        command.get("name_localizations"), path, "name", name=True, chat_input=chat_input
    )
    description = command.get("description")
    if chat_input:
        problems += _length(description, (*path, "description"), 1, 100)
        problems += _localized(
            command.get("description_localizations"), path, "description", name=False
        )
        problems += _check_options(command.get("options"), (*path, "options"), depth=0)
    else:
        if description:
            problems.append(
                Problem((*path, "description"), "Context menu commands cannot have a description")
            )
        if command.get("options"):
            problems.append(
                Problem((*path, "options"), "Context menu commands cannot have options")
            )
    if chat_input and command_size(command) > 4000:
        problems.append(
            Problem(path, "Command exceeds maximum size (4000)", "APPLICATION_COMMAND_TOO_LARGE")
        )
    return problems


def _check_options(options: Any, path: Path, *, depth: int) -> list[Problem]:
    """Options of a command (depth 0), a subcommand group (1) or a subcommand (2)."""
    problems = _count(options, path, 25)
    items = [_dict(o) for o in _list(options)]
    kinds = [o.get("type") for o in items]
    nested = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    if depth == 0 and any(nested) and not all(nested):
        problems.append(
            Problem(
                path,
                "Sub-commands and groups cannot be mixed with other options",
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            )
        )
    names: set[Any] = set()
    optional_seen = False
    for i, option in enumerate(items):
        where = (*path, i)
        kind = option.get("type")
        if kind not in OPTION_TYPES:
            problems.append(Problem((*where, "type"), "Invalid option type", "BASE_TYPE_CHOICES"))
            continue
        if depth == 1 and kind != SUB_COMMAND:
            problems.append(
                Problem(
                    (*where, "type"),
                    "A sub-command group may only contain sub-commands",
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                )
            )
        if depth == 2 and kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems.append(
                Problem(
                    (*where, "type"),
                    "A sub-command cannot contain sub-commands or groups",
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                )
            )
        problems += _name(option.get("name"), (*where, "name"), chat_input=True)
        problems += _localized(option.get("name_localizations"), where, "name", name=True)
        problems += _length(option.get("description"), (*where, "description"), 1, 100)
        problems += _localized(
            option.get("description_localizations"), where, "description", name=False
        )
        if option.get("name") in names:
            problems.append(
                Problem(
                    (*where, "name"),
                    "Option names must be unique",
                    "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
                )
            )
        names.add(option.get("name"))
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            child_depth = 1 if kind == SUB_COMMAND_GROUP else 2
            problems += _check_options(
                option.get("options"), (*where, "options"), depth=child_depth
            )
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(
                    Problem(
                        (*where, "required"),
                        "Required options must be placed before non-required options",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    )
                )
        else:
            optional_seen = True
        problems += _check_option_values(option, where, kind)
    problems += _unique_localized(items, path, "Option names must be unique")
    return problems


def _check_option_values(option: dict[str, Any], where: Path, kind: int) -> list[Problem]:
    problems: list[Problem] = []
    choices = option.get("choices")
    if choices:
        if kind not in (STRING, INTEGER, NUMBER):
            problems.append(
                Problem(
                    (*where, "choices"),
                    "Choices are only allowed on string, integer and number options",
                )
            )
        if option.get("autocomplete"):
            problems.append(
                Problem(
                    (*where, "autocomplete"),
                    "Autocomplete cannot be set with choices",
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                )
            )
        problems += _count(choices, (*where, "choices"), 25)
        for j, choice in enumerate(_list(choices)):
            problems += _check_choice(_dict(choice), (*where, "choices", j), kind)
    if option.get("autocomplete") and kind not in (STRING, INTEGER, NUMBER):
        problems.append(
            Problem(
                (*where, "autocomplete"),
                "Autocomplete is only allowed on string, integer and number options",
            )
        )
    for bound in ("min_value", "max_value"):
        value = option.get(bound)
        if value is None:
            continue
        if kind == INTEGER:
            problems += _integer(value, (*where, bound), -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
        elif kind == NUMBER:
            problems += _number(value, (*where, bound))
        else:
            problems.append(Problem((*where, bound), "Only integer and number options have bounds"))
    low, high = option.get("min_value"), option.get("max_value")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        problems.append(Problem((*where, "max_value"), "max_value must be at least min_value"))
    for bound, least in (("min_length", 0), ("max_length", 1)):
        value = option.get(bound)
        if value is None:
            continue
        if kind != STRING:
            problems.append(Problem((*where, bound), "Only string options have lengths"))
        else:
            problems += _integer(value, (*where, bound), least, 6000)
    return problems


def _check_choice(choice: dict[str, Any], where: Path, kind: int) -> list[Problem]:
    problems = _length(choice.get("name"), (*where, "name"), 1, 100)
    for locale, text in _dict(choice.get("name_localizations")).items():
        problems += _length(text, (*where, "name_localizations", locale), 1, 100)
    problems += _choice_value(choice.get("value"), (*where, "value"), kind)
    return problems


def _choice_value(value: Any, where: Path, kind: int | None) -> list[Problem]:
    if kind == STRING:
        return _length(value, where, 0, 100)
    if kind == INTEGER:
        return _integer(value, where, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    if kind == NUMBER:
        return _number(value, where)
    if value is None or isinstance(value, dict | list):
        return [Problem(where, "Invalid choice value")]
    return []


# -- messages -----------------------------------------------------------------------------------


def check_message(
    body: Any,
    *,
    kind: str,
    files: Sequence[tuple[str, int]] = (),
    old_flags: int = 0,
    size_limit: int = ATTACHMENT_SIZE_LIMIT,
) -> list[Problem]:
    """A message body. ``kind``: ``create`` (channel post), ``followup`` (webhook execute),
    ``reply`` (callback 4), ``deferred`` (callback 5), ``update`` (callback 7) or ``edit``
    (PATCH of a message); ``files`` are the uploaded (filename, size) pairs."""
    if body is None:
        body = {}
    if not isinstance(body, dict):
        return [Problem((), "Must be an object.", "DICT_TYPE_CONVERT")]
    problems: list[Problem] = []
    flags = body.get("flags")
    if flags is not None:
        problems += _check_flags(flags, kind=kind, old_flags=old_flags)
    if kind == "deferred":
        return problems
    v2 = bool((flags if isinstance(flags, int) else old_flags) & IS_COMPONENTS_V2)
    problems += _length(body.get("content"), ("content",), 0, 2000, required=False)
    if v2 and (body.get("content") or body.get("embeds")):
        problems.append(
            Problem(
                ("content",),
                "The content and embeds fields cannot be used with IS_COMPONENTS_V2",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS",
            )
        )
    problems += _check_embeds(body.get("embeds"))
    problems += check_components(body.get("components"), v2=v2)
    if "allowed_mentions" in body and body["allowed_mentions"] is not None:
        problems += _check_allowed_mentions(body["allowed_mentions"])
    problems += _check_attachments(body.get("attachments"))
    problems += _check_files(files, size_limit)
    problems += _count(body.get("sticker_ids"), ("sticker_ids",), 3)
    if kind in ("create", "followup", "reply") and _empty(body, files):
        problems.append(Problem((), "Cannot send an empty message", EMPTY))
    if kind == "create":
        problems += check_nonce(body)
    return problems


def _empty(body: dict[str, Any], files: Sequence[tuple[str, int]]) -> bool:
    content = body.get("content")
    return not (
        (isinstance(content, str) and content.strip())
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    )


def _check_flags(flags: Any, *, kind: str, old_flags: int) -> list[Problem]:
    if isinstance(flags, bool) or not isinstance(flags, int):
        return [Problem(("flags",), "Value is not int.", "NUMBER_TYPE_COERCE")]
    if kind in ("update", "edit"):
        changed = (flags ^ old_flags) & ~_EDITABLE_FLAGS
        if changed:
            return [Problem(("flags",), f"Cannot change message flags {changed} in an edit")]
        return []
    extra = flags & ~_SETTABLE_FLAGS[kind]
    if extra:
        return [Problem(("flags",), f"Flags {extra} cannot be set on this route")]
    return []


def _check_files(files: Sequence[tuple[str, int]], size_limit: int) -> list[Problem]:
    problems: list[Problem] = []
    if len(files) > MAX_FILES:
        problems.append(
            Problem(("files",), f"Must be {MAX_FILES} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        )
    if any(size > size_limit for _, size in files) or sum(s for _, s in files) > size_limit:
        problems.append(Problem(("files",), "Request entity too large", TOO_LARGE))
    return problems


EMBED_LIMITS = {"title": 256, "description": 4096}


def _check_embeds(embeds: Any) -> list[Problem]:
    problems = _count(embeds, ("embeds",), 10)
    total = 0
    for i, embed in enumerate(_list(embeds)):
        where: Path = ("embeds", i)
        if not isinstance(embed, dict):
            problems.append(Problem(where, "Must be an object.", "DICT_TYPE_CONVERT"))
            continue
        for key, high in EMBED_LIMITS.items():
            problems += _length(embed.get(key), (*where, key), 0, high, required=False)
            total += len(embed.get(key) or "")
        fields = embed.get("fields")
        problems += _count(fields, (*where, "fields"), 25)
        for j, f in enumerate(_list(fields)):
            f = _dict(f)
            problems += _length(f.get("name"), (*where, "fields", j, "name"), 1, 256)
            problems += _length(f.get("value"), (*where, "fields", j, "value"), 1, 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        if embed.get("footer") is not None:
            text = _dict(embed["footer"]).get("text")
            problems += _length(text, (*where, "footer", "text"), 1, 2048)
            total += len(text or "")
        if embed.get("author") is not None:
            name = _dict(embed["author"]).get("name")
            problems += _length(name, (*where, "author", "name"), 1, 256)
            total += len(name or "")
        color = embed.get("color")
        if color is not None:
            problems += _integer(color, (*where, "color"), 0, 0xFFFFFF)
    if total > 6000:
        problems.append(
            Problem(
                ("embeds",),
                "Embed size exceeds maximum size of 6000",
                "MESSAGE_EMBED_SIZE_EXCEEDED",
            )
        )
    return problems


def check_components(components: Any, *, v2: bool = False) -> list[Problem]:
    """Action rows of buttons and selects (classic messages), or the Components V2 tree
    (only the counts and custom ids are checked there)."""
    if components is None:
        return []
    if not isinstance(components, list):
        return [Problem(("components",), "Must be an array.", "BASE_TYPE_ARRAY")]
    problems: list[Problem] = []
    if v2:
        if sum(1 for _ in _walk(components)) > 40:
            problems.append(Problem(("components",), "Must be 40 or fewer in total."))
    else:
        problems += _count(components, ("components",), 5)
        for i, row in enumerate(components):
            problems += _check_row(_dict(row), ("components", i))
    custom_ids: set[str] = set()
    for where, component in _walk(components):
        if "custom_id" not in component:
            continue
        cid = component["custom_id"]
        problems += _length(cid, (*where, "custom_id"), 1, 100)
        if cid in custom_ids:
            problems.append(
                Problem(
                    (*where, "custom_id"),
                    "Component custom id cannot be duplicated",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                )
            )
        custom_ids.add(cid)
    return problems


def _walk(
    components: list[Any], path: Path = ("components",)
) -> Iterable[tuple[Path, dict[str, Any]]]:
    for i, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        yield (*path, i), component
        for key in ("components", "accessory"):
            child = component.get(key)
            if isinstance(child, list):
                yield from _walk(child, (*path, i, key))
            elif isinstance(child, dict):
                yield from _walk([child], (*path, i, key))


def _check_row(row: dict[str, Any], where: Path) -> list[Problem]:
    if row.get("type") != ACTION_ROW:
        return [
            Problem(
                (*where, "type"), "Top-level components must be action rows", "UNION_TYPE_CHOICES"
            )
        ]
    children = [_dict(c) for c in _list(row.get("components"))]
    problems = _count(row.get("components"), (*where, "components"), 5, low=1)
    kinds = [c.get("type") for c in children]
    if any(k in SELECTS for k in kinds) and len(children) > 1:
        problems.append(
            Problem(
                (*where, "components"),
                "A select menu must be alone in its action row",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        )
    for j, child in enumerate(children):
        at = (*where, "components", j)
        if child.get("type") == BUTTON:
            problems += _check_button(child, at)
        elif child.get("type") in SELECTS:
            problems += _check_select(child, at)
        else:
            problems.append(
                Problem(
                    (*at, "type"),
                    "This component cannot be in a message's action row",
                    "UNION_TYPE_CHOICES",
                )
            )
    return problems


def _check_button(button: dict[str, Any], where: Path) -> list[Problem]:
    style = button.get("style")
    problems = _integer(style, (*where, "style"), 1, 6)
    problems += _length(button.get("label"), (*where, "label"), 0, 80, required=False)
    problems += _boolean(button.get("disabled"), (*where, "disabled"))
    if button.get("emoji") is not None:
        problems += _check_emoji(button["emoji"], (*where, "emoji"))
    if style == LINK_STYLE:
        if not button.get("url") or "custom_id" in button:
            problems.append(Problem(where, "A link button needs a url and no custom_id"))
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            problems.append(Problem(where, "A premium button needs a sku_id"))
    elif "custom_id" not in button:
        problems.append(
            Problem((*where, "custom_id"), "This field is required", "BASE_TYPE_REQUIRED")
        )
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        problems.append(Problem(where, "A button needs a label or an emoji"))
    return problems


def _check_select(select: dict[str, Any], where: Path) -> list[Problem]:
    """A select menu: custom id, placeholder, the value counts, and for a string select its
    1-25 options (unique values; label, value, description lengths; ``default`` flags no more
    than ``max_values``; emoji shape)."""
    problems = _length(select.get("custom_id"), (*where, "custom_id"), 1, 100)
    problems += _length(select.get("placeholder"), (*where, "placeholder"), 0, 150, required=False)
    problems += _boolean(select.get("disabled"), (*where, "disabled"))
    low, high = select.get("min_values"), select.get("max_values")
    if low is not None:
        problems += _integer(low, (*where, "min_values"), 0, 25)
    if high is not None:
        problems += _integer(high, (*where, "max_values"), 1, 25)
    least = low if _is_int(low) else 1  # both default to 1
    most = high if _is_int(high) else 1
    if least > most:
        problems.append(
            Problem((*where, "min_values"), "min_values must be less than or equal to max_values")
        )
    if select.get("type") != STRING_SELECT:
        return problems
    options = select.get("options")
    problems += _count(options, (*where, "options"), 25, low=1)
    values: set[Any] = set()
    defaults = 0
    for k, option in enumerate(_list(options)):
        at = (*where, "options", k)
        if not isinstance(option, dict):
            problems.append(Problem(at, "Must be an object.", "DICT_TYPE_CONVERT"))
            continue
        problems += _length(option.get("label"), (*at, "label"), 1, 100)
        problems += _length(option.get("value"), (*at, "value"), 1, 100)
        problems += _length(option.get("description"), (*at, "description"), 0, 100, required=False)
        problems += _boolean(option.get("default"), (*at, "default"))
        if option.get("emoji") is not None:
            problems += _check_emoji(option["emoji"], (*at, "emoji"))
        value = option.get("value")
        if isinstance(value, str) and value in values:
            problems.append(
                Problem(
                    (*at, "value"),
                    "Select option values must be unique",
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                )
            )
        values.add(value)
        defaults += option.get("default") is True
    count = len(_list(options))
    if _is_int(high) and high > count:
        problems.append(Problem((*where, "max_values"), "max_values exceeds the options"))
    if _is_int(low) and low > count:
        problems.append(Problem((*where, "min_values"), "min_values exceeds the options"))
    if defaults > most:
        problems.append(
            Problem(
                (*where, "options"),
                f"{defaults} options are default but at most {most} can be selected",
                "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
            )
        )
    return problems


def _check_emoji(emoji: Any, where: Path) -> list[Problem]:
    """A partial emoji on a button or select option: ``name`` (a unicode emoji, or a custom
    emoji's name, at most 32 characters), ``id`` (a custom emoji's snowflake, or null) and
    ``animated``; nothing else."""
    if not isinstance(emoji, dict):
        return [Problem(where, "Must be an object.", "DICT_TYPE_CONVERT")]
    problems: list[Problem] = []
    unknown = set(emoji) - {"id", "name", "animated"}
    if unknown:
        problems.append(Problem(where, f"Unknown keys {sorted(unknown)}"))
    problems += _length(emoji.get("name"), (*where, "name"), 1, 32)
    emoji_id = emoji.get("id")
    if emoji_id is not None and not (
        isinstance(emoji_id, str | int)
        and not isinstance(emoji_id, bool)
        and str(emoji_id).isdigit()
    ):
        problems.append(Problem((*where, "id"), "Value is not snowflake.", "NUMBER_TYPE_COERCE"))
    problems += _boolean(emoji.get("animated"), (*where, "animated"))
    return problems


def _boolean(value: Any, path: Path) -> list[Problem]:
    """An optional boolean (absent or null is fine)."""
    if value is None or isinstance(value, bool):
        return []
    return [Problem(path, "Must be either true or false.", "BASE_TYPE_BOOLEAN")]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_attachments(attachments: Any) -> list[Problem]:
    """The ``attachments`` array of a message body: at most 10 partial attachments, each with an
    ``id`` (a ``files[n]`` index for a new upload, or a kept attachment's snowflake), a
    ``filename`` of 1-1024 characters and alt text (``description``) of at most 1024."""
    problems = _count(attachments, ("attachments",), MAX_FILES)
    for i, attachment in enumerate(_list(attachments)):
        where: Path = ("attachments", i)
        if not isinstance(attachment, dict):
            problems.append(Problem(where, "Must be an object.", "DICT_TYPE_CONVERT"))
            continue
        if attachment.get("id") is None:
            problems.append(Problem((*where, "id"), "This field is required", "BASE_TYPE_REQUIRED"))
        problems += _length(
            attachment.get("filename"), (*where, "filename"), 1, 1024, required=False
        )
        problems += _length(
            attachment.get("description"), (*where, "description"), 0, 1024, required=False
        )
    return problems


def _check_allowed_mentions(mentions: Any) -> list[Problem]:
    where: Path = ("allowed_mentions",)
    if not isinstance(mentions, dict):
        return [Problem(where, "Must be an object.", "DICT_TYPE_CONVERT")]
    problems: list[Problem] = []
    unknown = set(mentions) - {"parse", "roles", "users", "replied_user"}
    if unknown:
        problems.append(Problem(where, f"Unknown keys {sorted(unknown)}"))
    parse = mentions.get("parse") or []
    if not isinstance(parse, list) or not set(parse) <= {"roles", "users", "everyone"}:
        problems.append(Problem((*where, "parse"), "Values must be roles, users or everyone"))
        parse = []
    for key in ("users", "roles"):
        ids = mentions.get(key)
        problems += _count(ids, (*where, key), 100)
        if any(not (isinstance(i, str | int) and str(i).isdigit()) for i in _list(ids)):
            problems.append(Problem((*where, key), "Values must be snowflakes"))
        if ids and key in parse:
            problems.append(
                Problem(
                    (*where, key),
                    f'parse:["{key}"] and {key}: [ids] are mutually exclusive',
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                )
            )
    replied = mentions.get("replied_user")
    if replied is not None and not isinstance(replied, bool):
        problems.append(Problem((*where, "replied_user"), "Must be a boolean."))
    return problems


def check_nonce(body: dict[str, Any]) -> list[Problem]:
    """``nonce``: an integer or a string of at most 25 characters; ``enforce_nonce`` needs it."""
    nonce = body.get("nonce")
    problems: list[Problem] = []
    if nonce is not None:
        if isinstance(nonce, bool) or not isinstance(nonce, int | str):
            problems.append(Problem(("nonce",), "Must be an integer or a string"))
        elif len(str(nonce)) > 25:
            problems.append(
                Problem(("nonce",), "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
            )
    enforce = body.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        problems.append(Problem(("enforce_nonce",), "Must be a boolean."))
    return problems


# -- interaction responses ----------------------------------------------------------------------


def check_callback(
    body: Any,
    *,
    interaction_type: int | None,
    files: Sequence[tuple[str, int]] = (),
    focused_type: int | None = None,
    message_flags: int = 0,
    size_limit: int = ATTACHMENT_SIZE_LIMIT,
) -> list[Problem]:
    """The initial response to an interaction: a callback type valid for the interaction's
    type, and its ``data`` by the rules of that callback."""
    if not isinstance(body, dict):
        return [Problem((), "Must be an object.", "DICT_TYPE_CONVERT")]
    kind = body.get("type")
    allowed = set().union(*CALLBACK_TYPES.values())
    if interaction_type is not None:
        allowed = CALLBACK_TYPES.get(interaction_type, set())
    if kind not in allowed:
        return [
            Problem(
                ("type",),
                f"Interaction response type {kind} is not valid for"
                f" interaction type {interaction_type}",
                "INTERACTION_RESPONSE_TYPE",
            )
        ]
    data = body.get("data")
    prefix = ("data",)

    def nest(problems: list[Problem]) -> list[Problem]:
        return [Problem((*prefix, *p.path), p.message, p.code) for p in problems]

    if kind == CHANNEL_MESSAGE:
        return nest(check_message(data, kind="reply", files=files, size_limit=size_limit))
    if kind == DEFERRED_CHANNEL_MESSAGE:
        return nest(check_message(data, kind="deferred"))
    if kind == UPDATE_MESSAGE:
        return nest(
            check_message(
                data, kind="update", files=files, old_flags=message_flags, size_limit=size_limit
            )
        )
    if kind == AUTOCOMPLETE_RESULT:
        return nest(check_autocomplete(data, focused_type))
    if kind == MODAL:
        return nest(check_modal(data))
    return []


def check_autocomplete(data: Any, focused_type: int | None) -> list[Problem]:
    """Autocomplete choices: at most 25, names of 1-100 characters, values of the focused
    option's type (a string value at most 100 characters)."""
    choices = _dict(data).get("choices")
    problems = _count(choices, ("choices",), 25)
    for i, choice in enumerate(_list(choices)):
        choice = _dict(choice)
        where: Path = ("choices", i)
        problems += _length(choice.get("name"), (*where, "name"), 1, 100)
        problems += _choice_value(choice.get("value"), (*where, "value"), focused_type)
    return problems


def check_modal(data: Any) -> list[Problem]:
    data = _dict(data)
    problems = _length(data.get("custom_id"), ("custom_id",), 1, 100)
    problems += _length(data.get("title"), ("title",), 1, 45)
    problems += _count(data.get("components"), ("components",), 5, low=1)
    return problems


def check_thread(body: Any) -> list[Problem]:
    """Starting a thread: a name of 1-100 characters."""
    return _length(_dict(body).get("name"), ("name",), 1, 100)
