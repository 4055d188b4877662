#!/usr/bin/env python3
"""The benchmark audit written once by hand in PySpark (issue 17's reference for the auditor
through Spark): every counted rule of rules/people.yml as one conditional count in ONE
aggregate over `people` (all columns strings, as Benchmarks/spark.py registers gen.py's CSV),
with the type-first semantics of ../shared/bench/rules.md, as Benchmarks/postgres_reference.sql
writes them for PostgreSQL. The uniqueness of `id` is a distinct count in the same aggregate,
and the reference to departments a broadcast left join in front of it: one Spark job reads the
people table once.

    spark_reference.py sc://127.0.0.1:15002 [--people people] [--departments departments]
                       [--expected bench-data/expected.json]

Prints one JSON object, rule id -> count (and "seconds": the query's own time, connection
excluded). With --expected it also compares every count with the file's `counts_by_format.csv`
(csv.row.ragged left out: Spark's CSV parser repairs ragged rows) and exits 1 on a difference.
Needs pyspark with its Connect client (pip install 'pyspark[connect]').
"""
import argparse
import json
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

COUNTRIES = ["US", "GB", "DE", "FR", "ES", "IT", "NL", "SE", "PL", "CA"]
INTEGER = r"\A-?[0-9]+\z"              # \A…\z: Java's $ would also match before a final line break
DECIMAL = r"\A-?[0-9]+([.][0-9]+)?\z"
DATE = r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\z"
DATETIME = r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z\z"
NAME = r"\A[A-Za-zÀ-ÖØ-öø-ÿ ]+\z"
EMAIL = r"\A[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\z"


def int_at(col, start, length):
    return F.substring(col, start, length).cast("int")


def valid_day(col):
    """A calendar date in the first 10 characters of `col` (already shaped YYYY-MM-DD)."""
    y, m, d = int_at(col, 1, 4), int_at(col, 6, 2), int_at(col, 9, 2)
    leap = ((y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0)))
    last = (F.when(m == 2, F.when(leap, 29).otherwise(28))
            .when(m.isin(4, 6, 9, 11), 30).otherwise(31))
    return m.between(1, 12) & d.between(1, last)


def counts(spark, people, departments):
    p = spark.table(people)
    d = spark.table(departments).select(F.expr("try_cast(id AS BIGINT)").alias("dept_key")).distinct()
    c = F.col
    id_ok = c("id").rlike(INTEGER)
    bd_ok = c("birthday").rlike(DATE) & valid_day(c("birthday"))
    ca_ok = c("created_at").rlike(DATETIME) & valid_day(c("created_at"))
    age_ok = c("age").rlike(INTEGER)
    hl_ok = c("has_licence").isin("true", "false")
    sal_ok = c("salary").rlike(DECIMAL)
    dept_ok = c("dept_id").rlike(INTEGER)
    age = F.expr("try_cast(age AS BIGINT)")
    # Completed years from birthday to the creation date (29 February to 28 February is not a year).
    by, bm, bd = int_at(c("birthday"), 1, 4), int_at(c("birthday"), 6, 2), int_at(c("birthday"), 9, 2)
    cy, cm, cd = int_at(c("created_at"), 1, 4), int_at(c("created_at"), 6, 2), int_at(c("created_at"), 9, 2)
    years = cy - by - F.when((cm < bm) | ((cm == bm) & (cd < bd)), 1).otherwise(0)
    p = p.join(F.broadcast(d), F.expr("try_cast(dept_id AS BIGINT)") == c("dept_key"), "left")
    rules = {
        "person.id.required": c("id").isNull(),
        "person.id.type": c("id").isNotNull() & ~id_ok,
        "person.name.required": c("name").isNull(),
        "person.name.length": ~F.char_length(c("name")).between(3, 32),
        "person.name.pattern": ~c("name").rlike(NAME),
        "person.email.required": c("email").isNull(),
        "person.email.pattern": ~c("email").rlike(EMAIL),
        "person.birthday.required": c("birthday").isNull(),
        "person.birthday.type": c("birthday").isNotNull() & ~bd_ok,
        "person.has_licence.required": c("has_licence").isNull(),
        "person.has_licence.type": c("has_licence").isNotNull() & ~hl_ok,
        "person.age.required": c("age").isNull(),
        "person.age.type": c("age").isNotNull() & ~age_ok,
        "person.salary.required": c("salary").isNull(),
        "person.salary.type": c("salary").isNotNull() & ~sal_ok,
        "person.salary.minimum": sal_ok & (c("salary").cast("double") < 0),
        "person.country.required": c("country").isNull(),
        "person.country.enum": ~c("country").isin(*COUNTRIES),
        "person.dept_id.required": c("dept_id").isNull(),
        "person.dept_id.type": c("dept_id").isNotNull() & ~dept_ok,
        "person.dept_id.fk": dept_ok & c("dept_key").isNull(),
        "person.created_at.required": c("created_at").isNull(),
        "person.created_at.type": c("created_at").isNotNull() & ~ca_ok,
        "person.licence_age": hl_ok & age_ok & (c("has_licence") == "true") & (age < 16),
        "person.age.consistent": age_ok & bd_ok & ca_ok & (age != years),
    }
    aggregates = [F.count_if(cond).alias(rule) for rule, cond in rules.items()]
    # Records whose id already occurred: valid ids minus distinct valid ids.
    id_key = F.when(id_ok, F.expr("try_cast(id AS BIGINT)"))
    aggregates.append((F.count(id_key) - F.count_distinct(id_key)).alias("person.id.unique"))
    row = p.agg(*aggregates).collect()[0].asDict()
    return {k: int(v) for k, v in row.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url", help="Spark Connect URL, sc://host:port")
    ap.add_argument("--people", default="people")
    ap.add_argument("--departments", default="departments")
    ap.add_argument("--expected", help="gen.py's expected.json to check the counts against")
    a = ap.parse_args()
    spark = SparkSession.builder.remote(a.url).getOrCreate()
    try:
        # Non-ANSI casts give null for text that is not a number; every cast here is behind a
        # regex that already decided validity, so the setting only keeps an error from surfacing
        # where Spark evaluates a guarded cast anyway (common subexpressions are hoisted).
        spark.conf.set("spark.sql.ansi.enabled", "false")
        t0 = time.perf_counter()
        got = counts(spark, a.people, a.departments)
        seconds = time.perf_counter() - t0
    finally:
        spark.stop()
    status = 0
    if a.expected:
        with open(a.expected) as f:
            want = json.load(f)["counts_by_format"]["csv"]
        for rule, n in sorted(want.items()):
            if rule != "csv.row.ragged" and got.get(rule) != n:
                print(f"spark_reference: {rule}: expected {n}, counted {got.get(rule)}", file=sys.stderr)
                status = 1
    print(json.dumps({"counts": got, "seconds": round(seconds, 3)}, sort_keys=True))
    return status


if __name__ == "__main__":
    sys.exit(main())
