/* The search: see search.h.  Scores are from the side to move; a win in n plies from the root
 * scores CORE_MATE - n.  Table scores of wins are stored relative to the node, so they stay
 * right when the position is reached by another path. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "egdb_search.h"
#include "movegen.h"
#include "ordering.h"
#include "selective.h"
#include "table.h"
#include "timeman.h"

#define INF (CORE_MATE + 1)
#define ASPIRATION 40
#define NO_SQUARE CORE_NO_SQUARE
#define UNSTABLE_DROP 30   /* centimen a score may fall from one iteration to the next */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int bit_index(core_bb b) { return core_square(b); }

int core_search_init(CoreSearch *s, const CoreRules *r, int men_rows, int hash_mb,
                     int quiet_limit, int man_moves_progress, int crownings_progress)
{
    memset(s, 0, sizeof *s);
    s->rules = r;
    core_eval_init(&s->eval, r, men_rows);
    uint64_t seed = 0x64726175676874ULL; /* until core_search_set_keys: fixed keys */
    for (int kind = 0; kind < 4; kind++)
        for (int g = 0; g < CORE_MAX_BITS; g++)
            s->zobrist[kind][g] = splitmix(&seed);
    s->zobrist_black = splitmix(&seed);
    for (int run = 0; run < 2 * (CORE_MAX_KING_RUN + 1); run++)
        for (int g = 0; g < CORE_MAX_BITS; g++)
            s->zobrist_run[run][g] = splitmix(&seed);
    s->quiet_limit = quiet_limit;
    s->man_moves_progress = man_moves_progress;
    s->crownings_progress = crownings_progress;
    s->egdb_skip[0] = s->egdb_skip[1] = s->egdb_wanted = -1;
    s->egdb_dist_max = CORE_EGDB_DIST_MAX;
    s->selectivity = CORE_SEL_ALL;
    core_selective_init(s);
    uint64_t entries = 1;
    uint64_t wanted = ((uint64_t)(hash_mb > 0 ? hash_mb : 1) << 20) / sizeof(CoreTTEntry);
    while (entries * 2 <= wanted)
        entries *= 2;
    s->tt = calloc(entries, sizeof(CoreTTEntry));
    if (s->tt == NULL)
        return -1;
    s->tt_mask = entries - 1;
    return 0;
}

void core_search_set_keys(CoreSearch *s, const uint64_t tables[4][CORE_MAX_BITS], uint64_t black)
{
    memcpy(s->zobrist, tables, sizeof s->zobrist);
    s->zobrist_black = black;
    core_search_clear(s); /* stored keys were of the old tables */
}

void core_search_set_run_keys(CoreSearch *s,
                              const uint64_t tables[2 * (CORE_MAX_KING_RUN + 1)][CORE_MAX_BITS])
{
    memcpy(s->zobrist_run, tables, sizeof s->zobrist_run);
    core_search_clear(s);
}

void core_search_free(CoreSearch *s)
{
    free(s->tt);
    s->tt = NULL;
}

void core_search_clear(CoreSearch *s)
{
    if (++s->epoch == 0) /* after 2^32 clears: the entries' epochs could be read again */
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof(CoreTTEntry));
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
    memset(s->counter, 0, sizeof s->counter);
    s->age = 0;
}

void core_search_set_selectivity(CoreSearch *s, int rules) { s->selectivity = rules & CORE_SEL_ALL; }

/* The keys of both sides' runs (rules.position.run_key): 0 when neither side has one. */
static uint64_t runs_key(const CoreSearch *s, const CorePos *p)
{
    uint64_t key = 0;
    for (int half = 0; half < 2; half++) {
        uint32_t run = (p->runs >> (16 * half)) & CORE_RUN_HALF;
        int side = p->side ^ half; /* the low half is the mover's */
        if (run)
            key ^= s->zobrist_run[side * (CORE_MAX_KING_RUN + 1) + (run >> CORE_RUN_SHIFT)]
                                 [run & CORE_RUN_INDEX];
    }
    return key;
}

