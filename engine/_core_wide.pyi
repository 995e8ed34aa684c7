"""Types of the native core's 128-bit build, ``engine._core_wide``: the same C sources as
:mod:`engine._core` compiled with ``CORE_WIDE`` (engine/core/core.h) for the boards whose layout
needs more than 64 bits, with the same names and calls (bitboards are Python ints either way);
:func:`engine.native.core_module` picks the build of a variant."""

from engine._core import *  # noqa: F403
