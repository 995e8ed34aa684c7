/* The learned evaluation: overlapping board regions ("patterns") of men plus a few counted terms,
 * weighted by numbers fitted on the engine's own games (tools/train_eval.py), per variant family.
 *
 * Everything is seen from the side to move: the board is turned half a turn when Black moves,
 * so the mover's men always walk towards oriented row 0 and the same weights serve both colours
 * (a position and its colour-flipped mirror have the same features, hence the same score).
 *
 * Features, each with two weights (opening and ending) blended by the pieces left, as the classic
 * evaluation blends its men tables:
 * - windows of 8 playing squares, overlapping: on a diagonal board 4x4 squares every 2 rows and
 *   2 columns (9 on 8x8, 16 on 10x10, 25 on 12x12); on the orthogonal board, where every square
 *   is played, 2 rows by 4 columns and 4 rows by 2 columns every 2 rows and 2 columns (24 on
 *   8x8).  Each window's men (empty or king / own man / their man per square) are one of
 *   3^8 = 6561 states, each state one weight;
 * - CORE_LEARNED_DENSE counted terms (own minus theirs): a constant (the move's worth), men,
 *   kings, a king against none, runaway men (nothing of the opponent's in the triangle ahead)
 *   by distance to the crowning row, tempo (rows advanced), men on the home row, king mobility,
 *   and balance (|the sum of the men's distances from the middle column, signed by wing|: men
 *   crowded on one wing are weaker, a classic of draughts play);
 * - where the kings stand: one weight per playing square, seen from the side to move (+1 for each
 *   own king there, -1 for each of theirs on the mirrored square), since the windows see kings
 *   as empty squares (version 2 of the file).
 * A position without men (kings only) is left to the classic evaluation and its drawn-ending
 * rules.
 *
 * One feature extractor serves play (core_learned_eval, integer weights from a file) and
 * training (core_learned_train, floating weights), so what is fitted is what is played.
 */
#ifndef DRAUGHTS_PATTERNS_H
#define DRAUGHTS_PATTERNS_H

#include <stddef.h>

#include "core.h"

#define CORE_LEARNED_VERSION 2
#define CORE_LEARNED_STATES 6561 /* 3^8 */
#define CORE_LEARNED_WINDOW 8    /* playing squares per window */
/* A window every 2 rows and 2 columns: (size / 2 - 1)² of them on a diagonal board (16 on
 * 10x10, 25 on 12x12), 2 x (size / 2) x (size / 2 - 1) on the orthogonal one (24 on 8x8). */
#define CORE_LEARNED_DIAGONAL_WINDOWS ((CORE_MAX_SIZE / 2 - 1) * (CORE_MAX_SIZE / 2 - 1))
#define CORE_LEARNED_ORTHOGONAL_WINDOWS                                                            \
    (2 * (CORE_MAX_ORTHOGONAL_SIZE / 2) * (CORE_MAX_ORTHOGONAL_SIZE / 2 - 1))
#define CORE_LEARNED_MAX_WINDOWS                                                                   \
    (CORE_LEARNED_DIAGONAL_WINDOWS > CORE_LEARNED_ORTHOGONAL_WINDOWS                               \
         ? CORE_LEARNED_DIAGONAL_WINDOWS                                                           \
         : CORE_LEARNED_ORTHOGONAL_WINDOWS)
#define CORE_LEARNED_DENSE 11
#define CORE_LEARNED_UNIT 8 /* stored weights are eighths of a centiman */
#define CORE_LEARNED_HEADER 40

enum {
    CORE_F_BIAS = 0,
    CORE_F_MEN,
    CORE_F_KINGS,
    CORE_F_LONE_KING,
    CORE_F_RUN_NEAR, /* 1-2 rows to the crowning row */
    CORE_F_RUN_MID,  /* 3-4 */
    CORE_F_RUN_FAR,  /* 5 or more */
    CORE_F_TEMPO,
    CORE_F_HOME,
    CORE_F_KING_MOBILITY,
    CORE_F_BALANCE /* how far each side's men lean to one wing (own minus theirs) */
};

