#!/usr/bin/env python3
"""Spark benchmark of issue 17: the benchmark audit on a standalone Spark cluster on loopback
(a master and 1, then 2 workers of 1 core each, started with spark-class, and a Spark Connect
server submitted to that master), at 1M and 10M rows, three ways:

  reference  Benchmarks/spark_reference.py: the audit written by hand in PySpark, one aggregate
  spark      auditor run rules/people.yml --source people=sc://… --pushdown (the rules as Spark SQL)
  streaming  auditor run rules/people.yml --source people=people.csv (the auditor's own engine,
             no Spark; measured once per size, with the cluster stopped)

Spark reads gen.py's people.csv split at record boundaries into --parts files (a CSV with
line breaks inside quoted fields must be read with multiLine, which reads a file in one task;
parts are what let two workers share the scan), registered as tables `people` and
`departments` (every column a string). The auditor's counts through Spark must equal
expected.json's (every rule but csv.row.ragged, which Spark's parser repairs) and the streaming
engine's; the reference must give expected.json's counts too. 10M uses DATA/x10 (gen.py
--rows 10000000, its own expected.json).

Figures are medians of --runs rounds (each round: reference, then auditor); peak RSS is the
auditor's (wait4). The Spark jobs and stages of the audit come from the driver's REST API
(/api/v1/applications/<id>/jobs): the jobs submitted while it ran. Target: the auditor through
Spark within 1.3x of the hand-written PySpark job.

Usage (pyspark 4.x with its Connect client, Java 17):
  /work/venv-spark/bin/python Benchmarks/spark.py [--data bench-data] [--sizes 1m,10m]
      [--workers 1,2] [--runs 3] [--runs-10m 1] [--auditor .build-spark-release/release/auditor]
Everything runs in a temporary folder on free loopback ports and is stopped at the end, also on
failure or Ctrl-C. Exit status 0 when every count is right, 1 otherwise, 2 for setup errors.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RULES = os.path.join(REPO, "rules", "people.yml")
REFERENCE = os.path.join(HERE, "spark_reference.py")
CONNECT_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def spark_home():
    if os.environ.get("SPARK_HOME"):
        return os.environ["SPARK_HOME"]
    try:
        import pyspark
    except ImportError:
        raise SystemExit("spark.py: no pyspark here: run it with the Python of a venv that has pyspark 4.x "
                         "(pip install 'pyspark[connect]'), or set SPARK_HOME")
    return os.path.dirname(pyspark.__file__)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def wait_for(what, test, proc, log_path, timeout=240):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if test():
                return
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited ({proc.returncode}) before it was ready; log: {log_path}\n"
                               + open(log_path, errors="replace").read()[-3000:])
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} not ready within {timeout} s; log: {log_path}")
        time.sleep(0.5)


class Cluster:
    """A standalone master, `workers` workers of 1 core, and a Connect server on that master."""

    def __init__(self, home, folder, workers, worker_memory, driver_memory, partitions):
        self.home, self.folder, self.workers = home, folder, workers
        self.worker_memory, self.driver_memory, self.partitions = worker_memory, driver_memory, partitions
        self.procs = []          # (name, Popen) in start order
        self.env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=folder, SPARK_PID_DIR=folder,
                        SPARK_NO_DAEMONIZE="1", SPARK_CONNECT_MODE="0", SPARK_LOCAL_DIRS=os.path.join(folder, "tmp"))

    def spawn(self, name, argv):
        path = os.path.join(self.folder, name + ".log")
        out = open(path, "w")
        # A session of its own: a Ctrl-C of the benchmark does not reach it; stop() ends it.
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                             start_new_session=True)
        out.close()
        self.procs.append((name, p))
        return p, path

    def start(self):
        os.makedirs(os.path.join(self.folder, "tmp"), exist_ok=True)
        cls = os.path.join(self.home, "bin", "spark-class")
        t0 = time.monotonic()
        mport, mui = free_port(), free_port()
        master, mlog = self.spawn("master", [cls, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                             "--port", str(mport), "--webui-port", str(mui)])
        self.master_url = f"spark://127.0.0.1:{mport}"
        wait_for("the Spark master", lambda: listening(mport) and listening(mui), master, mlog)
        for i in range(self.workers):
            work = os.path.join(self.folder, f"work{i}")
            os.makedirs(work, exist_ok=True)
            self.spawn(f"worker{i}", [cls, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                                      "--cores", "1", "--memory", self.worker_memory, "--port", str(free_port()),
                                      "--webui-port", str(free_port()), "--work-dir", work, self.master_url])
        wait_for(f"{self.workers} workers", lambda: sum(w.get("state") == "ALIVE" for w in
                                                        get_json(f"http://127.0.0.1:{mui}/json/")["workers"])
                 == self.workers, master, mlog)
        self.port, self.ui = free_port(), free_port()
        submit = os.path.join(self.home, "bin", "spark-submit")
        server, slog = self.spawn("connect", [
            submit, "--class", CONNECT_CLASS, "--name", f"auditor benchmark ({self.workers} workers)",
            "--master", self.master_url, "--driver-memory", self.driver_memory,
            "--conf", "spark.executor.cores=1", "--conf", f"spark.executor.memory={self.worker_memory}",
            "--conf", f"spark.cores.max={self.workers}",
            "--conf", f"spark.connect.grpc.binding.port={self.port}",
            "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
            "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
            "--conf", "spark.ui.enabled=true", "--conf", f"spark.ui.port={self.ui}", "--conf", "spark.port.maxRetries=0",
            "--conf", "spark.sql.catalogImplementation=in-memory",
            "--conf", f"spark.sql.warehouse.dir={self.folder}/warehouse",
            "--conf", f"spark.local.dir={self.folder}/tmp",
            "--conf", "spark.sql.session.timeZone=UTC",
            "--conf", f"spark.sql.shuffle.partitions={self.partitions}",
            "--conf", f"spark.driver.extraJavaOptions=-Djava.io.tmpdir={self.folder}/tmp"])
        self.url = f"sc://127.0.0.1:{self.port}"
        wait_for("the Spark Connect server", lambda: listening(self.port) and listening(self.ui), server, slog)
        self.app = get_json(self.api("applications"))[0]["id"]
        wait_for(f"{self.workers} executors", lambda: len(self.executors()) >= self.workers, server, slog)
        log(f"cluster: master {self.master_url}, {self.workers} worker(s), Connect {self.url}, UI :{self.ui}, "
            f"up in {time.monotonic() - t0:.0f} s")

    def api(self, path):
        return f"http://127.0.0.1:{self.ui}/api/v1/{path}"

    def executors(self):
        return [e for e in get_json(self.api(f"applications/{self.app}/executors")) if e["id"] != "driver"]

    def jobs(self):
        return get_json(self.api(f"applications/{self.app}/jobs"))

    def stop(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for name, p in reversed(self.procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log(f"{name} (pid {p.pid}) ignored SIGTERM: SIGKILL")
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        self.procs = []


def job_seconds(job):
    """A job's duration from the REST API's timestamps (2026-11-27T15:03:44.029GMT)."""
    def parse(t):
        return time.mktime(time.strptime(t[:19], "%Y-%m-%dT%H:%M:%S")) + float("0" + t[19:23])
    if not job.get("completionTime"):
        return None
    return round(parse(job["completionTime"]) - parse(job["submissionTime"]), 2)


def split_csv(src, out_dir, parts):
    """`src` cut into `parts` CSV files of about equal size, each with the header, at record
    boundaries: a line starts a record only when the quotes before it are balanced."""
    os.makedirs(out_dir, exist_ok=True)
    size = os.path.getsize(src)
    with open(src, "rb") as f:
        header = f.readline()
        target, part, written, quotes = size / parts, 0, 0, 0
        out = open(os.path.join(out_dir, "part-%03d.csv" % part), "wb")
        out.write(header)
        for line in f:
            if quotes % 2 == 0 and written >= target * (part + 1) and part < parts - 1:
                out.close()
                part += 1
                out = open(os.path.join(out_dir, "part-%03d.csv" % part), "wb")
                out.write(header)
            out.write(line)
            written += len(line)
            quotes += line.count(b'"')
        out.close()
    return part + 1


def measure(argv, env=None):
    """(seconds, exit status, stdout, stderr) of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = p.communicate()
    return time.perf_counter() - t0, p.returncode, out, err


