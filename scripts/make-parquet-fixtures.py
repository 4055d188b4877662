#!/usr/bin/env python3
"""Writes Parquet test files with pyarrow, each next to a `.json` holding the values that
auditor's Parquet reader must produce (rendered the way the reader renders them).

    make-parquet-fixtures.py OUT_DIR                 # the small committed fixtures
    make-parquet-fixtures.py OUT_DIR --random SEED   # random tables x encodings x codecs x pages

JSON per file: {"fields": [names], "rows": [[value, ...], ...]} where a value is null
(missing), an integer (`.integer` cell), {"real": "x"} (a double as Python's repr), a string (text), {"hex": "..."} (blob), a list, or {"map": [[key, value], ...]}.
"""
import datetime
import decimal
decimal.getcontext().prec = 80
import json
import os
import random
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()


def date_text(days):
    return datetime.date.fromordinal(EPOCH_ORDINAL + days).isoformat()


def time_text(seconds, fraction, digits):
    s = "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    if fraction:
        s += "." + ("%0*d" % (digits, fraction)).rstrip("0")
    return s


UNIT = {"ms": (1000, 3), "us": (10**6, 6), "ns": (10**9, 9), "s": (1, 0)}


def render(value, typ):
    """The reader's rendering of one pyarrow value of type typ."""
    if value is None:
        return None
    if pa.types.is_boolean(typ):
        return "true" if value else "false"
    if pa.types.is_integer(typ):
        if pa.types.is_uint64(typ) and value > 2**63 - 1:
            return str(value)
        return int(value)
    if pa.types.is_floating(typ):
        return {"real": repr(float(value))}   # shortest round-trip text: nan, inf, -inf, 1e+300
    if pa.types.is_date32(typ):
        return date_text(value)
    if pa.types.is_timestamp(typ):
        per, digits = UNIT[typ.unit]
        seconds, fraction = divmod(value, per)
        days, sod = divmod(seconds, 86400)
        text = date_text(days) + "T" + time_text(sod, fraction, digits)
        return text + "Z"   # a local timestamp too: its wall time read as UTC, as Spark reads it
    if pa.types.is_time(typ):
        per, digits = UNIT[typ.unit]
        seconds, fraction = divmod(value, per)
        return time_text(seconds, fraction, digits)
    if pa.types.is_decimal(typ):
        digits = str(abs(value))
        if typ.scale > 0:
            digits = digits.rjust(typ.scale + 1, "0")
            digits = digits[:-typ.scale] + "." + digits[-typ.scale:]
        return ("-" if value < 0 else "") + digits
    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return value
    if isinstance(typ, pa.UuidType) if hasattr(pa, "UuidType") else False:
        return str(uuid.UUID(bytes=value))
    if pa.types.is_binary(typ) or pa.types.is_fixed_size_binary(typ):
        return {"hex": value.hex()}
    if pa.types.is_list(typ):
        return [render(v, typ.value_type) for v in value]
    if pa.types.is_map(typ):
        return {"map": [[k, render(v, typ.item_type)] for k, v in value]}
    raise ValueError("no rendering for %s" % typ)


def raw_values(column):
    """Python values of a column, with temporal and decimal types as their integer storage."""
    typ = column.type
    if pa.types.is_date32(typ) or pa.types.is_timestamp(typ) or pa.types.is_time(typ):
        storage = pa.int64() if not pa.types.is_date32(typ) and typ.bit_width == 64 else pa.int32()
        return column.cast(storage).to_pylist()
    if pa.types.is_decimal(typ):
        def unscaled(v):
            sign, digits, exponent = v.as_tuple()
            u = int("".join(map(str, digits)) or "0") * 10 ** (exponent + typ.scale)
            return -u if sign else u
        return [None if v is None else unscaled(v) for v in column.to_pylist()]
    if hasattr(pa, "UuidType") and isinstance(typ, pa.UuidType):
        return column.storage.to_pylist() if hasattr(column, "storage") else [None if v is None else v.bytes for v in column.to_pylist()]
    if pa.types.is_map(typ):
        return column.to_pylist()
    return column.to_pylist()


def expected(table):
    fields = table.schema.names
    columns = []
    for name in fields:
        column = table.column(name).combine_chunks()
        typ = column.type
        if hasattr(pa, "UuidType") and isinstance(typ, pa.UuidType):
            values = [None if v is None else v for v in column.storage.to_pylist()]
        else:
            values = raw_values(column)
        columns.append([render(v, typ) for v in values])
    return {"fields": fields, "rows": [list(r) for r in zip(*columns)] if columns else []}


def write(out, name, table, **options):
    path = os.path.join(out, name + ".parquet")
    pq.write_table(table, path, **options)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(expected(pq.read_table(path)), f, indent=None, separators=(",", ":"))
        f.write("\n")


