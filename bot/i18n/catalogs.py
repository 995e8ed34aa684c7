"""The catalogs: which languages exist, which one a reader gets, and a :class:`Text` in it.

A language is one file, ``bot/locales/<code>/LC_MESSAGES/messages.po`` (``de``, ``pt_BR``),
managed with Babel (``python -m bot catalogs``).  The ``.po`` files are the only copy kept in the
repository: each is compiled in memory the first time its language is needed, so there is no
``.mo`` to forget to rebuild.  English is the language the messages are written in and needs no
catalog; any locale without one falls back to it.
"""

from __future__ import annotations

import io
import math
import re
import string
from datetime import timedelta
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from . import text as text_module
from .text import Kind, Text

COMMAND_NAME = "command name"
"""The catalog context of slash command names."""
OPTION_NAME = "option name"
"""The catalog context of slash command options' names."""
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
SOURCE = "en"
"""The language the messages are written in."""

Unit = Literal["day", "hour", "minute", "second"]
_UNITS: tuple[tuple[Unit, int], ...] = (
    ("day", 86400),
    ("hour", 3600),
    ("minute", 60),
    ("second", 1),
)


def catalog_path(code: str) -> Path:
    return LOCALES_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def available() -> tuple[str, ...]:
    """Every language the bot speaks: English, then each catalog present, by code."""
    found = sorted(
        path.parent.parent.name for path in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    )
    return (SOURCE, *(code for code in found if code != SOURCE))


def negotiate(tag: str | None) -> str:
    """The catalog for a Discord locale (``pt-BR``, ``de``, ``en-GB``): the exact language, else
    the language without its region, else English."""
    if not tag:
        return SOURCE
    code = str(tag).replace("-", "_")
    codes = available()
    if code in codes:
        return code
    language = code.split("_", 1)[0]
    if language in codes:
        return language
    return SOURCE


def is_supported(code: str | None) -> bool:
    return code is not None and code in available()


@cache
def babel_locale(code: str) -> Locale:
    try:
        return Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return Locale.parse(SOURCE)


