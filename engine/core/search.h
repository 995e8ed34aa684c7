/* The search in C: iterative deepening principal-variation search over core_moves, with a
 * transposition table kept from move to move, aspiration windows, selectivity (late-move
 * reductions and pruning, futility pruning, ProbCut: selective.h), move ordering by killers,
 * counter-moves and history (ordering.h), internal iterative deepening, capture search at the horizon (captures are compulsory, so a position
 * with a capture pending is never evaluated), forced replies searched deeper, repetition and
 * no-progress draws, and a clock read every few thousand nodes.
 *
 * Nothing here touches Python: engine/core/search_module.c wraps a CoreSearch in a Python object
 * and releases the GIL while it searches.  Every move it returns is one of core_moves' moves, and
 * the Python side has the referee (rules) check it again before it is played.
 */
#ifndef DRAUGHTS_SEARCH_H
#define DRAUGHTS_SEARCH_H

#include "core.h"
#include "eval.h"

#define CORE_MATE 1000000
#define CORE_WIN_BOUND (CORE_MATE - 10000)
#define CORE_MAX_PLY 128
#define CORE_MAX_PV 64
#define CORE_MAX_PAST 512
#define CORE_REDUCTION_SIZE 64

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t depth;
    uint8_t flag;
    uint8_t age;
    uint8_t from, to; /* the best move's origin and destination bits (255: none) */
    uint8_t pad[2];
    uint32_t epoch; /* the searcher's epoch when stored: an entry of an earlier one is empty */
} CoreTTEntry;

typedef struct {
    int depth, score;
    int64_t nodes; /* nodes so far when the iteration ended */
    double seconds;
    CoreMove best;
} CoreIteration;

typedef struct {
    CoreMove best;
    int has_move;
    int score;        /* centimen from the mover's side; wins are near CORE_MATE */
    int depth;        /* last completed iteration */
    int64_t nodes;
    double seconds;
    int pv_len;
    CoreMove pv[CORE_MAX_PV];
    int iterations; /* completed iterations, each reported in iteration[] */
    CoreIteration iteration[CORE_MAX_PLY];
} CoreResult;

typedef struct {
    const CoreRules *rules;
    CoreEval eval;
    uint64_t zobrist[4][CORE_MAX_BITS]; /* white men, white kings, black men, black kings */
    uint64_t zobrist_black;             /* XORed in when Black is to move */
    /* The kings' runs (CorePos.runs): per side (White, Black) and run length 0..7, by the king's
     * internal bit, as rules.position.ZOBRIST_RUN (side * 8 + run). */
    uint64_t zobrist_run[2 * (CORE_MAX_KING_RUN + 1)][CORE_MAX_BITS];
    int quiet_limit;                    /* plies without progress that draw (0: none) */
    int man_moves_progress, crownings_progress;
    CoreTTEntry *tt;
    uint64_t tt_mask;
    uint32_t epoch; /* core_search_clear's count: entries of other epochs are not read */
    uint8_t age;
    /* Move ordering (ordering.h): killers per ply, history per side, origin and destination,
     * the counter-move per side and the opponent's previous move, and the move that led to
     * each ply (from, to bit indices; 255 at the root). */
    int killers[CORE_MAX_PLY + 8][2][2]; /* (from, to) bit indices per ply */
    int32_t history[2][CORE_MAX_BITS][CORE_MAX_BITS];
    uint8_t counter[2][CORE_MAX_BITS][CORE_MAX_BITS][2];
    uint8_t played[CORE_MAX_PLY + 8][2];
    uint64_t path[CORE_MAX_PLY + 8];
    uint64_t past[CORE_MAX_PAST];
    int past_len;
    int64_t nodes, node_limit;
    double deadline; /* monotonic seconds */
    int stopped;
    /* Selectivity (selective.h): the rules a timed search uses (CORE_SEL_* bits; all unless
     * core_search_set_selectivity says otherwise), those of the search under way (none when
     * exact: a fixed-depth search is a full alpha-beta search), and the reductions by depth
     * and move number. */
    int selectivity;
    int selective;
    uint8_t reduction[CORE_REDUCTION_SIZE][CORE_REDUCTION_SIZE];
    /* Endgame databases (egdb_search.h): the table or NULL, whether this search probes it (not
     * when exact), and the root's slice and its mirror when the root is a won or lost table
     * position (-1: none); the slice of a won root whose distances were not at hand
     * (egdb_search.h: the caller computes them for the next moves; -1: none). */
    const struct Egdb *egdb;
    int egdb_on;
    int egdb_skip[2];
    int egdb_wanted;
    uint64_t egdb_dist_max; /* the largest pair computed on the spot (CORE_EGDB_DIST_MAX) */
} CoreSearch;

