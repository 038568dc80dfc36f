/* base.h: the ground every unit of the C twin stands on (layer 0).
 *
 * The C twin is one extension module, percent_encoding._speedups, in layers;
 * a unit includes the header of its own layer and those below, and calls no
 * unit above it (tests/test_architecture.py holds this, with tools/c_layers.py):
 *
 *   0  base.h       base.c: the Python headers, the exception types, argument
 *                   binding, the fast paths' on/off switch
 *   1  kernels.h    byte kernels: encode.c, decode.c, decode_utf8.c,
 *                   decode_short.c, form.c (percent-encoding, percent-decoding,
 *                   UTF-8, the urlencoded form bytes)
 *   2  url.h        the WHATWG URL parser, its getters and setters: url*.c
 *   3  arrow.h      the Arrow column drivers: arrow*.c (arrow_url.h: URL columns)
 *   4  entry.h      entry.c (the vectorcall entries) and module.c (the module
 *                   object, the method table, init)
 *
 * Functions called from another unit are declared in their layer's header,
 * hidden from the shared object's exports (PE_INTERNAL). */
#ifndef PE_BASE_H
#define PE_BASE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Strings made through the legacy Py_UNICODE API need "readying" before 3.12. */
#if PY_VERSION_HEX < 0x030C0000
#define PE_READY(o) PyUnicode_READY(o)
#else
#define PE_READY(o) 0
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PE_SWAR 1
#endif

#if defined(__GNUC__)
#define PE_INTERNAL __attribute__((visibility("hidden")))
#else
#define PE_INTERNAL
#endif

/* base.c: the exception types the kernels raise, from percent_encoding.errors
 * (base_init, run by the module's init, looks them up). */
PE_INTERNAL extern PyObject *PercentDecodeError;
PE_INTERNAL extern PyObject *TextDecodeError;
PE_INTERNAL int base_init(void);

/* base.c: whether the C fast paths may run (the entries of entry.c and
 * URL.replace): core._use_kernels turns them off, through set_entries_active,
 * while the pure twin is the active kernel module (the test suite runs on both). */
PE_INTERNAL extern int pe_fast_paths_active;

/* base.c: bind a call's arguments, positional or keyword, like the pure twin's def
 * statements: out[0:n] gets the n parameters names[0:n]; 0, or -1 with TypeError. */
PE_INTERNAL int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames, const char *const *names, Py_ssize_t n,
                           PyObject **out);

/* Each of objs[0:n] as a truth value into out[0:n]; 0, or -1 with the exception. */
static inline int
get_flags(PyObject *const *objs, int n, int *out)
{
    int i;
    for (i = 0; i < n; i++) {
        if ((out[i] = PyObject_IsTrue(objs[i])) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A METH_FASTCALL | METH_KEYWORDS function as a method table's PyCFunction. */
#define FASTCALL_KW(f) ((PyCFunction)(void (*)(void))(f))

#endif /* PE_BASE_H */
