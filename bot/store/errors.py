"""What a store says besides rows: the database cannot be used, or a write was refused.

The refusals are outcomes the service expects and turns into answers for players ("a game is
already running in that channel", "the position changed, try again"); every implementation raises
the same ones, so no caller ever sees a database driver's exception as a business signal.
"""

from __future__ import annotations


class StoreError(RuntimeError):
    """The database cannot be used; the message says what to do."""


class StoreUnavailable(StoreError):
    """The database did not answer in time, or the connection to it was lost: nothing can be
    read or written now, and a moment later it may work again.  Every backend raises this one
    class for it (never a driver's timeout or disconnection), so the service and the Discord
    layer tell a player "try again in a moment" without knowing which database is behind."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot."""


class WriteRefused(Exception):
    """A write that the store's constraints refused, with nothing written."""


class ChannelBusy(WriteRefused):
    """The channel already has a running game (one running game per channel)."""


class ChallengeOpen(WriteRefused):
    """The challenger already has an open challenge in that channel."""


class ChallengeClosed(WriteRefused):
    """The challenge being accepted is no longer open (answered, cancelled or expired)."""


class StaleVersion(WriteRefused):
    """The game changed since it was read: another action, or another process, wrote first."""
