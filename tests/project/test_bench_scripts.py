"""Every benchmark script in bench/ imports.

Why: the scripts are run by hand, not by the suite, so a change to a module they lean on can break
one unseen until someone needs its figures (``bench/ladder.py`` imported ``elo`` from ``arena``
after it had moved to ``bench/elo.py``).  Importing each one (not running it) catches that in a
fraction of a second: the scripts do their work under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"
SCRIPTS = sorted(path.stem for path in BENCH.glob("*.py"))


def test_the_bench_folder_holds_the_scripts() -> None:
    assert {"arena", "ladder", "sparring", "elo"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_bench_script_imports(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The scripts put bench/ on sys.path to import each other by bare name; undo that after.
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.syspath_prepend(str(BENCH))
    # Under a name of its own: bench/render.py must not be taken for the render package.
    spec = importlib.util.spec_from_file_location(f"bench_script_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    assert module.__doc__, f"bench/{name}.py says what it measures and why in its docstring"
