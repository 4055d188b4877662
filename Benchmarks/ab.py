#!/usr/bin/env python3
"""Interleaved A/B runs of auditor builds on the CSV workload: --jobs 1 and --jobs 2.

    python3 Benchmarks/ab.py [--data DIR] [--rounds N] NAME=BINARY[@VAR=VALUE,...] ...

Every round runs each configuration once with --jobs 1 and once with --jobs 2, in the
order given, so load that drifts during the batch hits every configuration alike (on this
shared 2-core VM identical commands vary by up to 10 % between batches; only interleaved
runs compare builds). Prints per configuration the median wall and CPU seconds, peak RSS,
minor page faults and the --jobs 1 / --jobs 2 ratio (of medians and of the fastest
rounds). Every report is checked against the workload's expected.json with
check_report.py: a wrong count fails the batch (exit 1).

Example: a change against the build before it, and an allocator setting:
    python3 Benchmarks/ab.py base=/tmp/auditor-before new=.build/release/auditor \\
        'thp=.build/release/auditor@GLIBC_TUNABLES=glibc.malloc.hugetlb=1'

The workload is the one Benchmarks/run.py generates (bench-data/ by default).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    parser.add_argument("--data", default=str(ROOT / "bench-data"), help="workload folder (default: bench-data/)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--shared", default=os.environ.get("AUDITOR_BENCH_SHARED", str(ROOT.parent / "shared" / "bench")))
    args = parser.parse_args()

    data = Path(args.data)
    expected = data / "expected.json"
    if not (data / "people.csv").exists() or not expected.exists():
        sys.exit(f"ab: no workload in {data}: run Benchmarks/run.py (or gen.py) first, or pass --data")
    check = Path(args.shared) / "check_report.py"
    if not check.exists():
        sys.exit(f"ab: {check} not found; pass --shared")

    out = Path(tempfile.mkdtemp(prefix="auditor-ab-"))
    samples = {}
    for _ in range(args.rounds):
        for name, binary, env in args.configs:
            for jobs in (1, 2):
                report = out / f"{name}-{jobs}.json"
                command = [binary, "run", str(ROOT / "rules/people.yml"),
                           "--source", f"people={data / 'people.csv'}",
                           "--source", f"departments={data / 'departments.csv'}",
                           "--format", "json", "--output", str(report), "-q", "--jobs", str(jobs)]
                started = time.perf_counter()
                process = subprocess.Popen(command, env={**os.environ, **env})
                _, status, usage = os.wait4(process.pid, 0)
                wall = time.perf_counter() - started
                code = os.waitstatus_to_exitcode(status)
                if code not in (0, 1):
                    sys.exit(f"ab: {name} --jobs {jobs} exited {code}")
                samples.setdefault((name, jobs), []).append(
                    (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, usage.ru_minflt))

    wrong = False
    print(f"{args.rounds} interleaved rounds, {data / 'people.csv'}; medians (peak RSS: max)")
    for name, _, env in args.configs:
        cells = []
        for jobs in (1, 2):
            rows = samples[(name, jobs)]
            cells.append((statistics.median(r[0] for r in rows), min(r[0] for r in rows),
                          statistics.median(r[1] for r in rows), max(r[2] for r in rows),
                          statistics.median(r[3] for r in rows)))
            result = subprocess.run([sys.executable, str(check), str(expected), str(out / f"{name}-{jobs}.json")],
                                    capture_output=True, text=True)
            if result.returncode != 0 or "WRONG" in result.stdout:
                wrong = True
                print(f"  {name} --jobs {jobs}: WRONG counts\n{result.stdout}{result.stderr}")
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