def language_name(code: str) -> str:
    """The language's own name for itself (``Deutsch``, ``português (Brasil)``), capitalised."""
    name = babel_locale(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


@cache
def translations(code: str) -> NullTranslations:
    """The compiled catalog of ``code`` (English: none; a message missing from a catalog shows
    in English)."""
    if code == SOURCE or code not in available():
        return NullTranslations()
    with catalog_path(code).open("rb") as source:
        catalog = read_po(source, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(fp=compiled, domain=DOMAIN)


def render(text: Text, code: str) -> str:
    """``text`` in the language ``code`` (a catalog code from :func:`negotiate`)."""
    kind = text.kind
    if kind is Kind.VERBATIM:
        return text.msgid
    if kind is Kind.SEQUENCE:
        separator = text.msgid if text.context is None else _lookup(text, translations(code))
        return separator.join(render(part, code) for part in text.parts)
    if kind is Kind.LIST:
        return format_list([render(part, code) for part in text.parts], locale=babel_locale(code))
    if kind is Kind.DURATION:
        return _duration(text.count or 0, code)
    pattern = as_typed(_lookup(text, translations(code)), code)
    values = _Values((name, _value(value, code)) for name, value in text.args)
    try:
        return pattern.format_map(values)
    except (IndexError, ValueError, AttributeError):
        # A malformed translation: the English instead (the catalog checks in the tests catch
        # such a translation before it ships; a player must never get an error for it).
        return _lookup(text, NullTranslations()).format_map(values)


class _Values(dict[str, str]):
    """Placeholders to fill; one nobody filled shows as itself rather than failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


COMMAND = re.compile(r"(?<![\w/<:])/([a-z][a-z_-]*)")
"""A slash command named in a sentence (``/challenge``)."""
OPTION = re.compile(r"(?<![\w/<:@#-])([a-z][a-z_]*):(?=[^\s:])")
"""An option given a value in a sentence (``opponent:@friend``, ``game:ID``)."""


def _commands(pattern: str, catalog: NullTranslations) -> str:
    """Commands and their options named in a sentence as this language's client shows them:
    translators write ``/challenge opponent:@friend`` as in English, and the localized names
    (the catalog's ``command name`` and ``option name``) are put in, so a sentence always names
    what the user can type."""

    def command(match: re.Match[str]) -> str:
        name = match.group(1)
        shown = catalog.pgettext(COMMAND_NAME, name)
        return "/" + shown if shown != name else match.group(0)

    def option(match: re.Match[str]) -> str:
        name = match.group(1)
        shown = catalog.pgettext(OPTION_NAME, name)
        return shown + ":" if shown != name else match.group(0)

    return OPTION.sub(option, COMMAND.sub(command, pattern))


TYPED_CHOICES: dict[str, dict[str, str]] = {}
"""The fixed choices a sentence may show typed, by option name: each value as the bot reads it
(``english``, ``offer``) and the English name of the choice Discord lists for it.  The choices
are declared with the commands, which register them here (:func:`register_choices`, called by
:mod:`bot.ui.choices`): this package imports nothing of the bot."""

CHOSEN = re.compile(r"(?<![\w/<:@#-])([a-z][a-z_]*):([a-z][a-z0-9_]*)(?![\w-])")
"""An option given one of its fixed choices in a sentence (``variant:english``)."""
AFTER_COMMAND = re.compile(
    r"(?<![\w/<:])(/[a-z][a-z_-]*) ([a-z][a-z_]*(?:\|[a-z][a-z_]*)*)(?![\w:-])"
)
"""Words typed right after a command: its choices without the option's name
(``/draw offer|accept|decline``), the name of an option (``/rules variant``), or a subcommand
(``/tournament create``)."""
SHORT_NAME = re.compile(r" \(| / ")
"""Where a choice's name goes on to explain itself (``ballot (random ACF …)``, ``English
draughts / American checkers``): what comes before is what the user types to find it."""


def register_choices(option: str, names: dict[str, str]) -> None:
    """Declare ``option``'s fixed choices (value: English name) for :data:`TYPED_CHOICES`."""
    TYPED_CHOICES[option] = dict(names)


def _choice(name: str, catalog: NullTranslations) -> str:
    """A choice as the user finds it in the list: the start of its name in this language."""
    return SHORT_NAME.split(catalog.gettext(name), maxsplit=1)[0]


def _choices(pattern: str, catalog: NullTranslations) -> str:
    """Fixed choices typed in a sentence, shown by the names this language's client lists
    (``variant:english`` reads ``variant:English draughts``, ``variante:Englisches Damespiel``
    in German): translators keep the values as in English, the choices' names are put in."""

    def chosen(match: re.Match[str]) -> str:
        option, value = match.groups()
        name = TYPED_CHOICES.get(option, {}).get(value)
        return match.group(0) if name is None else f"{option}:{_choice(name, catalog)}"

    def after_command(match: re.Match[str]) -> str:
        command, typed = match.groups()
        words = typed.split("|")
        owners = [names for names in TYPED_CHOICES.values() if all(w in names for w in words)]
        if typed in TYPED_CHOICES:  # an option's name: the user picks its value
            shown = catalog.pgettext(OPTION_NAME, typed)
        elif len(owners) == 1:
            shown = "|".join(_choice(owners[0][word], catalog) for word in words)
        elif catalog.pgettext(COMMAND_NAME, typed) != typed:  # a group's subcommand
            shown = catalog.pgettext(COMMAND_NAME, typed)
        else:
            return match.group(0)
        return f"{command} {shown}"

    return AFTER_COMMAND.sub(after_command, CHOSEN.sub(chosen, pattern))


def as_typed(pattern: str, code: str) -> str:
    """A message's pattern in the language ``code`` with what the user types in it (commands,
    options, fixed choices) named as that language's client shows them."""
    catalog = translations(code)
    pattern = _choices(pattern, catalog)
    return pattern if code == SOURCE else _commands(pattern, catalog)


def commands_named(pattern: str) -> list[str]:
    """The slash commands a sentence names, in order (a translation must name the same)."""
    return sorted(COMMAND.findall(pattern))


def template(text: Text, code: str) -> str:
    """The pattern of the message ``text`` in the language ``code``, its ``{name}`` placeholders
    left unfilled (for code that fills them itself, like :mod:`render`); for a plural message, the
    form for its count.  A translation that does not keep exactly the English placeholders is not
    used."""
    pattern = _lookup(text, translations(code))
    english = _lookup(text, NullTranslations())
    if pattern != english and placeholders(pattern) != placeholders(english):
        return english
    return pattern


def _lookup(text: Text, catalog: NullTranslations) -> str:
    if text.plural is not None:
        count = text.count or 0
        if text.context is not None:
            return catalog.npgettext(text.context, text.msgid, text.plural, count)
        return catalog.ngettext(text.msgid, text.plural, count)
    if text.context is not None:
        return catalog.pgettext(text.context, text.msgid)
    return catalog.gettext(text.msgid)


def _value(value: str | int | float | Text, code: str) -> str:
    if isinstance(value, Text):
        return render(value, code)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return number(value, code)
    return str(value)


def number(value: float, code: str) -> str:
    """``value`` as the language ``code`` writes a number (``2.5``, ``2,5``), without grouping
    (ratings and scores read as one word): how every float in a message is shown."""
    return format_decimal(value, locale=babel_locale(code), group_separator=False)


def _duration(seconds: int, code: str) -> str:
    locale = babel_locale(code)
    parts = []
    for unit, size in _UNITS:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(_units(count, unit, size, locale))
    if not parts:
        return _units(0, "second", 1, locale)
    return " ".join(parts[:2])


def _units(count: int, unit: Unit, size: int, locale: Locale) -> str:
    """``count`` of ``unit`` in words (``3 Tage``, ``5 uur``): Babel's CLDR patterns, held at
    that unit (an infinite threshold keeps 7 days from becoming "1 week"; ``format_unit`` lacks
    the long forms of some locales' data, ``format_timedelta`` falls back to them)."""
    return format_timedelta(
        timedelta(seconds=count * size),
        granularity=unit,
        threshold=math.inf,
        format="long",
        locale=locale,
    )


def placeholders(pattern: str) -> frozenset[str]:
    """The ``{name}`` fields of a message (what a translation must keep, no more, no less)."""
    try:
        return frozenset(
            field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(pattern)
            if field is not None
        )
    except ValueError:
        return frozenset({"<malformed>"})


text_module.ENGLISH[0] = lambda text: render(text, SOURCE)
