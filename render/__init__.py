"""Board images with Pillow: a PNG per position, an animated GIF per game; and the same board in
words (alt text and a text diagram), in the language of the :class:`RenderWords` given
(English by default).  Tournament standings as PNG pages (:func:`render_standings`), from a
:class:`Sheet` the bot has already worded.

Built on ``rules`` only; pure functions, safe to call from worker threads.
"""

from .board import (
    DEFAULT_WIDTH,
    Label,
    board_labels,
    render_board,
    square_centre,
    square_origin,
    status_text,
)
from .description import MAX_ALT_TEXT, describe, text_diagram
from .encoding import encode_png, render_png
from .gif import MAX_GIF_BYTES, GifResult, render_gif
from .sheet import KeyItem, Outcome, Sheet, SheetCell, SheetRow
from .standings import render_standings, standings_page
from .themes import DEFAULT_THEME, THEMES, Theme, find_theme
from .words import RenderWords

__all__ = [
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "MAX_ALT_TEXT",
    "MAX_GIF_BYTES",
    "THEMES",
    "GifResult",
    "KeyItem",
    "Label",
    "Outcome",
    "RenderWords",
    "Sheet",
    "SheetCell",
    "SheetRow",
    "Theme",
    "board_labels",
    "describe",
    "encode_png",
    "find_theme",
    "render_board",
    "render_gif",
    "render_png",
    "render_standings",
    "square_centre",
    "square_origin",
    "standings_page",
    "status_text",
    "text_diagram",
]
