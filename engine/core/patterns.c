/* The learned evaluation: see patterns.h. */
#include "patterns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char MAGIC[8] = {'D', 'R', 'L', 'E', 'A', 'R', 'N', '\0'};

/* The playing square at (row, column), counted from 0 in PDN order: a dark square on either
 * diagonal layout, any square on the orthogonal board. */
static int square_at(const CoreRules *r, int row, int column)
{
    return row * r->half + (r->orthogonal ? column : column / 2);
}

/* Its internal bit (core.h). */
static int bit_of(const CoreRules *r, int row, int column)
{
    return core_index_of(r, square_at(r, row, column) + 1);
}

/* Whether (row, column) is a playing square: every square on the orthogonal board. */
static int plays(const CoreRules *r, int row, int column)
{
    int dark = r->mirrored ? 0 : 1; /* (row + column) % 2 of a diagonal board's playing square */
    return r->orthogonal || (row + column) % 2 == dark;
}

/* The next window, of four pairs: pair i holds the playing square (rows[i], columns[i]) and the
 * one `next` columns to its right, on the neighbouring bit.  White sees the board as it is: the
 * pair's lower bit is its left square.  Black sees it turned: the lower bit is the right one. */
static void add_window(CoreLayout *l, const CoreRules *r, const int rows[4], const int columns[4],
                       int next)
{
    int size = r->size, w = l->windows++;
    for (int i = 0; i < 4; i++) {
        l->window_pair[0][w][i] = (int8_t)bit_of(r, rows[i], columns[i]);
        l->window_pair[1][w][i] =
            (int8_t)bit_of(r, size - 1 - rows[i], size - 1 - (columns[i] + next));
    }
}

/* The windows of a diagonal board: 4x4 squares every 2 rows and 2 columns, two dark squares on
 * each of its rows (two columns apart). */
static void diagonal_windows(CoreLayout *l, const CoreRules *r)
{
    for (int r0 = 0; r0 + 4 <= r->size; r0 += 2) {
        for (int c0 = 0; c0 + 4 <= r->size; c0 += 2) {
            int rows[4], columns[4];
            for (int i = 0; i < 4; i++) {
                rows[i] = r0 + i;
                columns[i] = c0 + (plays(r, r0 + i, c0) ? 0 : 1);
            }
            add_window(l, r, rows, columns, 2);
        }
    }
}

/* The windows of an orthogonal board: 2 rows by 4 columns and 4 rows by 2 columns, every 2 rows
 * and 2 columns, so that pieces side by side along a row and along a column both meet in one
 * window (men there move forwards and sideways, and capture along both). */
static void orthogonal_windows(CoreLayout *l, const CoreRules *r)
{
    for (int r0 = 0; r0 + 2 <= r->size; r0 += 2) {
        for (int c0 = 0; c0 + 4 <= r->size; c0 += 2) {
            const int rows[4] = {r0, r0, r0 + 1, r0 + 1};
            const int columns[4] = {c0, c0 + 2, c0, c0 + 2};
            add_window(l, r, rows, columns, 1);
        }
    }
    for (int r0 = 0; r0 + 4 <= r->size; r0 += 2) {
        for (int c0 = 0; c0 + 2 <= r->size; c0 += 2) {
            const int rows[4] = {r0, r0 + 1, r0 + 2, r0 + 3};
            const int columns[4] = {c0, c0, c0, c0};
            add_window(l, r, rows, columns, 1);
        }
    }
}

void core_layout_init(CoreLayout *l, const CoreRules *r, int men_rows)
{
    int size = r->size;
    memset(l, 0, sizeof *l);
    l->size = size;
    l->start_pieces = 2 * men_rows * r->half;
    for (int d = 0; d < 4; d++) { /* the kings' steps: diagonal, or along rows and columns */
        l->step[d] = r->delta[d];
        l->step_from[d] = r->shift_from[d];
    }
    l->valid = r->valid;
    if (r->orthogonal)
        orthogonal_windows(l, r);
    else
        diagonal_windows(l, r);
    for (int x = 0; x < 256; x++) {
        int straight = 0, swapped = 0, power = 1;
        for (int k = 0; k < 8; k++, power *= 3) {
            straight += ((x >> k) & 1) * power;
            swapped += ((x >> (k ^ 1)) & 1) * power; /* the pair's two squares change places */
        }
        l->base3[0][x] = (uint16_t)straight;
        l->base3[1][x] = (uint16_t)swapped;
    }
    l->squares = r->squares;
    l->window_base = CORE_LEARNED_DENSE + l->squares;
    l->per_phase = l->window_base + l->windows * CORE_LEARNED_STATES;
    for (int row = 0; row < size; row++) {
        for (int column = 0; column < size; column++) {
            if (!plays(r, row, column))
                continue;
            int g = bit_of(r, row, column);
            l->to_crown[0][g] = (int8_t)row;
            l->to_crown[1][g] = (int8_t)(size - 1 - row);
            l->column2[0][g] = (int8_t)(2 * column - (size - 1));
            l->column2[1][g] = (int8_t)(-l->column2[0][g]);
            /* Black's view is the board turned half a turn: its square k is White's n - 1 - k. */
            int square = square_at(r, row, column);
            l->king_square[0][g] = (int8_t)square;
            l->king_square[1][g] = (int8_t)(r->squares - 1 - square);
            for (int row2 = 0; row2 < size; row2++) {
                for (int column2 = 0; column2 < size; column2++) {
                    if (!plays(r, row2, column2))
                        continue;
                    int spread = abs(column2 - column);
                    if (row2 < row && spread <= row - row2)
                        l->cone[0][g] |= CORE_BIT(bit_of(r, row2, column2));
                    if (row2 > row && spread <= row2 - row)
                        l->cone[1][g] |= CORE_BIT(bit_of(r, row2, column2));
                }
            }
            if (row == size - 1)
                l->home[0] |= CORE_BIT(g);
            if (row == 0)
                l->home[1] |= CORE_BIT(g);
        }
    }
}

