"""Discord's size limits, and the helpers that make a message fit them by construction.

Discord refuses a whole message (HTTP 400) when one part is a character too long, so every
builder knows its budget: lists stop with "… and N more", long names end in an ellipsis (names
are cut before they are escaped, by :func:`bot.markdown.shown`), and a Markdown text that must
be shortened is cut between whole pieces, never inside an escape, a mention, a timestamp or a
code span, with any bold or spoiler it was inside closed again.  Lengths are counted as
:func:`bot.markdown.size` counts them (UTF-16 units, the larger of the counts Discord might use).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import discord
from discord import app_commands

from ..i18n import _n, render
from ..markdown import ELLIPSIS, clusters, one_line, shorten, size
from ..results import MoveChoice

CONTENT: Final = 2000
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
AUTHOR_NAME: Final = 256
EMBEDS_TOTAL: Final = 6000
"""Characters across all the embeds of one message (titles, descriptions, field names and
values, footers, author names)."""
EMBEDS_PER_MESSAGE: Final = 10
BUTTON_LABEL: Final = 80
SELECT_OPTION_LABEL: Final = 100
SELECT_OPTION_DESCRIPTION: Final = 100
CHOICES: Final = 25
"""Autocomplete choices Discord shows."""
CHOICE_NAME: Final = 100
CHOICE_VALUE: Final = 100
THREAD_NAME: Final = 100

EMPTY_VALUE: Final = "—"
"""Shown for an empty field (Discord refuses a field without a name or a value)."""

_MARKERS: Final = ("**", "__", "~~", "||")
_PIECE = re.compile(
    r"""\\.                     # an escape and what it escapes
      | ```[\s\S]*?```          # a code block
      | `[^`]*`                 # a code span
      | <[^<>\s]{1,200}>        # a mention, channel, timestamp or custom emoji
      | \*\*|__|~~|\|\|         # bold, underline, strike, spoiler
      | \s+                     # spaces: the preferred places to cut
    """,
    re.VERBOSE | re.DOTALL,
)


def _pieces(text: str) -> list[str]:
    """``text`` as the pieces it may be cut between: the Markdown atoms of :data:`_PIECE`, and
    single characters (whole clusters) between them."""
    out: list[str] = []
    at = 0
    for match in _PIECE.finditer(text):
        out.extend(clusters(text[at : match.start()]))
        out.append(match.group())
        at = match.end()
    out.extend(clusters(text[at:]))
    return out


def fit(text: str, limit: int) -> str:
    """Markdown ``text`` if it fits ``limit``, else its longest beginning that fits with an
    ellipsis, cut at a space when that keeps at least half of what fits, never inside a Markdown
    piece, and with the bold, underline, strike or spoiler it was inside closed again."""
    if size(text) <= limit:
        return text
    opened: list[str] = []
    used = 0
    kept: list[str] = []
    best_any: tuple[int, tuple[str, ...]] = (0, ())
    best_space: tuple[int, tuple[str, ...]] | None = None
    for piece in _pieces(text):
        closing = tuple(reversed(opened))
        if used + size(ELLIPSIS) + sum(map(size, closing)) <= limit:
            best_any = (len(kept), closing)
            if piece.isspace():
                best_space = best_any
        else:
            break
        kept.append(piece)
        used += size(piece)
        if piece in _MARKERS:
            if piece in opened:
                opened.remove(piece)
            else:
                opened.append(piece)
    count, closing = best_any
    if best_space is not None and 2 * best_space[0] >= count:
        count, closing = best_space
    if size(ELLIPSIS) > limit:
        return ""
    return "".join(kept[:count]).rstrip() + ELLIPSIS + "".join(closing)


def and_more(code: str = "en") -> Callable[[int], str]:
    """``… and 3 more.`` in the language ``code``: what :func:`listing` ends with by default."""

    def more(count: int) -> str:
        words = _n(
            "{ellipsis} and {count} more.", "{ellipsis} and {count} more.", count, ellipsis=ELLIPSIS
        )
        return render(words, code)

    return more


def listing(
    lines: Sequence[str],
    limit: int,
    *,
    more: Callable[[int], str] | None = None,
    sep: str = "\n",
    most: int | None = None,
    code: str = "en",
) -> str:
    """As many whole ``lines`` (at most ``most``) as fit ``limit`` joined by ``sep``, followed by
    ``more(left out)`` when some did not fit, counted within the limit too (by default ``… and
    N more.`` in the language ``code``)."""
    if more is None:
        more = and_more(code)
    n = len(lines) if most is None else min(len(lines), most)
    totals = [0]
    for line in lines[:n]:
        totals.append(totals[-1] + size(line))
    gap = size(sep)
    for k in range(n, -1, -1):
        left = len(lines) - k
        used = totals[k] + gap * max(0, k - 1)
        if left:
            used += size(more(left)) + (gap if k else 0)
        if used <= limit:
            shown = list(lines[:k]) + ([more(left)] if left else [])
            return sep.join(shown)
    return fit(more(len(lines)), limit)


def label(text: str, limit: int = BUTTON_LABEL) -> str:
    """Plain text (no Markdown: labels, option descriptions, thread names, choice names) on one
    line within ``limit``."""
    return shorten(one_line(text), limit)


def autocomplete(choices: Iterable[MoveChoice]) -> list[app_commands.Choice[str]]:
    """The service's suggestions as Discord takes them: at most :data:`CHOICES`, names of
    1-100 characters (shortened with an ellipsis), and no choice whose value Discord would
    refuse (a move text that long could not be typed into ``/move`` either)."""
    out: list[app_commands.Choice[str]] = []
    for choice in choices:
        name = label(choice.name, CHOICE_NAME) or label(choice.value, CHOICE_NAME)
        if not name or not 1 <= size(choice.value) <= CHOICE_VALUE:
            continue
        out.append(app_commands.Choice(name=name, value=choice.value))
        if len(out) == CHOICES:
            break
    return out


def embed_size(embed: discord.Embed) -> int:
    """The characters of ``embed`` that count towards :data:`EMBEDS_TOTAL`."""
    parts = [embed.title, embed.description, embed.footer.text, embed.author.name]
    for f in embed.fields:
        parts += [f.name, f.value]
    return sum(size(p) for p in parts if p)


def fit_embed(embed: discord.Embed, room: int = EMBEDS_TOTAL) -> discord.Embed:
    """``embed`` within every per-part limit and ``room`` in total, in place.

    Builders fit their parts by construction; this is the last guard for text they pass on
    (the service's sentences), shortening the description first and then dropping fields from
    the end, so an oversized message is shortened rather than refused."""
    if embed.title:
        embed.title = fit(embed.title, EMBED_TITLE)
    if embed.footer.text:
        embed.set_footer(text=shorten(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(
            name=shorten(embed.author.name, AUTHOR_NAME),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    for index, f in enumerate(embed.fields[:EMBED_FIELDS]):
        embed.set_field_at(
            index,
            name=fit(f.name or EMPTY_VALUE, FIELD_NAME),
            value=fit(f.value or EMPTY_VALUE, FIELD_VALUE),
            inline=bool(f.inline),
        )
    while len(embed.fields) > EMBED_FIELDS:
        embed.remove_field(EMBED_FIELDS)
    if embed.description:
        others = embed_size(embed) - size(embed.description)
        embed.description = fit(embed.description, min(EMBED_DESCRIPTION, max(0, room - others)))
    while embed_size(embed) > room and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    return embed
