"""`run.py --hundred` (issue 20): the same audit on 100 million rows, and the peers on the same file.

The workload is gen.py's 10M-row CSV (made once, as for --tenx) written ten times over by
Benchmarks/replicate.py with ids offset, so every expected count is exactly ten times gen.py's
10M count (about 13 GB; it is written once into DATA/x100 and reused). One run each:

- auditor --jobs 2, its report checked count for count;
- the DuckDB and polars peers (the 1M run's scripts, pointed at the 100M folder), each in a
  session of its own that is killed once it holds more than PEER_RSS_LIMIT_MIB: a peer that
  runs out of memory is recorded as such, as the issue asks, instead of making the machine swap.

Targets: exact counts; peak RSS at most 2 GB; throughput (MB/s) at least 90 % of the 1M run's.
"""
import json
import os
import subprocess
import sys

PEER_RSS_LIMIT_MIB = 16 * 1024
RSS_GOAL_MIB = 2048


def ensure_hundred(run, shared, data, rows, seed):
    """DATA/x100 from DATA/x10 (made first if needed); returns (folder, expected)."""
    d10 = os.path.join(data, "x10")
    run.ensure_data(shared, d10, rows * 10, seed, ["csv"])
    d100 = os.path.join(data, "x100")
    expected = os.path.join(d100, "expected.json")
    if not (os.path.exists(expected) and os.path.getmtime(expected) >= os.path.getmtime(os.path.join(d10, "people.csv"))):
        run.log("data: replicating %s ten times into %s (ids offset; about a minute per 10M rows)" % (d10, d100))
        subprocess.run([sys.executable, os.path.join(run.HERE, "replicate.py"), d10, d100, "--copies", "10"],
                       check=True, stdin=subprocess.DEVNULL)
    else:
        run.log("data: reusing %s" % d100)
    with open(expected) as f:
        return d100, json.load(f)


def run_hundred(run, a, shared, data, auditor, m1, peers, scratch):
    rows = a.rows * 100
    d100, exp = ensure_hundred(run, shared, data, a.rows, a.seed)
    path = os.path.join(d100, "people.csv")
    size = os.path.getsize(path)
    m = run.Measurement("auditor.csv100.j2", "auditor --jobs 2 (100× rows)", "csv",
                        [auditor, "run", run.RULES, "--source", "people=" + path, "--format", "json", "-q",
                         "--jobs", "2"], size, rows, "auditor")
    ms = [m]
    for p in peers:
        if p not in ("duckdb", "polars"):
            continue
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        ms.append(run.Measurement("peer.%s.100" % p, {"duckdb": "DuckDB SQL (peer, 100×)", "polars": "polars (peer, 100×)"}[p],
                                  "csv", [run.venv_python(), os.path.join(shared, "peers", run.PEER_SCRIPT[p]), d100],
                                  size, rows, "peer", stdout=os.path.join(scratch, "peer.%s.100.out" % p), env=env,
                                  rss_limit_mib=PEER_RSS_LIMIT_MIB))
    run.log("100×: %d rows, %.0f MB, one run each (peers killed above %d MiB)" % (rows, size / run.MB, PEER_RSS_LIMIT_MIB))
    for x in ms:
        run.run_one(x, 0, shared, d100, exp, scratch)
    targets = []
    done = bool(m.samples) and not m.error
    targets.append({"target": "100M rows: exact counts", "goal": "every count ten times gen.py's 10M count",
                    "value": None if not done else (1 if m.wrong else 0),
                    "verdict": "n/a" if not done else ("FAIL" if m.wrong else "PASS"), "why": m.verdict or m.error or ""})
    rss = m.rss_mib if done else None
    targets.append({"target": "100M rows: peak RSS ≤ 2 GB", "goal": "≤ %d MiB" % RSS_GOAL_MIB, "value": rss,
                    "verdict": "n/a" if rss is None else ("PASS" if rss <= RSS_GOAL_MIB else "FAIL"), "why": ""})
    share = None
    if done and m1 is not None and m1.wall and m.wall:
        share = (size / m.wall) / (m1.nbytes / m1.wall)
    targets.append({"target": "100M rows: MB/s ≥ 90 % of the 1M run's", "goal": "100M MB/s / 1M MB/s ≥ 0.90", "value": share,
                    "verdict": "n/a" if share is None else ("PASS" if share >= 0.9 else "FAIL"),
                    "why": "" if share is None else "%.0f MB/s against %.0f MB/s"
                    % (size / run.MB / m.wall, m1.nbytes / run.MB / m1.wall)})
    return targets, ms
