"""Internationalized domain names: UTS #46 ToASCII and ToUnicode, as the URL Standard uses them.

Strategy: one implementation of UTS #46 (``_idna``, the code the URL parser's
host parser runs) behind two functions.  By default :func:`to_ascii` is the URL
Standard's *domain parser* (URL Standard §3.3 "IDNA") with beStrict false: an
ASCII domain is lowercased, anything else goes through UTS #46 §4.2 ToASCII with
the Standard's flags (CheckBidi, CheckJoiners, nontransitional), and an empty
result or one holding a forbidden domain code point fails.  The keyword flags
are UTS #46's own, so the same function does plain UTS #46 or IDNA2008-style
lookups (``url_rules=False`` drops the Standard's steps around ToASCII).
:func:`to_unicode` is §4.3 ToUnicode; by default, like the Standard's *domain to
Unicode*, an error gives the input back.

Errors: :class:`~percent_encoding.errors.IDNAError` (a ``ValueError``) with
``position`` (where the failing label starts in the input), ``rule`` and
``label``; :class:`~percent_encoding.errors.PercentEncodingTypeError` for a
non-``str`` domain or a non-``bool`` flag.
"""

from __future__ import annotations

import re

from . import _args
from .errors import IDNAError
from .url import _for_siblings as _url

__all__ = [
    "IDNAError",
    "to_ascii",
    "to_unicode",
]

# URL Standard §3.2 "forbidden domain code point": the forbidden host code
# points, the C0 controls, "%" and DEL.
_FORBIDDEN_DOMAIN_RE = re.compile(r"[\x00-\x20#/:<>?@\[\\\]^|%\x7f]")


def _label_starts(domain: str, transitional: bool) -> list[int]:
    # Where each label of the processed domain starts in the input.  Only the
    # mapping step (UTS #46 §4 step 1) makes or removes full stops: NFC never
    # moves or composes U+002E, so the k-th full stop after mapping comes from
    # the k-th input character whose mapping holds one.
    starts = [0]
    for i, ch in enumerate(domain):
        starts.extend([i + 1] * _url.uts46_map(ch, transitional).count("."))
    return starts


def _raise(domain: str, e: _url.IDNAError, transitional: bool) -> IDNAError:
    starts = _label_starts(domain, transitional)
    pos = starts[e.label] if 0 <= e.label < len(starts) else 0
    # The domain is shown whole only when short: a message stays small for a huge input.
    shown = repr(domain) if len(domain) <= 200 else (
        f"{domain[:100]!r}…{domain[-40:]!r} ({len(domain)} code points)")
    return IDNAError(f"{e} (label starting at position {pos} of {shown})", pos,
                     e.rule, e.label)


def _flag(name: str, value: bool | None, default: bool) -> bool:
    if value is None:
        return default
    _args.check_bool(name, value)
    return value


