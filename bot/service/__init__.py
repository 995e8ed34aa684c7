"""The game service: every game action, with no Discord types and no SQL.

The Discord layer calls :class:`GameService`, a thin facade over the rooms of this package.
"""

from .facade import GameService

__all__ = ["GameService"]
