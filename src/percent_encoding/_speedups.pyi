"""The C twin, ``percent_encoding._speedups`` (built from ``src/csrc/*.c``).

The contract of every function the extension exports.  The first six have a
pure-Python twin of the same name and signature in :mod:`percent_encoding._pure`
(same results, same exceptions, same positions: ``tests/test_speedups.py``).
The rest have NO pure twin: they are the C twin's own plumbing, and the Python
code that uses them falls back to Python when the extension is absent.
"""

from collections.abc import Callable, Iterable
from typing import Any

# -- kernels with a pure twin (percent_encoding._pure) ---------------------------------

def encode(data: str | bytes, table: bytes, space_as_plus: bool) -> str:
    """Percent-encode str (its UTF-8) or bytes with a 256-byte encode-set table."""

def decode(data: str | bytes, plus_as_space: bool, strict: bool) -> bytes:
    """Percent-decode str (UTF-8 encoded first) or bytes to bytes."""

def decode_text(data: str | bytes, plus_as_space: bool, strict: bool, utf8_strict: bool) -> str:
    """Percent-decode, then UTF-8 decode without BOM."""

def form_parse(data: str | bytes) -> list[tuple[str, str]]:
    """application/x-www-form-urlencoded parser: (name, value) str pairs."""

def form_parse_bytes(data: bytes) -> list[tuple[bytes, bytes]]:
    """application/x-www-form-urlencoded parser without the UTF-8 decode."""

def form_serialize(pairs: Iterable[tuple[str, str]]) -> str:
    """application/x-www-form-urlencoded serializer (UTF-8, space as '+')."""

# -- no pure twin: entries (encode, decode_text, form.parse, form.serialize, url.parse) --

def make_entry(kind: str, fallback: Callable[..., Any], registry: dict[str, Any],
               set_type: type, name: str, doc: str) -> Callable[..., Any]:
    """NO PURE TWIN. A public function with a C fast path; ``fallback`` gets every other call."""

def set_entries_active(flag: object) -> None:
    """NO PURE TWIN. The entries' fast paths on or off (off while the pure twin is active)."""

# -- no pure twin: Arrow columns (arrow.py runs Python per row without them) -----------

def arrow_map(column: object, op: str, arg: object, plus: bool, errors: str,
              views: bool) -> Any:
    """NO PURE TWIN. A kernel over an Arrow string/binary column (PyCapsule interface)."""

def arrow_url(chunk: object, base: object, fields: object, fallback: Any, large: bool,
              first_row: int, strict: bool) -> Any:
    """NO PURE TWIN. URL components (or can-parse) of one Arrow string chunk's rows
    (``url/_columns.py`` parses each row with ``url.parse`` without it); ``strict`` makes
    an invalid row raise (``errors="strict"``) instead of giving a null."""

def arrow_set_threads(n: int) -> int:
    """NO PURE TWIN. Threads for long columns in arrow_map (1-8); returns the previous value."""

def arrow_set_blocks(on: bool) -> bool:
    """NO PURE TWIN. Whether string columns use the AVX2 block decoder (tests)."""

# -- no pure twin: the URL parser (the Python state machine is the twin) ---------------

def url_parse(input: str, base: Any = ..., raise_failure: bool = ...) -> Any:
    """NO PURE TWIN. The WHATWG URL parser: a :class:`URL`, or None when the Python parser
    must run (a failure unless ``raise_failure``)."""

def url_can_parse(input: str, base: Any = ...) -> bool | None:
    """NO PURE TWIN. The URL API's canParse (URL Standard §6.1) without building a URL:
    True, False, or None when the Python parser must say."""

def url_from_parts(href: str, parts: tuple[int, ...],
                   errors: tuple[Any, ...]) -> URL:
    """NO PURE TWIN. A :class:`URL` of an href the Python parser wrote, its component
    offsets (url/_record.py's parts_of) and validation errors."""

def url_replace(url: Any, changes: dict[str, Any]) -> Any:
    """NO PURE TWIN. The URL API setters (URL Standard §6.1) on a URL, in the order of
    ``changes``: the new URL, or None when url/_setters.py must run (a key or value that
    is not a str, a host the host hook declines)."""

def url_type_setup(record_of: Callable[[str, tuple[int, ...]], Any],
                   origin: Callable[[Any], str], display: Callable[..., str],
                   replace: Callable[..., Any], search_params: Callable[[str], Any]) -> None:
    """NO PURE TWIN. Give the :class:`URL` type what stays in Python: the record, a blob
    URL's origin, ``display``, the setters C leaves and ``URLSearchParams``."""

def url_setup(url_type: type, error_type: type, host_hook: Callable[[str], Any],
              parse_error: type, nfc_check: Callable[[str], bool] | None = None) -> None:
    """NO PURE TWIN. Give url_parse the pure twin's URL class, the ValidationError class,
    the host hook and the NFC test of decoded xn-- labels."""

class URL:
    """NO PURE TWIN (its twin is the class ``percent_encoding.url.URL``, whose virtual
    subclass it is). The URL API's object (URL Standard §6.1) in C: the href and its
    component offsets; the getters slice the href (src/csrc/url_object.c)."""

    def __new__(cls, input: str, base: Any = ...) -> Any: ...
    @property
    def href(self) -> str: ...
    @property
    def validation_errors(self) -> tuple[Any, ...]: ...
    @property
    def origin(self) -> str: ...
    @property
    def protocol(self) -> str: ...
    @property
    def scheme(self) -> str: ...
    @property
    def username(self) -> str: ...
    @property
    def password(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def hostname(self) -> str: ...
    @property
    def port(self) -> str: ...
    @property
    def pathname(self) -> str: ...
    @property
    def search(self) -> str: ...
    @property
    def search_params(self) -> Any: ...
    @property
    def hash(self) -> str: ...
    @property
    def has_opaque_path(self) -> bool: ...
    @property
    def _parts(self) -> tuple[int, ...]: ...
    @property
    def _rec(self) -> Any: ...
    def replace(self, **changes: str) -> Any: ...
    def display(self, *, scheme: bool = ..., credentials: bool = ..., host_only: bool = ...,
                query: bool = ..., fragment: bool = ..., max_length: int | None = ...,
                isolate: bool = ...) -> str: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
