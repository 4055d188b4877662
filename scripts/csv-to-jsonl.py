#!/usr/bin/env python3
"""Converts a CSV export (such as ../shared/bench/gen.py's people.csv) to JSON Lines.

    python3 scripts/csv-to-jsonl.py [--typed] people.csv people.jsonl

Every line is one object whose keys are the header's names and whose values are the CSV
fields as JSON strings, exactly as the CSV holds them (numbers and dates stay quoted text, as
many exports write them). An empty field is null, as auditor's CSV reader reads it as missing
(nullValues [""]). A ragged row is repaired the way gen.py writes it in its other formats: a
field beyond the header is dropped, a missing trailing field is null; so the JSON Lines file
gives expected.json's counts without csv.row.ragged, and as many records as the CSV.

With --typed, the fields that rules/people.yml declares as numbers or booleans are written as
JSON numbers and booleans when their text is a valid one (id, age, dept_id: an integer without
leading zeros; salary: such an integer or decimal; has_licence: true or false), the literal
copied digit for digit; any other text stays a string. Judged by value, a typed export gives
the same counts as the all-strings one.

Uses only the standard library (csv, json, re).
"""
import csv
import json
import re
import sys

INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
TYPED = {"id": INTEGER, "age": INTEGER, "dept_id": INTEGER, "salary": DECIMAL}


def typed_value(name, value):
    """The JSON text of a field of --typed output."""
    if value == "":
        return "null"
    pattern = TYPED.get(name)
    if pattern is not None and pattern.fullmatch(value):
        return value
    if name == "has_licence" and value in ("true", "false"):
        return value
    return json.dumps(value, ensure_ascii=False)


def convert(source, target, typed=False):
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
            if typed:
                lines.append("{" + ",".join(json.dumps(name) + ":" + typed_value(name, value)
                                            for name, value in zip(header, row)) + "}")
            else:
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
    args = sys.argv[1:]
    typed = "--typed" in args
    args = [a for a in args if a != "--typed"]
    if len(args) != 2:
        sys.stderr.write("usage: csv-to-jsonl.py [--typed] INPUT.csv OUTPUT.jsonl\n")
        sys.exit(64)
    records, ragged = convert(args[0], args[1], typed)
    print(json.dumps({"records": records, "ragged_repaired": ragged}))


if __name__ == "__main__":
    main()
