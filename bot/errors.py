"""The one family of errors the service raises for things a user did wrong or cannot do now.

Every :class:`ServiceError` carries a sentence fit to show the user (ephemerally); the Discord
layer catches the family and never logs a traceback for it.  Anything else escaping the service
is a bug.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refused action; ``str(error)`` is the reason, written for the user."""

    @property
    def reason(self) -> str:
        return str(self)


class NotFoundError(ServiceError):
    """No such game or challenge (or none in this channel)."""


class NotAPlayerError(ServiceError):
    """The user is not a player of this game (or not the right party of a challenge)."""


class NotYourTurnError(ServiceError):
    """A player acted when it is the opponent's turn."""


class GameOverError(ServiceError):
    """The game or challenge has already ended."""


class IllegalMoveError(ServiceError):
    """The text is not a legal move here; the reason comes from the rules."""


class ConflictError(ServiceError):
    """Someone else changed the game between reading and writing it."""

    def __init__(self, reason: str = "the position changed, try again") -> None:
        super().__init__(reason)


class StaleError(ConflictError):
    """An action taken on a board that is no longer the game's position (a Move button pressed
    after someone moved)."""

    def __init__(
        self, reason: str = "the position changed since this was shown; press Move again"
    ) -> None:
        super().__init__(reason)


class ChallengeError(ServiceError):
    """A challenge that cannot be made or answered (yourself, already open, channel busy...)."""


class DrawError(ServiceError):
    """A draw offer that cannot be made, accepted or declined now."""


class TakebackError(ServiceError):
    """A takeback that cannot be asked for or answered now."""


class ForbiddenError(ServiceError):
    """The user lacks the role the action needs (moderators only)."""


class ThreadRequired(ServiceError):
    """The game must be played in a new thread: the caller creates one and accepts again with its
    id.  Not shown to users."""


class PrefsError(ServiceError):
    """A preference that does not exist (an unknown theme or notation)."""


class DamagedRecordError(ServiceError):
    """The stored game cannot be read back; nothing is changed."""
