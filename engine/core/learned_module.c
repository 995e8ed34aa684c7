/* engine._core's functions for the learned evaluation (patterns.c): the feature extractor as
 * tests see it, and the trainer tools/train_eval.py drives.  A Searcher loads weights with its
 * load_weights method (search_module.c), which calls core_eval_load_learned below. */
#include "eval.h"
#include "patterns.h"
#include "learned_module.h"
#include "rules_object.h"

int core_eval_load_learned(CoreEval *e, const CoreRules *r, PyObject *data)
{
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return -1;
    int men_rows = e->start_pieces / (2 * r->half);
    const char *error = NULL;
    int status = core_learned_load(&e->learned, r, men_rows, view.buf, (size_t)view.len, &error);
    PyBuffer_Release(&view);
    if (status < 0) {
        PyErr_SetString(PyExc_ValueError, error);
        return -1;
    }
    return 0;
}

static int rules_arg(PyObject *rules, int men_rows, CoreLayout *layout)
{
    if (!PyObject_TypeCheck(rules, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "rules must be an " CORE_MODULE_NAME ".Rules");
        return -1;
    }
    const CoreRules *r = &((RulesObject *)rules)->rules;
    if (men_rows < 1 || 2 * men_rows > r->size) {
        PyErr_SetString(PyExc_ValueError, "men_rows must be 1 to half the board");
        return -1;
    }
    core_layout_init(layout, r, men_rows);
    return 0;
}

/* learned_layout(rules, men_rows) -> (windows, dense, squares, per_phase, start_pieces) */
static PyObject *learned_layout(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rules;
    int men_rows;
    CoreLayout l;
    if (!PyArg_ParseTuple(args, "Oi:learned_layout", &rules, &men_rows) ||
        rules_arg(rules, men_rows, &l) < 0)
        return NULL;
    return Py_BuildValue("(iiiii)", l.windows, CORE_LEARNED_DENSE, l.squares, l.per_phase,
                         l.start_pieces);
}

/* learned_features(rules, men_rows, own_men, own_kings, opp_men, opp_kings, side)
 *   -> (phase, windows' states, dense terms, kings per square: +own, -theirs) */
static PyObject *learned_features(PyObject *Py_UNUSED(module), PyObject *const *args,
                                  Py_ssize_t nargs)
{
    CoreLayout l;
    CorePos p;
    if (nargs < 2) /* read_state checks the rest */
        return PyErr_Format(PyExc_TypeError, "learned_features() takes 7 or 8 arguments");
    int men_rows = (int)PyLong_AsLong(args[1]);
    if (PyErr_Occurred() || rules_arg(args[0], men_rows, &l) < 0 ||
        read_state("learned_features", &((RulesObject *)args[0])->rules, args + 2, nargs - 2, 0,
                   &p) < 0)
        return NULL;
    CoreFeatures f;
    core_learned_features(&l, &p, &f);
    int kings[CORE_MAX_BITS] = {0};
    for (int k = 0; k < f.kings; k++)
        kings[f.king_at[k] - CORE_LEARNED_DENSE] += f.king_sign[k];
    PyObject *windows = PyTuple_New(l.windows);
    PyObject *terms = PyTuple_New(CORE_LEARNED_DENSE);
    PyObject *squares = PyTuple_New(l.squares);
    if (!windows || !terms || !squares) {
        Py_XDECREF(windows);
        Py_XDECREF(terms);
        Py_XDECREF(squares);
        return NULL;
    }
    for (int k = 0; k < l.windows; k++)
        PyTuple_SET_ITEM(windows, k, PyLong_FromLong(f.window[k]));
    for (int d = 0; d < CORE_LEARNED_DENSE; d++)
        PyTuple_SET_ITEM(terms, d, PyLong_FromLong(f.dense[d]));
    for (int q = 0; q < l.squares; q++)
        PyTuple_SET_ITEM(squares, q, PyLong_FromLong(kings[q]));
    return Py_BuildValue("(iNNN)", f.phase, windows, terms, squares);
}

/* Every sample a position of r's board: its boards within the playing squares and apart, its
 * side 0 or 1.  A sample of another board (a 12x12 one handed to the 64-bit build, its high
 * halves set; ghost bits) would otherwise be trained on as some other position.  0, or -1 with
 * ValueError naming the first sample that is not. */
static int samples_check(const CoreRules *r, const CoreSample *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CorePos p;
        int held = core_sample_pos(&s[i], &p) == 0;
        core_bb own = p.men | p.kings, opp = p.opp_men | p.opp_kings;
        core_bb overlap = (p.men & p.kings) | (p.opp_men & p.opp_kings) | (own & opp);
        if (!held || ((own | opp) & ~r->valid) || overlap || (p.side != 0 && p.side != 1)) {
            PyErr_Format(PyExc_ValueError,
                         "sample %zu is not a position of this board (%d bits): a board off its "
                         "squares, pieces on one square, or a side not 0 or 1",
                         i, r->bits);
            return -1;
        }
    }
    return 0;
}

/* The samples and weights of a training call, checked against the rules and the layout
 * (views[0] the samples, views[1..] the weights); on failure nothing is left held. */
