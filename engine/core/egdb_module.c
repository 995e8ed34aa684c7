/* engine._core.EndgameTable (engine._core_wide.EndgameTable in the wide build): the endgame
 * databases of one Rules (egdb.h), for engine/endgame.py.
 *
 * A table is built (solved, with the GIL released) or loaded from any buffer (engine/endgame.py
 * maps the cache file, so worker processes share its pages); the file format, its header and its
 * checks are the Python side's.  A Searcher probes it once attached (Searcher.set_endgame).
 */
#include "egdb_module.h"

#include "egdb_search.h"

typedef struct {
    PyObject_HEAD
    PyObject *rules; /* the Rules it was built for, kept alive */
    Egdb eg;
    Py_buffer view; /* the loaded values, when they are a caller's buffer */
    int has_view;
    int building;
    /* Distances computed beside the searches (compute_distances), until keep_distances. */
    int computing;
    int pending_first; /* the pair's first slice, -1: none */
    uint8_t *pending[2];
} TableObject;

static PyTypeObject TableType;

static void Table_release(TableObject *self)
{
    if (self->has_view) {
        PyBuffer_Release(&self->view);
        self->has_view = 0;
    }
}

static void Table_drop_pending(TableObject *self)
{
    free(self->pending[0]);
    free(self->pending[1]);
    self->pending[0] = self->pending[1] = NULL;
    self->pending_first = -1;
}

static void Table_dealloc(TableObject *self)
{
    Table_drop_pending(self);
    egdb_free(&self->eg);
    Table_release(self);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"rules", "max_pieces", NULL};
    PyObject *rules;
    int max_pieces;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!i:EndgameTable", keywords, &RulesType, &rules,
                                     &max_pieces))
        return NULL;
    if (max_pieces < 2 || max_pieces > EGDB_MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "max_pieces must be 2 to %d", EGDB_MAX_PIECES);
        return NULL;
    }
    TableObject *self = (TableObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (egdb_init(&self->eg, &((RulesObject *)rules)->rules, max_pieces) < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_INCREF(rules);
    self->rules = rules;
    self->pending_first = -1;
    return (PyObject *)self;
}

static int not_busy(TableObject *self)
{
    if (self->building) {
        PyErr_SetString(PyExc_RuntimeError, "the table is being built");
        return -1;
    }
    return 0;
}

/* Whether the values may be replaced (build, load): not while distances are computed from them. */
static int not_computing(TableObject *self)
{
    if (self->computing) {
        PyErr_SetString(PyExc_RuntimeError, "distances are being computed from the table");
        return -1;
    }
    return 0;
}

static PyObject *Table_build(TableObject *self, PyObject *Py_UNUSED(ignored))
{
    if (not_busy(self) < 0 || not_computing(self) < 0)
        return NULL;
    self->building = 1;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = egdb_solve(&self->eg, NULL, NULL);
    Py_END_ALLOW_THREADS
    self->building = 0;
    Table_release(self); /* egdb_solve replaced the values */
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Table_tobytes(TableObject *self, PyObject *Py_UNUSED(ignored))
{
    if (not_busy(self) < 0)
        return NULL;
    if (!self->eg.solved) {
        PyErr_SetString(PyExc_ValueError, "the table has no values");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)self->eg.data,
                                     (Py_ssize_t)egdb_bytes(&self->eg));
}

/* load(buffer, dtcs): use the buffer's bytes as the values (kept alive by the table) and dtcs[i]
 * as slice i's distance. */
static PyObject *Table_load(TableObject *self, PyObject *args)
{
    PyObject *data, *dtcs;
    if (not_busy(self) < 0 || not_computing(self) < 0 ||
        !PyArg_ParseTuple(args, "OO:load", &data, &dtcs))
        return NULL;
    PyObject *seq = PySequence_Fast(dtcs, "dtcs must be a sequence of ints");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != self->eg.nslices) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%d distances are needed", self->eg.nslices);
        return NULL;
    }
    int *values = PyMem_Malloc(sizeof(int) * (size_t)(self->eg.nslices + 1));
    if (!values) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < self->eg.nslices; i++)
        values[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred()) {
        PyMem_Free(values);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        PyMem_Free(values);
        return NULL;
    }
    if ((uint64_t)view.len != egdb_bytes(&self->eg)) {
        PyErr_Format(PyExc_ValueError, "the values take %llu bytes, not %zd",
                     (unsigned long long)egdb_bytes(&self->eg), view.len);
        PyBuffer_Release(&view);
        PyMem_Free(values);
        return NULL;
    }
    Table_release(self);
    self->view = view;
    self->has_view = 1;
    egdb_attach(&self->eg, (uint8_t *)view.buf);
    for (int i = 0; i < self->eg.nslices; i++)
        self->eg.slices[i].dtc = values[i];
    PyMem_Free(values);
    Py_RETURN_NONE;
}

