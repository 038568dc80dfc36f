"""The URL column functions in each engine adapter: every row against url.parse.

Polars, pandas, DuckDB, Dask and Spark each skip when the engine is missing.
The adapters call the arrow kernels, so these run on both twins.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import url
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError, URLParseError

pytest.importorskip("pyarrow")

COMPONENTS = ["href", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash"]
ROWS = ["https://user:pw@EXAMPLE.com:8443/a/./b/../c?x=1#f", "http://[::1]/", "/relative",
        None, "mailto:x@y", "http://a\\b\\c", "https://xn--nxasmq6b.example/ü", "not a url",
        "file:///C:/x", "https://h/%zz path"]
BASES = ["http://base.example/dir/page", None, "https://b/", "http://h/", "nope", "http://h/",
         "http://h/", "sc:x", "file:///", "http://h/"]

PIECES = ["http", "https", "foo", ":", "//", "/", "\\", "?", "#", "@", ":81", "[::1]",
          "1.2.3.4", "a", "é", "%41", "%zz", ".", "..", " ", "\t"]
rows_st = st.lists(st.one_of(st.none(), st.lists(st.sampled_from(PIECES), max_size=8)
                             .map("".join)), max_size=12)


def comp(value: str | None, name: str, base: Any = None, base_column: bool = False) -> Any:
    if value is None or (base_column and base is None):
        return None
    try:
        return getattr(url.parse(value, base), name)
    except URLParseError:
        return None


def can(value: str | None, base: Any = None, base_column: bool = False) -> Any:
    if value is None or (base_column and base is None):
        return None
    return url.can_parse(value, base)


# -- Polars ---------------------------------------------------------------------------

def test_polars_expr_and_series() -> None:
    pl = pytest.importorskip("polars")
    import percent_encoding.polars  # noqa: F401

    df = pl.DataFrame({"u": ROWS, "b": BASES})
    for engine in ("in-memory", "streaming"):
        out = df.lazy().select(
            pl.col("u").pe.url_parse().alias("p"),
            pl.col("u").pe.url_component("origin").alias("o"),
            pl.col("u").pe.url_component("href", base=pl.col("b")).alias("rb"),
            pl.col("u").pe.url_component("pathname", base="http://one/x/").alias("r1"),
            pl.col("u").pe.url_can_parse().alias("c"),
            pl.col("u").pe.url_can_parse(pl.col("b")).alias("cb"),
        ).collect(engine=engine)
        assert out.schema["p"] == pl.Struct({n: pl.String for n in COMPONENTS})
        parsed = out["p"].to_list()
        for v, got in zip(ROWS, parsed, strict=True):
            want = None if comp(v, "href") is None else {n: comp(v, n) for n in COMPONENTS}
            assert got == want or (want is None and got is None), v
        assert out["o"].to_list() == [comp(v, "origin") for v in ROWS]
        assert out["rb"].to_list() == [comp(v, "href", b, True) for v, b in zip(ROWS, BASES,
                                                                                  strict=True)]
        assert out["r1"].to_list() == [comp(v, "pathname", "http://one/x/") for v in ROWS]
        assert out["c"].to_list() == [can(v) for v in ROWS]
        assert out["cb"].to_list() == [can(v, b, True) for v, b in zip(ROWS, BASES, strict=True)]
    s = pl.Series("u", ROWS)
    assert s.pe.url_component("host", base=pl.Series(BASES)).to_list() == [
        comp(v, "host", b, True) for v, b in zip(ROWS, BASES, strict=True)]
    with pytest.raises(PercentEncodingError, match="unknown URL component"):
        pl.col("u").pe.url_component("path")
    with pytest.raises(URLParseError):
        s.pe.url_parse(errors="strict")


@settings(max_examples=30, deadline=None)
@given(rows_st)
def test_polars_random(rows: list[Any]) -> None:
    pl = pytest.importorskip("polars")
    import percent_encoding.polars  # noqa: F401

    got = pl.DataFrame({"u": rows}, schema={"u": pl.String}).select(
        pl.col("u").pe.url_component("hostname"))["u"].to_list()
    assert got == [comp(v, "hostname") for v in rows]


# -- pandas ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [object, "string", "str"])
def test_pandas_accessor(dtype: Any) -> None:
    pd = pytest.importorskip("pandas")
    import percent_encoding.pandas  # noqa: F401

    s = pd.Series(ROWS, index=[f"r{i}" for i in range(len(ROWS))], dtype=dtype, name="url")
    df = s.pe.url_parse()
    assert list(df.columns) == COMPONENTS and list(df.index) == list(s.index)
    for n in COMPONENTS:
        got = [None if pd.isna(x) else x for x in df[n].tolist()]
        assert got == [comp(v, n) for v in ROWS], n
    host = s.pe.url_component("host", base=pd.Series(BASES))
    assert list(host.index) == list(s.index) and host.name == "url"
    assert [None if pd.isna(x) else x for x in host.tolist()] == [
        comp(v, "host", b, True) for v, b in zip(ROWS, BASES, strict=True)]
    c = s.pe.url_can_parse("http://h/")
    assert [None if pd.isna(x) else bool(x) for x in c.tolist()] == [can(v, "http://h/")
                                                                     for v in ROWS]
    with pytest.raises(URLParseError) as e:
        s.pe.url_component("href", errors="strict")
    assert e.value.row == 2 and e.value.label == "r2"  # type: ignore[attr-defined]


def test_pandas_object_rejects_non_str() -> None:
    pd = pytest.importorskip("pandas")
    import percent_encoding.pandas  # noqa: F401
    from percent_encoding.errors import PercentEncodingTypeError

    with pytest.raises(PercentEncodingTypeError, match="row 1"):
        pd.Series(["http://a/", 3], dtype=object).pe.url_parse()


# -- DuckDB ---------------------------------------------------------------------------

def test_duckdb_functions() -> None:
    duckdb = pytest.importorskip("duckdb")
    from percent_encoding.duckdb import register

    con = duckdb.connect()
    register(con)
    con.execute("CREATE TABLE t (i INTEGER, u VARCHAR, b VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                    [(i, v, b) for i, (v, b) in enumerate(zip(ROWS, BASES, strict=True))])
    got = con.execute("SELECT pe_url_parse(u), pe_url_component(u, 'hostname'), "
                      "pe_url_component(u, 'href', b), pe_url_component(u, 'origin', "
                      "'http://one/'), pe_url_can_parse(u) FROM t ORDER BY i").fetchall()
    for (p, h, rb, o, c), v, b in zip(got, ROWS, BASES, strict=True):
        want = None if comp(v, "href") is None else {n: comp(v, n) for n in COMPONENTS}
        assert p == want, v
        assert h == comp(v, "hostname")
        assert rb == comp(v, "href", b, True)
        assert o == comp(v, "origin", "http://one/")
        assert c == can(v)
    # several component names in one column
    rows = con.execute("SELECT pe_url_component(u, CASE WHEN i % 2 = 0 THEN 'host' ELSE "
                       "'search' END) FROM t ORDER BY i").fetchall()
    assert [r[0] for r in rows] == [comp(v, "host" if i % 2 == 0 else "search")
                                    for i, v in enumerate(ROWS)]


def test_duckdb_component_per_name_udfs() -> None:
    """pe_url_component is a CASE over one UDF per component: a constant name folds to
    that UDF alone (the vector carries the URL column only), and names that vary by row
    (every component, NULL, with and without a base column) still give url.parse's."""
    duckdb = pytest.importorskip("duckdb")
    from percent_encoding.duckdb import register

    con = duckdb.connect()
    register(con)
    plan = con.execute("EXPLAIN SELECT pe_url_component(u, 'hostname'), "
                       "pe_url_component(u, 'href', b) FROM (VALUES ('a', 'b')) t(u, b)"
                       ).fetchall()[0][1]
    assert "pe_url_component_hostname(" in plan and "pe_url_component_href_base(" in plan
    assert "nobase" not in plan and "CASE" not in plan
    names = [*COMPONENTS, "origin", None]
    data = [(i, v, b, names[i % len(names)]) for i, (v, b) in
            enumerate(zip(ROWS * 5, BASES * 5, strict=True))]
    con.execute("CREATE TABLE t (i INTEGER, u VARCHAR, b VARCHAR, n VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", data)
    got = con.execute("SELECT pe_url_component(u, n), pe_url_component(u, n, b) FROM t "
                      "ORDER BY i").fetchall()
    assert got == [(None, None) if n is None else (comp(v, n), comp(v, n, b, True))
                   for _, v, b, n in data]
    with pytest.raises(duckdb.Error, match="unknown URL component 'nope'"):
        con.execute("SELECT pe_url_component(u, 'nope') FROM t").fetchall()


