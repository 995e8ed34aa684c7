"""The reference search: iterative deepening principal-variation search with a transposition table.

- Negamax over :mod:`engine.reference.board` states (always from the mover's side).
- Transposition table keyed by the Zobrist key: depth, bound type, score and best move; win
  scores are stored relative to the node so they stay right when reached by another path.
- Move ordering: the table's move, then captures by the number of pieces taken, then the two
  killer moves of the ply, then the history heuristic.
- Quiescence: captures are compulsory, so a leaf where the side to move must capture is not quiet;
  the capture sequences are searched until a position without a capture, which is evaluated.
- Forced moves (a single legal move) are searched one ply deeper, which keeps exchanges inside
  the horizon at no cost in width.
- Draws: a position repeated on the path (or repeating one of the game since its last progress
  move) scores 0, and so does reaching the variant's no-progress limit.
- A hard time limit: the clock is read every few thousand nodes and the iteration in progress is
  abandoned when the deadline passes; the last completed iteration's move stands.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rules.movegen import RawMove

from ..scores import MATE, WIN_BOUND, Iteration
from .board import Board, State, make
from .evaluate import Evaluator

INF = MATE + 1
MAX_PLY = 128
CHECK_EVERY = 512

EXACT, LOWER, UPPER = 0, 1, 2


class Timeout(Exception):
    """The deadline passed; the current iteration is abandoned."""


class Searcher:
    """One search tree walker for one variant (reused from move to move; its table is not)."""

    def __init__(self, board: Board, evaluate: Evaluator) -> None:
        self.board = board
        self.evaluate = evaluate
        self.tt: dict[int, tuple[int, int, int, RawMove | None]] = {}
        self.nodes = 0
        self._deadline = float("inf")
        self._node_limit = 1 << 62
        self._killers: list[list[RawMove | None]] = [[None, None] for _ in range(MAX_PLY + 8)]
        self._history: dict[tuple[int, int], int] = {}
        self._path: list[int] = []
        self._past: frozenset[int] = frozenset()

    # -- driver --------------------------------------------------------------------------------

    def search(
        self,
        state: State,
        *,
        max_depth: int,
        deadline: float,
        node_limit: int | None = None,
        past: frozenset[int] = frozenset(),
        quiet: int = 0,
        on_iteration: Callable[[Iteration], None] | None = None,
    ) -> list[Iteration]:
        """Iterative deepening from ``state`` to ``max_depth`` plies or the deadline.  ``past``:
        keys of the game's positions since its last progress move (a repeat of one is a draw);
        ``quiet``: plies since that move."""
        # A fresh table per search: scores in it depend on the path (repetition draws), so a
        # table carried over would make a search depend on the ones before it.
        self.tt.clear()
        self.nodes = 0
        self._deadline = deadline
        self._node_limit = node_limit if node_limit is not None else 1 << 62
        self._killers = [[None, None] for _ in range(MAX_PLY + 8)]
        self._history = {}
        self._past = past
        self._path = []
        started = time.perf_counter()
        done: list[Iteration] = []
        for depth in range(1, max_depth + 1):
            try:
                score = self._negamax(state, depth, -INF, INF, 0, quiet)
            except Timeout:
                break
            iteration = Iteration(
                depth, score, self.nodes, time.perf_counter() - started, self.pv(state, depth)
            )
            done.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
            if abs(score) >= WIN_BOUND:
                break  # a forced result is found; deeper search cannot change it
        return done

    def root_scores(
        self,
        state: State,
        depth: int,
        deadline: float,
        past: frozenset[int] = frozenset(),
        quiet: int = 0,
    ) -> list[tuple[int, RawMove]]:
        """Every root move with its exact score at ``depth`` (for the weaker levels, which pick
        among the good moves rather than always the best)."""
        self.tt.clear()
        self.nodes = 0
        self._deadline = deadline
        self._node_limit = 1 << 62
        self._past = past
        scored = []
        for move in self.board.moves(state):
            child = make(state, move)
            self._path = [state[5]]
            q = 0 if self.board.is_progress(state, move) else quiet + 1
            score = -self._negamax(child, depth - 1, -INF, INF, 1, q)
            scored.append((score, move))
        scored.sort(key=lambda item: -item[0])
        return scored

    def pv(self, state: State, depth: int) -> tuple[RawMove, ...]:
        """The principal variation, read back from the table."""
        line: list[RawMove] = []
        seen = set()
        for _ in range(depth):
            entry = self.tt.get(state[5])
            if entry is None or entry[3] is None or state[5] in seen:
                break
            move = entry[3]
            if move not in self.board.moves(state):
                break
            seen.add(state[5])
            line.append(move)
            state = make(state, move)
        return tuple(line)

    # -- the tree ------------------------------------------------------------------------------

    def _negamax(
        self, state: State, depth: int, alpha: int, beta: int, ply: int, quiet: int
    ) -> int:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (
            time.perf_counter() > self._deadline or self.nodes > self._node_limit
        ):
            raise Timeout
        key = state[5]
        if self.board.first_king and state[3]:
            return -MATE + ply  # the last move crowned: breakthrough's game is over
        moves = self.board.moves(state)
        if not moves:
            # before the draw checks: a blocking move on the last ply wins (giving away, loses)
            return MATE - ply if self.board.give_away else -MATE + ply
        if ply and (key in self._path or key in self._past):
            return 0
        if self.board.lone_pieces_draw and _one_each(state):
            return 0
        if self.board.quiet_limit and quiet >= self.board.quiet_limit:
            return 0
        forced = moves[0][2] != 0
        if len(moves) == 1 and ply < MAX_PLY:
            depth += 1
        if depth <= 0:
            if not forced:
                return self.evaluate(state)
            if ply >= MAX_PLY:
                return self.evaluate(state)
            depth = 0  # search the forced captures (quiescence)

        original_alpha = alpha
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth and ply:
                score = _from_tt(e_score, ply)
                if e_flag == EXACT:
                    return score
                if e_flag == LOWER and score >= beta:
                    return score
                if e_flag == UPPER and score <= alpha:
                    return score

        ordered = self._order(moves, tt_move, ply) if len(moves) > 1 else moves
        best = -INF
        best_move = None
        self._path.append(key)
        try:
            for i, move in enumerate(ordered):
                child = make(state, move)
                q = 0 if self.board.is_progress(state, move) else quiet + 1
                if i == 0:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1, q)
                else:
                    score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1, q)
                    if alpha < score < beta:
                        score = -self._negamax(child, depth - 1, -beta, -score, ply + 1, q)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not move[2]:
                                self._remember_cutoff(move, ply, depth)
                            break
        finally:
            self._path.pop()

        flag = EXACT
        if best <= original_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.tt[key] = (depth, flag, _to_tt(best, ply), best_move)
        return best

    def _order(self, moves: list[RawMove], tt_move: RawMove | None, ply: int) -> list[RawMove]:
        killers = self._killers[ply]
        history = self._history

        def rank(move: RawMove) -> int:
            if move == tt_move:
                return 1 << 40
            if move[2]:
                return (1 << 30) + move[2].bit_count()
            if move == killers[0]:
                return 1 << 29
            if move == killers[1]:
                return (1 << 29) - 1
            return history.get((move[0], move[1]), 0)

        return sorted(moves, key=rank, reverse=True)

    def _remember_cutoff(self, move: RawMove, ply: int, depth: int) -> None:
        killers = self._killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        key = (move[0], move[1])
        self._history[key] = self._history.get(key, 0) + depth * depth


def _to_tt(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score + ply
    if score <= -WIN_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score - ply
    if score <= -WIN_BOUND:
        return score + ply
    return score


def _one_each(state: State) -> bool:
    """Whether each side has exactly one piece (drawn at once where the variant says so)."""
    own, theirs = state[0] | state[1], state[2] | state[3]
    return own.bit_count() == 1 and theirs.bit_count() == 1
