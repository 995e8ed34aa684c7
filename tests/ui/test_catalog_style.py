"""The catalogs read as a native player writes: each language's punctuation, its draughts words
kept to one glossary, its command names spelled as the language spells them, and what the user
types named as the reader's client shows it.

The rules are data (:data:`GLOSSARY`, :data:`SPELLED`) and run over every message of every
catalog, so a message added later is held to them too.  Each rule was seen failing on the
catalogs of issue 28's review before they were fixed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Message
from discord import app_commands
from discord.ext import commands

from bot.i18n import SOURCE, available, clauses, render, translations, verbatim
from bot.i18n.catalogs import COMMAND_NAME, OPTION_NAME, SHORT_NAME, TYPED_CHOICES, as_typed
from bot.ui import catalog_tool
from bot.ui.choices import TYPED
from bot.ui.client import DraughtsBot
from bot.ui.info import help_embed
from bot.ui.rules_texts import rules_summary
from rules.variants import VARIANTS

LANGUAGES = tuple(code for code in available() if code != SOURCE)

NBSP = "\u00a0\u202f"
"""The no-break spaces French writes before ``; : ! ?`` (and inside « »)."""

GLOSSARY: dict[str, list[tuple[str, str]]] = {
    "pl": [
        (r"\bpion(|a|y|ów|em|ie|om|ami|ach)\b", "a piece is a bierka, a man a pionek, not a pion"),
    ],
    "de": [
        (r"\b\w+es Dame\b", "a variant is ein …es Damespiel (Englisches Damespiel), not …es Dame"),
        (r"\bfällig\b", "a deadline reads spätestens / Zeit bis, not fällig"),
        (r"\bKönig|\bBauer\b", "a king is a Dame, a man a Stein"),
    ],
    "fr": [
        (r"\broi\b", "a king is a dame"),
    ],
    "nl": [
        (r"\baan de beurt\b", "whose move it is: aan zet"),
        (r"\bkoning|\bdamsteen", "a man is a schijf, a king a dam"),
    ],
    "pt_BR": [
        (r"\bratings?\b", "a rating is a pontuação, not the English word"),
        (r"\brei\b", "a king is a dama"),
    ],
    "ru": [
        (r"\bкорол|\bфишк|\bферз", "a piece is a шашка, a king a дамка"),
    ],
    "uk": [
        (r"\bкорол|\bфішк|\bферз", "a piece is a шашка, a king a дамка"),
    ],
}
"""Per language, words its messages must not use (a regular expression, case-insensitive) and
the glossary's word instead."""

TERMS: dict[str, tuple[str, str, str]] = {
    "de": ("stein", "steine", "damen"),
    "fr": ("pièce", "pion", "dame"),
    "nl": ("stuk", "schijven", "dammen"),
    "pl": ("bierka", "pionki", "damki"),
    "pt_BR": ("peça", "pedras", "damas"),
    "ru": ("шашка", "шашки", "дамки"),
    "uk": ("шашка", "шашки", "дамки"),
}
"""Each language's glossary: its word for any piece, for the men and for the kings (as
``{count} piece``, ``White men`` and ``White kings`` read); :data:`GLOSSARY` keeps the other
words out."""

SPELLED: dict[str, dict[str, str]] = {
    "pt_BR": {
        word.replace("ç", "c")
        .replace("õ", "o")
        .replace("ã", "a")
        .translate(str.maketrans("áéíóúâêô", "aeiouaeo")): word
        for word in (
            "estatísticas",
            "histórico",
            "adversário",
            "configurações",
            "preferências",
            "tópico",
            "tópicos",
            "nível",
            "ação",
            "usuário",
            "orientação",
            "notação",
            "último",
        )
    },
}
"""Command and option names written without their accents, and the word as the language spells
it: Discord allows any lowercase letter in a name."""


def messages(code: str) -> Iterator[tuple[Message, str]]:
    """Every translated message of a catalog, each plural form on its own."""
    for message in catalog_tool.read_catalog(code):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            if form:
                yield message, form


def words_of(text: str) -> str:
    """A message without what is not prose: code in backticks, placeholders, links, Discord
    tags, and notation (``c3:e5``, ``game:ID``)."""
    text = re.sub(r"`[^`]*`|\{[^{}]*\}|https?://\S+|<[^>]*>", "·", text)
    return re.sub(r"\b\w+:\w+\b", "·", text)


# -- French punctuation -----------------------------------------------------------------------


@pytest.mark.parametrize("code", ["fr"])
def test_french_puts_a_space_before_double_punctuation(code: str) -> None:
    bad = [
        form
        for _message, form in messages(code)
        if re.search(rf"[^\s{NBSP}][;:!?]|«[^\s{NBSP}]|[^\s{NBSP}]»", words_of(form))
    ]
    assert bad == []


def test_clauses_joined_in_code_follow_the_language() -> None:
    joined = clauses([verbatim("a"), verbatim("b")])
    assert render(joined, "fr") == "a\u00a0; b"
    assert render(joined, "en") == render(joined, "de") == "a; b"


@pytest.mark.parametrize("key", [k for k, v in VARIANTS.items() if v.endgames])
def test_a_french_rule_list_joined_in_code_has_its_space_before_the_semicolon(key: str) -> None:
    _title, lines = rules_summary(key)
    french = [render(line, "fr") for line in lines]
    assert any("\u00a0; " in line for line in french), french
    assert not [line for line in french if re.search(rf"[^\s{NBSP}];", words_of(line))]


def test_a_status_line_separator_is_a_catalog_message() -> None:
    from bot.i18n.text import SEMICOLON

    for code in LANGUAGES:
        assert translations(code).pgettext(SEMICOLON.context, SEMICOLON.msgid).strip() == ";"


