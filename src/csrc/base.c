/* The ground of the C twin (layer 0, base.h): the exception types the kernels
 * raise, argument binding shared by every exported function, and the switch
 * that turns the C fast paths off while the pure twin is active. */
#include "base.h"

PyObject *PercentDecodeError; /* percent_encoding.errors.PercentDecodeError */
PyObject *TextDecodeError;    /* percent_encoding.errors.TextDecodeError */

int pe_fast_paths_active = 1;

int
base_init(void)
{
    PyObject *errors = PyImport_ImportModule("percent_encoding.errors");
    if (errors == NULL) {
        return -1;
    }
    Py_XDECREF(PercentDecodeError);
    Py_XDECREF(TextDecodeError);
    PercentDecodeError = PyObject_GetAttrString(errors, "PercentDecodeError");
    TextDecodeError = PyObject_GetAttrString(errors, "TextDecodeError");
    Py_DECREF(errors);
    return PercentDecodeError == NULL || TextDecodeError == NULL ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Arguments: positional or keyword, like the pure twin's def statements.    */

int
parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
           const char *const *names, Py_ssize_t n, PyObject **out)
{
    Py_ssize_t i, j, nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments but %zd were given",
                     fname, n, nargs);
        return -1;
    }
    for (i = 0; i < n; i++) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    for (j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        for (i = 0; i < n; i++) {
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                break;
            }
        }
        if (i == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname,
                         key);
            return -1;
        }
        if (out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                         names[i]);
            return -1;
        }
        out[i] = args[nargs + j];
    }
    for (i = 0; i < n; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument: '%s'", fname,
                         names[i]);
            return -1;
        }
    }
    return 0;
}
