/* The move generator, driven by a CoreRules (never by a variant's name), as rules/movegen.py.
 *
 * Steps and the first jump of every man are found for all men at once with bitboard shifts, each
 * through its direction's source mask (core.h: on the orthogonal board a sideways shift would
 * otherwise wrap to the next row); only pieces that can capture are searched one by one, depth
 * first.  During a capture the captured ("dead") pieces stay on the board as a barrier (or, where
 * the variant removes them at once, leave it as they are jumped) and can never be jumped again; a
 * flying king may change direction after each jump (though not turn straight back, where the
 * variant forbids it) and must land where it can go on capturing when such a square exists (or
 * just beyond its victim, where the variant's kings stop there); a man reaching the far row
 * mid-capture does what the variant's crowning code says.
 * Where men and kings capture along the board's other lines too (CoreRules.eight_way)
 * they do so in directions 4-7, whose shifts go through their masks; they still step along 0-3.
 * Where the variant limits a king's moves in a row, the king that made the limit (core.h's
 * core_frozen_king) makes no step; its captures are unaffected.
 * Where the variant ranks captures (rules.variants.Precedence: the most pieces, a king's
 * capture, the most kings, the kings first, the most value) each sequence gets a key of its criteria in order and
 * only the sequences of the highest key are kept: the list is reset whenever a better sequence
 * appears, which keeps the survivors in generation order, the same list as rules' filter after
 * the fact.  Where men may not take kings, a man's prey is the enemy's men alone.
 */
#include "movegen.h"

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A signed shift: negative moves towards square 1 (a right shift of the bitboard). */
static inline core_bb shift(core_bb x, int k) { return k >= 0 ? x << k : x >> -k; }

/* How many squares of a ray, from the nearest, are empty in `occ`: where a flying king's look
 * along it first meets a piece (the capture searches and the step counts share it). */
static ALWAYS_INLINE int free_run(const int8_t *ray, int len, core_bb occ)
{
    int i = 0;
    while (i < len && !((occ >> ray[i]) & 1))
        i++;
    return i;
}

/* -- capturers --------------------------------------------------------------------------------- */

/* The pieces of `pieces` with a first short jump in one of `dirs` (exact for men and for kings
 * that do not fly).  `masked`, a constant: shift through the jump masks (needed on the
 * orthogonal board only; on the others they are every playable bit, and would cost a load and an
 * AND per direction in the generator's hottest function). */
static ALWAYS_INLINE core_bb short_capturers(const CoreRules *r, core_bb pieces, core_bb opp,
                                             core_bb empty, const int *dirs, int ndirs,
                                             const int masked)
{
    core_bb found = 0;
    for (int i = 0; i < ndirs; i++) {
        int d = dirs[i], k = r->delta[d];
        core_bb from = masked ? pieces & r->jump_from[d] : pieces;
        found |= shift(shift(shift(from, k) & opp, k) & empty, -2 * k);
    }
    return found;
}

/* Every direction in rules.geometry's order: the first four, or all eight where eight_way. */
static const int ALL_DIRECTIONS[CORE_DIRECTIONS] = {0, 1, 2, 3, 4, 5, 6, 7};

/* -- capture search ---------------------------------------------------------------------------- */

/* What one capture search needs; shared by every capturing piece of the position so that the
 * majority rule sees all sequences. */
typedef struct {
    const CoreRules *r;
    core_bb opp;       /* every enemy piece; dead ones stay in it, and are told apart by `dead` */
    core_bb opp_kings; /* the enemy's kings (for the precedence criteria that count them) */
    core_bb man_prey;  /* what a man may jump: `opp`, or the enemy's men where men spare kings */
    core_bb occ;   /* every piece except the moving one (dead pieces included: a barrier, unless
                    * the variant removes them at once) */
    core_bb promo; /* the mover's crowning row */
    const int *man_dirs;
    int man_ndirs;
    core_bb from; /* origin of the moving piece */
    int from_man; /* whether it started the move as a man */
    CoreMove *out;
    int cap;
    int n;        /* sequences kept so far (may exceed cap) */
    uint64_t best; /* the highest precedence key of a sequence so far */
} Capture;

