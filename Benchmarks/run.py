#!/usr/bin/env python3
"""Benchmark runner for auditor (issue 8): the same audit on the CSV, XML and
SQLite forms of the shared workload, next to the reference points and peers,
measured in ONE run so that the ratios mean something on a noisy machine.

    python3 Benchmarks/run.py [--rows 1000000] [--seed 7] [--runs 3] [--data DIR]
                              [--formats csv,xml,sqlite,jsonl,parquet]
                              [--peers duckdb,polars,pandera,frictionless] [--skip-peers]
                              [--no-jobs-compare] [--no-history-compare] [--no-pushdown]
                              [--no-build] [--tenx] [--hundred] [--no-gzip]
    python3 Benchmarks/run.py --spark [--data DIR] [--runs 3]   # Benchmarks/spark.py (issue 17)

Python 3 standard library only (the peers run in their own venv,
Benchmarks/.venv, created on demand). See Benchmarks/README.md.

Method
* Every measured command runs without a shell under `/usr/bin/time -f %M`
  (GNU time): wall time is time.perf_counter() around spawn..wait4 (GNU time
  adds ~1 ms), CPU time (user+sys) is os.wait4()'s resource usage, peak RSS is
  GNU time's %M: the command's own high-water mark. Without GNU time, ru_maxrss
  from os.wait4 is used, which also counts this Python process's ~20 MiB.
* Measurements are taken in ROUNDS: each round runs every measurement once,
  in a fixed order, and the figure reported is the median over rounds. Load
  that drifts during the run then hits every system alike instead of one.
* Every auditor report of every run is checked with check_report.py against
  expected.json; one WRONG count fails the whole run (exit status 1).
"""
import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))          # Benchmarks/
REPO = os.path.dirname(HERE)                                 # repository root
DEFAULT_SHARED = os.path.join(os.path.dirname(REPO), "shared", "bench")
VENV = os.path.join(HERE, ".venv")
LIMIT_DIR = os.path.join(HERE, ".build-limit")
RESULTS = os.path.join(HERE, "results")
RULES = os.path.join(REPO, "rules", "people.yml")

FORMAT_FILE = {"csv": "people.csv", "xml": "people.xml", "sqlite": "people.sqlite", "jsonl": "people.jsonl",
               "parquet": "people.parquet"}
# people.jsonl and people.parquet are not gen.py formats; both are converted from people.csv.
# scripts/csv-to-jsonl.py repairs ragged rows, so the JSONL counts are expected.json's "xml" ones
# (csv.row.ragged 0). Benchmarks/to_parquet.py (pyarrow in the venv; every column a string, empty
# fields null) skips ragged rows, so the Parquet counts are the CSV's without csv.row.ragged, and
# the DuckDB and polars peers read it through Benchmarks/peers/parquet_peers.py.
CONVERTED = {"jsonl", "parquet"}
GENERATED_FORMATS = ("csv", "xml", "sqlite")
EXPECTED_FORMAT = {"jsonl": "xml"}
# The peers that also read the JSON Lines form (Benchmarks/peers_jsonl.py).
JSONL_PEERS = {"duckdb": "DuckDB read_json (peer)", "polars": "polars read_ndjson (peer)"}
ALL_PEERS = ["duckdb", "polars", "pandera", "frictionless"]
PEER_SCRIPT = {"duckdb": "duckdb_sql.py", "polars": "polars_expr.py",
               "pandera": "pandera_polars.py", "frictionless": "frictionless_peer.py"}
PEER_MODULES = {"duckdb": ["duckdb"], "polars": ["polars"],
                "pandera": ["polars", "pandera.polars"], "frictionless": ["frictionless"]}
PIP_PACKAGES = ["duckdb", "polars", "pandas", "pyarrow", "pandera[polars]", "frictionless"]
FRICTIONLESS_AUTO_MAX_ROWS = 200_000
MB = 1e6                     # MB/s uses decimal megabytes; RSS is printed in MiB

# Exit statuses of auditor that mean "the audit ran" (CONVENTIONS.md §4).
AUDIT_OK = (0, 1)
# Phrases that mean "this binary cannot read that format yet" on stderr.
UNSUPPORTED_HINTS = ("no reader", "not supported", "unsupported", "unknown format",
                     "cannot read", "can't read", "no registered reader", "unknown source format",
                     "unknown file type", "unrecognized", "unrecognised", "not yet",
                     "cannot tell the format", "known formats")

T0 = time.perf_counter()
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


# --------------------------------------------------------------------------- utils

def log(msg):
    """Progress on stderr (always: a benchmark run is long and interactive)."""
    sys.stderr.write("[%6.1fs] %s\n" % (time.perf_counter() - T0, msg))
    sys.stderr.flush()


def die(msg, status=2):
    sys.stderr.write("run.py: " + msg + "\n")
    sys.exit(status)


def loadavg():
    try:
        return tuple(round(x, 2) for x in os.getloadavg())
    except OSError:
        return None


def uptime_line():
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        la = loadavg()
        return "load average: %s" % (", ".join(map(str, la)) if la else "?")


