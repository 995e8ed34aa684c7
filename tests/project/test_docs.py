"""The maps a newcomer reads first stay true: README's layout and ARCHITECTURE.md's "Where to add
things" name only what exists, and README's layout names every folder of code there is.

Both were found out of date once (the layout without PostgreSQL, tools/, bot/i18n or bot/locales),
because nothing read them after the code moved; these tests read them on every run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"

_CODE_SPAN = re.compile(r"`([^`\s]+)`")
_PATHLIKE = re.compile(r"^[\w.*<>-]+(/[\w.*<>-]*)+$|^[\w-]+\.(py|md|c|h|toml|txt)$")


def section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section of a Markdown page."""
    start = text.index(f"## {heading}\n")
    following = text.find("\n## ", start + 1)
    return text[start : following if following != -1 else len(text)]


def layout_block() -> str:
    """The fenced block of README's ``## Layout``."""
    body = section(README.read_text(encoding="utf-8"), "Layout")
    return body.split("```")[1]


def layout_folders() -> set[str]:
    """The folders README's layout describes: the first word of each line that names one."""
    folders = set()
    for line in layout_block().splitlines():
        first = line.split(maxsplit=1)[0] if line.strip() and not line.startswith(" ") else ""
        if first.endswith("/"):
            folders.add(first.rstrip("/"))
    return folders


def named_paths(text: str) -> set[str]:
    """Paths written as code spans (``bot/store/schema.py``, ``tests/support/perft/``); file
    names without a folder are left out (they are named beside their folder)."""
    found = set()
    for span in _CODE_SPAN.findall(text):
        if "/" in span and _PATHLIKE.match(span) and not span.startswith(("http", "/")):
            found.add(span)
    return found


def exists(path: str) -> bool:
    """Whether ``path`` names something in the checkout; ``<variant>`` and ``CODE`` stand for any
    name, ``*`` for any part."""
    pattern = re.sub(r"<[^>]+>|\bCODE\b", "*", path.rstrip("/"))
    return any(ROOT.glob(pattern))


def test_readme_layout_names_only_folders_that_exist() -> None:
    folders = layout_folders()
    assert {"rules", "engine", "render", "bot", "tests", "docs"} <= folders
    missing = sorted(folder for folder in folders if not (ROOT / folder).is_dir())
    assert not missing, f"README's layout names folders that are gone: {missing}"


def test_readme_layout_names_every_folder_of_code() -> None:
    """Every top-level folder with Python in it, and every package inside ``bot/``."""
    layout = layout_block()
    top = {
        path.parent.relative_to(ROOT).parts[0]
        for path in ROOT.glob("*/*.py")
        if not path.parent.name.startswith(".")
    }
    packages = {str(init.parent.relative_to(ROOT)) for init in (ROOT / "bot").glob("*/__init__.py")}
    packages |= {"bot/locales"}
    unnamed = sorted(name for name in top | packages if f"{name}/" not in layout)
    assert not unnamed, f"README's layout does not say what these hold: {unnamed}"


def test_where_to_add_things_names_only_paths_that_exist() -> None:
    body = section(ARCHITECTURE.read_text(encoding="utf-8"), "Where to add things")
    paths = named_paths(body)
    assert len(paths) >= 20, sorted(paths)  # the section still lists its files
    missing = sorted(path for path in paths if not exists(path))
    assert not missing, f"'Where to add things' names paths that are gone: {missing}"


def test_a_path_that_is_gone_is_caught() -> None:
    """The check above can fail: a moved file is reported."""
    assert exists("bot/store/sql_store.py") and exists("bot/locales/CODE/LC_MESSAGES/messages.po")
    assert not exists("bot/store/sqlite_sql.py")
    assert named_paths("see `bot/store/gone.py` and `x.py` and `https://a/b`") == {
        "bot/store/gone.py"
    }
