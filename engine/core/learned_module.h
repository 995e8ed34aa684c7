/* The learned evaluation's Python side (learned_module.c), for module.c and search_module.c. */
#ifndef DRAUGHTS_LEARNED_MODULE_H
#define DRAUGHTS_LEARNED_MODULE_H

#include "rules_object.h"

#include "eval.h"

/* Add the learned_* functions and constants to the module; -1 with an exception set. */
int core_add_learned(PyObject *module);

/* Load a weight file (any buffer) into e for rules r; -1 with ValueError saying what is wrong
 * (e keeps what it had). */
int core_eval_load_learned(CoreEval *e, const CoreRules *r, PyObject *data);

#endif