uint64_t core_key(const CoreSearch *s, const CorePos *p)
{
    const uint64_t(*own_men) = s->zobrist[2 * p->side];
    const uint64_t(*own_kings) = s->zobrist[2 * p->side + 1];
    const uint64_t(*opp_men) = s->zobrist[2 * (p->side ^ 1)];
    const uint64_t(*opp_kings) = s->zobrist[2 * (p->side ^ 1) + 1];
    uint64_t key = p->side ? s->zobrist_black : 0;
    for (core_bb b = p->men; b; b &= b - 1)
        key ^= own_men[bit_index(b)];
    for (core_bb b = p->kings; b; b &= b - 1)
        key ^= own_kings[bit_index(b)];
    for (core_bb b = p->opp_men; b; b &= b - 1)
        key ^= opp_men[bit_index(b)];
    for (core_bb b = p->opp_kings; b; b &= b - 1)
        key ^= opp_kings[bit_index(b)];
    return p->runs ? key ^ runs_key(s, p) : key;
}

/* The key of `child`, the position after `m`, from the parent's key (cheaper than core_key). */
static uint64_t child_key(const CoreSearch *s, const CorePos *p, const CoreMove *m,
                          const CorePos *child, uint64_t key)
{
    if (p->runs | child->runs)
        key ^= runs_key(s, p) ^ runs_key(s, child);
    const uint64_t *own_men = s->zobrist[2 * p->side];
    const uint64_t *own_kings = s->zobrist[2 * p->side + 1];
    const uint64_t *opp_men = s->zobrist[2 * (p->side ^ 1)];
    const uint64_t *opp_kings = s->zobrist[2 * (p->side ^ 1) + 1];
    int f = bit_index(m->from), t = bit_index(m->to);
    key ^= s->zobrist_black;
    if (p->men & m->from)
        key ^= own_men[f] ^ (m->crowns ? own_kings[t] : own_men[t]);
    else
        key ^= own_kings[f] ^ own_kings[t];
    for (core_bb b = m->captured; b; b &= b - 1) {
        int i = bit_index(b);
        key ^= (p->opp_men & (b & -b)) ? opp_men[i] : opp_kings[i];
    }
    return key;
}

static int is_progress(const CoreSearch *s, const CorePos *p, const CoreMove *m)
{
    if (m->captured)
        return 1;
    if (s->man_moves_progress && (p->men & m->from))
        return 1;
    return s->crownings_progress && m->crowns;
}

static int repeated(const CoreSearch *s, uint64_t key, int ply)
{
    for (int i = 0; i < ply; i++)
        if (s->path[i] == key)
            return 1;
    for (int i = 0; i < s->past_len; i++)
        if (s->past[i] == key)
            return 1;
    return 0;
}

static int check_clock(CoreSearch *s)
{
    if ((s->nodes & (CORE_CHECK_EVERY - 1)) == 0) {
        if ((s->node_limit > 0 && s->nodes >= s->node_limit) ||
            (s->deadline > 0 && core_monotonic() >= s->deadline))
            s->stopped = 1;
    }
    return s->stopped;
}

static int negamax(CoreSearch *s, const CorePos *p, uint64_t key, int depth, int alpha, int beta,
                   int ply, int quiet);

/* Remember the move that leads to `ply` (the counter-move table is indexed by it). */
static void note_played(CoreSearch *s, int ply, const CoreMove *m)
{
    s->played[ply][0] = (uint8_t)bit_index(m->from);
    s->played[ply][1] = (uint8_t)bit_index(m->to);
}

/* Plies to reduce moves[i] (a late quiet move of a node at `depth`, `child` the position after
 * it): 0 when reductions are off, or when the move offers a capture (a shot may start there). */
static int late_reduction(const CoreSearch *s, const CorePos *p, const CorePos *child,
                          const CoreMove *m, int depth, int i, int pv)
{
    if (!(s->selective & CORE_SEL_REDUCE))
        return 0;
    int r = core_reduction(s, depth, i, pv, core_history(s, p->side, m));
    return r > 1 && core_offers_capture(s, child) ? 1 : r;
}

