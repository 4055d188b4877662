import Foundation
import Testing
import TestSupport

/// A number is a boolean only in SQLite, which has none of its own (INTEGER 0 or 1): in JSON
/// Lines (as in Parquet, PostgreSQL and Spark) `1` fails `type: boolean`, and a record rule does
/// not read it as true. `auditor profile` classified it so already; `run` now agrees.
@Suite("numbers are booleans only in SQLite")
struct BooleanNumbersTests {
    static let rules = """
        version: 1
        sources:
          t: { path: PATH }
        entities:
          Row:
            source: t
            key: [id]
            attributes:
              id: { type: integer }
              b:  { type: boolean }
              n:  { type: integer }
            rules:
              - id: row.flag
                when: b
                assert: n > 0

        """

    /// Each rule's failing ids, in order.
    static func failing(_ report: ReportJSON) throws -> [String: [String]] {
        var out = [String: [String]]()
        for rule in try #require(report.root["rules"] as? [[String: Any]]) {
            let id = try #require(rule["id"] as? String)
            out[id] = (rule["samples"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        return out
    }

    @Test("JSON Lines: true and false are booleans; 1, 0, 2 and \"1\" are not, and `when:` does not take 1 as true")
    func jsonLines() throws {
        let tmp = try Scratch("boolean-numbers-jsonl")
        defer { tmp.remove() }
        try tmp.write("t.jsonl", """
            {"id": 1, "b": true, "n": -1}
            {"id": 2, "b": false, "n": -1}
            {"id": 3, "b": 1, "n": -1}
            {"id": 4, "b": 0, "n": -1}
            {"id": 5, "b": "true", "n": -1}
            {"id": 6, "b": "1", "n": -1}
            {"id": 7, "b": 2, "n": -1}
            {"id": 8, "b": null, "n": -1}

            """)
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "PATH", with: "t.jsonl"))
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let failing = try Self.failing(try ReportJSON(run.stdout))
        #expect(failing["Row.b.type"] == ["id=3", "id=4", "id=6", "id=7"])
        #expect(failing["row.flag"] == ["id=1", "id=5"])
    }

    @Test("SQLite: INTEGER 0 and 1 are booleans; TEXT 'true' and 2 are not")
    func sqlite() throws {
        let tmp = try Scratch("boolean-numbers-sqlite")
        defer { tmp.remove() }
        let db = tmp.url.appendingPathComponent("t.sqlite").path
        let made = try ChildProcess.run(["/usr/bin/sqlite3", db, """
            CREATE TABLE t (id INTEGER, b, n INTEGER);
            INSERT INTO t VALUES (1, 1, -1), (2, 0, -1), (3, 'true', -1), (4, 2, -1), (5, NULL, -1);
            """])
        try #require(made.status == 0, "\(made.stderrText)")
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "PATH", with: "t.sqlite"))
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let failing = try Self.failing(try ReportJSON(run.stdout))
        #expect(failing["Row.b.type"] == ["id=3", "id=4"])
        #expect(failing["row.flag"] == ["id=1"])
    }
}