def flat_table(rng, rows, nulls):
    def maybe(v):
        return None if nulls and rng.random() < 0.2 else v

    strings = ["", "a", "Zoë", "日本語", "x" * 40, "naïve café", "tab\there"]
    cols = {
        "b": pa.array([maybe(rng.random() < 0.5) for _ in range(rows)], pa.bool_()),
        "i32": pa.array([maybe(rng.randint(-2**31, 2**31 - 1)) for _ in range(rows)], pa.int32()),
        "i64": pa.array([maybe(rng.choice([rng.randint(-2**63, 2**63 - 1), rng.randint(-5, 5), 10**15 + rng.randint(0, 9)]))
                         for _ in range(rows)], pa.int64()),
        "u8": pa.array([maybe(rng.randint(0, 255)) for _ in range(rows)], pa.uint8()),
        "u32": pa.array([maybe(rng.randint(0, 2**32 - 1)) for _ in range(rows)], pa.uint32()),
        "u64": pa.array([maybe(rng.randint(0, 2**64 - 1)) for _ in range(rows)], pa.uint64()),
        "f32": pa.array([maybe(rng.choice([rng.uniform(-1e6, 1e6), 0.5, -0.0, float("inf")])) for _ in range(rows)], pa.float32()),
        "f64": pa.array([maybe(rng.choice([rng.uniform(-1e9, 1e9), 1e300, 3.0, float("nan")])) for _ in range(rows)], pa.float64()),
        "d": pa.array([maybe(rng.randint(-719162, 2932896)) for _ in range(rows)], pa.int32()).cast(pa.date32()),
        "ts_ms": pa.array([maybe(rng.randint(-2**40, 2**45)) for _ in range(rows)], pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
        "ts_us": pa.array([maybe(rng.choice([rng.randint(-2**50, 2**52), 1_549_487_587_000_000])) for _ in range(rows)],
                          pa.int64()).cast(pa.timestamp("us")),
        "ts_ns": pa.array([maybe(rng.randint(-2**62, 2**62)) for _ in range(rows)], pa.int64()).cast(pa.timestamp("ns", tz="UTC")),
        "t_ms": pa.array([maybe(rng.randint(0, 86_399_999)) for _ in range(rows)], pa.int32()).cast(pa.time32("ms")),
        "t_us": pa.array([maybe(rng.randint(0, 86_399_999_999)) for _ in range(rows)], pa.int64()).cast(pa.time64("us")),
        "dec9": pa.array([maybe(decimal.Decimal(rng.randint(-10**9 + 1, 10**9 - 1)).scaleb(-2)) for _ in range(rows)], pa.decimal128(9, 2)),
        "dec18": pa.array([maybe(decimal.Decimal(rng.randint(-10**18 + 1, 10**18 - 1)).scaleb(-6)) for _ in range(rows)], pa.decimal128(18, 6)),
        "dec38": pa.array([maybe(decimal.Decimal(rng.randint(-10**38 + 1, 10**38 - 1)).scaleb(-10)) for _ in range(rows)], pa.decimal128(38, 10)),
        "dec0": pa.array([maybe(decimal.Decimal(rng.randint(-99999, 99999))) for _ in range(rows)], pa.decimal128(5, 0)),
        "s": pa.array([maybe(rng.choice(strings) + str(rng.randint(0, 30))) for _ in range(rows)], pa.string()),
        "bin": pa.array([maybe(bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 6)))) for _ in range(rows)], pa.binary()),
        "fixed": pa.array([maybe(bytes(rng.randint(0, 255) for _ in range(4))) for _ in range(rows)], pa.binary(4)),
    }
    if hasattr(pa, "uuid"):
        storage = pa.array([maybe(uuid.UUID(int=rng.getrandbits(128)).bytes) for _ in range(rows)], pa.binary(16))
        cols["id"] = pa.ExtensionArray.from_storage(pa.uuid(), storage)
    return pa.table(cols)


def nested_table(rng, rows, nulls):
    def maybe(v):
        return None if nulls and rng.random() < 0.2 else v

    lists = [maybe([maybe(rng.randint(-9, 99)) for _ in range(rng.randint(0, 4))]) for _ in range(rows)]
    tags = [maybe([rng.choice(["x", "yy", "zzz", ""]) for _ in range(rng.randint(0, 3))]) for _ in range(rows)]
    maps = [maybe([(k, maybe(rng.uniform(0, 9))) for k in rng.sample(["a", "b", "c", "d"], rng.randint(0, 3))]) for _ in range(rows)]
    return pa.table({
        "n": pa.array(range(rows), pa.int64()),
        "ints": pa.array(lists, pa.list_(pa.int32())),
        "tags": pa.array(tags, pa.list_(pa.string())),
        "scores": pa.array(maps, pa.map_(pa.string(), pa.float64())),
    })


