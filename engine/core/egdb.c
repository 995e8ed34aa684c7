/* Endgame databases: slices, indexing and what the search may believe (the solver is
 * egdb_solve.c); see egdb.h. */
#include "egdb.h"

#include <stdlib.h>
#include <string.h>

/* -- slices ------------------------------------------------------------------------------------ */

static int cmp_material(const void *x, const void *y)
{
    const EgdbSlice *a = x, *b = y;
    int ta = a->men + a->kings + a->opp_men + a->opp_kings;
    int tb = b->men + b->kings + b->opp_men + b->opp_kings;
    if (ta != tb)
        return ta - tb;
    int ma = a->men + a->opp_men, mb = b->men + b->opp_men;
    if (ma != mb)
        return ma - mb;
    int ka = ((a->men * 8 + a->kings) * 8 + a->opp_men) * 8 + a->opp_kings;
    int kb = ((b->men * 8 + b->kings) * 8 + b->opp_men) * 8 + b->opp_kings;
    return ka - kb;
}

static uint64_t slice_size(const Egdb *eg, int a, int b, int c, int d)
{
    int n = eg->squares, m = eg->men_squares;
    if (a > m || c > m || a + b + c + d > n)
        return 0;
    return eg->binom[m][a] * eg->binom[m][c] * eg->binom[n - a - c][b] *
           eg->binom[n - a - c - b][d];
}

int egdb_init(Egdb *eg, const CoreRules *r, int max_pieces)
{
    memset(eg, 0, sizeof *eg);
    if (max_pieces < 2 || max_pieces > EGDB_MAX_PIECES)
        return -1;
    eg->rules = *r;
    eg->max_pieces = max_pieces;
    eg->squares = r->squares;
    eg->men_squares = r->squares - r->half;
    for (int n = 0; n <= CORE_MAX_BITS; n++) {
        eg->binom[n][0] = 1;
        for (int k = 1; k <= EGDB_MAX_PIECES; k++)
            eg->binom[n][k] = n == 0 ? 0 : eg->binom[n - 1][k - 1] + eg->binom[n - 1][k];
    }
    for (int g = 0; g < CORE_MAX_BITS; g++)
        eg->square_of[g] = -1;
    int sq = 0;
    for (int g = 0; g < CORE_MAX_BITS; g++)
        if (r->valid & CORE_BIT(g)) {
            eg->bit_of[sq] = g;
            eg->square_of[g] = sq++;
        }
    for (int side = 0; side < 2; side++) {
        int k = 0;
        for (int s = 0; s < eg->squares; s++) {
            eg->men_index[side][s] = -1;
            if (r->promo[side] & CORE_BIT(eg->bit_of[s]))
                continue;
            eg->men_index[side][s] = k;
            eg->men_square[side][k++] = s;
        }
    }
    memset(eg->slice_of, -1, sizeof eg->slice_of);
    /* Where a king's moves in a row are limited while its side has men, a position with men is
     * won or not by the kings' runs, which the index has not; kings alone have no runs, so their
     * slices (closed under moves: a capture leaves kings alone) are exact.  Where the first
     * king wins, no position with a king is played on: the slices hold men alone. */
    int kings_only = r->king_move_limit != 0;
    int men_only = r->goal == CORE_GOAL_FIRST_KING;
    int cap = 0;
    for (int a = 0; a <= max_pieces; a++)
        for (int b = 0; a + b <= max_pieces; b++)
            for (int c = 0; a + b + c <= max_pieces; c++)
                for (int d = 0; a + b + c + d <= max_pieces; d++)
                    if (a + b > 0 && c + d > 0)
                        cap++;
    eg->slices = calloc((size_t)cap, sizeof *eg->slices);
    if (!eg->slices)
        return -1;
    for (int a = 0; a <= max_pieces; a++)
        for (int b = 0; a + b <= max_pieces; b++)
            for (int c = 0; a + b + c <= max_pieces; c++)
                for (int d = 0; a + b + c + d <= max_pieces; d++) {
                    if (a + b == 0 || c + d == 0 || slice_size(eg, a, b, c, d) == 0 ||
                        (kings_only && a + c > 0) || (men_only && b + d > 0))
                        continue;
                    EgdbSlice *s = &eg->slices[eg->nslices++];
                    s->men = a;
                    s->kings = b;
                    s->opp_men = c;
                    s->opp_kings = d;
                }
    qsort(eg->slices, (size_t)eg->nslices, sizeof *eg->slices, cmp_material);
    uint64_t offset = 0;
    for (int i = 0; i < eg->nslices; i++) {
        EgdbSlice *s = &eg->slices[i];
        eg->slice_of[s->men][s->kings][s->opp_men][s->opp_kings] = (int16_t)i;
        s->size = slice_size(eg, s->men, s->kings, s->opp_men, s->opp_kings);
        s->offset = offset;
        offset += (s->size + 3) & ~(uint64_t)3; /* each slice starts on a byte */
    }
    for (int i = 0; i < eg->nslices; i++) {
        EgdbSlice *s = &eg->slices[i];
        s->mirror = eg->slice_of[s->opp_men][s->opp_kings][s->men][s->kings];
    }
    eg->total = offset;
    return 0;
}