static PyObject *Table_slices(TableObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *list = PyList_New(self->eg.nslices);
    for (int i = 0; list && i < self->eg.nslices; i++) {
        const EgdbSlice *s = &self->eg.slices[i];
        PyObject *item = Py_BuildValue("(iiiiKiO)", s->men, s->kings, s->opp_men, s->opp_kings,
                                       (unsigned long long)s->size, s->dtc,
                                       s->trusted ? Py_True : Py_False);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Table_set_policy(TableObject *self, PyObject *args)
{
    PyObject *counted;
    int quiet_limit;
    if (!PyArg_ParseTuple(args, "Oi:set_policy", &counted, &quiet_limit))
        return NULL;
    PyObject *seq = PySequence_Fast(counted, "counted must be a sequence of bools");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != self->eg.nslices) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%d flags are needed", self->eg.nslices);
        return NULL;
    }
    uint8_t *flags = PyMem_Malloc((size_t)self->eg.nslices + 1);
    if (!flags) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int bad = 0;
    for (int i = 0; i < self->eg.nslices; i++) {
        int t = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, i));
        if (t < 0)
            bad = 1;
        flags[i] = (uint8_t)(t > 0);
    }
    Py_DECREF(seq);
    if (!bad)
        egdb_set_policy(&self->eg, flags, quiet_limit);
    PyMem_Free(flags);
    if (bad)
        return NULL;
    Py_RETURN_NONE;
}

static const CoreRules *table_rules(TableObject *self) { return &self->eg.rules; }

static PyObject *Table_probe(TableObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (not_busy(self) < 0 || read_state("probe", table_rules(self), args, nargs, 0, &p) < 0)
        return NULL;
    int slice;
    return PyLong_FromLong(self->eg.solved ? egdb_probe(&self->eg, &p, &slice) : EGDB_UNKNOWN);
}

