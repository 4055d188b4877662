#!/usr/bin/env python3
"""PostgreSQL benchmark of issue 16: the benchmark audit on a table of 1M rows and one of
10M rows (gen.py's data in text columns, the 10M table ten copies of the 1M with ids
offset, so every count is exactly ten times), four ways:

  floor      psql -c "select count(*) from people"          (the engine's own scan)
  reference  psql -f Benchmarks/postgres_reference.sql        (the audit written by hand as one SELECT)
  streaming  auditor run rules/people.yml --source people=URL  (every row copied out)
  pushdown   the same with --pushdown

Figures are medians of --runs rounds; peak RSS is the auditor's (wait4). Targets: pushdown
within 1.5x of the reference, at least 3x faster than streaming, and its RSS not growing
with the table (10M within 1.25x of 1M). The pushdown and streaming reports must hold the
same counts for every rule (and 10x for 10M), and the 1M counts must be gen.py's.

Usage:
  python3 Benchmarks/postgres.py [--data bench-data] [--url postgresql:///?host=/tmp/pg&port=5499&user=postgres]
Without --url a throwaway server is made with initdb in a temporary folder (Debian's
postgresql package), loaded, and stopped at the end. The data folder must hold gen.py's
people.sqlite and expected.json (python3 ../shared/bench/gen.py --rows 1000000 --seed 7
--formats sqlite --out bench-data).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.parse

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def measure(argv, env=None):
    """(seconds, peak RSS in MiB, exit status, stdout) of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = bytearray()
    while True:
        chunk = p.stdout.read(1 << 16)
        if not chunk:
            break
        out += chunk
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{argv[0]} exited {code}: {err[:2000]}")
    return seconds, usage.ru_maxrss / 1024, code, bytes(out)


def pg_bin(name):
    for v in ("17", "16", "15", "14", "13"):
        path = f"/usr/lib/postgresql/{v}/bin/{name}"
        if os.path.exists(path):
            return path
    return shutil.which(name) or name


def run_as_postgres(argv):
    if os.geteuid() == 0:
        argv = ["runuser", "-u", "postgres", "--"] + argv
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)


LOADER = r'''
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
table = sys.argv[2]
def esc(v, boolean=False):
    if v is None:
        return "\\N"
    if boolean and v in (0, 1) and not isinstance(v, str):
        v = "true" if v == 1 else "false"
    return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
cols = ["id", "name", "email", "birthday", "has_licence", "age", "salary", "country", "dept_id", "created_at", "notes"]
w = sys.stdout.write
w("CREATE TABLE %s (%s);\n" % (table, ", ".join(c + " text" for c in cols)))
w("CREATE TABLE departments (id integer PRIMARY KEY, name text NOT NULL);\nCOPY %s FROM stdin;\n" % table)
for row in db.execute("SELECT %s FROM people ORDER BY rowid" % ", ".join(cols)):
    w("\t".join(esc(v, boolean=(i == 4)) for i, v in enumerate(row)) + "\n")
w("\\.\nCOPY departments FROM stdin;\n")
for row in db.execute("SELECT id, name FROM departments ORDER BY id"):
    w("\t".join(esc(v) for v in row) + "\n")
w("\\.\n")
'''