# -- the glossary -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_keeps_to_its_glossary(code: str) -> None:
    found = [
        (why, form)
        for message, form in messages(code)
        if message.context not in (COMMAND_NAME, OPTION_NAME)
        for rule, why in GLOSSARY.get(code, [])
        if re.search(rule, words_of(form), re.IGNORECASE)
    ]
    assert found == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_names_pieces_men_and_kings_by_its_glossary(code: str) -> None:
    catalog = translations(code)
    piece, men, kings = TERMS[code]
    assert piece in catalog.ngettext("{count} piece", "{count} pieces", 1).lower()
    assert men in catalog.pgettext("board description", "White men").lower()
    assert kings in catalog.pgettext("board description", "White kings").lower()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_variant_has_one_name_in_each_language(code: str) -> None:
    """Its title (``[variant]``) and the choice listing it in the commands read the same."""
    catalog = translations(code)
    for variant in VARIANTS.values():
        assert catalog.pgettext("variant", variant.title) == catalog.gettext(variant.title)


def test_german_names_every_variant_a_damespiel() -> None:
    catalog = translations("de")
    names = [catalog.pgettext("variant", v.title) for v in VARIANTS.values()]
    assert all("Damespiel" in name for name in names), names


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_english_placeholder_user_in_a_translation(code: str) -> None:
    assert [form for _message, form in messages(code) if "@friend" in form] == []


# -- command and option names -----------------------------------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_names_are_spelled_as_the_language_spells_them(code: str) -> None:
    spelled = SPELLED.get(code, {})
    names = [
        form for message, form in messages(code) if message.context in (COMMAND_NAME, OPTION_NAME)
    ]
    bad = [name for name in names for part in re.split(r"[_-]", name) if part in spelled]
    assert bad == []


def test_polish_resign_says_who_gives_up() -> None:
    assert translations("pl").pgettext(COMMAND_NAME, "resign") == "poddaj_się"


# -- what the user types, as the client shows it ----------------------------------------------


def backticked(text: str) -> list[str]:
    return re.findall(r"`([^`]*)`", text)


def english_choices_in(span: str, code: str) -> list[str]:
    """English choice values typed in ``span`` where the reader's client lists another name:
    after an option (``variante:english``) or right after a command (``/remis offer|accept``)."""
    catalog = translations(code)
    shown = {
        value
        for names in TYPED_CHOICES.values()
        for value, name in names.items()
        if SHORT_NAME.split(catalog.gettext(name))[0].lower() != value
    } - set(TYPED_CHOICES)  # a word after a command that names an option is no value
    typed = re.findall(r":([a-z_]+)", span) + [
        word for words in re.findall(r"/\S+ ([a-z_|]+)", span) for word in words.split("|")
    ]
    return [word for word in typed if word in shown]


@pytest.mark.parametrize("code", LANGUAGES)
def test_help_names_the_choices_as_the_readers_client_lists_them(code: str) -> None:
    text = help_embed(code).description or ""
    assert [s for s in backticked(text) if english_choices_in(s, code)] == []
    catalog = translations(code)
    offer, accept, decline = (catalog.gettext(word) for word in ("offer", "accept", "decline"))
    draw = catalog.pgettext(COMMAND_NAME, "draw")
    assert f"`/{draw} {offer}|{accept}|{decline}`" in text
    english = SHORT_NAME.split(catalog.gettext(VARIANTS["english"].title))[0]
    assert f"{catalog.pgettext(OPTION_NAME, 'variant')}:{english}`" in text


def test_english_help_names_the_choices_as_the_english_client_lists_them() -> None:
    text = help_embed("en").description or ""
    assert "`/challenge opponent:@friend variant:English draughts`" in text
    assert "`/draw offer|accept|decline`" in text


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_sentence_types_options_by_the_readers_names(code: str) -> None:
    """An option named alone in backticks (``leave out `thread```, ``/rules variant``) reads as
    that language's client lists it."""
    renamed = {
        message.id: form
        for message, form in messages(code)
        if message.context == OPTION_NAME and form != message.id
    }
    bad = [
        (span, renamed[word])
        for message, form in messages(code)
        if message.context not in (COMMAND_NAME, OPTION_NAME)
        for span in backticked(re.sub(r"\{[^{}]*\}", "", as_typed(form, code)))
        for word in re.findall(r"(?<![/\w])[a-z_]+(?![\w:])", span)
        if word in renamed
    ]
    assert bad == []


def slash_commands() -> Iterator[app_commands.Command[object, ..., object]]:
    """Every slash command of every command group the client adds (each a cog of
    :mod:`bot.ui`, found among the cogs the client's module imports, a new one included)."""
    assert DraughtsBot  # the client's module imports every cog it adds
    for cog in commands.Cog.__subclasses__():
        if cog.__module__.startswith("bot.ui."):
            for command in cog.__cog_app_commands__:
                if isinstance(command, app_commands.Group):
                    yield from command.walk_commands()
                else:
                    yield command


def test_every_option_with_choices_is_typed_by_its_name() -> None:
    """:data:`bot.ui.choices.TYPED` (what sentences may show typed) holds every option with
    fixed choices, by the name the commands give it, with the same choices."""
    declared: dict[str, list[tuple[str, str | int | float]]] = {}
    for command in slash_commands():
        for parameter in command.parameters:
            if parameter.choices:
                listed = [(str(c.name), c.value) for c in parameter.choices]
                assert declared.setdefault(parameter.name, listed) == listed, parameter.name
    assert set(declared) == set(TYPED)
    for option, listed in declared.items():
        assert [(str(c.name), c.value) for c in TYPED[option].choices] == listed
        strings = {str(value): name for name, value in listed if isinstance(value, str)}
        assert TYPED_CHOICES.get(option, {}) == strings
