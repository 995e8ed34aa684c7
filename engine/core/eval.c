/* Static evaluation: see eval.h.  The tables are built exactly as
 * engine/reference/evaluate.py builds its own (same formulas, same truncation), so the two
 * evaluations agree on every position; the tests compare them. */
#include "eval.h"

#include <math.h>

#define MAN 100

static int king_value(const CoreRules *r)
{
    if (!r->flying_kings)
        return 150;
    return r->size >= 10 ? 300 : 250;
}

void core_eval_init(CoreEval *e, const CoreRules *r, int men_rows)
{
    int size = r->size, half = r->half;
    double centre = (size - 1) / 2.0;
    e->king_value = king_value(r);
    e->flying = r->flying_kings;
    e->start_pieces = 2 * men_rows * half;
    e->mobility = r->flying_kings ? 2 : 3;
    for (int d = 0; d < 4; d++) {
        e->delta[d] = r->delta[d];
        e->shift_from[d] = r->shift_from[d];
    }
    e->valid = r->valid;
    e->give_away = r->goal == CORE_GOAL_GIVE_AWAY;
    e->learned.weights = NULL;
    e->use_learned = 0;
    for (int side = 0; side < 2; side++) {
        for (int g = 0; g < CORE_MAX_BITS; g++) {
            e->men_middle[side][g] = e->men_end[side][g] = e->kings[side][g] = 0;
        }
        for (int s = 1; s <= r->squares; s++) {
            int g = core_index_of(r, s);
            int row = (s - 1) / half;
            int column = core_column_of(r, s);
            int advanced = side == 0 ? size - 1 - row : row;
            int to_crown = size - 1 - advanced;
            int run = to_crown == 1 ? 50 : to_crown == 2 ? 25 : to_crown == 3 ? 10 : 0;
            double central = 1.0 - (fabs(column - centre) + fabs(row - centre)) / (2 * centre);
            int edge = column == 0 || column == size - 1;
            int home_guard = advanced == 0 ? 12 : 0;
            e->men_middle[side][g] =
                (int16_t)(MAN + 3 * advanced + run / 2 + home_guard + 10 * central - 4 * edge);
            e->men_end[side][g] = (int16_t)(MAN + 6 * advanced + run + 4 * central - 2 * edge);
            e->kings[side][g] = (int16_t)(e->king_value + 20 * central - (edge ? 8 : 0));
        }
    }
}

static int table_sum(const int16_t *table, core_bb b)
{
    int total = 0;
    while (b) {
        total += table[core_lowest(b)];
        b &= b - 1;
    }
    return total;
}

/* Squares the kings can step to: one shift per direction, through the direction's source mask
 * (core.h), counted per king and direction. */
static int king_mobility(const CoreEval *e, core_bb kings, core_bb empty)
{
    if (!kings)
        return 0;
    int total = 0;
    for (int d = 0; d < 4; d++) {
        int k = e->delta[d];
        core_bb from = kings & e->shift_from[d];
        total += core_popcount((k >= 0 ? from << k : from >> -k) & empty);
    }
    return total;
}

/* Python's floor division, for the blend and the trade-down bonus (which can be negative). */
static int floor_div(int a, int b)
{
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q -= 1;
    return q;
}

int core_evaluate(const CoreEval *e, const CorePos *p)
{
    if (e->use_learned && e->learned.weights && (p->men | p->opp_men))
        return core_learned_eval(&e->learned, p);
    return core_classic_evaluate(e, p);
}

/* The classic evaluation for the standard goal. */
static int standard_evaluate(const CoreEval *e, const CorePos *p)
{
    int side = p->side, other = side ^ 1;
    core_bb om = p->men, ok = p->kings, tm = p->opp_men, tk = p->opp_kings;
    int own = core_popcount(om | ok), theirs = core_popcount(tm | tk);
    int total = own + theirs;
    int phase = total < e->start_pieces ? total : e->start_pieces;
    int rest = e->start_pieces - phase;
    int middle = table_sum(e->men_middle[side], om) - table_sum(e->men_middle[other], tm);
    int end = table_sum(e->men_end[side], om) - table_sum(e->men_end[other], tm);
    int score = floor_div(middle * phase + end * rest, e->start_pieces);
    score += table_sum(e->kings[side], ok) - table_sum(e->kings[other], tk);
    core_bb empty = e->valid & ~(om | ok | tm | tk);
    score += e->mobility * (king_mobility(e, ok, empty) - king_mobility(e, tk, empty));
    int material = MAN * (core_popcount(om) - core_popcount(tm)) +
                   e->king_value * (core_popcount(ok) - core_popcount(tk));
    if (material)
        score += floor_div(material * (e->start_pieces - total), 3 * e->start_pieces);
    if (om || tm)
        return score;
    if (own == theirs)
        return floor_div(score, 4);
    int least = own < theirs ? own : theirs, most = own < theirs ? theirs : own;
    if (e->flying && least == 1 && most <= 3)
        return floor_div(score, 8);
    return score;
}

int core_classic_evaluate(const CoreEval *e, const CorePos *p)
{
    int score = standard_evaluate(e, p);
    /* Giving away, what the standard goal values is what the player must lose:
     * material above all, so the same terms count against the side that has them. */
    return e->give_away ? -score : score;
}
