"""Database addresses: which store a location names, and an address fit to show.

The settings check ``DATABASE_URL`` and :func:`bot.store.open_store` picks the store by the same
test, and everything that names a PostgreSQL server in a message or a log (the settings, the
store, ``migrate-db``) hides its password the same way.  No driver is imported here.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, unquote_plus, urlencode, urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")
"""URLs with these schemes (in any case) are PostgreSQL servers; anything else is a SQLite
file."""


def is_postgres_url(location: str | Path) -> bool:
    """Whether ``location`` names a PostgreSQL server (the settings and
    :func:`bot.store.open_store` decide by this one test, so a URL the settings accept is never
    opened as a file; a :class:`~pathlib.Path` is always a file)."""
    if not isinstance(location, str):
        return False
    scheme, sep, _ = location.partition("://")
    return bool(sep) and scheme.lower() in POSTGRES_SCHEMES


SECRET_PARAMETERS = ("password", "sslpassword")
"""Query parameters of a PostgreSQL URL that hold a password (libpq and asyncpg read both
``postgresql://user:secret@host`` and ``postgresql://user@host?password=secret``)."""


def url_passwords(url: str) -> list[str]:
    """Every password written in ``url``, as written: in its user part and in its query."""
    try:
        parts = urlsplit(url)
        found = [parts.password] if parts.password else []
    except ValueError:
        return []
    for pair in parts.query.split("&"):
        name, _, value = pair.partition("=")
        if value and unquote_plus(name).lower() in SECRET_PARAMETERS:
            found.append(value)
    return found


def redact_url(url: str) -> str:
    """``url`` with its passwords (in the user part and in the query) replaced by ``***``, for
    logs and messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "<unreadable URL>"
    if password is not None:
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{user}:***@{host}")
    if parts.query:
        query = [
            (name, "***" if name.lower() in SECRET_PARAMETERS else value)
            for name, value in parse_qsl(parts.query, keep_blank_values=True)
        ]
        parts = parts._replace(query=urlencode(query, safe="*/:,"))
    return urlunsplit(parts)