# -- Dask -----------------------------------------------------------------------------

@pytest.mark.slow  # an engine that starts a cluster or a JVM: full tier only
def test_dask_functions() -> None:
    pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import dask.dataframe as dd

    from percent_encoding import dask as D

    frame = dd.from_pandas(pd.DataFrame({"u": ROWS, "b": BASES}), npartitions=3)
    hosts = D.url_component(frame["u"], "host", frame["b"]).compute(scheduler="sync")
    assert [None if pd.isna(x) else x for x in hosts.tolist()] == [
        comp(v, "host", b, True) for v, b in zip(ROWS, BASES, strict=True)]
    parsed = D.url_parse(frame["u"]).compute(scheduler="sync")
    assert list(parsed.columns) == COMPONENTS
    assert [None if pd.isna(x) else x for x in parsed["pathname"].tolist()] == [
        comp(v, "pathname") for v in ROWS]
    c = D.url_can_parse(frame["u"]).compute(scheduler="sync")
    assert [None if pd.isna(x) else bool(x) for x in c.tolist()] == [can(v) for v in ROWS]


# -- Spark ----------------------------------------------------------------------------

@pytest.fixture
def spark(spark_session: Any) -> Any:
    return spark_session  # one session per test process (tests/helpers/spark_session.py)


@pytest.mark.slow  # an engine that starts a cluster or a JVM: full tier only
def test_spark_host_and_path_columns(spark: Any) -> None:
    from percent_encoding.spark import map_in_arrow, udf

    df = spark.createDataFrame([(v,) for v in ROWS], "url string")
    # the docs' recipe: one pass (one mapInArrow, each row parsed once) for both columns
    df = map_in_arrow(df, "url", "url_component", component=["hostname", "pathname"],
                      output=["host", "path"])
    plan = df._jdf.queryExecution().executedPlan().toString()
    assert plan.count("MapInArrow") == 1, plan
    rows = df.collect()
    assert df.columns == ["url", "host", "path"]
    assert [(r["url"], r["host"], r["path"]) for r in rows] == [
        (v, comp(v, "hostname"), comp(v, "pathname")) for v in ROWS]
    c = spark.createDataFrame([(v,) for v in ROWS], "url string").select(
        udf("url_can_parse")("url").alias("c")).collect()
    assert [r["c"] for r in c] == [can(v) for v in ROWS]