void egdb_free(Egdb *eg)
{
    if (eg->owns_data)
        free(eg->data);
    free(eg->dist[0]);
    free(eg->dist[1]);
    eg->dist[0] = eg->dist[1] = NULL;
    eg->dist_slice = 0;
    free(eg->slices);
    eg->data = NULL;
    eg->slices = NULL;
}

uint64_t egdb_bytes(const Egdb *eg) { return eg->total / 4; }

void egdb_attach(Egdb *eg, uint8_t *data)
{
    eg->dist_slice = 0; /* distances are of the old values */
    if (eg->owns_data)
        free(eg->data);
    eg->data = data;
    eg->owns_data = 0;
    eg->solved = 1;
}

/* -- indexing ---------------------------------------------------------------------------------- */

/* Square indices of a bitboard, rotated by 180 degrees if `turn`; ascending; the count. */
static int squares_of(const Egdb *eg, core_bb b, int turn, int *out)
{
    int n = 0;
    for (; b; b &= b - 1) {
        int s = eg->square_of[core_lowest(b)];
        out[n++] = turn ? eg->squares - 1 - s : s;
    }
    if (turn) /* rotation reverses the order */
        for (int i = 0; i < n / 2; i++) {
            int t = out[i];
            out[i] = out[n - 1 - i];
            out[n - 1 - i] = t;
        }
    return n;
}

static uint64_t colex(const Egdb *eg, const int *xs, int k)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++)
        r += eg->binom[xs[i]][i + 1];
    return r;
}

/* The k-subset of {0..n-1} with colex rank r, ascending. */
static void uncolex(const Egdb *eg, uint64_t r, int k, int n, int *xs)
{
    int x = n - 1;
    for (int i = k - 1; i >= 0; i--) {
        while (eg->binom[x][i + 1] > r)
            x--;
        xs[i] = x;
        r -= eg->binom[x][i + 1];
        x--;
    }
}

/* Rank of squares among those not in `occupied` (a mask of square indices: a core_bb, as wide
 * as the board has squares). */
static void compress(const int *xs, int k, core_bb occupied, int *out)
{
    for (int i = 0; i < k; i++)
        out[i] = xs[i] - core_popcount(occupied & ((CORE_BIT(xs[i])) - 1));
}

/* The square of free rank j (squares of `occupied` skipped). */
static int expand(int j, core_bb occupied)
{
    int s = 0;
    for (;;) {
        if (!(occupied & CORE_BIT(s))) {
            if (j == 0)
                return s;
            j--;
        }
        s++;
    }
}

int egdb_locate(const Egdb *eg, const CorePos *p, int *slice, uint64_t *index)
{
    int a = core_popcount(p->men), b = core_popcount(p->kings), c = core_popcount(p->opp_men),
        d = core_popcount(p->opp_kings);
    int mp = eg->max_pieces;
    if (a + b == 0 || c + d == 0 || a + b + c + d > mp)
        return -1;
    int i = eg->slice_of[a][b][c][d];
    if (i < 0)
        return -1;
    int turn = p->side;
    int om[EGDB_MAX_PIECES], ok[EGDB_MAX_PIECES], tm[EGDB_MAX_PIECES], tk[EGDB_MAX_PIECES];
    int x[EGDB_MAX_PIECES];
    squares_of(eg, p->men, turn, om);
    squares_of(eg, p->kings, turn, ok);
    squares_of(eg, p->opp_men, turn, tm);
    squares_of(eg, p->opp_kings, turn, tk);
    core_bb occupied = 0;
    for (int j = 0; j < a; j++) {
        x[j] = eg->men_index[0][om[j]];
        if (x[j] < 0)
            return -1;
        occupied |= CORE_BIT(om[j]);
    }
    uint64_t r1 = colex(eg, x, a);
    for (int j = 0; j < c; j++) {
        x[j] = eg->men_index[1][tm[j]];
        if (x[j] < 0)
            return -1;
        occupied |= CORE_BIT(tm[j]);
    }
    uint64_t r2 = colex(eg, x, c);
    compress(ok, b, occupied, x);
    uint64_t r3 = colex(eg, x, b);
    for (int j = 0; j < b; j++)
        occupied |= CORE_BIT(ok[j]);
    compress(tk, d, occupied, x);
    uint64_t r4 = colex(eg, x, d);
    int n = eg->squares, m = eg->men_squares;
    *slice = i;
    *index = ((r1 * eg->binom[m][c] + r2) * eg->binom[n - a - c][b] + r3) *
                 eg->binom[n - a - c - b][d] +
             r4;
    return 0;
}

