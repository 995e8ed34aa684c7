/* Endgame databases, the solver: retrograde analysis of a slice and its mirror, and the
 * distances kept for the search (see egdb.h).  It finds positions through egdb.c's indexing
 * (egdb_locate, egdb_position) and generates their moves with movegen.h. */
#include "egdb.h"

#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define ST_VALUE 3     /* a resolved position's EGDB_* value */
#define ST_DRAW_OUT 4  /* unresolved, but a move out of the slice draws */
#define ST_UNUSED 0x80 /* an index no position has */

/* -- solving ----------------------------------------------------------------------------------- */

typedef struct {
    uint32_t *items;
    size_t n, cap;
} Layer;

static int push(Layer *l, uint32_t item)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4096;
        uint32_t *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return -1;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = item;
    return 0;
}

typedef struct {
    Egdb *eg;
    int slice[2];   /* the slice and its mirror (the same one when the material is symmetric) */
    int halves;
    uint8_t *state[2];
    uint8_t *count[2];
    Layer now, next;
    int failed;
    int layer;        /* the layer being taken */
    uint8_t *dist[2]; /* when not NULL: record each position's layer instead of writing values */
} Pair;

static void set_value(Egdb *eg, uint64_t i, int v)
{
    eg->data[i >> 2] = (uint8_t)((eg->data[i >> 2] & ~(3u << ((i & 3) * 2))) |
                                 ((unsigned)v << ((i & 3) * 2)));
}

/* The half of the pair a slice is. */
static int half_of(const Pair *pr, int slice) { return slice == pr->slice[0] ? 0 : 1; }

/* Look at every move of every position: value the ones decided by moves out of the slice (or
 * by having no move), count the moves that stay in it. */
static void initialise(Pair *pr, int h)
{
    Egdb *eg = pr->eg;
    const CoreRules *r = &eg->rules;
    const EgdbSlice *s = &eg->slices[pr->slice[h]];
    CoreMove moves[CORE_STACK_MOVES];
    for (uint64_t idx = 0; idx < s->size && !pr->failed; idx++) {
        CorePos p;
        if (!egdb_position(eg, pr->slice[h], idx, &p)) {
            pr->state[h][idx] = ST_UNUSED;
            continue;
        }
        int n = core_moves(r, &p, moves, CORE_STACK_MOVES);
        if (n > CORE_STACK_MOVES)
            n = CORE_STACK_MOVES; /* not with the few pieces of a table */
        if (n && core_lone_pieces(r, &p)) {
            pr->state[h][idx] = EGDB_DRAW; /* one piece each: drawn by rule, moves or not */
            continue;
        }
        int inside = 0, win = 0, draw = 0;
        for (int i = 0; i < n && !win; i++) {
            if (!moves[i].captured && !moves[i].crowns) {
                inside++;
                continue;
            }
            CorePos child;
            int cs;
            core_make(r, &p, &moves[i], &child);
            int v = egdb_probe(eg, &child, &cs);
            if (v == EGDB_LOSS)
                win = 1;
            else if (v != EGDB_WIN)
                draw = 1; /* a draw (UNKNOWN cannot happen: the order solves it first) */
        }
        if (win) {
            pr->state[h][idx] = EGDB_WIN;
        } else if (n == 0) { /* no move: lost, or won where the goal is to give all away */
            pr->state[h][idx] = r->goal == CORE_GOAL_GIVE_AWAY ? EGDB_WIN : EGDB_LOSS;
        } else if (inside == 0) {
            pr->state[h][idx] = draw ? EGDB_DRAW : EGDB_LOSS;
        } else {
            pr->state[h][idx] = draw ? ST_DRAW_OUT : 0;
            pr->count[h][idx] = (uint8_t)(inside > 255 ? 255 : inside);
            continue;
        }
        if (pr->dist[h] && (pr->state[h][idx] & ST_VALUE) != EGDB_DRAW)
            pr->dist[h][idx] = 0;
        if ((pr->state[h][idx] & ST_VALUE) != EGDB_DRAW &&
            push(&pr->now, (uint32_t)idx | ((uint32_t)h << 31)) < 0)
            pr->failed = 1;
    }
}

