"""The computer opponent: search and evaluation on top of ``rules`` only.

Knows nothing of Discord, SQLite or asyncio.  The API is :func:`best_move`; ``python -m engine``
is the command line.
"""

from .api import DEFAULT_MOVETIME, LEVELS, Level, Limits, Result, best_move
from .scores import MATE, Iteration, describe_score

__all__ = [
    "DEFAULT_MOVETIME",
    "LEVELS",
    "MATE",
    "Iteration",
    "Level",
    "Limits",
    "Result",
    "best_move",
    "describe_score",
]
