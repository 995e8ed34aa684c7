"""How many of our moves in a match came from the opening book: read back from the games
``bench/arena.py --pdn DIR`` wrote.

Why after the fact: the arena's players answer with a move and its search figures only; a move
of ours came from the book exactly when the book held its position in its book phase (at level 6
with a clock, ``best_move`` then always plays from the book), which the games show again.  The
arena plays each opening twice, ours White in the odd-numbered games and Black in the even ones;
the opening's plies are the ballot's, played by neither engine::

    python bench/book_use.py /tmp/games --variant english --opening-plies 3
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:  # runnable as `python bench/book_use.py` without installing
    sys.path.insert(0, str(_ROOT))

from engine.book import book_for, candidates, in_book_phase  # noqa: E402
from rules import Color, Game, find_variant, read_game  # noqa: E402


def count(folder: Path, variant_key: str, opening_plies: int) -> tuple[int, int, int]:
    """(our moves, of them from the book, games with at least one book move)."""
    variant = find_variant(variant_key)
    book = book_for(variant)
    ours = from_book = games = 0
    for path in sorted(folder.glob(f"{variant.key}-*.pdn")):
        number = int(path.stem.rsplit("-", 1)[1])
        our_colour = Color.WHITE if number % 2 == 1 else Color.BLACK
        record = read_game(path.read_text(encoding="utf-8"), variant).game
        replay = Game(variant)
        used = 0
        for ply, move in enumerate(record.moves):
            if ply >= opening_plies and replay.turn is our_colour:
                ours += 1
                if book is not None and in_book_phase(replay, book):
                    used += bool(candidates(book, replay.position))
            replay.play(move)
        from_book += used
        games += used > 0
    return ours, from_book, games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--variant", required=True)
    parser.add_argument("--opening-plies", type=int, required=True)
    args = parser.parse_args(argv)
    ours, from_book, games = count(args.folder, args.variant, args.opening_plies)
    print(
        f"{args.variant}: {from_book} of our {ours} moves from the book, "
        f"in {games} games; {from_book / max(1, ours):.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
