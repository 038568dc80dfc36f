"""Earlier rules of the URL Standard's parser, replayed for ``url.parse(edition=...)``.

Strategy: the URL is parsed by today's parser, then the two rules that changed what the
parser writes into a path or a fragment (and that no encode set can express) are applied
as they stood on the date the edition names, from the git history of url.bs
(whatwg/url):

* the fragment: written as given from 05cbe06 (2014-12-15, "No longer escape code points
  in fragments") to 373dbed (2016-12-09, "Percent encode fragments too"), then encoded
  with the simple encode set until 7a3c69f (2017-12-05) gave it today's fragment
  percent-encode set; U+0000 was dropped until 3d57401 (2020-04-27);
* ``%2e``: from bee5ad8 (2016-01-14, "always decode %2e in a URL's path") every ``%2e``
  or ``%2E`` in a path was written as ``.`` until fbff683 (2016-10-28) reverted it.

Both are local: the fragment is everything after the first ``#`` of the input (once the
parser has removed tabs, newlines and the C0-or-space ends, no earlier state can hold a
``#``), and decoding a ``%2e`` cannot make a dot segment that today's parser did not
already resolve (it resolves ``%2e``, ``.%2e`` and the like).  Everything else is
today's parser: the encode sets of other dates are in ``sets`` (``whatwg-*``).
"""

from __future__ import annotations

import re

from .. import core as _core
from .. import sets as _sets
from ..errors import PercentEncodingError, PercentEncodingTypeError
from ._record import URLRecord

__all__ = ["EDITIONS", "apply_edition", "check_edition"]

# edition -> (fragment rule, %2e decoded in paths)
EDITIONS: dict[str, tuple[str, bool]] = {
    "current": ("fragment-set", False),
    "2014-12-15": ("raw", False),
    "2016-01-14": ("raw", True),
    "2016-10-28": ("raw", False),
    "2016-12-09": ("simple-set", False),
    "2017-12-05": ("fragment-set-no-nul", False),
}

_PCT_2E = re.compile("%2[eE]")
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_NL = str.maketrans("", "", "\t\n\r")


def check_edition(edition: object) -> str:
    if not isinstance(edition, str):
        raise PercentEncodingTypeError(f"edition must be a str, not {type(edition).__name__}")
    if edition not in EDITIONS:
        raise PercentEncodingError(
            f"edition={edition!r} is not one of " + ", ".join(map(repr, EDITIONS)))
    return edition


def _raw_fragment(text: str) -> str | None:
    # URL Standard §4.4 basic URL parser, steps 1-3: the ends trimmed, tabs and
    # newlines removed; then the first "#" starts the fragment state.
    cleaned = text.strip(_C0_OR_SPACE).translate(_TAB_NL)
    hash_at = cleaned.find("#")
    return None if hash_at < 0 else cleaned[hash_at + 1 :]


def apply_edition(rec: URLRecord, text: str, edition: str) -> URLRecord:
    """``rec`` (today's parse of ``text``) as the parser of ``edition`` wrote it."""
    fragment_rule, decode_2e = EDITIONS[edition]
    rec = rec.copy()
    if decode_2e and not rec.opaque_path:
        rec.path = [_PCT_2E.sub(".", seg) if "%" in seg else seg for seg in rec.path]
    if rec.fragment is not None and fragment_rule != "fragment-set":
        raw = _raw_fragment(text)
        assert raw is not None  # a fragment comes from the input's "#"
        raw = raw.replace("\x00", "")  # dropped, with a validation error, until 2020
        if fragment_rule == "simple-set":
            rec.fragment = _core.encode(raw, _sets.C0_CONTROL)
        elif fragment_rule == "fragment-set-no-nul":
            rec.fragment = _core.encode(raw, _sets.FRAGMENT)
        else:
            rec.fragment = raw
    return rec
