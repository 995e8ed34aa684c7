"""The words the renderer writes, in one language: English by default.

Everything :mod:`render` says in words (the status strip, a GIF's move strip and names header, the
note on a shrunk GIF, the alt text and the text diagram) comes from a :class:`RenderWords`: format
templates with ``{name}`` placeholders, one per whole phrase (``White to move`` and
``Black to move`` are two, so no side's name is ever put into another language's sentence).  The
renderer knows no language; the bot builds a :class:`RenderWords` from its catalogs
(``bot.ui.render_words``) and passes it as ``words=``.  The default, :data:`ENGLISH`, writes
exactly what the renderer always wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.outcome import Outcome
from rules.variants import Color, Variant

Counted = Callable[[int], str]
"""The template for a count (languages have up to three plural forms)."""


def english_ordinal(n: int) -> str:
    """``2nd``, ``3rd``, ``11th``: the GIF's frame step in English.

    >>> [english_ordinal(n) for n in (2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _white_captures(count: int) -> str:
    if count == 1:
        return "Last move: White {move}, capturing {count} piece on {squares}."
    return "Last move: White {move}, capturing {count} pieces on {squares}."


def _black_captures(count: int) -> str:
    if count == 1:
        return "Last move: Black {move}, capturing {count} piece on {squares}."
    return "Last move: Black {move}, capturing {count} pieces on {squares}."


@dataclass(frozen=True)
class RenderWords:
    """Templates for everything :mod:`render` writes (``str.format`` style, named fields)."""

    white: str = "White"
    """A side's name where a player's name is missing or unreadable (GIF header)."""
    black: str = "Black"
    white_to_move: str = "White to move"
    """Status strip and GIF start frame."""
    black_to_move: str = "Black to move"
    move_number: str = "move {number}"
    """Status strip: ``White to move · move 12``."""
    start_white: str = "Start · White to move"
    """The GIF's first frame."""
    start_black: str = "Start · Black to move"
    white_moved: str = "{number}{dots} White {move}"
    """The GIF strip: ``12. White 11-15`` (``dots`` is ``.`` or ``...``, as PDN writes it)."""
    black_moved: str = "{number}{dots} Black {move}"
    ending: str = "{move} · {result} {words}"
    """The GIF's last frame of a finished game: the move strip, the result and how it ended."""
    endings: tuple[tuple[str, str], ...] = ()
    """How a game ended, by its English words (:attr:`rules.outcome.Outcome.words`:
    ``threefold repetition``, ``White resigned``); anything missing is shown in English."""
    shrunk: str = "Drawn at {size} px instead of {width} px to stay under the limit."
    """The GIF note when the frames were drawn smaller."""
    thinned: str = "Shows every {ordinal} position ({shown} of {total}) to stay under the limit."
    """The GIF note when frames were dropped (after :attr:`shrunk` when both happened)."""
    ordinal: Callable[[int], str] = english_ordinal
    """The frame step in :attr:`thinned`."""
    board: str = "{title}, {size}x{size} board."
    """Alt text: the variant and the board."""
    titles: tuple[tuple[str, str], ...] = ()
    """Variant titles by key (missing ones: :attr:`rules.variants.Variant.title`)."""
    white_to_move_sentence: str = "White to move."
    """Alt text and text diagram."""
    black_to_move_sentence: str = "Black to move."
    white_last_move: str = "Last move: White {move}."
    black_last_move: str = "Last move: Black {move}."
    white_captured: Counted = _white_captures
    """``Last move: White 22x15, capturing 1 piece on 18.``: the template for the count."""
    black_captured: Counted = _black_captures
    white_men: str = "White men"
    white_kings: str = "White kings"
    black_men: str = "Black men"
    black_kings: str = "Black kings"
    pieces: str = "{kind} ({count}): {squares}."
    """``White men (12): 21 to 32.``"""
    no_pieces: str = "{kind}: none."
    """``White kings: none.``"""
    run: str = "{first} to {last}"
    """A run of three or more PDN squares: ``21 to 32``."""
    none: str = "none"
    """An empty list of squares."""
    legend_white: str = "w = white man    W = white king"
    """Text diagram legend (the letters are the diagram's, the same in every language)."""
    legend_black: str = "b = black man    B = black king"
    legend_empty: str = ". = empty square"
    legend_empty_numbers: str = ". = empty square; right: PDN squares"
    """The same, in numeric notation (the PDN numbers of each row are on its right)."""

    def side(self, color: Color) -> str:
        return self.white if color is Color.WHITE else self.black

    def to_move(self, color: Color) -> str:
        return self.white_to_move if color is Color.WHITE else self.black_to_move

    def to_move_sentence(self, color: Color) -> str:
        return self.white_to_move_sentence if color is Color.WHITE else self.black_to_move_sentence

    def title(self, variant: Variant) -> str:
        return dict(self.titles).get(variant.key, variant.title)

    def summary(self, outcome: Outcome, variant: Variant) -> tuple[str, str]:
        """(result, how the game ended in words)."""
        words = outcome.words
        return outcome.result(variant), dict(self.endings).get(words, words)


ENGLISH = RenderWords()
"""What the renderer writes when given no words."""
