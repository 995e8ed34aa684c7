"""Plain English wording that the service and the Discord layer share: lengths of time and
counted nouns.  Pure functions of numbers, so a sentence reads the same whoever builds it.
"""

from __future__ import annotations

_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def duration(seconds: float) -> str:
    """``"1 day"``, ``"1 day 6 hours"``, ``"5 minutes"``: the two largest non-zero units.

    >>> duration(90000)
    '1 day 1 hour'
    >>> duration(3)
    '3 seconds'
    """
    total = max(0, round(seconds))
    if total == 0:
        return "0 seconds"
    parts = []
    for name, size in _UNITS:
        count, total = divmod(total, size)
        if count:
            parts.append(plural(count, name))
    return " ".join(parts[:2])


def plural(count: int, word: str) -> str:
    """``"1 move"``, ``"3 moves"``."""
    return f"{count} {word}{'' if count == 1 else 's'}"
