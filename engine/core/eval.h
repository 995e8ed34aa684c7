/* Static evaluation in C, in hundredths of a man from the side to move's point of view.
 *
 * The same terms as engine/reference/evaluate.py (material, advancement with a run bonus near
 * the crowning row, home-row guard, centre and edge, king mobility, trading down when ahead,
 * drawish endings), with the same weights, so the native engine starts from the judgement the
 * Python engine had; the per-square terms are plain tables indexed by bit.
 */
#ifndef DRAUGHTS_EVAL_H
#define DRAUGHTS_EVAL_H

#include "core.h"
#include "patterns.h"

typedef struct {
    int16_t men_middle[2][CORE_MAX_BITS]; /* per side (0 White, 1 Black), per internal bit */
    int16_t men_end[2][CORE_MAX_BITS];
    int16_t kings[2][CORE_MAX_BITS];
    int king_value;
    int flying;
    int start_pieces;
    int mobility;
    int delta[4];          /* the rules' neighbour offset per direction (core.h) */
    core_bb shift_from[4]; /* and the squares a shift that way may start from */
    core_bb valid;
    int give_away; /* the goal is reversed: the terms count the other way */
    /* The learned evaluation (patterns.h), used instead when weights are loaded and use_learned
     * is set, for positions with men on the board; core_eval_init leaves it off. */
    CoreLearned learned;
    int use_learned;
} CoreEval;

void core_eval_init(CoreEval *e, const CoreRules *r, int men_rows);

/* The evaluation the search calls: the learned one if it is on, else the classic one. */
int core_evaluate(const CoreEval *e, const CorePos *p);

/* The classic evaluation alone (engine/reference/evaluate.py's, term for term). */
int core_classic_evaluate(const CoreEval *e, const CorePos *p);

#endif
