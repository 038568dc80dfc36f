"""Which encoding are these percent-decoded bytes in?

Strategy: the bytes of a form value or a query are short (often under 30 bytes), so a
detector must squeeze evidence out of very little.  We decode the bytes with every
candidate decoder of the WHATWG Encoding Standard (§§9-14; ``percent_encoding.encodings``)
in fatal mode (§4.1 error mode "fatal"): a candidate that cannot decode them drops out.
Each survivor's text is scored with a small language model of the languages written in
that encoding (a unigram model: ranked letter and character lists per language, with
back-off classes such as "a GB 2312 level-1 hanzi", "a C1 control", "a box-drawing
character"; a penalty for upper case inside words, which catches KOI8-R read as
windows-1251, and for words that mix alphabets; a bonus for the commonest words of the
Latin-script languages).  The score is the log-probability of the text, so a two-byte CJK reading
and a one-byte Cyrillic reading of the same bytes compete fairly; a small prior per
encoding breaks ties.  ``docs/detect.md`` has the accuracy by input length and how it
compares with charset-normalizer (which we measured and do not need).

Rules applied before scoring, in order:

1. a ``_charset_`` hint naming a known label is decisive (HTML, *constructing the entry
   list*: the browser fills a ``_charset_`` field with the encoding it used);
2. a ``probe`` hint (a hidden field with a known character) is decisive: the candidates
   whose encoder produces the submitted bytes win (the form's encoding is the page's, HTML
   *selecting a form submission encoding*; characters it lacks are sent as ``&#N;``, the
   Encoding Standard's "html" error mode as the URL Standard's urlencoded serializer uses it);
3. valid UTF-8 with at least one multi-byte sequence comes first (UTF-8 is what every
   current form sends; random legacy text is rarely valid UTF-8);
4. pure ASCII is UTF-8 (every ASCII-compatible encoding decodes it the same), unless it
   holds ISO-2022-JP escape sequences;
5. otherwise the scores decide; a ``charset`` hint (a Content-Type ``charset=``
   parameter) only adds a bonus.

Work is bounded: at most 4096 bytes are looked at (from a little before the first non-ASCII
byte), and each candidate costs one decode and one pass over the distinct characters.

The work is split by concept: :mod:`._charset_model` (the language models and the
score), :mod:`._charset_detect` (:func:`charset`: candidates, hints, the rules above)
and :mod:`._charset_form` (:func:`choose_form_encoding`: a whole form, field by
field).  This module re-exports their names.
"""

from __future__ import annotations

from ._charset_detect import DEFAULT_CANDIDATES as DEFAULT_CANDIDATES
from ._charset_detect import MAX_BYTES as MAX_BYTES
from ._charset_detect import CharsetGuess as CharsetGuess
from ._charset_detect import charset as charset
from ._charset_form import ECHO_CHARSET_FIELDS as ECHO_CHARSET_FIELDS
from ._charset_form import choose_form_encoding as choose_form_encoding
from ._charset_form import form_encodings as form_encodings

__all__ = ["DEFAULT_CANDIDATES", "CharsetGuess", "charset", "choose_form_encoding"]
