"""Database addresses: which store a location names, and an address fit to show.

The settings check ``DATABASE_URL`` and :func:`bot.store.open_store` picks the store by the same
test, and everything that names a PostgreSQL server in a message or a log (the settings, the
store, ``migrate-db``) hides its password the same way.  No driver is imported here.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

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


def redact_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for logs and messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "<unreadable URL>"
    if password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
