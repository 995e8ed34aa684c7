/* The endgame databases in the search: see egdb_search.h. */
#include "egdb_search.h"

#include "eval.h"
#include "movegen.h"

static int pieces(const CorePos *p)
{
    return core_popcount(p->men | p->kings | p->opp_men | p->opp_kings);
}

int core_egdb_node(const CoreSearch *s, const CorePos *p, int ply, int quiet, int *score)
{
    const Egdb *eg = s->egdb;
    if (!s->egdb_on || pieces(p) > eg->max_pieces)
        return 0;
    int slice;
    int v = egdb_probe(eg, p, &slice);
    if (v == EGDB_UNKNOWN || slice < 0)
        return 0;
    if (v == EGDB_DRAW) {
        *score = 0;
        return 1;
    }
    if (slice == s->egdb_skip[0] || slice == s->egdb_skip[1] ||
        !egdb_trusted(eg, slice, quiet, s->quiet_limit))
        return 0;
    int e = core_evaluate(&s->eval, p);
    if (e > CORE_EGDB_EVAL_CAP)
        e = CORE_EGDB_EVAL_CAP;
    if (e < -CORE_EGDB_EVAL_CAP)
        e = -CORE_EGDB_EVAL_CAP;
    *score = v == EGDB_WIN ? CORE_EGDB_WIN + e - ply : -CORE_EGDB_WIN + e + ply;
    return 1;
}

int core_egdb_root(CoreSearch *s, const CorePos *root, int quiet, CoreMove *moves, int n, int on)
{
    s->egdb_skip[0] = s->egdb_skip[1] = -1;
    s->egdb_wanted = -1;
    s->egdb_on = on && s->egdb != NULL;
    if (!s->egdb_on || pieces(root) > s->egdb->max_pieces)
        return n;
    Egdb *eg = (Egdb *)s->egdb; /* the distances kept are a cache: the values stay as they are */
    int slice;
    uint64_t index;
    int v = egdb_probe(eg, root, &slice);
    if ((v != EGDB_WIN && v != EGDB_LOSS) || slice < 0 || !eg->slices[slice].trusted ||
        egdb_locate(eg, root, &slice, &index) < 0)
        return n;
    /* The distances of the root's material, when small enough to recompute now (kept for the
     * next moves of the game): the root's own distance then decides whether the no-progress
     * count leaves room for the win, and only the moves that bring the conversion closer are
     * kept, so the win is converted within that distance whatever the search prefers. */
    int have = v == EGDB_WIN && egdb_distances(eg, slice, s->egdb_dist_max) == 0;
    if (v == EGDB_WIN && !have)
        s->egdb_wanted = slice; /* too large for now: the caller computes them for later */
    int needed = have ? egdb_distance(eg, slice, index) : eg->slices[slice].dtc;
    if (s->quiet_limit > 0 && quiet + needed >= s->quiet_limit)
        return n;
    /* Inside the root's material every move of a won (lost) position would score the same known
     * win (loss): the search must look past those probes to make progress (or to resist). */
    s->egdb_skip[0] = slice;
    s->egdb_skip[1] = eg->slices[slice].mirror;
    if (v != EGDB_WIN)
        return n;
    int distance[CORE_STACK_MOVES];
    int kept = 0;
    for (int i = 0; i < n && i < CORE_STACK_MOVES; i++) {
        CorePos child;
        int cs;
        uint64_t ci;
        core_make(s->rules, root, &moves[i], &child);
        if (egdb_probe(eg, &child, &cs) != EGDB_LOSS)
            continue;
        int d = -1; /* a conversion, or the opponent has no pieces */
        if (!have)
            d = 0;
        else if (cs >= 0 && egdb_locate(eg, &child, &cs, &ci) == 0 && egdb_distance(eg, cs, ci) >= 0)
            d = egdb_distance(eg, cs, ci);
        distance[kept] = d;
        moves[kept++] = moves[i];
    }
    if (!kept)
        return n; /* cannot happen: a won position has a move to a lost one */
    /* The quickest conversion is not always the quickest win (the loser's forced capture of a
     * piece converts sooner than a catch a few plies later), and the search sees short wins
     * itself: near the end (CORE_EGDB_NEAR) every winning move stays; farther, the conversions
     * and the moves that bring it closer, so the distance falls by at least 2 every move. */
    int root_distance = have ? egdb_distance(eg, slice, index) : 0;
    int closest = 0;
    for (int i = 0; i < kept; i++)
        if (!have || root_distance <= CORE_EGDB_NEAR || distance[i] < root_distance)
            moves[closest++] = moves[i];
    return closest;
}