int egdb_position(const Egdb *eg, int slice, uint64_t index, CorePos *p)
{
    const EgdbSlice *s = &eg->slices[slice];
    int a = s->men, b = s->kings, c = s->opp_men, d = s->opp_kings;
    int n = eg->squares, m = eg->men_squares;
    uint64_t c4 = eg->binom[n - a - c - b][d], c3 = eg->binom[n - a - c][b], c2 = eg->binom[m][c];
    uint64_t r4 = index % c4;
    index /= c4;
    uint64_t r3 = index % c3;
    index /= c3;
    uint64_t r2 = index % c2;
    uint64_t r1 = index / c2;
    int x[EGDB_MAX_PIECES];
    core_bb occupied = 0;
    memset(p, 0, sizeof *p);
    uncolex(eg, r1, a, m, x);
    for (int j = 0; j < a; j++) {
        int sq = eg->men_square[0][x[j]];
        occupied |= CORE_BIT(sq);
        p->men |= CORE_BIT(eg->bit_of[sq]);
    }
    uncolex(eg, r2, c, m, x);
    for (int j = 0; j < c; j++) {
        int sq = eg->men_square[1][x[j]];
        if (occupied & CORE_BIT(sq))
            return 0;
        occupied |= CORE_BIT(sq);
        p->opp_men |= CORE_BIT(eg->bit_of[sq]);
    }
    uncolex(eg, r3, b, n - a - c, x);
    core_bb kings = 0;
    for (int j = 0; j < b; j++) {
        int sq = expand(x[j], occupied);
        kings |= CORE_BIT(sq);
        p->kings |= CORE_BIT(eg->bit_of[sq]);
    }
    occupied |= kings;
    uncolex(eg, r4, d, n - a - c - b, x);
    for (int j = 0; j < d; j++)
        p->opp_kings |= CORE_BIT(eg->bit_of[expand(x[j], occupied)]);
    p->side = 0;
    return 1;
}

int egdb_probe(const Egdb *eg, const CorePos *p, int *slice)
{
    *slice = -1;
    if (!(p->men | p->kings)) /* no piece: lost, or won where the goal is to give all away */
        return eg->rules.goal == CORE_GOAL_GIVE_AWAY ? EGDB_WIN : EGDB_LOSS;
    if (eg->rules.goal == CORE_GOAL_FIRST_KING && p->opp_kings)
        return EGDB_LOSS; /* the opponent has just crowned: the game is over */
    uint64_t index;
    if (!eg->data || egdb_locate(eg, p, slice, &index) < 0) {
        *slice = -1;
        return EGDB_UNKNOWN;
    }
    return egdb_get(eg, eg->slices[*slice].offset + index);
}

/* -- what the search may believe --------------------------------------------------------------- */

/* Whether material (m, k) of one side can become (m2, k2) by captures and crownings. */
static int can_become(int m, int k, int m2, int k2) { return m2 <= m && m2 + k2 <= m + k; }

static int reaches(const EgdbSlice *a, const EgdbSlice *b)
{
    return (can_become(a->men, a->kings, b->men, b->kings) &&
            can_become(a->opp_men, a->opp_kings, b->opp_men, b->opp_kings)) ||
           (can_become(a->men, a->kings, b->opp_men, b->opp_kings) &&
            can_become(a->opp_men, a->opp_kings, b->men, b->kings));
}

void egdb_set_policy(Egdb *eg, const uint8_t *counted, int quiet_limit)
{
    for (int i = 0; i < eg->nslices; i++) {
        EgdbSlice *s = &eg->slices[i];
        int trusted = !counted[i] && !counted[s->mirror];
        for (int j = 0; j < eg->nslices && trusted; j++) {
            if (j == i || j == s->mirror || !reaches(s, &eg->slices[j]))
                continue;
            if (counted[j] || (quiet_limit > 0 && eg->slices[j].dtc >= quiet_limit))
                trusted = 0;
        }
        s->trusted = trusted;
    }
}