static PyObject *Table_locate(TableObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (read_state("locate", table_rules(self), args, nargs, 0, &p) < 0)
        return NULL;
    int slice;
    uint64_t index;
    if (egdb_locate(&self->eg, &p, &slice, &index) < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(iK)", slice, (unsigned long long)index);
}

static PyObject *Table_position(TableObject *self, PyObject *args)
{
    int slice;
    unsigned long long index;
    if (!PyArg_ParseTuple(args, "iK:position", &slice, &index))
        return NULL;
    if (slice < 0 || slice >= self->eg.nslices || index >= self->eg.slices[slice].size) {
        PyErr_SetString(PyExc_IndexError, "no such slice or index");
        return NULL;
    }
    CorePos p;
    if (!egdb_position(&self->eg, slice, index, &p))
        Py_RETURN_NONE;
    return position_tuple(&p, 0);
}

/* trusted(slice, quiet, quiet_limit): whether the search believes a win or loss of the slice at
 * a node `quiet` plies into a no-progress count of `quiet_limit` plies (egdb_trusted). */
static PyObject *Table_trusted(TableObject *self, PyObject *args)
{
    int slice, quiet, quiet_limit;
    if (!PyArg_ParseTuple(args, "iii:trusted", &slice, &quiet, &quiet_limit))
        return NULL;
    if (slice < 0 || slice >= self->eg.nslices) {
        PyErr_SetString(PyExc_IndexError, "no such slice");
        return NULL;
    }
    return PyBool_FromLong(egdb_trusted(&self->eg, slice, quiet, quiet_limit));
}

/* distance(own_men, own_kings, opp_men, opp_kings, side) -> plies to the end of the position's
 * slice under best play (255: a draw), or None when the position is not in the table; the
 * distances of its slice pair are recomputed (GIL released) unless they are the ones kept. */
static PyObject *Table_distance(TableObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CorePos p;
    if (not_busy(self) < 0 || read_state("distance", table_rules(self), args, nargs, 0, &p) < 0)
        return NULL;
    int slice;
    uint64_t index;
    if (!self->eg.solved || egdb_locate(&self->eg, &p, &slice, &index) < 0)
        Py_RETURN_NONE;
    int status;
    self->building = 1;
    Py_BEGIN_ALLOW_THREADS
    status = egdb_distances(&self->eg, slice, UINT64_MAX);
    Py_END_ALLOW_THREADS
    self->building = 0;
    if (status < 0)
        return PyErr_NoMemory();
    return PyLong_FromLong(egdb_distance(&self->eg, slice, index));
}

/* A slice number given from Python, or -1 with an exception set. */
static int slice_arg(TableObject *self, PyObject *arg)
{
    long slice = PyLong_AsLong(arg);
    if (slice == -1 && PyErr_Occurred())
        return -1;
    if (slice < 0 || slice >= self->eg.nslices) {
        PyErr_SetString(PyExc_IndexError, "no such slice");
        return -1;
    }
    return (int)slice;
}

/* compute_distances(slice) -> bool: the distances of `slice`'s pair, computed with the GIL
 * released into the table's pending slot while searches go on probing it (they read the values
 * only); False when the table has no values, another computation runs, or memory is short. */
static PyObject *Table_compute_distances(TableObject *self, PyObject *arg)
{
    int slice = slice_arg(self, arg);
    if (slice < 0)
        return NULL;
    if (!self->eg.solved || self->building || self->computing)
        Py_RETURN_FALSE;
    self->computing = 1;
    uint8_t *d[2];
    int first;
    Py_BEGIN_ALLOW_THREADS
    first = egdb_compute_distances(&self->eg, slice, d);
    Py_END_ALLOW_THREADS
    self->computing = 0;
    if (first < 0)
        Py_RETURN_FALSE;
    Table_drop_pending(self);
    self->pending[0] = d[0];
    self->pending[1] = d[1];
    self->pending_first = first;
    Py_RETURN_TRUE;
}

/* keep_distances() -> bool: make the pending distances the ones the search uses (the caller
 * makes sure no search runs on this table meanwhile); False when none are pending. */
static PyObject *Table_keep_distances(TableObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->pending_first < 0 || self->building)
        Py_RETURN_FALSE;
    egdb_keep_distances(&self->eg, self->pending_first, self->pending);
    self->pending[0] = self->pending[1] = NULL;
    self->pending_first = -1;
    Py_RETURN_TRUE;
}

/* has_distances(slice) -> whether the search has the distances of `slice`'s pair at hand. */
static PyObject *Table_has_distances(TableObject *self, PyObject *arg)
{
    int slice = slice_arg(self, arg);
    if (slice < 0)
        return NULL;
    return PyBool_FromLong(egdb_has_distances(&self->eg, slice));
}

static PyObject *Table_get_max_pieces(TableObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->eg.max_pieces);
}

static PyObject *Table_get_nbytes(TableObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(egdb_bytes(&self->eg));
}

static PyObject *Table_get_ready(TableObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(self->eg.solved && !self->building);
}

