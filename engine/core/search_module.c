/* engine._core.Searcher (engine._core_wide.Searcher in the wide build): the search in C
 * (search.c) on one Rules, for engine/native_search.py.
 *
 * A Searcher keeps its transposition table from search to search (a game's moves share most of
 * their trees); the search runs with the GIL released, so a worker thread or process waiting on
 * it costs nothing.  Moves come back as rules' raw moves, which the Python side has the referee
 * check before anything is played.
 */
#include "egdb_module.h"
#include "learned_module.h"
#include "rules_object.h"
#include "search_module.h"
#include "search.h"
#include "timeman.h"

typedef struct {
    PyObject_HEAD
    PyObject *rules; /* the Rules it searches with, kept alive */
    PyObject *endgame; /* the EndgameTable it probes (engine/endgame.py), or NULL */
    CoreSearch *search;
} SearcherObject;

static void Searcher_dealloc(SearcherObject *self)
{
    if (self->search) {
        core_learned_free(&self->search->eval.learned);
        core_search_free(self->search);
        PyMem_RawFree(self->search);
    }
    Py_XDECREF(self->rules);
    Py_XDECREF(self->endgame);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* `count` tables of CORE_MAX_BITS keys each from a sequence of sequences (`what` names them in
 * errors). */
static int read_tables(PyObject *tables, int count, const char *what,
                       uint64_t (*out)[CORE_MAX_BITS])
{
    PyObject *seq = PySequence_Fast(tables, what);
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, what);
        return -1;
    }
    for (int kind = 0; kind < count; kind++) {
        PyObject *table = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, kind), what);
        if (!table) {
            Py_DECREF(seq);
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(table) < CORE_MAX_BITS) {
            Py_DECREF(table);
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "each zobrist table needs %d keys", CORE_MAX_BITS);
            return -1;
        }
        for (int g = 0; g < CORE_MAX_BITS; g++) {
            out[kind][g] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(table, g));
        }
        Py_DECREF(table);
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int read_keys(PyObject *tables, PyObject *black, uint64_t out[4][CORE_MAX_BITS],
                     uint64_t *black_out)
{
    if (read_tables(tables, 4, "zobrist must be four sequences of keys", out) < 0)
        return -1;
    *black_out = PyLong_AsUnsignedLongLongMask(black);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Searcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"rules",   "men_rows",          "hash_mb",            "quiet_limit",
                               "man_moves_progress", "crownings_progress", "zobrist", "black",
                               "runs", NULL};
    PyObject *rules, *tables, *black, *run_tables = NULL;
    int men_rows, hash_mb, quiet_limit, man_progress, crown_progress;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!iiippOO|$O:Searcher", keywords, &RulesType,
                                     &rules, &men_rows, &hash_mb, &quiet_limit, &man_progress,
                                     &crown_progress, &tables, &black, &run_tables))
        return NULL;
    if (men_rows < 1 || hash_mb < 1 || hash_mb > 4096 || quiet_limit < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "men_rows >= 1, hash_mb 1 to 4096 and quiet_limit >= 0 are needed");
        return NULL;
    }
    uint64_t keys[4][CORE_MAX_BITS], black_key;
    uint64_t run_keys[2 * (CORE_MAX_KING_RUN + 1)][CORE_MAX_BITS];
    if (read_keys(tables, black, keys, &black_key) < 0)
        return NULL;
    if (run_tables && read_tables(run_tables, 2 * (CORE_MAX_KING_RUN + 1),
                                  "runs must be sixteen sequences of keys", run_keys) < 0)
        return NULL;
    SearcherObject *self = (SearcherObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->search = PyMem_RawCalloc(1, sizeof(CoreSearch));
    if (!self->search) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_INCREF(rules);
    self->rules = rules;
    const CoreRules *r = &((RulesObject *)rules)->rules;
    if (core_search_init(self->search, r, men_rows, hash_mb, quiet_limit, man_progress,
                         crown_progress) < 0) {
        PyMem_RawFree(self->search);
        self->search = NULL;
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    core_search_set_keys(self->search, (const uint64_t(*)[CORE_MAX_BITS])keys, black_key);
    if (run_tables)
        core_search_set_run_keys(self->search, (const uint64_t(*)[CORE_MAX_BITS])run_keys);
    return (PyObject *)self;
}

static const CoreRules *rules_of(SearcherObject *self)
{
    return &((RulesObject *)self->rules)->rules;
}

/* The game's keys since its last progress move, as a C array (caller frees); -1 on error. */
static int read_past(PyObject *past, uint64_t **out, int *len)
{
    PyObject *seq = PySequence_Fast(past, "past must be a sequence of keys");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    *out = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    if (!*out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        (*out)[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred()) {
        PyMem_Free(*out);
        return -1;
    }
    *len = (int)n;
    return 0;
}

/* search(own_men, own_kings, opp_men, opp_kings, side, [runs,] quiet, past, max_depth, seconds,
 *        node_limit, exact) -> (move or None, score, depth, nodes, seconds, pv, iterations) */
static PyObject *Searcher_search(SearcherObject *self, PyObject *const *all, Py_ssize_t nargs)
{
    CorePos p;
    int at = read_state("search", rules_of(self), all, nargs, 6, &p);
    if (at < 0)
        return NULL;
    PyObject *const *args = all + at - 5; /* args[5] is quiet, as without runs */
    int exact = PyObject_IsTrue(args[10]);
    if (exact < 0)
        return NULL;
    int quiet = (int)PyLong_AsLong(args[5]);
    int max_depth = (int)PyLong_AsLong(args[7]);
    double seconds = PyFloat_AsDouble(args[8]);
    long long node_limit = PyLong_AsLongLong(args[9]);
    if (PyErr_Occurred())
        return NULL;
    if (quiet < 0 || max_depth < 1) {
        PyErr_SetString(PyExc_ValueError, "quiet >= 0 and max_depth >= 1 are needed");
        return NULL;
    }
    uint64_t *past;
    int past_len;
    if (read_past(args[6], &past, &past_len) < 0)
        return NULL;
    CoreResult *out = PyMem_RawMalloc(sizeof *out);
    if (!out) {
        PyMem_Free(past);
        return PyErr_NoMemory();
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = core_search(self->search, &p, quiet, past, past_len, max_depth, seconds,
                         (int64_t)node_limit, exact, out);
    Py_END_ALLOW_THREADS
    PyMem_Free(past);
    if (status < 0) {
        PyMem_RawFree(out);
        PyErr_SetString(PyExc_ValueError, "the position has no legal move");
        return NULL;
    }
    PyObject *pv = PyList_New(out->has_move ? out->pv_len : 0);
    for (int i = 0; pv && out->has_move && i < out->pv_len; i++) {
        PyObject *move = move_tuple(&out->pv[i]);
        if (!move) {
            Py_CLEAR(pv);
            break;
        }
        PyList_SET_ITEM(pv, i, move);
    }
    PyObject *iterations = PyList_New(out->iterations);
    for (int i = 0; iterations && i < out->iterations; i++) {
        const CoreIteration *it = &out->iteration[i];
        PyObject *item = Py_BuildValue("(iiLdN)", it->depth, it->score, (long long)it->nodes,
                                       it->seconds, move_tuple(&it->best));
        if (!item) {
            Py_CLEAR(iterations);
            break;
        }
        PyList_SET_ITEM(iterations, i, item);
    }
    PyObject *best = out->has_move ? move_tuple(&out->best) : Py_NewRef(Py_None);
    PyObject *result = NULL;
    if (pv && best && iterations)
        result = Py_BuildValue("(OiiLdOO)", best, out->score, out->depth, (long long)out->nodes,
                               out->seconds, pv, iterations);
    Py_XDECREF(pv);
    Py_XDECREF(best);
    Py_XDECREF(iterations);
    PyMem_RawFree(out);
    return result;
}

/* root_scores(own_men, own_kings, opp_men, opp_kings, side, [runs,] quiet, past, depth)
 *   -> [(score, move), ...] best first */
static PyObject *Searcher_root_scores(SearcherObject *self, PyObject *const *all,
                                      Py_ssize_t nargs)
{
    CorePos p;
    int at = read_state("root_scores", rules_of(self), all, nargs, 3, &p);
    if (at < 0)
        return NULL;
    PyObject *const *args = all + at - 5; /* args[5] is quiet, as without runs */
    int quiet = (int)PyLong_AsLong(args[5]);
    int depth = (int)PyLong_AsLong(args[7]);
    if (PyErr_Occurred())
        return NULL;
    if (quiet < 0 || depth < 1 || depth > 32) {
        PyErr_SetString(PyExc_ValueError, "quiet >= 0 and depth 1 to 32 are needed");
        return NULL;
    }
    uint64_t *past;
    int past_len;
    if (read_past(args[6], &past, &past_len) < 0)
        return NULL;
    enum { CAP = 512 };
    CoreMove *moves = PyMem_RawMalloc(CAP * sizeof *moves);
    int *scores = PyMem_RawMalloc(CAP * sizeof *scores);
    if (!moves || !scores) {
        PyMem_Free(past);
        PyMem_RawFree(moves);
        PyMem_RawFree(scores);
        return PyErr_NoMemory();
    }
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = core_root_scores(self->search, &p, quiet, past, past_len, depth, moves, scores, CAP);
    Py_END_ALLOW_THREADS
    PyMem_Free(past);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(iN)", scores[i], move_tuple(&moves[i]));
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_RawFree(moves);
    PyMem_RawFree(scores);
    return list;
}

static PyObject *Searcher_evaluate(SearcherObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (read_state("evaluate", rules_of(self), args, nargs, 0, &p) < 0)
        return NULL;
    return PyLong_FromLong(core_evaluate(&self->search->eval, &p));
}

static PyObject *Searcher_key(SearcherObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (read_state("key", rules_of(self), args, nargs, 0, &p) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(core_key(self->search, &p));
}

/* endgame() -> the endgame table set_endgame attached, or None. */
static PyObject *Searcher_endgame(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!self->endgame)
        Py_RETURN_NONE;
    return Py_NewRef(self->endgame);
}

/* set_distance_limit(indices): the largest slice pair whose distances a won root computes on
 * the spot (CORE_EGDB_DIST_MAX unless a test makes small pairs go the background's way). */
static PyObject *Searcher_set_distance_limit(SearcherObject *self, PyObject *arg)
{
    unsigned long long indices = PyLong_AsUnsignedLongLong(arg);
    if (indices == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    self->search->egdb_dist_max = indices;
    Py_RETURN_NONE;
}

/* endgame_wanted() -> the slice of the last search's won table root whose distances were not
 * at hand (egdb_search.h), or -1. */
static PyObject *Searcher_endgame_wanted(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(self->search->egdb_wanted);
}

static PyObject *Searcher_clear(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    core_search_clear(self->search);
    Py_RETURN_NONE;
}

/* load_weights(data): the learned evaluation's weights (a weight file's bytes, checked) */
static PyObject *Searcher_load_weights(SearcherObject *self, PyObject *data)
{
    if (core_eval_load_learned(&self->search->eval, rules_of(self), data) < 0)
        return NULL;
    if (self->search->eval.use_learned)
        core_search_clear(self->search); /* the table's scores came from other weights */
    Py_RETURN_NONE;
}

/* use_learned(flag) -> whether the learned evaluation is now used (it needs weights); the table
 * is cleared when the evaluation changes, its scores being the other one's. */
static PyObject *Searcher_use_learned(SearcherObject *self, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    if (on < 0)
        return NULL;
    CoreEval *e = &self->search->eval;
    int before = e->use_learned && e->learned.weights;
    e->use_learned = on;
    int after = e->use_learned && e->learned.weights;
    if (before != after)
        core_search_clear(self->search);
    return PyBool_FromLong(after);
}

/* set_endgame(table or None): probe these endgame databases (of this Searcher's rules) from the
 * next search on; None stops probing. */
static PyObject *Searcher_set_endgame(SearcherObject *self, PyObject *table)
{
    const Egdb *eg = NULL;
    if (table != Py_None) {
        eg = core_endgame_table(table);
        if (!eg)
            return NULL;
        if (!core_rules_same_game(&eg->rules, rules_of(self))) {
            PyErr_SetString(PyExc_ValueError, "the table is for other rules");
            return NULL;
        }
    }
    Py_XSETREF(self->endgame, table == Py_None ? NULL : Py_NewRef(table));
    self->search->egdb = eg;
    Py_RETURN_NONE;
}

/* set_selectivity(rules): the selectivity rules (selective.h's CORE_SEL_* bits) timed searches
 * use from the next search on; the tests compare each rule with the search without it. */
static PyObject *Searcher_set_selectivity(SearcherObject *self, PyObject *rules)
{
    long bits = PyLong_AsLong(rules);
    if (bits == -1 && PyErr_Occurred())
        return NULL;
    core_search_set_selectivity(self->search, (int)bits);
    Py_RETURN_NONE;
}

static PyMethodDef Searcher_methods[] = {
    {"load_weights", (PyCFunction)Searcher_load_weights, METH_O,
     "load_weights(data): the learned evaluation's weights (ValueError if they do not fit)."},
    {"use_learned", (PyCFunction)Searcher_use_learned, METH_O,
     "use_learned(flag) -> whether the learned evaluation is now used."},
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_FASTCALL,
     "search(own_men, own_kings, opp_men, opp_kings, side, quiet, past, max_depth, seconds, "
     "node_limit, exact) -> (move or None, score, depth, nodes, seconds, pv, iterations)"},
    {"root_scores", (PyCFunction)(void (*)(void))Searcher_root_scores, METH_FASTCALL,
     "root_scores(own_men, own_kings, opp_men, opp_kings, side, quiet, past, depth) -> "
     "[(score, move), ...]"},
    {"evaluate", (PyCFunction)(void (*)(void))Searcher_evaluate, METH_FASTCALL,
     "The static evaluation, in centimen from the side to move."},
    {"key", (PyCFunction)(void (*)(void))Searcher_key, METH_FASTCALL,
     "The position's Zobrist key (rules' Position.key with rules' tables)."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "Forget the table (a new game)."},
    {"endgame", (PyCFunction)Searcher_endgame, METH_NOARGS,
     "endgame() -> the endgame table set_endgame attached, or None."},
    {"set_distance_limit", (PyCFunction)Searcher_set_distance_limit, METH_O,
     "set_distance_limit(indices): the largest slice pair whose distances a won root computes "
     "on the spot (larger ones: endgame_wanted)."},
    {"endgame_wanted", (PyCFunction)Searcher_endgame_wanted, METH_NOARGS,
     "endgame_wanted() -> the slice of the last search's won table root whose distances were "
     "not at hand, or -1."},
    {"set_endgame", (PyCFunction)Searcher_set_endgame, METH_O,
     "set_endgame(table or None): the endgame databases to probe (timed searches only)."},
    {"set_selectivity", (PyCFunction)Searcher_set_selectivity, METH_O,
     "set_selectivity(rules): the selectivity rules (bits) timed searches use."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = CORE_MODULE_NAME ".Searcher",
    .tp_basicsize = sizeof(SearcherObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(rules, men_rows, hash_mb, quiet_limit, man_moves_progress, "
              "crownings_progress, zobrist, black)\n--\n\nThe search in C on one Rules.",
    .tp_new = Searcher_new,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

/* keep_going(elapsed, budget, last_took, previous_took, unstable) -> bool: timeman.h's decision,
 * for the tests to put cases to it without searching. */
static PyObject *keep_going(PyObject *Py_UNUSED(module), PyObject *args)
{
    double elapsed, budget, last_took, previous_took;
    int unstable;
    if (!PyArg_ParseTuple(args, "ddddp:keep_going", &elapsed, &budget, &last_took, &previous_took,
                          &unstable))
        return NULL;
    return PyBool_FromLong(core_keep_going(elapsed, budget, last_took, previous_took, unstable));
}

static PyMethodDef time_functions[] = {
    {"keep_going", keep_going, METH_VARARGS,
     "keep_going(elapsed, budget, last_took, previous_took, unstable) -> whether the search "
     "starts another iteration"},
    {NULL, NULL, 0, NULL}};

int core_add_searcher(PyObject *module)
{
    if (PyType_Ready(&SearcherType) < 0 || PyModule_AddFunctions(module, time_functions) < 0)
        return -1;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(module, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(&SearcherType);
        return -1;
    }
    return 0;
}
