"""Games the analysis tests share: one with a known blunder, made here with the rules.

Black's ``11-15`` at ply 30 lets White jump two men and crown (``18x11x4``) from a level
position; every other move of the game was the engine's first choice at depth 7 (the game was
played out by ``engine.native_search.root_scores``, the blunder picked among Black's moves that
lose at least three and a half men at that depth).  :func:`blunder_game` checks with the rules
that the blunder does what this says, so the game cannot drift from its description.
"""

from __future__ import annotations

from rules.game import Game
from rules.variants import VARIANTS, Color

BLUNDER_MOVES = [
    "12-16",
    "21-17",
    "16-20",
    "17-13",
    "9-14",
    "24-19",
    "14-17",
    "25-21",
    "8-12",
    "21x14",
    "10x17",
    "23-18",
    "17-21",
    "22-17",
    "6-9",
    "13x6",
    "1x10",
    "29-25",
    "10-15",
    "19x10",
    "7x14x23",
    "27x18",
    "12-16",
    "25-22",
    "2-6",
    "17-13",
    "6-10",
    "22-17",
    "4-8",
    "32-27",
    "11-15",
    "18x11x4",
    "10-15",
    "27-23",
]
BLUNDER_PLY = 30
"""Moves played before Black's blunder ``11-15``."""
BLUNDER_REPLY = "18x11x4"


def blunder_game(*, resigned: bool = True) -> Game:
    """The English game with Black's blunder at :data:`BLUNDER_PLY`; Black resigns at the end
    (``resigned``), else the game is left running."""
    game = Game(VARIANTS["english"])
    for text in BLUNDER_MOVES[:BLUNDER_PLY]:
        game.play(text)
    before = game.position
    assert game.turn is Color.BLACK
    game.play(BLUNDER_MOVES[BLUNDER_PLY])
    reply = next(m for m in game.legal_moves() if m.pdn() == BLUNDER_REPLY)
    after = game.position.play(reply)
    assert bin(after.pieces_of(Color.BLACK)).count("1") == (
        bin(before.pieces_of(Color.BLACK)).count("1") - 2
    ), "the reply takes two men"
    assert after.kings_of(Color.WHITE), "and crowns"
    for text in BLUNDER_MOVES[BLUNDER_PLY + 1 :]:
        game.play(text)
    if resigned:
        game.resign(Color.BLACK)
    return game
