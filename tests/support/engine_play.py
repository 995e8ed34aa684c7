"""The engine playing itself out of a position with an endgame table (test_endgame.py,
test_goals.py): what a won table ending becomes when the search converts it.

Imported as ``from support.engine_play import play_out`` (pytest puts ``tests/`` on
``sys.path``, see ``tests/support/__init__.py``).
"""

from __future__ import annotations

from engine import native_search
from engine._core import EndgameTable
from engine.api import repetition_history, to_move
from rules.fen import parse_fen
from rules.game import Game
from rules.variants import VARIANTS


def play_out(
    key: str,
    fen: str,
    table: EndgameTable,
    plies: int,
    nodes: int = 100_000,
    seconds: float | None = None,
) -> Game:
    """The engine against itself from ``fen`` with ``table``, by ``nodes`` a move or, given
    ``seconds``, by time, for at most ``plies`` plies."""
    variant = VARIANTS[key]
    native_search.set_endgame(variant, table)
    try:
        game = Game(variant, parse_fen(fen, variant))
        while not game.is_over and game.ply < plies:
            past, quiet = repetition_history(game)
            found = native_search.search(
                game.position,
                quiet=quiet,
                past=past,
                max_depth=64,
                seconds=seconds,
                nodes=None if seconds else nodes,
                fresh=True,
                exact=False,
            )
            assert found.move is not None
            game.play(to_move(game.position, found.move))
        return game
    finally:
        native_search.set_endgame(variant, None)
