import Foundation
import Testing

/// A typed Parquet file audited by the built binary: a DATE column is a date, a DECIMAL an
/// exact decimal, a TIMESTAMP a date-time, BOOLEAN a boolean; an INT32 column declared `date`
/// fails on every value (as strictly as SQLite's storage classes); findings read
/// `file.parquet:rowgroup G:row N`; a struct column is refused with exit 65, naming it.
@Suite("Parquet end to end")
struct ParquetEndToEndTests {
    static let fixtures = Auditor.packageRoot.appendingPathComponent("Tests/ReadersTests/Fixtures/parquet")

    @Test func typedColumnsAreJudgedByValue() throws {
        let scratch = try Scratch("parquet")
        defer { scratch.remove() }
        let file = Self.fixtures.appendingPathComponent("flat-plain-none-v1.parquet").path
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.fixtures.appendingPathComponent("flat-plain-none-v1.json"))) as? [String: Any])
        let fields = try #require(json["fields"] as? [String])
        let rows = try #require(json["rows"] as? [[Any]])
        func nonNull(_ name: String) throws -> Int {
            let c = try #require(fields.firstIndex(of: name))
            return rows.filter { !($0[c] is NSNull) }.count
        }
        let rules = try scratch.write("rules.yml", """
            version: 1
            sources:
              t: { path: \(file) }
            entities:
              T:
                source: t
                idPrefix: t
                attributes:
                  i64:   { type: integer }
                  u8:    { type: integer }
                  i32:   { type: date }
                  d:     { type: date }
                  ts_ms: { type: datetime }
                  ts_us: { type: datetime }
                  ts_ns: { type: datetime }
                  dec9:  { type: decimal }
                  dec38: { type: decimal }
                  dec0:  { type: integer }
                  b:     { type: boolean }
                  s:     { type: string }
            """)
        let run = try Auditor.run(["run", rules.path, "--format", "json", "-q"])
        #expect(run.status == 1, "\(run)")
        let counts = try ReportJSON(run.stdout).violationsByRule()
        #expect(counts["t.i32.type"] == (try nonNull("i32")))
        // A TIMESTAMP not adjusted to UTC (`ts_us`) is its wall time read as UTC, as Spark reads it.
        for attribute in ["i64", "u8", "d", "ts_ms", "ts_us", "ts_ns", "dec9", "dec38", "dec0", "b"] {
            #expect(counts["t.\(attribute).type"] == 0, "\(attribute): \(counts["t.\(attribute).type"] ?? -1)")
        }
        let text = try Auditor.run(["run", rules.path, "-q"])
        #expect(text.stdoutText.contains("flat-plain-none-v1.parquet:rowgroup 0:row "), "\(text)")
    }

    @Test func structColumnIsRefusedWithExit65() throws {
        let scratch = try Scratch("parquet-struct")
        defer { scratch.remove() }
        let file = Self.fixtures.appendingPathComponent("struct.parquet").path
        let rules = try scratch.write("rules.yml", """
            version: 1
            sources:
              t: { path: \(file) }
            entities:
              T:
                source: t
                attributes:
                  id:    { type: integer }
                  point: { type: string }
            """)
        let run = try Auditor.run(["run", rules.path, "-q"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrText.contains("'point'"), "\(run)")
    }

    @Test func aParquetBlockTakesNoOptions() throws {
        let scratch = try Scratch("parquet-options")
        defer { scratch.remove() }
        let file = Self.fixtures.appendingPathComponent("flat-plain-none-v1.parquet").path
        for (block, status) in [("{}", Int32(0)), ("{ columns: [a] }", Int32(78))] {
            let rules = try scratch.write("rules.yml", """
                version: 1
                sources:
                  t: { path: \(file), parquet: \(block) }
                entities:
                  T:
                    source: t
                    attributes:
                      i64: { type: integer }
                """)
            let run = try Auditor.run(["run", rules.path, "-q"])
            #expect(run.status == status, "\(run)")
            if status == 78 { #expect(run.stderrText.contains("takes no options"), "\(run)") }
        }
    }

    /// A LIST and a MAP column take list and map constraints, as the schema says, with the
    /// counts of the values pyarrow reads (the fixture's `.json`); a list constraint on a
    /// scalar column is a rules-file error (78) at its line, before any record is read.
    @Test("LIST and MAP columns take list and map constraints; a scalar column refuses them", arguments: [
        "nested-plain-none-v1", "nested-dict-snappy-v2",
    ])
    func listAndMapConstraints(_ name: String) throws {
        let scratch = try Scratch("parquet-collections")
        defer { scratch.remove() }
        let file = Self.fixtures.appendingPathComponent("\(name).parquet").path
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).json"))) as? [String: Any])
        let rows = try #require(json["rows"] as? [[Any]])
        let lists = { (c: Int) in rows.compactMap { $0[c] as? [Any] } }
        let maps = rows.compactMap { (($0[3] as? [String: Any])?["map"] as? [[Any]])?.compactMap { $0.first as? String } }
        let expected: [String: Int] = [
            "T.ints.minCount": lists(1).filter { $0.isEmpty }.count,
            "T.ints.maxCount": lists(1).filter { $0.count > 2 }.count,
            "T.tags.uniqueItems": lists(2).filter { items in Set(items.compactMap { $0 as? String }).count < items.count }.count,
            "T.scores.requiredKeys": maps.filter { !$0.contains("a") }.count,
            "T.scores.allowedKeys": maps.filter { !$0.allSatisfy(["a", "b", "c"].contains) }.count,
        ]
        #expect(expected.values.allSatisfy { $0 > 0 }, "every rule has something to find: \(expected)")
        let rules = """
            version: 1
            sources:
              t: { path: \(file) }
            entities:
              T:
                source: t
                attributes:
                  n: { type: integer }
                  ints: { minCount: 1, maxCount: 2 }
                  tags: { uniqueItems: true }
                  scores: { requiredKeys: [a], allowedKeys: [a, b, c] }

            """
        try scratch.write("rules.yml", rules)
        try assertExecute(["check", "rules.yml"], in: scratch.url, exitCode: 0)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "-q"], in: scratch.url)
        #expect(run.status == 1, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        var got = [String: Int]()
        for r in report["rules"] as? [[String: Any]] ?? [] { got[r["id"] as? String ?? "?"] = r["violations"] as? Int }
        for (id, count) in expected { #expect(got[id] == count, "\(id): \(got[id] ?? -1), pyarrow's values: \(count)") }
        // The same rules naming a CSV file, which --source replaces with the Parquet one: the
        // plan is checked against the file read, and counts the same.
        try scratch.write("items.csv", "n,ints,tags,scores\n1,x,y,z\n")
        try scratch.write("csv.yml", rules.replacingOccurrences(of: "path: \(file)", with: "path: items.csv"))
        let replaced = try Auditor.run(["run", "csv.yml", "--source", "t=\(file)", "--format", "json", "-q"], in: scratch.url)
        #expect(replaced.status == 1, "\(replaced)")
        let second = try #require(try JSONSerialization.jsonObject(with: replaced.stdout) as? [String: Any])
        for r in second["rules"] as? [[String: Any]] ?? [] where expected[r["id"] as? String ?? "?"] != nil {
            #expect(r["violations"] as? Int == got[r["id"] as? String ?? "?"], "\(r)")
        }
        try FileManager.default.copyItem(atPath: file, toPath: scratch.url.appendingPathComponent("copy.dat").path)
        try assertExecute(["run", "csv.yml", "--source", "t=copy.dat", "--source-format", "t=parquet", "-q"], in: scratch.url, exitCode: 1)
        // And the other way round: the CSV file read instead has no lists.
        try assertExecute(["run", "rules.yml", "--source", "t=items.csv"], in: scratch.url, exitCode: 78,
                          stderrContains: ["rules.yml:9:15: 'minCount' applies to a list, but 'ints' is a single value"])

        // A list constraint on the INT64 column: refused where it is written.
        try scratch.write("scalar.yml", rules.replacingOccurrences(of: "n: { type: integer }", with: "n: { type: integer, maxCount: 3 }"))
        try assertExecute(["check", "scalar.yml"], in: scratch.url, exitCode: 78,
                          stderrContains: ["scalar.yml:8:27: 'maxCount' applies to a list or a map, but 'n' is a column of the Parquet file "
                                           + "that is neither a LIST nor a MAP; remove 'maxCount' from 'n'"])
        try assertExecute(["run", "scalar.yml"], in: scratch.url, exitCode: 78, stderrContains: ["'maxCount' applies to a list or a map"])
        // A map constraint on the LIST column, a list constraint on the MAP column.
        try scratch.write("crossed.yml", rules.replacingOccurrences(of: "ints: { minCount: 1, maxCount: 2 }", with: "ints: { allowedKeys: [a] }")
            .replacingOccurrences(of: "scores: { requiredKeys: [a], allowedKeys: [a, b, c] }", with: "scores: { uniqueItems: true }"))
        try assertExecute(["check", "crossed.yml"], in: scratch.url, exitCode: 78,
                          stderrContains: ["'allowedKeys' applies to a map, but 'ints' is a LIST column of the Parquet file",
                                           "'uniqueItems' applies to a list, but 'scores' is a MAP column of the Parquet file"])
    }
}
