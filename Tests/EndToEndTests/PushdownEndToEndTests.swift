import Foundation
import Testing

/// SQL pushdown into SQLite (issue 16): the streaming engine is the oracle. The same audit
/// with and without `--pushdown` must give the same JSON report, field by field, except the
/// timings and the `ranIn` / `pushdownRefused` notes that say where the rules ran.
@Suite("SQLite pushdown against the streaming engine")
struct PushdownEndToEndTests {
    /// The report without what may differ between two runs of the same audit.
    static func comparable(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out = [String: Any]()
            for (k, v) in object where !["durationSeconds", "startedAt", "seconds", "ranIn", "pushdownRefused"].contains(k) {
                out[k] = comparable(v)
            }
            return out
        }
        if let array = value as? [Any] { return array.map(comparable) }
        return value
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs `arguments` with and without `--pushdown`; expects equal reports and returns the
    /// pushed-down one.
    @discardableResult
    static func expectSameReport(_ arguments: [String], in directory: URL = Auditor.packageRoot,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let streamed = try Auditor.run(arguments + ["--format", "json"], in: directory, timeout: 300)
        let pushed = try Auditor.run(arguments + ["--format", "json", "--pushdown"], in: directory, timeout: 300)
        #expect(streamed.status == pushed.status, "exit status \(streamed.status) vs \(pushed.status): \(pushed.stderr)",
                sourceLocation: sourceLocation)
        let a = try json(String(decoding: streamed.stdout, as: UTF8.self)), b = try json(String(decoding: pushed.stdout, as: UTF8.self))
        let left = try JSONSerialization.data(withJSONObject: comparable(a), options: [.sortedKeys])
        let right = try JSONSerialization.data(withJSONObject: comparable(b), options: [.sortedKeys])
        if left != right {
            // Name the first rule that differs, for the failure message.
            let ra = (a["rules"] as? [[String: Any]]) ?? [], rb = (b["rules"] as? [[String: Any]]) ?? []
            let first = zip(ra, rb).first { x, y in
                (try? JSONSerialization.data(withJSONObject: comparable(x), options: [.sortedKeys]))
                    != (try? JSONSerialization.data(withJSONObject: comparable(y), options: [.sortedKeys]))
            }
            Issue.record("reports differ; first differing rule: \(first.map { "\($0.0)\n---\n\($0.1)" } ?? "none (records or entities)")",
                         sourceLocation: sourceLocation)
        }
        return b
    }

    static func pushedInput(_ report: [String: Any], source: String) -> [String: Any]? {
        (report["inputs"] as? [[String: Any]])?.first { $0["source"] as? String == source }
    }

    @Test("the benchmark rules on gen.py's SQLite data: same report, rules run in sqlite",
          .enabled(if: GeneratedData.available, GeneratedData.skipReason), arguments: [20, 3])
    func generated(maxSamples: Int) throws {
        let data = try GeneratedData.dataset()
        let report = try Self.expectSameReport(
            ["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent("people.sqlite").path)",
             "--source", "departments=\(data.appendingPathComponent("departments.csv").path)",
             "--max-samples", String(maxSamples)])
        let input = try #require(Self.pushedInput(report, source: "people"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
        let rules = (report["rules"] as? [[String: Any]] ?? []).filter { $0["entity"] as? String == "Person" }
        #expect(!rules.isEmpty && rules.allSatisfy { $0["ranIn"] as? String == "sqlite" })
    }

    /// A table of edge cases, built by Python's sqlite3 (a writer we did not write): every
    /// storage class in typed columns, invalid and leap dates, date-times with offsets and
    /// fractions, NUL bytes, non-ASCII text, duplicate and NULL keys, rowid gaps.
    static let builder = #"""
        import sqlite3, sys, random
        db = sqlite3.connect(sys.argv[1])
        db.execute("CREATE TABLE t (id, name TEXT, code, qty, price, born, seen, flag, country)")
        random.seed(int(sys.argv[2]))
        names = ["Ann", "Bo", "José Müller", "a\x00b", "", "Zoë", "x" * 40, "Li Wei", "O'Neil", "🦄 Uni"]
        codes = ["ABC", "abc", "AB", "ABCD", "A1C", None, 12, "ÀBC"]
        qtys = [0, 5, -1, 100, 101, "7", 7.0, 7.5, None, 2**62, "x"]
        prices = [0, 0.5, -0.01, 99.99, 1e308, "12.5", None, 10, -0.0]
        borns = ["2000-01-31", "2023-02-29", "2024-02-29", "2000-13-01", "1999-12-31", "2010-6-1",
                 "0000-02-29", "2001-04-31", " 2001-04-30", None, 20000101, "2026-11-27"]
        seens = ["2020-01-01T00:00:00Z", "2020-01-01T23:30:00-05:00", "2020-01-01T00:30:00+01:00",
                 "2020-02-29T12:00:00.5Z", "2021-02-29T00:00:00Z", "2020-01-01T24:00:00Z",
                 "2020-01-01 00:00:00Z", None, "1969-12-31T23:59:59Z", "2020-01-01T00:00:60Z"]
        flags = [0, 1, 2, "1", "true", None, 1.0]
        countries = ["US", "GB", "us", "DE ", "FR", None, "ÉS", 1]
        rowid = 0
        for i in range(int(sys.argv[3])):
            rowid += random.choice([1, 1, 1, 2, 7])
            key = random.choice([i, i, i, i % 50, None, str(i), i + 0.0])
            db.execute("INSERT INTO t (rowid, id, name, code, qty, price, born, seen, flag, country) VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (rowid, key, random.choice(names), random.choice(codes), random.choice(qtys), random.choice(prices),
                        random.choice(borns), random.choice(seens), random.choice(flags), random.choice(countries)))
        db.commit()
        """#

    static let edgeRules = """
        version: 1
        sources:
          t:
            path: edge.sqlite
            sqlite: { table: t }
        entities:
          Row:
            source: t
            key: [id]
            idPrefix: row
            attributes:
              id:      { type: integer, required: true, unique: true }
              name:    { type: string, required: true, minLength: 3, maxLength: 12, pattern: "[A-Za-zÀ-ÿ' ]+" }
              code:    { type: string, enum: [ABC, ÀBC, AB] }
              qty:     { type: integer, min: 0, max: 100 }
              price:   { type: decimal, min: 0, exclusiveMax: 100 }
              born:    { type: date, required: true, min: "1990-01-01", max: "2024-12-31" }
              seen:    { type: datetime }
              flag:    { type: boolean }
              country: { type: string, enum: [US, GB, DE, FR] }
            rules:
              - id: row.grown
                when: flag
                assert: yearsBetween(born, date(seen)) >= 18
              - id: row.cheap
                assert: qty <= 50 or country in ["US", "GB"]

        """

    @Test("edge cases of every storage class, date and key: same report", arguments: [1, 2, 3])
    func edgeCases(seed: Int) throws {
        let scratch = try Scratch("pushdown-edge")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.edgeRules)
        let python = try #require(GeneratedData.python3, "python3 is needed to build the table")
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.builder, scratch.path("edge.sqlite"), String(seed), "3000"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let report = try Self.expectSameReport(["run", "rules.yml", "--max-samples", "50"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "t"))
        #expect(input["ranIn"] as? String == "sqlite", "\(input)")
        let violations = (report["rules"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["violations"] as? Int ?? 0) }
        #expect(violations > 1000, "the table is full of faults")
    }

    @Test("a query source cannot be pushed down: it says why, and the report is the same")
    func refusedForAQuery() throws {
        let scratch = try Scratch("pushdown-query")
        defer { scratch.remove() }
        let python = try #require(GeneratedData.python3, "python3 is needed to build the table")
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.builder, scratch.path("edge.sqlite"), "9", "200"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        try scratch.write("rules.yml", Self.edgeRules.replacingOccurrences(of: "sqlite: { table: t }",
                                                                          with: "sqlite: { query: \"SELECT * FROM t\" }\n    pushdown: true"))
        let report = try Self.expectSameReport(["run", "rules.yml"], in: scratch.url)
        let input = try #require(Self.pushedInput(report, source: "t"))
        #expect(input["ranIn"] == nil)
        #expect((input["pushdownRefused"] as? String)?.contains("query") == true, "\(input)")
        let text = try Auditor.run(["run", "rules.yml"], in: scratch.url)
        let out = String(decoding: text.stdout, as: UTF8.self)
        #expect(out.contains("read in full, not pushed down: "), "\(out)")
    }
}