/* The empty squares next to the kings, counted once per king and direction. */
static int king_mobility(const CoreLayout *l, core_bb kings, core_bb empty)
{
    int mobility = 0;
    for (int d = 0; kings && d < 4; d++) {
        core_bb from = kings & l->step_from[d];
        int step = l->step[d];
        mobility += core_popcount((step > 0 ? from << step : from >> -step) & empty);
    }
    return mobility;
}

/* Runaway men of one side by distance bucket (into run[3]), how far its men lean to one wing
 * (into *lean) and their rows advanced (returned). */
static int men_terms(const CoreLayout *l, int side, core_bb men, core_bb enemies, int sign,
                     int *run, int *lean)
{
    int tempo = 0, skew = 0;
    while (men) {
        int g = core_lowest(men);
        men &= men - 1;
        int to_crown = l->to_crown[side][g];
        tempo += l->size - 1 - to_crown;
        skew += l->column2[side][g];
        if (!(l->cone[side][g] & enemies))
            run[to_crown <= 2 ? 0 : to_crown <= 4 ? 1 : 2] += sign;
    }
    *lean += sign * abs(skew);
    return tempo;
}

static void king_terms(const CoreLayout *l, int side, core_bb kings, int sign, CoreFeatures *f)
{
    while (kings) {
        int g = core_lowest(kings);
        kings &= kings - 1;
        f->king_at[f->kings] = CORE_LEARNED_DENSE + l->king_square[side][g];
        f->king_sign[f->kings++] = sign;
    }
}

void core_learned_features(const CoreLayout *l, const CorePos *p, CoreFeatures *f)
{
    int side = p->side, other = side ^ 1;
    core_bb om = p->men, ok = p->kings, tm = p->opp_men, tk = p->opp_kings;
    const uint16_t *base3 = l->base3[side];
    for (int w = 0; w < l->windows; w++) {
        const int8_t *low = l->window_pair[side][w];
        unsigned own = 0, theirs = 0;
        for (int i = 0; i < 4; i++) {
            own |= (unsigned)((om >> low[i]) & 3) << (2 * i);
            theirs |= (unsigned)((tm >> low[i]) & 3) << (2 * i);
        }
        f->window[w] = base3[own] + 2 * base3[theirs];
    }
    int run[3] = {0, 0, 0}, lean = 0;
    int *dense = f->dense;
    dense[CORE_F_BIAS] = 1;
    dense[CORE_F_MEN] = core_popcount(om) - core_popcount(tm);
    dense[CORE_F_KINGS] = core_popcount(ok) - core_popcount(tk);
    dense[CORE_F_LONE_KING] = (ok && !tk) - (tk && !ok);
    dense[CORE_F_TEMPO] = men_terms(l, side, om, tm | tk, 1, run, &lean) -
                          men_terms(l, other, tm, om | ok, -1, run, &lean);
    dense[CORE_F_RUN_NEAR] = run[0];
    dense[CORE_F_RUN_MID] = run[1];
    dense[CORE_F_RUN_FAR] = run[2];
    dense[CORE_F_HOME] = core_popcount(om & l->home[side]) - core_popcount(tm & l->home[other]);
    core_bb empty = l->valid & ~(om | ok | tm | tk);
    dense[CORE_F_KING_MOBILITY] = king_mobility(l, ok, empty) - king_mobility(l, tk, empty);
    dense[CORE_F_BALANCE] = lean;
    f->kings = 0;
    king_terms(l, side, ok, 1, f);
    king_terms(l, other, tk, -1, f);
    int total = core_popcount(om | ok | tm | tk);
    f->phase = total < l->start_pieces ? total : l->start_pieces;
}

