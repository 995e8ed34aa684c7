/* Time management of the search (search.c's iteration loop asks it): the clock, how often the
 * search reads it, and whether another iteration is worth starting.  Kept apart from the search
 * proper so that the decision is a pure function of the times measured, tested on its own cases
 * (engine/core/search_module.c exposes it to the tests). */
#ifndef DRAUGHTS_TIMEMAN_H
#define DRAUGHTS_TIMEMAN_H

/* Nodes between two readings of the clock (a power of two).  At the 1-5 M nodes/s of a loaded or
 * an idle machine that is 0.2-1 ms, the most a search passes its deadline by while it runs (a
 * reading costs tens of nanoseconds: a thousandth of the time). */
#define CORE_CHECK_EVERY 1024

/* Seconds of the monotonic clock (any origin: only differences are meaningful; the same clock as
 * Python's time.monotonic on Linux, so the engine can count from when a request was taken). */
double core_monotonic(void);

/* Whether to start another iteration after `elapsed` of `budget` seconds, the last iteration
 * having taken `last_took` seconds and the one before it `previous_took` (0: none); `unstable`:
 * the last iteration changed its best move or its score fell.  The budget is the hard limit: the
 * search stops at it whatever this says (an iteration cut off keeps any move it proved better). */
int core_keep_going(double elapsed, double budget, double last_took, double previous_took,
                    int unstable);

#endif
