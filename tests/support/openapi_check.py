"""Request bodies checked against Discord's own OpenAPI description.

The spec is not part of the project (Discord publishes it without a licence that would let us
copy it), so it is found at run time, in this order:

1. the file named by the environment variable ``DISCORD_API_SPEC`` (if that file is missing,
   :func:`spec` raises: a run that asked for the check must not quietly skip it);
2. ``<repo>/../shared/discord-api-spec/openapi.json``;
3. for a clone (CI clones the repository elsewhere), the same path beside the directory of the
   ``origin`` remote, when that remote is a local path;
4. the cached download of the pinned commit (:data:`PINNED_COMMIT`, checked against
   :data:`PINNED_SHA256`), which ``python tests/support/openapi_check.py --fetch`` makes from
   GitHub when none of the above exists: so a clone from anywhere runs the same checks.

If none exists (a machine without ``shared/`` that never fetched it), :func:`validate` checks
nothing and :data:`SKIP_REASON` says why; the documented-limit checks of
``tests/support/discord_limits.py`` still run. ``.ci/run`` locates the spec the same way (fetching
it if it must) and exports ``DISCORD_API_SPEC``, so CI never skips.

The spec (about 1 MB of JSON) is parsed once per process. A body is checked by code compiled from
its operation's schema (``openapi_fast``, kept in the user's cache: about 0.3 ms a board message);
only a body that check refuses is walked by jsonschema, whose errors say what is wrong.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import tempfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ENV_VAR = "DISCORD_API_SPEC"
REPO = Path(__file__).resolve().parent.parent.parent
SPEC_IN_SHARED = Path("shared", "discord-api-spec", "openapi.json")
_SPEC_URI = "urn:discord-openapi"
PINNED_COMMIT = "74fda0fad044407ea280043a03ffc9bc64c4e49e"
"""The discord/discord-api-spec commit the checks were written against (2026-07-18)."""
PINNED_SHA256 = "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
"""The SHA-256 of that commit's ``specs/openapi.json``: a download must have it."""
SPEC_URL = (
    f"https://raw.githubusercontent.com/discord/discord-api-spec/{PINNED_COMMIT}/specs/openapi.json"
)
SKIP_REASON = (
    f"Discord's OpenAPI spec not found (set {ENV_VAR}, put the spec at ../{SPEC_IN_SHARED} "
    "beside the repository, or run python tests/support/openapi_check.py --fetch): request "
    "bodies are checked against the documented limits only"
)


class SpecMissing(RuntimeError):
    """``DISCORD_API_SPEC`` names a file that does not exist."""


