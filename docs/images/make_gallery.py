"""Regenerate the example images in this folder: ``python docs/images/make_gallery.py``.

Writes ``<variant>-<theme>.png`` for every variant and theme (the midgame of each variant from
``tests/support/render_cases.py`` with its last move, a capture, highlighted),
``capture-highlight.png`` (a triple capture with its path, the captured pieces as ghosts and the
status strip) and ``game.gif`` (a short game, with the players' names in a header line).  Images are
480 px wide to keep the repository small; the script prints each file with its size and the total.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for entry in (str(ROOT), str(ROOT / "tests")):
    if entry not in sys.path:
        sys.path.insert(0, entry)

WIDTH = 480
CAPTURE_FEN = "W:W25,26,27,29,30,K2:B6,7,9,11,14,15,18,22,K20,K32"
CAPTURE_MOVE = "26x17x10x1"
GAME_MOVES = (
    "12-16 24-20 8-12 21-17 4-8 25-21 9-14 27-24 10-15 17x10 7x14 32-27 5-9 29-25 14-18 "
    "23x14x5 15-18 22x15 11x18 20x11x4 2-7 26-22 7-10 22x15"
)
"""A short English game (24 plies of seeded random play) with single and double captures and a
crowning; replayed through the rules, so an illegal move stops the script."""
GAME_NAMES = ("Alice", "Bob")
"""Players' names for the GIF's header line (White's, Black's)."""


def main() -> int:
    from support.render_cases import CASES

    from render.board import status_text
    from render.encoding import render_png
    from render.gif import render_gif
    from render.themes import THEMES
    from rules.fen import parse_fen
    from rules.game import Game
    from rules.variants import find_variant

    written: list[Path] = []

    def write(name: str, data: bytes) -> None:
        path = HERE / name
        path.write_bytes(data)
        written.append(path)
        print(f"{path.relative_to(ROOT)}  {len(data):>9,} bytes")

    for case in CASES:
        for theme in THEMES:
            options = {**case.options(), "theme": theme, "flip": False, "arrows": ()}
            write(f"{case.variant}-{theme}.png", render_png(case.after, width=WIDTH, **options))

    english = find_variant("english")
    before = parse_fen(CAPTURE_FEN, english)
    move = next(m for m in before.legal_moves() if m.pdn() == CAPTURE_MOVE)
    after = before.play(move)
    write(
        "capture-highlight.png",
        render_png(
            after,
            last_move=move,
            previous=before,
            theme="wood",
            width=WIDTH,
            status=status_text(after, 23),
        ),
    )

    game = Game(english)
    for text in GAME_MOVES.split():
        game.play(text)
    gif = render_gif(game, theme="wood", width=WIDTH, names=GAME_NAMES)
    write("game.gif", gif.data)
    if gif.note:
        print(f"  note: {gif.note}")

    total = sum(path.stat().st_size for path in written)
    print(f"{len(written)} files, {total:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
