"""Board images with Pillow: a PNG per position, an animated GIF per game.

Built on ``rules`` only; pure functions, safe to call from worker threads.
"""

from .board import (
    DEFAULT_WIDTH,
    encode_png,
    render_board,
    render_png,
    square_centre,
    square_origin,
    status_text,
)
from .gif import MAX_GIF_BYTES, GifResult, render_gif
from .themes import DEFAULT_THEME, THEMES, Theme, find_theme

__all__ = [
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "MAX_GIF_BYTES",
    "THEMES",
    "GifResult",
    "Theme",
    "encode_png",
    "find_theme",
    "render_board",
    "render_gif",
    "render_png",
    "square_centre",
    "square_origin",
    "status_text",
]
