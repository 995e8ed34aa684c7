/* Selectivity of the timed search (search.c): which moves are searched shallower (reductions),
 * not at all (late-move and futility pruning), and which nodes a shallow search already decides
 * (ProbCut).  Each rule is a bit of CoreSearch.selective, all off in an exact search, so a
 * fixed-depth search stays a full alpha-beta search and the tests can compare each rule with
 * the search without it.
 *
 * Draughts decides what may be cut: a position with a capture pending is never quiet (the
 * capture is compulsory and the search extends it), so no rule applies there; a quiet move that
 * offers the opponent a capture may be the first move of a shot, so it is neither pruned nor
 * reduced; a crowning is never cut; and nothing is pruned near a win score, where a bound decides
 * the game.  There is no null move: zugzwang is common in draughts.
 */
#ifndef DRAUGHTS_SELECTIVE_H
#define DRAUGHTS_SELECTIVE_H

#include "search.h"

enum {
    CORE_SEL_REDUCE = 1,     /* late-move reductions, at the root too */
    CORE_SEL_MOVECOUNT = 2,  /* late-move pruning at shallow depth */
    CORE_SEL_FUTILITY = 4,   /* futility pruning at depth 1-2 */
    CORE_SEL_PROBCUT = 8,    /* ProbCut: a shallow search with a margin predicting a fail high */
    CORE_SEL_ALL = 15,
};

/* Fill the reduction table (once per searcher). */
void core_selective_init(CoreSearch *s);

/* Whether the opponent must capture after `m` (a shot may begin with it: never cut). */
int core_offers_capture(const CoreSearch *s, const CorePos *child);

/* Plies by which the i-th move (from 0) of a node at `depth` is searched shallower: by the table
 * (depth and move number, log-log), one less at a PV node and for a move with a good history,
 * one more for a bad one; the child keeps at least one ply. */
int core_reduction(const CoreSearch *s, int depth, int i, int pv, int history);

/* Whether a quiet move this late (the i-th, from 0) at `depth` is skipped in a null-window node. */
int core_late_prune(int depth, int i);

/* The futility margin at `depth` (centimen), or -1 above the depths it applies to. */
int core_futility_margin(int depth);

/* ProbCut's parameters: the least depth, the plies its shallow search saves, and its margin. */
#define CORE_PROBCUT_DEPTH 5
#define CORE_PROBCUT_SAVE 4
#define CORE_PROBCUT_MARGIN 100

#endif
