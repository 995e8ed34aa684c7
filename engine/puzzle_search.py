"""Finding a puzzle in one position and proving its line: the search half of :mod:`engine.puzzles`.

A position is a puzzle when one move wins material (at least a man, net, once the line's
exchanges are over) or the game, and every other move clearly does not (only the game where the
variant's goal is not the standard one: antidraughts, breakthrough); the answer is the whole
forced line.  As lichess's puzzle generator does for chess:

1. **Found**: every root move is scored by an exact search
   (:func:`engine.native_search.root_scores`: full alpha-beta, no reductions, captures searched
   to the end) at :attr:`Depths.found`; the best must be an *only move* (:func:`only_move`).
2. **Verified**: the same question at :attr:`Depths.verified` (deeper) must give the same move.
3. **The line**: the solver's move, the engine's best reply (exact search at the verified depth),
   the solver's next only move (proved at the verified depth again), ... until the gain is banked
   (material: the solver is a man up on the *baseline* and the opponent has no capture left to
   take it back; win: the game is won).  Where the solver's move stops being the only one, the
   line is cut after the solver's previous move, and the gain must still be there: a proven win,
   or for material the engine's continuation from that point banking at least a man.

Draughts specifics: a position with one legal move is never the first step (a forced capture is
no question), and a line whose every solver move is a capture is refused (taking is compulsory,
so such a "puzzle" only asks to pick among captures the rules already force); the majority rule
is the move generator's, so alternatives are only ever legal moves.  The *baseline* is the
solver's material before the exchange in progress: when the move into the position was the
opponent's capture, winning it back is no gain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.game import Game
from rules.move import Move
from rules.movegen import RawMove
from rules.position import Position
from rules.variants import Color, Goal, Variant

from ._core import EndgameTable
from .api import repetition_history, to_move
from .endgame import LOSS, obtain, pieces_for
from .native import core_state
from .native_search import NativeResult, root_scores, search
from .scores import WIN_BOUND

MAN = 100
"""A man in centimen, the search's unit (``MAN`` in ``engine/core/eval.c``)."""
MARGIN = 150
"""How much better than every other move (centimen) an only move must score: a man and a half,
so that no move that also wins the man, give or take the position, counts as another answer."""
OTHERS_WIN_MAX = 300
"""In a winning line every other move must score at most this (three men): a position already
won whatever one plays is no puzzle."""
AGREED = MAN // 2
"""A material puzzle's best move must score at least this over the baseline's material (the
score also weighs the position, so half a man, not a whole one: the line proves the man)."""
MAX_SOLVER_MOVES = 8
"""The longest line asked of the solver (a cut, not a rejection: longer lines end here)."""
CONTINUATION_PLIES = 12
"""How far the engine's own continuation is followed to see a cut line's material banked."""


@dataclass(frozen=True)
class Depths:
    """The two depths (plies, captures searched beyond them) a puzzle is found and proved at."""

    found: int
    verified: int


def depths_for(variant: Variant) -> Depths:
    """6 plies to find, 9 to prove on 8x8; 6 and 8 on 10x10 (where a ply costs more)."""
    return Depths(found=6, verified=9 if variant.size <= 8 else 8)


def king_value(variant: Variant) -> int:
    """A king in centimen as the engine counts it (``king_value`` in ``engine/core/eval.c``)."""
    if not variant.flying_kings:
        return 150
    return 300 if variant.size >= 10 else 250


def material(position: Position, side: Color) -> int:
    """``side``'s material minus its opponent's, in centimen (men 100, kings as the engine)."""
    kings, men, their_kings, their_men = position.material(side)
    return MAN * (men - their_men) + king_value(position.variant) * (kings - their_kings)


def baseline(position: Position, before: Position | None, last: Move | None) -> int:
    """The solver's material the gain is counted from: the position's own, or the material before
    the opponent's capture that led into it (an exchange in progress is no gain)."""
    side = position.turn
    if before is not None and last is not None and last.is_capture:
        return material(before, side)
    return material(position, side)


