"""Board images as PNG bytes: :func:`render.board.render_board`'s image on a fixed palette.

PNGs are encoded against a fixed 256-colour palette per theme (built once, from sample boards that
use every colour the renderer can produce), which makes them several times smaller and faster to
encode than truecolour without visible loss on flat board art; the GIF frames
(:mod:`render.gif`) share the same palette.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image

from rules.position import Position

from .board import DEFAULT_WIDTH, render_board, status_text
from .themes import DEFAULT_THEME, Theme, find_theme


@lru_cache(maxsize=8)
def palette(theme: Theme) -> Image.Image:
    """A 256-colour palette image for ``theme``, from sample boards that use every colour the
    renderer can produce (both sides' men and kings, ghosts, highlight, path, arrow, strip), over
    dark squares and, as the orthogonal board has them, over light ones."""
    from rules.fen import parse_fen
    from rules.variants import INTERNATIONAL, TURKISH

    samples = []
    for fen, variant, arrow in (
        ("W:W37,33,K46:B21,31,K5,12", INTERNATIONAL, (33, 29)),
        ("W:W42,43,47,54,K57:B13,18,22,28,33,K8", TURKISH, (42, 34)),
    ):
        before = parse_fen(fen, variant)
        move = next(m for m in before.legal_moves() if len(m.captured) >= 2)
        after = before.play(move)
        samples.append(
            render_board(
                after,
                last_move=move,
                previous=before,
                theme=theme,
                width=DEFAULT_WIDTH,
                arrows=[arrow],
                status=status_text(after, 12, "sample 0123456789"),
            )
        )
    sheet = Image.new("RGB", (sum(s.width for s in samples), max(s.height for s in samples)))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (i * samples[0].width, 0))
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def to_palette(img: Image.Image, theme: str | Theme = DEFAULT_THEME) -> Image.Image:
    """``img`` mapped onto the theme's fixed palette (no dithering: flat art stays flat)."""
    th = find_theme(theme) if isinstance(theme, str) else theme
    return img.quantize(palette=palette(th), dither=Image.Dither.NONE)


def encode_png(img: Image.Image, theme: str | Theme = DEFAULT_THEME) -> bytes:
    buf = io.BytesIO()
    to_palette(img, theme).save(buf, "PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def render_png(position: Position, **options: Any) -> bytes:
    """:func:`render_board` encoded as PNG bytes (same keyword options)."""
    theme = options.get("theme", DEFAULT_THEME)
    return encode_png(render_board(position, **options), theme)
