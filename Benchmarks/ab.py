#!/usr/bin/env python3
"""Interleaved A/B runs of auditor builds on the CSV workload: --jobs 1 and --jobs 2.

    python3 Benchmarks/ab.py [--data DIR] [--rounds N] NAME=BINARY[@VAR=VALUE,...] ...

Every round runs each configuration once with --jobs 1 and once with --jobs 2, in the
order given, so load that drifts during the batch hits every configuration alike (on this
shared 2-core VM identical commands vary by up to 10 % between batches; only interleaved
runs compare builds). Prints per configuration the median wall and CPU seconds, peak RSS,
minor page faults and the --jobs 1 / --jobs 2 ratio (of medians and of the fastest
rounds). Timing and the count check are run.py's own (measure, check_auditor_report):
every report is checked against the workload's expected.json, and a wrong count fails
the batch (exit 1).

Example: a change against the build before it, and an allocator setting:
    python3 Benchmarks/ab.py base=/tmp/auditor-before new=.build/release/auditor \\
        'thp=.build/release/auditor@GLIBC_TUNABLES=glibc.malloc.hugetlb=1'

The workload is the one Benchmarks/run.py generates (bench-data/ by default).
"""
import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from run import AUDIT_OK, DEFAULT_SHARED, REPO, RULES, check_auditor_report, measure


def parse_config(text):
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=BINARY[@VAR=VALUE,...]")
    binary, _, env_text = rest.partition("@")
    env = {}
    for pair in filter(None, env_text.split(",")):
        key, sep, value = pair.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"'{pair}' in '{text}' is not VAR=VALUE")
        env[key] = value
    if not os.access(binary, os.X_OK):
        raise argparse.ArgumentTypeError(f"'{binary}' is not an executable (build it first)")
    return name, binary, env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+", type=parse_config, metavar="NAME=BINARY[@VAR=VALUE,...]")
    parser.add_argument("--data", default=os.path.join(REPO, "bench-data"), help="workload folder (default: bench-data/)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--shared", default=os.environ.get("AUDITOR_BENCH_SHARED", DEFAULT_SHARED))
    args = parser.parse_args()

    data = Path(args.data)
    if not (data / "people.csv").exists() or not (data / "expected.json").exists():
        sys.exit(f"ab: no workload in {data}: run Benchmarks/run.py (or gen.py) first, or pass --data")
    if not (Path(args.shared) / "check_report.py").exists():
        sys.exit(f"ab: {args.shared}/check_report.py not found; pass --shared")

    out = Path(tempfile.mkdtemp(prefix="auditor-ab-"))
    samples = {}
    for _ in range(args.rounds):
        for name, binary, env in args.configs:
            for jobs in (1, 2):
                report = out / f"{name}-{jobs}.json"
                m = measure([binary, "run", RULES,
                             "--source", f"people={data / 'people.csv'}",
                             "--source", f"departments={data / 'departments.csv'}",
                             "--format", "json", "--output", str(report), "-q", "--jobs", str(jobs)],
                            env={**os.environ, **env})
                if m["status"] not in AUDIT_OK:
                    sys.exit(f"ab: {name} --jobs {jobs} exited {m['status']}: {m['stderr'].strip()}")
                samples.setdefault((name, jobs), []).append(m)

    wrong = False
    print(f"{args.rounds} interleaved rounds, {data / 'people.csv'}; medians (peak RSS: max)")
    for name, _, _ in args.configs:
        cells = []
        for jobs in (1, 2):
            runs = samples[(name, jobs)]
            cells.append((statistics.median(m["wall"] for m in runs), min(m["wall"] for m in runs),
                          statistics.median(m["cpu"] for m in runs), max(m["rss_kib"] for m in runs) / 1024,
                          statistics.median(m["faults"] for m in runs)))
            check = check_auditor_report(args.shared, str(data), str(out / f"{name}-{jobs}.json"), "csv")
            if check["status"] != 0 or check["wrong"]:
                wrong = True
                print(f"  {name} --jobs {jobs}: WRONG counts: " + "; ".join(check["wrong"]))
        (w1, m1, c1, r1, f1), (w2, m2, c2, r2, f2) = cells
        print(f"  {name:10s} j1 {w1:.3f} s (cpu {c1:.3f}, {r1:.0f} MiB, {f1:.0f} faults)"
              f"  j2 {w2:.3f} s (cpu {c2:.3f}, {r2:.0f} MiB, {f2:.0f} faults)"
              f"  j1/j2 {w1 / w2:.2f} (fastest {m1 / m2:.2f})")
    for path in out.iterdir():
        path.unlink()
    out.rmdir()
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