/* A predecessor of a position just valued: resolve it if that decides it. */
static void predecessor(Pair *pr, const CorePos *q, int value)
{
    int slice;
    uint64_t idx;
    if (egdb_locate(pr->eg, q, &slice, &idx) < 0)
        return; /* cannot happen: a quiet unmove keeps the material */
    int h = half_of(pr, slice);
    uint8_t st = pr->state[h][idx];
    if (st & (ST_VALUE | ST_UNUSED))
        return; /* known already (positions with a capture are, from the start) */
    int v;
    if (value == EGDB_LOSS) {
        v = EGDB_WIN;
    } else {
        if (--pr->count[h][idx] > 0)
            return;
        v = (st & ST_DRAW_OUT) ? EGDB_DRAW : EGDB_LOSS;
    }
    pr->state[h][idx] = (uint8_t)v;
    if (pr->dist[h] && v != EGDB_DRAW)
        pr->dist[h][idx] = (uint8_t)(pr->layer + 1 < EGDB_FAR ? pr->layer + 1 : EGDB_FAR - 1);
    if (v != EGDB_DRAW && push(&pr->next, (uint32_t)idx | ((uint32_t)h << 31)) < 0)
        pr->failed = 1;
}

/* Every position the opponent (side 1 here, moving down) could have come from by a quiet move
 * that stays in the slice. */
static void unmoves(Pair *pr, const CorePos *p, int value)
{
    const CoreRules *r = &pr->eg->rules;
    core_bb occ = p->men | p->kings | p->opp_men | p->opp_kings;
    CorePos q;
    q.opp_men = p->men;
    q.opp_kings = p->kings;
    q.side = 1;
    q.runs = 0; /* runs bind only while a side has men: kings-only slices there (egdb_init) */
    for (core_bb b = p->opp_kings; b; b &= b - 1) {
        int t = core_lowest(b);
        for (int d = 0; d < 4; d++) {
            const int8_t *ray = r->ray[t][d];
            int len = r->flying_kings ? r->ray_len[t][d] : (r->ray_len[t][d] ? 1 : 0);
            for (int i = 0; i < len && !((occ >> ray[i]) & 1); i++) {
                q.men = p->opp_men;
                q.kings = (p->opp_kings ^ CORE_BIT(t)) | CORE_BIT(ray[i]);
                predecessor(pr, &q, value);
            }
        }
    }
    /* A man of side 1 that stepped in direction d came from its neighbour the other way, 3 - d
     * (the directions taken from the last, so that the diagonal boards see up-left first). */
    for (core_bb b = p->opp_men; b; b &= b - 1) {
        int t = core_lowest(b);
        for (int i = r->step_ndirs[1] - 1; i >= 0; i--) {
            int f = r->neighbour[t][3 - r->step_dirs[1][i]];
            if (f < 0 || ((occ >> f) & 1))
                continue;
            q.men = (p->opp_men ^ CORE_BIT(t)) | CORE_BIT(f);
            q.kings = p->opp_kings;
            predecessor(pr, &q, value);
        }
    }
}

/* Solve slice i and its mirror, writing their values and distance; or, with `dist`, only record
 * each position's distance (in dist[0] for slice i, dist[1] for its mirror: EGDB_FAR for a
 * draw) from the values already there. */
static int solve_pair(Egdb *eg, int i, uint8_t *dist[2])
{
    Pair pr;
    memset(&pr, 0, sizeof pr);
    pr.eg = eg;
    if (dist) {
        pr.dist[0] = dist[0];
        pr.dist[1] = dist[1];
    }
    pr.slice[0] = i;
    pr.slice[1] = eg->slices[i].mirror;
    pr.halves = pr.slice[1] == i ? 1 : 2;
    for (int h = 0; h < pr.halves; h++) {
        size_t n = (size_t)eg->slices[pr.slice[h]].size;
        pr.state[h] = calloc(n ? n : 1, 1);
        pr.count[h] = calloc(n ? n : 1, 1);
        if (!pr.state[h] || !pr.count[h])
            pr.failed = 1;
    }
    if (pr.halves == 1) {
        pr.state[1] = pr.state[0];
        pr.count[1] = pr.count[0];
        pr.dist[1] = pr.dist[0];
    }
    for (int h = 0; h < pr.halves && dist && !pr.failed; h++)
        memset(pr.dist[h], EGDB_FAR, (size_t)eg->slices[pr.slice[h]].size);
    for (int h = 0; h < pr.halves && !pr.failed; h++)
        initialise(&pr, h);
    int dtc = 0;
    for (int layer = 0; pr.now.n && !pr.failed; layer++) {
        pr.layer = layer;
        if (layer > dtc)
            dtc = layer;
        for (size_t k = 0; k < pr.now.n && !pr.failed; k++) {
            uint32_t item = pr.now.items[k];
            int h = (int)(item >> 31);
            uint64_t idx = item & 0x7fffffffu;
            CorePos p;
            egdb_position(eg, pr.slice[h], idx, &p);
            unmoves(&pr, &p, pr.state[h][idx] & ST_VALUE);
        }
        Layer t = pr.now;
        pr.now = pr.next;
        pr.next = t;
        pr.next.n = 0;
    }
    for (int h = 0; h < pr.halves && !pr.failed && !dist; h++) {
        EgdbSlice *s = &eg->slices[pr.slice[h]];
        s->dtc = dtc;
        for (uint64_t idx = 0; idx < s->size; idx++) {
            uint8_t st = pr.state[h][idx];
            int v = (st & ST_UNUSED) ? EGDB_UNKNOWN : (st & ST_VALUE) ? (st & ST_VALUE) : EGDB_DRAW;
            set_value(eg, s->offset + idx, v);
        }
    }
    for (int h = 0; h < pr.halves; h++) { /* one half only when the slice is its own mirror */
        free(pr.state[h]);
        free(pr.count[h]);
    }
    free(pr.now.items);
    free(pr.next.items);
    return pr.failed ? -1 : 0;
}

