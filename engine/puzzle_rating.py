"""A puzzle's starting rating (on the Glicko scale players start at 1500) from how hard its line is.

Players' results move a puzzle's rating afterwards (the bot's Glicko-2); this only has to put a
new puzzle near where it belongs, from what makes a draughts shot hard to see:

    rating = 1000
           + 150 * (solver moves - 1)        every further move to find
           + 200 * men given first           the sacrifice that makes it a shot
           +  60 * (depth seen at - 1)       how deep the engine had to look to see it
           +  10 * min(legal moves, 15)      how many moves there are to choose from
           +  100 if it wins the game
           - 150 if the first move is a capture
    clamped to 600 .. 2500

With eight legal moves: a single quiet move that wins a man, seen at depth 1, rates 1080; a
quiet move, the forced capture and a two-for-one (one man given, seen at depth 3) 1550; a shot of
three solver moves giving two men, seen only at 6 plies, 2080.
"""

from __future__ import annotations

from .puzzle_search import MAN, Line

BASE = 1000
PER_MOVE = 150
PER_MAN_GIVEN = 200
PER_DEPTH = 60
PER_CHOICE = 10
MAX_CHOICES = 15
WIN_BONUS = 100
CAPTURE_FIRST = 150
LOWEST = 600
HIGHEST = 2500


def rate(line: Line) -> int:
    """The starting rating of ``line`` (the formula in this module's docstring)."""
    solver_moves = (len(line.moves) + 1) // 2
    rating = (
        BASE
        + PER_MOVE * (solver_moves - 1)
        + PER_MAN_GIVEN * line.given / MAN
        + PER_DEPTH * (line.seen_at - 1)
        + PER_CHOICE * min(line.alternatives, MAX_CHOICES)
        + (WIN_BONUS if line.kind == "win" else 0)
        - (CAPTURE_FIRST if line.moves[0].is_capture else 0)
    )
    return max(LOWEST, min(HIGHEST, round(rating)))
