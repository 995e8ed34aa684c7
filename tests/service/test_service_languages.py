"""The languages the service keeps: a server's chosen language (moderators only, one of the
catalogs), and the Discord locales last seen for servers and users, written only when they
change, with anything that is not a locale ignored."""

from __future__ import annotations

import pytest

from bot.errors import ChallengeError, ForbiddenError
from bot.service import GameService

GUILD, USER = 10, 1


async def remember(service: GameService, locale: str | None, guild_locale: str | None) -> bool:
    return await service.readers.remember_locales(
        user_id=USER, locale=locale, guild_id=GUILD, guild_locale=guild_locale
    )


async def test_the_locales_seen_are_stored_and_read_back(service: GameService) -> None:
    assert await service.readers.user_locale(USER) is None
    assert await service.readers.server_locale(GUILD) is None
    assert await remember(service, "de", "fr") is True
    assert (
        await service.readers.user_locale(USER),
        await service.readers.server_locale(GUILD),
    ) == ("de", "fr")
    # The same again writes nothing and reports no change; a new server locale is a change.
    assert await remember(service, "de", "fr") is False
    assert await remember(service, "nl", "pt-BR") is True
    assert (
        await service.readers.user_locale(USER),
        await service.readers.server_locale(GUILD),
    ) == ("nl", "pt-BR")


async def test_only_changes_are_written(service: GameService) -> None:
    await remember(service, "de", "fr")
    before = (await service.store.prefs(USER), await service.store.settings(GUILD))
    for _ in range(5):
        await remember(service, "de", "fr")
    after = (await service.store.prefs(USER), await service.store.settings(GUILD))
    assert after == before  # not even updated_at moved


@pytest.mark.parametrize("junk", ["", "x" * 500, "de\nfr", "<@everyone>", "de; DROP TABLE"])
async def test_anything_that_is_not_a_locale_is_ignored(service: GameService, junk: str) -> None:
    assert await remember(service, junk, junk) is False
    assert await service.readers.user_locale(USER) is None
    assert await service.readers.server_locale(GUILD) is None


async def test_remembering_locales_keeps_preferences_and_settings(service: GameService) -> None:
    await service.readers.set_prefs(USER, theme="green", dm_turn=True)
    await service.settings.change(GUILD, is_moderator=True, theme="contrast", variant="dame")
    await remember(service, "uk", "pl")
    prefs = await service.readers.prefs(USER)
    settings = await service.settings.get(GUILD)
    assert (prefs.theme, prefs.dm_turn) == ("green", True)
    assert (settings.theme, settings.variant) == ("contrast", "dame")


async def test_moderators_choose_the_servers_language(service: GameService) -> None:
    assert await service.readers.chosen_language(GUILD) is None
    assert await service.readers.set_server_language(GUILD, "de", is_moderator=True) == "de"
    assert await service.readers.chosen_language(GUILD) == "de"
    # The Discord locale seen later does not override the choice; clearing it does.
    await remember(service, None, "fr")
    assert await service.readers.chosen_language(GUILD) == "de"
    assert await service.readers.set_server_language(GUILD, "", is_moderator=True) is None
    assert await service.readers.chosen_language(GUILD) is None
    assert await service.readers.server_locale(GUILD) == "fr"


async def test_a_language_choice_is_refused_clearly(service: GameService) -> None:
    with pytest.raises(ForbiddenError):
        await service.readers.set_server_language(GUILD, "de", is_moderator=False)
    with pytest.raises(ChallengeError) as refused:
        await service.readers.set_server_language(GUILD, "klingon", is_moderator=True)
    assert "the language must be one of" in str(refused.value)
    assert "Deutsch" not in str(refused.value) and "de" in str(refused.value)
    with pytest.raises(ChallengeError):
        await service.readers.set_server_language(None, "de", is_moderator=True)
    assert await service.readers.chosen_language(GUILD) is None
