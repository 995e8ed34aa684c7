"""``GameService.readers``: who reads the bot, and how: each user's preferences and the languages
of servers and users, handed to the rooms keeping them (:mod:`bot.service.prefs`,
:mod:`bot.service.languages`).  A face of its own, as :mod:`bot.service.tournament_face` is, keeps
the game service's face to the game actions; the Discord layer reaches it as a property.
"""

from __future__ import annotations

from rules.variants import Notation

from ..enums import BoardTheme
from ..results import UserPrefs
from .languages import LanguageBook
from .prefs import PrefsBook


class ReadersFace:
    """Preferences and languages: reads and the few writes players and moderators make."""

    def __init__(self, prefs: PrefsBook, languages: LanguageBook) -> None:
        self._prefs = prefs
        self._languages = languages

    async def prefs(self, user_id: int) -> UserPrefs:
        """``user_id``'s preferences (the defaults if they never set any)."""
        return await self._prefs.get(user_id)

    async def set_prefs(
        self,
        user_id: int,
        *,
        theme: BoardTheme | str | None = None,
        notation: Notation | str | None = None,
        dm_turn: bool | None = None,
        last_warning: bool | None = None,
    ) -> UserPrefs:
        """Change the preferences given and return them all (:meth:`PrefsBook.change`)."""
        return await self._prefs.change(
            user_id, theme=theme, notation=notation, dm_turn=dm_turn, last_warning=last_warning
        )

    async def server_locale(self, guild_id: int) -> str | None:
        """The server's Discord locale as last seen (None before any interaction from it)."""
        return await self._languages.server_locale(guild_id)

    async def chosen_language(self, guild_id: int | None) -> str | None:
        """The moderators' language for ``guild_id`` (None: follow its Discord locale)."""
        return await self._languages.chosen_language(guild_id)

    async def user_locale(self, user_id: int) -> str | None:
        """The Discord locale ``user_id`` last used (None before any interaction)."""
        return await self._languages.user_locale(user_id)

    async def remember_locales(
        self,
        *,
        user_id: int,
        locale: str | None,
        guild_id: int | None,
        guild_locale: str | None,
    ) -> bool:
        """Keep the locales of an interaction whose answer announced nothing (an announcement's
        go with :meth:`bot.service.facade.GameService.shown`); True if the server's changed."""
        return await self._languages.remember_locales(
            user_id=user_id, locale=locale, guild_id=guild_id, guild_locale=guild_locale
        )

    async def set_server_language(
        self, guild_id: int | None, language: str, *, is_moderator: bool
    ) -> str | None:
        """Moderators choose the language of the server's public messages; the choice."""
        return await self._languages.set_server_language(
            guild_id, language, is_moderator=is_moderator
        )
