"""A pseudo-language for tests: its catalog "translates" every message into the English between
⟦ and ⟧ (placeholders kept), so any word shown without going through the catalogs stands out as
unmarked.  :func:`use_pseudo_language` installs it as the language ``xx``."""

from __future__ import annotations

from gettext import NullTranslations

import pytest

from bot.i18n import catalogs

PSEUDO = "xx"


class Marked(NullTranslations):
    """Every message "translated" as itself between ⟦ and ⟧."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def use_pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``xx`` the marking language for the rest of the test."""
    real = catalogs.translations

    def translations(code: str) -> NullTranslations:
        return Marked() if code == PSEUDO else real(code)

    monkeypatch.setattr(catalogs, "translations", translations)
