/* engine._core: the native core's module, assembled from its Python faces; the same sources
 * make engine._core_wide, its 128-bit build for boards over 64 bits (core.h's CORE_WIDE names the
 * module, its init function and its types).
 *
 * Rules (rules_object.c): one variant's rules with legal_moves, count, make and perft.  Searcher
 * (search_module.c): the search in C on one Rules.  EndgameTable (egdb_module.c): the endgame
 * databases.  The learned_* functions (learned_module.c): the learned evaluation's features and
 * weights.  This file only adds them and the constants to the module, so it depends on each and
 * none depends on it.
 */
#include "egdb_module.h"
#include "learned_module.h"
#include "rules_object.h"
#include "search_module.h"

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = CORE_MODULE_NAME,
    .m_doc = "The native core: move generation and perft in C, equal to rules move for move.",
    .m_size = -1,
};

PyMODINIT_FUNC CORE_MODULE_INIT(void)
{
    if (PyType_Ready(&RulesType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module)
        return NULL;
    if (PyModule_AddIntConstant(module, "ENDS_MOVE", CORE_CROWN_ENDS_MOVE) < 0 ||
        PyModule_AddIntConstant(module, "AT_END", CORE_CROWN_AT_END) < 0 ||
        PyModule_AddIntConstant(module, "CONTINUES_AS_KING", CORE_CROWN_CONTINUES_AS_KING) < 0 ||
        PyModule_AddIntConstant(module, "MAX_SIZE", CORE_MAX_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "MAX_BITS", CORE_MAX_BITS) < 0 ||
        PyModule_AddIntConstant(module, "PREFER_MOST_PIECES", CORE_PREFER_MOST_PIECES) < 0 ||
        PyModule_AddIntConstant(module, "PREFER_WITH_KING", CORE_PREFER_WITH_KING) < 0 ||
        PyModule_AddIntConstant(module, "PREFER_MOST_KINGS", CORE_PREFER_MOST_KINGS) < 0 ||
        PyModule_AddIntConstant(module, "PREFER_KINGS_FIRST", CORE_PREFER_KINGS_FIRST) < 0 ||
        PyModule_AddIntConstant(module, "PREFER_MOST_VALUE", CORE_PREFER_MOST_VALUE) < 0 ||
        PyModule_AddIntConstant(module, "MAN_VALUE", CORE_MAN_VALUE) < 0 ||
        PyModule_AddIntConstant(module, "KING_VALUE", CORE_KING_VALUE) < 0 ||
        PyModule_AddIntConstant(module, "MAX_KING_RUN", CORE_MAX_KING_RUN) < 0 ||
        PyModule_AddIntConstant(module, "GOAL_STANDARD", CORE_GOAL_STANDARD) < 0 ||
        PyModule_AddIntConstant(module, "GOAL_GIVE_AWAY", CORE_GOAL_GIVE_AWAY) < 0 ||
        PyModule_AddIntConstant(module, "GOAL_FIRST_KING", CORE_GOAL_FIRST_KING) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(module, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(module);
        return NULL;
    }
    if (core_add_searcher(module) < 0 || core_add_learned(module) < 0 ||
        core_add_endgame(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