/* A move after the first (principal-variation search): a null window at `depth` less
 * `reduction`; a reduced move that beats alpha again at full depth; one that lands inside the
 * window again with the full window.  The score is the child's, from the mover's side. */
static int later_move(CoreSearch *s, const CorePos *child, uint64_t ckey, int depth, int alpha,
                      int beta, int ply, int q, int reduction)
{
    int score = -negamax(s, child, ckey, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, q);
    if (reduction && score > alpha && !s->stopped)
        score = -negamax(s, child, ckey, depth - 1, -alpha - 1, -alpha, ply + 1, q);
    if (score > alpha && score < beta && !s->stopped)
        score = -negamax(s, child, ckey, depth - 1, -beta, -score, ply + 1, q);
    return score;
}

static int negamax(CoreSearch *s, const CorePos *p, uint64_t key, int depth, int alpha, int beta,
                   int ply, int quiet)
{
    s->nodes++;
    if (check_clock(s))
        return 0;
    if (s->rules->goal == CORE_GOAL_FIRST_KING && p->opp_kings)
        return -CORE_MATE + ply; /* the last move crowned: the first king has won */
    CoreMove buffer[CORE_STACK_MOVES];
    CoreMove *moves = buffer;
    int n = core_moves(s->rules, p, buffer, CORE_STACK_MOVES);
    if (n > CORE_STACK_MOVES) {
        moves = malloc((size_t)n * sizeof *moves);
        if (moves == NULL) {
            s->stopped = 1;
            return 0;
        }
        core_moves(s->rules, p, moves, n);
    }
    int result;
    if (n == 0) {
        /* before the draw checks: a blocking move on the last ply wins (or, giving away, loses) */
        result = s->rules->goal == CORE_GOAL_GIVE_AWAY ? CORE_MATE - ply : -CORE_MATE + ply;
        goto done;
    }
    if (ply && (repeated(s, key, ply) || core_lone_pieces(s->rules, p))) {
        result = 0;
        goto done;
    }
    if (s->quiet_limit && quiet >= s->quiet_limit) {
        result = 0;
        goto done;
    }
    if (ply && s->egdb_on && core_egdb_node(s, p, ply, quiet, &result))
        goto done; /* the endgame databases know it */
    n = core_unique_moves(moves, n); /* one of each path (as engine/reference/board.py) */
    int forced = moves[0].captured != 0;
    if (n == 1 && ply < CORE_MAX_PLY)
        depth += 1; /* a forced reply costs no depth: exchanges stay inside the horizon */
    if (depth <= 0) {
        if (!forced || ply >= CORE_MAX_PLY) {
            result = core_evaluate(&s->eval, p);
            goto done;
        }
        depth = 0; /* a capture is pending: search the captures (quiescence) */
    }

    int original_alpha = alpha;
    CoreTTEntry *e = tt_probe(s, key);
    int tt_from = NO_SQUARE, tt_to = NO_SQUARE;
    if (tt_holds(s, e, key)) {
        tt_from = e->from;
        tt_to = e->to;
        if (ply && e->depth >= depth) {
            int score = from_tt(e->score, ply);
            if (e->flag == EXACT || (e->flag == LOWER && score >= beta) ||
                (e->flag == UPPER && score <= alpha)) {
                result = score;
                goto done;
            }
        }
    }
    int pv = beta - alpha > 1;
    /* Selectivity applies only where no capture is pending, above the horizon's capture search
     * and away from win scores (selective.h). */
    int open = !forced && depth > 0 && n > 1 && alpha > -CORE_WIN_BOUND && beta < CORE_WIN_BOUND;
    if (open && !pv && (s->selective & CORE_SEL_PROBCUT) && depth >= CORE_PROBCUT_DEPTH &&
        beta + CORE_PROBCUT_MARGIN < CORE_WIN_BOUND) {
        /* ProbCut: when a search CORE_PROBCUT_SAVE plies shallower beats beta by the margin, the
         * full one is taken to fail high as well. */
        int bound = beta + CORE_PROBCUT_MARGIN;
        int shallow = negamax(s, p, key, depth - CORE_PROBCUT_SAVE, bound - 1, bound, ply, quiet);
        if (s->stopped) {
            result = 0;
            goto done;
        }
        if (shallow >= bound) {
            result = beta;
            goto done;
        }
        if (tt_from == NO_SQUARE && tt_holds(s, e, key)) { /* the shallow search's move */
            tt_from = e->from;
            tt_to = e->to;
        }
    }
    if (pv && tt_from == NO_SQUARE && depth >= 5 && n > 1) {
        /* Internal iterative deepening: a PV node without a table move finds one shallower. */
        negamax(s, p, key, depth - 2, alpha, beta, ply, quiet);
        if (s->stopped) {
            result = 0;
            goto done;
        }
        if (tt_holds(s, e, key)) {
            tt_from = e->from;
            tt_to = e->to;
        }
    }
    if (n > 1)
        core_order(s, moves, n, tt_from, tt_to, ply, p->side);
    /* Futility: a null-window node whose evaluation is a margin under alpha at depth 1-2 tries
     * only its first move and those quiet moves that cannot be cut. */
    int futile = open && !pv && (s->selective & CORE_SEL_FUTILITY) &&
                 core_futility_margin(depth) >= 0 &&
                 core_evaluate(&s->eval, p) + core_futility_margin(depth) <= alpha;
    int late_pruning = open && !pv && (s->selective & CORE_SEL_MOVECOUNT);

    int best = -INF;
    int best_index = -1;
    s->path[ply] = key;
    for (int i = 0; i < n; i++) {
        CorePos child;
        core_make(s->rules, p, &moves[i], &child);
        int cuttable = open && i > 0 && !moves[i].crowns;
        if (cuttable && (futile || (late_pruning && core_late_prune(depth, i))) &&
            !core_offers_capture(s, &child))
            continue;
        uint64_t ckey = child_key(s, p, &moves[i], &child, key);
        int q = is_progress(s, p, &moves[i]) ? 0 : quiet + 1;
        note_played(s, ply + 1, &moves[i]);
        int score;
        if (i == 0) {
            score = -negamax(s, &child, ckey, depth - 1, -beta, -alpha, ply + 1, q);
        } else {
            /* Late quiet moves are searched shallower first (late-move reduction). */
            int reduction = cuttable && depth >= 3
                                ? late_reduction(s, p, &child, &moves[i], depth, i, pv)
                                : 0;
            score = later_move(s, &child, ckey, depth, alpha, beta, ply, q, reduction);
        }
        if (s->stopped) {
            result = 0;
            goto done;
        }
        if (score > best) {
            best = score;
            best_index = i;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (!moves[i].captured)
                        core_remember_cutoff(s, moves, i, ply, depth, p->side);
                    break;
                }
            }
        }
    }
    int flag = best <= original_alpha ? UPPER : best >= beta ? LOWER : EXACT;
    tt_store(s, key, depth, flag, best, ply, best_index >= 0 ? &moves[best_index] : NULL);
    result = best;
