#!/usr/bin/env python3
"""Converts the benchmark's people.csv to Parquet with pyarrow, as a user would: every column
read as a string (so every seeded fault survives), empty fields as nulls (the rules'
`nullValues: [""]`), ragged rows skipped (the CSV's `csv.row.ragged` findings, which exclude
those rows from every other rule).

    to_parquet.py people.csv OUT.parquet [--compression snappy|zstd|gzip|none]
    to_parquet.py --typed OUT.parquet --rows N     # typed columns, clean generated data
"""
import argparse
import datetime
import decimal
import random

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

COLUMNS = ["id", "name", "email", "birthday", "has_licence", "age", "salary", "country", "dept_id", "created_at", "notes"]


def strings(src, out, compression):
    table = pcsv.read_csv(
        src,
        parse_options=pcsv.ParseOptions(newlines_in_values=True, invalid_row_handler=lambda row: "skip"),
        convert_options=pcsv.ConvertOptions(column_types={c: pa.string() for c in COLUMNS},
                                            strings_can_be_null=True, null_values=[""]))
    pq.write_table(table, out, compression=compression)
    return table.num_rows


def typed(out, rows, compression):
    """int64 id, date32 birthday, decimal128 salary, timestamp created_at, bool has_licence."""
    rng = random.Random(7)
    ids, names, emails, birthdays, licences, ages, salaries, countries, depts, created, notes = ([] for _ in range(11))
    for i in range(1, rows + 1):
        born = datetime.date(1940, 1, 1) + datetime.timedelta(days=rng.randint(0, 365 * 60))
        when = datetime.datetime(2019, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=rng.randint(0, 5 * 365 * 86400))
        age = when.year - born.year - ((when.month, when.day) < (born.month, born.day))
        first = rng.choice(["Ana", "Jonas", "Ruben", "Zoé", "Mia", "Lars"])
        ids.append(i)
        names.append(first + " " + rng.choice(["Moore", "Thompson", "Müller", "Berg"]))
        emails.append("%s%d@example.org" % (first.lower().replace("é", "e"), i))
        birthdays.append(born)
        licences.append(age >= 16 and rng.random() < 0.7)
        ages.append(age)
        salaries.append(decimal.Decimal(rng.randint(1000000, 20000000)).scaleb(-2))
        countries.append(rng.choice(["US", "GB", "DE", "FR", "ES", "IT", "NL", "SE", "PL", "CA"]))
        depts.append(rng.randint(1, 20))
        created.append(when)
        notes.append(None if rng.random() < 0.5 else "Part-time contract")
    table = pa.table({
        "id": pa.array(ids, pa.int64()), "name": names, "email": emails, "birthday": pa.array(birthdays, pa.date32()),
        "has_licence": pa.array(licences, pa.bool_()), "age": pa.array(ages, pa.int32()),
        "salary": pa.array(salaries, pa.decimal128(12, 2)), "country": countries, "dept_id": pa.array(depts, pa.int32()),
        "created_at": pa.array(created, pa.timestamp("s", tz="UTC")).cast(pa.timestamp("us", tz="UTC")), "notes": notes})
    pq.write_table(table, out, compression=compression)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src", nargs="?")
    ap.add_argument("out")
    ap.add_argument("--compression", default="snappy")
    ap.add_argument("--typed", action="store_true")
    ap.add_argument("--rows", type=int, default=100000)
    a = ap.parse_args()
    n = typed(a.out, a.rows, a.compression) if a.typed else strings(a.src, a.out, a.compression)
    print("%s: %d rows" % (a.out, n))


if __name__ == "__main__":
    main()
