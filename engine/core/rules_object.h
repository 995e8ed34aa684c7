/* engine._core.Rules (rules_object.c; engine._core_wide.Rules in the wide build): the Python
 * object every other face of the core is built on, and the argument handling they share.  Searcher (search_module.c), EndgameTable
 * (egdb_module.c) and the learned evaluation (learned_module.c) include this; module.c adds the
 * type to the module. */
#ifndef DRAUGHTS_RULES_OBJECT_H
#define DRAUGHTS_RULES_OBJECT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "pybb.h"

typedef struct {
    PyObject_HEAD
    CoreRules rules;
} RulesObject;

extern PyTypeObject RulesType;

/* A position as five arguments (own men, own kings, their men, their kings, side), checked:
 * -1 with ValueError unless the pieces are on playable squares and no square holds two. */
int read_position(const CoreRules *r, PyObject *const *args, CorePos *p);

/* A position as five arguments, or six with the kings' runs (CorePos.runs, checked against the
 * rules' limit), followed by `others` more: how many arguments the position took (the next one
 * is args[that]), or -1 with TypeError for another count or ValueError as read_position. */
int read_state(const char *name, const CoreRules *r, PyObject *const *args, Py_ssize_t nargs,
               Py_ssize_t others, CorePos *p);

/* 0 when a METH_FASTCALL function got exactly `wanted` positional arguments, else -1 with
 * TypeError naming it. */
int check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t wanted);

/* A move as rules' raw move (from_bit, to_bit, captured, crowns), a new reference. */
PyObject *move_tuple(const CoreMove *m);

/* A position as engine.native's state (own men, own kings, their men, their kings, side), with
 * its runs as a sixth item if `with_runs`; a new reference. */
PyObject *position_tuple(const CorePos *p, int with_runs);

#endif
