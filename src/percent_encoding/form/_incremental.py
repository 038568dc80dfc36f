"""Incremental (sans-IO) application/x-www-form-urlencoded parsing: ``FormParser``.

Strategy: the caller owns the I/O and feeds bytes or str in chunks of any
size; only the field being read is buffered, and each completed field goes
through the same code as :func:`parse`, so the result equals ``parse`` of the
whole body however it is chunked.  Limits raise :class:`FormLimitError`.

Spec: URL Standard §5.1 "application/x-www-form-urlencoded parser".
"""

from __future__ import annotations

from ..errors import (
    FormLimitError,
    PercentEncodingError,
    PercentEncodingTypeError,
)
from ._parse import (
    Errors,
    Pair,
    check_errors,
    check_limit,
    check_separators,
    check_strict,
    decode_fields,
    encoding_or_none,
    main_separator,
    usv,
)


class FormParser:
    """An incremental (sans-IO) application/x-www-form-urlencoded parser.

    Feed it the body in chunks of any size; each :meth:`feed` returns the
    pairs completed so far, :meth:`close` the rest.  The result is exactly
    :func:`parse` of the whole body, however it is chunked.  Only the field
    being read is buffered, so memory is bounded by the largest field.

    Limits raise :class:`FormLimitError` in the :meth:`feed` call that
    crosses them: ``max_fields`` (non-empty fields; raised when a field past
    the limit starts), ``max_field_size`` (bytes of one ``name=value``) and
    ``max_total`` (bytes of the body).  ``errors`` and ``strict`` mean what
    they mean for :func:`parse` (text decoding; a bad ``%``).

    >>> p = FormParser()
    >>> p.feed(b"a=1&b=caf%C3")
    [('a', '1')]
    >>> p.feed(b"%A9&c")
    [('b', 'café')]
    >>> p.close()
    [('c', '')]
    """

    __slots__ = (
        "_buf",
        "_closed",
        "_enc",
        "_fields",
        "_max_field_size",
        "_max_fields",
        "_max_total",
        "_offset",
        "_percent_strict",
        "_sep",
        "_seps",
        "_strict",
        "_total",
    )

    def __init__(
        self,
        *,
        encoding: str | None = None,
        max_fields: int | None = None,
        max_field_size: int | None = None,
        max_total: int | None = None,
        separators: str = "&",
        errors: Errors = "replace",
        strict: bool | None = None,
    ) -> None:
        self._enc = encoding_or_none(encoding)
        self._strict = check_errors(errors)
        self._percent_strict = check_strict(strict)
        self._seps = check_separators(separators)
        self._sep = main_separator(separators).encode("ascii")
        self._max_fields = check_limit(max_fields, "max_fields")
        self._max_field_size = check_limit(max_field_size, "max_field_size")
        self._max_total = check_limit(max_total, "max_total")
        self._buf = bytearray()
        self._fields = 0  # non-empty fields completed
        self._total = 0  # bytes fed
        self._offset = 0  # stream offset of _buf[0]
        self._closed = False

    @property
    def fields(self) -> int:
        """How many non-empty fields have been completed."""
        return self._fields

    @property
    def total(self) -> int:
        """How many bytes have been fed."""
        return self._total

    def _limit(self, what: str, limit: int, value: int, unit: str) -> FormLimitError:
        self._closed = True
        return FormLimitError(
            f"{what} exceeds {unit}={limit} (at {value}, byte {self._total} of the body)",
            unit,
            value,
        )

    def _check_partial(self) -> None:
        n = len(self._buf)
        if not n:
            return
        if self._max_field_size is not None and n > self._max_field_size:
            raise self._limit(
                f"field {self._fields + 1} ({n} bytes so far)",
                self._max_field_size,
                n,
                "max_field_size",
            )
        if self._max_fields is not None and self._fields >= self._max_fields:
            raise self._limit(
                f"field {self._fields + 1}", self._max_fields, self._fields + 1, "max_fields"
            )

    def _complete(self, head: bytes) -> list[Pair]:
        seqs = None
        if self._max_field_size is not None and len(head) > self._max_field_size:
            seqs = head.split(self._sep)
            for s in seqs:
                if len(s) > self._max_field_size:
                    raise self._limit(
                        f"a field of {len(s)} bytes", self._max_field_size, len(s),
                        "max_field_size",
                    )
        if self._max_fields is not None:
            if seqs is None:
                seqs = head.split(self._sep)
            n = sum(1 for s in seqs if s)
            if self._fields + n > self._max_fields:
                raise self._limit(
                    f"field {self._max_fields + 1}",
                    self._max_fields,
                    self._max_fields + 1,
                    "max_fields",
                )
        pairs = decode_fields(
            head, self._enc, self._strict, self._offset, self._sep.decode("ascii"),
            self._percent_strict,
        )
        self._fields += len(pairs)
        self._offset += len(head) + 1
        return pairs

    def feed(self, chunk: bytes | bytearray | memoryview | str) -> list[tuple[str, str]]:
        """Add the next chunk of the body; returns the pairs it completed."""
        if self._closed:
            raise PercentEncodingError("FormParser.feed() after close() or after an error")
        if isinstance(chunk, str):
            b = str(usv(chunk, self._strict)).encode("utf-8")
        elif isinstance(chunk, bytes):
            b = chunk
        elif isinstance(chunk, (bytearray, memoryview)):
            b = bytes(chunk)
        else:
            raise PercentEncodingTypeError(
                f"feed() takes bytes, not {type(chunk).__name__}"
            )
        if not b:
            return []
        self._total += len(b)
        if self._max_total is not None and self._total > self._max_total:
            raise self._limit("the body", self._max_total, self._total, "max_total")
        if self._seps != "&":
            for ch in self._seps:
                sb = ch.encode("ascii")
                if sb != self._sep:
                    b = b.replace(sb, self._sep)
        i = b.rfind(self._sep)
        if i < 0:
            self._buf += b
            self._check_partial()
            return []
        head = bytes(self._buf) + b[:i] if self._buf else b[:i]
        self._buf = bytearray(b[i + 1 :])
        pairs = self._complete(head)
        self._check_partial()
        return pairs

    def close(self) -> list[tuple[str, str]]:
        """End of body: returns the pairs of the last field (if any)."""
        if self._closed:
            raise PercentEncodingError("FormParser.close() called twice or after an error")
        head = bytes(self._buf)
        self._buf = bytearray()
        pairs = self._complete(head) if head else []
        self._closed = True
        return pairs


