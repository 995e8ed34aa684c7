"""Discord's API numbers (interaction, callback and component types, permission bits), the
time limits Discord holds a bot to (the 3-second window, a token's 15 minutes, the nonce window)
and snowflakes: the vocabulary the other modules of the fake share."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ALL_PERMISSIONS = str((1 << 53) - 1)
# An ordinary member: view, send, embed links, attach files, read history, use application
# commands, create public threads, send in threads (no Manage Messages).
MEMBER_PERMISSIONS = str(
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38)
)


# Interaction and callback types (Discord API numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
EPHEMERAL = 64
LOADING = 128
"""A deferred response's message while the bot is "thinking"; cleared when it is filled in."""
BUTTON, STRING_SELECT = 2, 3
SELECT_TYPES = {STRING_SELECT, 5, 6, 7, 8}
DM_CHANNEL = 1
# The bot's permissions in its DM with a user (``app_permissions`` of an interaction there):
# view, send, embed links, attach files, read history, mention everyone, external emojis.
DM_PERMISSIONS = str(
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17) | (1 << 18)
)
IMAGE_EXTENSIONS = (".png", ".gif", ".jpg", ".jpeg", ".webp", ".avif")

# The channel permissions :meth:`FakeDiscord.deny` can take away, by Discord's bit.
PERMISSION_BITS = {
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
TOKEN_LIFETIME = 15 * 60.0  # an interaction token's webhook lives 15 minutes
INTERACTION_WINDOW = 3.0  # the initial response must come within 3 seconds
NONCE_WINDOW = 5 * 60.0  # "within the past few minutes" (enforce_nonce)
REPLAYED_EVENTS = 2000  # events kept per gateway session for RESUME


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Increasing snowflakes whose timestamps are "now" (discord.py derives created_at)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))