def _origin_dir(repo: Path) -> Path | None:
    """The origin remote's directory, when it is a local path (a clone made from a checkout)."""
    try:
        url = subprocess.run(
            ["git", "-C", str(repo), "remote", "get-url", "origin"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not url:
        return None
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return Path(unquote(parsed.path))
    if parsed.scheme or re.match(r"^[\w.-]+@[\w.-]+:", url):  # https://, ssh://, git@host:
        return None
    path = Path(url)
    return path if path.is_absolute() else (repo / path).resolve()


def cache_path() -> Path:
    """Where the fetched spec is kept: the user's cache folder (``XDG_CACHE_HOME``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base, "draughts-bot", f"discord-openapi-{PINNED_COMMIT[:12]}.json")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shared_folder(repo: Path = REPO) -> Path | None:
    """The ``shared`` folder beside the repository (or beside its origin), if there is one."""
    for base in (repo.parent, (_origin_dir(repo) or Path("/nonexistent")).parent):
        if (base / SPEC_IN_SHARED).is_file():
            return base / SPEC_IN_SHARED.parts[0]
    return None


def locate(repo: Path = REPO, cache: Path | None = None) -> Path | None:
    """Where the spec is (see the module docstring), or None.  A cached download is used only
    while its checksum is the pinned one."""
    named = os.environ.get(ENV_VAR)
    if named:
        path = Path(named)
        if not path.is_file():
            raise SpecMissing(f"{ENV_VAR}={named} but there is no such file")
        return path
    shared = shared_folder(repo)
    if shared is not None:
        return shared.parent / SPEC_IN_SHARED
    cached = cache or cache_path()
    if cached.is_file() and _sha256(cached) == PINNED_SHA256:
        return cached
    return None


def fetch(url: str = SPEC_URL, cache: Path | None = None, *, sha256: str = PINNED_SHA256) -> Path:
    """Download the pinned spec into the cache and return its path; raises (and keeps nothing)
    when the download fails or its checksum is not ``sha256``."""
    target = cache or cache_path()
    with urllib.request.urlopen(url, timeout=60) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise SpecMissing(f"{url} has SHA-256 {digest}, not the pinned {sha256}")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as part:
        part.write(data)
    Path(part.name).replace(target)
    return target


@functools.cache
def spec() -> dict[str, Any] | None:
    """The parsed spec (once per process), or None when it cannot be found."""
    path = locate()
    if path is None:
        return None
    with path.open(encoding="utf-8") as f:
        loaded: dict[str, Any] = json.load(f)
    _accept_integer_snowflakes(loaded)
    return loaded


def _accept_integer_snowflakes(document: dict[str, Any]) -> None:
    """The spec writes a snowflake as a decimal string only, but Discord's API takes a JSON
    integer too, and discord.py sends integers (``allowed_mentions.users``, for one): without
    this every discord.py bot would "violate" the schema while Discord accepts the request."""
    schemas = document["components"]["schemas"]
    as_string = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {
        "anyOf": [as_string, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]
    }


def available() -> bool:
    return spec() is not None


@functools.cache
def _registry() -> Registry:
    document = spec()
    assert document is not None
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    return Registry().with_resource(_SPEC_URI, resource)


@functools.cache
def _operations() -> list[tuple[re.Pattern[str], str]]:
    """Path templates as regexes, those with more literal segments first (so that
    ``.../messages/@original`` wins over ``.../messages/{message_id}``)."""
    document = spec()
    assert document is not None
    templates = sorted(document["paths"], key=lambda t: (t.count("{"), -len(t)))
    out = []
    for template in templates:
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        out.append((re.compile(pattern), template))
    return out


def template_for(path: str) -> str | None:
    """The spec's path template for a request path (after ``/api/v10``)."""
    for pattern, template in _operations():
        if pattern.fullmatch(path):
            return template
    return None


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    document = spec()
    assert document is not None
    operation = document["paths"][template].get(method.lower())
    if not operation or "requestBody" not in operation:
        return None
    schema = {"$ref": f"{_SPEC_URI}{_body_schema(template, method)}"}
    return Draft202012Validator(schema, registry=_registry())


@functools.cache
def _spec_digest() -> str:
    """What names the compiled checks of this spec as read here (the file, and the change
    :func:`_accept_integer_snowflakes` makes to it)."""
    path = locate()
    assert path is not None
    return hashlib.sha256(path.read_bytes() + b"\0snowflakes-as-integers-1").hexdigest()


@functools.cache
def _fast_check(template: str, method: str) -> Callable[[Any], Any] | None:
    # imported here: ``.ci/run`` runs this file as a script (``--fetch``), without ``support``
    from support import openapi_fast

    document = spec()
    assert document is not None
    if "requestBody" not in document["paths"][template].get(method.lower(), {}):
        return None
    return openapi_fast.compiled(document, _spec_digest(), _body_schema(template, method))


def _body_schema(template: str, method: str) -> str:
    """The JSON pointer of an operation's request-body schema (JSON, else its first medium)."""
    document = spec()
    assert document is not None
    content = document["paths"][template][method.lower()]["requestBody"]["content"]
    media = "application/json" if "application/json" in content else next(iter(content))
    ref = _pointer("#", "paths", template, method.lower(), "requestBody", "content", media)
    return f"{ref}/schema"


def validate(method: str, path: str, body: Any) -> list[str]:
    """Problems of a request body (JSON, or a multipart's ``payload_json``) against the
    request-body schema of the operation (path template + method); empty when it conforms, or
    when the spec is unavailable or the operation takes no body.  The compiled check
    (:mod:`openapi_fast`) decides; jsonschema words what it refused."""
    if spec() is None:
        return []
    template = template_for(path)
    if template is None:
        return []
    validator = _validator(template, method)
    if validator is None:
        return []
    fast = _fast_check(template, method)
    refused = ""
    if fast is not None:
        try:
            fast(body)
            return []
        except fastjsonschema.JsonSchemaValueException as error:
            refused = error.message
    return slow_problems(template, method, body) or [
        f"OpenAPI {method} {template}: {refused[:300]}"
    ]


def slow_problems(template: str, method: str, body: Any) -> list[str]:
    """:func:`validate` by jsonschema alone (the words of a refusal; the tests' yardstick)."""
    validator = _validator(template, method)
    if validator is None:
        return []
    errors = list(validator.iter_errors(body))
    return [_describe(template, method, error) for error in _most_relevant(errors)]


def fast_verdict(template: str, method: str, body: Any) -> bool | None:
    """Whether the compiled check accepts ``body``; None when there is none for the operation."""
    fast = _fast_check(template, method)
    if fast is None:
        return None
    try:
        fast(body)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def _most_relevant(errors: list[ValidationError]) -> list[ValidationError]:
    """jsonschema's best match, and the deepest errors under any ``anyOf``/``oneOf`` (the best
    match of a union sometimes names a branch the body was never meant for)."""
    best = best_match(errors)
    leaves: list[ValidationError] = []
    stack = list(errors)
    while stack:
        error = stack.pop()
        if error.context:
            stack.extend(error.context)
        else:
            leaves.append(error)
    leaves.sort(key=lambda e: len(e.absolute_path), reverse=True)
    chosen = [best] if best is not None else []
    for leaf in leaves:
        if len(chosen) >= 3:
            break
        if all(leaf.message != c.message or leaf.absolute_path != c.absolute_path for c in chosen):
            chosen.append(leaf)
    return chosen


def _describe(template: str, method: str, error: ValidationError) -> str:
    where = ".".join(str(p) for p in error.absolute_path) or "(body)"
    return f"OpenAPI {method} {template}: {where}: {error.message[:300]}"


def main(argv: list[str] | None = None) -> int:
    """``python tests/support/openapi_check.py [--fetch]``: print where the spec is (``.ci/run``
    exports it as ``DISCORD_API_SPEC``); with ``--fetch``, download the pinned spec first when
    it is nowhere else.  Exit 1, saying why, when it cannot be found."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        path = locate()
        if path is None and "--fetch" in args:
            print(f"fetching Discord's OpenAPI spec at {PINNED_COMMIT[:12]}", file=sys.stderr)
            path = fetch()
    except (SpecMissing, OSError) as exc:
        print(exc, file=sys.stderr)
        return 1
    if path is None:
        print(SKIP_REASON, file=sys.stderr)
        return 1
    print(path.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
