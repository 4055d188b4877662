#!/usr/bin/env python3
"""The shared peers' audit (../shared/bench/peers: duckdb_sql.py, polars_expr.py) over the
Parquet form of the workload: the same SQL and expressions, with DuckDB's `read_csv` of
people.csv replaced by `read_parquet` and polars' `scan_csv` by `scan_parquet`.

    parquet_peers.py duckdb|polars SHARED_PEERS_DIR DATA_DIR PEOPLE.parquet

Prints the peer's JSON line (common.emit); `csv.row.ragged` is not measured (a Parquet file
has no rows to be ragged: the conversion skipped them).
"""
import re
import sys
import time


def main():
    peer, peers_dir, data_dir, parquet = sys.argv[1:5]
    sys.path.insert(0, peers_dir)
    import common as C
    t0 = time.perf_counter()
    _, depts = C.data_paths(data_dir)
    if peer == "duckdb":
        import duckdb
        import duckdb_sql as D
        con = duckdb.connect()
        ids = [r[0] for r in con.execute("SELECT CAST(id AS BIGINT) FROM read_csv(%s, header=true)" % D.q(depts)).fetchall()]
        sql = D.build_sql("@PEOPLE@", depts, ids if len(ids) <= 1000 else None)
        sql, n = re.subn(r"read_csv\('@PEOPLE@'.*?max_line_size=10000000\)", "read_parquet(%s)" % D.q(parquet), sql,
                         flags=re.S)
        assert n == 1, "the peer's SQL no longer reads people with that read_csv call"
        cur = con.execute(sql)
        row = dict(zip([d[0] for d in cur.description], cur.fetchall()[0]))
        rows = row.pop("rows_read")
        C.emit("duckdb_parquet", row, unsupported={"csv.row.ragged"}, rows=rows, t0=t0)
    elif peer == "polars":
        import polars as pl
        import polars_expr as P
        dept_ids = pl.read_csv(depts, schema_overrides={"id": pl.Int64})["id"].to_list()
        out = pl.scan_parquet(parquet).select(P.rule_exprs(pl, dept_ids)).collect().row(0, named=True)
        rows = out.pop("rows_read")
        C.emit("polars_parquet", out, unsupported={"csv.row.ragged"}, rows=rows, t0=t0,
               notes={"polars": pl.__version__})
    else:
        sys.exit("unknown peer %r" % peer)


if __name__ == "__main__":
    main()
