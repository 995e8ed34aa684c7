"""Who reads which language: a private answer in the user's Discord locale, a public message in
the server's language (``/settings language``, else the server's locale as Discord gives it), a
direct message in the locale the user last used.

Discord gives every interaction the user's ``locale`` and the server's ``guild_locale``; neither
is there when the scheduler announces a timeout or the outbox posts after a restart, so the ones
seen are noted at once in memory (:meth:`Languages.note`, before the interaction's work starts,
so even a server's first message is in its language) and stored in the background
(:meth:`Languages.seen`) for the messages sent without an interaction.
"""

from __future__ import annotations

import logging

import discord

from ..i18n import SOURCE, negotiate
from ..results import Locales
from ..service import GameService

log = logging.getLogger(__name__)


def interaction_language(interaction: discord.Interaction) -> str:
    """The catalog for the user's own client: what a private answer is written in."""
    return negotiate(_tag(interaction.locale))


def _tag(locale: discord.Locale | str | None) -> str | None:
    if locale is None:
        return None
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


class Languages:
    """The language of each reader.  Per process, it keeps what it read or saw: a server's
    chosen language changes through ``/settings`` (which calls :meth:`forget_server`), and the
    locales change with the interactions this process receives (which update it)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._chosen: dict[int, str | None] = {}
        """Each server's ``/settings language`` (None: none chosen)."""
        self._server_locales: dict[int, str | None] = {}
        """Each server's Discord locale, as last seen or stored."""
        self._users: dict[int, str] = {}

    def private(self, interaction: discord.Interaction) -> str:
        return interaction_language(interaction)

    def note(self, interaction: discord.Interaction) -> None:
        """Take the locales ``interaction`` brings into account at once (no waiting)."""
        user_tag = _tag(interaction.locale)
        if user_tag is not None:
            self._users[interaction.user.id] = negotiate(user_tag)
        guild_tag = _tag(interaction.guild_locale)
        if interaction.guild_id is not None and guild_tag is not None:
            self._server_locales[interaction.guild_id] = guild_tag

    async def public(self, guild_id: int | None) -> str:
        """The server's language: its ``/settings language``, else its Discord locale (as the
        last interaction from it gave it), else English (and English outside servers).  When
        the database cannot say, the server's Discord locale as seen, not kept: a post in a
        near language beats a post held back (the database is asked again next time)."""
        if guild_id is None:
            return SOURCE
        try:
            if guild_id not in self._chosen:
                self._chosen[guild_id] = await self.service.readers.chosen_language(guild_id)
            chosen = self._chosen[guild_id]
            if chosen is not None:
                return chosen
            if guild_id not in self._server_locales:
                self._server_locales[guild_id] = await self.service.readers.server_locale(guild_id)
        except Exception as exc:
            log.warning("the language of server %s could not be read: %s", guild_id, exc)
        return negotiate(self._server_locales.get(guild_id))

    async def public_for(self, interaction: discord.Interaction) -> str:
        """The language of a public message answering ``interaction``."""
        self.note(interaction)
        return await self.public(interaction.guild_id)

    async def direct(self, user_id: int) -> str:
        """The language a direct message to ``user_id`` is written in."""
        cached = self._users.get(user_id)
        if cached is None:
            cached = negotiate(await self.service.readers.user_locale(user_id))
            self._users[user_id] = cached
        return cached

    def forget_server(self, guild_id: int) -> None:
        """The server's language setting changed: read it again next time."""
        self._chosen.pop(guild_id, None)

    async def seen(self, interaction: discord.Interaction) -> None:
        """Store the locales this interaction came with (the service writes only a change).  It
        runs after the interaction's answer, so it does not :meth:`note` them again: a newer
        interaction may have noted newer ones meanwhile.  (An answer that announced a change
        hands them to the service with the announcement instead, see :meth:`locales_of`.)"""
        locales = locales_of(interaction)
        await self.service.readers.remember_locales(
            user_id=locales.user_id,
            locale=locales.locale,
            guild_id=locales.guild_id,
            guild_locale=locales.guild_locale,
        )


def locales_of(interaction: discord.Interaction) -> Locales:
    """The locales ``interaction`` came with, as the service keeps them."""
    return Locales(
        user_id=interaction.user.id,
        locale=_tag(interaction.locale),
        guild_id=interaction.guild_id,
        guild_locale=_tag(interaction.guild_locale) if interaction.guild_id else None,
    )
