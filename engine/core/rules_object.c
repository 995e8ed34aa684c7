/* engine._core.Rules (engine._core_wide.Rules in the wide build, core.h): the rules of one
 * variant as the core needs them (built from a
 * rules.variants.Variant by engine/native.py, never from a variant's name), with the calls that
 * prove the core equal to the referee and measure it: legal_moves, count, make and perft.
 *
 * Its own unit because every other Python face is built on it: a Searcher (search_module.c), an
 * EndgameTable (egdb_module.c) and the learned evaluation (learned_module.c) take a Rules and read
 * positions and write moves with the helpers below, while module.c only assembles the module.
 * Every call takes the position as four bitboards seen from the side to move plus the side
 * (0 White, 1 Black), and where the rules limit a king's moves in a row the kings' runs as a sixth
 * (core.h's CorePos.runs; engine/native.py packs them), checks them, and converts once at the
 * boundary; inside, no Python object is touched (perft runs with the GIL released).
 */
#include "rules_object.h"

#include <stddef.h>

#include "movegen.h"
#include "perft.h"

/* -- construction -------------------------------------------------------------------------- */

/* The precedence criteria: a sequence of CORE_PREFER_* codes, at most CORE_MAX_PRECEDENCE. */
static int read_precedence(PyObject *value, CoreRuleData *d)
{
    PyObject *items = PySequence_Fast(value, "precedence must be a sequence of codes");
    if (!items)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    if (n > CORE_MAX_PRECEDENCE) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "at most %d precedence criteria", CORE_MAX_PRECEDENCE);
        return -1;
    }
    d->nprecedence = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if (code == -1 && PyErr_Occurred()) {
            Py_DECREF(items);
            return -1;
        }
        d->precedence[i] = (int)code;
    }
    Py_DECREF(items);
    return 0;
}

static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"size",       "men_capture_backward", "flying_kings",
                               "precedence", "crowning",             "men_capture_kings",
                               "goal",       "mirrored",             "king_stops_behind",
                               "captures_removed_at_once",           "orthogonal",
                               "king_turns_back",                    "lone_pieces_draw",
                               "captures_in_eight_directions",       "king_move_limit",
                               NULL};
    CoreRuleData d = {0};
    PyObject *precedence;
    d.men_capture_kings = 1;
    d.goal = CORE_GOAL_STANDARD;
    d.king_turns_back = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ippOi|$pipppppppi:Rules", keywords, &d.size,
                                     &d.men_capture_backward, &d.flying_kings, &precedence,
                                     &d.crowning, &d.men_capture_kings, &d.goal, &d.mirrored,
                                     &d.king_stops_behind, &d.removed_at_once, &d.orthogonal,
                                     &d.king_turns_back, &d.lone_pieces_draw, &d.eight_way,
                                     &d.king_move_limit))
        return NULL;
    if (read_precedence(precedence, &d) < 0)
        return NULL;
    RulesObject *self = (RulesObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (core_rules_init(&self->rules, &d) < 0) {
        Py_DECREF(self);
        PyErr_Format(PyExc_ValueError,
                     "unsupported rules: size %d (even, 4 to %d; orthogonal: at most %d, not "
                     "mirrored, no eight-way captures), crowning code %d, a precedence code "
                     "(the most value not with kings first), goal code %d or king move limit %d "
                     "(0 to %d)",
                     d.size, CORE_MAX_SIZE, CORE_MAX_ORTHOGONAL_SIZE, d.crowning, d.goal,
                     d.king_move_limit, CORE_MAX_KING_RUN);
        return NULL;
    }
    return (PyObject *)self;
}

/* -- reading arguments --------------------------------------------------------------------- */

/* args[0..5): own men, own kings, their men, their kings, side; refused unless the pieces are
 * on playable squares and no square holds two. */
int read_position(const CoreRules *r, PyObject *const *args, CorePos *p)
{
    if (core_bb_from_py(args[0], &p->men) < 0 || core_bb_from_py(args[1], &p->kings) < 0 ||
        core_bb_from_py(args[2], &p->opp_men) < 0 || core_bb_from_py(args[3], &p->opp_kings) < 0)
        return -1;
    long side = PyLong_AsLong(args[4]);
    if (side == -1 && PyErr_Occurred())
        return -1;
    if (side != 0 && side != 1) {
        PyErr_SetString(PyExc_ValueError, "side must be 0 (White) or 1 (Black)");
        return -1;
    }
    p->side = (int)side;
    p->runs = 0;
    core_bb all = p->men | p->kings | p->opp_men | p->opp_kings;
    if (all & ~r->valid) {
        PyErr_SetString(PyExc_ValueError, "a piece stands outside the board's playable squares");
        return -1;
    }
    if ((p->men & p->kings) || ((p->men | p->kings) & (p->opp_men | p->opp_kings)) ||
        (p->opp_men & p->opp_kings)) {
        PyErr_SetString(PyExc_ValueError, "two pieces stand on the same square");
        return -1;
    }
    return 0;
}

