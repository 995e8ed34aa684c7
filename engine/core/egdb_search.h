/* The endgame databases in the search (egdb.h): probes at interior nodes, and the choice of root
 * moves in a won table position.  Only a timed (not `exact`) search probes: fixed-depth exact
 * searches stay pure alpha-beta, as the weaker levels and the tests comparing with the Python
 * engine need.
 */
#ifndef DRAUGHTS_EGDB_SEARCH_H
#define DRAUGHTS_EGDB_SEARCH_H

#include "egdb.h"
#include "search.h"

/* The score band of a won table position: far above any evaluation, below CORE_WIN_BOUND (it
 * is not a win in a known number of plies).  The static evaluation is added to it and the ply
 * subtracted, so the search still prefers the quicker and more material-rich conversions. */
#define CORE_EGDB_WIN 500000
#define CORE_EGDB_EVAL_CAP 20000
/* The largest slice pair (in indices) whose distances a won root recomputes on the spot, once
 * per material and game, within the move's time: at most about half a second (every ending of up
 * to 4 pieces on 8x8, the largest pair 755,160 indices).  A won root of a larger pair is played
 * by the search alone and reported (CoreSearch.egdb_wanted): engine/native_search.py computes
 * that pair's distances in the background (5-30 s for 5 pieces, minutes for 6), and the next
 * moves use them. */
#define CORE_EGDB_DIST_MAX 1000000
/* Distance (plies) within which a won root lets the search choose among all winning moves. */
#define CORE_EGDB_NEAR 6

/* At an interior node at `ply` with `quiet` plies since progress: whether the table decides it
 * (then *score is the node's score).  A draw is always believed; a win or a loss only when the
 * counting rules cannot take it away (egdb_trusted) and the position is not of the root's
 * material in a won or lost root (there the normal search has to find the progress). */
int core_egdb_node(const CoreSearch *s, const CorePos *p, int ply, int quiet, int *score);

/* Before a search (probing or not, `on`): remember whether to probe, and when the root is a
 * trusted table win keep only the root moves that keep the win, in their order, and of those,
 * when the distances of the root's material are at hand (CORE_EGDB_DIST_MAX, or computed
 * before), only the ones that bring the conversion closest (else s->egdb_wanted names the
 * root's slice); the number kept (n when nothing is filtered). */
int core_egdb_root(CoreSearch *s, const CorePos *root, int quiet, CoreMove *moves, int n, int on);

#endif
