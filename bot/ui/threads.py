"""Game threads: where one can hang off, opening it, and archiving it when its game ends.

A game gets its own thread when the challenger asks, when the server plays every game in one,
or when the channel already has a game (one game per channel).  Whether a thread is needed is
the service's call; whether one *can* be opened here (a text channel, not a thread, and the
bot's permissions) is Discord's, checked before anything is deferred so a refusal stays private.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final, Protocol

import discord

from ..errors import ChallengeError
from ..i18n import _, render
from ..results import ChallengeView, GameView
from .limits import THREAD_NAME, label

THREAD_ARCHIVE_MINUTES: Final = 10080
"""A week, Discord's longest: a correspondence game may go quiet for days, and an archived
thread drops out of the channel list."""

THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread)

log = logging.getLogger(__name__)


class ChannelSource(Protocol):
    """What archiving needs of the client: its channel cache and its HTTP client."""

    def get_channel(self, id: int, /) -> object: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...


def thread_home(interaction: discord.Interaction, busy: bool) -> discord.TextChannel:
    """The channel a new game thread can hang off, or a refusal saying why there is none.
    ``busy``: the thread is needed because this channel already has a game (otherwise it
    was asked for, or the server plays every game in a thread)."""
    return thread_home_in(interaction.channel, interaction.app_permissions, busy)


def thread_home_in(channel: object, perms: discord.Permissions, busy: bool) -> discord.TextChannel:
    """:func:`thread_home` for ``channel``, where the bot has ``perms`` (an interaction from
    elsewhere, the lobby's, accepting a challenge posted there)."""
    why = _("a game is already running here") if busy else _("the game needs its own thread")
    if isinstance(channel, discord.Thread) or (
        channel is not None and getattr(channel, "type", None) in THREAD_TYPES
    ):
        if busy:
            raise ChallengeError(
                _(
                    "a game is already running in this thread and a thread cannot hold another "
                    "thread: start the game from a channel"
                )
            )
        raise ChallengeError(
            _(
                "this is a thread already: leave out `thread` to play here, or challenge from a "
                "channel"
            )
        )
    if not isinstance(channel, discord.TextChannel):
        raise ChallengeError(_("{why}, and I can only open game threads in text channels", why=why))
    if not (perms.create_public_threads and perms.send_messages_in_threads):
        raise ChallengeError(
            _(
                "{why}, but I lack the Create Public Threads and Send Messages in Threads "
                "permissions in this channel to open a thread for the game",
                why=why,
            )
        )
    return channel


def thread_name(challenge: ChallengeView, accepter: str, code: str) -> str:
    """The name of an accepted challenge's game thread, ``Alice v Bob``, in the language
    ``code`` (``accepter``: who accepted, named when the challenge was open)."""
    opponent = accepter if challenge.opponent is None else challenge.opponent.name
    return render(
        _("{challenger} v {opponent}", challenger=challenge.challenger.name, opponent=opponent),
        code,
    )


async def open_thread(
    home: discord.TextChannel,
    name: str,
    message: discord.Message | discord.PartialMessage | None = None,
) -> discord.Thread:
    """A public thread for a game, on ``message`` (the challenge being accepted) if given."""
    name = label(name, THREAD_NAME)
    if message is not None:
        return await message.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    return await home.create_thread(
        name=name,
        type=discord.ChannelType.public_thread,
        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
    )


async def archive_thread(http: discord.http.HTTPClient, known: object, channel_id: int) -> bool:
    """Archive the game's place ``channel_id`` if it is a thread (``known``: the cached channel,
    None when the cache does not hold it, after a restart say, and Discord is asked): its game
    is over, its result and replay are posted, so it leaves the channel's list of active
    threads.  A message posted in it later (a rematch, ``/pdn``) reopens it, as Discord does.
    Whether it was archived; a refusal (the thread deleted, a permission taken away) is logged
    and changes nothing else: the game's end is shown either way."""
    try:
        kind: object = getattr(known, "type", None)
        if known is None:
            kind = discord.ChannelType((await http.get_channel(channel_id))["type"])
        if kind not in THREAD_TYPES:
            return False
        await http.edit_channel(channel_id, archived=True)
    except (discord.HTTPException, KeyError, ValueError) as exc:  # refused, or an odd answer
        log.warning("the game thread %s was not archived: %s", channel_id, exc)
        return False
    return True


async def archive_ended(connection: ChannelSource, boards: Sequence[GameView]) -> None:
    """Archive the thread of each game whose end an announcement showed whole (``boards``: the
    games of its board messages, in order; the final board, then the replay, went out and the
    old board's buttons are off), unless a later board of it plays on there (a match's second
    game).  Each announcement is delivered once, so a game's end archives its thread once,
    whichever path posted it: the answer to a player, the scheduler, or the owed announcements
    after a restart."""
    last: dict[int, GameView] = {}
    for view in boards:
        last[view.channel_id] = view
    for channel_id, view in last.items():
        if not view.running:
            await archive_thread(connection.http, connection.get_channel(channel_id), channel_id)
