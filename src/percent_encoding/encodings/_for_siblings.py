"""What the encodings package hands its sibling modules, and the one place they take it from.

``detect`` is the public face of the charset detector that lives here, below the form
parser (:mod:`._detect` gathers it: :class:`CharsetGuess`, :func:`charset`,
:func:`choose_form_encoding`, :func:`form_encodings`, ``ECHO_CHARSET_FIELDS``).  Those
names are re-exported by :mod:`percent_encoding.detect`, not by :mod:`percent_encoding.encodings`,
so the sibling takes them from here.

Specs: the WHATWG Encoding Standard (the decoders the detector tries); HTML §4.10.22
(the ``_charset_`` field).
"""

from __future__ import annotations

from ._detect import ECHO_CHARSET_FIELDS as ECHO_CHARSET_FIELDS
from ._detect import CharsetGuess as CharsetGuess
from ._detect import charset as charset
from ._detect import choose_form_encoding as choose_form_encoding
from ._detect import form_encodings as form_encodings