def session_rss_kib(sid):
    """The summed resident memory of every process in session `sid` (from /proc)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) != sid:      # field 6 of stat: the session id
                continue
            with open("/proc/%s/statm" % pid) as f:
                total += int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
        except (OSError, ValueError, IndexError):
            continue
    return total


def measure(argv, stdout=subprocess.DEVNULL, cwd=None, env=None, rss_limit_kib=None):
    """Run argv as a direct child; return dict(wall, rss_kib, cpu, faults, status, stderr).
    stdout may be a path (captured to that file) or DEVNULL. With rss_limit_kib, the
    command runs in a session of its own that is killed once its processes together hold
    more than that (the result then has "killed_at_kib"), so that a peer running out of
    memory is a result instead of a machine that swaps."""
    out_f = open(stdout, "wb") if isinstance(stdout, str) else None
    os.makedirs(RESULTS, exist_ok=True)
    err_path = os.path.join(RESULTS, ".stderr.tmp")
    rss_path = os.path.join(RESULTS, ".rss.tmp")
    if os.path.exists(rss_path):
        os.remove(rss_path)
    if GNU_TIME:
        # GNU time forks the command from its own small process, so the peak RSS it
        # reports is the command's; os.wait4 on a child forked from this Python process
        # would report at least Python's own ~20 MiB (the high-water mark survives exec).
        argv = [GNU_TIME, "-f", "%M", "-o", rss_path] + list(argv)
    with open(err_path, "wb") as err_f:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                             stdout=out_f if out_f else subprocess.DEVNULL,
                             stderr=err_f, cwd=cwd, env=env, start_new_session=rss_limit_kib is not None)
        killed_at = None
        if rss_limit_kib is not None:
            while True:
                pid, wstatus, ru = os.wait4(p.pid, os.WNOHANG)
                if pid != 0:
                    break
                held = session_rss_kib(p.pid)
                if held > rss_limit_kib and killed_at is None:
                    killed_at = held
                    os.killpg(p.pid, signal.SIGKILL)
                time.sleep(0.25)
        else:
            _, wstatus, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(wstatus)
    if out_f:
        out_f.close()
    with open(err_path, "rb") as f:
        err = f.read().decode("utf-8", "replace")
    rss = ru.ru_maxrss
    if GNU_TIME:
        try:
            rss = int(open(rss_path).read().strip().splitlines()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return {"wall": wall, "rss_kib": rss, "cpu": ru.ru_utime + ru.ru_stime,
            "faults": ru.ru_minflt, "status": p.returncode, "stderr": err, "killed_at_kib": killed_at}


def read_file_once(path):
    """Pull a file into the page cache (every system is measured warm)."""
    with open(path, "rb") as f:
        while f.read(1 << 22):
            pass


def fmt_s(x):
    return "—" if x is None else ("%.3f" % x if x < 10 else "%.1f" % x)


def fmt_rate(x):
    if x is None:
        return "—"
    if x >= 1e6:
        return "%.2fM" % (x / 1e6)
    if x >= 1e3:
        return "%.1fk" % (x / 1e3)
    return "%.0f" % x


def ratio(a, b):
    return None if (a is None or b is None or b == 0) else a / b


# --------------------------------------------------------------------------- data

def ensure_data(shared, data, rows, seed, formats):
    exp = generate_data(shared, data, rows, seed,
                        sorted({f for f in formats if f not in CONVERTED} | ({"csv"} if CONVERTED & set(formats) else set())))
    jsonl = os.path.join(data, "people.jsonl")
    csv_path = os.path.join(data, "people.csv")
    if "jsonl" in formats and (not os.path.exists(jsonl) or os.path.getmtime(jsonl) < os.path.getmtime(csv_path)):
        log("data: converting people.csv to people.jsonl (scripts/csv-to-jsonl.py)")
        r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "csv-to-jsonl.py"), csv_path, jsonl],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            die("csv-to-jsonl.py failed with status %d" % r.returncode)
    return exp


def generate_data(shared, data, rows, seed, formats):
    exp_path = os.path.join(data, "expected.json")
    if os.path.exists(exp_path):
        try:
            exp = json.load(open(exp_path))
            g = exp["generator"]
            formats = [f for f in formats if f in GENERATED_FORMATS]
            files_ok = all(os.path.exists(os.path.join(data, FORMAT_FILE[f])) for f in formats)
            sizes_ok = all(os.path.getsize(os.path.join(data, fn)) == size
                           for fn, size in exp.get("files", {}).items()
                           if os.path.exists(os.path.join(data, fn)))
            if (g["rows"] == rows and g["seed"] == seed and set(formats) <= set(g["formats"])
                    and files_ok and sizes_ok):
                log("data: reusing %s (%d rows, seed %d)" % (data, rows, seed))
                return exp
        except (OSError, ValueError, KeyError, TypeError):
            pass
    formats = [f for f in formats if f in GENERATED_FORMATS]
    log("data: generating %d rows, seed %d, formats %s into %s (about a minute per million rows)"
        % (rows, seed, ",".join(formats), data))
    os.makedirs(data, exist_ok=True)
    # A stale expected.json must never describe fresh files: remove it first.
    if os.path.exists(exp_path):
        os.remove(exp_path)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, os.path.join(shared, "gen.py"), "--rows", str(rows),
                        "--seed", str(seed), "--out", data, "--formats", ",".join(formats)],
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        die("gen.py failed with status %d" % r.returncode)
    log("data: generated in %.0f s" % (time.perf_counter() - t))
    return json.load(open(exp_path))


# --------------------------------------------------------------------------- builds

def ensure_gzip(csv_path):
    """people.csv.gz beside people.csv (gzip -6, made once, remade when older), or None without gzip."""
    if not shutil.which("gzip"):
        log("gzip ABSENT: the .csv.gz measurement is skipped")
        return None
    gz = csv_path + ".gz"
    if not os.path.exists(gz) or os.path.getmtime(gz) < os.path.getmtime(csv_path):
        log("writing %s (gzip -6)" % gz)
        with open(csv_path, "rb") as src, open(gz + ".part", "wb") as dst:
            subprocess.run(["gzip", "-6", "-c", "-n"], stdin=src, stdout=dst, check=True)
        os.replace(gz + ".part", gz)
    return gz


def build_auditor(no_build, auditor_path):
    if not no_build:
        log("build: swift build -c release --product auditor (this can take minutes cold)")
        t = time.perf_counter()
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "auditor"],
                           cwd=REPO, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            die("release build failed (status %d)" % r.returncode)
        log("build: done in %.0f s" % (time.perf_counter() - t))
    if not os.access(auditor_path, os.X_OK):
        die("no auditor binary at %s (drop --no-build, or pass --auditor PATH)" % auditor_path)
    return auditor_path


def build_csvcount(shared):
    src = os.path.join(shared, "limit", "csvcount.c")
    exe = os.path.join(LIMIT_DIR, "csvcount")
    if not os.path.exists(src):
        log("limit: %s missing; byte-scan baseline skipped" % src)
        return None
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return exe
    cc = shutil.which("gcc") or shutil.which("cc")
    if not cc:
        log("limit: no C compiler (apt-get install -y gcc); byte-scan baseline skipped")
        return None
    os.makedirs(LIMIT_DIR, exist_ok=True)
    r = subprocess.run([cc, "-O2", "-o", exe, src], stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        log("limit: compiling csvcount.c failed; byte-scan baseline skipped")
        return None
    log("limit: built %s (gcc -O2)" % os.path.relpath(exe, REPO))
    return exe


# --------------------------------------------------------------------------- peers venv

def venv_python():
    return os.path.join(VENV, "bin", "python")


def venv_has(modules):
    py = venv_python()
    if not os.access(py, os.X_OK):
        return False
    code = "import importlib,sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    r = subprocess.run([py, "-c", code] + modules, capture_output=True, stdin=subprocess.DEVNULL)
    return r.returncode == 0


def ensure_venv(peers):
    """Returns the peers that can run; prints why the others cannot."""
    needed = sorted({m for p in peers for m in PEER_MODULES[p]})
    if venv_has(needed):
        return peers
    log("peers: preparing %s (python -m venv + pip install %s)"
        % (os.path.relpath(VENV, REPO), " ".join(PIP_PACKAGES)))
    try:
        if not os.access(venv_python(), os.X_OK):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True,
                           stdin=subprocess.DEVNULL, timeout=300)
        subprocess.run([venv_python(), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check"] + PIP_PACKAGES,
                       check=True, stdin=subprocess.DEVNULL, timeout=1800)
    except (OSError, subprocess.SubprocessError) as e:
        log("peers: venv/pip install FAILED (%s)" % e)
    ok = []
    for p in peers:
        if venv_has(PEER_MODULES[p]):
            ok.append(p)
        else:
            log("peers: SKIPPING %s: cannot import %s in %s"
                % (p, ", ".join(PEER_MODULES[p]), os.path.relpath(VENV, REPO)))
    return ok


# --------------------------------------------------------------------------- checks

def benchmark_ids(report):
    """A copy of `report` (a path) whose structural rules carry the benchmark's bare ids.

    auditor names a reader's structural rule after its source (`csv.row.ragged@people`);
    expected.json and check_report.py use the bare id. -> the copy's path, or `report` when
    it cannot be read (check_report.py then says why)."""
    try:
        doc = json.load(open(report))
        for rule in doc["rules"]:
            suffix = "@%s" % rule.get("source")
            if rule.get("entity") is None and rule["id"].endswith(suffix):
                rule["id"] = rule["id"][:-len(suffix)]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return report
    copy = report + ".benchmark-ids.json"
    with open(copy, "w") as f:
        json.dump(doc, f)
    return copy


def check_auditor_report(shared, data, report, fmt):
    """-> dict(passed, failed, skipped, wrong=[...], usable) from check_report.py."""
    checked = benchmark_ids(report)
    if fmt == "parquet":
        # The CSV's counts without csv.row.ragged: the conversion skipped the ragged rows, and
        # the csv.row.ragged@departments of the departments CSV is not the people file's.
        fmt = "csv"
        try:
            doc = json.load(open(checked))
            doc["rules"] = [r for r in doc["rules"] if r.get("id") != "csv.row.ragged"]
            copy = report + ".parquet-ids.json"
            with open(copy, "w") as f:
                json.dump(doc, f)
            if checked != report:
                os.remove(checked)
            checked = copy
        except (OSError, ValueError, KeyError, TypeError):
            pass
    r = subprocess.run([sys.executable, os.path.join(shared, "check_report.py"),
                        os.path.join(data, "expected.json"), checked, "--format", EXPECTED_FORMAT.get(fmt, fmt)],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if checked != report:
        os.remove(checked)
    wrong = [ln.strip() for ln in r.stdout.splitlines() if ln.rstrip().endswith("WRONG")]
    res = {"status": r.returncode, "wrong": wrong, "usable": r.returncode in (0, 1),
           "passed": None, "failed": None, "skipped": None}
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    parts = last.replace(",", "").split()
    if len(parts) == 6 and parts[1] == "passed":
        res["passed"], res["failed"], res["skipped"] = int(parts[0]), int(parts[2]), int(parts[4])
    if not res["usable"]:
        res["wrong"] = [r.stdout.strip() or r.stderr.strip()]
    return res


def check_peer_output(shared, data, out_path, fmt="csv"):
    # The Parquet peers report csv.row.ragged as unsupported, so the CSV's counts apply.
    expected = "csv" if fmt == "parquet" else EXPECTED_FORMAT.get(fmt, fmt)
    r = subprocess.run([sys.executable, os.path.join(shared, "peers", "check_peer.py"),
                        os.path.join(data, "expected.json"), out_path, "--format", expected],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"verdict": "no-output"}


def ensure_parquet(data):
    """people.parquet (snappy) from people.csv, once, with pyarrow from the peers' venv."""
    path = os.path.join(data, FORMAT_FILE["parquet"])
    csv = os.path.join(data, FORMAT_FILE["csv"])
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(csv):
        return path
    if not venv_has(["pyarrow"]):
        ensure_venv(["duckdb"])
    log("data: converting people.csv to Parquet (pyarrow, snappy)")
    r = subprocess.run([venv_python(), os.path.join(HERE, "to_parquet.py"), csv, path + ".tmp"], stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        die("to_parquet.py failed with status %d" % r.returncode)
    os.replace(path + ".tmp", path)
    return path


def check_csvcount(out_path, exp):
    try:
        got = json.loads(open(out_path).read().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return "no output"
    want_rows = exp["tables"]["people"]
    want_ragged = exp["counts_by_format"]["csv"].get("csv.row.ragged")
    ok = got.get("records") == want_rows and got.get("ragged") == want_ragged
    return "%s: %s records, %s ragged" % ("ok" if ok else "MISMATCH",
                                           got.get("records"), got.get("ragged"))


def looks_unsupported(status, stderr):
    if status in AUDIT_OK:
        return False
    low = stderr.lower()
    return any(h in low for h in UNSUPPORTED_HINTS)


# --------------------------------------------------------------------------- measurements

class Measurement:
    """One system on one input, measured once per round."""

    def __init__(self, key, label, fmt, argv, nbytes, rows, kind, stdout=None, max_runs=None,
                 env=None, rss_limit_mib=None):
        self.key, self.label, self.fmt, self.argv = key, label, fmt, argv
        self.nbytes, self.rows, self.kind = nbytes, rows, kind
        self.stdout, self.max_runs, self.env = stdout, max_runs, env
        self.rss_limit_mib = rss_limit_mib
        self.samples = []          # dicts from measure()
        self.verdict = None        # text for the "counts" column
        self.wrong = False         # a WRONG count (auditor) -> the run fails
        self.unsupported = False   # auditor cannot read this format yet
        self.error = None          # crashed / unexpected status

    @property
    def active(self):
        return not (self.unsupported or self.error)

    def wants_run(self, round_index):
        return self.active and (self.max_runs is None or round_index < self.max_runs)

    def med(self, field):
        xs = [s[field] for s in self.samples]
        return statistics.median(xs) if xs else None

    @property
    def wall(self):
        return self.med("wall")

    @property
    def rss_mib(self):
        xs = [s["rss_kib"] for s in self.samples]
        return max(xs) / 1024 if xs else None

    def as_json(self):
        return {"key": self.key, "label": self.label, "format": self.fmt, "kind": self.kind,
                "argv": self.argv, "bytes": self.nbytes, "rows": self.rows,
                "wall_s_median": self.wall, "wall_s_min": min((s["wall"] for s in self.samples), default=None),
                "cpu_s_median": self.med("cpu"), "peak_rss_mib": self.rss_mib,
                "rows_per_s": ratio(self.rows, self.wall), "mb_per_s": ratio(self.nbytes / MB, self.wall) if self.nbytes else None,
                "samples": [{k: s[k] for k in ("wall", "cpu", "rss_kib", "status", "load")} for s in self.samples],
                "verdict": self.verdict, "wrong": self.wrong, "unsupported": self.unsupported,
                "error": self.error}


def run_one(m, round_index, shared, data, exp, scratch):
    out = None
    if m.stdout:
        out = m.stdout
    argv = list(m.argv)
    report = None
    if m.kind == "auditor":
        report = os.path.join(scratch, "%s.r%d.json" % (m.key, round_index))
        if os.path.exists(report):
            os.remove(report)
        argv += ["--output", report]
    s = measure(argv, stdout=out if out else subprocess.DEVNULL, env=m.env,
                rss_limit_kib=m.rss_limit_mib * 1024 if m.rss_limit_mib else None)
    s["load"] = loadavg()
    if s.get("killed_at_kib"):
        m.error = "out of memory: killed holding %.0f MiB after %.1f s" % (s["killed_at_kib"] / 1024, s["wall"])
        m.verdict = "OUT OF MEMORY (> %d MiB)" % m.rss_limit_mib
        log("  %s: %s" % (m.label, m.error))
        return
    note = ""
    if m.kind == "auditor":
        if looks_unsupported(s["status"], s["stderr"]):
            m.unsupported = True
            first = s["stderr"].strip().splitlines()
            m.verdict = "not supported yet"
            m.error_detail = first[0][:160] if first else ""
            log("  %s: not supported yet by this binary (exit %d: %s)"
                % (m.label, s["status"], m.error_detail))
            return
        if s["status"] not in AUDIT_OK or not os.path.exists(report):
            m.error = "exit %d: %s" % (s["status"], s["stderr"].strip()[-400:])
            m.verdict = "ERROR (exit %d)" % s["status"]
            log("  %s: FAILED %s" % (m.label, m.error))
            return
        c = check_auditor_report(shared, data, report, m.fmt)
        if c["wrong"] or not c["usable"]:
            m.wrong = True
            m.verdict = "WRONG: " + "; ".join(w.split()[0] for w in c["wrong"])
            log("  %s: WRONG COUNTS\n      %s" % (m.label, "\n      ".join(c["wrong"])))
        elif not m.wrong:
            m.verdict = "ok %d/%d, %d not in report" % (c["passed"], c["passed"] + c["skipped"], c["skipped"])
        note = " counts " + ("WRONG" if m.wrong else "ok")
    elif m.kind == "peer":
        if s["status"] != 0:
            m.error = "exit %d: %s" % (s["status"], s["stderr"].strip()[-400:])
            m.verdict = "ERROR (exit %d)" % s["status"]
            log("  %s: FAILED %s" % (m.label, m.error))
            return
        c = check_peer_output(shared, data, out, m.fmt)
        v = c.get("verdict")
        extra = []
        if c.get("diffs"):
            extra.append("differs on " + ", ".join(sorted(c["diffs"])))
        elif v:
            extra.append(v)
        if c.get("unsupported"):
            extra.append("cannot see " + ", ".join(c["unsupported"]))
        m.verdict = "; ".join(extra)
    elif m.kind == "csvcount":
        if s["status"] != 0:
            m.error = "exit %d" % s["status"]
            m.verdict = "ERROR"
            return
        m.verdict = check_csvcount(out, exp)
    else:
        if s["status"] != 0:
            m.error = "exit %d: %s" % (s["status"], s["stderr"].strip()[-200:])
            m.verdict = "ERROR (exit %d)" % s["status"]
            log("  %s: FAILED %s" % (m.label, m.error))
            return
        m.verdict = "—"
    m.samples.append(s)
    log("  %-28s %7.3f s  %7.1f MiB  cpu %6.2f s%s"
        % (m.label, s["wall"], s["rss_kib"] / 1024, s["cpu"], note))


def run_rounds(ms, runs, shared, data, exp, scratch):
    loads = []
    for r in range(runs):
        loads.append(loadavg())
        log("round %d/%d (load average %s)" % (r + 1, runs, loads[-1]))
        for m in ms:
            if m.wants_run(r):
                run_one(m, r, shared, data, exp, scratch)
    return loads


# --------------------------------------------------------------------------- report

def table(ms):
    head = ["system", "input", "wall s", "min s", "cpu s", "rows/s", "MB/s", "peak RSS MiB", "counts"]
    rows = []
    most = max((len(m.samples) for m in ms), default=0)
    for m in ms:
        if m.unsupported:
            rows.append([m.label, m.fmt, "—", "—", "—", "—", "—", "—", "not supported yet"])
            continue
        if not m.samples:
            rows.append([m.label, m.fmt, "—", "—", "—", "—", "—", "—", m.verdict or m.error or "not run"])
            continue
        mins = min(s["wall"] for s in m.samples)
        rows.append([m.label + ("" if len(m.samples) >= most else " (%d run%s)" % (len(m.samples), "s" if len(m.samples) > 1 else "")), m.fmt,
                     fmt_s(m.wall), fmt_s(mins), fmt_s(m.med("cpu")),
                     fmt_rate(ratio(m.rows, m.wall)) if m.rows else "—",
                     "%.0f" % (m.nbytes / MB / m.wall) if m.nbytes else "—",
                     "%.1f" % m.rss_mib, m.verdict or ""])
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    right = {2, 3, 4, 5, 6, 7}
    lines = []

    def line(cells):
        out = []
        for i, c in enumerate(cells):
            out.append(str(c).rjust(widths[i]) if i in right else str(c).ljust(widths[i]))
        return "  ".join(out).rstrip()
    lines.append(line(head))
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append(line(r))
    return "\n".join(lines)


def get(ms, key):
    for m in ms:
        if m.key == key and m.samples and m.active:
            return m
    return None


def compute_ratios_and_targets(ms, tenx):
    """-> (ratios: list of (label, value, explanation)), targets: list of dicts)."""
    a_csv, a_csv1 = get(ms, "auditor.csv.j2"), get(ms, "auditor.csv.j1")
    a_xml, a_sql = get(ms, "auditor.xml.j2"), get(ms, "auditor.sqlite.j2")
    duck, pol, pan = get(ms, "peer.duckdb"), get(ms, "peer.polars"), get(ms, "peer.pandera")
    cc, wc = get(ms, "ref.csvcount"), get(ms, "ref.wc")
    xl, sq = get(ms, "ref.xmllint"), get(ms, "ref.sqlite3")
    w = lambda m: m.wall if m else None
    r = lambda m: m.rss_mib if m else None

    def wmin(m):
        return min(x["wall"] for x in m.samples) if m else None

    def cpu(m):
        return m.med("cpu") if m else None

    def time_ratio(label, num, den, expl, with_cpu=True):
        # median wall is the figure of record; min wall (least disturbed round) and
        # CPU seconds (user+sys, barely touched by other processes queueing for the
        # cores) say how much of it is the machine's noise.
        return {"ratio": label, "value": ratio(w(num), w(den)), "min": ratio(wmin(num), wmin(den)),
                "cpu": ratio(cpu(num), cpu(den)) if with_cpu else None, "note": expl}

    def rss_ratio(label, num, den, expl):
        return {"ratio": label, "value": ratio(r(num), r(den)), "min": None, "cpu": None, "note": expl}

    a_gz, zcat = get(ms, "auditor.csvgz.j2"), get(ms, "ref.zcat")
    ratios = [
        time_ratio("DuckDB / auditor CSV (time)", duck, a_csv, "> 1: auditor faster"),
        time_ratio("auditor CSV.gz / gzip -dc (time)", a_gz, zcat, "1 = the inflate alone"),
        time_ratio("auditor CSV.gz / auditor CSV (time)", a_gz, a_csv, "1 = gzip costs nothing"),
        time_ratio("polars / auditor CSV (time)", pol, a_csv, "> 1: auditor faster"),
        time_ratio("pandera / auditor CSV (time)", pan, a_csv, "> 1: auditor faster"),
        time_ratio("auditor CSV / csvcount byte scan (time)", a_csv, cc, "1 = the byte-scan limit"),
        time_ratio("auditor CSV / wc -l (time)", a_csv, wc, "wc -l: memchr for newlines only"),
        rss_ratio("auditor CSV / DuckDB (peak RSS)", a_csv, duck, "< 1: auditor leaner"),
        rss_ratio("auditor CSV / polars (peak RSS)", a_csv, pol, "< 1: auditor leaner"),
        time_ratio("auditor XML / xmllint --stream (time)", a_xml, xl, "1 = libxml2's own pass"),
        time_ratio("auditor SQLite / sqlite3 CLI scan (time)", a_sql, sq, "1 = SQLite's own pass"),
        time_ratio("auditor SQLite --pushdown / streaming (time)", get(ms, "auditor.sqlite.j2.pushdown"), a_sql,
                   "< 1: pushdown faster; one round"),
    ]
    a_jsonl = get(ms, "auditor.jsonl.j2")
    ratios += [
        time_ratio("auditor JSON Lines / auditor CSV (time)", a_jsonl, a_csv, "same 1M rows; the JSONL file is ~2x the bytes"),
        time_ratio("DuckDB read_json / auditor JSON Lines (time)", get(ms, "peer.duckdb.jsonl"), a_jsonl, "> 1: auditor faster"),
        time_ratio("polars read_ndjson / auditor JSON Lines (time)", get(ms, "peer.polars.jsonl"), a_jsonl, "> 1: auditor faster"),
    ]
    a_pq, duck_pq, pol_pq = get(ms, "auditor.parquet.j2"), get(ms, "peer.duckdb.parquet"), get(ms, "peer.polars.parquet")
    ratios += [
        time_ratio("DuckDB read_parquet / auditor Parquet (time)", duck_pq, a_pq, "> 1: auditor faster"),
        time_ratio("polars scan_parquet / auditor Parquet (time)", pol_pq, a_pq, "> 1: auditor faster"),
        rss_ratio("auditor Parquet / DuckDB read_parquet (peak RSS)", a_pq, duck_pq, "< 1: auditor leaner"),
    ]
    for fmt in ("csv", "xml", "sqlite", "jsonl", "parquet"):
        j1, j2 = get(ms, "auditor.%s.j1" % fmt), get(ms, "auditor.%s.j2" % fmt)
        ratios.append(time_ratio("%s: --jobs 1 / --jobs 2 (time)" % {"csv": "CSV", "xml": "XML", "sqlite": "SQLite",
                                                                      "jsonl": "JSON Lines", "parquet": "Parquet"}[fmt],
                                 j1, j2, "2 = perfect scaling on 2 cores; cpu: j1/j2 CPU seconds"))

    def target(name, value, ok_fn, goal, missing_why, uses=()):
        if value is None:
            return {"target": name, "goal": goal, "value": None, "verdict": "n/a", "why": missing_why}
        if any(m is not None and m.wrong for m in uses):
            # a faster wrong answer is a failure, whatever the clock says
            return {"target": name, "goal": goal, "value": value, "verdict": "FAIL",
                    "why": "auditor's counts are WRONG"}
        return {"target": name, "goal": goal, "value": value,
                "verdict": "PASS" if ok_fn(value) else "FAIL", "why": ""}

    def by_min(t, v, ok_fn):
        # the same target judged on the least-disturbed round (shown, not the verdict)
        if v is not None and t["value"] is not None and t["verdict"] != "n/a":
            t["min_value"] = v
            t["min_verdict"] = "PASS" if ok_fn(v) else "FAIL"
        return t

    targets = [
        by_min(target("CSV ≥2× faster than DuckDB", ratio(w(duck), w(a_csv)), lambda v: v >= 2.0,
                      "DuckDB/auditor ≥ 2.00", "needs auditor CSV and the DuckDB peer", [a_csv]),
               ratio(wmin(duck), wmin(a_csv)), lambda v: v >= 2.0),
        by_min(target("CSV within 2× of the byte scan", ratio(w(a_csv), w(cc)), lambda v: v <= 2.0,
                      "auditor/csvcount ≤ 2.00", "needs auditor CSV and csvcount", [a_csv]),
               ratio(wmin(a_csv), wmin(cc)), lambda v: v <= 2.0),
        target("peak RSS ≤ half of DuckDB's", ratio(r(a_csv), r(duck)), lambda v: v <= 0.5,
               "auditor/DuckDB RSS ≤ 0.50", "needs auditor CSV and the DuckDB peer", [a_csv]),
        by_min(target("--jobs 2 ≥ 1.8× --jobs 1 (CSV)", ratio(w(a_csv1), w(a_csv)), lambda v: v >= 1.8,
                      "jobs1/jobs2 ≥ 1.80", "needs --jobs-compare", [a_csv, a_csv1]),
               ratio(wmin(a_csv1), wmin(a_csv)), lambda v: v >= 1.8),
        by_min(target("XML within 1.5× of xmllint --stream", ratio(w(a_xml), w(xl)), lambda v: v <= 1.5,
               "auditor/xmllint ≤ 1.50",
               "auditor cannot read XML yet" if any(m.key == "auditor.xml.j2" and m.unsupported for m in ms)
               else "needs auditor XML and xmllint", [a_xml]),
               ratio(wmin(a_xml), wmin(xl)), lambda v: v <= 1.5),
        by_min(target("SQLite within 1.5× of sqlite3 CLI", ratio(w(a_sql), w(sq)), lambda v: v <= 1.5,
                      "auditor/sqlite3 ≤ 1.50", "needs auditor SQLite and sqlite3", [a_sql]),
               ratio(wmin(a_sql), wmin(sq)), lambda v: v <= 1.5),
    ]
    # Issue 20: XML at libxml2's speed, and the history at no cost.
    targets.append(by_min(target("XML within 1.2× of xmllint --stream (issue 20)", ratio(w(a_xml), w(xl)),
                                 lambda v: v <= 1.2, "auditor/xmllint ≤ 1.20", "needs auditor XML and xmllint", [a_xml]),
                          ratio(wmin(a_xml), wmin(xl)), lambda v: v <= 1.2))
    for fmt, name in (("csv", "CSV"), ("xml", "XML"), ("sqlite", "SQLite")):
        plain, hist = get(ms, "auditor.%s.j2" % fmt), get(ms, "auditor.%s.j2.history" % fmt)
        targets.append(by_min(target("--history adds ≤ 5%% (%s)" % name, ratio(w(hist), w(plain)),
                                     lambda v: v <= 1.05, "with/without ≤ 1.05",
                                     "needs auditor %s and --history-compare" % name, [plain, hist]),
                              ratio(wmin(hist), wmin(plain)), lambda v: v <= 1.05))
    faster_pq = [m for m in (duck_pq, pol_pq) if m is not None and m.wall is not None]
    fastest = min(faster_pq, key=lambda m: m.wall) if faster_pq else None
    targets.append(by_min(target("Parquet at least as fast as the faster of DuckDB and polars",
                                 ratio(w(fastest), w(a_pq)), lambda v: v >= 1.0, "fastest peer/auditor ≥ 1.00",
                                 "needs auditor Parquet and the DuckDB or polars peer", [a_pq]),
                          ratio(wmin(fastest), wmin(a_pq)), lambda v: v >= 1.0))
    gz_extra = (w(a_gz) - w(a_csv)) / w(zcat) if a_gz and a_csv and zcat and w(zcat) else None
    targets.append(target("gzip costs ≤ the decompression itself", gz_extra, lambda v: v <= 1.0,
                          "(auditor .csv.gz − auditor .csv) / gzip -dc ≤ 1.00",
                          "needs auditor CSV, auditor CSV.gz and gzip (--gzip)", [a_csv, a_gz]))
    if tenx is not None:
        targets.append(tenx)
    wrong = [m for m in ms if m.wrong]
    targets.append({"target": "exact counts everywhere (auditor)", "goal": "no WRONG count",
                    "value": len(wrong), "verdict": "FAIL" if wrong else "PASS",
                    "why": ", ".join(m.label for m in wrong)})
    return ratios, targets


def print_report(meta, ms, ratios, targets, tenx_ms):
    P = print
    P("")
    P("=" * 100)
    P("auditor benchmark — %s rows, seed %s, median of %s rounds (wall), peak RSS = max over rounds"
      % (format(meta["rows"], ","), meta["seed"], meta["runs"]))
    P("host: %s, %s cores; auditor %s" % (meta["host"], meta["cores"], meta["auditor"]))
    P("uptime at start: %s" % meta["uptime_start"])
    P("uptime at end:   %s" % meta["uptime_end"])
    if meta.get("round_loads"):
        loads = [la[0] for la in meta["round_loads"] if la]
        P("1-min load average at the start of each round: %s (%s cores)"
          % (", ".join("%.2f" % x for x in loads), meta["cores"]))
        if loads and meta["cores"] and statistics.median(loads) > meta["cores"]:
            P("WARNING: the load average exceeded the core count: other work was queueing for the cores,")
            P("         so wall times (and the --jobs ratio most of all) are unreliable; the cpu column")
            P("         and Benchmarks/profile.sh (instruction counts) are the stable readings.")
    P("files: " + ", ".join("%s %.1f MB" % (k, v / MB) for k, v in meta["files"].items()))
    P("=" * 100)
    P(table(ms))
    if tenx_ms:
        P("")
        P("10× and 100× (CSV memory flatness, 100 million rows; one run each):")
        P(table(tenx_ms))
    P("")
    f2 = lambda v: "—" if v is None else "%.2f" % v
    P("Ratios (same run; the machine is shared, compare these rather than absolute times).")
    P("  median = ratio of median walls (the figure of record); min = of the fastest rounds;")
    P("  cpu = of user+sys CPU seconds (less sensitive to other processes on the cores).")
    P("  %-44s %8s %8s %8s" % ("", "median", "min", "cpu"))
    for x in ratios:
        P("  %-44s %8s %8s %8s   (%s)" % (x["ratio"], f2(x["value"]), f2(x["min"]), f2(x["cpu"]), x["note"]))
    P("")
    P("Targets (issue 8), judged on the median; [min: …] = the same on the fastest rounds:")
    for t in targets:
        v = t["value"]
        vs = "—" if v is None else ("%.2f" % v if isinstance(v, float) else str(v))
        extra = ""
        if t.get("min_verdict"):
            extra = "   [min: %.2f %s]" % (t["min_value"], t["min_verdict"])
        P("  %-4s  %-46s %8s   goal %s%s%s" % (t["verdict"], t["target"], vs, t["goal"], extra,
                                                 ("   [" + t["why"] + "]") if t["why"] else ""))
    P("")


# --------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--runs", type=int, default=3, help="rounds; figures are medians (default 3)")
    ap.add_argument("--data", default=os.path.join(REPO, "bench-data"),
                    help="workload directory (default: bench-data/ at the repo root)")
    ap.add_argument("--formats", default="csv,xml,sqlite")
    ap.add_argument("--peers", default=None,
                    help="comma list of %s (default: all; frictionless only when --rows ≤ %d "
                         "unless named here explicitly)" % (",".join(ALL_PEERS), FRICTIONLESS_AUTO_MAX_ROWS))
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--jobs-compare", action=argparse.BooleanOptionalAction, default=True,
                    help="also run auditor with --jobs 1 on each format (default: on)")
    ap.add_argument("--history-compare", action=argparse.BooleanOptionalAction, default=True,
                    help="also run auditor --jobs 2 with --history on CSV, XML and SQLite (issue 20: "
                         "recording a run, input hashes included, adds at most 5%%; default: on)")
    ap.add_argument("--pushdown", action=argparse.BooleanOptionalAction, default=True,
                    help="also run the SQLite audit once with --pushdown (issue 16: the same counts from "
                         "the rules lowered to SQL; default: on)")
    ap.add_argument("--no-build", action="store_true", help="use the existing release binary")
    ap.add_argument("--hundred", action="store_true",
                    help="also audit 100x the rows once (gen.py's 10x CSV written ten times by replicate.py, "
                         "about 13 GB at 1M rows), and run the DuckDB and polars peers on it (Benchmarks/hundred.py)")
    ap.add_argument("--spark", action="store_true",
                    help="run the Spark benchmark instead (issue 17: Benchmarks/spark.py on a standalone "
                         "cluster on loopback, 1M and 10M rows, 1 and 2 workers); it runs with $SPARK_PYTHON, "
                         "else .venv/bin/python: a Python with pyspark 4.x and its Connect client")
    ap.add_argument("--tenx", action="store_true",
                    help="also audit a 10× CSV (rows×10) for the memory-flatness check")
    ap.add_argument("--gzip", action=argparse.BooleanOptionalAction, default=True,
                    help="also audit people.csv.gz (made beside people.csv with gzip -6) next to its "
                         "floor, gzip -dc > /dev/null (default: on with csv)")
    ap.add_argument("--auditor", default=os.path.join(REPO, ".build", "release", "auditor"))
    ap.add_argument("--shared", default=os.environ.get("AUDITOR_BENCH_SHARED", DEFAULT_SHARED),
                    help="the shared bench folder with gen.py, peers/, limit/ (default ../shared/bench)")
    ap.add_argument("--json", default=os.path.join(RESULTS, "latest.json"))
    a = ap.parse_args()
    if a.spark:
        sys.exit(run_spark(a))

    shared = os.path.abspath(a.shared)
    if not os.path.exists(os.path.join(shared, "gen.py")):
        die("no gen.py in %s (pass --shared DIR)" % shared)
    formats = [f.strip() for f in a.formats.split(",") if f.strip()]
    for f in formats:
        if f not in FORMAT_FILE:
            die("unknown format %r (csv, xml, sqlite, jsonl, parquet)" % f)
    if a.skip_peers:
        peers = []
    elif a.peers is None:
        peers = [p for p in ALL_PEERS if p != "frictionless" or a.rows <= FRICTIONLESS_AUTO_MAX_ROWS]
        if "frictionless" not in peers:
            log("peers: frictionless left out at %d rows (> %d; it takes minutes): name it in --peers to run it"
                % (a.rows, FRICTIONLESS_AUTO_MAX_ROWS))
    else:
        peers = [p.strip() for p in a.peers.split(",") if p.strip()]
        for p in peers:
            if p not in ALL_PEERS:
                die("unknown peer %r (%s)" % (p, ",".join(ALL_PEERS)))
    if peers and not {"csv", "jsonl", "parquet"} & set(formats):
        log("peers: they read the CSV, JSON Lines and Parquet forms only; --formats has none, so they are skipped")
        peers = []

    uptime_start = uptime_line()
    log("uptime: " + uptime_start)
    data = os.path.abspath(a.data)
    exp = ensure_data(shared, data, a.rows, a.seed, formats)
    auditor = build_auditor(a.no_build, os.path.abspath(a.auditor))
    csvcount = build_csvcount(shared) if "csv" in formats else None
    if peers:
        peers = ensure_venv(peers)
    if "parquet" in formats:
        ensure_parquet(data)
    scratch = os.path.join(RESULTS, "scratch")
    os.makedirs(scratch, exist_ok=True)

    paths = {f: os.path.join(data, FORMAT_FILE[f]) for f in formats}
    sizes = {f: os.path.getsize(p) for f, p in paths.items()}
    rows = a.rows
    ms = []
    # Reference points first in each round (cheap), then auditor, then peers.
    if "csv" in formats:
        ms.append(Measurement("ref.wc", "wc -l", "csv", ["wc", "-l", paths["csv"]], sizes["csv"], rows, "ref"))
        if csvcount:
            ms.append(Measurement("ref.csvcount", "csvcount (C byte scan)", "csv", [csvcount, paths["csv"]],
                                  sizes["csv"], rows, "csvcount", stdout=os.path.join(scratch, "csvcount.out")))
    if "xml" in formats:
        if shutil.which("xmllint"):
            ms.append(Measurement("ref.xmllint", "xmllint --stream --noout", "xml",
                                  ["xmllint", "--stream", "--noout", paths["xml"]], sizes["xml"], rows, "ref"))
        else:
            log("ref: xmllint ABSENT (apt-get install -y libxml2-utils); XML reference skipped")
    if "sqlite" in formats:
        if shutil.which("sqlite3"):
            ms.append(Measurement("ref.sqlite3", "sqlite3 'select * from people'", "sqlite",
                                  ["sqlite3", paths["sqlite"], "select * from people"], sizes["sqlite"], rows, "ref"))
        else:
            log("ref: sqlite3 CLI ABSENT (apt-get install -y sqlite3); SQLite reference skipped")
    gz = ensure_gzip(paths["csv"]) if a.gzip and "csv" in formats else None
    if gz:
        ms.append(Measurement("ref.zcat", "gzip -dc > /dev/null", "csv", ["gzip", "-dc", gz],
                              os.path.getsize(gz), rows, "ref"))
    for f in formats:
        base = [auditor, "run", RULES, "--source", "people=" + paths[f], "--format", "json", "-q"]
        jobs = [2, 1] if a.jobs_compare else [2]
        for j in jobs:
            ms.append(Measurement("auditor.%s.j%d" % (f, j), "auditor --jobs %d" % j, f,
                                  base + ["--jobs", str(j)], sizes[f], rows, "auditor"))
        if a.history_compare and f in ("csv", "xml", "sqlite"):
            # One history database per format, fresh at the start: every round adds a run to
            # it, as a nightly audit does (hashing the input and writing the run's record).
            history = os.path.join(scratch, "history.%s.sqlite" % f)
            for suffix in ("", "-wal", "-shm", "-journal"):
                if os.path.exists(history + suffix):
                    os.remove(history + suffix)
            ms.append(Measurement("auditor.%s.j2.history" % f, "auditor --jobs 2 --history", f,
                                  base + ["--jobs", "2", "--history", history], sizes[f], rows, "auditor"))
        if a.pushdown and f == "sqlite":
            # Issue 16: the same audit run inside SQLite; its counts are checked like any other.
            ms.append(Measurement("auditor.sqlite.j2.pushdown", "auditor --jobs 2 --pushdown", f,
                                  base + ["--jobs", "2", "--pushdown"], sizes[f], rows, "auditor", max_runs=1))
        if f == "csv" and gz:
            ms.append(Measurement("auditor.csvgz.j2", "auditor --jobs 2 (.csv.gz)", "csv",
                                  [auditor, "run", RULES, "--source", "people=" + gz, "--format", "json", "-q",
                                   "--jobs", "2"], os.path.getsize(gz), rows, "auditor"))
    for p in (peers if "jsonl" in formats else []):
        if p in JSONL_PEERS:
            env = dict(os.environ)
            env.pop("PYTHONPATH", None)
            env["AUDITOR_BENCH_SHARED"] = shared
            ms.append(Measurement("peer.%s.jsonl" % p, JSONL_PEERS[p], "jsonl",
                                  [venv_python(), os.path.join(HERE, "peers_jsonl.py"), p, data],
                                  sizes["jsonl"], rows, "peer",
                                  stdout=os.path.join(scratch, "peer.%s.jsonl.out" % p), env=env))
    for p in peers if "parquet" in formats else []:
        if p in ("duckdb", "polars"):
            ms.append(Measurement("peer.%s.parquet" % p, {"duckdb": "DuckDB read_parquet (peer)",
                                                          "polars": "polars scan_parquet (peer)"}[p],
                                  "parquet", [venv_python(), os.path.join(HERE, "peers", "parquet_peers.py"), p,
                                              os.path.join(shared, "peers"), data, paths["parquet"]],
                                  sizes["parquet"], rows, "peer", stdout=os.path.join(scratch, "peer.%s.parquet.out" % p)))
    for p in peers if "csv" in formats else []:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        argv = [venv_python(), os.path.join(shared, "peers", PEER_SCRIPT[p]), data]
        ms.append(Measurement("peer." + p, {"duckdb": "DuckDB SQL (peer)", "polars": "polars (peer)",
                                            "pandera": "pandera+polars (peer)",
                                            "frictionless": "frictionless (peer)"}[p],
                              "csv", argv, sizes["csv"], rows, "peer",
                              stdout=os.path.join(scratch, "peer.%s.out" % p),
                              max_runs=1 if p == "frictionless" else None, env=env))

    log("warming the page cache")
    for f in formats:
        read_file_once(paths[f])
    if gz:
        read_file_once(gz)
    for fn in ("departments.csv",):
        if os.path.exists(os.path.join(data, fn)):
            read_file_once(os.path.join(data, fn))
    round_loads = run_rounds(ms, a.runs, shared, data, exp, scratch)

    tenx_target, tenx_ms = None, []
    if a.tenx:
        tenx_target, tenx_ms = run_tenx(a, shared, data, auditor, get(ms, "auditor.csv.j2"), scratch)

    hundred_targets, hundred_ms = [], []
    if a.hundred:
        import hundred
        hundred_targets, hundred_ms = hundred.run_hundred(sys.modules[__name__], a, shared, data, auditor,
                                                          get(ms, "auditor.csv.j2"), peers, scratch)
        tenx_ms = tenx_ms + hundred_ms
    ratios, targets = compute_ratios_and_targets(ms + tenx_ms, tenx_target)
    targets += hundred_targets
    meta = {"rows": a.rows, "seed": a.seed, "runs": a.runs, "data": data,
            "host": platform.node() + " " + platform.machine(), "cores": os.cpu_count(),
            "auditor": auditor, "git": git_head(), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "uptime_start": uptime_start, "uptime_end": uptime_line(),
            "files": {FORMAT_FILE[f]: sizes[f] for f in formats}, "peers": peers,
            "round_loads": round_loads}
    print_report(meta, ms, ratios, targets, tenx_ms)
    out = {"meta": meta, "measurements": [m.as_json() for m in ms + tenx_ms],
           "ratios": ratios,
           "targets": targets}
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if os.path.abspath(a.json) == os.path.join(RESULTS, "latest.json"):
        shutil.copyfile(a.json, os.path.join(RESULTS, "run-%s-%d.json" % (stamp, a.rows)))
    print("results written to %s" % os.path.relpath(a.json, os.getcwd()))
    bad = [m for m in ms + tenx_ms if m.wrong or (m.kind == "auditor" and m.error)]
    if bad:
        print("\n!!! RUN FAILED: " + "; ".join("%s on %s: %s" % (m.label, m.fmt, m.verdict) for m in bad))
        if any(m.wrong for m in bad):
            print("!!! a faster wrong answer is a failure: fix the counts before reading the timings.")
        sys.exit(1)


def run_spark(a):
    """Benchmarks/spark.py with the Python that has pyspark; its exit status."""
    python = os.environ.get("SPARK_PYTHON") or os.path.join(REPO, ".venv", "bin", "python")
    if not os.access(python, os.X_OK):
        die("--spark needs a Python with pyspark 4.x and its Connect client: set SPARK_PYTHON "
            "(e.g. a venv with pip install 'pyspark[connect]'), or make .venv")
    argv = [python, os.path.join(HERE, "spark.py"), "--data", os.path.abspath(a.data), "--runs", str(a.runs)]
    log("spark: " + " ".join(argv))
    return subprocess.call(argv)


def git_head():
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
        d = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                           capture_output=True, text=True)
        return r.stdout.strip() + ("+dirty" if d.stdout.strip() else "")
    except OSError:
        return None