done:
    if (moves != buffer)
        free(moves);
    return result;
}

/* One iteration at the root over `moves` (kept in order, the best moved first); the score, with
 * *best_index set.  When the clock runs out (s->stopped) the iteration is unfinished, but a move
 * that was searched in full and beat the first one is still the better move at this depth:
 * *best_index then names it (0 otherwise) and the caller may play it. */
static int search_root(CoreSearch *s, const CorePos *root, uint64_t key, CoreMove *moves, int n,
                       int depth, int alpha, int beta, int quiet, int *best_index)
{
    s->nodes++;
    int best = -INF;
    *best_index = 0;
    s->path[0] = key;
    s->played[0][0] = s->played[0][1] = NO_SQUARE;
    if (n == 1)
        depth += 1; /* a forced move costs no depth, at the root as below it */
    int open = moves[0].captured == 0;
    for (int i = 0; i < n; i++) {
        CorePos child;
        core_make(s->rules, root, &moves[i], &child);
        uint64_t ckey = child_key(s, root, &moves[i], &child, key);
        int q = is_progress(s, root, &moves[i]) ? 0 : quiet + 1;
        note_played(s, 1, &moves[i]);
        int score;
        if (i == 0) {
            score = -negamax(s, &child, ckey, depth - 1, -beta, -alpha, 1, q);
        } else {
            /* Late quiet root moves are reduced too, as at a PV node. */
            int reduction = open && depth >= 4 && !moves[i].crowns && alpha > -CORE_WIN_BOUND &&
                                    beta < CORE_WIN_BOUND
                                ? late_reduction(s, root, &child, &moves[i], depth, i, 1)
                                : 0;
            score = later_move(s, &child, ckey, depth, alpha, beta, 0, q, reduction);
        }
        if (s->stopped)
            return best;
        if (score > best) {
            best = score;
            *best_index = i;
            if (score > alpha)
                alpha = score;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

static void read_pv(CoreSearch *s, const CorePos *root, uint64_t key, CoreResult *out)
{
    CorePos p = *root;
    out->pv_len = 0;
    out->pv[out->pv_len++] = out->best;
    CoreMove first = out->best;
    CorePos next;
    core_make(s->rules, &p, &first, &next);
    key = child_key(s, &p, &first, &next, key);
    p = next;
    uint64_t seen[CORE_MAX_PV];
    int seen_len = 0;
    while (out->pv_len < CORE_MAX_PV && out->pv_len < out->depth) {
        CoreTTEntry *e = tt_probe(s, key);
        if (!tt_holds(s, e, key) || e->from == NO_SQUARE)
            break;
        for (int i = 0; i < seen_len; i++)
            if (seen[i] == key)
                return;
        seen[seen_len++] = key;
        CoreMove moves[CORE_STACK_MOVES];
        int n = core_moves(s->rules, &p, moves, CORE_STACK_MOVES);
        int found = -1;
        for (int i = 0; i < n && i < CORE_STACK_MOVES && found < 0; i++)
            if (bit_index(moves[i].from) == e->from && bit_index(moves[i].to) == e->to)
                found = i;
        if (found < 0)
            return;
        out->pv[out->pv_len++] = moves[found];
        core_make(s->rules, &p, &moves[found], &next);
        key = child_key(s, &p, &moves[found], &next, key);
        p = next;
    }
}

static int same_move(const CoreMove *a, const CoreMove *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured;
}

static void set_past(CoreSearch *s, const uint64_t *past, int past_len)
{
    if (past_len > CORE_MAX_PAST) {
        past += past_len - CORE_MAX_PAST; /* the most recent ones */
        past_len = CORE_MAX_PAST;
    }
    memcpy(s->past, past, (size_t)past_len * sizeof *past);
    s->past_len = past_len;
}

int core_search(CoreSearch *s, const CorePos *root, int quiet, const uint64_t *past, int past_len,
                int max_depth, double seconds, int64_t node_limit, int exact, CoreResult *out)
{
    double started = core_monotonic();
    memset(out, 0, sizeof *out);
    CoreMove moves[CORE_STACK_MOVES];
    int n = core_moves(s->rules, root, moves, CORE_STACK_MOVES);
    if (n == 0)
        return -1;
    if (n > CORE_STACK_MOVES)
        n = CORE_STACK_MOVES; /* contrived positions only; the search keeps the first ones */
    n = core_unique_moves(moves, n);
    n = core_egdb_root(s, root, quiet, moves, n, !exact); /* won table root: winning moves only */
    set_past(s, past, past_len);
    s->age++;
    s->nodes = 0;
    s->stopped = 0;
    s->node_limit = node_limit;
    s->deadline = seconds > 0 ? started + seconds : 0;
    s->selective = exact ? 0 : s->selectivity;
    core_ordering_age(s);
    uint64_t key = core_key(s, root);
    /* The table's move first, then captures by size (the root's own order). */
    CoreTTEntry *e = tt_probe(s, key);
    s->played[0][0] = s->played[0][1] = NO_SQUARE;
    if (n > 1)
        core_order(s, moves, n, tt_holds(s, e, key) ? e->from : NO_SQUARE,
                   tt_holds(s, e, key) ? e->to : NO_SQUARE, 0, root->side);
    int score = 0;
    double last_took = 0, previous_took = 0; /* the last two iterations' seconds */
    for (int depth = 1; depth <= max_depth && depth < CORE_MAX_PLY; depth++) {
        double iteration_started = core_monotonic();
        int alpha = -INF, beta = INF;
        if (depth >= 4 && score > -CORE_WIN_BOUND && score < CORE_WIN_BOUND) {
            alpha = score - ASPIRATION;
            beta = score + ASPIRATION;
        }
        int best_index, found;
        for (int widened = 0;; widened++) {
            found = search_root(s, root, key, moves, n, depth, alpha, beta, quiet, &best_index);
            if (s->stopped)
                break;
            /* Outside the window: widen it on that side (to the full range the second time). */
            if (found <= alpha && alpha > -INF)
                alpha = widened ? -INF : found - 4 * ASPIRATION;
            else if (found >= beta && beta < INF)
                beta = widened ? INF : found + 4 * ASPIRATION;
            else
                break;
        }
        if (s->stopped) {
            /* An unfinished iteration still proved a move better than the last one's best. */
            if (best_index > 0 && out->has_move) {
                out->best = moves[best_index];
                out->score = found;
                read_pv(s, root, key, out);
            }
            break;
        }
        int unstable = out->has_move && (!same_move(&moves[best_index], &out->best) ||
                                         found < score - UNSTABLE_DROP);
        score = found;
        CoreMove best = moves[best_index];
        memmove(&moves[1], &moves[0], (size_t)best_index * sizeof *moves);
        moves[0] = best; /* the next iteration searches the best move first */
        tt_store(s, key, depth, EXACT, score, 0, &best);
        out->best = best;
        out->has_move = 1;
        out->score = score;
        out->depth = depth;
        read_pv(s, root, key, out);
        double now = core_monotonic();
        CoreIteration *done = &out->iteration[out->iterations++];
        done->depth = depth;
        done->score = score;
        done->nodes = s->nodes;
        done->seconds = now - started;
        done->best = best;
        if (score >= CORE_WIN_BOUND || score <= -CORE_WIN_BOUND)
            break; /* a forced result: deeper search cannot change it */
        previous_took = last_took;
        last_took = now - iteration_started;
        if (seconds > 0 &&
            !core_keep_going(now - started, seconds, last_took, previous_took, unstable))
            break;
    }
    out->nodes = s->nodes;
    out->seconds = core_monotonic() - started;
    return 0;
}

int core_root_scores(CoreSearch *s, const CorePos *root, int quiet, const uint64_t *past,
                     int past_len, int depth, CoreMove *moves, int *scores, int cap)
{
    int n = core_moves(s->rules, root, moves, cap);
    if (n > cap)
        n = cap;
    n = core_unique_moves(moves, n);
    set_past(s, past, past_len);
    s->age++;
    s->nodes = 0;
    s->stopped = 0;
    s->node_limit = 0;
    s->deadline = 0;
    s->selective = 0; /* exact scores: the levels choose among them */
    s->egdb_on = 0;    /* nor endgame probes */
    uint64_t key = core_key(s, root);
    s->path[0] = key;
    s->played[0][0] = s->played[0][1] = NO_SQUARE;
    for (int i = 0; i < n; i++) {
        CorePos child;
        core_make(s->rules, root, &moves[i], &child);
        note_played(s, 1, &moves[i]);
        int q = is_progress(s, root, &moves[i]) ? 0 : quiet + 1;
        uint64_t ckey = child_key(s, root, &moves[i], &child, key);
        scores[i] = -negamax(s, &child, ckey, depth - 1, -INF, INF, 1, q);
    }
    return n;
}
