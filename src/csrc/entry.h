/* entry.h: the top layer (4), what entry.c gives module.c.
 *
 *   entry.c   the vectorcall entries: the public core.encode, core.decode_text,
 *             form.serialize, form.parse and url.parse as built-in functions
 *             whose fast path calls a kernel for the common call
 *   module.c  the module object, the method table, init
 *
 * Both stand on every layer below: the byte kernels (kernels.h), the URL
 * parser (url.h) and the Arrow drivers (arrow.h, arrow_url.h). */
#ifndef PE_ENTRY_H
#define PE_ENTRY_H

#include "arrow_url.h"

PE_INTERNAL int entry_init(void);
PE_INTERNAL PyObject *pe_make_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames);
PE_INTERNAL PyObject *pe_set_entries_active(PyObject *self, PyObject *flag);

#endif /* PE_ENTRY_H */
