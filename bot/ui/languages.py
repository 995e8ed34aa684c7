"""Who reads which language: a private answer in the user's Discord locale, a public message in
the server's language (``/settings language``, else the locale Discord last gave for the server),
a direct message in the locale the user last used.

Discord gives every interaction the user's ``locale`` and the server's ``guild_locale``; neither
is there when the scheduler announces a timeout or the outbox posts after a restart, so the ones
seen are remembered (:meth:`Languages.seen`) and read back from the database.
"""

from __future__ import annotations

import discord

from ..i18n import SOURCE, negotiate
from ..service import GameService


def interaction_language(interaction: discord.Interaction) -> str:
    """The catalog for the user's own client: what a private answer is written in."""
    return negotiate(_tag(interaction.locale))


def _tag(locale: discord.Locale | str | None) -> str | None:
    if locale is None:
        return None
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


_UNREAD = object()


class Languages:
    """The language of each reader, cached per process (a server's or user's language changes
    through this process's own interactions, which update the cache)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._servers: dict[int, str] = {}
        self._users: dict[int, str] = {}
        self._chosen: dict[int, str | object | None] = {}

    def private(self, interaction: discord.Interaction) -> str:
        return interaction_language(interaction)

    async def public(self, guild_id: int | None) -> str:
        """The server's language: its ``/settings language``, else its Discord locale last seen,
        else English (and English in direct messages with the bot)."""
        if guild_id is None:
            return SOURCE
        cached = self._servers.get(guild_id)
        if cached is None:
            cached = negotiate(await self.service.server_language(guild_id))
            self._servers[guild_id] = cached
        return cached

    async def direct(self, user_id: int) -> str:
        """The language a direct message to ``user_id`` is written in."""
        cached = self._users.get(user_id)
        if cached is None:
            cached = negotiate(await self.service.user_locale(user_id))
            self._users[user_id] = cached
        return cached

    async def public_for(self, interaction: discord.Interaction) -> str:
        """The language of a public message answering ``interaction``: the server's chosen
        language, else the server's locale as this very interaction gives it (fresher than the
        stored one, and there even for a server's first interaction)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return SOURCE
        chosen = self._chosen.get(guild_id, _UNREAD)
        if chosen is _UNREAD:
            chosen = await self.service.chosen_language(guild_id)
            self._chosen[guild_id] = chosen
        if isinstance(chosen, str):
            return chosen
        tag = _tag(interaction.guild_locale)
        return negotiate(tag) if tag else await self.public(guild_id)

    def forget_server(self, guild_id: int) -> None:
        """The server's language setting changed: read it again next time."""
        self._servers.pop(guild_id, None)
        self._chosen.pop(guild_id, None)

    async def seen(self, interaction: discord.Interaction) -> None:
        """Remember the locales this interaction came with, writing only what changed."""
        user_tag = _tag(interaction.locale)
        guild_tag = _tag(interaction.guild_locale) if interaction.guild_id is not None else None
        changed = await self.service.remember_locales(
            user_id=interaction.user.id,
            locale=user_tag,
            guild_id=interaction.guild_id,
            guild_locale=guild_tag,
        )
        if user_tag is not None:
            self._users[interaction.user.id] = negotiate(user_tag)
        if changed and interaction.guild_id is not None:
            self._servers.pop(interaction.guild_id, None)
