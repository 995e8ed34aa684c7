/* Move ordering: see ordering.h. */
#include "ordering.h"

#include <string.h>

#include "movegen.h"

#define RANK_TABLE (1 << 30)
#define RANK_CAPTURE (1 << 28)
#define RANK_KILLER (1 << 27)
#define RANK_COUNTER ((1 << 27) - 8)

static int is_killer(const CoreSearch *s, int ply, int k, int f, int t)
{
    return s->killers[ply][k][0] == f && s->killers[ply][k][1] == t;
}

static int is_counter(const CoreSearch *s, int ply, int side, int f, int t)
{
    int pf = s->played[ply][0], pt = s->played[ply][1];
    if (pf == CORE_NO_SQUARE)
        return 0;
    const uint8_t *c = s->counter[side][pf][pt];
    return c[0] == f && c[1] == t; /* an empty slot, (0, 0), is no move */
}

int core_history(const CoreSearch *s, int side, const CoreMove *m)
{
    return s->history[side][core_square(m->from)][core_square(m->to)];
}

void core_order(CoreSearch *s, CoreMove *moves, int n, int tt_from, int tt_to, int ply, int side)
{
    int32_t rank[CORE_STACK_MOVES];
    if (n > CORE_STACK_MOVES)
        return;
    for (int i = 0; i < n; i++) {
        int f = core_square(moves[i].from), t = core_square(moves[i].to);
        int32_t r;
        if (f == tt_from && t == tt_to)
            r = RANK_TABLE;
        else if (moves[i].captured)
            r = RANK_CAPTURE + core_popcount(moves[i].captured);
        else if (is_killer(s, ply, 0, f, t))
            r = RANK_KILLER + 1;
        else if (is_killer(s, ply, 1, f, t))
            r = RANK_KILLER;
        else if (is_counter(s, ply, side, f, t))
            r = RANK_COUNTER;
        else
            r = s->history[side][f][t];
        rank[i] = r;
    }
    for (int i = 1; i < n; i++) {
        CoreMove m = moves[i];
        int32_t r = rank[i];
        int j = i - 1;
        while (j >= 0 && rank[j] < r) {
            moves[j + 1] = moves[j];
            rank[j + 1] = rank[j];
            j--;
        }
        moves[j + 1] = m;
        rank[j + 1] = r;
    }
}

/* Move a history score by `bonus`, less the nearer it already is to the bound on that side
 * ("gravity"): scores stay within ±CORE_HISTORY_MAX without clipping. */
static void nudge(int32_t *h, int bonus)
{
    int magnitude = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * magnitude / CORE_HISTORY_MAX;
}

void core_remember_cutoff(CoreSearch *s, const CoreMove *moves, int cut, int ply, int depth,
                          int side)
{
    const CoreMove *m = &moves[cut];
    int f = core_square(m->from), t = core_square(m->to);
    if (!is_killer(s, ply, 0, f, t)) {
        s->killers[ply][1][0] = s->killers[ply][0][0];
        s->killers[ply][1][1] = s->killers[ply][0][1];
        s->killers[ply][0][0] = f;
        s->killers[ply][0][1] = t;
    }
    int pf = s->played[ply][0], pt = s->played[ply][1];
    if (pf != CORE_NO_SQUARE) {
        s->counter[side][pf][pt][0] = (uint8_t)f;
        s->counter[side][pf][pt][1] = (uint8_t)t;
    }
    int bonus = depth * depth > 400 ? 400 : depth * depth;
    nudge(&s->history[side][f][t], bonus);
    for (int i = 0; i < cut; i++)
        if (!moves[i].captured)
            nudge(&s->history[side][core_square(moves[i].from)][core_square(moves[i].to)],
                  -bonus);
}

void core_ordering_age(CoreSearch *s)
{
    memset(s->killers, 0, sizeof s->killers);
    for (int side = 0; side < 2; side++)
        for (int f = 0; f < CORE_MAX_BITS; f++)
            for (int t = 0; t < CORE_MAX_BITS; t++)
                s->history[side][f][t] /= 8;
}
