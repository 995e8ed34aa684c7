"""The one family of errors the service raises for things a user did wrong or cannot do now.

Every :class:`ServiceError` carries a reason fit to show the user (ephemerally), as catalog text
(:class:`bot.i18n.Text`) the Discord layer puts into the user's language; the Discord layer
catches the family and never logs a traceback for it.  Anything else escaping the service is a
bug.

:class:`IllegalMoveError`, :class:`GameOverError` and :class:`TakebackError` are the user's side
of what the rules refuse (any ``rules.MoveError``, ``rules.GameEndedError``,
``rules.game.TakebackCountError``): the service catches the rules' error and raises one of these
with its words.  The rules' classes have names of their own, so a module can import both
families without aliases; these keep the names because the service, the Discord layer and their
tests use them the most.
"""

from __future__ import annotations

from .i18n import Text, _, verbatim


class ServiceError(Exception):
    """A refused action: :attr:`reason` is written for the user; ``str(error)`` is its English
    (for logs and tests).  A plain string is taken as it is (text never shown to users)."""

    def __init__(self, reason: Text | str = "") -> None:
        self._reason = reason if isinstance(reason, Text) else verbatim(reason)
        super().__init__(str(self._reason))

    @property
    def reason(self) -> Text:
        return self._reason


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

    def __init__(self, reason: Text | str | None = None) -> None:
        super().__init__(_("the position changed, try again") if reason is None else reason)


class StaleError(ConflictError):
    """An action taken on a board that is no longer the game's position (a Move button pressed
    after someone moved)."""

    def __init__(self, reason: Text | str | None = None) -> None:
        super().__init__(
            _("the position changed since this was shown; press Move again")
            if reason is None
            else reason
        )


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


class TournamentError(ServiceError):
    """A tournament action that cannot be taken now (full, closed, outside the rating range,
    already joined, the wrong state for a moderator's action...)."""
