/* url_file.c: the file states of the C URL parser (see url_state.c, url.h).
 *
 * URL Standard §4.4 file, file slash and file host states: a host or none
 * ("localhost" is none), Windows drive letters where the host would be
 * (file-invalid-Windows-drive-letter-host) and at the start of a relative
 * reference (file-invalid-Windows-drive-letter), the base's drive letter kept
 * under "/x", and "shorten the path" stopping at a drive (§4.1). */
#include "url.h"

/* §4.1 starts with a Windows drive letter, on the input from i */
static int
starts_with_drive(UrlParser *P, Py_ssize_t i)
{
    Py_UCS4 c;
    if (P->n - i < 2 || !url_alpha(CH(P, i)) || (CH(P, i + 1) != ':' && CH(P, i + 1) != '|')) {
        return 0;
    }
    if (P->n - i == 2) {
        return 1;
    }
    c = CH(P, i + 2);
    return c == '/' || c == '\\' || c == '?' || c == '#';
}

/* §4.4 file host state from i (after "file:" and two slashes) */
static int
file_host(UrlParser *P, Py_ssize_t i, UrlParts *o)
{
    Py_ssize_t j = i;
    Py_UCS4 c = 0;
    int rc;
    while (j < P->n && (c = CH(P, j)) != '/' && c != '\\' && c != '?' && c != '#') {
        j++;
    }
    if (url_put(P, "//", 2) < 0) {
        return -1;
    }
    o->u_end = o->h_start = o->h_end = P->len;
    o->host_kind = HOST_EMPTY;
    if (j - i == 2 && url_alpha(CH(P, i)) && (CH(P, i + 1) == ':' || CH(P, i + 1) == '|')) {
        /* a drive letter where the host would be: it starts the path */
        char dl[3] = {'/', (char)CH(P, i), ':'};
        if (url_validation_error(P, E_DRIVE_HOST, j - 1) < 0) {
            return -1;
        }
        o->p_start = P->len;
        if (url_put(P, dl, 3) < 0) {
            return -1;
        }
        c = AT(j);
        if (c == '\\' && url_validation_error(P, E_BACKSLASH, j) < 0) {
            return -1;
        }
        if (c == '/' || c == '\\') {
            if ((rc = url_path(P, j + 1, 1, 1, o->p_start, &j)) <= 0) {
                return rc;
            }
        }
        return url_tail(P, j, 1, o);
    }
    if (j > i) {
        if ((rc = url_host(P, i, j, 1, &o->host_kind)) != 1) {
            return rc;
        }
        if (P->len - o->h_start == 9 && !memcmp(P->out + o->h_start, "localhost", 9)) {
            P->len = o->h_start;
            o->host_kind = HOST_EMPTY;
        }
        o->h_end = P->len;
    }
    return url_path_start(P, j, 1, 1, o);
}

/* §4.4 file state at i ("file:" written, or to write when from a base) */
int
url_file_state(UrlParser *P, Py_ssize_t i, const UrlBase *B, UrlParts *o)
{
    Py_UCS4 c = AT(i);
    int rc, bfile = B != NULL && B->o.s_end == 4 && !memcmp(B->href, "file", 4);
    Py_ssize_t j;
    o->s_end = 4;
    P->len = 0;
    if (url_put(P, "file:", 5) < 0) {
        return -1;
    }
    if (c == '/' || c == '\\') {
        if (c == '\\' && url_validation_error(P, E_BACKSLASH, i) < 0) {
            return -1;
        }
        /* file slash state */
        c = AT(i + 1);
        if (c == '/' || c == '\\') {
            if (c == '\\' && url_validation_error(P, E_BACKSLASH, i + 1) < 0) {
                return -1;
            }
            return file_host(P, i + 2, o);
        }
        if (bfile) {
            Py_ssize_t bp = B->o.p_start, be = url_base_path_end(B);
            if (url_copy_base_authority(P, B, o) < 0) {
                return -1;
            }
            if (!starts_with_drive(P, i + 1) && be - bp >= 3 && url_alpha(B->href[bp + 1]) &&
                B->href[bp + 2] == ':' && (be - bp == 3 || B->href[bp + 3] == '/') &&
                url_put(P, B->href + bp, 3) < 0) {
                return -1;
            }
        }
        else {
            if (url_put(P, "//", 2) < 0) {
                return -1;
            }
            o->u_end = o->h_start = o->h_end = o->p_start = P->len;
            o->host_kind = HOST_EMPTY;
        }
        if ((rc = url_path(P, i + 1, 1, 1, o->p_start, &j)) <= 0) {
            return rc;
        }
        return url_tail(P, j, 1, o);
    }
    if (bfile) {
        if (url_copy_base_authority(P, B, o) < 0 ||
            url_put(P, B->href + B->o.p_start, url_base_path_end(B) - B->o.p_start) < 0) {
            return -1;
        }
        if (c == '?' || c == EOF_CP) {
            if (c == EOF_CP && url_copy_base_query(P, B, o) < 0) {
                return -1;
            }
            return url_tail(P, i, 1, o);
        }
        if (c == '#') {
            if (url_copy_base_query(P, B, o) < 0) {
                return -1;
            }
            return url_tail(P, i, 1, o);
        }
        if (!starts_with_drive(P, i)) {
            url_shorten(P, o->p_start, 1);
        }
        else {
            if (url_validation_error(P, E_DRIVE, i) < 0) {
                return -1;
            }
            P->len = o->p_start;
        }
    }
    else {
        if (url_put(P, "//", 2) < 0) {
            return -1;
        }
        o->u_end = o->h_start = o->h_end = o->p_start = P->len;
        o->host_kind = HOST_EMPTY;
    }
    if ((rc = url_path(P, i, 1, 1, o->p_start, &j)) <= 0) {
        return rc;
    }
    return url_tail(P, j, 1, o);
}