int egdb_solve(Egdb *eg, void (*progress)(void *ctx, int done, int total), void *ctx)
{
    for (int i = 0; i < eg->nslices; i++)
        if (eg->slices[i].size > 0x7fffffffu)
            return -1; /* the layers hold 31-bit indices */
    uint8_t *data = calloc((size_t)egdb_bytes(eg) + 1, 1);
    if (!data)
        return -1;
    if (eg->owns_data)
        free(eg->data);
    eg->data = data;
    eg->owns_data = 1;
    eg->solved = 0;
    eg->dist_slice = 0;
    uint8_t *done = calloc((size_t)eg->nslices, 1);
    if (!done)
        return -1;
    int finished = 0;
    for (int i = 0; i < eg->nslices; i++) {
        if (done[i])
            continue;
        if (solve_pair(eg, i, NULL) < 0) {
            free(done);
            return -1;
        }
        done[i] = done[eg->slices[i].mirror] = 1;
        finished += eg->slices[i].mirror == i ? 1 : 2;
        if (progress)
            progress(ctx, finished, eg->nslices);
    }
    free(done);
    eg->solved = 1;
    return 0;
}

uint64_t egdb_pair_size(const Egdb *eg, int slice)
{
    int mirror = eg->slices[slice].mirror;
    return eg->slices[slice].size + (mirror != slice ? eg->slices[mirror].size : 0);
}

int egdb_compute_distances(const Egdb *eg, int slice, uint8_t *d[2])
{
    d[0] = d[1] = NULL;
    if (!eg->solved)
        return -1;
    int mirror = eg->slices[slice].mirror;
    int first = slice < mirror ? slice : mirror;
    int other = eg->slices[first].mirror;
    d[0] = malloc((size_t)eg->slices[first].size + 1);
    d[1] = other != first ? malloc((size_t)eg->slices[other].size + 1) : NULL;
    /* solve_pair only reads the table's values and slices here (its writes go to `d` and its
     * own buffers), so probes and searches may run meanwhile. */
    if (!d[0] || (other != first && !d[1]) || solve_pair((Egdb *)eg, first, d) < 0) {
        free(d[0]);
        free(d[1]);
        d[0] = d[1] = NULL;
        return -1;
    }
    return first;
}

void egdb_keep_distances(Egdb *eg, int first, uint8_t *d[2])
{
    free(eg->dist[0]);
    free(eg->dist[1]);
    eg->dist[0] = d[0];
    eg->dist[1] = d[1];
    eg->dist_slice = first + 1;
}

int egdb_has_distances(const Egdb *eg, int slice)
{
    int mirror = eg->slices[slice].mirror;
    return eg->dist_slice == (slice < mirror ? slice : mirror) + 1;
}

int egdb_distances(Egdb *eg, int slice, uint64_t max_positions)
{
    if (!eg->solved)
        return -1;
    if (egdb_has_distances(eg, slice))
        return 0;
    if (egdb_pair_size(eg, slice) > max_positions)
        return -1;
    uint8_t *d[2];
    int first = egdb_compute_distances(eg, slice, d);
    if (first < 0)
        return -1;
    egdb_keep_distances(eg, first, d);
    return 0;
}

int egdb_distance(const Egdb *eg, int slice, uint64_t index)
{
    if (!eg->dist_slice)
        return -1;
    int first = eg->dist_slice - 1;
    if (slice == first)
        return eg->dist[0][index];
    if (slice == eg->slices[first].mirror)
        return eg->dist[1][index];
    return -1;
}
