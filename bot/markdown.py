"""User text inside the bot's Markdown: :func:`shown` is the one place it is escaped.

Discord renders message content, embed descriptions, titles and field names and values as
Markdown, so a display name such as ``[claim nitro](https://evil.example/x)`` would become a
link in every message that names its owner.  Every name or other user text the bot puts into
Markdown goes through :func:`shown`; text built from ``shown(...)`` pieces is Markdown and must
never be passed through it again (a second pass would show the backslashes).  Where Discord shows
text as it is (embed footers and author names, button and select labels, thread names, autocomplete
choices) :func:`plain` gives the same one-line, bounded name without escapes.

Why not ``discord.utils.escape_markdown``: it matches a masked link only whole inside one string,
so two names that are harmless alone (``[claim`` and ``](https://evil.example)``) still make a
link once the bot writes ``NAME v NAME``; it leaves URLs, ordered lists and mentions such as
``<#id>`` or ``<t:0>`` alone.  This module also stays free of discord.py so the service, which
composes most sentences, can use it.

The escaping is a backslash before each character that starts Markdown anywhere in a line
(``\\ * _ ~ | ` [ ] < >``), before the first character when it would start a heading, list,
quote or subtext (``#``, ``-``, ``+``, ``1.``), and before the colon of ``scheme://`` so no URL
turns into a link; ``@everyone`` and ``@here`` get a zero-width space so they can never read as
a mass mention.  Discord drops a backslash that precedes punctuation, so the name reads as typed.
Names never stand inside code spans (backslashes are literal there).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

NAME_LIMIT = 32
"""Characters a name is cut to (Discord's own maximum for a display name) before escaping, so
an escaped name is at most ``2 * NAME_LIMIT`` UTF-16 units (see :data:`SHOWN_MAX`)."""

SHOWN_MAX = 2 * NAME_LIMIT
"""The longest :func:`shown` name in Discord's count (UTF-16 units): the budget builders use."""

ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"

_ALWAYS = frozenset("\\*_~|`[]<>")
"""Characters that start Markdown (or a mention, a timestamp, a custom emoji) anywhere."""

_LINE_START = re.compile(r"[#\-+]|\d+[.)]")
"""What starts a heading, a list, a subtext line or an ordered list at the start of a line."""

_URL_COLON = re.compile(r"(?<=[A-Za-z0-9])(?=://)")
"""Before the colon of ``scheme://`` (Discord links any ``https://...`` it sees)."""

_MASS_MENTION = re.compile(r"@(?=everyone|here)", re.IGNORECASE)

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: inside a name they would reorder the bot's own words."""


def size(text: str) -> int:
    """The length of ``text`` as Discord counts it, on the safe side: UTF-16 code units (an
    emoji outside the Basic Multilingual Plane counts twice)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def one_line(text: str) -> str:
    """``text`` on one line: control characters become spaces (a name cannot start a new line,
    and with it a heading or a quote), direction overrides are dropped, runs of spaces close."""
    kept = []
    for ch in str(text):
        if ch in _BIDI_CONTROLS:
            continue
        kept.append(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch)
    return " ".join("".join(kept).split())


def _joins_previous(ch: str) -> bool:
    """``ch`` belongs to the character before it (a combining mark, a variation selector, a skin
    tone, an emoji tag or the far side of a zero-width joiner)."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or ch == "\u200d"
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """``text`` cut into what a reader sees as single characters (close to Unicode's grapheme
    clusters, enough to never split an accent from its letter, an emoji from its modifier, a
    joined emoji sequence or a flag)."""
    out: list[str] = []
    for ch in text:
        if out and (
            _joins_previous(ch)
            or out[-1].endswith("\u200d")
            or (_regional(ch) and len(out[-1]) == 1 and _regional(out[-1]))
        ):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def shorten(text: str, limit: int, measure: Callable[[str], int] = size) -> str:
    """``text`` if it fits ``limit``, else as many whole characters as fit with an ellipsis."""
    if measure(text) <= limit:
        return text
    room = limit - measure(ELLIPSIS)
    kept = ""
    for piece in clusters(text):
        if measure(kept + piece) > room:
            break
        kept += piece
    return kept.rstrip() + ELLIPSIS if room >= 0 else ""


@functools.lru_cache(maxsize=4096)
def plain(name: str, limit: int = NAME_LIMIT) -> str:
    """A name for places Discord shows as it is (footers, labels, thread names): one line, at
    most ``limit`` characters; ``?`` for a name with nothing to show."""
    return shorten(one_line(name), limit, len) or "?"


def _escape(text: str) -> str:
    escaped = "".join("\\" + ch if ch in _ALWAYS else ch for ch in text)
    head = _LINE_START.match(escaped)
    if head is not None:  # a backslash before the mark itself: "\# x", "\- x", "1\. x"
        end = head.end() - 1
        escaped = escaped[:end] + "\\" + escaped[end:]
    escaped = _URL_COLON.sub("\\\\", escaped)
    return _MASS_MENTION.sub("@\u200b", escaped)


@functools.lru_cache(maxsize=4096)  # the same few names, in every message of every move
def shown(name: str, limit: int = NAME_LIMIT) -> str:
    """A name (or any short user text) as Markdown that reads exactly as typed: one line, cut to
    ``limit`` characters with an ellipsis, then escaped so it can make no link, mention,
    heading, list, quote, spoiler, code span or emphasis, and cannot close the bot's own bold
    around it.  The result is Markdown: never pass it, or a text built with it, through here
    again.  Use :func:`plain` where Discord does not render Markdown."""
    return _escape(plain(name, limit))
