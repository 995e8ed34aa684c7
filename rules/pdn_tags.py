"""PDN's tag pairs (``[Event "..."]``) and the error every PDN step raises.

Kept apart from :mod:`rules.pdn` so the parser (:mod:`rules.pdn_parse`), the reader and writer
(:mod:`rules.pdn`) and the recovering import reader (:mod:`rules.pdn_import`) share them without
importing each other in a circle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping

__all__ = ["ROSTER", "PdnError", "Tags"]

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""PGN's Seven Tag Roster, which PDN keeps: always written, in this order."""
_ORDER = (*ROSTER, "GameType", "Variant", "SetUp", "FEN")
"""Tags written first and in this order; any others follow in the order they were set."""
_CANONICAL = {name.lower(): name for name in _ORDER}
_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,255}")


class PdnError(ValueError):
    """PDN that cannot be read or written; ``str(error)`` says why, in words fit for a user."""


class Tags(MutableMapping[str, str]):
    """Tag pairs, iterated in roster order (:data:`ROSTER`, then ``GameType``, ``Variant``,
    ``SetUp``, ``FEN``), then the others in the order they were set.

    Names are checked when set (letters, digits and ``_``) and the well-known ones are spelled
    canonically whatever case they come in (``gametype`` -> ``GameType``), so lookups do not depend
    on how a file capitalised them.  Values are single lines: a newline could not be written back.
    Compares equal to a plain ``dict`` with the same pairs.
    """

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        self._values: dict[str, str] = {}
        self.update(items)

    @staticmethod
    def canonical(name: str) -> str:
        """The stored spelling of ``name``; :class:`PdnError` if it is not a valid tag name."""
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise PdnError(f"{name!r} is not a tag name: use letters, digits and _ only")
        return _CANONICAL.get(name.lower(), name)

    def __setitem__(self, name: str, value: str) -> None:
        if not isinstance(value, str):
            raise PdnError(f"the value of tag {name} must be text, not {type(value).__name__}")
        if "\n" in value or "\r" in value:
            raise PdnError(f"the value of tag {name} must be a single line")
        self._values[self.canonical(name)] = value

    def _key(self, name: object) -> str:
        if not isinstance(name, str):
            raise KeyError(name)
        return _CANONICAL.get(name.lower(), name)

    def __getitem__(self, name: str) -> str:
        return self._values[self._key(name)]

    def __delitem__(self, name: str) -> None:
        del self._values[self._key(name)]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._key(name) in self._values

    def __iter__(self) -> Iterator[str]:
        for name in _ORDER:
            if name in self._values:
                yield name
        for name in self._values:
            if name not in _CANONICAL.values():
                yield name

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Tags({dict(self)!r})"