static int training_buffers(const CoreRules *r, const CoreLayout *l, PyObject *data,
                            PyObject *const *weights, int nweights, Py_buffer *views)
{
    if (PyObject_GetBuffer(data, &views[0], PyBUF_SIMPLE) < 0)
        return -1;
    int held = 1;
    if (views[0].len % (Py_ssize_t)sizeof(CoreSample) != 0) {
        PyErr_Format(PyExc_ValueError, "samples must be records of %d bytes",
                     (int)sizeof(CoreSample));
        goto fail;
    }
    if (samples_check(r, views[0].buf, (size_t)views[0].len / sizeof(CoreSample)) < 0)
        goto fail;
    for (int i = 0; i < nweights; i++) {
        if (PyObject_GetBuffer(weights[i], &views[1 + i], PyBUF_WRITABLE) < 0)
            goto fail;
        held++;
        if (views[1 + i].len != (Py_ssize_t)(2 * (size_t)l->per_phase * sizeof(double))) {
            PyErr_Format(PyExc_ValueError, "weights must be %d float64 values", 2 * l->per_phase);
            goto fail;
        }
    }
    return 0;
fail:
    for (int j = 0; j < held; j++)
        PyBuffer_Release(&views[j]);
    return -1;
}

/* learned_loss(rules, men_rows, samples, weights, scale) -> mean cross-entropy */
static PyObject *learned_loss(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rules, *data, *weights;
    int men_rows;
    double scale;
    CoreLayout l;
    Py_buffer views[2];
    if (!PyArg_ParseTuple(args, "OiOOd:learned_loss", &rules, &men_rows, &data, &weights,
                          &scale) ||
        rules_arg(rules, men_rows, &l) < 0 ||
        training_buffers(&((RulesObject *)rules)->rules, &l, data, &weights, 1, views) < 0)
        return NULL;
    double loss;
    size_t n = (size_t)views[0].len / sizeof(CoreSample);
    Py_BEGIN_ALLOW_THREADS
    loss = core_learned_loss(&l, views[0].buf, n, views[1].buf, scale);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&views[0]);
    PyBuffer_Release(&views[1]);
    return PyFloat_FromDouble(loss);
}

/* learned_train(rules, men_rows, samples, weights, m, v, step, epochs, batch, lr, l2, scale,
 *               seed) -> (mean loss of the last epoch, step) */
static PyObject *learned_train(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rules, *data, *buffers[3];
    int men_rows, epochs, batch;
    long long step;
    double lr, l2, scale;
    unsigned long long seed;
    CoreLayout l;
    Py_buffer views[4];
    if (!PyArg_ParseTuple(args, "OiOOOOLiidddK:learned_train", &rules, &men_rows, &data,
                          &buffers[0], &buffers[1], &buffers[2], &step, &epochs, &batch, &lr, &l2,
                          &scale, &seed) ||
        rules_arg(rules, men_rows, &l) < 0)
        return NULL;
    if (epochs < 0 || batch < 1 || scale <= 0) {
        PyErr_SetString(PyExc_ValueError, "epochs >= 0, batch >= 1 and scale > 0 are needed");
        return NULL;
    }
    if (training_buffers(&((RulesObject *)rules)->rules, &l, data, buffers, 3, views) < 0)
        return NULL;
    double loss;
    size_t n = (size_t)views[0].len / sizeof(CoreSample);
    Py_BEGIN_ALLOW_THREADS
    loss = core_learned_train(&l, views[0].buf, n, views[1].buf, views[2].buf, views[3].buf,
                              &step, epochs, batch, lr, l2, scale, (uint64_t)seed);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 4; i++)
        PyBuffer_Release(&views[i]);
    if (loss < 0 && n > 0 && epochs > 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(dL)", loss, step);
}

/* learned_check(rules, men_rows, data): raise ValueError unless data is a weight file for it */
static PyObject *learned_check(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rules, *data;
    int men_rows;
    CoreLayout l;
    if (!PyArg_ParseTuple(args, "OiO:learned_check", &rules, &men_rows, &data) ||
        rules_arg(rules, men_rows, &l) < 0)
        return NULL;
    CoreEval e;
    core_eval_init(&e, &((RulesObject *)rules)->rules, men_rows);
    if (core_eval_load_learned(&e, &((RulesObject *)rules)->rules, data) < 0)
        return NULL;
    core_learned_free(&e.learned);
    Py_RETURN_NONE;
}

static PyMethodDef learned_functions[] = {
    {"learned_layout", learned_layout, METH_VARARGS,
     "learned_layout(rules, men_rows) -> (windows, dense, squares, per_phase, start_pieces)"},
    {"learned_features", (PyCFunction)(void (*)(void))learned_features, METH_FASTCALL,
     "learned_features(rules, men_rows, own_men, own_kings, opp_men, opp_kings, side) -> "
     "(phase, windows, dense, kings)"},
    {"learned_loss", learned_loss, METH_VARARGS,
     "learned_loss(rules, men_rows, samples, weights, scale) -> mean cross-entropy"},
    {"learned_train", learned_train, METH_VARARGS,
     "learned_train(rules, men_rows, samples, weights, m, v, step, epochs, batch, lr, l2, "
     "scale, seed) -> (loss, step)"},
    {"learned_check", learned_check, METH_VARARGS,
     "learned_check(rules, men_rows, data): ValueError unless data is a weight file for them"},
    {NULL, NULL, 0, NULL}};

int core_add_learned(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "LEARNED_VERSION", CORE_LEARNED_VERSION) < 0 ||
        PyModule_AddIntConstant(module, "LEARNED_UNIT", CORE_LEARNED_UNIT) < 0 ||
        PyModule_AddIntConstant(module, "LEARNED_SAMPLE_SIZE", (int)sizeof(CoreSample)) < 0)
        return -1;
    return PyModule_AddFunctions(module, learned_functions);
}
