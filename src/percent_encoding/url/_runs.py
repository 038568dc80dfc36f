"""The buffer work of the basic URL parser (URL Standard §4.4): a state's run of text.

The states of :mod:`._parser` decide where a component starts and ends; this module
does what they do with its text, as ada's ``url_aggregator`` does for its parser:
the path's segments are split, their dot segments resolved (§4.1) and each one
checked for validation errors and percent-encoded with the path set (§1.3); a
query, a fragment, an opaque path or userinfo is checked and encoded with its own
set.  Text that needs neither encoding nor a validation error (the common case) is
recognized by one regular expression and kept as it is.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from ..core import encode
from ._host import url_unit_errors
from ._record import is_drive_letter, is_normalized_drive_letter

# A validation error's sink: (name, input offset).
Sink = Callable[[str, int], None]

# §4.1 single-dot and double-dot URL path segments: 1 and 2.
_DOTS = {seg: 1 for seg in (".", "%2e", "%2E")} | {
    a + b: 2 for a in (".", "%2e", "%2E") for b in (".", "%2e", "%2E")}


def plain_pattern(units: str) -> re.Pattern[str]:
    """A regular expression for text of ``units`` (a character class body) and "%"
    only before two hex digits: with URL code points only (§4.3), text with no
    validation error."""
    # (a run of the class, then escapes each followed by a run: no per-character
    # alternation, which is several times slower in re.  The parts never overlap,
    # so from Python 3.11 the repeats are possessive: re then keeps no backtracking
    # state for each escape, which grew faster than the text on long runs of them)
    p = _POSSESSIVE
    return re.compile(f"[{units}]*{p}(?:%[0-9A-Fa-f]{{2}}[{units}]*{p})*{p}")


_POSSESSIVE = "+" if sys.version_info >= (3, 11) else ""


# Path text that the path percent-encode set (§1.3) keeps as it is and that holds no
# validation error, with and without "/".
_PLAIN_PATH = plain_pattern(r"0-9A-Za-z!$&'()*+,\-./:;=@_~")
_PLAIN_SEGMENT = plain_pattern(r"0-9A-Za-z!$&'()*+,\-.:;=@_~")
_DOT_SEGMENT = re.compile(r"(?:^|/)(?:\.|%2[eE]){1,2}(?:/|$)")
_SEPARATORS = re.compile(r"[/\\]")


def walk_path(out: list[str], segs: list[str], file: bool) -> None:
    """The §4.4 path state's steps at the end of each segment, over whole segments.

    ``segs`` are a path text's segments, encoded, each ended by "/" but the last (by
    the path's end); they are appended to the path ``out``: a double-dot segment
    shortens it (§4.1 "shorten a URL's path": a file URL's lone normalized drive
    letter stays), a single-dot one is dropped, either one last leaves an empty
    segment, and a file URL's first segment that is a Windows drive letter gets ":".
    """
    last = len(segs) - 1
    dots = _DOTS
    for i, seg in enumerate(segs):
        d = dots.get(seg)
        if d is None:
            if file and not out and is_drive_letter(seg):
                seg = seg[0] + ":"
            out.append(seg)
            continue
        if d == 2 and out and not (file and len(out) == 1
                                   and is_normalized_drive_letter(out[0])):
            out.pop()
        if i == last:
            out.append("")


def plain_path(out: list[str], text: str, file: bool) -> None:
    """The §4.4 path state over a plain ``text`` (nothing to encode, no validation
    error: ``PLAIN_REST``'s path), appended to the path ``out``."""
    segs = text.split("/")
    if ((text[:1] == "." or "/." in text or "%2" in text)
            and _DOT_SEGMENT.search(text) is not None):
        walk_path(out, segs, file)
    else:
        if file and not out and is_drive_letter(segs[0]):
            segs[0] = segs[0][0] + ":"
        out += segs


def parse_path(out: list[str], text: str, start: int, file: bool, special: bool,
               found: list[tuple[str, int]]) -> None:
    """The §4.4 path state over ``text`` (at input offset ``start``) to its end.

    "/" (and in a special URL "\\", a validation error) ends a segment; each
    segment is checked for URL units and percent-encoded with the path set, then
    :func:`walk_path` appends it to ``out``.  Validation errors go to ``found``.
    """
    if _PLAIN_PATH.fullmatch(text) is not None:
        plain_path(out, text, file)
        return
    if special and "\\" in text:
        # segment by segment: in a special URL "\\" ends one, as a validation error
        segs = _SEPARATORS.split(text)
        off = start
        for i, seg in enumerate(segs):
            if _PLAIN_SEGMENT.fullmatch(seg) is None:
                url_unit_errors(seg, off, lambda n, p: found.append((n, p)))
                segs[i] = encode(seg, "path")
            off += len(seg)
            if off - start < len(text) and text[off - start] == "\\":
                found.append(("invalid-reverse-solidus", off))
            off += 1
    else:
        # (the path set leaves "/" as it is: the whole text at once, then its segments)
        url_unit_errors(text, start, lambda n, p: found.append((n, p)))
        segs = encode(text, "path").split("/")
    walk_path(out, segs, file)


def opaque_path_text(text: str, start: int, more: bool, err: Sink) -> str:
    """The opaque path state's run ``text`` (at input offset ``start``), encoded.

    The C0 control percent-encode set (§1.3); a space that ends the run is "%20" when
    a "?" or "#" follows it (``more``: §4.4 opaque path state)."""
    if _PLAIN_TEXT.fullmatch(text) is not None:
        return text
    url_unit_errors(text, start, err)
    enc = encode(text, "c0-control")
    if more and text[-1] == " ":
        enc = enc[:-1] + "%20"
    return enc


def query_text(text: str, start: int, special: bool, encoding: str, err: Sink) -> str:
    """The query state's run ``text`` (at input offset ``start``), encoded (§4.4).

    The special-query set in a special URL, the query set otherwise (§1.3), after
    the query's output ``encoding``."""
    # (plain by the special-query set is plain by the others: no error)
    if (_PLAIN_SPECIAL_QUERY if special else _PLAIN_TEXT).fullmatch(text) is not None:
        return text
    url_unit_errors(text, start, err)
    qset = "special-query" if special else "query"
    if encoding == "utf-8":
        return encode(text, qset)
    return encode(text, qset, encoding=encoding)


def fragment_text(text: str, start: int, err: Sink) -> str:
    """The fragment state's run ``text`` (at input offset ``start``), encoded with the
    fragment set (§1.3, §4.4)."""
    if _PLAIN_TEXT.fullmatch(text) is not None:
        return text
    url_unit_errors(text, start, err)
    return encode(text, "fragment")


def userinfo_text(text: str) -> str:
    """A username or password of the authority state, encoded with the userinfo set
    (§1.3); the state reports its validation errors itself."""
    return text if _PLAIN_USERINFO.fullmatch(text) is not None else encode(text, "userinfo")


# Text that needs neither a validation error (URL code points, "%" only before two
# hex digits, §4.3) nor percent-encoding: by the query, fragment and C0 control sets
# (§1.3), and by the special-query set ("'" too).
_PLAIN_TEXT = plain_pattern(r"0-9A-Za-z!$&'()*+,\-./:;=?@_~")
_PLAIN_SPECIAL_QUERY = plain_pattern(r"0-9A-Za-z!$&()*+,\-./:;=?@_~")
# A path's text with its query and fragment, each plain as above (the path by the
# path set, the query by the special-query set or the query set): the groups are the
# path text, the query (None: none) and the fragment (None: none).  The path states'
# step takes them to the end of the input; the *_TEXT strings are the patterns' text,
# for the parser's first step.
PLAIN_REST_TEXT = (f"({_PLAIN_PATH.pattern})(?:\\?({_PLAIN_TEXT.pattern}))?"
                   f"(?:#({_PLAIN_TEXT.pattern}))?")
PLAIN_REST = re.compile(PLAIN_REST_TEXT)
PLAIN_REST_SPECIAL_TEXT = (f"({_PLAIN_PATH.pattern})(?:\\?({_PLAIN_SPECIAL_QUERY.pattern}))?"
                           f"(?:#({_PLAIN_TEXT.pattern}))?")
PLAIN_REST_SPECIAL = re.compile(PLAIN_REST_SPECIAL_TEXT)
# Userinfo that needs neither a validation error (URL code points, "%" only before
# two hex digits, §4.3) nor percent-encoding by the userinfo set (§1.3).
_PLAIN_USERINFO = re.compile(r"[0-9A-Za-z!$%&'()*+,\-._~]*")
