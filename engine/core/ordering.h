/* Move ordering for the search (search.c): the order in which a node tries its moves, and what
 * the search learns from each cut-off to order the next nodes better.
 *
 * A node tries the table's move, then captures (most pieces taken first), the two killers of its
 * ply, the counter-move (the quiet move that last refuted the opponent's previous move), then the
 * other quiet moves by history.  The history is a score per side, origin and destination: a move
 * that cuts gains depth² (at most 400), each quiet move ordered before it at that node loses as
 * much (the malus), and every update pulls the score toward its bound, so the table keeps to a fixed range
 * and recent results weigh most.  Late-move reductions read the same history (selective.h).
 */
#ifndef DRAUGHTS_ORDERING_H
#define DRAUGHTS_ORDERING_H

#include "search.h"

/* The history's bound: scores stay within ±CORE_HISTORY_MAX. */
#define CORE_HISTORY_MAX 16384

/* No square: an empty table move, and the root's entry of CoreSearch.played (no previous move). */
#define CORE_NO_SQUARE 255

static inline int core_square(core_bb b) { return core_lowest(b); }

/* Sort moves[0..n) for the node at `ply` with table move (tt_from, tt_to), side to move `side`. */
void core_order(CoreSearch *s, CoreMove *moves, int n, int tt_from, int tt_to, int ply, int side);

/* The history score of a quiet move for `side` (the reductions lean on it). */
int core_history(const CoreSearch *s, int side, const CoreMove *m);

/* moves[cut] cut off at `ply` (depth `depth`): it becomes a killer and the counter-move of the
 * previous move, its history rises and the quiet moves ordered before it, moves[0..cut), fall
 * (those the node pruned included: they were judged no better). */
void core_remember_cutoff(CoreSearch *s, const CoreMove *moves, int cut, int ply, int depth,
                          int side);

/* Before a new search: killers forgotten, the history scaled down (it still hints, but the new
 * position decides), counter-moves kept. */
void core_ordering_age(CoreSearch *s);

#endif
