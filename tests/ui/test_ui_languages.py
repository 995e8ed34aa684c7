"""The language of a public post when the database cannot say which it is."""

from __future__ import annotations

from support.service_harness import Clock, Database, opened

from bot.ui.languages import Languages

GUILD = 10


async def test_a_servers_language_the_database_cannot_read_falls_back_instead_of_failing(
    database: Database, clock: Clock
) -> None:
    """The language is read for a post after its announcement was written down: a database
    failing just then must not hold the post back (it is in the server's Discord locale as
    last read, else English, and asked for again next time)."""
    async with opened(database, clock) as service:
        await service.readers.remember_locales(
            user_id=1, locale="de", guild_id=GUILD, guild_locale="fr"
        )
        languages = Languages(service)
        assert await languages.public(GUILD) == "fr"
        languages.forget_server(GUILD)  # the server's choice is read again
        elsewhere = Languages(service)
    # The service is closed: every read fails.
    assert await languages.public(GUILD) == "fr"
    assert await elsewhere.public(GUILD + 1) == "en"
