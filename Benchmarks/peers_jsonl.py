#!/usr/bin/env python3
"""The DuckDB and polars peers doing the same audit on the JSON Lines form
(people.jsonl, made from people.csv by scripts/csv-to-jsonl.py: every field a
JSON string or null, ragged rows repaired as gen.py's other formats hold them).

    python3 Benchmarks/peers_jsonl.py duckdb|polars DATA_DIR

The rule logic is the CSV peers' own (../shared/bench/peers/duckdb_sql.py's
SQL, polars_expr.py's expressions); only the scan changes: DuckDB
read_json(format='newline_delimited') with every column VARCHAR, polars
scan_ndjson with every column String. Prints the peers' JSON result line;
check it with check_peer.py --format xml (csv.row.ragged is 0 there).
"""
import os
import re
import sys
import time


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("duckdb", "polars"):
        sys.stderr.write("usage: peers_jsonl.py duckdb|polars DATA_DIR\n")
        sys.exit(64)
    peer, data = sys.argv[1], sys.argv[2]
    shared = os.environ.get("AUDITOR_BENCH_SHARED",
                            os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                         "shared", "bench"))
    sys.path.insert(0, os.path.join(shared, "peers"))
    import common as C  # noqa: E402
    people = os.path.join(data, "people.jsonl")
    depts = os.path.join(data, "departments.csv")
    t0 = time.perf_counter()
    if peer == "duckdb":
        import duckdb
        import duckdb_sql
        con = duckdb.connect()
        dept_ids = [r[0] for r in con.execute(
            "SELECT CAST(id AS BIGINT) FROM read_csv(%s, header=true)" % duckdb_sql.q(depts)).fetchall()]
        sql = duckdb_sql.build_sql(people, depts, dept_ids if len(dept_ids) <= 1000 else None)
        cols = "{" + ", ".join("%s: 'VARCHAR'" % duckdb_sql.q(c) for c in C.COLUMNS) + "}"
        scan = "read_json(%s, format='newline_delimited', columns=%s, maximum_object_size=16777216)" % (
            duckdb_sql.q(people), cols)
        sql, n = re.subn(r"read_csv\(" + re.escape(duckdb_sql.q(people)) + r".*?max_line_size=10000000\)",
                         lambda _: scan, sql, count=1, flags=re.S)
        if n != 1:
            sys.stderr.write("peers_jsonl.py: duckdb_sql.build_sql changed; cannot find its read_csv\n")
            sys.exit(70)
        cur = con.execute(sql)
        names = [d[0] for d in cur.description]
        row = dict(zip(names, cur.fetchall()[0]))
        rows = row.pop("rows_read")
        row["csv.row.ragged"] = 0
        C.emit("duckdb_read_json", row, rows=rows, t0=t0, notes={"duckdb": duckdb.__version__})
    else:
        import polars as pl
        import polars_expr
        dept_ids = pl.read_csv(depts, schema_overrides={"id": pl.Int64})["id"].to_list()
        lf = pl.scan_ndjson(people, schema={c: pl.String for c in C.COLUMNS})
        out = lf.select(polars_expr.rule_exprs(pl, dept_ids)).collect().row(0, named=True)
        rows = out.pop("rows_read")
        out["csv.row.ragged"] = 0
        C.emit("polars_read_ndjson", out, rows=rows, t0=t0, notes={"polars": pl.__version__})


if __name__ == "__main__":
    main()
