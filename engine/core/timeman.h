/* Time management of the search (search.c's iteration loop asks it): the clock, and whether
 * another iteration is worth starting.  Kept apart from the search proper so that the decision is
 * a pure function of the times measured, testable without searching. */
#ifndef DRAUGHTS_TIMEMAN_H
#define DRAUGHTS_TIMEMAN_H

/* Seconds of the monotonic clock (any origin: only differences are meaningful). */
double core_monotonic(void);

/* Whether to start another iteration after `elapsed` of `budget` seconds, the last iteration
 * having taken `last_took` seconds and the one before it `previous_took` (0: none); `unstable`:
 * the last iteration changed its best move or its score fell. */
int core_keep_going(double elapsed, double budget, double last_took, double previous_took,
                    int unstable);

#endif
