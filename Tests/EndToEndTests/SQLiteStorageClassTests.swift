import Foundation
import TestSupport
import Testing

/// SQLite types follow the storage classes (issue 13 §5; README "Types"): `integer` is the
/// INTEGER storage class, `decimal` INTEGER or REAL, `boolean` INTEGER 0 or 1; TEXT that
/// spells a number (`'5'`) is a type violation. The verdicts are compared with the sqlite3
/// CLI's `typeof()` on generated values, in columns without affinity (so each value keeps the
/// class it was inserted with) and in columns declared INTEGER and REAL (whose affinity
/// converts numeric text: the stored class is still what `typeof()` says).
@Suite("SQLite storage classes")
struct SQLiteStorageClassTests {
    /// Runs sqlite3 and returns its output.
    static func sqlite3(_ database: String, _ sql: String) throws -> String {
        let run = try ChildProcess.run(["sqlite3", "-batch", "-separator", "|", database], input: Data(sql.utf8))
        #expect(run.status == 0, "sqlite3 failed: \(run)")
        return run.stdoutText
    }

    /// SQL literals of every storage class, numbers spelled as text among them.
    static func literals(count: Int) -> [String] {
        var rng = SystemRandomNumberGenerator()
        let fixed = ["5", "'5'", "0", "1", "'1'", "'0'", "-7", "' 5'", "'5.0'", "5.0", "2.5", "'2.5'", "'true'", "'false'",
                     "x'35'", "x''", "NULL", "''", "'abc'", "9223372036854775807", "'9223372036854775807'", "1e3", "'1e3'",
                     "-0.0", "'-3'", "'+3'", "'0x10'", "0x10", "'1990-05-17'"]
        var out = fixed
        while out.count < count {
            switch Int.random(in: 0 ..< 6, using: &rng) {
            case 0: out.append(String(Int64.random(in: -1_000_000 ... 1_000_000, using: &rng)))
            case 1: out.append("'\(Int64.random(in: -1000 ... 1000, using: &rng))'")
            case 2: out.append(String(format: "%.3f", Double.random(in: -1000 ... 1000, using: &rng)))
            case 3: out.append("'\(String(format: "%.2f", Double.random(in: -100 ... 100, using: &rng)))'")
            case 4: out.append(["0", "1", "'0'", "'1'", "2", "-1"].randomElement(using: &rng) ?? "0")
            default: out.append("x'\(String(format: "%02x", Int.random(in: 0 ... 255, using: &rng)))'")
            }
        }
        return out
    }

    /// The verdict a declared type gives a value of a storage class (nil: missing, no verdict).
    static func valid(_ type: String, typeof: String, value: String) -> Bool? {
        if typeof == "null" { return nil }
        switch type {
        case "integer": return typeof == "integer"
        case "decimal": return typeof == "integer" || typeof == "real"
        case "boolean": return typeof == "integer" && (value == "0" || value == "1")
        default: return true
        }
    }

    @Test("integer, decimal and boolean against typeof(), for columns without affinity and with INTEGER/REAL affinity",
          arguments: ["", "INTEGER", "REAL", "TEXT"])
    func typesFollowStorageClasses(_ affinity: String) throws {
        let tmp = try Scratch("sqlite-classes")
        defer { tmp.remove() }
        let db = tmp.path("t.sqlite")
        let values = Self.literals(count: 300)
        var sql = "CREATE TABLE t (i \(affinity), d \(affinity), b \(affinity), s \(affinity));\n"
        for v in values { sql += "INSERT INTO t VALUES (\(v), \(v), \(v), \(v));\n" }
        _ = try Self.sqlite3(db, sql)
        // The reference: each row's storage class and value, as sqlite3 reports them.
        var expected = [String: Set<Int>]()          // rule id -> rowids that violate it
        var stored = [Int: String]()
        let rows = try Self.sqlite3(db, "SELECT rowid, typeof(i), typeof(d), typeof(b), quote(i) FROM t;")
        for line in rows.split(separator: "\n") {
            let f = line.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, let rowid = Int(f[0]) else { continue }
            stored[rowid] = "\(f[1]) \(f[4])"
            for (id, type, typeof) in [("t.i.type", "integer", f[1]), ("t.d.type", "decimal", f[2]), ("t.b.type", "boolean", f[3])] {
                if Self.valid(type, typeof: typeof, value: f[4]) == false { expected[id, default: []].insert(rowid) }
            }
        }
        #expect(stored.count == values.count)
        try tmp.write("rules.yml", """
            version: 1
            sources:
              t: { path: t.sqlite, sqlite: { table: t } }
            entities:
              T:
                source: t
                idPrefix: t
                attributes:
                  i: { type: integer }
                  d: { type: decimal }
                  b: { type: boolean }
                  s: { type: string }

            """)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "--max-samples", "1000"], in: tmp.url)
        #expect(run.status == (expected.values.contains { !$0.isEmpty } ? 1 : 0), "\(run)")
        let report = try ReportJSON(run.stdout)
        for id in ["t.i.type", "t.d.type", "t.b.type"] {
            let rule = try #require(report.rules(withID: id).first, "\(id)")
            let samples = (rule["samples"] as? [[String: Any]]) ?? []
            let got = Set(samples.compactMap { (($0["location"] as? [String: Any])?["locator"] as? [String: Any]).flatMap { integer($0["value"]) } })
            let want = expected[id] ?? []
            #expect(integer(rule["violations"]) == want.count, "\(id)")
            if integer(rule["suppressed"]) ?? 0 > 0 {
                // No value of the column had the type: one root-cause finding stands for all.
                #expect(integer(rule["suppressed"]) == want.count - 1 && got.count == 1 && got.isSubset(of: want), "\(id)")
                continue
            }
            #expect(got == want, "\(id): wrong verdicts for \((got.symmetricDifference(want)).sorted().prefix(10).map { "rowid \($0): \(stored[$0] ?? "")" })")
        }
        for rule in report.rules(withID: "t.s.type") {
            #expect(integer(rule["violations"]) == 0, "string accepts every storage class")
        }
    }

    @Test("TEXT '5' fails an integer, and its bounds and record rules skip it (it is not a number)")
    func textFiveIsNotAnInteger() throws {
        let tmp = try Scratch("sqlite-text-five")
        defer { tmp.remove() }
        _ = try Self.sqlite3(tmp.path("t.sqlite"), "CREATE TABLE t (id INTEGER PRIMARY KEY, n);"
                                + "INSERT INTO t VALUES (1, 5), (2, '5'), (3, 50), (4, '50');")
        try tmp.write("rules.yml", """
            version: 1
            sources:
              t: { path: t.sqlite, sqlite: { table: t } }
            entities:
              T:
                source: t
                idPrefix: t
                key: [id]
                attributes:
                  id: { type: integer }
                  n: { type: integer, max: 10 }
                rules:
                  - id: t.n.small
                    assert: n < 10

            """)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(run.stdout)
        let rowids = { (id: String) -> [Int] in
            ((report.rules(withID: id).first?["samples"] as? [[String: Any]]) ?? [])
                .compactMap { (($0["location"] as? [String: Any])?["locator"] as? [String: Any]).flatMap { integer($0["value"]) } }
        }
        #expect(rowids("t.n.type") == [2, 4])
        #expect(rowids("t.n.max") == [3])
        #expect(rowids("t.n.small") == [3])
        #expect(integer(report.rules(withID: "t.n.small").first?["skipped"]) == 2)
    }
}
