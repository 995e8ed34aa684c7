"""Each user's own preferences: how boards and moves are shown to them privately, and which
direct messages they want.

Preferences belong to the user, not to a server, so they follow them everywhere.  Nothing is
stored until a user changes something, and every stored word is read back tolerantly: an unknown
theme or notation (a damaged row, or one a later version wrote) reads as the default rather than
failing the game it is needed for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rules.variants import Notation

from ..enums import BoardTheme
from ..errors import PrefsError
from ..i18n import _
from ..results import UserPrefs
from ..store import PrefsChanges, Store


class PrefsBook:
    """Reads and changes users' preferences."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def get(self, user_id: int) -> UserPrefs:
        """``user_id``'s preferences (the defaults if they never set any)."""
        row = await self.store.prefs(user_id)
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(
            user_id,
            theme=_or_none(BoardTheme, row.theme),
            notation=_or_none(Notation, row.notation),
            dm_turn=row.dm_turn,
            last_warning=row.last_warning,
        )

    async def change(
        self,
        user_id: int,
        *,
        theme: BoardTheme | str | None = None,
        notation: Notation | str | None = None,
        dm_turn: bool | None = None,
        last_warning: bool | None = None,
    ) -> UserPrefs:
        """Change the preferences given (None leaves one as it is; an empty theme or notation
        goes back to the default: the server's theme, each variant's own notation) and return
        them all."""
        changes: PrefsChanges = {}
        if theme is not None:
            changes["theme"] = _word(BoardTheme, theme)
        if notation is not None:
            changes["notation"] = _word(Notation, notation)
        if dm_turn is not None:
            changes["dm_turn"] = bool(dm_turn)
        if last_warning is not None:
            changes["last_warning"] = bool(last_warning)
        if changes:
            await self.store.save_prefs(user_id, changes, when=self.clock())
        return await self.get(user_id)


E = TypeVar("E", BoardTheme, Notation)


def _or_none(kind: type[E], word: str) -> E | None:
    """The member stored as ``word``; None (the default) for an empty or unknown one."""
    try:
        return kind(word) if word else None
    except ValueError:
        return None


def _word(kind: type[BoardTheme] | type[Notation], value: str) -> str:
    """The stored word of ``value``, a member of ``kind`` or empty (the default)."""
    if value == "":
        return ""
    try:
        return kind(value).value
    except ValueError:
        choices = ", ".join(kind)
        if kind is BoardTheme:
            reason = _(
                "the theme must be one of {choices} (or empty for the default)", choices=choices
            )
        else:
            reason = _(
                "the notation must be one of {choices} (or empty for the default)",
                choices=choices,
            )
        raise PrefsError(reason) from None
