"""The import graph of the project's packages, read from the source with ``ast``.

DESIGN.md has dependencies point one way (``bot -> engine, render -> rules``) and keeps Discord,
databases and asyncio out of ``rules``, ``engine`` and ``render``.  Import circles inside a package
creep in quietly, held together by an import inside a function or under ``if TYPE_CHECKING:``, so
this reads the source rather than ``sys.modules`` and counts every import wherever it stands, and
``importlib.import_module("name")`` with a literal name too.  An import counts as an edge to the
module it names (``from .fen import parse_fen`` -> ``rules.fen``, ``from . import fen`` ->
``rules.fen``), not to the parent packages Python also runs on the way: every submodule would
otherwise "import" its package's ``__init__``, which imports it back.

To check another package, add it to ``CYCLE_FREE`` and give it a line in ``BOUNDARIES``; the
rooms inside ``bot`` have their own rules in ``BOT_ROOMS``.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
"""The directory holding the project's packages."""

CYCLE_FREE = ("rules", "engine", "render", "bot")
"""Packages whose modules must not import each other in a circle."""

_IO = frozenset({"discord", "sqlite3", "aiosqlite", "asyncpg", "asyncio"})


@dataclass(frozen=True)
class Boundary:
    """What one package may import of the project, and what outside modules it must not use."""

    may_import: frozenset[str]
    """Other project packages it builds on (its own modules are always allowed)."""
    forbidden: frozenset[str]
    """Top-level names of outside modules (standard library or third party) it must not import."""


PROJECT_PACKAGES = frozenset({"rules", "engine", "render", "bot"})

BOUNDARIES: dict[str, Boundary] = {
    "rules": Boundary(may_import=frozenset(), forbidden=_IO),
    "engine": Boundary(may_import=frozenset({"rules"}), forbidden=_IO),
    "render": Boundary(may_import=frozenset({"rules"}), forbidden=_IO),
    "bot": Boundary(may_import=frozenset({"rules", "engine", "render"}), forbidden=frozenset()),
}

_SQLITE = ("sqlite3", "aiosqlite")
_POSTGRES = ("asyncpg",)
_SQL = (*_SQLITE, *_POSTGRES)
_SQLITE_STORE = (
    "bot.store.sqlite",
    "bot.store.sqlite_connection",
    "bot.store.sqlite_schema",
    "bot.store.sqlite_guard",
    "bot.store.sqlite_backup",
    "bot.store.migrate",  # migrate-db: reads SQLite, writes PostgreSQL
)
_POSTGRES_STORE = (
    "bot.store.postgres",
    "bot.store.postgres_connection",
    "bot.store.postgres_schema",
    "bot.store.postgres_shards",
    "bot.store.migrate",
)
_STORE_IMPLEMENTATIONS = (*_SQLITE_STORE, *_POSTGRES_STORE)
_ENTRY = ("bot.__main__", "bot.cli", "bot.config")

BOT_ROOMS: dict[str, tuple[str, ...]] = {
    "bot.i18n": ("bot", "rules", "engine", "render", "discord", *_SQL),
    "bot.enums": ("bot", "engine", "render", "discord", *_SQL),
    "bot.tournaments": ("bot", "rules", "engine", "render", "discord", "asyncio", *_SQL),
    "bot.markdown": ("bot", "rules", "engine", "render", "discord", *_SQL),
    "bot.errors": ("bot", "rules", "engine", "render", "discord", *_SQL),
    "bot.results": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.time_control": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.tournament_results": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.analysis_results": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.import_results": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.words": ("bot.service", "bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.store": ("bot.service", "bot.ui", "bot.results", "bot.errors", *_ENTRY, "discord"),
    "bot.service": (
        *_STORE_IMPLEMENTATIONS,
        "bot.ui",
        "bot.scheduler",
        "bot.engine_player",
        *_ENTRY,
        "discord",
        "engine",
        "render",
        *_SQL,
    ),
    "bot.engine_player": ("bot.store", "bot.ui", "bot.scheduler", *_ENTRY, "discord", *_SQL),
    "bot.scheduler": ("bot.store", "bot.ui", *_ENTRY, "discord", *_SQL),
    "bot.ui": ("bot.store", "bot.__main__", "bot.cli", *_SQL),
}
"""The rooms of ``bot`` and what each must not import (a module, or a package and everything in
it), so dependencies point one way: the Discord layer on the service, the service on the storage
protocol (never on an implementation or a database driver), the store on nothing of the service.
A room is a module or a package and everything in it; the prefix ``bot`` alone stands for the
whole package (``bot.enums`` builds on ``rules`` only)."""

