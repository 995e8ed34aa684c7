/* engine._core.Searcher (search_module.c): the search's Python face, for module.c. */
#ifndef DRAUGHTS_SEARCH_MODULE_H
#define DRAUGHTS_SEARCH_MODULE_H

#include "rules_object.h"

/* Add the Searcher type to the module; -1 with an exception set on failure. */
int core_add_searcher(PyObject *module);

#endif
