"""The native core's build: everything else about the package is in pyproject.toml.

A C extension cannot be declared in pyproject.toml with the setuptools versions pyproject allows
(``setuptools>=68``; ``ext-modules`` there is experimental and needs 74.1), so this file declares
exactly one thing: the native core, built from the C sources in ``engine/core/`` twice:
``engine._core`` with 64-bit bitboards (the boards up to 10x10), and ``engine._core_wide`` with
``-DCORE_WIDE=1``, 128-bit bitboards for the boards whose layout needs more than 64 bits (12x12;
engine/core/core.h holds everything that differs).  It needs nothing but a C compiler and
Python's headers (no network, no Cython).  ``-O2`` is what the benchmarks were measured with;
``-Wall -Wextra`` keep the sources warning-free (a test compiles them with ``-Werror``, both
ways).
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = Path("engine") / "core"
SOURCES = sorted(str(path) for path in CORE.glob("*.c"))
HEADERS = sorted(str(path) for path in CORE.glob("*.h"))
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra"]


class BuildEachApart(build_ext):
    """Compile each extension's objects in a directory of its own: both builds compile the same
    sources, and with one directory the second would find (or, built in parallel, race for) the
    first one's object files."""

    def build_extension(self, ext: Extension) -> None:
        shared = self.build_temp
        self.build_temp = os.path.join(shared, ext.name)
        try:
            super().build_extension(ext)
        finally:
            self.build_temp = shared


setup(
    cmdclass={"build_ext": BuildEachApart},
    ext_modules=[
        Extension(
            "engine._core",
            sources=SOURCES,
            depends=HEADERS,
            extra_compile_args=FLAGS,
        ),
        Extension(
            "engine._core_wide",
            sources=SOURCES,
            depends=HEADERS,
            define_macros=[("CORE_WIDE", "1")],
            extra_compile_args=FLAGS,
        ),
    ],
)
