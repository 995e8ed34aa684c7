"""The process's logging: discord.py's format, with secrets taken out of every record.

Why a filter: at ``LOG_LEVEL=DEBUG`` discord.py logs every request URL and every gateway event.
Interaction callbacks and follow-ups are addressed by the interaction's token
(``/interactions/{id}/{token}/callback``, ``/webhooks/{app}/{token}``) and gateway events carry
it as ``"token"``: anyone who reads the log could answer as the bot for fifteen minutes.  The
filter renders each record (message, arguments, traceback) once and replaces those tokens, the
bot's own ``DISCORD_TOKEN`` and the passwords of ``DATABASE_URL`` wherever they appear, the
password of any ``postgresql://user:password@`` address or its ``?password=``, and anything shaped
like a Discord interaction token, before any handler writes it.  aiosqlite's DEBUG lines (every
statement's parameters) are not written at all.

A database that does not answer is an operating condition, not a bug: a record logged with a
:class:`~bot.store.errors.StoreUnavailable` (a background write that found the database hung,
wherever it is caught) is written as one warning line saying why, without the traceback.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable

from .store.errors import StoreUnavailable

REDACTED = "[redacted]"

_PATTERNS = (
    # /interactions/<id>/<token>/callback and /webhooks/<application id>/<token>[/...]
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+"),
    # "token": "..." in JSON and 'token': '...' in a logged dict
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*"""),
    # postgresql://user:<password>@host (a driver's message, a setting quoted back), unless
    # already masked as user:***@host
    re.compile(r"(postgres(?:ql)?://[^:/@\s]*:)(?!\*\*\*@)[^@\s]+(?=@)", re.IGNORECASE),
    # ?password=... or &sslpassword=... in such an address's query, unless already masked
    re.compile(r"([?&](?:ssl)?password=)(?!\*\*\*(?:[&\s'\"]|$))[^&\s'\"]+", re.IGNORECASE),
    # an interaction token as Discord makes them ("interaction:" in base64, then more), where
    # no route names it: a driver's dump of query parameters, a stored announcement
    re.compile(r"()aW50ZXJhY3Rpb246[A-Za-z0-9_\-]+"),
)


class RedactingFilter(logging.Filter):
    """Rewrites each record so that no interaction token and no given secret is written.

    Attached to the handlers (not to loggers) so that it sees the records of every library,
    propagated or not.  Always lets the record through."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        for pattern in _PATTERNS:
            text = pattern.sub(rf"\g<1>{REDACTED}", text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: let the handler report it as usual
            return True
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info:
            # Rendered here, so no formatter renders the unredacted traceback again.
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


LINE_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def plain_formatter() -> logging.Formatter:
    """discord.py's line format without colours: the bot's and its workers' lines look alike."""
    return logging.Formatter(LINE_FORMAT, TIME_FORMAT, style="{")


def setup_worker_logging(level: int) -> None:
    """Log to stderr at ``level`` from a worker process (an engine or replay worker, started by
    the forkserver with no logging set up: its lines, such as the endgame tables' build, were
    dropped).  Plain lines through a :class:`RedactingFilter`; the workers know no secret (the
    bot took them out of the environment), so it only removes interaction tokens."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(plain_formatter())
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class UnavailableInOneLine(logging.Filter):
    """Writes a record whose exception is :class:`StoreUnavailable` as one warning line: the
    message, then the reason.  Always lets the record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, StoreUnavailable):
            record.msg = f"{record.getMessage()}: {error}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(level: str, secrets: Iterable[str] = ()) -> RedactingFilter:
    """Log to stderr at ``level`` in discord.py's format, through a :class:`RedactingFilter`
    that knows ``secrets``; returns the filter (the tests read what it does).

    Colours only on a terminal: discord.py also colours inside any Docker container, which
    puts escape codes into ``docker logs`` and every log collector."""
    import discord

    plain = plain_formatter()
    level_number = getattr(logging, level)
    if sys.stderr.isatty():
        discord.utils.setup_logging(level=level_number, root=True)
    else:
        discord.utils.setup_logging(level=level_number, formatter=plain, root=True)
    redacting = RedactingFilter(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(UnavailableInOneLine())
        handler.addFilter(redacting)
    # aiosqlite's DEBUG lines are every statement with its parameters (interaction tokens,
    # players' names): nothing an operator debugging the bot needs, everything a log must not
    # keep.
    logging.getLogger("aiosqlite").setLevel(max(level_number, logging.INFO))
    return redacting
