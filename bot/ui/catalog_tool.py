"""The catalogs' upkeep with Babel: what must be translated, new and updated ``.po`` files, and
what a catalog still lacks.  ``python -m bot catalogs {update,init,check}`` runs it.

What must be translated comes from two places: the messages marked in the code (``_``, ``_n``,
``_p``, ``N_``; Babel's extractor reads them), and the slash commands, whose names, descriptions,
options and choices discord.py hands to the translator (:mod:`bot.ui.translator`) when it syncs.
The commands are read from the command tree itself, through that same translator call, so the
catalog holds exactly the strings a sync asks for.  The template is built in memory each time:
nothing generated is committed besides the ``.po`` files translators edit.
"""

from __future__ import annotations

import asyncio
import io
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from ..config import Settings
from ..i18n import available, placeholders
from ..i18n.catalogs import DOMAIN, LOCALES_DIR, catalog_path, commands_named
from .translator import CONTEXTS, NAME_CONTEXTS

ROOT = LOCALES_DIR.parent.parent
"""The project's root: the packages whose messages are extracted live here."""
PACKAGES = ("bot", "rules", "render")
KEYWORDS = {"_": None, "_n": (1, 2), "_p": ((1, "c"), 2), "N_": None, "N_n": (1, 2)}
"""Babel's keyword specs for :mod:`bot.i18n.text`'s constructors (and the rules' marker)."""
COMMENT_TAGS = ("Translators:",)
PROJECT = "draughts-bot"
COMMANDS = "slash commands"
"""The location of the slash commands' strings in the catalogs."""
WIDTH = 100