EVERY_ROOM = ("bot.i18n",)
"""Rooms every other room may import whatever it forbids: the words of every language
(:mod:`bot.i18n`, which itself builds on nothing of the project)."""


# -- reading the graph ------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One import statement (or ``import_module`` call) and the module it names."""

    importer: str
    imported: str
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path.as_posix()}:{self.line}"


def modules_of(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a directory under ``root``), subpackages included, by dotted
    name; ``pkg/__init__.py`` is ``pkg``.  A compiled module (``engine._core``, built from C) is
    known by its type stub, so ``from . import _core`` names that module, not its package.
    Raises if there is no such package, so a misspelt name cannot make a check pass on an empty
    graph."""
    base = root / package
    if not (base / "__init__.py").is_file():
        raise FileNotFoundError(f"{base} is not a package")
    modules = {}
    stubs = [p for p in base.rglob("*.pyi") if not p.with_suffix(".py").is_file()]
    for path in sorted([*base.rglob("*.py"), *stubs]):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def resolve_relative(importer: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module name of ``from <level dots><name> import ...`` written in
    ``importer`` (a package's ``__init__`` counts from the package itself)."""
    parts = importer.split(".") if is_package else importer.split(".")[:-1]
    if level - 1 >= len(parts):
        raise ValueError(f"{importer}: relative import beyond the top-level package")
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _literal_import_call(node: ast.Call) -> str | None:
    """The module named by ``importlib.import_module("x")``, ``import_module("x")`` or
    ``__import__("x")``, if the name is a string literal."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imports_in(
    path: Path, module: str, known: Mapping[str, Path], root: Path = ROOT
) -> list[Import]:
    """Every import in the file of ``module``, at any depth, in line order.  ``from X import y``
    names the module ``X.y`` when that is one of the ``known`` modules, else ``X``."""
    return sorted(_walk_imports(path, module, known, root), key=lambda found: found.line)


@cache
def import_nodes(source: str, filename: str) -> tuple[ast.AST, ...]:
    """The import statements and literal ``import_module`` calls of ``source``, found once per
    text (each caller reads the file again, so an edited file is searched again): every room's
    test walks the same files, and walking their syntax trees was most of this module's CPU."""
    return tuple(
        node
        for node in ast.walk(ast.parse(source, filename=filename))
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.Call) and _literal_import_call(node) is not None)
    )


