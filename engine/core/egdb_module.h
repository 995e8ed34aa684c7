/* engine._core.EndgameTable (egdb_module.c): the endgame databases' Python face. */
#ifndef DRAUGHTS_EGDB_MODULE_H
#define DRAUGHTS_EGDB_MODULE_H

#include "rules_object.h"

#include "egdb.h"

/* Add the EndgameTable type to the module; -1 with an exception set. */
int core_add_endgame(PyObject *module);

/* The solved table of an EndgameTable, or NULL with TypeError/ValueError set (not a table, or
 * no values yet). */
const Egdb *core_endgame_table(PyObject *table);

#endif
