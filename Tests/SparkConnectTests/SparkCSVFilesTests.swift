#if Spark
import Foundation
import TestSupport
import Testing

/// CSV files read by Spark (`files:`, `format: csv`) with no `options:`: as the CSV reader reads
/// them (a header; RFC 4180 quoting, `""` inside a quoted field; fields that span lines), so the
/// same file gives the same report in process and through Spark. With Spark's own defaults the
/// header was a record of columns `_c0`…, `"O""Neil"` kept its quotes and `"a\\b"` lost a backslash.
@Suite("CSV files through Spark: the CSV reader's report", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkCSVFilesTests {
    /// `make.py OUT SEED`: 3,000 records written by Python's `csv` (`\r\n` between records,
    /// quotes where needed), in `id` order, with the fields where CSV dialects part. No field
    /// holds a `\r\n`: Spark reads one inside quotes as `\n` unless `lineSep` says `\r\n` (README).
    static let generator = #"""
        import csv, random, sys
        rng = random.Random(int(sys.argv[2]))
        texts = ["Ann", "O\"Neil", "a, b", "line\nbreak", "lone\rcr", "back\\slash", "\\\"", " pad ", "", "Zoë", "日本語",
                 "'quoted'", "#hash", "x" * 30, "tab\tin", "\"\"", "end\\"]
        with open(sys.argv[1], "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["id", "name", "qty", "price", "day"])
            for i in range(1, 3001):
                w.writerow([i if rng.random() > 0.01 else i - 1, rng.choice(texts) + rng.choice(["", str(rng.randint(0, 9))]),
                            rng.choice(["7", "-3", "007", "+5", " 5", "1e3", "", "12.0", "99999999999999999999"]),
                            rng.choice(["12.50", "0.1", "-0.0", "1,5", ".5", "100", "", "9007199254740993.01"]),
                            rng.choice(["2024-02-29", "2023-02-29", "2024-1-01", "", "1999-12-31"])])
        """#

    static let rules = SameFileThroughSpark.rules("""
            attributes:
              id:    { type: integer, required: true, unique: true }
              name:  { type: string, required: true, minLength: 2, maxLength: 8, pattern: "[A-Za-zÀ-ÿ0-9 ,']+" }
              qty:   { type: integer, min: 0, max: 100 }
              price: { type: decimal, exclusiveMin: 0, max: 9007199254740993 }
              day:   { type: date, min: "2000-01-01" }
            rules:
              - id: row.priced
                when: qty > 5
                assert: price >= 10

        """)

    @Test("the same counts and samples from the CSV reader and from Spark's csv files, streamed and pushed down", arguments: [1, 2])
    func sameReport(seed: Int) async throws {
        // The CSV reader's own structural rules (csv.row.ragged…) have no Spark counterpart.
        let violations = try await SameFileThroughSpark.compare(file: "t.csv", format: "csv", python: "python3", generator: Self.generator,
                                                                rules: Self.rules, seed: seed, reader: "CSV", readerRules: "csv.")
        for id in ["Row.name.maxLength", "Row.name.pattern", "Row.qty.type", "Row.price.type", "Row.day.type", "row.priced", "Row.id.unique"] {
            #expect((violations[id] ?? 0) > 0, "\(id): \(violations)")
        }
    }

    /// Spark's default parse mode fills a short row with NULLs and drops a long row's extra
    /// fields: the audit passed. Now the read stops at the first such record, exit 65, saying
    /// what to do and naming the records (from a second, PERMISSIVE read); `mode: PERMISSIVE`
    /// in `options:` still lets Spark repair them.
    @Test("a CSV row with too few or too many fields, or a JSON line that is no object: exit 65, saying so",
          arguments: ["short.csv", "long.csv", "bad.jsonl"])
    func malformedRecordsStopTheRead(_ name: String) async throws {
        let server = try await SparkTestServer.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-malformed-\(getpid())-\(name)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = ["short.csv": "id,note\n1,a\n2\n3,c\n", "long.csv": "id,note\n1,a\n2,b,extra\n3,c\n",
                    "bad.jsonl": "{\"id\": 1, \"note\": \"a\"}\n{\"id\": 2, \"note\":\n{\"id\": 3, \"note\": \"c\"}\n"][name]!
        try text.write(to: scratch.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let format = name.hasSuffix(".csv") ? "csv" : "json"
        func rules(_ options: String) -> String {
            """
            version: 1
            sources:
              t:
                path: "\(server.url)"
                spark: { files: "\(scratch.appendingPathComponent(name).path)", format: \(format), locate: id\(options) }
            entities:
              Row:
                source: t
                attributes:
                  id:   { type: integer }
                  note: { type: string }

            """
        }
        try rules("").write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        for pushdown in [[], ["--pushdown"]] {
            let run = try await AuditorBinary.offPool { try AuditorBinary.run(["run", "rules.yml", "--no-history"] + pushdown, in: scratch.path) }
            #expect(run.status == 65, "\(run)")
            #expect(run.stderr.contains("cannot read \(format) files") && run.stderr.contains("options: { mode: PERMISSIVE }"), "\(run)")
            // Spark's error names neither the record nor (JSON) the file; a PERMISSIVE read of the files then does.
            let record = ["short.csv": "'2'", "long.csv": "'2,b,extra'", "bad.jsonl": "'{\"id\": 2, \"note\":'"][name]!
            #expect(run.stderr.contains("the first record it cannot parse: \(record) in file://\(scratch.appendingPathComponent(name).path);"),
                    "\(run)")
        }
        guard format == "csv" else { return }
        try rules(", options: { mode: PERMISSIVE }").write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let repaired = try await AuditorBinary.offPool { try AuditorBinary.run(["run", "rules.yml", "--no-history"], in: scratch.path) }
        #expect(repaired.status == 0, "\(repaired)")
    }
}
#endif
