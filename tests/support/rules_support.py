"""Helpers shared by the rule tests (test_rules_*.py, test_perft.py): hand-made positions and
long quiet move sequences for the draw counts.

Imported as ``from support.rules_support import ...`` (pytest puts ``tests/`` on ``sys.path``, see
``tests/support/__init__.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from rules.fen import parse_fen
from rules.game import Game
from rules.move import Move
from rules.pdn import read_game, write_game
from rules.position import Position
from rules.variants import Variant


def pos(fen: str, variant: Variant) -> Position:
    return parse_fen(fen, variant)


def pdns(position: Position) -> list[str]:
    """The legal moves of ``position`` as sorted PDN texts (full landing paths)."""
    return sorted(m.pdn() for m in position.legal_moves())


def find(position: Position, text: str) -> Move:
    """The legal move of ``position`` whose full PDN path is ``text``."""
    for m in position.legal_moves():
        if m.pdn() == text:
            return m
    raise AssertionError(f"{text} is not legal in {position.fen()}: {pdns(position)}")


def game(fen: str, variant: Variant) -> Game:
    return Game(variant, parse_fen(fen, variant))


def is_king_move(position: Position, move: Move) -> bool:
    return bool(position.kings_of(position.turn) & move.from_bit)


def is_man_move(position: Position, move: Move) -> bool:
    """A move of an uncrowned man that does not crown it."""
    return bool(position.men_of(position.turn) & move.from_bit) and not move.crowns


def is_crowning(position: Position, move: Move) -> bool:
    return move.crowns


def is_not_crowning(position: Position, move: Move) -> bool:
    return not move.crowns


def _capture_reply(child: Position) -> Move | None:
    """A capture the side to move in ``child`` can make after which the game can go on quietly
    (the opponent has moves and none of them is a capture), or None."""
    for c in sorted((r for r in child.legal_moves() if r.is_capture), key=lambda r: r.path):
        replies = child.play(c).legal_moves()
        if replies and not any(r.is_capture for r in replies):
            return c
    return None


def quiet_walk(
    start: Position,
    plies: int,
    seen: Iterable[Position] = (),
    allow: Callable[[Position, Move], bool] = is_king_move,
    special: dict[int, Callable[[Position, Move], bool]] | None = None,
    seed: int = 1,
    blunder: bool = False,
) -> list[Move]:
    """``plies`` moves from ``start`` in which nothing is ever captured and no position repeats.

    Every move must satisfy ``allow`` (default: a king move) -- or ``special[i]`` for the move
    with 0-based index ``i`` in the walk --, must not capture, must lead to a position not in
    ``seen`` nor earlier in the walk, and must leave the opponent a legal move and no capture --
    except that with ``blunder`` the last move must leave the opponent a capture (see
    :func:`_capture_reply`).  Depth-first with backtracking, so a dead end only costs a retry
    (within a budget, so that an impossible request fails instead of searching forever).
    """
    special = special or {}
    budget = [20_000]
    rng = random.Random(seed)
    visited = set(seen)
    visited.add(start)
    path: list[Move] = []

    def candidates(p: Position, index: int) -> list[tuple[Move, Position]]:
        rule = special.get(index, allow)
        last_blunder = blunder and index == plies - 1
        out = []
        for m in p.legal_moves():
            if m.is_capture or not rule(p, m):
                continue
            child = p.play(m)
            if child in visited:
                continue
            if last_blunder:
                if _capture_reply(child) is None:
                    continue
            else:
                replies = child.legal_moves()
                if not replies or any(r.is_capture for r in replies):
                    continue
            out.append((m, child))
        out.sort(key=lambda mc: mc[0].path)
        rng.shuffle(out)
        return out

    def extend(p: Position, index: int) -> bool:
        if index == plies:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for m, child in candidates(p, index):
            visited.add(child)
            path.append(m)
            if extend(child, index + 1):
                return True
            path.pop()
            visited.discard(child)
        return False

    if not extend(start, 0):
        raise AssertionError(f"no quiet walk of {plies} plies from {start.fen()}")
    return path


def walk_game(
    g: Game,
    plies: int,
    allow: Callable[[Position, Move], bool] = is_king_move,
    special: dict[int, Callable[[Position, Move], bool]] | None = None,
    seed: int = 1,
) -> list[Move]:
    """Play a :func:`quiet_walk` of ``plies`` moves in ``g``, asserting the game goes on before
    every move (so it may end with the last one); returns the moves."""
    moves = quiet_walk(g.position, plies, g.positions, allow, special, seed)
    for i, m in enumerate(moves):
        assert g.outcome is None, f"game ended before walk move {i + 1}: {g.status_line()}"
        g.play(m)
    return moves


def blunder_and_capture(g: Game, plies: int = 0) -> Move:
    """Walk ``plies`` quiet king moves and one more quiet move that allows a capture, then let the
    opponent capture (a reset of the no-progress count in the middle of a long quiet game).
    Returns the capture."""
    moves = quiet_walk(g.position, plies + 1, g.positions, blunder=True)
    for m in moves:
        assert g.outcome is None, g.status_line()
        g.play(m)
    capture = _capture_reply(g.position)
    assert capture is not None
    g.play(capture)
    return capture


def walk_but_last(
    g: Game,
    plies: int,
    allow: Callable[[Position, Move], bool] = is_king_move,
    special: dict[int, Callable[[Position, Move], bool]] | None = None,
    seed: int = 1,
) -> Move:
    """Plan a :func:`quiet_walk` of ``plies`` moves, play all but the last one in ``g`` (which
    must still be going on after each of them), and return the last one: the move on which a
    count is expected to run out."""
    moves = quiet_walk(g.position, plies, g.positions, allow, special, seed)
    for i, m in enumerate(moves[:-1]):
        assert g.outcome is None, f"game ended before walk move {i + 1}: {g.status_line()}"
        g.play(m)
    return moves[-1]


def pdn_after(variant: Variant, texts: Iterable[str]) -> str:
    """The PDN of a game of ``variant`` after ``texts``, checked to read back to the same
    position: what a variant's own test looks into for its GameType and its numbers."""
    g = Game(variant)
    for text in texts:
        g.play(text)
    written = write_game(g, {"White": "Ann", "Black": "Bob"})
    assert read_game(written).game.position == g.position
    return written


def random_game_positions(variant: Variant, games: int, seed: object) -> list[Position]:
    """The positions of ``games`` random games of ``variant`` (up to 120 plies each), the same
    for the same ``seed``: a spread of openings, middlegames and some endings."""
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(games):
        game = Game(variant)
        for _ in range(rng.randint(0, 120)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        found.extend(game.positions)
    return found
