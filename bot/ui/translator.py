"""The slash commands in every language with a catalog: discord.py asks a
:class:`app_commands.Translator` for each name, description, option and choice once per Discord
locale when it syncs, and sends the answers as ``name_localizations`` and
``description_localizations``.  Discord then shows each user the commands in their own client's
language, while the bot keeps receiving the English names.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from ..i18n import SOURCE, negotiate, translations
from ..i18n.catalogs import COMMAND_NAME, OPTION_NAME

CONTEXTS: dict[Where, str] = {
    Where.command_name: COMMAND_NAME,
    Where.group_name: COMMAND_NAME,
    Where.parameter_name: OPTION_NAME,
}
"""The catalog context of each kind of command string.  A command's or option's name follows
Discord's rules for names (lowercase, no spaces), so it is kept apart from the same English word
in a sentence.  Descriptions and choices have none: a choice (``5 minutes``) reads the same
wherever it is shown, and the code marks it with ``N_`` where it declares it."""
NAME_CONTEXTS = frozenset({COMMAND_NAME, OPTION_NAME})


def exact_catalog(locale: discord.Locale) -> str | None:
    """The catalog for a Discord locale, or None when that locale would read English anyway."""
    code = negotiate(locale.value)
    return None if code == SOURCE else code


class CatalogTranslator(app_commands.Translator):
    """Answers discord.py's questions from the catalogs; None (no localization) for English,
    for locales without a catalog, and for strings a catalog leaves untranslated."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = exact_catalog(locale)
        if code is None or string.extras.get("verbatim"):
            return None  # English, or words shown the same to everyone (a language's own name)
        catalog = translations(code)
        message = string.message
        where = CONTEXTS.get(context.location)
        translated = (
            catalog.pgettext(where, message) if where is not None else catalog.gettext(message)
        )
        return translated if translated != message else None