/* The kings' runs (CorePos.runs) of `value`: each half 0, or a playable bit's index with a run
 * of 1 to the rules' limit (the king need not stand there: rules keeps the run of a king just
 * taken until its side moves); none where the rules set no limit. */
static int read_runs(const CoreRules *r, PyObject *value, CorePos *p)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    for (int half = 0; half < 2; half++) {
        unsigned long long run = (v >> (16 * half)) & CORE_RUN_HALF;
        unsigned long long length = run >> CORE_RUN_SHIFT;
        unsigned long long index = run & CORE_RUN_INDEX;
        if (run && (length < 1 || (int)length > r->king_move_limit || (int)index >= r->bits ||
                    !(r->valid & CORE_BIT(index)))) {
            PyErr_SetString(PyExc_ValueError,
                            "runs must name a playing square and a run of 1 to the rules' "
                            "king move limit (none without a limit)");
            return -1;
        }
    }
    if (v >> 32) {
        PyErr_SetString(PyExc_ValueError, "runs must fit in 32 bits");
        return -1;
    }
    p->runs = (uint32_t)v;
    return 0;
}

int read_state(const char *name, const CoreRules *r, PyObject *const *args, Py_ssize_t nargs,
               Py_ssize_t others, CorePos *p)
{
    if (nargs != 5 + others && nargs != 6 + others) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd or %zd positional arguments (%zd given)",
                     name, 5 + others, 6 + others, nargs);
        return -1;
    }
    if (read_position(r, args, p) < 0)
        return -1;
    if (nargs == 6 + others && read_runs(r, args[5], p) < 0)
        return -1;
    return (int)(nargs - others);
}

int check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t wanted)
{
    if (nargs == wanted)
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments (%zd given)", name,
                 wanted, nargs);
    return -1;
}

PyObject *move_tuple(const CoreMove *m)
{
    /* (N steals the new references, and releases them should one conversion fail.) */
    return Py_BuildValue("(NNNO)", core_bb_to_py(m->from), core_bb_to_py(m->to),
                         core_bb_to_py(m->captured), m->crowns ? Py_True : Py_False);
}

PyObject *position_tuple(const CorePos *p, int with_runs)
{
    PyObject *men = core_bb_to_py(p->men), *kings = core_bb_to_py(p->kings);
    PyObject *opp_men = core_bb_to_py(p->opp_men), *opp_kings = core_bb_to_py(p->opp_kings);
    if (with_runs)
        return Py_BuildValue("(NNNNik)", men, kings, opp_men, opp_kings, p->side,
                             (unsigned long)p->runs);
    return Py_BuildValue("(NNNNi)", men, kings, opp_men, opp_kings, p->side);
}

/* -- methods ------------------------------------------------------------------------------- */

static PyObject *Rules_legal_moves(RulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (read_state("legal_moves", &self->rules, args, nargs, 0, &p) < 0)
        return NULL;
    CoreMove stack_moves[CORE_STACK_MOVES];
    CoreMove *moves = stack_moves;
    int n = core_moves(&self->rules, &p, moves, CORE_STACK_MOVES);
    if (n > CORE_STACK_MOVES) {
        moves = PyMem_New(CoreMove, (size_t)n);
        if (!moves)
            return PyErr_NoMemory();
        core_moves(&self->rules, &p, moves, n);
    }
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = move_tuple(&moves[i]);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    if (moves != stack_moves)
        PyMem_Free(moves);
    return list;
}

static PyObject *Rules_count(RulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (read_state("count", &self->rules, args, nargs, 0, &p) < 0)
        return NULL;
    return PyLong_FromLong(core_count(&self->rules, &p));
}

