#!/usr/bin/env python3
"""Splits a CSV file into N partition files, each with the header, for multi-file sources.

    scripts/split-partitions.py INPUT.csv OUT_DIR [--parts 10] [--prefix people-]

Writes OUT_DIR/<prefix>00.csv ... (zero-padded, so sorted names keep the input's order).
Records are split into consecutive runs of nearly equal size; a quoted field that spans lines
stays whole (Python's csv module reads and writes records, not lines). Only the standard
library is used. Prints the number of records per part.
"""
import argparse
import csv
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("out_dir")
    ap.add_argument("--parts", type=int, default=10)
    ap.add_argument("--prefix", default="part-")
    a = ap.parse_args()
    if a.parts < 1:
        sys.exit("--parts must be at least 1")
    csv.field_size_limit(1 << 30)
    # newline="" keeps CR, LF and CRLF inside quoted fields as they are.
    with open(a.input, newline="", encoding="utf-8", errors="surrogateescape") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    os.makedirs(a.out_dir, exist_ok=True)
    width = max(2, len(str(a.parts - 1)))
    base, extra = divmod(len(rows), a.parts)
    start = 0
    for i in range(a.parts):
        n = base + (1 if i < extra else 0)
        path = os.path.join(a.out_dir, f"{a.prefix}{i:0{width}d}.csv")
        with open(path, "w", newline="", encoding="utf-8", errors="surrogateescape") as out:
            w = csv.writer(out, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows[start:start + n])
        print(f"{path}\t{n}")
        start += n


if __name__ == "__main__":
    main()