def psql(url, *args, stdin=None):
    return subprocess.run([pg_bin("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, *args], input=stdin,
                          check=True, capture_output=True, text=True).stdout


def load(base_url, data):
    """Databases bench1m and bench10m, unless they exist. The dump streams from the loader into
    psql: held here, it would raise this process's peak RSS, which every auditor started
    afterwards inherits in the peak that wait4 reports (Linux keeps it across fork and exec)."""
    def restore(database, table):
        loader = subprocess.Popen([sys.executable, "-c", LOADER, os.path.join(data, "people.sqlite"), table],
                                  stdout=subprocess.PIPE)
        subprocess.run([pg_bin("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db_url(base_url, database)],
                       stdin=loader.stdout, check=True, stdout=subprocess.DEVNULL)
        loader.stdout.close()
        if loader.wait() != 0:
            raise SystemExit("postgres.py: the loader failed")
    have = psql(db_url(base_url, "postgres"), "-At", "-c", "SELECT datname FROM pg_database")
    if "bench1m" not in have.split():
        log("loading 1M rows into bench1m ...")
        psql(db_url(base_url, "postgres"), "-c", "CREATE DATABASE bench1m")
        restore("bench1m", "people")
        psql(db_url(base_url, "bench1m"), "-c", "VACUUM ANALYZE")
    if "bench10m" not in have.split():
        log("loading 10 x 1M rows into bench10m ...")
        psql(db_url(base_url, "postgres"), "-c", "CREATE DATABASE bench10m")
        restore("bench10m", "p1")
        psql(db_url(base_url, "bench10m"), "-c", "CREATE TABLE people (LIKE p1)")
        for k in range(10):
            psql(db_url(base_url, "bench10m"), "-c",
                 "INSERT INTO people SELECT CASE WHEN id ~ '^-?[0-9]{1,7}$' THEN (id::bigint + %d)::text ELSE id END, "
                 "name, email, birthday, has_licence, age, salary, country, dept_id, created_at, notes FROM p1" % (k * 10_000_000))
        psql(db_url(base_url, "bench10m"), "-c", "DROP TABLE p1")
        psql(db_url(base_url, "bench10m"), "-c", "VACUUM ANALYZE")


def db_url(base, name):
    """`base` with its database replaced by `name`."""
    parts = urllib.parse.urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}/{name}" + (f"?{parts.query}" if parts.query else "")


def counts(report_bytes):
    report = json.loads(report_bytes)
    return {r["id"]: r["violations"] for r in report["rules"] if r.get("entity") == "Person"}, report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(REPO, "bench-data"))
    ap.add_argument("--url", help="a running server (postgresql:///?host=DIR&port=N&user=U); default: a throwaway one")
    ap.add_argument("--auditor", default=os.path.join(REPO, ".build", "release", "auditor"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1m,10m")
    a = ap.parse_args()
    server = None
    if a.url:
        base = a.url
    else:
        folder = tempfile.mkdtemp(prefix="auditor-pg-bench-")
        os.chmod(folder, 0o777)
        port = 54000 + os.getpid() % 1000
        run_as_postgres([pg_bin("initdb"), "-D", folder + "/data", "-A", "trust", "-U", "postgres"])
        run_as_postgres([pg_bin("pg_ctl"), "-D", folder + "/data", "-w", "-l", folder + "/log",
                         "-o", f"-k {folder} -p {port} -c listen_addresses=''", "start"])
        server = folder
        base = f"postgresql:///postgres?host={folder}&port={port}&user=postgres"
    try:
        load(base, a.data)
        expected = json.load(open(os.path.join(a.data, "expected.json")))["counts_by_format"]["sqlite"]
        results = {}
        ok = True
        for size in a.sizes.split(","):
            url = db_url(base, "bench" + size)
            reference_sql = os.path.join(REPO, "Benchmarks", "postgres_reference.sql")
            audit = [a.auditor, "run", os.path.join(REPO, "rules", "people.yml"), "--source", f"people={url}",
                     "--source", f"departments={url}", "--format", "json"]
            ways = {
                "floor": [pg_bin("psql"), "-X", "-At", "-d", url, "-c", "select count(*) from people"],
                "reference": [pg_bin("psql"), "-X", "-At", "-d", url, "-f", reference_sql],
                "streaming": audit,
                "pushdown": audit + ["--pushdown"],
            }
            figures = {k: [] for k in ways}
            rss = {k: [] for k in ways}
            reports = {}
            for r in range(a.runs):
                for name, argv in ways.items():
                    s, m, _, out = measure(argv)
                    figures[name].append(s)
                    rss[name].append(m)
                    reports[name] = out
                    log(f"{size} round {r + 1}: {name} {s:.2f} s, {m:.0f} MiB")
            stream_counts, _ = counts(reports["streaming"])
            push_counts, push_report = counts(reports["pushdown"])
            factor = 10 if size == "10m" else 1
            same = stream_counts == push_counts
            exact = all(push_counts.get(k, 0) == v * factor for k, v in expected.items() if k in push_counts)
            ran = [i.get("ranIn") for i in push_report["inputs"] if i["source"] == "people"]
            results[size] = {k: statistics.median(v) for k, v in figures.items()}
            results[size]["rss"] = {k: max(v) for k, v in rss.items()}
            results[size]["same"] = same
            results[size]["exact"] = exact
            results[size]["ranIn"] = ran
            if not (same and exact and ran == ["postgresql"]):
                ok = False
        print(f"{'rows':>5} {'floor':>8} {'reference':>10} {'streaming':>10} {'pushdown':>9} {'push/ref':>9} {'stream/push':>12} {'RSS push':>9} {'RSS stream':>11}  counts")
        for size, r in results.items():
            print(f"{size:>5} {r['floor']:8.2f} {r['reference']:10.2f} {r['streaming']:10.2f} {r['pushdown']:9.2f} "
                  f"{r['pushdown'] / r['reference']:9.2f} {r['streaming'] / r['pushdown']:12.2f} "
                  f"{r['rss']['pushdown']:8.0f}M {r['rss']['streaming']:10.0f}M  "
                  f"{'same as streaming' if r['same'] else 'DIFFER'}, {'exact' if r['exact'] else 'NOT EXACT'}, ran in {r['ranIn']}")
        targets = []
        for size, r in results.items():
            targets.append((f"{size}: pushdown within 1.5x of the hand-written SELECT", r["pushdown"] <= 1.5 * r["reference"]))
            targets.append((f"{size}: pushdown at least 3x faster than streaming", r["streaming"] >= 3 * r["pushdown"]))
        if "1m" in results and "10m" in results:
            targets.append(("pushdown RSS flat (10M within 1.25x of 1M)",
                            results["10m"]["rss"]["pushdown"] <= 1.25 * results["1m"]["rss"]["pushdown"]))
        targets.append(("pushdown and streaming give the same, exact counts", ok))
        for name, passed in targets:
            print(f"{'PASS' if passed else 'FAIL'}  {name}")
        return 0 if ok else 1
    finally:
        if server:
            run_as_postgres([pg_bin("pg_ctl"), "-D", server + "/data", "-m", "fast", "stop"])
            shutil.rmtree(server, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