@pytest.mark.slow  # an engine that starts a cluster or a JVM: full tier only
@pytest.mark.one_impl  # the executors' Python workers load their own twin
@pytest.mark.engine_workers  # (as tests/test_spark.py: not repeated by the pure-twin pass)
def test_spark_base_column_and_component_structs(spark: Any, monkeypatch: Any) -> None:
    """A per-row base column (map_in_arrow's base_column, a udf's second column) and
    url_parse's components, against url.parse; the pandas UDF (Spark before 4.1) too."""
    from pyspark.sql import functions as F

    from percent_encoding.spark import map_in_arrow, udf

    df = spark.createDataFrame(list(enumerate(zip(ROWS, BASES, strict=True))),
                               "i long, p struct<url: string, page: string>").select(
        "i", "p.url", "p.page")
    out = map_in_arrow(df, "url", "url_component", component=["href", "origin"],
                       base_column="page")
    out = map_in_arrow(out, "url", "url_component", component="host", output="host1",
                       base="http://one.example/")
    out = out.withColumn("h", udf("url_component", component="href")("url", "page"))
    out = out.withColumn("s", udf("url_parse", components=["hostname", "search"])("url"))
    got = out.orderBy("i").collect()
    assert [(r["href"], r["origin"], r["h"]) for r in got] == [
        (comp(v, "href", b, True), comp(v, "origin", b, True), comp(v, "href", b, True))
        for v, b in zip(ROWS, BASES, strict=True)]
    assert [r["host1"] for r in got] == [comp(v, "host", "http://one.example/") for v in ROWS]
    assert [None if r["s"] is None else r["s"].asDict() for r in got] == [
        None if comp(v, "href") is None else
        {"hostname": comp(v, "hostname"), "search": comp(v, "search")} for v in ROWS]
    # an output that names an existing column replaces it in place
    same = map_in_arrow(df, "url", "url_component", component=["pathname", "hostname"],
                        output=["page", "host"], base_column="page")
    assert same.columns == ["i", "url", "page", "host"]
    assert [(r["page"], r["host"]) for r in same.orderBy("i").collect()] == [
        (comp(v, "pathname", b, True), comp(v, "hostname", b, True))
        for v, b in zip(ROWS, BASES, strict=True)]
    with pytest.raises(PercentEncodingError, match="not 'decode'"):
        map_in_arrow(df, "url", "decode", base_column="page")
    with pytest.raises(PercentEncodingError, match="not both"):
        map_in_arrow(df, "url", "url_component", component="href", base="http://h/",
                     base_column="page")
    with pytest.raises(PercentEncodingError, match="no column 'nope'"):
        map_in_arrow(df, "url", "url_component", component="href", base_column="nope")
    with pytest.raises(PercentEncodingTypeError, match="2 column names"):
        map_in_arrow(df, "url", "url_component", component=["host", "port"], output="x")
    monkeypatch.delattr(F, "arrow_udf", raising=False)  # PySpark 3.5 and 4.0: pandas UDFs
    got = df.select("i", udf("url_component", component="href")("url", "page").alias("h"),
                    udf("url_parse", components=["port"])("url").alias("p")
                    ).orderBy("i").collect()
    assert [r["h"] for r in got] == [comp(v, "href", b, True)
                                     for v, b in zip(ROWS, BASES, strict=True)]
    assert [r["p"]["port"] for r in got] == [comp(v, "port") for v in ROWS]
