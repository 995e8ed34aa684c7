"""The languages the bot knows its readers by: a server's chosen language, and the Discord
locales it last saw for each server and user.

Discord puts the user's ``locale`` and the server's ``guild_locale`` on every interaction, but
announcements made without one (a timeout, a reminder, a late post after a restart, a direct
message) must still be written in a language, so the locales seen are stored.  Writing them on
every interaction would cost a transaction per button press: each process remembers what it last
wrote and writes only a change.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ChallengeError, ForbiddenError
from ..i18n import _, is_supported, listed
from ..i18n import available as available_languages
from ..store import Store

MAX_LOCALE_LENGTH = 16
"""Discord's locales are at most six characters (``es-419``); anything longer is not one."""


def _locale_tag(tag: str | None) -> str:
    if not tag or len(tag) > MAX_LOCALE_LENGTH or not all(c.isalnum() or c in "-_" for c in tag):
        return ""
    return tag


class LanguageBook:
    """Reads and remembers languages; moderators choose a server's."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._user_written: dict[int, str] = {}
        self._guild_written: dict[int, str] = {}

    async def server_locale(self, guild_id: int) -> str | None:
        """The server's Discord locale as last seen (None before any interaction from it)."""
        row = await self.store.settings(guild_id)
        return (row.guild_locale or None) if row is not None else None

    async def chosen_language(self, guild_id: int | None) -> str | None:
        """The moderators' choice for ``guild_id`` (None: follow the server's Discord locale)."""
        if guild_id is None:
            return None
        row = await self.store.settings(guild_id)
        return row.language if row is not None and is_supported(row.language) else None

    async def user_locale(self, user_id: int) -> str | None:
        row = await self.store.prefs(user_id)
        return (row.locale or None) if row is not None else None

    async def remember_locales(
        self,
        *,
        user_id: int,
        locale: str | None,
        guild_id: int | None,
        guild_locale: str | None,
    ) -> bool:
        """Store the locales an interaction came with, when they differ from the stored ones;
        True if the server's locale changed (its public language may have)."""
        now = self.clock()
        tag = _locale_tag(locale)
        if tag and self._user_written.get(user_id) != tag:
            row = await self.store.prefs(user_id)
            if row is None or row.locale != tag:
                await self.store.save_prefs(user_id, {"locale": tag}, when=now)
            self._user_written[user_id] = tag
        guild_tag = _locale_tag(guild_locale)
        if guild_id is None or not guild_tag or self._guild_written.get(guild_id) == guild_tag:
            return False
        settings = await self.store.settings(guild_id)
        changed = settings is None or settings.guild_locale != guild_tag
        if changed:
            await self.store.save_settings(guild_id, {"guild_locale": guild_tag}, when=now)
        self._guild_written[guild_id] = guild_tag
        return changed

    async def set_server_language(
        self, guild_id: int | None, language: str, *, is_moderator: bool
    ) -> str | None:
        """Moderators choose the language of the server's public messages (``""``: follow the
        server's Discord locale); returns the choice."""
        if guild_id is None:
            raise ChallengeError(_("settings belong to a server"))
        if not is_moderator:
            raise ForbiddenError(_("only moderators (Manage Server) can change the settings"))
        if language and not is_supported(language):
            raise ChallengeError(
                _(
                    "the language must be one of {languages}",
                    languages=listed(available_languages()),
                )
            )
        await self.store.save_settings(guild_id, {"language": language}, when=self.clock())
        return language or None
