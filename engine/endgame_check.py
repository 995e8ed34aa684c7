"""An endgame table checked against the referee: what an operator runs on a table built once
and kept for months (``python -m engine.endgame check``), and what the tests run on small ones.

The solver (engine/core/egdb.c) works on the C core's move generator; this check takes the
moves from ``rules`` (the referee, written apart from the core) instead.  For sampled positions
of every slice, a position's value must be the best of its successors' values: won when one
successor is lost for the opponent, lost when every successor is won for the opponent, drawn
otherwise; and where the variant draws one piece against one, such a position with a move is
drawn whatever its successors.  The variant's goal ends the game: with no move the side to move
has lost (won where the goal is to give everything away), a capture of the last piece leaves the
opponent lost (won, giving away), and where the first king wins a crowning wins at once.  A
wrong value anywhere breaks that at some position; a sample of ``per_slice`` positions per slice
catches an error that touches one position in a few hundred of a slice, and a table damaged on
disk fails its checksum before this runs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.movegen import RawMove, generator
from rules.variants import Goal, Variant

from ._core import EndgameTable

WIN, LOSS, DRAW = 1, 2, 3
"""What :meth:`EndgameTable.probe` returns for the side to move."""

State = tuple[int, int, int, int, int]
"""(own men, own kings, their men, their kings, side to move) as the table stores them."""


@dataclass
class Checked:
    """What :func:`check` found: how many positions it checked and the ones that were wrong
    (each with its value and its successors' values)."""

    positions: int = 0
    wrong: list[tuple[State, int, list[int]]] = field(default_factory=list)


def played(state: State, move: RawMove) -> State:
    """The position after ``move`` (a move of the rules' generator), from the opponent's side."""
    own_men, own_kings, their_men, their_kings, side = state
    start, end, captured, crowns = move
    if own_men & start:
        own_men ^= start
        if crowns:
            own_kings |= end
        else:
            own_men |= end
    else:
        own_kings = (own_kings ^ start) | end
    return (their_men & ~captured, their_kings & ~captured, own_men, own_kings, side ^ 1)


def expected_value(successors: list[int], goal: Goal = Goal.STANDARD) -> int:
    """A position's value from its successors' values (each for the opponent); with none, the
    side to move cannot move: lost, or won where the goal is to give everything away."""
    if not successors:
        return WIN if goal is Goal.GIVE_AWAY else LOSS
    if LOSS in successors:
        return WIN
    return DRAW if DRAW in successors else LOSS


def successor_value(table: EndgameTable, goal: Goal, state: State, move: RawMove) -> int:
    """The value of the position ``move`` leads to, for the opponent: by the rules where the
    game ends there (a crowning where the first king wins; no piece left), else the table's."""
    if goal is Goal.FIRST_KING and move[3]:
        return LOSS
    after = played(state, move)
    if not after[0] | after[1]:
        return WIN if goal is Goal.GIVE_AWAY else LOSS
    return table.probe(*after)


def check(table: EndgameTable, variant: Variant, per_slice: int, seed: int = 0) -> Checked:
    """Check ``per_slice`` random positions of every slice of ``table`` (made for ``variant``'s
    move rules) against the rules' moves."""
    moves = generator(variant).moves_raw
    rng = random.Random(seed)
    found = Checked()
    for number, (*_, size, _distance, _trusted) in enumerate(table.slices()):
        for _ in range(per_slice):
            state = table.position(number, rng.randrange(size))
            if state is None:
                continue  # an unused index (two men on one square)
            own_men, own_kings, their_men, their_kings, side = state
            successors = [
                successor_value(table, variant.goal, state, move)
                for move in moves(own_men, own_kings, their_men, their_kings, side)
            ]
            value = table.probe(*state)
            one_each = (
                (own_men | own_kings).bit_count() == (their_men | their_kings).bit_count() == 1
            )
            drawn = variant.lone_pieces_draw and one_each and successors
            if value != (DRAW if drawn else expected_value(successors, variant.goal)):
                found.wrong.append((state, value, successors))
            found.positions += 1
    return found
