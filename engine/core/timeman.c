#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
/* Time management: see timeman.h. */
#include "timeman.h"

#include <time.h>

#define STABLE_SHARE 0.5   /* of the budget: no new iteration after it while the best move holds */
#define UNSTABLE_SHARE 0.8 /* the same after a change of best move or a falling score */

double core_monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* An iteration costs a few times the one before it, so one started late is mostly cut off by the
 * deadline: without a change of mind the search stops starting them at half the budget; when the
 * last iteration changed its best move or its score fell, the position is not understood yet and
 * it goes on to four fifths.  A new iteration whose expected length (the last one's times the
 * growth seen between the last two) fits in what is left is always started.  The deadline itself
 * is the budget, which no search passes by more than a clock check (CHECK_EVERY nodes). */
int core_keep_going(double elapsed, double budget, double last_took, double previous_took,
                    int unstable)
{
    double growth = previous_took > 0 ? last_took / previous_took : 4.0;
    if (growth < 1.5)
        growth = 1.5;
    if (growth > 8.0)
        growth = 8.0;
    if (elapsed + growth * last_took <= budget)
        return 1;
    return elapsed < (unstable ? UNSTABLE_SHARE : STABLE_SHARE) * budget;
}