typedef struct {
    int size, windows, start_pieces;
    int squares;   /* playing squares: the king-square weights, after the dense terms */
    int window_base; /* CORE_LEARNED_DENSE + squares: where the window weights start */
    int per_phase; /* weights per phase: window_base + windows * CORE_LEARNED_STATES */
    /* A window is four pairs of playing squares on neighbouring bits (two dark squares of a
     * row; two squares side by side on the orthogonal board): the lower bit of each pair (per
     * mover side), gathered into 8 bits that base3[side] turns into the state. */
    int8_t window_pair[2][CORE_LEARNED_MAX_WINDOWS][4];
    uint16_t base3[2][256];
    core_bb cone[2][CORE_MAX_BITS]; /* squares ahead of a man of each side (0 White) */
    int8_t to_crown[2][CORE_MAX_BITS];
    int8_t column2[2][CORE_MAX_BITS];     /* 2 x column - (size - 1), seen from each side */
    int8_t king_square[2][CORE_MAX_BITS]; /* the square's king weight, seen from each side */
    core_bb home[2];
    int step[4];          /* a king's four steps (core.h's first four directions), as shifts */
    core_bb step_from[4]; /* the squares with a neighbour each way */
    core_bb valid;
} CoreLayout;

typedef struct {
    CoreLayout layout;
    int flying;
    int16_t *weights; /* [2][per_phase]: opening, then ending */
} CoreLearned;

/* The features of a board of `r`'s size whose sides start with `men_rows` rows of men. */
void core_layout_init(CoreLayout *l, const CoreRules *r, int men_rows);

/* The features of one position.  phase: the pieces on the board capped at start_pieces
 * (start_pieces: the opening weights alone, 0: the ending weights alone). */
typedef struct {
    int phase;
    int window[CORE_LEARNED_MAX_WINDOWS]; /* each window's state */
    int dense[CORE_LEARNED_DENSE];
    int kings;                     /* entries in king_at and king_sign */
    int king_at[CORE_MAX_BITS];    /* where the kings' weights are within a phase */
    int king_sign[CORE_MAX_BITS];  /* +1 an own king, -1 one of theirs */
} CoreFeatures;

void core_learned_features(const CoreLayout *l, const CorePos *p, CoreFeatures *f);

/* The learned score of p in centimen from the mover's side (p must have men on the board). */
int core_learned_eval(const CoreLearned *w, const CorePos *p);

/* Check a weight file (see engine/learned.py for its layout) against the rules it is for and
 * load it into *out (weights allocated with malloc; core_learned_free releases them).  0, or -1
 * with *error naming what is wrong. */
int core_learned_load(CoreLearned *out, const CoreRules *r, int men_rows, const unsigned char *data,
                      size_t len, const char **error);
void core_learned_free(CoreLearned *w);

/* One training sample, as engine/training.py packs it ("<8Qfi", 72 bytes): each board as two
 * little-endian 64-bit halves, low then high.  One layout for both builds, so one packer and one
 * reader serve every board: the 12x12 board's 77 bits fit, and in the 64-bit build the high
 * halves are zero (learned_module.c refuses a sample whose boards this build cannot hold). */
typedef struct {
    uint64_t men[2], kings[2], opp_men[2], opp_kings[2];
    float target; /* the mover's expected score, 0 to 1 */
    int32_t side;
} CoreSample;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "training samples are little-endian records read in place"
#endif
_Static_assert(sizeof(CoreSample) == 72, "CoreSample is engine/training.py's SAMPLE, unpadded");

/* The position of sample s: 0, or -1 when a board has bits above this build's core_bb (a high
 * half in the 64-bit build); p is filled either way, with the low halves there. */
int core_sample_pos(const CoreSample *s, CorePos *p);

/* Mean cross-entropy of sigmoid(eval / scale) against the targets, with floating weights. */
double core_learned_loss(const CoreLayout *l, const CoreSample *data, size_t n,
                         const double *weights, double scale);

/* Epochs of mini-batch Adam (lazy: only the weights a batch touches move) with L2 on the
 * weights, over data in an order shuffled by `seed`; m, v and *step are Adam's state, kept by
 * the caller between calls.  Returns the mean loss seen during the last epoch. */
double core_learned_train(const CoreLayout *l, const CoreSample *data, size_t n, double *weights,
                          double *m, double *v, long long *step, int epochs, int batch, double lr,
                          double l2, double scale, uint64_t seed);

#endif
