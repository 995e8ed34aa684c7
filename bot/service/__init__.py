"""The game service: every game action, with no Discord types and no SQL.

The Discord layer calls :class:`GameService`, a thin facade over the rooms of this package.  It
may see :class:`StoreUnavailable` from any call that reads or writes: the database did not
answer in time or the connection was lost, and the player is told to try again in a moment.
"""

from ..store import StoreUnavailable
from .facade import GameService

__all__ = ["GameService", "StoreUnavailable"]