def measure_rss(argv):
    """(seconds, peak RSS MiB, exit status, stdout, stderr): wait4 on the child itself."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return seconds, usage.ru_maxrss / 1024, p.returncode, out.read(), err.read().decode(errors="replace")


def person_counts(report_bytes):
    report = json.loads(report_bytes)
    counts = {r["id"]: r["violations"] for r in report["rules"] if r.get("entity") == "Person"}
    people = [i for i in report["inputs"] if i["source"] == "people"]
    return counts, people[0] if people else {}


def check_counts(got, want, what):
    """The rules whose count differs from `want` (csv.row.ragged and other csv.* left out)."""
    bad = []
    for rule, n in sorted(want.items()):
        if rule.startswith("csv."):
            continue
        if got.get(rule) != n:
            bad.append(f"{rule}: {what} {got.get(rule)}, expected {n}")
    return bad


def expected_counts(folder):
    with open(os.path.join(folder, "expected.json")) as f:
        e = json.load(f)
    return e["counts_by_format"]["csv"], e["tables"]["people"]


def audit_argv(auditor, people, departments, extra=()):
    return [auditor, "run", RULES, "--source", f"people={people}", "--source", f"departments={departments}",
            "--format", "json", "-q", *extra]


def run_auditor(argv, what, problems):
    s, rss, code, out, err = measure_rss(argv)
    if code not in (0, 1):
        problems.append(f"{what}: auditor exited {code}: {err[-1500:]}")
        return s, rss, None, {}
    counts, people = person_counts(out)
    return s, rss, counts, people


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(REPO, "bench-data"),
                    help="gen.py's 1M folder (people.csv, departments.csv, expected.json) with x10/ for 10M")
    ap.add_argument("--sizes", default="1m,10m")
    ap.add_argument("--workers", default="1,2", help="cluster sizes to run, e.g. 1,2")
    ap.add_argument("--runs", type=int, default=3, help="rounds at 1M (default 3)")
    ap.add_argument("--runs-10m", type=int, default=1, help="rounds at 10M (default 1)")
    ap.add_argument("--parts", type=int, default=8, help="CSV files Spark reads per table (default 8)")
    ap.add_argument("--partitions", type=int, default=8, help="spark.sql.shuffle.partitions (default 8)")
    ap.add_argument("--worker-memory", default="2g")
    ap.add_argument("--driver-memory", default="2g")
    ap.add_argument("--auditor", default=os.path.join(REPO, ".build-spark-release", "release", "auditor"),
                    help="a build with the Spark trait (default .build-spark-release/release/auditor)")
    ap.add_argument("--no-streaming", action="store_true", help="skip the streaming engine's runs")
    ap.add_argument("--json", help="also write the results here")
    a = ap.parse_args()

    home = spark_home()
    if not os.path.exists(os.path.join(home, "bin", "spark-class")):
        log(f"spark.py: {home}/bin/spark-class is missing: is pyspark 4.x installed completely?")
        return 2
    if not os.access(a.auditor, os.X_OK):
        log(f"spark.py: no auditor at {a.auditor}: swift build -c release --traits Spark --scratch-path .build-spark-release")
        return 2
    sizes = [s.strip() for s in a.sizes.split(",") if s.strip()]
    workers = [int(w) for w in a.workers.split(",")]
    folders = {"1m": a.data, "10m": os.path.join(a.data, "x10")}
    for s in sizes:
        if s not in folders or not os.path.exists(os.path.join(folders[s], "people.csv")):
            log(f"spark.py: no people.csv for size {s!r} in {folders.get(s)}")
            return 2

    # SIGTERM (a CI timeout, kill) unwinds like Ctrl-C, so the finally below stops the cluster.
    def interrupted(*_):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, interrupted)
    scratch = tempfile.mkdtemp(prefix="auditor-spark-bench-")
    problems, results = [], {}
    cluster = None
    try:
        data = {}
        for s in sizes:
            t0 = time.monotonic()
            parts_dir = os.path.join(scratch, "data", s)
            n = split_csv(os.path.join(folders[s], "people.csv"), os.path.join(parts_dir, "people"), a.parts)
            os.makedirs(os.path.join(parts_dir, "departments"))
            shutil.copy(os.path.join(folders[s], "departments.csv"), os.path.join(parts_dir, "departments"))
            want, rows = expected_counts(folders[s])
            data[s] = {"parts": parts_dir, "want": want, "rows": rows, "runs": a.runs_10m if s == "10m" else a.runs}
            log(f"{s}: people.csv split into {n} files in {time.monotonic() - t0:.0f} s")

        streaming = {}
        if not a.no_streaming:
            for s in sizes:
                argv = audit_argv(a.auditor, os.path.join(folders[s], "people.csv"),
                                  os.path.join(folders[s], "departments.csv"))
                times, rss, counts = [], [], None
                for r in range(data[s]["runs"]):
                    sec, mib, counts, _ = run_auditor(argv, f"{s} streaming", problems)
                    times.append(sec)
                    rss.append(mib)
                    log(f"{s} streaming round {r + 1}: {sec:.2f} s, {mib:.0f} MiB")
                streaming[s] = {"seconds": statistics.median(times), "rss": max(rss), "counts": counts}
                if counts is not None:
                    problems += check_counts(counts, data[s]["want"], f"{s} streaming")

        for w in workers:
            cluster = Cluster(home, os.path.join(scratch, f"cluster{w}"), w, a.worker_memory, a.driver_memory,
                              a.partitions)
            cluster.start()
            env = dict(os.environ, PYTHONWARNINGS="ignore")
            for s in sizes:
                d = data[s]
                create = ("import sys; from pyspark.sql import SparkSession\n"
                          "spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()\n"
                          "for t in ('people', 'departments'):\n"
                          "    spark.sql(f'DROP TABLE IF EXISTS {t}')\n"
                          "    spark.sql(f\"CREATE TABLE {t} USING csv OPTIONS (path '{sys.argv[2]}/{t}', header 'true', \"\n"
                          "              \"multiLine 'true', escape '\\\"', inferSchema 'false')\")\n"
                          "spark.stop()\n")
                subprocess.run([sys.executable, "-c", create, cluster.url, d["parts"]], check=True, env=env)
                ref_argv = [sys.executable, REFERENCE, cluster.url, "--expected", os.path.join(folders[s], "expected.json")]
                spark_argv = audit_argv(a.auditor, cluster.url, cluster.url, ["--pushdown"])
                # Warm-up of a fresh cluster (JIT, executors' first classes), not timed, for both
                # jobs alike: each compiles classes of its own (the auditor's windows and sort), and
                # a cold first run was the slowest (Benchmarks/README, run of 2026-12-06). At 10M
                # after 1M the cluster is warm, and one more 10M pass costs minutes.
                if s == sizes[0]:
                    for argv in (ref_argv, spark_argv):
                        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                ref_t, ref_q, sp_t, sp_rss, jobs = [], [], [], [], None
                ref_counts = sp_counts = None
                people = {}
                for r in range(d["runs"]):
                    sec, code, out, err = measure(ref_argv, env)
                    if code not in (0, 1) or not out.strip():
                        problems.append(f"{s} {w}w reference exited {code}: {err.decode(errors='replace')[-1500:]}")
                    else:
                        result = json.loads(out.decode().strip().splitlines()[-1])
                        ref_counts = result["counts"]
                        ref_q.append(result["seconds"])
                    ref_t.append(sec)
                    before = {j["jobId"] for j in cluster.jobs()}
                    sec2, mib, sp_counts, people = run_auditor(spark_argv, f"{s} {w}w spark", problems)
                    after = [j for j in cluster.jobs() if j["jobId"] not in before]
                    jobs = {"jobs": len(after),
                            "stages": sum(len(j["stageIds"]) for j in after),
                            "skipped": sum(j.get("numSkippedStages", 0) for j in after),
                            "tasks": sum(j.get("numTasks", 0) for j in after),
                            # (job id, tasks, seconds): where the audit's time goes.
                            "each": sorted((j["jobId"], j.get("numTasks", 0), job_seconds(j)) for j in after)}
                    sp_t.append(sec2)
                    sp_rss.append(mib)
                    log(f"{s} {w} worker(s) round {r + 1}: reference {sec:.2f} s (query {ref_q[-1] if ref_q else 0:.2f} s), "
                        f"auditor via Spark {sec2:.2f} s, {mib:.0f} MiB, {jobs['jobs']} jobs / {jobs['stages']} stages")
                busy = [e["id"] for e in cluster.executors() if e.get("totalTasks", 0) > 0]
                row = {"reference": statistics.median(ref_t), "reference_query": statistics.median(ref_q) if ref_q else None,
                       "spark": statistics.median(sp_t), "spark_rss": max(sp_rss), "jobs": jobs,
                       "executors_with_tasks": len(busy), "ranIn": people.get("ranIn"),
                       "records": people.get("records")}
                if ref_counts is not None:
                    problems += check_counts(ref_counts, d["want"], f"{s} {w}w reference")
                if sp_counts is not None:
                    bad = check_counts(sp_counts, d["want"], f"{s} {w}w auditor via Spark")
                    problems += bad
                    row["exact"] = not bad
                    if s in streaming and streaming[s]["counts"] is not None:
                        diff = [k for k in streaming[s]["counts"] if not k.startswith("csv.")
                                and streaming[s]["counts"][k] != sp_counts.get(k)]
                        row["same_as_streaming"] = not diff
                        problems += [f"{s} {w}w: {k} via Spark {sp_counts.get(k)}, streaming {streaming[s]['counts'][k]}"
                                     for k in diff]
                if people.get("ranIn") != "spark":
                    problems.append(f"{s} {w}w: the audit of people did not run in Spark: {people}")
                if people.get("records") != d["rows"]:
                    problems.append(f"{s} {w}w: {people.get('records')} records via Spark, expected {d['rows']}")
                results[(s, w)] = row
            cluster.stop()
            cluster = None
    except KeyboardInterrupt:
        problems.append("interrupted")
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"Spark benchmark (issue 17), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; auditor {a.auditor}")
    print(f"{'rows':>4} {'workers':>7} {'PySpark s':>9} {'query s':>7} {'auditor/Spark s':>15} {'ratio':>5} "
          f"{'≤1.3×':>5} {'streaming s':>11} {'RSS Spark':>9} {'RSS stream':>10} {'jobs/stages (skipped)':>21} "
          f"{'execs busy':>10}  counts")
    for (s, w), r in results.items():
        # Judged on the hand-written job's query time (its Python start and connection left out),
        # the stricter of the two; against its whole process the ratio is r["spark"] / r["reference"].
        ratio = r["spark"] / (r["reference_query"] or r["reference"])
        st = streaming.get(s, {})
        j = r["jobs"] or {}
        counts = ("exact" if r.get("exact") else "WRONG") + (
            ", = streaming" if r.get("same_as_streaming") else (", ≠ streaming" if "same_as_streaming" in r else ""))
        print(f"{s:>4} {w:>7} {r['reference']:9.2f} {r['reference_query'] or 0:7.2f} {r['spark']:15.2f} {ratio:5.2f} "
              f"{'PASS' if ratio <= 1.3 else 'FAIL':>5} {st.get('seconds', float('nan')):11.2f} "
              f"{r['spark_rss']:8.0f}M {st.get('rss', float('nan')):9.0f}M "
              f"{'%d/%d (%d)' % (j.get('jobs', 0), j.get('stages', 0), j.get('skipped', 0)):>21} "
              f"{r['executors_with_tasks']:>10}  {counts}")
    for s in sizes:
        if (s, 1) in results and (s, 2) in results:
            one, two = results[(s, 1)], results[(s, 2)]
            print(f"scaling {s}, 1 -> 2 workers (time 1 / time 2): hand PySpark {one['reference'] / two['reference']:.2f}x "
                  f"(query {(one['reference_query'] or 0) / (two['reference_query'] or 1):.2f}x), "
                  f"auditor via Spark {one['spark'] / two['spark']:.2f}x")
    print("ratio = auditor via Spark / the hand-written job's query time (PySpark s includes its Python start); "
          "the auditor's jobs (id, tasks, s) of its last round:")
    for (s, w), r in results.items():
        if r["jobs"]:
            print(f"  {s} {w}w: " + ", ".join(f"{j}:{t}/{sec}" for j, t, sec in r["jobs"]["each"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": {f"{s}/{w}w": r for (s, w), r in results.items()},
                       "streaming": {s: {k: v for k, v in r.items() if k != "counts"} for s, r in streaming.items()},
                       "problems": problems}, f, indent=2)
    for p in problems:
        print("PROBLEM: " + p)
    print("counts: " + ("every count right" if not problems else f"{len(problems)} problem(s)"))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
