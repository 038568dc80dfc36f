"""Every public module's ``__all__`` says exactly what it offers.

For each public module (no part of its dotted name starts with ``_``): every name in
``__all__`` exists, and every public name the module defines at top level (a function,
class or constant; for a package, also those of its private submodules that it
re-exports) is listed in ``__all__``, unless it is written down below with the reason.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from helpers.engines import need_engines
from helpers.public_modules import public_modules
from percent_encoding import errors

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

TYPE_ALIAS = "a type alias for annotations, not API of its own"
# Public-looking names that are deliberately not in __all__, and why.
NOT_LISTED: dict[str, dict[str, str]] = {
    "percent_encoding.form": {
        "Errors": TYPE_ALIAS, "Pair": TYPE_ALIAS, "Text": TYPE_ALIAS,
        **{name: "the form parser's door for its sibling packages (detect.parse_form, "
           "legacy.whatwg_form_parse): one options value passed once, not API"
           for name in ("FormOptions", "parse_with")},
    },
    "percent_encoding.oauth1": {"Pairs": TYPE_ALIAS},
    "percent_encoding.arrow": {"ArrowErrors": TYPE_ALIAS},
    "percent_encoding.core": {
        name: "the kernel seam for the package's own modules (form, arrow, url), not API"
        for name in ("form_parse_kernel", "form_parse_bytes_kernel", "form_serialize_kernel",
                     "arrow_map_kernel", "set_arrow_threads", "url_parse_kernel",
                     "compiled_kernel")
    },
    "percent_encoding.encodings": {"DecodeErrors": TYPE_ALIAS, "EncodeErrors": TYPE_ALIAS},
    "percent_encoding.cli": {
        name: "the percent command's own pieces (build_parser looks the subcommands up in "
        "this namespace); the API is main, build_parser and CLIError"
        for name in (
            "DEFAULT_SCHEME", "stream_lines",
            "cmd_compare", "cmd_decode", "cmd_detect", "cmd_encode", "cmd_form_build",
            "cmd_form_parse", "cmd_schemes", "cmd_serve", "cmd_encodings", "cmd_completion",
            "cmd_man",
            "EPILOG_COMPARE", "EPILOG_DECODE", "EPILOG_DETECT", "EPILOG_ENCODE", "EPILOG_FORM",
            "EPILOG_MAIN", "EPILOG_SCHEMES", "EPILOG_SERVE", "EPILOG_URL", "EPILOG_ENCODINGS",
            "EPILOG_COMPLETION", "EPILOG_MAN",
        )
    },
    "percent_encoding.web.server": {
        name: "the web tool's HTTP handlers and settings; its API is make_server and serve"
        for name in (
            "CONTEXTS", "CSP", "ENCTYPES", "HTTPError", "Handler", "MAX_ANALYSIS",
            "MAX_EVERY_SCHEME", "MAX_LISTED", "MAX_OUTPUT", "MAX_QUERY_INPUT", "MAX_RESPONSE",
            "MAX_URL_INPUT", "RESULTS_BUDGET", "STATIC", "Server",
            "api_compare", "api_convert", "api_form_body", "api_schemes", "api_url",
        )
    },
}


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _defined_public(mod: ModuleType) -> set[str]:
    assert mod.__file__ is not None
    path = Path(mod.__file__)
    names = _top_level_names(path)
    if path.name == "__init__.py":  # a package: what its private submodules define
        for sub in path.parent.glob("_*.py"):
            if sub.name not in ("__init__.py", "__main__.py"):
                names |= _top_level_names(sub)
    return {n for n in names if not n.startswith("_") and hasattr(mod, n)}


@pytest.mark.parametrize("name", public_modules())
def test_all_matches_what_the_module_defines(name: str) -> None:
    need_engines(name, to_import=True)  # importing .polars or .pandas registers a namespace
    mod = importlib.import_module(name)
    listed = getattr(mod, "__all__", None)
    assert listed is not None, f"{name} has no __all__"
    assert [n for n in listed if not hasattr(mod, n)] == [], f"{name}.__all__ names a ghost"
    assert len(set(listed)) == len(listed), f"{name}.__all__ lists a name twice"
    exempt = NOT_LISTED.get(name, {})
    missing = sorted(_defined_public(mod) - set(listed) - set(exempt))
    assert missing == [], f"add to {name}.__all__ (or to NOT_LISTED with the reason)"
    stale = sorted(n for n in exempt if n in listed or not hasattr(mod, n))
    assert stale == [], f"NOT_LISTED entries of {name} are out of date"


def test_sets_all_lists_every_named_set() -> None:
    from percent_encoding import sets

    named = {n for n, v in vars(sets).items() if isinstance(v, sets.EncodeSet) and n.isupper()}
    assert len(named) >= 40  # the scan found them
    assert named <= set(sets.__all__)


@pytest.mark.parametrize("cls", [c for c in vars(errors).values()
                                 if isinstance(c, type) and issubclass(c, Exception)])
def test_errors_pickle_and_rebuild_from_their_message(cls: type[Exception]) -> None:
    """Dask and Spark pickle a worker's error; Polars re-raises ``type(e)(message)``."""
    import pickle

    e = cls("row 3: bad")
    assert str(e) == "row 3: bad"
    e.row = 3  # type: ignore[attr-defined]
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is cls and str(back) == "row 3: bad"
    assert vars(back) == vars(e)