/* A sequence's standing under the variant's precedence criteria, in order (0 when it has none:
 * every sequence ties).  `kings` has bit 31 - i set when the i-th piece taken is a king, so of
 * two masks the larger took a king sooner at the first place they differ; where the precedence
 * counts the value taken (CoreRules.values_kings) it is the number of kings taken. */
static uint64_t precedence_key(const Capture *c, int taken, uint32_t kings)
{
    const CoreRules *r = c->r;
    uint64_t key = 0;
    uint64_t nkings = r->values_kings ? kings : (uint64_t)core_popcount(kings);
    for (int i = 0; i < r->nprecedence; i++) {
        switch (r->precedence[i]) {
        case CORE_PREFER_MOST_PIECES:
            key = (key << 6) | (uint64_t)taken;
            break;
        case CORE_PREFER_WITH_KING:
            key = (key << 1) | (uint64_t)!c->from_man;
            break;
        case CORE_PREFER_MOST_KINGS:
            key = (key << 6) | nkings;
            break;
        case CORE_PREFER_MOST_VALUE: /* at most 64 pieces of 199: 14 bits */
            key = (key << 14) | ((uint64_t)(taken - (int)nkings) * CORE_MAN_VALUE +
                                 nkings * CORE_KING_VALUE);
            break;
        default: /* CORE_PREFER_KINGS_FIRST */
            key = (key << 32) | kings;
            break;
        }
    }
    return key;
}

static void emit(Capture *c, int to, core_bb dead, int taken, uint32_t kings, int king)
{
    if (c->r->nprecedence) {
        /* The majority rule alone is the common case: its key is the count. */
        uint64_t key = c->r->majority_only ? (uint64_t)taken : precedence_key(c, taken, kings);
        if (key < c->best)
            return;
        if (key > c->best) {
            c->best = key;
            c->n = 0;
        }
    }
    if (c->n < c->cap) {
        CoreMove *m = &c->out[c->n];
        m->from = c->from;
        m->to = CORE_BIT(to);
        m->captured = dead;
        m->crowns = c->from_man && (king || ((c->promo >> to) & 1));
    }
    c->n++;
}

/* The kings of precedence_key after the `taken`-th jump over `victim`: a mask, or where
 * `valued` (CoreRules.values_kings) a count. */
static inline uint32_t kings_after(const Capture *c, uint32_t kings, core_bb victim, int taken,
                                   const int valued)
{
    uint32_t king = (c->opp_kings & victim) != 0;
    return valued ? kings + king : kings | (king << (31 - taken));
}

static int search_plain(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings);
static int search_ranked(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings);
static int search_no_turn(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings,
                          int back);
static int search_general(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings,
                          int back);

/* The search of the next jump, by the same compiled copy of search() as the current one. */
static ALWAYS_INLINE int go_on(Capture *c, int g, int king, core_bb dead, int taken,
                               uint32_t kings, int back, const int ranked, const int no_turn,
                               const int general)
{
    if (general)
        return search_general(c, g, king, dead, taken, kings, back);
    if (no_turn)
        return search_no_turn(c, g, king, dead, taken, kings, back);
    return ranked ? search_ranked(c, g, king, dead, taken, kings)
                  : search_plain(c, g, king, dead, taken, kings);
}

/* Emit every complete capture sequence that continues from `g` (the piece has taken `taken`
 * pieces, those of `dead`, with the kings among them in `kings` as precedence_key reads them);
 * return whether any jump was possible from there.  Where kings may not turn back (`no_turn`),
 * `back` is the direction a flying king may not take next, the way it came (-1: any); a short
 * jump never needs it, since the square it crossed holds a dead piece or none.  Compiled four
 * times, `ranked` and `no_turn` constants in the first two (search_plain, search_ranked): only
 * the variants whose precedence looks at the kings taken pay for keeping their order, only
 * those whose kings may not turn back (search_no_turn) for watching the way back, and only those
 * that capture in eight directions or by value (search_general, `general`: everything read from
 * the rules) for those. */
