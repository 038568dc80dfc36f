"""The SPARQL 1.1 Protocol's URL-encoded requests: a query (``query=``) or an update
(``update=``) with its RDF dataset parameters.

Strategy: building writes the operation's parameter first, then its graph
parameters, each value UTF-8 and percent-encoded outside RFC 3986 *unreserved*
(byte for byte what the Protocol's examples in §3.1.1, §3.1.13 and §3.2.4 send); reading parses an
``application/x-www-form-urlencoded`` body (``+`` is a space there) and checks the
Protocol's counts: exactly one ``query`` or one ``update``, never both, and graph
parameters only of that operation.

Spec: SPARQL 1.1 Protocol (W3C Recommendation 21 March 2013) §2.1.1 "query via
GET", §2.1.2 "query via POST with URL-encoded parameters" (``query`` exactly 1,
``default-graph-uri`` and ``named-graph-uri`` 0 or more), §2.2.1 "update via POST
with URL-encoded parameters" (``update`` exactly 1, ``using-graph-uri`` and
``using-named-graph-uri`` 0 or more).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import core as _core
from ..errors import PercentEncodingError, PercentEncodingTypeError
from ..sets import RFC3986_UNRESERVED
from ._parse import parse

_GRAPHS = {
    "query": ("default-graph-uri", "named-graph-uri"),
    "update": ("using-graph-uri", "using-named-graph-uri"),
}


@dataclass(frozen=True)
class SparqlRequest:
    """A SPARQL 1.1 Protocol request read from its URL-encoded form: the operation
    (``"query"`` or ``"update"``), its text, the two kinds of graph IRIs (for a
    query ``default-graph-uri`` and ``named-graph-uri``, for an update
    ``using-graph-uri`` and ``using-named-graph-uri``) and any other parameters."""

    operation: str
    text: str
    graphs: tuple[str, ...]
    named_graphs: tuple[str, ...]
    other: tuple[tuple[str, str], ...]


def _enc(text: str) -> str:
    return _core.encode(text, RFC3986_UNRESERVED)


def _iris(name: str, value: object) -> Sequence[str]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise PercentEncodingTypeError(f"{name} takes a sequence of IRIs (str), not "
                                       f"{type(value).__name__}")
    out = list(value)
    for v in out:
        if not isinstance(v, str):
            raise PercentEncodingTypeError(f"{name} holds a {type(v).__name__}, not a str")
    return out


def _build(operation: str, text: object, graphs: object, named: object) -> str:
    if not isinstance(text, str):
        raise PercentEncodingTypeError(f"the {operation} is a str, not {type(text).__name__}")
    g_name, n_name = _GRAPHS[operation]
    parts = [operation + "=" + _enc(text)]
    parts += [g_name + "=" + _enc(v) for v in _iris(g_name, graphs)]
    parts += [n_name + "=" + _enc(v) for v in _iris(n_name, named)]
    return "&".join(parts)


def sparql_query_request(
    query: str, *, default_graph_uri: Iterable[str] = (), named_graph_uri: Iterable[str] = ()
) -> str:
    """The URL-encoded parameters of a SPARQL query (SPARQL 1.1 Protocol §2.1.1 as a
    GET query string, §2.1.2 as a POST body): ``query`` then the dataset IRIs.

    >>> sparql_query_request("SELECT ?s WHERE { ?s ?p ?o }", default_graph_uri=["http://g/1"])
    'query=SELECT%20%3Fs%20WHERE%20%7B%20%3Fs%20%3Fp%20%3Fo%20%7D&default-graph-uri=http%3A%2F%2Fg%2F1'
    """
    return _build("query", query, default_graph_uri, named_graph_uri)


def sparql_update_request(
    update: str, *, using_graph_uri: Iterable[str] = (), using_named_graph_uri: Iterable[str] = ()
) -> str:
    """The URL-encoded POST body of a SPARQL update (SPARQL 1.1 Protocol §2.2.1):
    ``update`` then the ``using-graph-uri`` and ``using-named-graph-uri`` IRIs.

    >>> sparql_update_request("CLEAR ALL")
    'update=CLEAR%20ALL'
    """
    return _build("update", update, using_graph_uri, using_named_graph_uri)


def sparql_parse(data: str | bytes) -> SparqlRequest:
    """Read a URL-encoded SPARQL 1.1 Protocol request (a GET query string or a POST
    body, §2.1.1, §2.1.2, §2.2.1) and check its parameters: exactly one ``query``
    or one ``update`` (not both), and only that operation's graph parameters; else
    :class:`~percent_encoding.errors.PercentEncodingError`.

    >>> r = sparql_parse("query=ASK%20%7B%7D&named-graph-uri=http%3A%2F%2Fg")
    >>> r.operation, r.text, r.named_graphs
    ('query', 'ASK {}', ('http://g',))
    """
    pairs = parse(data)
    ops = [n for n, _ in pairs if n in _GRAPHS]
    if len(ops) != 1:
        what = "neither 'query' nor 'update'" if not ops else f"{len(ops)} of 'query'/'update'"
        raise PercentEncodingError(
            f"a SPARQL 1.1 Protocol request has exactly one 'query' or one 'update' "
            f"parameter (§2.1, §2.2); this one has {what}"
        )
    op = ops[0]
    g_name, n_name = _GRAPHS[op]
    foreign = set().union(*_GRAPHS.values()) - {g_name, n_name}
    text = ""
    graphs: list[str] = []
    named: list[str] = []
    other: list[tuple[str, str]] = []
    for name, value in pairs:
        if name == op:
            text = value
        elif name == g_name:
            graphs.append(value)
        elif name == n_name:
            named.append(value)
        elif name in foreign:
            raise PercentEncodingError(f"{name!r} is not a parameter of a SPARQL {op}")
        else:
            other.append((name, value))
    return SparqlRequest(op, text, tuple(graphs), tuple(named), tuple(other))