static PyGetSetDef Table_getset[] = {
    {"max_pieces", (getter)Table_get_max_pieces, NULL, "Most pieces of a position in it.", NULL},
    {"nbytes", (getter)Table_get_nbytes, NULL, "Bytes of its values (2 bits per index).", NULL},
    {"ready", (getter)Table_get_ready, NULL, "Whether it has its values.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Table_methods[] = {
    {"build", (PyCFunction)Table_build, METH_NOARGS,
     "Solve every slice (the GIL is released meanwhile)."},
    {"tobytes", (PyCFunction)Table_tobytes, METH_NOARGS, "The values, 2 bits per index."},
    {"load", (PyCFunction)Table_load, METH_VARARGS,
     "load(buffer, dtcs): use the buffer as the values and dtcs as the slices' distances."},
    {"slices", (PyCFunction)Table_slices, METH_NOARGS,
     "[(men, kings, opp_men, opp_kings, size, dtc, trusted), ...] in solving order."},
    {"set_policy", (PyCFunction)Table_set_policy, METH_VARARGS,
     "set_policy(counted, quiet_limit): which slices' wins and losses the search believes."},
    {"probe", (PyCFunction)(void (*)(void))Table_probe, METH_FASTCALL,
     "probe(own_men, own_kings, opp_men, opp_kings, side) -> 0 unknown, 1 win, 2 loss, 3 draw"},
    {"locate", (PyCFunction)(void (*)(void))Table_locate, METH_FASTCALL,
     "locate(own_men, own_kings, opp_men, opp_kings, side) -> (slice, index) or None"},
    {"distance", (PyCFunction)(void (*)(void))Table_distance, METH_FASTCALL,
     "distance(own_men, own_kings, opp_men, opp_kings, side) -> plies to the end of the slice "
     "(255: a draw) or None"},
    {"trusted", (PyCFunction)Table_trusted, METH_VARARGS,
     "trusted(slice, quiet, quiet_limit) -> whether the search believes its wins and losses"},
    {"compute_distances", (PyCFunction)Table_compute_distances, METH_O,
     "compute_distances(slice) -> bool: compute the distances of the slice's pair beside the "
     "searches (the GIL released), pending until keep_distances()."},
    {"keep_distances", (PyCFunction)Table_keep_distances, METH_NOARGS,
     "keep_distances() -> bool: the search uses the pending distances from now on (call it "
     "while no search runs)."},
    {"has_distances", (PyCFunction)Table_has_distances, METH_O,
     "has_distances(slice) -> whether the search has the distances of the slice's pair."},
    {"position", (PyCFunction)Table_position, METH_VARARGS,
     "position(slice, index) -> (own_men, own_kings, opp_men, opp_kings, 0) or None"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = CORE_MODULE_NAME ".EndgameTable",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "EndgameTable(rules, max_pieces)\n--\n\nWin/loss/draw of every position of up to "
              "max_pieces pieces under one Rules.",
    .tp_new = Table_new,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

const Egdb *core_endgame_table(PyObject *table)
{
    if (!PyObject_TypeCheck(table, &TableType)) {
        PyErr_SetString(PyExc_TypeError, "an EndgameTable is needed");
        return NULL;
    }
    TableObject *t = (TableObject *)table;
    if (!t->eg.solved || t->building) {
        PyErr_SetString(PyExc_ValueError, "the table has no values yet");
        return NULL;
    }
    return &t->eg;
}

int core_add_endgame(PyObject *module)
{
    if (PyType_Ready(&TableType) < 0)
        return -1;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(module, "EndgameTable", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        return -1;
    }
    if (PyModule_AddIntConstant(module, "EGDB_WIN_SCORE", CORE_EGDB_WIN) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "EGDB_DISTANCE_LIMIT", CORE_EGDB_DIST_MAX) < 0)
        return -1;
    return PyModule_AddIntConstant(module, "EGDB_MAX_PIECES", EGDB_MAX_PIECES);
}
