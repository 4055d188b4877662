#!/usr/bin/env python3
"""Writes the Arrow IPC streams that Tests/SparkConnectTests read without a Spark server.

Each `NAME.arrows` is an Arrow IPC stream written by pyarrow; `NAME.expected.json` is what
Python itself says of the same values (str(Decimal), date.isoformat(), datetime in UTC), so the
Swift decoder is checked against an independent implementation. Run it with a Python that has
pyarrow (`pip install pyarrow`); the output is committed.
"""
import datetime as dt
import json
import os
import sys
from decimal import Decimal

import pyarrow as pa
import pyarrow.ipc as ipc

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "SparkConnectTests", "Fixtures")
UTC = dt.timezone.utc


def text(v):
    """The text SparkValue.description gives for a Python value."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return format(v, "f")  # fixed point, keeps the scale: 1.5000000000, 0.0000000001
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(UTC).replace(tzinfo=None)
        s = v.strftime("%Y-%m-%d %H:%M:%S")
        return s + (".%06d" % v.microsecond if v.microsecond else "")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, bytes):
        return "0x" + v.hex()
    if isinstance(v, float):
        return repr(v)
    return str(v)


def write(name, batches, legacy=False, compression=None):
    options = ipc.IpcWriteOptions(use_legacy_format=legacy, compression=compression)
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, batches[0].schema, options=options) as w:
        for b in batches:
            w.write_batch(b)
    with open(os.path.join(OUT, name + ".arrows"), "wb") as f:
        f.write(sink.getvalue().to_pybytes())
    rows = [[text(v) for v in row.values()] for b in batches for row in b.to_pylist()]
    expected = {"columns": [[f.name, str(f.type)] for f in batches[0].schema], "rows": rows}
    with open(os.path.join(OUT, name + ".expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    schema = pa.schema([
        ("i8", pa.int8()), ("i16", pa.int16()), ("i32", pa.int32()), ("i64", pa.int64()),
        ("f32", pa.float32()), ("f64", pa.float64()), ("b", pa.bool_()),
        ("s", pa.string()), ("ls", pa.large_string()), ("bin", pa.binary()),
        ("d", pa.date32()), ("ts", pa.timestamp("us", tz="UTC")), ("ntz", pa.timestamp("us")),
        ("dec", pa.decimal128(38, 10)), ("dec0", pa.decimal128(5, 0)), ("n", pa.null()),
    ])
    rows1 = [
        dict(i8=-128, i16=-32768, i32=-2147483648, i64=-9223372036854775808, f32=1.5, f64=-0.1, b=True,
             s="x", ls="large", bin=b"\x00\xff", d=dt.date(1, 1, 1),
             ts=dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
             ntz=dt.datetime(2024, 2, 29, 12, 34, 56, 789012),
             dec=Decimal("-1234567890123456789012345678.0123456789"), dec0=Decimal("-99999"), n=None),
        dict(i8=None, i16=None, i32=None, i64=None, f32=None, f64=None, b=None, s=None, ls=None, bin=None,
             d=None, ts=None, ntz=None, dec=None, dec0=None, n=None),
        dict(i8=127, i16=32767, i32=2147483647, i64=9223372036854775807, f32=-2.25, f64=1e308, b=False,
             s="héllo, wörld ✓", ls="", bin=b"", d=dt.date(9999, 12, 31),
             ts=dt.datetime(2024, 2, 29, 12, 34, 56, tzinfo=UTC), ntz=dt.datetime(1900, 3, 1),
             dec=Decimal("0.0000000001"), dec0=Decimal("0"), n=None),
    ]
    rows2 = [
        dict(i8=0, i16=1, i32=2, i64=3, f32=0.0, f64=2.5, b=True, s="", ls=None, bin=None,
             d=dt.date(1970, 1, 1), ts=dt.datetime(1970, 1, 1, tzinfo=UTC), ntz=None,
             dec=Decimal("1.5000000000"), dec0=Decimal("12345"), n=None),
    ]
    b1 = pa.RecordBatch.from_pylist(rows1, schema=schema)
    b2 = pa.RecordBatch.from_pylist(rows2, schema=schema)
    write("types", [b1, b2])
    write("legacy", [pa.RecordBatch.from_pylist([dict(a=1), dict(a=None)], schema=pa.schema([("a", pa.int32())]))],
          legacy=True)
    write("empty", [pa.RecordBatch.from_pylist([], schema=pa.schema([("a", pa.int64()), ("s", pa.string())]))])
    one = pa.schema([("a", pa.int64())])
    write("zstd", [pa.RecordBatch.from_pylist([dict(a=i) for i in range(100)], schema=one)], compression="zstd")
    write("nested", [pa.RecordBatch.from_pylist([dict(l=[1, 2])], schema=pa.schema([("l", pa.list_(pa.int32()))]))])
    print("wrote", sorted(os.listdir(OUT)), "with pyarrow", pa.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
