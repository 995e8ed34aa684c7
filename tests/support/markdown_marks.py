"""Discord's Markdown read independently of :mod:`bot.markdown`: which marks Discord would act
on in a text, and what it shows for escaped text.  The Discord layer's builders
(``tests/ui/test_ui_markdown.py``) and the service's sentences
(``tests/service/test_service_markdown.py``) are both checked with it."""

from __future__ import annotations

import re

PUNCTUATION = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
_LINE_START = re.compile(r"\s*(?:#{1,3}\s|-#\s|[-*+]\s|\d+[.)]\s|>>>\s|>\s)")
_SPECIAL = set("*_~|`[]<>")


def unescape(text: str) -> str:
    """What Discord shows for escaped text: a backslash before punctuation is dropped."""
    return re.sub(r"\\([" + re.escape(PUNCTUATION) + "])", r"\1", text)


def live_marks(text: str) -> list[str]:
    """The Markdown marks Discord would act on in ``text``, in order."""
    marks: list[str] = []
    i = 0
    line_start = True
    while i < len(text):
        if line_start:
            head = _LINE_START.match(text, i)
            if head is not None:
                marks.append("line:" + head.group().strip())
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in PUNCTUATION:
            i += 2
            line_start = False
            continue
        if ch in _SPECIAL:
            marks.append(ch)
        elif text.startswith("://", i) and i and text[i - 1].isalnum():
            marks.append("url")
        elif re.match(r"@(everyone|here)", text[i:], re.IGNORECASE):
            marks.append("@" + text[i + 1 : i + 5])
        line_start = ch == "\n"
        i += 1
    return marks