def only_move(scored: Sequence[tuple[int, RawMove]], kind: str | None = None) -> str | None:
    """``"win"`` or ``"material"`` when the best of ``scored`` (best first) is the only move that
    keeps that gain, else None.  Win: the best is a proven win and every other move scores at
    most :data:`OTHERS_WIN_MAX`.  Material: the best is not lost and scores :data:`MARGIN` more
    than any other (that it really wins a man is for :func:`gains` and the line to show).
    ``kind`` asks for that gain only."""
    if len(scored) < 2:
        return None
    best, second = scored[0][0], scored[1][0]
    if best >= WIN_BOUND:
        if second <= OTHERS_WIN_MAX and kind in (None, "win"):
            return "win"
        return None
    if kind in (None, "material") and best > -WIN_BOUND and best - second >= MARGIN:
        return "material"
    return None


def gains(scored: Sequence[tuple[int, RawMove]], kind: str, base: int) -> bool:
    """Whether the engine's own score of the best move agrees there is a gain over the baseline
    ``base``: a win, or at least :data:`AGREED` more than the baseline's material (an only move
    that merely loses less, the one defence of a lost position, is no puzzle)."""
    return kind == "win" or scored[0][0] - base >= AGREED


UNKNOWN = 0
"""What :meth:`EndgameTable.probe` answers for a position the table does not hold."""

_tables: dict[Variant, EndgameTable] = {}


def endgame_table(variant: Variant) -> EndgameTable | None:
    """The variant's endgame table if one is in the cache already (never built here: a worker
    job must stay short); kept once found, asked again while absent."""
    table = _tables.get(variant)
    if table is None:
        table = obtain(variant, build=False)
        if table is not None:
            _tables[variant] = table
    return table


def another_move_wins(position: Position, best: Move) -> bool | None:
    """For a small position (within the endgame tables' pieces): whether a move other than
    ``best`` also wins by the tables, which a search to a few plies cannot see (two kings
    against one win whatever one plays, only slower); None when the table is not at hand.  A
    counting rule may turn a table win into a draw: then this says "wins" where the game would
    not, and the puzzle is refused, never wrongly accepted."""
    table = endgame_table(position.variant)
    if table is None:
        return None
    for move in position.legal_moves():
        if move == best:
            continue
        value = table.probe(*core_state(position.play(move)))
        if value == UNKNOWN:
            return None  # beyond this table's pieces
        if value == LOSS:
            return True
    return False


def small(position: Position) -> bool:
    """Whether the position is within the endgame tables' pieces."""
    return position.occupied.bit_count() <= pieces_for(position.variant)


def scores(game: Game, depth: int) -> list[tuple[int, RawMove]]:
    """Every legal move of the game's position with its exact score at ``depth``, best first."""
    past, quiet = repetition_history(game)
    return root_scores(game.position, quiet=quiet, past=past, depth=depth)


def exact_search(game: Game, depth: int) -> NativeResult:
    """The game's position searched exactly to ``depth`` from an empty table (the same answer
    every time: no reductions, no clock)."""
    past, quiet = repetition_history(game)
    return search(
        game.position,
        quiet=quiet,
        past=past,
        max_depth=depth,
        seconds=None,
        nodes=None,
        fresh=True,
        exact=True,
    )


def best_reply(game: Game, depth: int) -> Move:
    """The engine's move at ``depth`` (:func:`exact_search`)."""
    found = exact_search(game, depth)
    if found.move is None:
        return game.legal_moves()[0]
    return to_move(game.position, found.move)


@dataclass(frozen=True)
class Line:
    """A proved puzzle line from its start position."""

    kind: str
    """``"win"`` or ``"material"``."""
    moves: tuple[Move, ...]
    """Solver, reply, ..., solver."""
    gain: int
    """Centimen won over the baseline once banked (a win: at the line's end)."""
    given: int
    """The most material (centimen) the solver is down on the baseline inside the line: what the
    shot sacrifices first."""
    seen_at: int
    """The shallowest depth at which the first move is already the only move."""
    alternatives: int
    """Legal moves at the start."""


def _banked(game: Game, side: Color, base: int, kind: str) -> bool:
    """After the solver's move: the gain is in hand (won, or a man up with nothing to retake)."""
    if game.is_over:
        return game.outcome is not None and game.outcome.winner is side
    if kind == "win":
        return False
    if material(game.position, side) - base < MAN:
        return False
    return not any(move.is_capture for move in game.legal_moves())


