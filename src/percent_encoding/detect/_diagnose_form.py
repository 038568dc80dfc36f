"""The findings only a form body has, for ``detect.diagnose(s, context="form")``.

Strategy: one pass over the fields of an application/x-www-form-urlencoded body,
split as the URL Standard's parser splits it (§5.1: on ``&`` only), reporting
what that parser reads differently from what the writer likely meant, or what
no browser sends (HTML §4.10.22 with the URL Standard's serializer, §5.2):

* ``;`` used as a separator (HTML 4.01 Appendix B.2.2 asked servers to accept
  it; the URL Standard's parser keeps it in the value);
* an ``=`` after the first in a field (it is data, and the serializer would
  have written ``%3D``);
* a field with no ``=`` at all, an empty name and empty fields (``&&``, a
  leading or trailing ``&``): the serializer always writes ``name=value``
  joined by single ``&``, and HTML leaves unnamed controls out;
* a line break escaped as a lone ``%0A`` or ``%0D`` (HTML makes every newline
  CRLF before encoding, so a browser sends ``%0D%0A``);
* names that belong to a protocol: ``oauth_...`` that RFC 5849 does not define
  (§3.1 reserves the prefix) and OpenID Authentication 2.0's ``openid.`` keys
  (§4.1.3).  Names are compared after percent-decoding (``+`` a space, as
  §5.1 decodes them), so ``oauth%5Fx`` is ``oauth_x``, and case-sensitively.

Raw non-ASCII and other raw characters, bad ``%`` escapes and invalid UTF-8 are
the general findings of :mod:`._diagnose`.  Linear in the length of the body.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

__all__ = ["FormFinding", "form_findings"]

# (code, start, end, message, fix): _diagnose makes each a Finding (this module sits
# below it, so the two do not import each other).
FormFinding = tuple[str, int, int, str, str]

_SEMICOLON_FIELD = re.compile(r";(?=[^&;=]*=)")
_LONE_NEWLINE = re.compile(r"%0[dD](?!%0[aA])|(?<!%0[dD])%0[aA]")


def form_findings(text: str) -> list[FormFinding]:
    """The form-only findings in ``text``, in order of position."""
    out: list[FormFinding] = []
    pos = 0
    n = len(text)
    while pos <= n:
        end = text.find("&", pos)
        if end < 0:
            end = n
        field = text[pos:end]
        if field == "":
            if n > 0 and (end < n or pos > 0):
                out.append((
                    "empty-field", pos, pos,
                    "an empty field (two '&' in a row, or one at an end): the URL "
                    "Standard's parser skips it (§5.1) and no form sends one (§5.2)",
                    "drop the extra '&'",
                ))
        else:
            _field_findings(text, pos, field, out)
            _name_findings(pos, field.partition("=")[0], out)
        pos = end + 1
    for m in _LONE_NEWLINE.finditer(text):
        out.append((
            "lone-newline", m.start(), m.end(),
            f"{m.group()} is half a line break: HTML sends every newline in a form "
            "as CR LF (§4.10.22, converting an entry list to name-value pairs)",
            "%0D%0A",
        ))
    return out


def _field_findings(text: str, pos: int, field: str, out: list[FormFinding]) -> None:
    semi = [m.start() for m in _SEMICOLON_FIELD.finditer(field)]
    for i in semi:
        out.append((
            "semicolon-separator", pos + i, pos + i + 1,
            "';' separated fields in HTML 4.01 (Appendix B.2.2), but the URL Standard's "
            "parser splits on '&' only (§5.1): this ';' and the field after it are part "
            "of the value",
            "'&' to separate fields, or %3B for a semicolon",
        ))
    # The first "=" of a field splits name from value (§5.1); after a ";" that
    # was meant as a separator, the next field's "=" is expected too.
    eq = field.find("=")
    if eq < 0:
        out.append((
            "missing-equals", pos, pos + len(field),
            f"the field {field[:40]!r} has no '=': the parser reads it as a name with an "
            "empty value (§5.1); a form always sends name=value (§5.2), and only the "
            "pre-2016 isindex field was sent without its name",
            field + "=",
        ))
        return
    if eq == 0:
        out.append((
            "empty-name", pos, pos + 1,
            "a field with an empty name: HTML leaves a control without a name out of "
            "the entry list (§4.10.22.4), so no form sends one",
            "give the field a name",
        ))
    starts = {eq} | {field.find("=", i) for i in semi}
    j = field.find("=", eq + 1)
    while j >= 0:
        if j not in starts:
            out.append((
                "raw-equals", pos + j, pos + j + 1,
                "an '=' after the first in a field is data, not a separator (§5.1), and "
                "the serializer would have written %3D (§5.2)",
                "%3D",
            ))
        j = field.find("=", j + 1)


def _name_findings(pos: int, name: str, out: list[FormFinding]) -> None:
    if not name.startswith(("o", "%")):
        return
    raw = unquote_to_bytes(name[:30].replace("+", " "))  # the prefix decides
    span = (pos, pos + len(name))
    if raw.startswith(b"oauth_"):
        from ..oauth1 import PROTOCOL_PARAMETERS, RESPONSE_PARAMETERS

        decoded = unquote_to_bytes(name.replace("+", " ")).decode("utf-8", "replace")
        if decoded not in PROTOCOL_PARAMETERS | RESPONSE_PARAMETERS:
            out.append((
                "oauth-reserved-name", *span,
                f"the name {decoded[:40]!r} begins with 'oauth_', which RFC 5849 §3.1 "
                "reserves for OAuth 1.0's own parameters, and RFC 5849 defines no such "
                "parameter: a server that speaks OAuth may refuse or misread it",
                "rename the field",
            ))
    elif raw.startswith(b"openid."):
        decoded = unquote_to_bytes(name.replace("+", " ")).decode("utf-8", "replace")
        out.append((
            "openid-name", *span,
            f"the name {decoded[:40]!r} is an OpenID Authentication 2.0 protocol key "
            "(§4.1.3: a message sent as a form names every field 'openid.'...): "
            "an OpenID provider or relying party reads it as part of the protocol",
            "rename the field, unless the body is an OpenID message",
        ))
