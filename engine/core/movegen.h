/* Move generation, move counting and making a move: the hot loop under perft and the search.
 *
 * The generator mirrors rules/movegen.py move for move and in the same order, so that the core
 * can be proved equal to the referee by comparing lists: captures if any exist (men first, then
 * kings, each in ascending bit order, directions in rules.geometry order, nearest landing square
 * first), else steps.  Nothing here allocates: callers pass the output buffer.
 */
#ifndef DRAUGHTS_MOVEGEN_H
#define DRAUGHTS_MOVEGEN_H

#include "core.h"

/* Moves a tree walker keeps on the C stack per ply; a position with more legal moves than this
 * (only contrived ones with many flying kings) makes the walker use a heap buffer for that node. */
#define CORE_STACK_MOVES 256

/* Store the legal moves of the side to move of `p` into out[0..cap) and return how many there
 * are.  A return value above `cap` means the list was cut short: call again with room for that
 * many (the generator is deterministic).  `out` may be NULL when `cap` is 0. */
int core_moves(const CoreRules *r, const CorePos *p, CoreMove *out, int cap);

/* The number of legal moves, as core_moves would return it, without building them: steps are
 * counted in bulk with shifts and only pieces that can capture are searched (perft's leaves). */
int core_count(const CoreRules *r, const CorePos *p);

/* Keep one move of each group that differs only in the path (the same origin, destination,
 * captured pieces and crowning: they leave the same position), in order; the number kept.  The
 * search plays one of each, and perft's distinct count counts one of each. */
static inline int core_unique_moves(CoreMove *moves, int n)
{
    if (n < 2 || !moves[0].captured) /* steps never repeat a move */
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++)
            seen = moves[j].from == moves[i].from && moves[j].to == moves[i].to &&
                   moves[j].captured == moves[i].captured && moves[j].crowns == moves[i].crowns;
        if (!seen)
            moves[kept++] = moves[i];
    }
    return kept;
}

/* The runs after the mover played `m` (rules.position.runs_after), seen from the new
 * side to move: a king's non-capturing move lengthens its run (or starts one, when another king
 * made the last), any other move ends the mover's run, and a side left without men, or whose
 * running king was taken, has none.  `own_men`, `opp_men`: each side's men after the move. */
static inline uint32_t core_runs_after(const CorePos *p, const CoreMove *m, core_bb own_men,
                                       core_bb opp_men)
{
    uint32_t own = 0, opp = p->runs >> 16;
    if (!m->captured && (p->kings & m->from)) {
        uint32_t was = p->runs & CORE_RUN_HALF;
        uint32_t from = (uint32_t)core_lowest(m->from);
        uint32_t run = was && (was & CORE_RUN_INDEX) == from ? (was >> CORE_RUN_SHIFT) + 1 : 1;
        own = (uint32_t)core_lowest(m->to) | run << CORE_RUN_SHIFT;
    }
    if (!own_men)
        own = 0;
    if (!opp_men || (opp && ((m->captured >> (opp & CORE_RUN_INDEX)) & 1)))
        opp = 0;
    return opp | own << 16;
}

/* The position after `m` (a legal move of `p`), seen from the new side to move; `keeps_runs`:
 * the rules limit a king's moves in a row (CoreRules.king_move_limit; a tree walker reads it
 * once, not at every move). */
static inline void core_play(const CorePos *p, const CoreMove *m, CorePos *child, int keeps_runs)
{
    core_bb men = p->men, kings = p->kings;
    if (men & m->from) {
        men ^= m->from;
        if (m->crowns)
            kings |= m->to;
        else
            men |= m->to;
    } else {
        kings = (kings ^ m->from) | m->to;
    }
    child->men = p->opp_men & ~m->captured;
    child->kings = p->opp_kings & ~m->captured;
    child->opp_men = men;
    child->opp_kings = kings;
    child->side = p->side ^ 1;
    child->runs = keeps_runs ? core_runs_after(p, m, men, child->men) : 0;
}

/* core_play under the rules `r`. */
static inline void core_make(const CoreRules *r, const CorePos *p, const CoreMove *m,
                             CorePos *child)
{
    core_play(p, m, child, r->king_move_limit != 0);
}

#endif