static PyObject *Rules_make(RulesObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p, child;
    CoreMove m;
    PyObject *crowns;
    int at = read_state("make", &self->rules, args, nargs, 1, &p);
    if (at < 0)
        return NULL;
    PyObject *move = args[at];
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 4) {
        PyErr_SetString(PyExc_TypeError, "a move is a tuple (from, to, captured, crowns)");
        return NULL;
    }
    if (core_bb_from_py(PyTuple_GET_ITEM(move, 0), &m.from) < 0 ||
        core_bb_from_py(PyTuple_GET_ITEM(move, 1), &m.to) < 0 ||
        core_bb_from_py(PyTuple_GET_ITEM(move, 2), &m.captured) < 0)
        return NULL;
    crowns = PyTuple_GET_ITEM(move, 3);
    int truth = PyObject_IsTrue(crowns);
    if (truth < 0)
        return NULL;
    m.crowns = truth;
    /* Enough checking that a wrong move cannot build an impossible state (legality is the
     * caller's business, as for rules' Position.play). */
    int one_from = m.from && !(m.from & (m.from - 1)) && (m.from & (p.men | p.kings));
    int one_to = m.to && !(m.to & (m.to - 1)) && (m.to & self->rules.valid);
    /* (The destination may be the square of a piece the move takes, where captured pieces
     * leave the board at once.) */
    core_bb others = (p.men | p.kings | p.opp_men | p.opp_kings) & ~m.from & ~m.captured;
    if (!one_from || !one_to || (m.to & others) || (m.captured & ~(p.opp_men | p.opp_kings))) {
        PyErr_SetString(PyExc_ValueError, "the move does not fit the position");
        return NULL;
    }
    core_make(&self->rules, &p, &m, &child);
    /* No runs: the five items of engine.native.core_state. */
    return position_tuple(&child, self->rules.king_move_limit != 0);
}

/* The `distinct` keyword of perft (False when not given); -1 with TypeError for another
 * keyword. */
static int read_distinct(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int distinct = 0;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(name, "distinct") != 0) {
            PyErr_Format(PyExc_TypeError, "perft() got an unexpected keyword argument '%U'",
                         name);
            return -1;
        }
        distinct = PyObject_IsTrue(args[nargs + i]);
        if (distinct < 0)
            return -1;
    }
    return distinct;
}

static PyObject *Rules_perft(RulesObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    CorePos p;
    int distinct = read_distinct(args, nargs, kwnames);
    if (distinct < 0)
        return NULL;
    int at = read_state("perft", &self->rules, args, nargs, 1, &p);
    if (at < 0)
        return NULL;
    long depth = PyLong_AsLong(args[at]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (depth > 64) {
        PyErr_SetString(PyExc_ValueError, "perft depth above 64");
        return NULL;
    }
    int64_t leaves;
    Py_BEGIN_ALLOW_THREADS
    leaves = core_perft(&self->rules, &p, (int)depth, distinct);
    Py_END_ALLOW_THREADS
    if (leaves < 0)
        return PyErr_NoMemory();
    return PyLong_FromLongLong((long long)leaves);
}

static PyMethodDef Rules_methods[] = {
    {"legal_moves", (PyCFunction)(void (*)(void))Rules_legal_moves, METH_FASTCALL,
     "legal_moves(own_men, own_kings, opp_men, opp_kings, side, [runs,] /)\n--\n\n"
     "The legal moves as rules' raw moves (from_bit, to_bit, captured, crowns), one per capture "
     "path, in rules' order; runs: the kings' runs (engine/native.py), 0 by default."},
    {"count", (PyCFunction)(void (*)(void))Rules_count, METH_FASTCALL,
     "count(own_men, own_kings, opp_men, opp_kings, side, [runs,] /)\n--\n\n"
     "len(legal_moves(...)) without building the moves."},
    {"make", (PyCFunction)(void (*)(void))Rules_make, METH_FASTCALL,
     "make(own_men, own_kings, opp_men, opp_kings, side, [runs,] move, /)\n--\n\n"
     "The position after a legal move, seen from the new side to move, with its runs where the "
     "rules limit a king's moves in a row."},
    {"perft", (PyCFunction)(void (*)(void))Rules_perft, METH_FASTCALL | METH_KEYWORDS,
     "perft(own_men, own_kings, opp_men, opp_kings, side, [runs,] depth, /, *, distinct=False)"
     "\n--\n\n"
     "The number of move sequences of exactly depth plies, counted as rules.perft counts (one "
     "move per landing path); distinct: capture routes with the same origin, destination and "
     "captured pieces count once, as the published figures of the large boards do."},
    {NULL, NULL, 0, NULL}};

/* -- attributes ---------------------------------------------------------------------------- */

static PyObject *get_size(RulesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->rules.size);
}
static PyObject *get_squares(RulesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->rules.squares);
}
static PyObject *get_valid(RulesObject *self, void *closure)
{
    (void)closure;
    return core_bb_to_py(self->rules.valid);
}
static PyObject *get_top_row(RulesObject *self, void *closure)
{
    (void)closure;
    return core_bb_to_py(self->rules.promo[0]);
}
static PyObject *get_bottom_row(RulesObject *self, void *closure)
{
    (void)closure;
    return core_bb_to_py(self->rules.promo[1]);
}
static PyObject *get_men_capture_backward(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.men_capture_backward);
}
static PyObject *get_flying_kings(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.flying_kings);
}
static PyObject *get_men_capture_kings(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.men_capture_kings);
}
static PyObject *get_precedence(RulesObject *self, void *closure)
{
    (void)closure;
    PyObject *codes = PyTuple_New(self->rules.nprecedence);
    for (int i = 0; codes && i < self->rules.nprecedence; i++) {
        PyObject *code = PyLong_FromLong(self->rules.precedence[i]);
        if (!code) {
            Py_CLEAR(codes);
            break;
        }
        PyTuple_SET_ITEM(codes, i, code);
    }
    return codes;
}
static PyObject *get_mirrored(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.mirrored);
}
static PyObject *get_majority_only(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.majority_only);
}
static PyObject *get_king_stops_behind(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.king_stops_behind);
}
static PyObject *get_captures_removed_at_once(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.removed_at_once);
}
static PyObject *get_orthogonal(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.orthogonal);
}
static PyObject *get_king_turns_back(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.king_turns_back);
}
static PyObject *get_lone_pieces_draw(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.lone_pieces_draw);
}
static PyObject *get_eight_way(RulesObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->rules.eight_way);
}
static PyObject *get_king_move_limit(RulesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->rules.king_move_limit);
}
static PyObject *get_goal(RulesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->rules.goal);
}
static PyObject *get_crowning(RulesObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->rules.crowning);
}