static ALWAYS_INLINE int search(Capture *c, int g, int king, core_bb dead, int taken,
                                uint32_t kings, int back, const int ranked, const int no_turn,
                                const int general)
{
    const CoreRules *r = c->r;
    /* The directions a king captures in, and whether the kings taken are counted (values). */
    const int king_ndirs = general ? r->capture_ndirs : 4;
    const int valued = general && r->values_kings;
    /* The squares that stop the piece: every other piece, less the captured ones where those
     * leave the board at once. */
    const core_bb occ = r->removed_at_once ? c->occ & ~dead : c->occ;
    int jumped = 0;

    if (king && r->flying_kings) {
        for (int d = 0; d < king_ndirs; d++) {
            if (no_turn && d == back)
                continue;
            const int8_t *ray = r->ray[g][d];
            int n = r->ray_len[g][d];
            int i = free_run(ray, n, occ);
            if (i >= n - 1)
                continue;
            core_bb victim = CORE_BIT(ray[i]);
            if (!(c->opp & victim) || (dead & victim) || ((occ >> ray[i + 1]) & 1))
                continue;
            jumped = 1;
            core_bb now_dead = dead | victim;
            uint32_t now_kings = ranked ? kings_after(c, kings, victim, taken, valued) : 0;
            int continued = 0;
            int stops[CORE_MAX_RAY];
            int nstops = 0;
            int end = r->king_stops_behind ? i + 2 : n;
            for (int j = i + 1; j < end && !((occ >> ray[j]) & 1); j++) {
                if (go_on(c, ray[j], 1, now_dead, taken + 1, now_kings, d ^ 3, ranked, no_turn,
                          general))
                    continued = 1;
                else
                    stops[nstops++] = ray[j];
            }
            /* Only when no landing square lets the king go on may it stop on any of them. */
            if (!continued)
                for (int s = 0; s < nstops; s++)
                    emit(c, stops[s], now_dead, taken + 1, now_kings, 1);
        }
        return jumped;
    }

    const int *dirs = king ? ALL_DIRECTIONS : c->man_dirs;
    int ndirs = king ? king_ndirs : c->man_ndirs;
    for (int i = 0; i < ndirs; i++) {
        int d = dirs[i];
        int over = r->neighbour[g][d];
        if (over < 0)
            continue;
        int land = r->neighbour[over][d];
        if (land < 0)
            continue;
        core_bb victim = CORE_BIT(over);
        if (!((king ? c->opp : c->man_prey) & victim) || (dead & victim) || ((occ >> land) & 1))
            continue;
        jumped = 1;
        core_bb now_dead = dead | victim;
        uint32_t now_kings = ranked ? kings_after(c, kings, victim, taken, valued) : 0;
        int now_king = king;
        if (!king && ((c->promo >> land) & 1)) {
            if (r->crowning == CORE_CROWN_ENDS_MOVE) {
                emit(c, land, now_dead, taken + 1, now_kings, 0);
                continue;
            }
            if (r->crowning == CORE_CROWN_CONTINUES_AS_KING)
                now_king = 1;
        }
        /* (A man crowned here goes on as a king that may not turn back either.) */
        if (!go_on(c, land, now_king, now_dead, taken + 1, now_kings, d ^ 3, ranked, no_turn,
                   general))
            emit(c, land, now_dead, taken + 1, now_kings, now_king);
    }
    return jumped;
}

static int search_plain(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings)
{
    return search(c, g, king, dead, taken, kings, -1, 0, 0, 0);
}

static int search_ranked(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings)
{
    return search(c, g, king, dead, taken, kings, -1, 1, 0, 0);
}

static int search_no_turn(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings,
                          int back)
{
    return search(c, g, king, dead, taken, kings, back, c->r->ranks_kings, 1, 0);
}

static int search_general(Capture *c, int g, int king, core_bb dead, int taken, uint32_t kings,
                          int back)
{
    const CoreRules *r = c->r;
    return search(c, g, king, dead, taken, kings, back, r->ranks_kings, !r->king_turns_back, 1);
}

