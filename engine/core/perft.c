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

/* Compiled twice, `keeps_runs` a constant: only the rules that limit a king's moves in a row
 * (CoreRules.king_move_limit) pay for updating the runs at every move. */
static ALWAYS_INLINE int64_t walk(const CoreRules *r, const CorePos *p, int depth,
                                  const int keeps_runs)
{
    if (depth == 1)
        return core_count(r, p);

    CoreMove stack_moves[CORE_STACK_MOVES];
    CoreMove *moves = stack_moves;
    int n = core_moves(r, p, moves, CORE_STACK_MOVES);
    if (n > CORE_STACK_MOVES) {
        moves = malloc((size_t)n * sizeof *moves);
        if (!moves)
            return -1;
        core_moves(r, p, moves, n);
    }

    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        CorePos child;
        core_play(p, &moves[i], &child, keeps_runs);
        int64_t below;
        if (depth == 2)
            below = core_count(r, &child);
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
    return walk(r, p, depth, 0);
}

static int64_t walk_runs(const CoreRules *r, const CorePos *p, int depth)
{
    return walk(r, p, depth, 1);
}

int64_t core_perft(const CoreRules *r, const CorePos *p, int depth)
{
    if (depth <= 0)
        return 1;
    return r->king_move_limit ? walk_runs(r, p, depth) : walk_plain(r, p, depth);
}