static PyGetSetDef Rules_getset[] = {
    {"size", (getter)get_size, NULL, "Squares along one side.", NULL},
    {"squares", (getter)get_squares, NULL, "Playable squares.", NULL},
    {"valid", (getter)get_valid, NULL, "Bitboard of the playable bits (ghosts excluded).", NULL},
    {"top_row", (getter)get_top_row, NULL, "Where White's men are crowned.", NULL},
    {"bottom_row", (getter)get_bottom_row, NULL, "Where Black's men are crowned.", NULL},
    {"men_capture_backward", (getter)get_men_capture_backward, NULL, NULL, NULL},
    {"flying_kings", (getter)get_flying_kings, NULL, NULL, NULL},
    {"men_capture_kings", (getter)get_men_capture_kings, NULL, NULL, NULL},
    {"precedence", (getter)get_precedence, NULL, "PREFER_* codes, in order (): free choice.",
     NULL},
    {"goal", (getter)get_goal, NULL, "GOAL_STANDARD, GOAL_GIVE_AWAY or GOAL_FIRST_KING.", NULL},
    {"mirrored", (getter)get_mirrored, NULL, "a1 is not a playing square.", NULL},
    {"majority_only", (getter)get_majority_only, NULL,
     "The precedence is the most pieces alone (the majority rule).", NULL},
    {"king_stops_behind", (getter)get_king_stops_behind, NULL,
     "A flying king's capture lands just beyond the piece it takes.", NULL},
    {"captures_removed_at_once", (getter)get_captures_removed_at_once, NULL,
     "Captured pieces leave the board as they are jumped.", NULL},
    {"orthogonal", (getter)get_orthogonal, NULL,
     "Every square is played, along rows and columns.", NULL},
    {"king_turns_back", (getter)get_king_turns_back, NULL,
     "A capturing flying king may turn back the way it came between two jumps.", NULL},
    {"lone_pieces_draw", (getter)get_lone_pieces_draw, NULL,
     "One piece against one is drawn at once.", NULL},
    {"captures_in_eight_directions", (getter)get_eight_way, NULL,
     "Men and kings also capture along the board's other lines.", NULL},
    {"king_move_limit", (getter)get_king_move_limit, NULL,
     "A king's non-capturing moves in a row while its side has men (0: no limit).", NULL},
    {"crowning", (getter)get_crowning, NULL, "ENDS_MOVE, AT_END or CONTINUES_AS_KING.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = CORE_MODULE_NAME ".Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rules(size, men_capture_backward, flying_kings, precedence, crowning, *, "
              "men_capture_kings=True, goal=GOAL_STANDARD, mirrored=False, "
              "king_stops_behind=False, captures_removed_at_once=False, orthogonal=False, "
              "king_turns_back=True, lone_pieces_draw=False, captures_in_eight_directions=False, "
              "king_move_limit=0)\n--\n\n"
              "The rules of one variant as the native core reads them.",
    .tp_new = Rules_new,
    .tp_methods = Rules_methods,
    .tp_getset = Rules_getset,
};
