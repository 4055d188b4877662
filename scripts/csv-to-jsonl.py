#!/usr/bin/env python3
"""Converts a CSV export (such as ../shared/bench/gen.py's people.csv) to JSON Lines.

    python3 scripts/csv-to-jsonl.py people.csv people.jsonl

Every line is one object whose keys are the header's names and whose values are the CSV
fields as JSON strings, exactly as the CSV holds them (numbers and dates stay quoted text, as
many exports write them). An empty field is null, as auditor's CSV reader reads it as missing
(nullValues [""]). A ragged row is repaired the way gen.py writes it in its other formats: a
field beyond the header is dropped, a missing trailing field is null; so the JSON Lines file
gives expected.json's counts without csv.row.ragged, and as many records as the CSV.

Uses only the standard library (csv, json).
"""
import csv
import json
import sys


def convert(source, target):
    """Writes `target` from `source`; returns (records, repaired ragged rows)."""
    records = ragged = 0
    with open(source, newline="", encoding="utf-8") as f, \
            open(target, "w", encoding="utf-8", newline="\n") as out:
        rows = csv.reader(f)
        header = next(rows)
        width = len(header)
        lines = []
        for row in rows:
            if len(row) != width:
                ragged += 1
                row = (row + [""] * width)[:width]
            obj = {name: (value if value != "" else None) for name, value in zip(header, row)}
            lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
            records += 1
            if len(lines) >= 20000:
                out.write("\n".join(lines) + "\n")
                lines = []
        if lines:
            out.write("\n".join(lines) + "\n")
    return records, ragged


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: csv-to-jsonl.py INPUT.csv OUTPUT.jsonl\n")
        sys.exit(64)
    records, ragged = convert(sys.argv[1], sys.argv[2])
    print(json.dumps({"records": records, "ragged_repaired": ragged}))


if __name__ == "__main__":
    main()