/* Set up a searcher for `rules` with a table of about `hash_mb` megabytes; 0, or -1 when the
 * table cannot be allocated.  `men_rows` is the variant's rows of men at the start (the evaluation
 * blends by material left); `quiet_limit` and the two flags are the variant's no-progress rule
 * (rules.variants.NoProgressRule: plies, man_moves, crownings).  core_search_free releases the
 * table. */
int core_search_init(CoreSearch *s, const CoreRules *r, int men_rows, int hash_mb, int quiet_limit,
                     int man_moves_progress, int crownings_progress);
void core_search_free(CoreSearch *s);

/* Use these Zobrist tables (white men, white kings, black men, black kings, by internal bit) and
 * Black-to-move key: rules.position's, so core_key equals rules' Position.key and the game's
 * history can be handed over as it is.  Clears the table. */
void core_search_set_keys(CoreSearch *s, const uint64_t tables[4][CORE_MAX_BITS], uint64_t black);

/* Use these Zobrist tables of the kings' runs (rules.position.ZOBRIST_RUN: White's runs 0-7,
 * then Black's), so core_key equals Position.key where the rules keep runs.  Clears the table. */
void core_search_set_run_keys(CoreSearch *s,
                              const uint64_t tables[2 * (CORE_MAX_KING_RUN + 1)][CORE_MAX_BITS]);

/* The selectivity rules (selective.h's CORE_SEL_* bits) timed searches use from now on: all by
 * default; the tests turn each off to compare the search with and without it. */
void core_search_set_selectivity(CoreSearch *s, int rules);

/* Forget everything learnt (a new game, or a search that must depend on its position alone): in
 * constant time, by starting a new epoch of the table (its entries of earlier epochs read as
 * empty), not by writing the whole table (32 MB: several milliseconds a move). */
void core_search_clear(CoreSearch *s);

/* The Zobrist key of a position (the game's history is given to core_search as these keys). */
uint64_t core_key(const CoreSearch *s, const CorePos *p);

/* Search `root` (with `quiet` plies since the game's last progress move; `past` the keys of the
 * game's positions since then) for up to `max_depth` plies, `seconds` of wall time (<= 0: no
 * limit) and `node_limit` nodes (<= 0: no limit).  `exact`: no selectivity (no reductions
 * nor pruning: selective.h), so a fixed-depth search is a full alpha-beta search to that depth (the weaker levels and the tests
 * rely on exact scores).  Fills *out with the last completed iteration and a summary of each
 * (its move may be a better one an unfinished iteration proved); returns 0, or -1 when the root
 * has no legal move.  `seconds` is spent as timeman.c's core_keep_going decides: never beyond
 * it, and longer while the best move keeps changing. */
int core_search(CoreSearch *s, const CorePos *root, int quiet, const uint64_t *past, int past_len,
                int max_depth, double seconds, int64_t node_limit, int exact, CoreResult *out);

/* Every root move with its exact score at `depth` (the weaker levels pick among good moves):
 * scores[i] for moves[i]; returns the number of moves (at most `cap`). */
int core_root_scores(CoreSearch *s, const CorePos *root, int quiet, const uint64_t *past,
                     int past_len, int depth, CoreMove *moves, int *scores, int cap);

#endif