def _walk_imports(
    path: Path, module: str, known: Mapping[str, Path], root: Path
) -> Iterator[Import]:
    is_package = path.name == "__init__.py"
    shown = path.relative_to(root)
    for node in import_nodes(path.read_text(encoding="utf-8"), str(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, shown, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                source = resolve_relative(module, is_package, node.level, node.module)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                target = submodule if submodule in known else source
                yield Import(module, target, shown, node.lineno)
        elif isinstance(node, ast.Call):
            name = _literal_import_call(node)
            if name is not None:
                if name.startswith("."):
                    level = len(name) - len(name.lstrip("."))
                    name = resolve_relative(module, is_package, level, name[level:] or None)
                yield Import(module, name, shown, node.lineno)


def all_imports(root: Path, package: str) -> list[Import]:
    """Every import of every module of ``package``."""
    modules = modules_of(root, package)
    return [
        found
        for module, path in modules.items()
        for found in imports_in(path, module, modules, root)
    ]


ImportGraph = dict[str, dict[str, Import]]
"""Module -> the modules of the same package it imports, each with its first import."""


def import_graph(root: Path, package: str) -> ImportGraph:
    """The imports among the modules of ``package`` (imports from elsewhere left out)."""
    modules = modules_of(root, package)
    graph: ImportGraph = {module: {} for module in modules}
    for found in all_imports(root, package):
        if found.imported in modules:
            graph[found.importer].setdefault(found.imported, found)
    return graph


def find_cycle(graph: ImportGraph) -> list[Import] | None:
    """One import circle of ``graph`` as the imports that make it, or None; modules are tried in
    name order so the answer is the same every run."""
    done: set[str] = set()
    trail: list[Import] = []
    on_trail: dict[str, int] = {}

    def visit(module: str) -> list[Import] | None:
        on_trail[module] = len(trail)
        for target in sorted(graph.get(module, {})):
            edge = graph[module][target]
            if target in on_trail:
                return [*trail[on_trail[target] :], edge]
            if target not in done:
                trail.append(edge)
                cycle = visit(target)
                if cycle is not None:
                    return cycle
                trail.pop()
        del on_trail[module]
        done.add(module)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle is not None:
                return cycle
    return None


def describe_cycle(cycle: list[Import]) -> str:
    """``a -> b -> a`` with where each import is written."""
    steps = [cycle[0].importer]
    steps += [f"-> {edge.imported} ({edge.where})" for edge in cycle]
    return " ".join(steps)


# -- the checks -------------------------------------------------------------------------------


def cycle_problems(root: Path, package: str) -> list[str]:
    cycle = find_cycle(import_graph(root, package))
    return [] if cycle is None else [f"import circle in {package}: {describe_cycle(cycle)}"]


def boundary_problems(root: Path, package: str, boundary: Boundary) -> list[str]:
    others = PROJECT_PACKAGES - boundary.may_import - {package}
    banned = others | boundary.forbidden
    return [
        f"{found.importer} imports {found.imported} ({found.where})"
        for found in all_imports(root, package)
        if found.imported.partition(".")[0] in banned
    ]


@pytest.mark.parametrize("package", CYCLE_FREE)
def test_no_import_circle_inside_package(package: str) -> None:
    graph = import_graph(ROOT, package)
    assert any(graph.values()), f"no imports read among the modules of {package}"
    assert cycle_problems(ROOT, package) == []


@pytest.mark.parametrize("package", sorted(BOUNDARIES))
def test_package_imports_only_what_it_builds_on(package: str) -> None:
    assert boundary_problems(ROOT, package, BOUNDARIES[package]) == []


def _names(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def room_problems(root: Path, room: str, forbidden: tuple[str, ...]) -> list[str]:
    """The imports of ``room``'s modules that name a forbidden module (its own aside)."""
    package = room.partition(".")[0]
    return [
        f"{found.importer} imports {found.imported} ({found.where})"
        for found in all_imports(root, package)
        if _names(found.importer, room)
        and not _names(found.imported, room)
        and not any(_names(found.imported, shared) for shared in EVERY_ROOM)
        and any(_names(found.imported, banned) for banned in forbidden)
    ]


@pytest.mark.parametrize("room", sorted(BOT_ROOMS))
def test_the_rooms_of_bot_import_one_way(room: str) -> None:
    assert any(_names(m, room) for m in modules_of(ROOT, "bot")), f"no module {room}"
    assert room_problems(ROOT, room, BOT_ROOMS[room]) == []


SERVICE_ORDER = (
    "clocks",
    "views",
    "events",
    "records",
    "ratings",
    "ladder",
    "matches",
    "tournament_rounds",
    "tournament_views",
    "settings",
    "prefs",
    "languages",
    "notices",
    "standings",
    "computer",
    "shards",
    "live",
    "starting",
    "endings",
    "computer_replies",
    "challenge_terms",
    "challenges",
    "play",
    "draws",
    "takebacks",
    "hints",
    "queries",
    "analyses",
    "imports",
    "tournaments",
    "tournament_games",
    "downtime",
    "deadlines",
    "flags",
    "outbox",
    "announcing",
    "tournament_face",
    "analysis_face",
    "import_face",
    "puzzle_terms",
    "puzzle_mining",
    "puzzles",
    "puzzle_daily",
    "puzzle_face",
    "readers_face",
    "rooms",
    "facade",
)
"""The service's modules in the order of docs/ARCHITECTURE.md: each imports only those before it
(the package's ``__init__`` exports the facade)."""


def order_problems(root: Path, package: str, order: tuple[str, ...]) -> list[str]:
    """Modules of the subpackage ``package`` missing from ``order``, and imports among its
    modules that point to one listed at the same place or later."""
    top = package.partition(".")[0]
    rank = {f"{package}.{name}": n for n, name in enumerate(order)}
    members = [m for m in modules_of(root, top) if m.startswith(package + ".")]
    problems = [f"{module} is not in the order" for module in members if module not in rank]
    for found in all_imports(root, top):
        backwards = rank.get(found.imported, -1) >= rank.get(found.importer, len(order))
        if backwards:
            problems.append(f"{found.importer} imports {found.imported} ({found.where})")
    return problems


def test_the_service_rooms_import_in_the_documented_order() -> None:
    assert order_problems(ROOT, "bot.service", SERVICE_ORDER) == []


ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
SERVICE_TABLE = "## The rooms of the service"


def documented_order(page: str, heading: str) -> list[str]:
    """The modules the first table after ``heading`` names in its first column, in order, each
    as its file name without ``.py`` (a row may name several: ``ratings.py``, ``ladder.py``)."""
    lines = page.split(heading, 1)[1].splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("|"))
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    return [
        name.removesuffix(".py")
        for row in rows
        for name in re.findall(r"`([a-z_]+\.py)`", row.split("|")[1])
    ]


def test_the_documented_rooms_of_the_service_are_in_the_enforced_order() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert documented_order(page, SERVICE_TABLE) == list(SERVICE_ORDER)


def test_a_documented_order_is_read_from_the_table() -> None:
    page = (
        "## Other\n\n| module | job |\n|---|---|\n| `x.py` | no |\n\n"
        "## Rooms\n\nText.\n\n| module | job |\n|---|---|\n"
        "| `b.py`, `a.py` | two, `c.py` in a job is not a room |\n| `d.py` | one |\n\n"
        "| `e.py` | another table |\n"
    )
    assert documented_order(page, "## Rooms") == ["b", "a", "d"]


FACES = {"bot.ui": ("bot.service", "bot.service.facade")}
"""Rooms that may use the service only through its face: the package (which exports
:class:`~bot.service.GameService`) and the facade's module, never a room behind it, whose types
and words the Discord layer would then depend on."""


def face_problems(root: Path, room: str, face: tuple[str, ...]) -> list[str]:
    """The imports of ``room``'s modules that name a module of the service other than ``face``."""
    return [
        f"{found.importer} imports {found.imported} ({found.where})"
        for found in all_imports(root, "bot")
        if _names(found.importer, room)
        and _names(found.imported, "bot.service")
        and found.imported not in face
    ]


def facade_attributes(root: Path) -> set[str]:
    """The public attributes :class:`GameService` sets on itself (its rooms, its store...), as
    opposed to its methods, read from ``facade.py``."""
    tree = ast.parse((root / "bot" / "service" / "facade.py").read_text(encoding="utf-8"))
    return {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
        and not target.attr.startswith("_")
    }


def reach_problems(root: Path, room: str, attributes: set[str]) -> list[str]:
    """Places in ``room``'s modules that reach through the service to one of ``attributes``
    (``service.outbox.delivered``, ``self.service.store``): the face is its methods."""
    problems: list[tuple[str, int, str, str]] = []
    for module, path in modules_of(root, "bot").items():
        if not _names(module, room):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or node.attr not in attributes:
                continue
            held = node.value
            name = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", "")
            if name in ("service", "_service"):
                problems.append((module, node.lineno, node.attr, path.relative_to(root).as_posix()))
    return [
        f"{module} reaches service.{attr} ({where}:{line})"
        for module, line, attr, where in sorted(problems)
    ]


@pytest.mark.parametrize("room", sorted(FACES))
def test_the_discord_layer_uses_the_service_only_through_its_face(room: str) -> None:
    assert face_problems(ROOT, room, FACES[room]) == []
    attributes = facade_attributes(ROOT)
    assert {"store", "outbox", "settings"} <= attributes  # what the check looks for is read
    assert reach_problems(ROOT, room, attributes) == []


def test_a_room_behind_the_face_is_found(tmp_path: Path) -> None:
    _write_package(
        tmp_path,
        "bot",
        {
            "__init__.py": "",
            "service/__init__.py": "from .facade import GameService\n",
            "service/facade.py": (
                "class GameService:\n"
                "    def __init__(self, store):\n"
                "        self.store = store\n"
                "        self._rooms = ()\n"
            ),
            "service/settings.py": "class ServerSettings: ...\n",
            "ui/__init__.py": "",
            "ui/cog.py": (
                "from ..service import GameService\n"
                "from ..service.facade import GameService as Face\n"
                "from ..service.settings import ServerSettings\n"
                "def f(service, cog):\n"
                "    from bot.service import settings\n"
                "    cog.service.store.meta('x')\n"
                "    return service._rooms, service.store\n"
            ),
        },
    )
    face = FACES["bot.ui"]
    assert face_problems(tmp_path, "bot.ui", face) == [
        "bot.ui.cog imports bot.service.settings (bot/ui/cog.py:3)",
        "bot.ui.cog imports bot.service.settings (bot/ui/cog.py:5)",
    ]
    assert facade_attributes(tmp_path) == {"store"}
    assert reach_problems(tmp_path, "bot.ui", {"store"}) == [
        "bot.ui.cog reaches service.store (bot/ui/cog.py:6)",
        "bot.ui.cog reaches service.store (bot/ui/cog.py:7)",
    ]


def _talkers(drivers: tuple[str, ...]) -> set[str]:
    return {
        found.importer
        for found in all_imports(ROOT, "bot")
        if found.imported.partition(".")[0] in drivers
    }


def test_only_the_sqlite_store_talks_to_sqlite() -> None:
    talkers = _talkers(_SQLITE)
    # The store itself (its queries and its row mapping), and its file-level helpers: the checks
    # and lock before start-up, backups.
    assert talkers <= set(_SQLITE_STORE) - {"bot.store.sqlite_schema"}
    assert "bot.store.sqlite" in talkers


def test_only_the_postgres_store_talks_to_postgres() -> None:
    talkers = _talkers(_POSTGRES)
    # The store, its shared writes and its shard locks; the schema's migrations run on a
    # connection handed in.
    assert talkers <= set(_POSTGRES_STORE) - {"bot.store.postgres_schema"}
    assert "bot.store.postgres" in talkers


REFERENCE_BUILDS_ON = ("engine.reference", "engine.scores")
"""What the reference search (:mod:`engine.reference`) may import of the engine: itself and the
score scale both searches share.  It is what the native search is checked against and what stands
in when the core returns a wrong move, so it must not rest on the core or anything built on it."""


def reference_problems(root: Path) -> list[str]:
    """The imports of ``engine.reference`` that reach the rest of the engine."""
    return [
        f"{found.importer} imports {found.imported} ({found.where})"
        for found in all_imports(root, "engine")
        if _names(found.importer, "engine.reference")
        and _names(found.imported, "engine")
        and not any(_names(found.imported, allowed) for allowed in REFERENCE_BUILDS_ON)
    ]


def test_the_reference_search_stands_apart_from_the_core() -> None:
    modules = modules_of(ROOT, "engine")
    assert "engine.reference.search" in modules, "no reference search"
    assert reference_problems(ROOT) == []


# -- the checks can fail ------------------------------------------------------------------------


def _write_package(root: Path, name: str, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / name / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_circle_through_function_and_type_checking_imports_is_found(tmp_path: Path) -> None:
    _write_package(
        tmp_path,
        "loop",
        {
            "__init__.py": "from .a import f\n",
            "a.py": "def f():\n    from .b import g\n    return g\n",
            "b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from .sub import c\n"
                "def g(): ...\n"
            ),
            "sub/__init__.py": "",
            "sub/c.py": "import importlib\nA = importlib.import_module('loop.a')\n",
            "fine.py": "from . import a\nfrom .sub import c\n",
        },
    )
    problems = cycle_problems(tmp_path, "loop")
    assert problems == [
        "import circle in loop: loop.a -> loop.b (loop/a.py:2) -> loop.sub.c (loop/b.py:3) "
        "-> loop.a (loop/sub/c.py:2)"
    ]


def test_self_import_and_circle_without_one_are_told_apart(tmp_path: Path) -> None:
    _write_package(tmp_path, "chain", {"__init__.py": "", "a.py": "from . import b\n", "b.py": ""})
    assert cycle_problems(tmp_path, "chain") == []
    _write_package(tmp_path, "selfish", {"__init__.py": "", "a.py": "from . import a\n"})
    assert cycle_problems(tmp_path, "selfish") == [
        "import circle in selfish: selfish.a -> selfish.a (selfish/a.py:1)"
    ]


def test_a_compiled_module_is_known_by_its_stub(tmp_path: Path) -> None:
    # engine/native.py's ``from . import _core``: the C module, whose stub stands for it, not the
    # package whose __init__ imports native.py (a circle if the stub were not a module).
    files = {"__init__.py": "from .a import f\n", "a.py": "from . import _fast\ndef f(): ...\n"}
    _write_package(tmp_path, "compiled", {**files, "_fast.pyi": "def g() -> int: ...\n"})
    assert cycle_problems(tmp_path, "compiled") == []
    _write_package(tmp_path, "unbuilt", files)  # no stub: the name can only be the package's
    assert cycle_problems(tmp_path, "unbuilt") == [
        "import circle in unbuilt: unbuilt -> unbuilt.a (unbuilt/__init__.py:1) "
        "-> unbuilt (unbuilt/a.py:1)"
    ]


def test_forbidden_imports_are_found_wherever_they_stand(tmp_path: Path) -> None:
    _write_package(
        tmp_path,
        "rules",
        {
            "__init__.py": "",
            "a.py": (
                "import os\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from bot.store import Store\n"
                "def f():\n"
                "    import discord.ext.commands\n"
                "    return __import__('sqlite3')\n"
            ),
            "b.py": "from engine import best_move\nfrom . import a\n",
        },
    )
    assert boundary_problems(tmp_path, "rules", BOUNDARIES["rules"]) == [
        "rules.a imports bot.store (rules/a.py:4)",
        "rules.a imports discord.ext.commands (rules/a.py:6)",
        "rules.a imports sqlite3 (rules/a.py:7)",
        "rules.b imports engine (rules/b.py:1)",
    ]


def test_relative_imports_resolve_from_module_or_package() -> None:
    assert resolve_relative("rules.position", False, 1, "movegen") == "rules.movegen"
    assert resolve_relative("rules", True, 1, "fen") == "rules.fen"
    assert resolve_relative("bot.ui.cogs.game", False, 2, "flows") == "bot.ui.flows"
    assert resolve_relative("bot.ui", True, 2, None) == "bot"
    with pytest.raises(ValueError, match="beyond the top-level package"):
        resolve_relative("rules.position", False, 2, "engine")


def test_a_room_that_reaches_past_its_boundary_is_found(tmp_path: Path) -> None:
    _write_package(
        tmp_path,
        "bot",
        {
            "__init__.py": "",
            "store/__init__.py": "from .protocol import Store\n",
            "store/protocol.py": "",
            "store/sqlite.py": "import aiosqlite\n",
            "service/__init__.py": (
                "from ..store import Store\n"
                "def open():\n"
                "    from ..store.sqlite import SqliteStore\n"
            ),
        },
    )
    assert room_problems(tmp_path, "bot.service", BOT_ROOMS["bot.service"]) == [
        "bot.service imports bot.store.sqlite (bot/service/__init__.py:3)"
    ]
    assert room_problems(tmp_path, "bot.store", BOT_ROOMS["bot.store"]) == []


def test_a_reference_module_that_leans_on_the_core_is_found(tmp_path: Path) -> None:
    _write_package(
        tmp_path,
        "engine",
        {
            "__init__.py": "",
            "scores.py": "",
            "native.py": "",
            "reference/__init__.py": "",
            "reference/board.py": "from engine._core import Rules\n",
            "reference/search.py": (
                "from ..scores import MATE\n"
                "from .board import Board\n"
                "def f():\n"
                "    from engine import native\n"
            ),
        },
    )
    assert reference_problems(tmp_path) == [
        "engine.reference.board imports engine._core (engine/reference/board.py:1)",
        "engine.reference.search imports engine.native (engine/reference/search.py:4)",
    ]


def test_missing_package_is_an_error_not_an_empty_graph(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        import_graph(tmp_path, "rulez")