def to_ascii(
    domain: str,
    *,
    be_strict: bool = False,
    url_rules: bool = True,
    check_hyphens: bool | None = None,
    check_bidi: bool = True,
    check_joiners: bool = True,
    use_std3_ascii_rules: bool | None = None,
    transitional_processing: bool = False,
    verify_dns_length: bool | None = None,
    ignore_invalid_punycode: bool = False,
) -> str:
    """A domain in ASCII: the URL Standard's domain parser, or UTS #46 ToASCII with your flags.

    With the defaults this is what a browser does with the host of an
    ``https:`` URL (URL Standard §3.3 "domain parser" with beStrict false,
    before the IPv4 check of §3.5): UTS #46 §4.2 ToASCII with CheckBidi and
    CheckJoiners on, nontransitional, and then a failure for an empty result
    or a forbidden domain code point (§3.2).  An ASCII domain is only
    lowercased, whatever it holds (the Standard does so for web compatibility).

    ``be_strict=True`` is the Standard's strict run: CheckHyphens,
    UseSTD3ASCIIRules and VerifyDnsLength on (these three flags default to
    ``be_strict``), no ASCII shortcut (nor with any of them turned on
    alone: ``to_ascii("a" * 64 + ".com", verify_dns_length=True)`` fails on
    its 64-octet label).  ``url_rules=False`` is plain UTS #46
    ToASCII: no lowercasing shortcut, no forbidden-code-point check, an empty
    domain allowed.  The remaining keywords are UTS #46's flags (§4):
    ``to_ascii(d, url_rules=False, be_strict=True)`` is the IDNA2008-style
    lookup profile (hyphen, STD3 and DNS-length checks);
    ``transitional_processing=True`` maps the deviations (``ß`` -> ``ss``) as
    IDNA2003 did.

    Raises :class:`~percent_encoding.errors.IDNAError` with the position where
    the failing label starts in ``domain``.

    >>> to_ascii("Bücher.example")
    'xn--bcher-kva.example'
    >>> to_ascii("faß.de"), to_ascii("faß.de", transitional_processing=True)
    ('xn--fa-hia.de', 'fass.de')
    >>> to_ascii("a_b.example"), to_ascii("EXAMPLE.com")
    ('a_b.example', 'example.com')
    >>> try:
    ...     to_ascii("ok.a_b.example", be_strict=True)
    ... except IDNAError as e:
    ...     print(e.rule, e.position)
    validity 6 (UseSTD3ASCIIRules) 3
    """
    _args.check_str_input("to_ascii", domain)
    strict = _flag("be_strict", be_strict, False)
    url = _flag("url_rules", url_rules, True)
    hyphens = _flag("check_hyphens", check_hyphens, strict)
    std3 = _flag("use_std3_ascii_rules", use_std3_ascii_rules, strict)
    dns = _flag("verify_dns_length", verify_dns_length, strict)
    bidi = _flag("check_bidi", check_bidi, True)
    joiners = _flag("check_joiners", check_joiners, True)
    transitional = _flag("transitional_processing", transitional_processing, False)
    ignore_puny = _flag("ignore_invalid_punycode", ignore_invalid_punycode, False)
    if url and not (strict or hyphens or std3 or dns) and domain.isascii():
        # §3.3 domain parser step 5: ASCII is lowercased, not run through ToASCII.
        # That shortcut stands for ToASCII with the Standard's own flags; a caller
        # who turns on CheckHyphens, UseSTD3ASCIIRules or VerifyDnsLength gets
        # ToASCII itself, so the flag is not silently dropped.
        result = domain.lower()
    else:
        labels, errors = _url.uts46_process(domain, hyphens, std3, bidi, joiners, transitional,
                                        ignore_puny)
        if errors:
            raise _raise(domain, errors[0], transitional)
        try:
            out = _url.ascii_labels(labels)
        except _url.IDNAError as e:
            raise _raise(domain, e, transitional) from None
        result = ".".join(out)
        if dns:
            # UTS #46 §4.2 step 4 (VerifyDnsLength): the root label is left out of
            # the total, but it is a label, and an empty one (as jsdom's tr46 reads it).
            body = out[:-1] if len(out) > 1 and out[-1] == "" else out
            total = len(".".join(body))
            if not 1 <= total <= 253:
                raise IDNAError(f"UTS #46 4.2 (DNS length): {total} octets in {domain!r}",
                                0, "4.2 (DNS length)", 0)
            for idx, lab in enumerate(out):
                if not 1 <= len(lab) <= 63:
                    pos = _label_starts(domain, transitional)[idx]
                    raise IDNAError(
                        f"UTS #46 4.2 (DNS label length): label {idx} (at position {pos} of "
                        f"{domain!r}) is {len(lab)} octets", pos, "4.2 (DNS label length)", idx)
    if url:
        if result == "":
            raise IDNAError("the URL Standard's domain parser fails on an empty domain (§3.3)",
                            0, "empty", 0)
        m = _FORBIDDEN_DOMAIN_RE.search(result)
        if m is not None:
            label = result.count(".", 0, m.start())
            starts = _label_starts(domain, transitional) if not domain.isascii() else []
            pos = m.start() if domain.isascii() else starts[min(label, len(starts) - 1)]
            raise IDNAError(
                f"U+{ord(m.group()):04X} is a forbidden domain code point (URL Standard §3.2), "
                f"in label {label} at position {pos} of {domain!r}",
                pos, "forbidden domain code point", label)
    return result


def to_unicode(
    domain: str,
    *,
    strict: bool = False,
    check_hyphens: bool = False,
    check_bidi: bool = True,
    check_joiners: bool = True,
    use_std3_ascii_rules: bool = False,
    transitional_processing: bool = False,
    ignore_invalid_punycode: bool = False,
) -> str:
    """A domain with its ``xn--`` labels decoded: UTS #46 §4.3 ToUnicode.

    With the defaults this is the URL Standard's *domain to Unicode* (§3.3):
    the flags are the Standard's, and when UTS #46 records an error the input
    comes back unchanged (so a host the URL parser kept round-trips).  With
    ``strict=True`` an error raises
    :class:`~percent_encoding.errors.IDNAError` instead, and so does an empty
    label (other than a final root label), which Unicode's IdnaTestV2 marks
    ``X4_2``.  The keywords are UTS #46's flags, as in :func:`to_ascii`.

    >>> to_unicode("xn--bcher-kva.example")
    'bücher.example'
    >>> to_unicode("xn--8i7caa")
    'xn--8i7caa'
    >>> try:
    ...     to_unicode("xn--8i7caa", strict=True)
    ... except IDNAError as e:
    ...     print(e.rule)
    validity 6 (status not valid)
    """
    _args.check_str_input("to_unicode", domain)
    strict = _flag("strict", strict, False)
    transitional = _flag("transitional_processing", transitional_processing, False)
    labels, errors = _url.uts46_process(
        domain,
        _flag("check_hyphens", check_hyphens, False),
        _flag("use_std3_ascii_rules", use_std3_ascii_rules, False),
        _flag("check_bidi", check_bidi, True),
        _flag("check_joiners", check_joiners, True),
        transitional,
        _flag("ignore_invalid_punycode", ignore_invalid_punycode, False),
    )
    if errors:
        if strict:
            raise _raise(domain, errors[0], transitional)
        return domain
    if strict:
        # IdnaTestV2's X4_2 (UTS #46 §4.2 step 4, VerifyDnsLength, as ToUnicode
        # reports it): an empty label, other than the root label that ends a
        # domain of two labels or more ("a..b", ".b", "" and "." fail; "a.b."
        # does not).
        for idx, lab in enumerate(labels):
            if lab == "" and (idx < len(labels) - 1 or len(labels) == 1):
                pos = _label_starts(domain, transitional)[idx]
                raise IDNAError(
                    f"UTS #46 X4_2 (empty label): label {idx} at position {pos} of {domain!r} "
                    "is empty", pos, "X4_2 (empty label)", idx)
    return ".".join(labels)
