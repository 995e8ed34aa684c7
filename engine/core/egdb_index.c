/* Endgame databases, indexing: where a position sits in its slice and back (see egdb.h).  The
 * index ranks (colex) the mover's men and the opponent's men, each among the squares men may
 * stand on, then the mover's kings and the opponent's kings, each among the squares still free;
 * all seen from the mover's side, the board turned half round when Black is to move. */
#include "egdb.h"

#include <string.h>

#define POPCOUNT(x) __builtin_popcountll(x)
#define LOWEST(x) __builtin_ctzll(x)

/* -- indexing ---------------------------------------------------------------------------------- */

/* Square indices of a bitboard, rotated by 180 degrees if `turn`; ascending; the count. */
static int squares_of(const Egdb *eg, core_bb b, int turn, int *out)
{
    int n = 0;
    for (; b; b &= b - 1) {
        int s = eg->square_of[LOWEST(b)];
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

/* Rank of squares among those not in `occupied` (a mask of square indices). */
static void compress(const int *xs, int k, uint64_t occupied, int *out)
{
    for (int i = 0; i < k; i++)
        out[i] = xs[i] - POPCOUNT(occupied & ((CORE_BIT(xs[i])) - 1));
}

/* The square of free rank j (squares of `occupied` skipped). */
static int expand(int j, uint64_t occupied)
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
    int a = POPCOUNT(p->men), b = POPCOUNT(p->kings), c = POPCOUNT(p->opp_men),
        d = POPCOUNT(p->opp_kings);
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
    uint64_t occupied = 0;
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
    uint64_t occupied = 0;
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
    uint64_t kings = 0;
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
    if (!(p->men | p->kings))
        return EGDB_LOSS;
    uint64_t index;
    if (!eg->data || egdb_locate(eg, p, slice, &index) < 0) {
        *slice = -1;
        return EGDB_UNKNOWN;
    }
    return egdb_get(eg, eg->slices[*slice].offset + index);
}
