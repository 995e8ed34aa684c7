"""No user-visible words bypass the catalogs: every sentence the bot can show is a literal inside
``_``/``_n``/``_p``/``N_`` (so Babel extracts it and every language translates it).

The check reads the code of the modules that build what users see and flags any string literal
(or f-string) that reads like words outside those calls.  Not flagged, as nobody reads them: doc
strings, log messages, assertions, the text of exceptions that are bugs rather than refusals
(``ValueError`` and the like), and the few literals :data:`ALLOWED` names with the reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
CHECKED = [
    *sorted((ROOT / "bot" / "ui").glob("*.py")),
    *sorted((ROOT / "bot" / "service").glob("*.py")),
    ROOT / "bot" / "errors.py",
    ROOT / "bot" / "results.py",
    ROOT / "bot" / "markdown.py",
]
"""The modules whose words reach users (the store, the process and the operator's command line
speak to operators, in English)."""
NOT_SHOWN = {ROOT / "bot" / "ui" / "catalog_tool.py"}
"""A translator's tool: it speaks English to the developer running it."""
MARKERS = {"_", "_n", "_p", "N_"}
INTERNAL_ERRORS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "RuntimeError",
    "AssertionError",
    "NotImplementedError",
    "LookupError",
    "FileExistsError",
    "StaleVersion",
}
"""Exceptions that mean a bug or damaged data: their text goes to the log, never to a user."""
LOGGERS = {"log", "logger", "logging", "warnings"}
WORDS = re.compile(r"[A-Za-z]{2,}(?:[,;:]?\s+|['’])[A-Za-z]{2,}|^[A-Z][a-z]{2,}[.!?]?$")
"""Reads like words: two words in a row, or one capitalised word (a label, a title)."""

ALLOWED: dict[str, str] = {
    "bot/service/records.py:its moves do not replay by the rules": "migrate-db's report to the "
    "operator (English, like every operator command)",
    "bot/service/records.py:its moves give the  , its row says ": "migrate-db's report to the "
    "operator (English, like every operator command)",
    "bot/ui/command_sync.py:Discord unreachable: ": "the operator's log line",
    "bot/ui/command_sync.py:Discord refused the commands: ": "the operator's log line",
    "bot/ui/posted.py:shown in part": "an internal signal between two methods",
    "bot/ui/media.py:White": "a PDN tag name",
    "bot/ui/media.py:Black": "a PDN tag name",
    "bot/ui/picker_items.py:Page": "the label of a page button rebuilt from its id only to "
    "dispatch a press; the button users see is built with its translated label",
    "bot/ui/translator.py:option name": "a catalog context, read by translators not players",
    "bot/service/challenges.py:the game needs a thread": "ThreadRequired: never shown, the "
    "Discord layer opens a thread and asks again",
    "bot/service/facade.py:Computer": "the bot's own name when none is given (tests)",
    "bot/results.py:Hint": "a name the module exports (__all__), not a word shown",
    "bot/service/queries.py:Hints": "a PDN tag name of the game file (the hints a game took)",
    **{
        f"bot/service/queries.py:{tag}": "a PDN tag name or value of the game file"
        for tag in (
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Discord draughts",
            "Discord",
            "Discord draughts match #",
        )
    },
    **{
        f"bot/service/tournaments.py:{tag}": "a PDN tag name or value of the event's file"
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Discord")
    },
    **{
        f"bot/service/{module}:{tag}": "a PDN tag name read from an imported file"
        for module, tags in (
            ("imports.py", ("Event", "Date", "White", "Black")),
            ("import_face.py", ("White", "Black")),
        )
        for tag in tags
    },
}
"""``path:literal`` of literals that read like words but are not shown to users, with why."""


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _owner(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id
    return ""


def bypasses(source: str, name: str = "<code>") -> Iterator[tuple[int, str]]:
    """(line, literal) of every wordy literal outside the catalog markers in ``source``."""
    tree = ast.parse(source)
    skipped: set[int] = set()

    def skip(node: ast.AST) -> None:
        for child in ast.walk(node):
            skipped.add(id(child))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:
                # Doc strings, and attribute doc strings after an assignment.
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    skip(statement)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # Slash command declarations (names, descriptions, choices): discord.py hands them
            # to the catalog translator, and the catalog takes them from the command tree.
            for decorator in node.decorator_list:
                skip(decorator)
        if isinstance(node, ast.Call):
            called = _call_name(node)
            owner = _owner(node)
            if (
                called in MARKERS
                or owner in LOGGERS
                or called in INTERNAL_ERRORS
                or owner in ("app_commands", "re")
            ):
                skip(node)
        elif isinstance(node, ast.Assert):
            skip(node)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if _call_name(node.exc) in INTERNAL_ERRORS:
                skip(node)
        elif isinstance(node, ast.JoinedStr):
            for value in node.values:
                skipped.add(id(value))
            text = "".join(
                v.value
                for v in node.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            )
            if id(node) not in skipped and WORDS.search(text):
                yield node.lineno, text
            skip(node)
        elif isinstance(node, ast.Subscript | ast.arg | ast.AnnAssign):
            # Annotations (``Literal["..."]``) are types, not words.
            annotation = getattr(node, "annotation", None)
            if annotation is not None:
                skip(annotation)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skipped
            and WORDS.search(node.value)
        ):
            yield node.lineno, node.value


def test_every_shown_word_goes_through_the_catalogs() -> None:
    found = []
    for path in CHECKED:
        if path in NOT_SHOWN:
            continue
        relative = path.relative_to(ROOT).as_posix()
        for line, literal in bypasses(path.read_text(), relative):
            if f"{relative}:{literal}" not in ALLOWED:
                found.append(f"{relative}:{line}: {literal!r}")
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        'raise NotYourTurnError("it is not your turn")',
        'embed.title = "Game over"',
        'text = f"{name} has resigned"',
        'reply(verbatim("Game over, well played"))',
        'button = Button(label="Resign")',
    ],
)
def test_a_new_literal_outside_the_catalog_is_caught(source: str) -> None:
    assert list(bypasses(source)) != []


@pytest.mark.parametrize(
    "source",
    [
        'raise NotYourTurnError(_("it is not your turn"))',
        'text = _n("{count} move", "{count} moves", n)',
        'log.warning("could not post the board for game %s", game)',
        'raise ValueError("not a stored game: missing field")',
        'def f():\n    """Doc string with words."""',
        'custom_id = "board:move:12"',
        'assert x, "never happens at all"',
        'label = _p("button", "Resign")',
    ],
)
def test_marked_and_internal_text_is_not_flagged(source: str) -> None:
    assert list(bypasses(source)) == []
