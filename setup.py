"""The native core's build: everything else about the package is in pyproject.toml.

A C extension cannot be declared in pyproject.toml with the setuptools versions pyproject allows
(``setuptools>=68``; ``ext-modules`` there is experimental and needs 74.1), so this file declares
exactly one thing: ``engine._core``, built from the C sources in ``engine/core/``.  It needs
nothing but a C compiler and Python's headers (no network, no Cython).  ``-O2`` is what the
benchmarks were measured with; ``-Wall -Wextra`` keep the sources warning-free (a test compiles
them with ``-Werror``).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

CORE = Path("engine") / "core"

setup(
    ext_modules=[
        Extension(
            "engine._core",
            sources=sorted(str(path) for path in CORE.glob("*.c")),
            depends=sorted(str(path) for path in CORE.glob("*.h")),
            extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra"],
        )
    ]
)
