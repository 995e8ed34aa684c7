"""Wording that the service and the Discord layer share: lengths of time (in the reader's
language, see :func:`bot.i18n.duration`).  Counted nouns are catalog messages (``_n``) where
they are used.
"""

from __future__ import annotations

from .i18n import Text
from .i18n import duration as _duration


def duration(seconds: float) -> Text:
    """``1 day``, ``1 day 6 hours``, ``5 minutes``: the two largest non-zero units, as text in
    the reader's language (``str()`` gives the English).

    >>> str(duration(90000))
    '1 day 1 hour'
    >>> str(duration(3))
    '3 seconds'
    """
    return _duration(seconds)


def plural(count: int, word: str) -> str:
    """``"1 move"``, ``"3 moves"``: English only.  Deprecated: use ``bot.i18n._n`` (kept while
    parts of the Discord layer still use it)."""
    return f"{count} {word}{'' if count == 1 else 's'}"
