"""Whether the bot can hold a game where one is asked for, from the permissions Discord reports.

Most of a game is answers to interactions, which need no channel permission; but reminders,
timeouts, a match's second game and whatever is delivered after a restart are plain posts in the
game's channel, with a board image in an embed.  Where the bot cannot post them they would fail
later and unseen, so a challenge, an acceptance or a rematch is refused up front, naming what is
missing (``interaction.app_permissions``: the bot's permissions in the interaction's channel).
"""

from __future__ import annotations

import discord

from ..errors import ChallengeError
from ..i18n import Text, _n, _p, listed
from .threads import THREAD_TYPES

# Discord's clients show these names in the user's language: translators use Discord's words.
VIEW = ("view_channel", _p("permission", "View Channel"))
SEND = ("send_messages", _p("permission", "Send Messages"))
SEND_IN_THREADS = ("send_messages_in_threads", _p("permission", "Send Messages in Threads"))
EMBED = ("embed_links", _p("permission", "Embed Links"))
ATTACH = ("attach_files", _p("permission", "Attach Files"))
CREATE_THREADS = ("create_public_threads", _p("permission", "Create Public Threads"))


def in_thread(interaction: discord.Interaction) -> bool:
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or (
        channel is not None and getattr(channel, "type", None) in THREAD_TYPES
    )


def needed(*, thread: bool, new_thread: bool) -> tuple[tuple[str, Text], ...]:
    """The permissions (attribute, name shown) a game needs: in the interaction's channel, in
    the thread it came from (``thread``), or in a new thread under it (``new_thread``; a thread
    has its channel's permissions, and posting in it takes Send Messages in Threads)."""
    if new_thread and not thread:
        return (VIEW, CREATE_THREADS, SEND_IN_THREADS, EMBED, ATTACH)
    return (VIEW, SEND_IN_THREADS if thread else SEND, EMBED, ATTACH)


def missing(permissions: discord.Permissions, *, thread: bool, new_thread: bool) -> list[Text]:
    """The names of the needed permissions that ``permissions`` lacks."""
    return [
        name
        for attribute, name in needed(thread=thread, new_thread=new_thread)
        if not getattr(permissions, attribute)
    ]


def check_room(interaction: discord.Interaction, *, new_thread: bool = False) -> None:
    """Refuse (privately, before anything is written) a game the bot could not post in."""
    thread = in_thread(interaction)
    lacking = missing(interaction.app_permissions, thread=thread, new_thread=new_thread)
    if not lacking:
        return
    names = listed(lacking)
    if thread:
        refusal = _n(
            "I cannot hold a game here: I lack the {names} permission in this thread "
            "(a moderator can grant it)",
            "I cannot hold a game here: I lack the {names} permissions in this thread "
            "(a moderator can grant them)",
            len(lacking),
            names=names,
        )
    else:
        refusal = _n(
            "I cannot hold a game here: I lack the {names} permission in this channel "
            "(a moderator can grant it)",
            "I cannot hold a game here: I lack the {names} permissions in this channel "
            "(a moderator can grant them)",
            len(lacking),
            names=names,
        )
    raise ChallengeError(refusal)
