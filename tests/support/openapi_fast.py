"""A compiled first pass over request bodies, so the fake Discord's schema check stays cheap.

jsonschema walks an operation's request-body schema for every body (the message schemas are
unions of unions: 9-20 ms for a board message with a select menu on this machine, about a minute
of CPU in a run of ``.ci/run``). fastjsonschema turns the same schema into Python code once, which
checks a body in about a millisecond. The compiled code only says yes or no (and the first thing
it found): :func:`openapi_check.validate` asks it first and hands a refused body to jsonschema for
the messages Discord-like errors need, so the verdicts are the compiled code's and the words
jsonschema's. ``tests/e2e/test_fake_discord.py`` holds the two to the same verdicts.

Why the two agree: the spec's schemas use only keywords both drafts read alike (``$ref`` has no
sibling but ``description``; no ``prefixItems``, ``unevaluated*`` or ``dependent*``), which
:func:`_draft07_compatible` checks before anything is compiled; formats are not checked by either
(jsonschema checks none without a format checker, and every format here is accepted as any
string).

Generating the code for one operation takes most of a second (the spec is 1 MB), so it is kept in
the user's cache folder beside the fetched spec, named by the spec's checksum, the version of
fastjsonschema that wrote it (its code imports names of that version: 2.22 imports one 2.21
lacks, and the test tools are not pinned, so two virtual environments on one machine can differ)
and the operation: each pytest worker of each run then only imports it. A file is written under a
temporary name and renamed, so workers racing on a cold cache never read half of one.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema

Check = Callable[[Any], Any]
"""A compiled check: returns the body, or raises ``fastjsonschema.JsonSchemaValueException``."""

DIFFERENT_IN_DRAFT07 = ("prefixItems", "unevaluatedItems", "unevaluatedProperties")
"""Keywords of draft 2020-12 that draft 7 (fastjsonschema's newest) reads otherwise or not at
all; with ``dependentRequired``/``dependentSchemas`` and a ``$ref`` beside constraints."""


def formats_of(document: Any) -> set[str]:
    """Every ``format`` the document names."""
    found: set[str] = set()
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _draft07_compatible(document: Any) -> bool:
    """Whether the document's schemas mean the same read as draft 7 as read as draft 2020-12."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node and set(node) - {"$ref", "description", "title"}:
                return False
            if any(k.startswith("dependent") or k in DIFFERENT_IN_DRAFT07 for k in node):
                return False
            if isinstance(node.get("items"), list):
                return False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def cache_folder(spec_digest: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    generator = fastjsonschema.VERSION
    return Path(base, "draughts-bot", f"openapi-fast-{spec_digest[:16]}-{generator}")


def compiled(document: dict[str, Any], spec_digest: str, pointer: str) -> Check | None:
    """The compiled check of the schema at ``pointer`` (a ``#/...`` JSON pointer into the
    document), from the cache or generated now; None when the document uses a keyword the two
    drafts read differently (then jsonschema alone checks)."""
    if not _draft07_compatible(document):
        return None
    name = hashlib.sha256(pointer.encode()).hexdigest()[:24] + ".py"
    path = cache_folder(spec_digest) / name
    try:
        code = path.read_text(encoding="utf-8")
    except OSError:
        code = _generate(document, pointer)
        _keep(path, code)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(path), "exec"), namespace)
    check: Check = namespace["validate"]
    return check


def _generate(document: dict[str, Any], pointer: str) -> str:
    """The code of a check of the schema at ``pointer``: the whole document is the root (so
    ``#/components/...`` references resolve), with a ``$ref`` to the schema wanted (draft 7
    reads only the ``$ref`` of an object that has one)."""
    root = {**document, "$ref": pointer}
    formats = {name: "" for name in formats_of(document)}  # any string: as jsonschema, unchecked
    # no defaults filled into the body checked
    code: str = fastjsonschema.compile_to_code(root, formats=formats, use_default=False)
    return code


def _keep(path: Path, code: str) -> None:
    """Write ``code`` to ``path`` whole or not at all (a cache that cannot be written is no
    fault: the next process generates it again)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False
        ) as f:
            f.write(code)
        os.replace(f.name, path)
    except OSError:
        pass