/* Every allowed capture sequence of the given capturing men, then kings; the number kept. */
static int captures(const CoreRules *r, core_bb men_capturing, core_bb kings_capturing,
                    const CorePos *p, CoreMove *out, int cap)
{
    Capture c;
    core_bb opp = p->opp_men | p->opp_kings;
    core_bb occupied = p->men | p->kings | opp;
    int side = p->side;
    c.r = r;
    c.opp = opp;
    c.opp_kings = p->opp_kings;
    c.man_prey = r->men_capture_kings ? opp : p->opp_men;
    c.promo = r->promo[side];
    c.man_dirs = r->man_dirs[side];
    c.man_ndirs = r->man_ndirs[side];
    c.out = out;
    c.cap = out ? cap : 0;
    c.n = 0;
    c.best = 0;
    /* The compiled copy of the search these rules need (0 plain, 1 ranked, 2 no turning back,
     * 3 eight directions or values). */
    const int kind = r->capture_kind;
    for (int king = 0; king < 2; king++) {
        core_bb pieces = king ? kings_capturing : men_capturing;
        while (pieces) {
            int g = core_lowest(pieces);
            pieces &= pieces - 1;
            c.from = CORE_BIT(g);
            c.from_man = !king;
            c.occ = occupied ^ c.from;
            if (kind == 0)
                search_plain(&c, g, king, 0, 0, 0);
            else if (kind == 1)
                search_ranked(&c, g, king, 0, 0, 0);
            else if (kind == 2)
                search_no_turn(&c, g, king, 0, 0, 0, -1);
            else
                search_general(&c, g, king, 0, 0, 0, -1);
        }
    }
    return c.n;
}

/* The capturing men, and the kings that may capture (exact for short kings, every king when
 * kings fly: finding a flying king's capture takes a ray walk, done by the search). */
static void capturers(const CoreRules *r, const CorePos *p, core_bb *men_capturing,
                      core_bb *kings_capturing)
{
    /* Read once into locals: the outputs could alias *p as far as the compiler knows. */
    const core_bb men = p->men, kings = p->kings, opp_men = p->opp_men;
    const core_bb opp = opp_men | p->opp_kings;
    const int side = p->side;
    core_bb prey = r->men_capture_kings ? opp : opp_men;
    core_bb empty = r->valid & ~(men | kings | opp);
    const int *dirs = r->man_dirs[side];
    int ndirs = r->man_ndirs[side];
    core_bb found_men = r->orthogonal || r->eight_way
                            ? short_capturers(r, men, prey, empty, dirs, ndirs, 1)
                            : short_capturers(r, men, prey, empty, dirs, ndirs, 0);
    core_bb found_kings = kings;
    if (!r->flying_kings && kings)
        found_kings = short_capturers(r, kings, opp, empty, ALL_DIRECTIONS, r->capture_ndirs, 1);
    *men_capturing = found_men;
    *kings_capturing = found_kings;
}

/* -- steps ------------------------------------------------------------------------------------- */

static inline void put(CoreMove *out, int cap, int n, core_bb from, core_bb to, int crowns)
{
    if (n < cap) {
        out[n].from = from;
        out[n].to = to;
        out[n].captured = 0;
        out[n].crowns = crowns;
    }
}

/* Steps of `p` in rules' order: men per step direction (destinations ascending), then kings (all
 * but the one that has made the limit of moves in a row: core_frozen_king, looked at only where
 * there are kings). */
static int steps(const CoreRules *r, const CorePos *p, CoreMove *out, int cap)
{
    const core_bb men = p->men, opp = p->opp_men | p->opp_kings;
    const int side = p->side;
    core_bb kings = p->kings;
    core_bb empty = r->valid & ~(men | kings | opp);
    core_bb promo = r->promo[side];
    const int *dirs = r->step_dirs[side];
    int ndirs = r->step_ndirs[side];
    int n = 0;
    if (!out)
        cap = 0;
    for (int i = 0; i < ndirs; i++) {
        int d = dirs[i], k = r->delta[d];
        core_bb dest = shift(men & r->shift_from[d], k) & empty;
        while (dest) {
            core_bb low = dest & (~dest + 1);
            dest ^= low;
            put(out, cap, n++, shift(low, -k), low, (low & promo) != 0);
        }
    }
    if (!kings)
        return n;
    kings &= ~core_frozen_king(r, p);
    if (r->flying_kings) {
        core_bb occ = ~empty;
        core_bb b = kings;
        while (b) {
            int g = core_lowest(b);
            b &= b - 1;
            for (int d = 0; d < 4; d++) {
                const int8_t *ray = r->ray[g][d];
                int len = r->ray_len[g][d];
                for (int i = 0; i < len && !((occ >> ray[i]) & 1); i++)
                    put(out, cap, n++, CORE_BIT(g), CORE_BIT(ray[i]), 0);
            }
        }
    } else {
        for (int d = 0; d < 4; d++) {
            int k = r->delta[d];
            core_bb dest = shift(kings & r->shift_from[d], k) & empty;
            while (dest) {
                core_bb low = dest & (~dest + 1);
                dest ^= low;
                put(out, cap, n++, shift(low, -k), low, 0);
            }
        }
    }
    return n;
}