def test_engines_are_imported_only_by_their_adapters() -> None:
    """The core and the lazy adapters (duckdb, dask, spark) import no engine until used."""
    import subprocess
    import sys

    code = (
        "import sys, percent_encoding, percent_encoding.arrow, percent_encoding.cli\n"
        "import percent_encoding.duckdb, percent_encoding.dask, percent_encoding.spark\n"
        "engines = ('polars', 'pandas', 'duckdb', 'dask', 'distributed', 'pyspark', 'pyarrow')\n"
        "print(sorted(m for m in engines if m in sys.modules))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


# Every public import path as it was before the families became packages (issue 30):
# each must keep importing, with the same names.
PUBLIC_PATHS = [
    "percent_encoding", "percent_encoding.alpn", "percent_encoding.arrow",
    "percent_encoding.cli", "percent_encoding.core", "percent_encoding.dask",
    "percent_encoding.data_url", "percent_encoding.detect", "percent_encoding.duckdb",
    "percent_encoding.ecmascript", "percent_encoding.encodings", "percent_encoding.errors",
    "percent_encoding.form", "percent_encoding.html", "percent_encoding.idna",
    "percent_encoding.iri", "percent_encoding.legacy", "percent_encoding.mailto",
    "percent_encoding.oauth1", "percent_encoding.oauth2", "percent_encoding.pandas",
    "percent_encoding.polars", "percent_encoding.rfc3986", "percent_encoding.rfc8187",
    "percent_encoding.schemes", "percent_encoding.sets", "percent_encoding.spark",
    "percent_encoding.tcn", "percent_encoding.uritemplate", "percent_encoding.url",
    "percent_encoding.web", "percent_encoding.web.server", "percent_encoding.xpath",
]


@pytest.mark.parametrize("name", PUBLIC_PATHS)
def test_every_public_import_path_keeps_working(name: str) -> None:
    assert name in public_modules(), f"{name} is no longer a public module"
    need_engines(name, to_import=True)
    mod = importlib.import_module(name)
    assert mod.__all__, name


def test_public_objects_pickle_by_their_public_path() -> None:
    import pickle
    import pickletools

    from percent_encoding import sets

    for obj in (sets.PATH, sets.COMPONENT.named("mine"), sets.EncodeSet("/?")):
        data = pickle.dumps(obj)
        assert pickle.loads(data) == obj
        refs = [arg for op, arg, _ in pickletools.genops(data)
                if op.name in ("GLOBAL", "STACK_GLOBAL", "SHORT_BINUNICODE", "BINUNICODE")
                and isinstance(arg, str) and "percent_encoding" in arg]
        assert refs and all(not any(p.startswith("_") for p in r.split()[0].split(".")[1:])
                            for r in refs), refs


def test_encode_set_pickles_written_before_the_move_still_load() -> None:
    import pickle

    from percent_encoding import _encode_set, sets

    class Old:  # pickles as an EncodeSet did before: through _encode_set._rebuild
        def __reduce__(self) -> tuple[object, ...]:
            return (_encode_set._rebuild, (1 << 47, True, "mine", None))

    data = pickle.dumps(Old())
    assert b"_encode_set" in data and b"_rebuild" in data
    back = pickle.loads(data)
    assert back == sets.EncodeSet("/") and back.name == "mine"
