/* The transposition table of the search (search.c): one entry per slot, indexed by the low bits
 * of the Zobrist key, replaced unless it holds a deeper bound of the same search.  Scores of wins
 * are stored relative to the node (to_tt/from_tt), so they stay right when the position is
 * reached by another path.  Inline: the search probes and stores at every node. */
#ifndef DRAUGHTS_TABLE_H
#define DRAUGHTS_TABLE_H

#include "ordering.h"
#include "search.h"

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

static inline int to_tt(int score, int ply)
{
    if (score >= CORE_WIN_BOUND)
        return score + ply;
    if (score <= -CORE_WIN_BOUND)
        return score - ply;
    return score;
}

static inline int from_tt(int score, int ply)
{
    if (score >= CORE_WIN_BOUND)
        return score - ply;
    if (score <= -CORE_WIN_BOUND)
        return score + ply;
    return score;
}

static inline CoreTTEntry *tt_probe(CoreSearch *s, uint64_t key)
{
    return &s->tt[key & s->tt_mask];
}

/* Whether `e` holds `key` for this epoch (an entry stored before the last clear is empty). */
static inline int tt_holds(const CoreSearch *s, const CoreTTEntry *e, uint64_t key)
{
    return e->key == key && e->epoch == s->epoch;
}

static inline void tt_store(CoreSearch *s, uint64_t key, int depth, int flag, int score,
                            int ply, const CoreMove *best)
{
    CoreTTEntry *e = tt_probe(s, key);
    if (tt_holds(s, e, key) && e->age == s->age && e->depth > depth && flag != EXACT)
        return; /* keep the deeper result of this search */
    e->key = key;
    e->depth = (int16_t)depth;
    e->flag = (uint8_t)flag;
    e->score = to_tt(score, ply);
    e->age = s->age;
    e->epoch = s->epoch;
    e->from = best ? (uint8_t)core_square(best->from) : CORE_NO_SQUARE;
    e->to = best ? (uint8_t)core_square(best->to) : CORE_NO_SQUARE;
}

#endif