int core_learned_eval(const CoreLearned *w, const CorePos *p)
{
    const CoreLayout *l = &w->layout;
    CoreFeatures f;
    core_learned_features(l, p, &f);
    const int16_t *open = w->weights, *end = w->weights + l->per_phase;
    int sum_open = 0, sum_end = 0;
    for (int d = 0; d < CORE_LEARNED_DENSE; d++) {
        sum_open += open[d] * f.dense[d];
        sum_end += end[d] * f.dense[d];
    }
    for (int k = 0; k < f.kings; k++) {
        sum_open += open[f.king_at[k]] * f.king_sign[k];
        sum_end += end[f.king_at[k]] * f.king_sign[k];
    }
    for (int k = 0; k < l->windows; k++) {
        int at = l->window_base + k * CORE_LEARNED_STATES + f.window[k];
        sum_open += open[at];
        sum_end += end[at];
    }
    int blended = (sum_open * f.phase + sum_end * (l->start_pieces - f.phase)) / l->start_pieces;
    return blended / CORE_LEARNED_UNIT;
}

/* -- the weight file --------------------------------------------------------------------------- */

static uint32_t read_u32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t fnv1a(const unsigned char *b, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 16777619u;
    }
    return h;
}

int core_learned_load(CoreLearned *out, const CoreRules *r, int men_rows, const unsigned char *data,
                      size_t len, const char **error)
{
    CoreLayout layout;
    core_layout_init(&layout, r, men_rows);
    if (len < CORE_LEARNED_HEADER || memcmp(data, MAGIC, sizeof MAGIC) != 0) {
        *error = "not a learned-evaluation weight file (bad magic)";
        return -1;
    }
    if (read_u32(data + 8) != CORE_LEARNED_VERSION) {
        *error = "unsupported weight file version";
        return -1;
    }
    if ((int)read_u32(data + 12) != r->size || (int)read_u32(data + 16) != r->flying_kings) {
        *error = "the weight file is for another variant family (board size or kings)";
        return -1;
    }
    uint32_t count = read_u32(data + 28);
    if ((int)read_u32(data + 20) != layout.windows ||
        read_u32(data + 24) != CORE_LEARNED_DENSE || count != 2u * (uint32_t)layout.per_phase) {
        *error = "the weight file's shape does not match this board's features";
        return -1;
    }
    if (read_u32(data + 32) != CORE_LEARNED_UNIT) {
        *error = "the weight file's unit is not the one this engine reads";
        return -1;
    }
    if (len != CORE_LEARNED_HEADER + 2 * (size_t)count) {
        *error = "the weight file is truncated or too long";
        return -1;
    }
    const unsigned char *body = data + CORE_LEARNED_HEADER;
    if (fnv1a(body, 2 * (size_t)count) != read_u32(data + 36)) {
        *error = "the weight file's checksum does not match its weights (corrupt)";
        return -1;
    }
    int16_t *weights = malloc(2 * (size_t)count);
    if (!weights) {
        *error = "out of memory";
        return -1;
    }
    for (uint32_t i = 0; i < count; i++)
        weights[i] = (int16_t)(uint16_t)(body[2 * i] | body[2 * i + 1] << 8);
    core_learned_free(out);
    out->layout = layout;
    out->flying = r->flying_kings;
    out->weights = weights;
    return 0;
}

void core_learned_free(CoreLearned *w)
{
    free(w->weights);
    w->weights = NULL;
}

/* -- training ------------------------------------------------------------------------------------ */

/* A sample's board from its halves (patterns.h): low | high << 64 where core_bb holds 128
 * bits; -1 where it holds 64 and the high half is not zero. */
static int sample_board(const uint64_t half[2], core_bb *out)
{
#ifdef CORE_WIDE
    *out = (core_bb)half[1] << 64 | (core_bb)half[0];
    return 0;
#else
    *out = half[0];
    return half[1] ? -1 : 0;
#endif
}

int core_sample_pos(const CoreSample *s, CorePos *p)
{
    int status = sample_board(s->men, &p->men) | sample_board(s->kings, &p->kings) |
                 sample_board(s->opp_men, &p->opp_men) | sample_board(s->opp_kings, &p->opp_kings);
    p->side = s->side;
    p->runs = 0;
    return status;
}

