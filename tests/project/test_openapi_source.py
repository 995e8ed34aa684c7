"""Where the fake Discord's OpenAPI description comes from on a clone without ``../shared``: the
pinned commit, downloaded once into the user's cache and used only while its checksum is the
pinned one (``tests/support/openapi_check.py``).  The download is served here from 127.0.0.1."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import openapi_check

SPEC = b'{"openapi": "3.1.0", "paths": {}, "components": {"schemas": {}}}'


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A URL on 127.0.0.1 serving :data:`SPEC` (and 404 for anything else)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path != "/openapi.json":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(SPEC)))
            self.end_headers()
            self.wfile.write(SPEC)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture
def lone_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository folder with no ``shared`` beside it and no origin, and no spec named."""
    monkeypatch.delenv(openapi_check.ENV_VAR, raising=False)
    repo = tmp_path / "elsewhere" / "repo"
    repo.mkdir(parents=True)
    return repo


def test_a_fetched_spec_with_the_pinned_checksum_is_cached_and_found(
    served: str, lone_clone: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache" / "spec.json"
    assert openapi_check.locate(lone_clone, cache) is None
    digest = hashlib.sha256(SPEC).hexdigest()
    got = openapi_check.fetch(f"{served}/openapi.json", cache, sha256=digest)
    assert got == cache and cache.read_bytes() == SPEC
    # Found only while it is the pinned file: this one is not (its checksum is another).
    assert openapi_check.locate(lone_clone, cache) is None
    cache.write_bytes(b"corrupt")
    assert openapi_check.locate(lone_clone, cache) is None


def test_a_download_with_another_checksum_is_refused_and_nothing_is_kept(
    served: str, tmp_path: Path
) -> None:
    cache = tmp_path / "cache" / "spec.json"
    with pytest.raises(openapi_check.SpecMissing, match="not the pinned"):
        openapi_check.fetch(f"{served}/openapi.json", cache, sha256="0" * 64)
    assert not cache.exists()
    assert not list((tmp_path / "cache").glob("*"))


def test_the_spec_in_use_is_the_pinned_one_and_found_in_the_cache(tmp_path: Path) -> None:
    """The spec this run checks against (``.ci/run`` always has one) is the pinned commit's, so
    every clone checks the same; cached, it is found without ``shared``."""
    real = openapi_check.locate()
    if real is None:
        pytest.skip(openapi_check.SKIP_REASON)
    data = real.read_bytes()
    assert hashlib.sha256(data).hexdigest() == openapi_check.PINNED_SHA256, (
        f"{real} is not discord-api-spec {openapi_check.PINNED_COMMIT}: pin the new one"
    )
    repo = tmp_path / "elsewhere" / "repo"
    repo.mkdir(parents=True)
    cache = tmp_path / "cache" / "spec.json"
    cache.parent.mkdir()
    cache.write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(openapi_check.ENV_VAR, raising=False)
        assert openapi_check.locate(repo, cache) == cache


def test_shared_beside_the_repository_is_found_first(tmp_path: Path, lone_clone: Path) -> None:
    spec = lone_clone.parent / openapi_check.SPEC_IN_SHARED
    spec.parent.mkdir(parents=True)
    spec.write_bytes(SPEC)
    assert openapi_check.shared_folder(lone_clone) == lone_clone.parent / "shared"
    assert openapi_check.locate(lone_clone, tmp_path / "nothing.json") == spec
