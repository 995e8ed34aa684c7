/* Perft: a depth-first walk with one fixed move buffer per ply on the C stack, so a node costs
 * no allocation and no Python object; only a position with more than CORE_STACK_MOVES legal
 * moves borrows a heap buffer for its own ply. */
#include "perft.h"

#include <stdlib.h>

#include "movegen.h"

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

static int64_t walk_plain(const CoreRules *r, const CorePos *p, int depth);
static int64_t walk_runs(const CoreRules *r, const CorePos *p, int depth);
static int64_t walk_distinct(const CoreRules *r, const CorePos *p, int depth);

/* The moves of `p` into `stack` (CORE_STACK_MOVES of them) or, when there are more, a heap
 * buffer (the caller frees it when it is not `stack`; NULL when memory is short); one of each
 * path when `distinct`. */
static ALWAYS_INLINE CoreMove *moves_of(const CoreRules *r, const CorePos *p, CoreMove *stack,
                                        int *n, const int distinct)
{
    CoreMove *moves = stack;
    *n = core_moves(r, p, moves, CORE_STACK_MOVES);
    if (*n > CORE_STACK_MOVES) {
        moves = malloc((size_t)*n * sizeof *moves);
        if (!moves)
            return NULL;
        core_moves(r, p, moves, *n);
    }
    if (distinct)
        *n = core_unique_moves(moves, *n);
    return moves;
}

/* The moves of a position one ply above the leaves: counted in bulk, or one by one when only
 * the distinct ones count (-1: memory is short). */
static ALWAYS_INLINE int64_t leaves(const CoreRules *r, const CorePos *p, const int distinct)
{
    if (!distinct)
        return core_count(r, p);
    CoreMove stack_moves[CORE_STACK_MOVES];
    int n;
    CoreMove *moves = moves_of(r, p, stack_moves, &n, 1);
    if (!moves)
        return -1;
    if (moves != stack_moves)
        free(moves);
    return n;
}

/* Compiled three times, `keeps_runs` and `distinct` constants in the first two: only the rules
 * that limit a king's moves in a row (CoreRules.king_move_limit) pay for updating the runs at
 * every move, and only the distinct count (walk_distinct, reading the runs from the rules) for
 * building the leaves' moves. */
static ALWAYS_INLINE int64_t walk(const CoreRules *r, const CorePos *p, int depth,
                                  const int keeps_runs, const int distinct)
{
    if (depth == 1)
        return leaves(r, p, distinct);

    CoreMove stack_moves[CORE_STACK_MOVES];
    int n;
    CoreMove *moves = moves_of(r, p, stack_moves, &n, distinct);
    if (!moves)
        return -1;

    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        CorePos child;
        core_play(p, &moves[i], &child, keeps_runs);
        int64_t below;
        if (depth == 2)
            below = leaves(r, &child, distinct);
        else if (distinct)
            below = walk_distinct(r, &child, depth - 1);
        else
            below = keeps_runs ? walk_runs(r, &child, depth - 1) : walk_plain(r, &child, depth - 1);
        if (below < 0) {
            total = -1;
            break;
        }
        total += below;
    }
    if (moves != stack_moves)
        free(moves);
    return total;
}

static int64_t walk_plain(const CoreRules *r, const CorePos *p, int depth)
{
    return walk(r, p, depth, 0, 0);
}

static int64_t walk_runs(const CoreRules *r, const CorePos *p, int depth)
{
    return walk(r, p, depth, 1, 0);
}

static int64_t walk_distinct(const CoreRules *r, const CorePos *p, int depth)
{
    return walk(r, p, depth, r->king_move_limit != 0, 1);
}

int64_t core_perft(const CoreRules *r, const CorePos *p, int depth, int distinct)
{
    if (depth <= 0)
        return 1;
    if (distinct)
        return walk_distinct(r, p, depth);
    return r->king_move_limit ? walk_runs(r, p, depth) : walk_plain(r, p, depth);
}
