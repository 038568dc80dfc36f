/* The module object: the method table and init (the top layer, entry.h). */
#include "entry.h"

/* ------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"encode", FASTCALL_KW(pe_encode), METH_FASTCALL | METH_KEYWORDS,
     "encode(data, table, space_as_plus)\n--\n\n"
     "Percent-encode str (its UTF-8) or bytes with a 256-byte encode-set table."},
    {"decode", FASTCALL_KW(pe_decode), METH_FASTCALL | METH_KEYWORDS,
     "decode(data, plus_as_space, strict)\n--\n\n"
     "Percent-decode str (UTF-8 encoded first) or bytes to bytes."},
    {"decode_text", FASTCALL_KW(pe_decode_text), METH_FASTCALL | METH_KEYWORDS,
     "decode_text(data, plus_as_space, strict, utf8_strict)\n--\n\n"
     "Percent-decode, then UTF-8 decode without BOM."},
    {"form_parse", FASTCALL_KW(pe_form_parse), METH_FASTCALL | METH_KEYWORDS,
     "form_parse(data)\n--\n\n"
     "application/x-www-form-urlencoded parser: a list of (name, value) str pairs."},
    {"form_parse_bytes", FASTCALL_KW(pe_form_parse_bytes), METH_FASTCALL | METH_KEYWORDS,
     "form_parse_bytes(data)\n--\n\n"
     "application/x-www-form-urlencoded parser without the UTF-8 decode: bytes pairs."},
    {"form_serialize", FASTCALL_KW(pe_form_serialize), METH_FASTCALL | METH_KEYWORDS,
     "form_serialize(pairs)\n--\n\n"
     "application/x-www-form-urlencoded serializer (UTF-8, space as '+')."},
    {"make_entry", FASTCALL_KW(pe_make_entry), METH_FASTCALL | METH_KEYWORDS,
     "make_entry(kind, fallback, registry, set_type, name, doc)\n--\n\n"
     "A public function (a built-in function named name, docstring doc) with a C fast path; "
     "'fallback' gets every other call."},
    {"set_entries_active", pe_set_entries_active, METH_O,
     "set_entries_active(flag)\n--\n\n"
     "Turn the entries' fast paths on or off (off while the pure twin is the active kernel)."},
    {"arrow_map", FASTCALL_KW(pe_arrow_map), METH_FASTCALL | METH_KEYWORDS,
     "arrow_map(column, op, arg, plus, errors, views)\n--\n\n"
     "Run a kernel over an Arrow string/binary column (PyCapsule interface); see arrow.c."},
    {"arrow_set_threads", pe_arrow_set_threads, METH_O,
     "arrow_set_threads(n)\n--\n\n"
     "Threads for long columns in arrow_map (1-8); returns the previous value."},
    {"arrow_set_blocks", pe_arrow_set_blocks, METH_O,
     "arrow_set_blocks(on)\n--\n\n"
     "Whether string columns go through the AVX2 block decoder (where the CPU has it): "
     "0/False no, 1 yes, 2/True yes with AVX-512 for the UTF-8 window check (where the "
     "CPU has it); returns the previous level.  For tests."},
    {"arrow_url", FASTCALL_KW(pe_arrow_url), METH_FASTCALL | METH_KEYWORDS,
     "arrow_url(chunk, base, fields, fallback, large, first_row, strict)\n--\n\n"
     "URL components (or can-parse) of one Arrow string chunk's rows; see arrow_url.c."},
    {"url_parse", (PyCFunction)(void (*)(void))pe_url_parse, METH_FASTCALL,
     "url_parse(input, base=None, raise_failure=False)\n--\n\n"
     "The WHATWG URL parser: a URL (the C type), or None when the Python parser must run "
     "(a failure unless raise_failure; see url.c)."},
    {"url_replace", (PyCFunction)(void (*)(void))pe_url_replace, METH_FASTCALL,
     "url_replace(url, changes)\n--\n\n"
     "The URL API setters (URL Standard 6.1) on a URL, in the order of the dict "
     "changes: the new URL, or None when the Python setters must run (see url_setters.c)."},
    {"url_can_parse", (PyCFunction)(void (*)(void))pe_url_can_parse, METH_FASTCALL,
     "url_can_parse(input, base=None)\n--\n\n"
     "The URL API's canParse (URL Standard 6.1) without building a URL: True, False, or "
     "None when the Python parser must say."},
    {"url_from_parts", (PyCFunction)(void (*)(void))pe_url_from_parts, METH_FASTCALL,
     "url_from_parts(href, parts, errors)\n--\n\n"
     "A URL (the C type) of an href the Python parser wrote, its component offsets and "
     "validation errors."},
    {"url_type_setup", FASTCALL_KW(pe_url_type_setup), METH_FASTCALL | METH_KEYWORDS,
     "url_type_setup(record_of, origin, display, replace, search_params)\n--\n\n"
     "Give the URL type what stays in Python: the record, a blob origin, display, the "
     "setters C leaves and URLSearchParams."},
    {"url_setup", FASTCALL_KW(pe_url_setup), METH_FASTCALL | METH_KEYWORDS,
     "url_setup(url_type, error_type, host_hook, parse_error, nfc_check=None)\n--\n\n"
     "Give url_parse the URL class, the ValidationError class and the cached host hook."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    "percent_encoding._speedups",
    "C twin of percent_encoding._pure (same functions, same results).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (base_init() < 0) {
        return NULL;
    }
    fill_enc_table(&form_table, PE_FORM_URLENCODED, 1);
    fill_pct4();
    fill_hex_pairs();
    if (arrow_init() < 0 || entry_init() < 0) {
        return NULL;
    }
    {
        PyObject *m = PyModule_Create(&moduledef);
        url_object_parse = url_fast_new;
        url_object_replace = url_replace_core;
        if (m != NULL && url_object_init(m) < 0) {
            Py_CLEAR(m);
        }
        return m;
    }
}
