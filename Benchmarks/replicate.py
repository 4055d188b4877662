#!/usr/bin/env python3
"""Writes gen.py's people.csv COPIES times over, ids offset, so every count is exactly COPIES times.

    python3 Benchmarks/replicate.py SRC OUT [--copies 10]

SRC holds gen.py's CSV form (people.csv, departments.csv, expected.json), typically its
10M-row set; OUT gets people.csv (the header once, then copy k with every record's id
raised by k × rows), the same departments.csv, and expected.json with every count, the
tables' sizes and the physical line count multiplied by COPIES.

Why the counts stay exact: gen.py's ids are the integers 1..rows (a duplicated id repeats an
earlier one, and no id is faulty), so copy k's ids lie in k×rows+1 .. (k+1)×rows: no id of one
copy meets another's, each copy's duplicates stay duplicates, and every other rule looks at one
record alone (departments are not copied, so dangling and valid dept_ids stay what they were).

Records, not lines: a quoted field may hold line breaks (gen.py's notes do), so a line starts a
record only outside quotes; the parity of '"' on each line tracks that (an escaped quote is
two). Python's standard library only; about a minute per 10M rows, writing as it reads.
"""
import argparse
import json
import os
import shutil
import sys


def scale(expected, copies):
    out = json.loads(json.dumps(expected))
    out["counts"] = {k: v * copies for k, v in expected["counts"].items()}
    out["counts_by_format"] = {f: {k: v * copies for k, v in c.items()} for f, c in expected["counts_by_format"].items()}
    out["tables"] = dict(expected["tables"], people=expected["tables"]["people"] * copies)
    out["faulty_rows"] = expected["faulty_rows"] * copies
    out["csv_physical_lines"] = (expected["csv_physical_lines"] - 1) * copies + 1
    out["generator"] = dict(expected["generator"], rows=expected["generator"]["rows"] * copies,
                            replicated={"copies": copies, "id_offset": expected["generator"]["rows"]})
    out["files"] = {}
    return out


def replicate(src, out, copies):
    with open(os.path.join(src, "expected.json")) as f:
        expected = json.load(f)
    rows = expected["generator"]["rows"]
    os.makedirs(out, exist_ok=True)
    shutil.copyfile(os.path.join(src, "departments.csv"), os.path.join(out, "departments.csv"))
    target = os.path.join(out, "people.csv")
    partial = target + ".partial"
    records = 0
    with open(partial, "wb", buffering=1 << 22) as w:
        for k in range(copies):
            offset = k * rows
            with open(os.path.join(src, "people.csv"), "rb", buffering=1 << 22) as r:
                header = r.readline()
                if k == 0:
                    w.write(header)
                quoted = False
                for line in r:
                    if not quoted:
                        i = 0
                        while i < len(line) and 48 <= line[i] <= 57:
                            i += 1
                        if i == 0:
                            sys.exit("replicate.py: a record of %s starts without an id: %r" % (src, line[:40]))
                        w.write(str(int(line[:i]) + offset).encode())
                        w.write(line[i:])
                        records += 1
                    else:
                        w.write(line)
                    if line.count(b'"') % 2:
                        quoted = not quoted
            print("replicate.py: copy %d of %d written" % (k + 1, copies), file=sys.stderr, flush=True)
    os.replace(partial, target)
    scaled = scale(expected, copies)
    scaled["files"] = {name: os.path.getsize(os.path.join(out, name)) for name in ("people.csv", "departments.csv")}
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(scaled, f, indent=1, sort_keys=True)
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--copies", type=int, default=10)
    a = ap.parse_args()
    records = replicate(a.src, a.out, a.copies)
    print(json.dumps({"out": a.out, "records": records, "copies": a.copies}))


if __name__ == "__main__":
    main()
