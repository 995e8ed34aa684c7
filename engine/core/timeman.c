#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
/* Time management: see timeman.h. */
#include "timeman.h"

#include <time.h>

#define STABLE_LEFT 0.1 /* of the budget: below it, no new iteration while the best move holds */

double core_monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The budget is what the caller gives this move, so it is spent: an iteration cut off by the
 * deadline still plays any root move it proved better than the last one's (core_search), so a
 * late iteration is worth starting while it can still search its first move and another.  Until
 * issue 31 the search stopped starting them at half the budget (four fifths after a change of
 * mind), which left a quarter of the time unused.  Now:
 * - a new iteration whose expected length (the last one's times the growth seen between the last
 *   two, 1.5 to 8) fits in what is left is always started;
 * - after a change of best move or a falling score the position is not understood yet: go on to
 *   the deadline;
 * - while the best move holds, not with less than a tenth of the budget left: the next iteration
 *   is expected to take longer than what is left, so it would rarely get through its first move,
 *   and only after that can it change the move; the time is handed back instead. */
int core_keep_going(double elapsed, double budget, double last_took, double previous_took,
                    int unstable)
{
    if (elapsed >= budget)
        return 0;
    double growth = previous_took > 0 ? last_took / previous_took : 4.0;
    if (growth < 1.5)
        growth = 1.5;
    if (growth > 8.0)
        growth = 8.0;
    if (elapsed + growth * last_took <= budget)
        return 1;
    return unstable || budget - elapsed > STABLE_LEFT * budget;
}
