"""What one delivery did: the messages it sent, or how it fell short.

:class:`Posted` counts what an announcement put in front of players (once one message went out,
it is delivered, whatever fails after); the exceptions say what is left when it fell short, so the
interaction's user is told the truth (the change was made; its message comes later) and the
outbox keeps the rest.  Kept apart from :mod:`bot.ui.delivery` so the command groups that only
react to a delivery's outcome need not import the delivery itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..i18n import _
from ..results import ActionResult, GameView
from .replies import Outgoing

Send = Callable[[Outgoing], Awaitable[Any]]
"""Where a message goes: an interaction's answer, or a channel."""


class Posted:
    """What one announcement posted: how many messages went out (once one did, players saw it:
    it is delivered, whatever fails after), and the board messages, recorded with it (each
    becomes its game's board message; the one it replaces loses its buttons)."""

    def __init__(self) -> None:
        self.boards: list[tuple[GameView, int]] = []
        self.settled: list[GameView] = []  # shown with no draw offer pending
        self.sent = 0

    def counting(self, send: Send) -> Send:
        """``send``, counting each message it sends here."""

        async def counted(out: Outgoing) -> Any:
            sent = await send(out)
            self.sent += 1
            return sent

        return counted


class ShownInPart(Exception):
    """A result was shown in part; ``rest`` (a match's next game, a round's games) is owed."""

    def __init__(self, rest: ActionResult) -> None:
        super().__init__("shown in part")
        self.rest = rest


class PostedLater(Exception):
    """Discord refused the message announcing a change that was made; the outbox posts it in
    the channel instead.  Told to the user as :data:`TEXT`, never as "try again" (the retry
    would be refused: the move, say, was already played)."""

    TEXT = _(
        "Done, but Discord refused my message about it; "
        "I will post it in the channel as soon as I can."
    )


class NotPostedYet(PostedLater):
    """The announcement of a change that was made could not be made or sent just now (the
    database did not answer, say), and nothing of it went out: it stays owed and is posted in
    the channel once it can be.  Told to the user as :data:`TEXT`."""

    TEXT = _(
        "Done, but I could not show it just now; I will post it in the channel as soon as I can."
    )
