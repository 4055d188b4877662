#if Spark
import Foundation
import TestSupport
import Testing

/// One Parquet file, written by pyarrow with every column type that both readers read, audited
/// by the Parquet reader in process and by Spark (`files:`, streamed and pushed down): the same
/// counts and the same samples. The values are where readers part: local and UTC timestamps of
/// three units, dates before 1582 and after 9000, decimals of 18 and 38 digits, doubles with
/// NaN, the infinities and -0.0, floats, integers past 2^53, unsigned ones past Int64.max, text
/// of several scripts, and NULLs everywhere.
@Suite("a Parquet file: the same report in process and through Spark",
       .enabled(if: SparkTestServer.available && PyarrowPython.path != nil,
                PyarrowPython.path == nil ? Comment("needs a Python with pyarrow (.venv or AUDITOR_PYARROW_PYTHON)") : SparkTestServer.skipReason))
struct SparkParquetTests {
    /// `make.py OUT SEED`: 4,000 rows in `id` order, about one id in a hundred the one before it again.
    static let generator = #"""
        import decimal, random, sys
        import pyarrow as pa, pyarrow.parquet as pq
        rng = random.Random(int(sys.argv[2]))
        n = 4000
        def maybe(v): return None if rng.random() < 0.05 else v
        def ints(lo, hi, typ, extra=()): return pa.array([maybe(rng.choice(list(extra) + [rng.randint(lo, hi)] * 4)) for _ in range(n)], typ)
        def decimals(digits, scale, typ):
            return pa.array([maybe(decimal.Decimal(rng.randint(-10**digits + 1, 10**digits - 1)).scaleb(-scale)) for _ in range(n)], typ)
        texts = ["", "a", "Zoë", "日本語", "x" * 40, "naïve café", "ABC", "O'Neil", "🦄 Uni", "Ann\n"]
        cols = {
            "id": pa.array([i if rng.random() > 0.01 else i - 1 for i in range(1, n + 1)], pa.int64()),
            "ts_local": ints(-2**40, 2**45, pa.int64(), [0, -1, 999]).cast(pa.timestamp("ms")),
            "ts_local_us": ints(-2**55, 2**57, pa.int64(), [1, 500_000, 86_400_000_000]).cast(pa.timestamp("us")),
            "ts_utc": ints(-2**55, 2**57, pa.int64(), [0, -1, 1_500_000]).cast(pa.timestamp("us", tz="UTC")),
            "ts_berlin": ints(-2**40, 2**45, pa.int64(), [0]).cast(pa.timestamp("ms", tz="Europe/Berlin")),
            "d": ints(-719162, 2932896, pa.int32(), [-141427, -141428, 0, 2932896]).cast(pa.date32()),
            "dec": decimals(18, 6, pa.decimal128(18, 6)),
            "dec38": decimals(38, 10, pa.decimal128(38, 10)),
            "f64": pa.array([maybe(rng.choice([rng.uniform(-1e9, 1e9), 1e300, 3.0, 5e-324, float("nan"), float("inf"), -0.0])) for _ in range(n)], pa.float64()),
            "f32": pa.array([maybe(rng.choice([rng.uniform(-1e6, 1e6), 0.5, 0.1, float("-inf")])) for _ in range(n)], pa.float32()),
            "i16": ints(-2**15, 2**15 - 1, pa.int16(), [0, 1, -32768, 32767]),
            "i64": ints(-2**63, 2**63 - 1, pa.int64(), [2**53 + 1, -2**53 - 1, 2**53]),
            "u32": ints(0, 2**32 - 1, pa.uint32(), [2**31, 2**31 - 1]),
            "u64": ints(0, 2**64 - 1, pa.uint64(), [2**63, 2**63 - 1, 2**64 - 1]),
            "s": pa.array([maybe(rng.choice(texts) + rng.choice(["", str(rng.randint(0, 9))])) for _ in range(n)], pa.string()),
            "b": pa.array([maybe(rng.random() < 0.5) for _ in range(n)], pa.bool_()),
        }
        pq.write_table(pa.table(cols), sys.argv[1], row_group_size=1500)
        """#

    static let rules = SameFileThroughSpark.rules("""
            attributes:
              id:          { type: integer, required: true, unique: true }
              ts_local:    { type: datetime, min: "1970-01-01T00:00:00.001Z", max: "2500-01-01T00:00:00Z" }
              ts_local_us: { type: datetime, exclusiveMin: "1970-01-01T00:00:00Z", max: "3000-01-01T00:00:00.5Z" }
              ts_utc:      { type: datetime, min: "1969-12-31T23:59:59.999999Z", max: "2500-01-01T00:00:00Z" }
              ts_berlin:   { type: datetime, max: "2100-01-01T00:00:00+01:00" }
              d:           { type: date, min: "1582-10-15", max: "2999-12-31" }
              dec:         { type: decimal, min: -1000000.000001, max: 500000000000.000001 }
              dec38:       { type: decimal, min: 0, max: 1234567890123456789012345678.0000000001 }
              f64:         { type: decimal, min: -5, max: 1000000000 }
              f32:         { type: decimal, min: 0.1, max: 1000 }
              i16:         { type: integer, min: -32767, enum: [0, 1, 2, 3, -32767, 32767] }
              i64:         { type: integer, min: -9007199254740992, max: 9007199254740992 }
              u32:         { type: integer, max: 2147483647 }
              u64:         { type: integer, max: 9223372036854775807 }
              s:           { type: string, required: true, minLength: 2, maxLength: 12, pattern: "[A-Za-zÀ-ÿ0-9' ]+" }
              b:           { type: boolean, required: true }
            rules:
              - id: row.recent
                when: b
                assert: date(ts_utc) >= d and date(ts_local) <= date(ts_local_us)
              - id: row.aged
                assert: yearsBetween(d, date(ts_berlin)) < 300 or i16 > 0

        """)

    @Test("the same counts and samples from the Parquet reader and from Spark, streamed and pushed down", arguments: [1, 2])
    func sameReport(seed: Int) async throws {
        let violations = try await SameFileThroughSpark.compare(file: "t.parquet", format: "parquet", python: try #require(PyarrowPython.path),
                                                                generator: Self.generator, rules: Self.rules, seed: seed, reader: "Parquet")
        // Every rule sees faults, so no rule passes by reading nothing.
        #expect(violations.filter { $0.value == 0 && !$0.key.hasSuffix(".type") && !$0.key.hasSuffix("id.required") }.isEmpty, "\(violations)")
    }
}
#endif
