/* Building a CoreRules: the board tables of rules/geometry.py and a variant's rule flags.
 *
 * Neighbours are derived from square coordinates, not from the offsets, and then checked against
 * the offsets, exactly as rules/geometry.py does: the shift tricks of the generator rely on the
 * ghost layout (or, on the orthogonal board, on the shift masks built here), so a broken layout
 * fails here instead of producing wrong moves.
 */
#include "core.h"

#include <string.h>

/* (column, row) steps per direction on each kind of board: the lines pieces move along, then
 * the board's other lines (over the next playing square: two columns or rows on a diagonal
 * board, whose neighbouring squares along a row or column are not playing squares). */
static const int DIAGONAL_STEPS[CORE_DIRECTIONS][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1},
                                                       {0, -2},  {-2, 0}, {2, 0},  {0, 2}};
static const int ORTHOGONAL_STEPS[CORE_DIRECTIONS][2] = {{0, -1},  {-1, 0}, {1, 0},  {0, 1},
                                                         {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};

int core_rules_init(CoreRules *r, const CoreRuleData *d)
{
    int grid[CORE_MAX_SIZE][CORE_MAX_SIZE];
    int size = d->size;

    if (size % 2 != 0 || size < 4 || size > CORE_MAX_SIZE)
        return -1;
    if (d->orthogonal && (size > CORE_MAX_ORTHOGONAL_SIZE || d->mirrored))
        return -1;
    if (d->crowning != CORE_CROWN_ENDS_MOVE && d->crowning != CORE_CROWN_AT_END &&
        d->crowning != CORE_CROWN_CONTINUES_AS_KING)
        return -1;
    if (d->nprecedence < 0 || d->nprecedence > CORE_MAX_PRECEDENCE)
        return -1;
    int valued = 0, kings_first = 0;
    for (int i = 0; i < d->nprecedence; i++) {
        if (d->precedence[i] < CORE_PREFER_MOST_PIECES ||
            d->precedence[i] > CORE_PREFER_MOST_VALUE)
            return -1;
        valued |= d->precedence[i] == CORE_PREFER_MOST_VALUE;
        kings_first |= d->precedence[i] == CORE_PREFER_KINGS_FIRST;
    }
    /* The search counts the kings taken for the value, where kings first needs their order. */
    if (valued && kings_first)
        return -1;
    if ((d->eight_way && d->orthogonal) || d->king_move_limit < 0 ||
        d->king_move_limit > CORE_MAX_KING_RUN)
        return -1;
    if (d->goal < CORE_GOAL_STANDARD || d->goal > CORE_GOAL_FIRST_KING)
        return -1;

    memset(r, 0, sizeof *r);
    memset(r->neighbour, -1, sizeof r->neighbour);
    r->size = size;
    r->orthogonal = d->orthogonal != 0;
    r->half = r->orthogonal ? size : size / 2;
    r->squares = r->half * size;
    r->mirrored = d->mirrored != 0;
    r->bits = core_index_of(r, r->squares) + 1;
    r->men_capture_backward = d->men_capture_backward != 0;
    r->men_capture_kings = d->men_capture_kings != 0;
    r->flying_kings = d->flying_kings != 0;
    r->crowning = d->crowning;
    r->nprecedence = d->nprecedence;
    for (int i = 0; i < d->nprecedence; i++)
        r->precedence[i] = d->precedence[i];
    r->majority_only = d->nprecedence == 1 && d->precedence[0] == CORE_PREFER_MOST_PIECES;
    for (int i = 0; i < d->nprecedence; i++)
        if (d->precedence[i] == CORE_PREFER_MOST_KINGS ||
            d->precedence[i] == CORE_PREFER_KINGS_FIRST || d->precedence[i] == CORE_PREFER_MOST_VALUE)
            r->ranks_kings = 1;
    r->values_kings = valued;
    r->goal = d->goal;
    r->king_stops_behind = d->king_stops_behind != 0;
    r->removed_at_once = d->removed_at_once != 0;
    r->king_turns_back = d->king_turns_back != 0;
    r->lone_pieces_draw = d->lone_pieces_draw != 0;
    r->eight_way = d->eight_way != 0;
    r->capture_ndirs = r->eight_way ? CORE_DIRECTIONS : 4;
    r->king_move_limit = d->king_move_limit;
    r->capture_kind = r->eight_way || r->values_kings ? 3
                      : r->king_turns_back            ? r->ranks_kings
                                                      : 2;
    const int(*steps)[2] = r->orthogonal ? ORTHOGONAL_STEPS : DIAGONAL_STEPS;
    if (r->orthogonal) {
        const int deltas[CORE_DIRECTIONS] = {-size, -1, 1, size, -(size + 1), -(size - 1),
                                             size - 1, size + 1};
        memcpy(r->delta, deltas, sizeof deltas);
    } else {
        /* Two rows down the same column is a pair of rows and its ghost bit: size + 1. */
        const int deltas[CORE_DIRECTIONS] = {-(r->half + 1), -r->half, r->half, r->half + 1,
                                             -(size + 1),    -1,       1,       size + 1};
        memcpy(r->delta, deltas, sizeof deltas);
    }

    for (int column = 0; column < size; column++)
        for (int row = 0; row < size; row++)
            grid[column][row] = -1;
    for (int s = 1; s <= r->squares; s++) {
        int g = core_index_of(r, s);
        int row = (s - 1) / r->half;
        int column = core_column_of(r, s);
        grid[column][row] = g;
        r->valid |= CORE_BIT(g);
        if (s <= r->half)
            r->promo[0] |= CORE_BIT(g);
        if (s > r->squares - r->half)
            r->promo[1] |= CORE_BIT(g);
    }
    for (int column = 0; column < size; column++) {
        for (int row = 0; row < size; row++) {
            int g = grid[column][row];
            if (g < 0)
                continue;
            for (int d = 0; d < CORE_DIRECTIONS; d++) {
                int c = column + steps[d][0], w = row + steps[d][1];
                if (c < 0 || c >= size || w < 0 || w >= size || grid[c][w] < 0)
                    continue;
                if (grid[c][w] - g != r->delta[d])
                    return -1; /* the ghost layout is broken: never happens for even sizes */
                r->neighbour[g][d] = (int8_t)grid[c][w];
            }
        }
    }
    for (int g = 0; g < r->bits; g++) {
        if (!(r->valid & CORE_BIT(g)))
            continue;
        for (int d = 0; d < CORE_DIRECTIONS; d++) {
            int n = 0;
            for (int cur = r->neighbour[g][d]; cur >= 0; cur = r->neighbour[cur][d])
                r->ray[g][d][n++] = (int8_t)cur;
            r->ray_len[g][d] = (uint8_t)n;
            if (n >= 1)
                r->shift_from[d] |= CORE_BIT(g);
            if (n >= 2)
                r->jump_from[d] |= CORE_BIT(g);
        }
    }
    if (!r->orthogonal) /* the ghost bits make every diagonal shift safe: no mask needed */
        for (int dir = 0; dir < 4; dir++)
            r->shift_from[dir] = r->jump_from[dir] = r->valid;

    /* Men step forwards (and, on the orthogonal board, sideways: left before right) and capture
     * in those directions, or in all four (all eight where eight_way); the order is the
     * generator's. */
    if (r->orthogonal) {
        static const int white[3] = {CORE_UP, CORE_LEFT, CORE_RIGHT};
        static const int black[3] = {CORE_LEFT, CORE_RIGHT, CORE_DOWN};
        memcpy(r->step_dirs[0], white, sizeof white);
        memcpy(r->step_dirs[1], black, sizeof black);
        r->step_ndirs[0] = r->step_ndirs[1] = 3;
    } else {
        r->step_dirs[0][0] = CORE_UP_LEFT;
        r->step_dirs[0][1] = CORE_UP_RIGHT;
        r->step_dirs[1][0] = CORE_DOWN_LEFT;
        r->step_dirs[1][1] = CORE_DOWN_RIGHT;
        r->step_ndirs[0] = r->step_ndirs[1] = 2;
    }
    for (int side = 0; side < 2; side++) {
        if (r->men_capture_backward) {
            for (int dir = 0; dir < r->capture_ndirs; dir++)
                r->man_dirs[side][dir] = dir;
            r->man_ndirs[side] = r->capture_ndirs;
        } else {
            memcpy(r->man_dirs[side], r->step_dirs[side], sizeof r->step_dirs[side]);
            r->man_ndirs[side] = r->step_ndirs[side];
        }
    }
    return 0;
}

int core_rules_same_game(const CoreRules *a, const CoreRules *b)
{
    if (a->size != b->size || a->men_capture_backward != b->men_capture_backward ||
        a->men_capture_kings != b->men_capture_kings || a->flying_kings != b->flying_kings ||
        a->crowning != b->crowning || a->nprecedence != b->nprecedence || a->goal != b->goal ||
        a->mirrored != b->mirrored || a->king_stops_behind != b->king_stops_behind ||
        a->removed_at_once != b->removed_at_once || a->orthogonal != b->orthogonal ||
        a->king_turns_back != b->king_turns_back || a->lone_pieces_draw != b->lone_pieces_draw ||
        a->eight_way != b->eight_way || a->king_move_limit != b->king_move_limit)
        return 0;
    for (int i = 0; i < a->nprecedence; i++)
        if (a->precedence[i] != b->precedence[i])
            return 0;
    return 1;
}