/* The floating score of p and its features (the window weights' offsets in f->window). */
static double float_eval(const CoreLayout *l, const CorePos *p, const double *weights,
                         CoreFeatures *f, double *phi)
{
    core_learned_features(l, p, f);
    *phi = (double)f->phase / l->start_pieces;
    const double *open = weights, *end = weights + l->per_phase;
    double so = 0, se = 0;
    for (int d = 0; d < CORE_LEARNED_DENSE; d++) {
        so += open[d] * f->dense[d];
        se += end[d] * f->dense[d];
    }
    for (int k = 0; k < f->kings; k++) {
        so += open[f->king_at[k]] * f->king_sign[k];
        se += end[f->king_at[k]] * f->king_sign[k];
    }
    for (int k = 0; k < l->windows; k++) {
        f->window[k] += l->window_base + k * CORE_LEARNED_STATES;
        so += open[f->window[k]];
        se += end[f->window[k]];
    }
    return so * *phi + se * (1 - *phi);
}

static double cross_entropy(double z, double t)
{
    double softplus = (z > 0 ? z : 0) + log1p(exp(-fabs(z)));
    return softplus - t * z;
}

double core_learned_loss(const CoreLayout *l, const CoreSample *data, size_t n,
                         const double *weights, double scale)
{
    double total = 0;
    CoreFeatures f;
    for (size_t i = 0; i < n; i++) {
        CorePos p;
        double phi;
        (void)core_sample_pos(&data[i], &p); /* checked (learned_module.c) */
        double e = float_eval(l, &p, weights, &f, &phi);
        total += cross_entropy(e / scale, data[i].target);
    }
    return n ? total / (double)n : 0.0;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* The weights one batch moves: their gradients, and which ones were touched (once each). */
typedef struct {
    double *grad;
    unsigned char *seen;
    size_t *touched, count;
} Batch;

static void add_gradient(Batch *b, size_t j, double g)
{
    b->grad[j] += g;
    if (!b->seen[j]) {
        b->seen[j] = 1;
        b->touched[b->count++] = j;
    }
}

double core_learned_train(const CoreLayout *l, const CoreSample *data, size_t n, double *weights,
                          double *m, double *v, long long *step, int epochs, int batch, double lr,
                          double l2, double scale, uint64_t seed)
{
    size_t count = 2 * (size_t)l->per_phase;
    Batch b = {calloc(count, sizeof(double)), calloc(count, 1), NULL, 0};
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    /* Per position and phase: the dense terms, every king at most, every window. */
    size_t per_position = 2 * (CORE_LEARNED_DENSE + CORE_MAX_BITS + CORE_LEARNED_MAX_WINDOWS);
    b.touched = malloc(((size_t)batch * per_position + 1) * sizeof *b.touched);
    double *grad = b.grad;
    double loss = -1;
    if (!b.grad || !b.seen || !order || !b.touched)
        goto done;
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (int epoch = 0; epoch < epochs; epoch++) {
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)(next_random(&state) % i);
            size_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        double total = 0;
        for (size_t start = 0; start < n; start += (size_t)batch) {
            size_t stop = start + (size_t)batch < n ? start + (size_t)batch : n;
            b.count = 0;
            for (size_t i = start; i < stop; i++) {
                const CoreSample *s = &data[order[i]];
                CorePos p;
                CoreFeatures f;
                double phi;
                (void)core_sample_pos(s, &p); /* the samples were checked (learned_module.c) */
                double z = float_eval(l, &p, weights, &f, &phi) / scale;
                total += cross_entropy(z, s->target);
                double g = (1.0 / (1.0 + exp(-z)) - s->target) / scale / (double)(stop - start);
                for (int phase = 0; phase < 2; phase++) {
                    double share = g * (phase == 0 ? phi : 1 - phi);
                    size_t base = phase == 0 ? 0 : (size_t)l->per_phase;
                    for (int d = 0; d < CORE_LEARNED_DENSE; d++)
                        add_gradient(&b, base + (size_t)d, share * f.dense[d]);
                    for (int k = 0; k < f.kings; k++)
                        add_gradient(&b, base + (size_t)f.king_at[k], share * f.king_sign[k]);
                    for (int k = 0; k < l->windows; k++)
                        add_gradient(&b, base + (size_t)f.window[k], share);
                }
            }
            *step += 1;
            double c1 = 1 - pow(b1, (double)*step), c2 = 1 - pow(b2, (double)*step);
            for (size_t t = 0; t < b.count; t++) {
                size_t j = b.touched[t];
                double g = grad[j];
                if (j % (size_t)l->per_phase >= CORE_LEARNED_DENSE)
                    g += l2 * weights[j];
                m[j] = b1 * m[j] + (1 - b1) * g;
                v[j] = b2 * v[j] + (1 - b2) * g * g;
                weights[j] -= lr * (m[j] / c1) / (sqrt(v[j] / c2) + eps);
                grad[j] = 0;
                b.seen[j] = 0;
            }
        }
        loss = n ? total / (double)n : 0.0;
    }
done:
    free(b.grad);
    free(b.seen);
    free(order);
    free(b.touched);
    return loss;
}