def source_messages() -> Iterator[tuple[str, tuple[str, ...] | str, str | None, str, list[str]]]:
    """(file, msgid or (singular, plural), context, line, comments) of every marked message."""
    for package in PACKAGES:
        found = extract_from_dir(
            ROOT / package,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            yield f"{package}/{filename}", message, context, str(lineno), list(comments)


class _Recorder(app_commands.Translator):
    """Records every string a sync would have translated, with its translation context: asked
    once per string for each locale, it records the questions for one locale."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.german and not string.extras.get("verbatim"):
            self.seen.append((string.message, CONTEXTS.get(context.location)))
        return None


async def command_messages() -> list[tuple[str, str | None]]:
    """(msgid, context) of every string of the slash commands, in the order a sync sends them."""
    from ..service import GameService
    from .client import DraughtsBot

    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(Path(folder) / "catalog.db", bot_user_id=1)
        bot = DraughtsBot(Settings())
        try:
            await bot.add_commands(service)
            recorder = _Recorder()
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, recorder)
            seen: dict[tuple[str, str | None], None] = dict.fromkeys(recorder.seen)
            return list(seen)
        finally:
            await asyncio.to_thread(bot.media.close)
            await service.close()


def build_template(commands: list[tuple[str, str | None]]) -> Catalog:
    """The template: every message the code marks and every string of the slash commands."""
    template = Catalog(project=PROJECT, domain=DOMAIN, charset="utf-8", fuzzy=False)
    for filename, message, context, line, comments in source_messages():
        msgid = message if isinstance(message, str) else tuple(message)
        if not msgid or (isinstance(msgid, tuple) and not all(msgid)):
            continue
        template.add(
            msgid,
            locations=[(filename, int(line))],
            auto_comments=comments,
            context=context,
            flags=("python-brace-format",) if placeholders(_first(msgid)) else (),
        )
    for msgid, context in commands:
        existing = template.get(msgid, context)
        if existing is not None:
            continue
        comment = "Discord command or option name: lowercase, no spaces, at most 32 characters"
        template.add(
            msgid,
            locations=[(COMMANDS, 0)],
            auto_comments=[comment] if context in NAME_CONTEXTS else [],
            context=context,
        )
    return template


async def template() -> Catalog:
    return build_template(await command_messages())


def _first(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def read_catalog(code: str) -> Catalog:
    with catalog_path(code).open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


CREATION_DATE = re.compile(rb'^"POT-Creation-Date: [^"]*"$', re.MULTILINE)
"""The header line that changes at every write, whatever else does."""


def write_catalog(code: str, catalog: Catalog) -> bool:
    """Write ``catalog`` as ``code``'s file, unless that file already says the same (its
    creation date aside): a clean tree stays clean.  Whether it was written."""
    path = catalog_path(code)
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, sort_output=False, ignore_obsolete=True)
    text = out.getvalue()
    if path.exists() and CREATION_DATE.sub(b"", path.read_bytes()) == CREATION_DATE.sub(b"", text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return True


def init_catalog(code: str, source: Catalog) -> Path:
    """A new language: an empty catalog for ``code`` (``es``, ``pt_BR``) from the template;
    ``ValueError`` for a code Babel does not know (nothing is written)."""
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        raise ValueError(
            f"{code!r} is not a language code Babel knows: use one such as es, it or pt_BR"
        ) from None
    if catalog_path(code).exists():
        raise FileExistsError(f"{catalog_path(code)} exists; use 'update'")
    catalog = Catalog(locale=code, project=PROJECT, domain=DOMAIN, fuzzy=False)
    catalog.update(source, no_fuzzy_matching=True)
    write_catalog(code, catalog)
    return catalog_path(code)


def update_catalogs(source: Catalog) -> list[str]:
    """Bring every language's catalog in line with the template (new messages added empty,
    removed ones dropped); the codes whose files changed."""
    changed = []
    for code in available():
        if not catalog_path(code).exists():
            continue
        catalog = read_catalog(code)
        catalog.update(source, no_fuzzy_matching=True)
        if write_catalog(code, catalog):
            changed.append(code)
    return changed


@dataclass(frozen=True)
class Problem:
    code: str
    msgid: str
    context: str | None
    what: str

    def __str__(self) -> str:
        where = f" [{self.context}]" if self.context else ""
        return f"{self.code}: {self.msgid!r}{where}: {self.what}"


def problems(source: Catalog, code: str) -> list[Problem]:
    """What keeps ``code``'s catalog from being complete and correct against the template."""
    catalog = read_catalog(code)
    found: list[Problem] = []
    expected_forms = catalog.num_plurals
    for message in source:
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        problem = _check(message, translated, expected_forms)
        if problem:
            found.append(Problem(code, _strings(message.id)[0], message.context, problem))
    for message in catalog:
        if message.id and source.get(message.id, message.context) is None:
            found.append(Problem(code, _strings(message.id)[0], message.context, "not in the code"))
    return found


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, tuple | list):
        return tuple(str(item or "") for item in value)
    return (str(value or ""),)


def _check(message: Message, translated: Message | None, forms: int) -> str | None:
    if translated is None:
        return "missing"
    if translated.fuzzy:
        return "fuzzy"
    plural = isinstance(message.id, tuple | list)
    strings = _strings(translated.string)
    if plural != isinstance(translated.string, tuple | list):
        return "plural forms expected" if plural else "not a plural"
    if plural and len(strings) != forms:
        return f"{len(strings)} plural forms, the language has {forms}"
    if not all(strings):
        return "untranslated"
    wanted = frozenset().union(*(placeholders(text) for text in _strings(message.id)))
    commands = commands_named(_strings(message.id)[0])
    for text in strings:
        if placeholders(text) != wanted:
            return f"placeholders {sorted(placeholders(text))}, expected {sorted(wanted)}"
        if commands_named(text) != commands:
            return f"names the commands {commands_named(text)}, expected {commands}"
    if message.context in NAME_CONTEXTS:
        name = strings[0]
        if name != name.lower() or not 1 <= len(name) <= 32 or any(c.isspace() for c in name):
            return "a command or option name must be lowercase, 1-32 characters, no spaces"
    longest = max(len(text) for text in strings)
    if any(where == COMMANDS for where, _ in message.locations) and longest > 100:
        return f"{longest} characters: Discord allows 100 in a description or choice"
    if message.context == "button" and longest > 80:
        return f"{longest} characters: Discord allows 80 in a button's label"
    return None
