/* The Python objects the extension's C files share: Rules (module.c) is what a Searcher
 * (search_module.c) is built on. */
#ifndef DRAUGHTS_PYOBJECTS_H
#define DRAUGHTS_PYOBJECTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

typedef struct {
    PyObject_HEAD
    CoreRules rules;
} RulesObject;

extern PyTypeObject RulesType;

/* Shared argument handling (module.c): a position as five arguments (own men, own kings, their
 * men, their kings, side), checked; the positional-argument count; a move as rules' raw move. */
int read_position(const CoreRules *r, PyObject *const *args, CorePos *p);
int check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t wanted);
PyObject *move_tuple(const CoreMove *m);

/* Add the Searcher type to the module; -1 with an exception set on failure. */
int core_add_searcher(PyObject *module);

#endif
