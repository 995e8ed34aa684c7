/* Bitboards across the Python/C boundary: a core_bb is a Python int (rules' bitboards are).
 *
 * The 64-bit build converts with the plain PyLong calls.  The wide build (CORE_WIDE, 128-bit
 * boards) has no public CPython call for 128-bit integers, so it builds the int from its two
 * 64-bit halves (PyNumber_Lshift, PyNumber_Or) and reads it back the same way (PyNumber_Rshift);
 * a board that fits in 64 bits takes the plain calls there too.  Every module of the core
 * (rules_object.c, search_module.c, egdb_module.c, learned_module.c) crosses through these two
 * functions only.
 */
#ifndef DRAUGHTS_PYBB_H
#define DRAUGHTS_PYBB_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* A new reference to the int of `b`, or NULL with an exception set. */
static inline PyObject *core_bb_to_py(core_bb b)
{
#ifdef CORE_WIDE
    uint64_t high = (uint64_t)(b >> 64);
    if (!high)
        return PyLong_FromUnsignedLongLong((uint64_t)b);
    PyObject *top = PyLong_FromUnsignedLongLong(high);
    PyObject *bits = PyLong_FromLong(64);
    PyObject *low = PyLong_FromUnsignedLongLong((uint64_t)b);
    PyObject *shifted = top && bits ? PyNumber_Lshift(top, bits) : NULL;
    PyObject *result = shifted && low ? PyNumber_Or(shifted, low) : NULL;
    Py_XDECREF(top);
    Py_XDECREF(bits);
    Py_XDECREF(low);
    Py_XDECREF(shifted);
    return result;
#else
    return PyLong_FromUnsignedLongLong(b);
#endif
}

/* Read an int into *out: 0, or -1 with TypeError (not an int) or OverflowError (negative, or
 * not below 2 ** CORE_MAX_BITS).  Whether its bits are playing squares is the caller's check. */
static inline int core_bb_from_py(PyObject *value, core_bb *out)
{
#ifdef CORE_WIDE
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a bitboard is an int, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long low = PyLong_AsUnsignedLongLong(value);
    if (!(low == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = (core_bb)low;
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear(); /* above 64 bits, or negative: the high half says which */
    PyObject *bits = PyLong_FromLong(64);
    PyObject *top = bits ? PyNumber_Rshift(value, bits) : NULL;
    Py_XDECREF(bits);
    if (!top)
        return -1;
    unsigned long long high = PyLong_AsUnsignedLongLong(top);
    Py_DECREF(top);
    if (high == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_OverflowError,
                            "a bitboard must be a non-negative int below 2 ** 128");
        }
        return -1;
    }
    low = PyLong_AsUnsignedLongLongMask(value);
    if (low == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (core_bb)high << 64 | (core_bb)low;
    return 0;
#else
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (core_bb)v;
    return 0;
#endif
}

#endif
