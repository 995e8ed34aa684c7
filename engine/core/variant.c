/* Building a CoreRules: the board tables of rules/geometry.py and a variant's rule flags.
 *
 * Neighbours are derived from square coordinates, not from the offsets, and then checked against
 * the offsets, exactly as rules/geometry.py does: the shift tricks of the generator rely on the
 * ghost layout, so a broken layout fails here instead of producing wrong moves.
 */
#include "core.h"

#include <string.h>

int core_rules_init(CoreRules *r, const CoreRuleData *d)
{
    static const int steps[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}; /* (column, row) */
    int grid[CORE_MAX_SIZE][CORE_MAX_SIZE];
    int size = d->size;

    if (size % 2 != 0 || size < 4 || size > CORE_MAX_SIZE)
        return -1;
    if (d->crowning != CORE_CROWN_ENDS_MOVE && d->crowning != CORE_CROWN_AT_END &&
        d->crowning != CORE_CROWN_CONTINUES_AS_KING)
        return -1;
    if (d->nprecedence < 0 || d->nprecedence > CORE_MAX_PRECEDENCE)
        return -1;
    for (int i = 0; i < d->nprecedence; i++)
        if (d->precedence[i] < CORE_PREFER_MOST_PIECES ||
            d->precedence[i] > CORE_PREFER_KINGS_FIRST)
            return -1;
    if (d->goal < CORE_GOAL_STANDARD || d->goal > CORE_GOAL_FIRST_KING)
        return -1;

    memset(r, 0, sizeof *r);
    memset(r->neighbour, -1, sizeof r->neighbour);
    r->size = size;
    r->half = size / 2;
    r->squares = r->half * size;
    r->mirrored = d->mirrored != 0;
    r->bits = core_index_of(size, r->mirrored, r->squares) + 1;
    r->men_capture_backward = d->men_capture_backward != 0;
    r->men_capture_kings = d->men_capture_kings != 0;
    r->flying_kings = d->flying_kings != 0;
    r->crowning = d->crowning;
    r->nprecedence = d->nprecedence;
    for (int i = 0; i < d->nprecedence; i++)
        r->precedence[i] = d->precedence[i];
    r->majority_only = d->nprecedence == 1 && d->precedence[0] == CORE_PREFER_MOST_PIECES;
    for (int i = 0; i < d->nprecedence; i++)
        if (d->precedence[i] == CORE_PREFER_MOST_KINGS || d->precedence[i] == CORE_PREFER_KINGS_FIRST)
            r->ranks_kings = 1;
    r->goal = d->goal;
    r->king_stops_behind = d->king_stops_behind != 0;
    r->removed_at_once = d->removed_at_once != 0;
    r->delta[CORE_UP_LEFT] = -(r->half + 1);
    r->delta[CORE_UP_RIGHT] = -r->half;
    r->delta[CORE_DOWN_LEFT] = r->half;
    r->delta[CORE_DOWN_RIGHT] = r->half + 1;

    for (int column = 0; column < size; column++)
        for (int row = 0; row < size; row++)
            grid[column][row] = -1;
    for (int s = 1; s <= r->squares; s++) {
        int g = core_index_of(size, r->mirrored, s);
        int row = (s - 1) / r->half;
        int column = core_column_of(size, r->mirrored, s);
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
            for (int d = 0; d < 4; d++) {
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
        for (int d = 0; d < 4; d++) {
            int n = 0;
            for (int cur = r->neighbour[g][d]; cur >= 0; cur = r->neighbour[cur][d])
                r->ray[g][d][n++] = (int8_t)cur;
            r->ray_len[g][d] = (uint8_t)n;
        }
    }

    /* Men capture in their forward directions, or in all four; the order is the generator's. */
    if (r->men_capture_backward) {
        for (int side = 0; side < 2; side++) {
            for (int d = 0; d < 4; d++)
                r->man_dirs[side][d] = d;
            r->man_ndirs[side] = 4;
        }
    } else {
        r->man_dirs[0][0] = CORE_UP_LEFT;
        r->man_dirs[0][1] = CORE_UP_RIGHT;
        r->man_dirs[1][0] = CORE_DOWN_LEFT;
        r->man_dirs[1][1] = CORE_DOWN_RIGHT;
        r->man_ndirs[0] = r->man_ndirs[1] = 2;
    }
    return 0;
}

int core_rules_same_game(const CoreRules *a, const CoreRules *b)
{
    if (a->size != b->size || a->men_capture_backward != b->men_capture_backward ||
        a->men_capture_kings != b->men_capture_kings || a->flying_kings != b->flying_kings ||
        a->crowning != b->crowning || a->nprecedence != b->nprecedence || a->goal != b->goal ||
        a->mirrored != b->mirrored || a->king_stops_behind != b->king_stops_behind ||
        a->removed_at_once != b->removed_at_once)
        return 0;
    for (int i = 0; i < a->nprecedence; i++)
        if (a->precedence[i] != b->precedence[i])
            return 0;
    return 1;
}