def continuation_gain(game: Game, side: Color, base: int, depth: int) -> int | None:
    """The gain banked when the engine plays on from a cut line (both sides its best moves), or
    None when it is not banked within :data:`CONTINUATION_PLIES`."""
    game = game.copy()
    for _ in range(CONTINUATION_PLIES):
        if game.is_over:
            return None
        mover = game.turn
        game.play(best_reply(game, depth))
        if mover is side and _banked(game, side, base, "material"):
            return material(game.position, side) - base
    return None


def seen_at(game: Game, move: Move, kind: str, base: int, deepest: int) -> int:
    """The shallowest depth (1 to ``deepest``) at which ``move`` is already the only move."""
    for depth in range(1, deepest):
        scored = scores(game, depth)
        if (
            only_move(scored, kind) == kind
            and gains(scored, kind, base)
            and to_move(game.position, scored[0][1]) == move
        ):
            return depth
    return deepest


def prove_line(start: Position, base: int, depths: Depths) -> Line | None:
    """The puzzle starting at ``start`` (the solver to move; ``base`` its baseline material), or
    None when it is not one: found at ``depths.found``, every solver move proved at
    ``depths.verified``."""
    game = Game(start.variant, start)
    legal = game.legal_moves()
    if len(legal) < 2:
        return None  # a forced first move asks nothing
    found = scores(game, depths.found)
    # Material is the goal's measure only where the goal is the standard one (giving away it is
    # a debt, and the first king decides breakthrough): elsewhere a puzzle is a won game.
    kind = only_move(found, None if start.variant.goal is Goal.STANDARD else "win")
    if kind is None or not gains(found, kind, base):
        return None
    first = to_move(start, found[0][1])
    side = start.turn
    moves: list[Move] = []
    banked = False
    for _ in range(MAX_SOLVER_MOVES):
        if len(game.legal_moves()) == 1:
            move = game.legal_moves()[0]  # forced: the only move by the rules
        else:
            proved = scores(game, depths.verified)
            if only_move(proved, kind) != kind or not gains(proved, kind, base):
                break
            move = to_move(game.position, proved[0][1])
        if not moves and move != first:
            return None  # the deeper search prefers another move: not proved
        if (
            kind == "win"
            and small(game.position)
            and another_move_wins(game.position, move) is not False
        ):
            break  # another move wins too by the tables (or no table to ask)
        game.play(move)
        moves.append(move)
        if _banked(game, side, base, kind):
            banked = True
            break
        if not game.legal_moves():
            break  # drawn (or lost) by the solver's move
        game.play(reply := best_reply(game, depths.verified))
        moves.append(reply)
        if game.is_over:
            # Giving away, the opponent's forced reply can end the game in the solver's favour:
            # the line ends on the solver's move before it, the win in hand.
            banked = game.outcome is not None and game.outcome.winner is side
            break
        if not game.legal_moves():
            break
    if len(moves) % 2 == 0 and game.is_over:
        game = Game(start.variant, start)  # a finished game takes nothing back: replay the line
        for move in moves[:-1]:
            game.play(move)
        moves.pop()
    while moves and len(moves) % 2 == 0:
        moves.pop()  # the line ends on the solver's move
        game.take_back()
    if not moves:
        return None
    solver = moves[::2]
    if all(move.is_capture for move in solver):
        return None  # only captures: the rules, not the solver, chose them
    if banked:
        gain = material(game.position, side) - base
    elif kind == "win":
        gain = material(game.position, side) - base
        if game.is_over or exact_search(game, depths.verified).score > -WIN_BOUND:
            return None
    else:
        continued = continuation_gain(game, side, base, depths.verified)
        if continued is None:
            return None
        gain = continued
    if kind == "material" and gain < MAN:
        return None
    after_replies = game.positions[2::2]
    given = max((base - material(position, side) for position in after_replies), default=0)
    return Line(
        kind=kind,
        moves=tuple(moves),
        gain=gain,
        given=max(0, given),
        seen_at=seen_at(Game(start.variant, start), first, kind, base, depths.found),
        alternatives=len(legal),
    )
