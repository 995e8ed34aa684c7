/* Selectivity: see selective.h.  The numbers are tuned by matches at equal time (docs/BENCHMARKS.md,
 * "Search selectivity (issue 31)"). */
#include "selective.h"

#include <math.h>

#include "movegen.h"
#include "ordering.h"

/* History scores above this reduce a move one ply less, below its negative one ply more. */
#define HISTORY_GOOD (CORE_HISTORY_MAX / 4)

void core_selective_init(CoreSearch *s)
{
    for (int d = 0; d < CORE_REDUCTION_SIZE; d++)
        for (int i = 0; i < CORE_REDUCTION_SIZE; i++) {
            double r = d && i ? 0.75 + log((double)d) * log((double)i) / 1.6 : 0.0;
            s->reduction[d][i] = (uint8_t)(r > 0 ? r : 0);
        }
}

int core_offers_capture(const CoreSearch *s, const CorePos *child)
{
    CoreMove first;
    int n = core_moves(s->rules, child, &first, 1);
    return n > 0 && first.captured != 0; /* captures come first, and only they when any exist */
}

int core_reduction(const CoreSearch *s, int depth, int i, int pv, int history)
{
    int d = depth < CORE_REDUCTION_SIZE ? depth : CORE_REDUCTION_SIZE - 1;
    int k = i < CORE_REDUCTION_SIZE ? i : CORE_REDUCTION_SIZE - 1;
    int r = s->reduction[d][k];
    if (r == 0)
        return 0;
    r -= pv;
    if (history > HISTORY_GOOD)
        r--;
    else if (history < -HISTORY_GOOD)
        r++;
    if (r > depth - 2)
        r = depth - 2;
    return r > 0 ? r : 0;
}

int core_late_prune(int depth, int i)
{
    static const int after[] = {0, 5, 8, 12}; /* moves searched at depth 1, 2, 3 */
    return depth >= 1 && depth <= 3 && i >= after[depth];
}

int core_futility_margin(int depth)
{
    static const int margin[] = {0, 70, 150};
    return depth >= 1 && depth <= 2 ? margin[depth] : -1;
}
