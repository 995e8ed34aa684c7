"""The PDN files the import tests read, each showing one fault real files have, made here from
games the rules play with a seeded random choice (nothing copied from a public source).

``python tests/support/pdn_import_samples.py`` writes them into ``tests/support/pdn/``; the
tests read the files and check they are still what this module makes (so a file is never edited
by hand).  The hostile files are built in the tests themselves: they are large or generated.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from rules import Game, find_variant, write_game

FOLDER = Path(__file__).parent / "pdn"

AMBIGUOUS_SEED, AMBIGUOUS_PLY = 508, 33
"""An International game whose 34th ply is a capture from 37 to 48 with two paths
(``37x23x34x48`` and ``37x19x30x48``), found by searching seeded random games."""
SETTLING_REPLY = "24-19"
"""Black's reply that only the first path leaves possible (the man on 24 is taken by the second)."""
OPEN_REPLY = "35-30"
"""A reply both paths allow."""


def random_game(variant: str, seed: int, plies: int) -> Game:
    """``plies`` moves of a game chosen at random with ``seed`` (fewer if it ends)."""
    rng = random.Random(seed)
    game = Game(find_variant(variant))
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def numbered(moves: list[str], result: str) -> str:
    """Movetext with move numbers, White (the first mover) numbered."""
    units = [f"{i // 2 + 1}. {move}" if i % 2 == 0 else move for i, move in enumerate(moves)]
    return " ".join([*units, result])


def padded_squares() -> str:
    """Two International games with every square number right-aligned in two columns
    (``1- 7``, `` 6-11``), as old programs write them; each ends with a real result."""
    texts = []
    for seed, result in ((11, "2-0"), (12, "1-1")):
        game = random_game("international", seed, 60)
        moves = [
            ("x" if move.captured else "-").join(f"{square:2d}" for square in move.path)
            for move in game.moves
        ]
        assert any(re.search(r"[-x] \d", move.strip()) for move in moves), seed
        tags = f'[Event "Padded {seed}"]\n[GameType "20"]\n[Result "{result}"]\n'
        texts.append(tags + "\n" + numbered(moves, result) + "\n")
    return "\n".join(texts)


def star_result() -> str:
    """An English game whose movetext ends in ``*`` while its Result tag says White won."""
    game = random_game("english", 5, 30)
    text = write_game(game, {"White": "Ada", "Black": "Bo"}).replace(
        '[Result "*"]', '[Result "1-0"]'
    )
    assert text.rstrip().endswith("*")
    return text


def junk_after_tags() -> str:
    """Three English games: a remark line between the first game's tags, a title line between
    the second's tags and moves, the third plain.  The strict parser splits the first in two and
    loses the second's moves."""
    games = [
        write_game(random_game("english", seed, 20), {"Event": f"Club {seed}"})
        for seed in (1, 2, 3)
    ]
    first = games[0].replace('[Round "?"]\n', '[Round "?"]\nAnnotated by the club secretary\n')
    head, _blank, moves = games[1].partition("\n\n")
    second = f"{head}\nGame two: a sharp opening\n\n{moves}"
    return "\n".join([first, second, games[2]])


def ambiguous_capture(reply: str) -> str:
    """The game of :data:`AMBIGUOUS_SEED` to its ambiguous capture, written short (``37x48``),
    then ``reply``."""
    game = random_game("international", AMBIGUOUS_SEED, AMBIGUOUS_PLY)
    moves = [move.pdn() for move in game.moves] + ["37x48", reply]
    return '[Event "Short capture"]\n[GameType "20"]\n\n' + numbered(moves, "*") + "\n"


def samples() -> dict[str, str]:
    """Every sample file's name and text."""
    return {
        "padded_squares.pdn": padded_squares(),
        "star_result.pdn": star_result(),
        "junk_after_tags.pdn": junk_after_tags(),
        "ambiguous_settled.pdn": ambiguous_capture(SETTLING_REPLY),
        "ambiguous_unsettled.pdn": ambiguous_capture(OPEN_REPLY),
    }


def read_sample(name: str) -> str:
    return (FOLDER / name).read_text(encoding="utf-8")


if __name__ == "__main__":
    FOLDER.mkdir(exist_ok=True)
    for name, text in samples().items():
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(FOLDER / name, file=sys.stderr)