ENCODINGS = {
    "plain": dict(use_dictionary=False),
    "dict": dict(use_dictionary=True),
    "delta": dict(use_dictionary=False, column_encoding="delta"),
    "split": dict(use_dictionary=False, column_encoding="split"),
}


def column_encoding(table, kind):
    """pyarrow's column_encoding for every column that the encoding applies to."""
    out = {}
    for f in table.schema:
        t = f.type
        if pa.types.is_list(t) or pa.types.is_map(t):
            continue
        storage = t.storage_type if isinstance(t, pa.ExtensionType) else t
        if kind == "delta":
            if pa.types.is_integer(storage) or pa.types.is_date32(storage) or pa.types.is_timestamp(storage) or pa.types.is_time(storage):
                out[f.name] = "DELTA_BINARY_PACKED"
            elif pa.types.is_string(storage) or pa.types.is_binary(storage):
                out[f.name] = "DELTA_LENGTH_BYTE_ARRAY" if sum(map(ord, f.name)) % 2 else "DELTA_BYTE_ARRAY"
            elif pa.types.is_fixed_size_binary(storage) or pa.types.is_decimal(storage):
                out[f.name] = "DELTA_BYTE_ARRAY"
        elif kind == "split":
            if pa.types.is_floating(storage) or pa.types.is_fixed_size_binary(storage) or pa.types.is_decimal(storage) or \
                    pa.types.is_int32(storage) or pa.types.is_int64(storage):
                out[f.name] = "BYTE_STREAM_SPLIT"
    return out


def variant(out, name, table, encoding, codec, version, page_rows=None):
    options = dict(ENCODINGS[encoding])
    if "column_encoding" in options:
        options["column_encoding"] = column_encoding(table, options["column_encoding"])
    options["compression"] = codec
    options["data_page_version"] = version
    if page_rows:
        options["data_page_size"] = page_rows
        options["write_batch_size"] = 7
    options["row_group_size"] = max(1, table.num_rows // 3)
    write(out, name, table, **options)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    if "--random" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--random") + 1])
        rng = random.Random(seed)
        for encoding in ENCODINGS:
            for codec in ["none", "snappy", "gzip", "zstd"]:
                for version in ["1.0", "2.0"]:
                    for nulls in [False, True]:
                        rows = rng.randint(1, 300)
                        name = "%s-%s-v%s-%s" % (encoding, codec, version[0], "nulls" if nulls else "full")
                        variant(out, "flat-" + name, flat_table(rng, rows, nulls), encoding, codec, version, page_rows=512)
                        if encoding in ("plain", "dict"):
                            variant(out, "nested-" + name, nested_table(rng, rows, nulls), encoding, codec, version, page_rows=256)
        return
    rng = random.Random(15)
    variant(out, "flat-plain-none-v1", flat_table(rng, 23, True), "plain", "none", "1.0")
    variant(out, "flat-dict-snappy-v1", flat_table(rng, 23, True), "dict", "snappy", "1.0", page_rows=64)
    variant(out, "flat-delta-zstd-v2", flat_table(rng, 23, True), "delta", "zstd", "2.0")
    variant(out, "flat-split-gzip-v2", flat_table(rng, 23, False), "split", "gzip", "2.0")
    variant(out, "nested-dict-snappy-v2", nested_table(rng, 17, True), "dict", "snappy", "2.0")
    variant(out, "nested-plain-none-v1", nested_table(rng, 17, True), "plain", "none", "1.0", page_rows=64)
    # Format version 1.0: PLAIN_DICTIONARY pages and converted types only.
    write(out, "flat-dict-gzip-format1", flat_table(rng, 23, True).drop_columns(["ts_ns", "id"]), version="1.0", compression="gzip",
          data_page_size=64, write_batch_size=7, row_group_size=10)
    # Decompression bombs for the codec tests: 64 MiB and 8 MiB of zeros.
    import zlib
    import zstandard
    with open(os.path.join(out, "bomb-64MiB.zst"), "wb") as f:
        f.write(zstandard.ZstdCompressor(level=19).compress(bytes(64 << 20)))
    with open(os.path.join(out, "bomb-8MiB.gz"), "wb") as f:
        f.write(zlib.compress(bytes(8 << 20), 9))
    # A struct column: refused.
    pq.write_table(pa.table({"id": [1, 2], "point": [{"x": 1, "y": 2}, None]}), os.path.join(out, "struct.parquet"))


if __name__ == "__main__":
    main()
