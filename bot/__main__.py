"""Entry point: ``python -m bot`` or the ``draughts-bot`` console script (see :mod:`bot.cli`).

Loads settings from the environment or ``.env``, documents them in ``--help``, fails with a clear,
actionable message instead of a traceback, and shuts down gracefully on SIGTERM or Ctrl-C: the
game actions in flight finish their transactions and the database is closed before the process
exits.
"""

from __future__ import annotations

import sys

from .cli import EXIT_BAD_SETTINGS, EXIT_FAILED, EXIT_NO_TOKEN, EXIT_OK, main
from .config import DEFAULT_DATABASE_PATH

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "EXIT_BAD_SETTINGS",
    "EXIT_FAILED",
    "EXIT_NO_TOKEN",
    "EXIT_OK",
    "main",
]

if __name__ == "__main__":
    sys.exit(main())
