"""What a test switches on and off to make Discord fail or refuse: injected faults
(:mod:`.faults`), expired tokens, permissions the bot lacks in a channel (announced with a
CHANNEL_UPDATE), users who take no DMs from the bot."""

from __future__ import annotations

import re

from .faults import Fault
from .gateway import GatewayHub
from .protocol import PERMISSION_BITS
from .records import RecordedRequest
from .responses import ApiError
from .validation import check_body


class Controls(GatewayHub):
    """Failures and refusals on demand."""

    def check_body(self, rec: RecordedRequest) -> ApiError | None:
        """The refusal Discord answers ``rec``'s body with (its documented limits and its
        OpenAPI schema, :func:`.validation.check_body`, which records a violation), or None.
        The one place a subclass may watch or relax the checks (``bench/phone_play.py`` times
        them, and takes the command lists of bots older than issue 13)."""
        return check_body(rec, self)

    def inject(
        self,
        method: str,
        path: str,
        status: int,
        *,
        code: int = 0,
        message: str | None = None,
        times: int = 1,
        retry_after: float | None = None,
        delay: float = 0.0,
        skip: int = 0,
        hold: float = 0.0,
    ) -> Fault:
        """Answer the next ``times`` matching requests (``-1``: until :meth:`clear_faults`),
        after letting ``skip`` of them through, with this error instead of handling them; see
        the package docstring. Faults are tried in the order they were injected.  A ``status``
        below 400 handles the request (after ``delay``) and holds its answer ``hold`` seconds."""
        fault = Fault(
            method=method.upper(),
            path=re.compile(path),
            status=status,
            code=code,
            message=message,
            times=times,
            retry_after=retry_after,
            delay=delay,
            skip=skip,
            hold=hold,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        """No more faults; answers held back (``hold``) go out now."""
        for fault in self.faults:
            fault.released.set()
        self.faults.clear()

    def expire_token(self, token: str) -> None:
        """The interaction token's webhook is gone, as 15 minutes after the interaction."""
        self.expired_tokens.add(token)

    def deny(self, channel_id: str, *permissions: str) -> None:
        """The bot lacks these permissions (names in :data:`PERMISSION_BITS`) in the channel
        (and in threads under it)."""
        bits = 0
        for name in permissions:
            try:
                bits |= PERMISSION_BITS[name]
            except KeyError:
                known = list(PERMISSION_BITS)
                raise ValueError(f"unknown permission {name!r}; known: {known}") from None
        self.denied[channel_id] = self.denied.get(channel_id, 0) | bits
        self._announce_channel(channel_id)

    def allow(self, channel_id: str) -> None:
        """Undo :meth:`deny` for the channel."""
        self.denied.pop(channel_id, None)
        self._announce_channel(channel_id)

    def block_dms(self, user_id: str) -> None:
        """The user takes no DMs from the bot (privacy settings, or a block): the DM channel can
        still be opened, but a post there answers 403 50007 "Cannot send messages to this user"
        (recorded in :attr:`refusals`)."""
        self.dms_blocked.add(user_id)

    def unblock_dms(self, user_id: str) -> None:
        self.dms_blocked.discard(user_id)

    def _announce_channel(self, channel_id: str) -> None:
        """CHANNEL_UPDATE for a guild channel, to the sessions of its guild's shard."""
        guild = self.guild_of(channel_id)
        if not self._sessions or guild is None or channel_id not in guild.channels:
            return
        self.spawn(self.dispatch("CHANNEL_UPDATE", self.channel_object(channel_id)))