/* Whether a flying king whose ray's first `free` squares are empty (free_run) can take the
 * piece after them: it is the opponent's and the square beyond it is empty. */
static inline int takes_after(const int8_t *ray, int len, int free, core_bb occ, core_bb opp)
{
    return free < len - 1 && ((opp >> ray[free]) & 1) && !((occ >> ray[free + 1]) & 1);
}

/* Whether the flying king on `g` can capture along the board's other lines (eight_way), where
 * it never steps: count_steps looks along its own lines. */
static int cross_capture(const CoreRules *r, int g, core_bb occ, core_bb opp)
{
    for (int d = 4; d < CORE_DIRECTIONS; d++) {
        const int8_t *ray = r->ray[g][d];
        int len = r->ray_len[g][d];
        if (takes_after(ray, len, free_run(ray, len, occ), occ, opp))
            return 1;
    }
    return 0;
}

/* The number of steps of `p` (none of the king that has made the limit of moves in a row), or -1
 * if a king can capture (then no step is legal); the caller has found already that no man can
 * capture. */
static int count_steps(const CoreRules *r, const CorePos *p)
{
    const core_bb men = p->men, kings = p->kings, opp = p->opp_men | p->opp_kings;
    const int side = p->side;
    core_bb empty = r->valid & ~(men | kings | opp);
    int total = 0;
    if (r->orthogonal) {
        const int *dirs = r->step_dirs[side];
        for (int i = 0; i < r->step_ndirs[side]; i++) {
            int d = dirs[i];
            total += core_popcount(shift(men & r->shift_from[d], r->delta[d]) & empty);
        }
    } else { /* two directions, no mask needed (core.h): the hot path of perft's leaves */
        const int *dirs = side == 0 ? &ALL_DIRECTIONS[0] : &ALL_DIRECTIONS[2];
        total = core_popcount(shift(men, r->delta[dirs[0]]) & empty) +
                core_popcount(shift(men, r->delta[dirs[1]]) & empty);
    }
    if (!kings)
        return total;
    const core_bb frozen = core_frozen_king(r, p);
    if (r->flying_kings) {
        core_bb occ = ~empty;
        core_bb b = kings;
        while (b) {
            int g = core_lowest(b);
            b &= b - 1;
            int here = 0;
            for (int d = 0; d < 4; d++) {
                const int8_t *ray = r->ray[g][d];
                int len = r->ray_len[g][d];
                int i = free_run(ray, len, occ);
                if (takes_after(ray, len, i, occ, opp))
                    return -1;
                here += i;
            }
            if (r->eight_way && cross_capture(r, g, occ, opp))
                return -1;
            if (!(frozen & CORE_BIT(g)))
                total += here;
        }
        return total;
    }
    if (short_capturers(r, kings, opp, empty, ALL_DIRECTIONS, r->capture_ndirs, 1))
        return -1;
    for (int d = 0; d < 4; d++)
        total += core_popcount(shift(kings & ~frozen & r->shift_from[d], r->delta[d]) & empty);
    return total;
}

/* -- public ------------------------------------------------------------------------------------ */

int core_moves(const CoreRules *r, const CorePos *p, CoreMove *out, int cap)
{
    core_bb men_capturing, kings_capturing;
    capturers(r, p, &men_capturing, &kings_capturing);
    if (men_capturing || kings_capturing) {
        int n = captures(r, men_capturing, kings_capturing, p, out, cap);
        if (n)
            return n;
    }
    return steps(r, p, out, cap);
}

int core_count(const CoreRules *r, const CorePos *p)
{
    core_bb men_capturing, kings_capturing;
    capturers(r, p, &men_capturing, &kings_capturing);
    if (men_capturing || (kings_capturing && !r->flying_kings))
        return captures(r, men_capturing, kings_capturing, p, NULL, 0);
    int n = count_steps(r, p);
    if (n >= 0)
        return n;
    return captures(r, 0, p->kings, p, NULL, 0);
}