def run_tenx(a, shared, data, auditor, m1, scratch):
    """Audit a rows×10 CSV once (--jobs 2) and compare its peak RSS with the 1× run.
    Memory may grow with the key sets (person.id.unique keeps every id) but not
    with the file: the verdict allows 48 bytes per extra row for the id map (an
    8-byte key + 8-byte first location in a hash table at 50–75 % load is
    21–32 B/entry, up to 1.5× that while it doubles); the CSV itself is
    ~130 bytes per row, so anything that holds the file, or a share of it, fails."""
    rows10 = a.rows * 10
    d10 = os.path.join(data, "x10")
    exp10 = ensure_data(shared, d10, rows10, a.seed, ["csv"])
    path = os.path.join(d10, "people.csv")
    size = os.path.getsize(path)
    read_file_once(path)
    m = Measurement("auditor.csv10.j2", "auditor --jobs 2 (10× rows)", "csv",
                    [auditor, "run", RULES, "--source", "people=" + path, "--format", "json", "-q",
                     "--jobs", "2"], size, rows10, "auditor")
    ms = [m]
    cc = build_csvcount(shared)
    if cc:
        ms.insert(0, Measurement("ref.csvcount10", "csvcount (10× rows)", "csv", [cc, path], size, rows10,
                                 "csvcount", stdout=os.path.join(scratch, "csvcount10.out")))
    log("10×: %d rows, %.0f MB, one run each" % (rows10, size / MB))
    for x in ms:
        run_one(x, 0, shared, d10, exp10, scratch)
    per_row = None
    if m.samples and m1 is not None:
        per_row = (m.rss_mib - m1.rss_mib) * 1024 * 1024 / (rows10 - a.rows)
    t = {"target": "flat memory: RSS growth per extra row (1×→10×)", "goal": "≤ 48 B/row (key set only)",
         "value": per_row, "verdict": "n/a" if per_row is None else ("PASS" if per_row <= 48 else "FAIL"),
         "why": "" if per_row is None else "RSS %.0f MiB at %s rows → %.0f MiB at %s rows; file is %.0f B/row"
         % (m1.rss_mib, format(a.rows, ","), m.rss_mib, format(rows10, ","), size / rows10)}
    return t, ms


if __name__ == "__main__":
    main()
