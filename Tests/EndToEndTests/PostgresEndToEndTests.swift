import Foundation
import Testing

/// `auditor run` against a throwaway PostgreSQL server (``PostgresServer``): the benchmark
/// rules on gen.py data loaded into text columns, connection errors, passwords.
@Suite("PostgreSQL end to end", .enabled(if: PostgresServer.available, PostgresServer.skipReason))
struct PostgresEndToEndTests {
    /// gen.py --rows 20000 --seed 11, loaded into `people` and `departments` as text columns
    /// (what an "export table" looks like), from the SQLite export: the CSV export has ragged
    /// rows that COPY would refuse, and the other exports hold those records whole.
    static let loaded: Result<(server: PostgresServer, database: String, data: URL), Auditor.Failure> = load()

    private static func load() -> Result<(server: PostgresServer, database: String, data: URL), Auditor.Failure> {
        let server: PostgresServer
        switch PostgresServer.shared {
        case .success(let s): server = s
        case .failure(let f): return .failure(.init(description: f.description))
        }
        guard let python3 = GeneratedData.python3 else { return .failure(.init(description: "python3 not found")) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-e2e-pg-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try? FileManager.default.removeItem(at: out)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let gen = try PostgresServer.run(python3.path, [GeneratedData.script.path, "--rows", "20000", "--seed", "11",
                                                            "--formats", "csv,sqlite", "--out", out.path], asPostgres: false)
            guard gen.status == 0 else { return .failure(.init(description: "gen.py: \(gen.output)")) }
            let script = out.appendingPathComponent("tocopy.py")
            try Self.exportScript.write(to: script, atomically: true, encoding: .utf8)
            let sql = out.appendingPathComponent("load.sql")
            let export = try PostgresServer.run(python3.path, [script.path, out.appendingPathComponent("people.sqlite").path, sql.path],
                                                asPostgres: false)
            guard export.status == 0 else { return .failure(.init(description: "export: \(export.output)")) }
            let database = try server.makeDatabase("bench")
            let psql = try PostgresServer.run(server.binaries.appendingPathComponent("psql").path,
                                              ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", server.url(database: database), "-f", sql.path],
                                              asPostgres: false)
            guard psql.status == 0 else { return .failure(.init(description: "psql -f load.sql: \(psql.output)")) }
            return .success((server, database, out))
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }

    /// Writes `COPY … FROM stdin` text-format data: every column text, NULL as `\N`, booleans
    /// back to the CSV's `true`/`false`.
    static let exportScript = #"""
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        def esc(v, boolean=False):
            if v is None:
                return "\\N"
            if boolean and v in (0, 1) and not isinstance(v, str):
                v = "true" if v == 1 else "false"
            s = str(v)
            return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
        with open(sys.argv[2], "w", encoding="utf-8") as out:
            cols = ["id", "name", "email", "birthday", "has_licence", "age", "salary", "country", "dept_id", "created_at", "notes"]
            out.write("CREATE TABLE people (%s);\n" % ", ".join(c + " text" for c in cols))
            out.write("CREATE TABLE departments (id integer PRIMARY KEY, name text NOT NULL);\n")
            out.write("COPY people FROM stdin;\n")
            for row in db.execute("SELECT %s FROM people ORDER BY rowid" % ", ".join(cols)):
                out.write("\t".join(esc(v, boolean=(i == 4)) for i, v in enumerate(row)) + "\n")
            out.write("\\.\n")
            out.write("COPY departments FROM stdin;\n")
            for row in db.execute("SELECT id, name FROM departments ORDER BY id"):
                out.write("\t".join(esc(v) for v in row) + "\n")
            out.write("\\.\n")
        """#

    @Test("The benchmark rules give the generator's counts on PostgreSQL")
    func benchmarkCounts() throws {
        guard GeneratedData.available else { return }
        let (server, database, data) = try Self.loaded.get()
        let url = server.url(database: database)
        let run = try assertExecute(["run", "rules/people.yml", "--source", "people=\(url)", "--source", "departments=\(url)",
                                     "--format", "json"], exitCode: 1, timeout: 300)
        let report = try ReportJSON(run.stdout)
        let expected = try expectedCounts(data.appendingPathComponent("expected.json"), format: "sqlite")
        try expectCounts(report, equal: expected,
                         requiring: Set(expected.keys).subtracting(deferredRuleIDs).subtracting(["csv.row.ragged"]))
        #expect(integer(report.inputs.first?["records"]) == 20_000)
        #expect(report.inputs.first?["format"] as? String == "postgres")
        #expect(report.inputs.first?["path"] as? String == url)
        // The same counts with several jobs and small chunks.
        let other = try assertExecute(["run", "rules/people.yml", "--source", "people=\(url)", "--source", "departments=\(url)",
                                       "--format", "json", "--jobs", "2", "--chunk-size", "333"], exitCode: 1, timeout: 300)
        try expectCounts(try ReportJSON(other.stdout), equal: expected,
                         requiring: Set(expected.keys).subtracting(deferredRuleIDs).subtracting(["csv.row.ragged"]))
    }

    @Test func findingsAreLocatedByDatabaseSchemaTableAndKey() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("locate", setup: """
            CREATE TABLE people (id integer PRIMARY KEY, age integer);
            INSERT INTO people VALUES (1, 30), (7, -4), (9, 200);
            """)
        let tmp = try Scratch("pg-locate")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              people: { path: "\(server.url(database: database))", postgres: { table: people } }
            entities:
              Person:
                source: people
                key: [id]
                attributes:
                  id: { type: integer }
                  age: { type: integer, min: 0, max: 150 }
            """)
        let run = try assertExecute(["run", tmp.path("rules.yml"), "--format", "json"], exitCode: 1)
        #expect(run.stdoutText.contains("\(database).public.people"), "\(run)")
        #expect(run.stdoutText.contains("id=7"), "\(run)")
        #expect(run.stdoutText.contains("id=9"), "\(run)")
    }

    /// Typed columns are judged by their type like SQLite's storage classes; text like CSV.
    @Test func typedColumnsAreJudgedByTheirType() throws {
        let server = try PostgresServer.shared.get()
        let database = try server.makeDatabase("typed", setup: """
            CREATE TABLE t (id bigint PRIMARY KEY, big numeric, frac numeric(8,2), whole numeric(10,0), f double precision,
                            b boolean, d date, ts timestamptz, txt text, n int);
            INSERT INTO t VALUES
              (1, 1234567890123456789012345678901234567890, 1.50, 42, 2.5, true, '2020-02-29', '2024-01-02 03:04:05.123456+00', '17', 5),
              (9007199254740993, -1, -0.25, -7, 3, false, 'infinity', '1999-12-31 23:59:59+00', 'x', NULL),
              (3, 'NaN', 0, 0, 'NaN', NULL, NULL, NULL, '', 6);
            """)
        let tmp = try Scratch("pg-typed")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              t: { path: "\(server.url(database: database))", postgres: { table: t } }
            entities:
              T:
                source: t
                key: [id]
                attributes:
                  id:    { type: integer, unique: true }
                  big:   { type: decimal, min: 0 }
                  frac:  { type: integer }
                  whole: { type: integer }
                  f:     { type: integer }
                  b:     { type: boolean }
                  d:     { type: date }
                  ts:    { type: datetime, max: "2024-01-02T03:04:05.123456Z" }
                  txt:   { type: integer }
                  n:     { type: date }
            """)
        let run = try assertExecute(["run", tmp.path("rules.yml"), "--format", "json"], exitCode: 1)
        let report = try ReportJSON(run.stdout)
        var counts = [String: Int]()
        for rule in report.rules { counts[rule["id"] as? String ?? "?"] = integer(rule["violations"]) ?? -1 }
        #expect(counts["T.id.type"] == 0, "int8 beyond 2^53 is an integer: \(counts)")
        #expect(counts["T.big.type"] == 1, "40 digits is a decimal, NaN is not: \(counts)")
        #expect(counts["T.big.min"] == 1, "-1 < 0: \(counts)")
        #expect(counts["T.frac.type"] == 3, "numeric(8,2) prints a fraction: \(counts)")
        #expect(counts["T.whole.type"] == 0, "numeric(10,0) is integral: \(counts)")
        #expect(counts["T.f.type"] == 3, "a double is never an integer (SQLite REAL): \(counts)")
        #expect(counts["T.b.type"] == 0, "\(counts)")
        #expect(counts["T.d.type"] == 1, "infinity is not a date: \(counts)")
        #expect(counts["T.ts.type"] == 0, "\(counts)")
        #expect(counts["T.ts.max"] == 0, "microseconds are kept: \(counts)")
        #expect(counts["T.txt.type"] == 2, "text is judged like CSV text ('17' passes, 'x' fails; '' is an empty string, not NULL, so it fails too): \(counts)")
        #expect(counts["T.n.type"] == 2, "an integer column is never a date: \(counts)")
    }

    @Test func aPasswordInTheRulesFileIsRefusedWith78() throws {
        let tmp = try Scratch("pg-password")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              people: { path: "postgresql://u:hunter2secret@127.0.0.1/db", postgres: { table: people } }
            entities:
              Person:
                source: people
                attributes:
                  id: { type: integer }
            """)
        let run = try assertExecute(["run", tmp.path("rules.yml")], exitCode: 78, stderrContains: ["PGPASSWORD"])
        #expect(!run.stderrText.contains("hunter2secret"))
        #expect(!run.stdoutText.contains("hunter2secret"))
    }

    @Test func aWrongPasswordIs66AndNeverPrinted() throws {
        let server = try PostgresServer.shared.get()
        let user = "e2e\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(user) LOGIN PASSWORD 'the-right-one'")
        let url = server.tcpURL(database: "postgres", user: user)
        let run = try assertExecute(["run", "rules/people.yml", "--source", "people=\(url)", "--source", "departments=\(url)"],
                                    exitCode: 66, environment: ["PGPASSWORD": "wrong-pass-0xDEADBEEF"], timeout: 60)
        #expect(!run.stderrText.contains("wrong-pass-0xDEADBEEF"), "\(run)")
        #expect(!run.stdoutText.contains("wrong-pass-0xDEADBEEF"))
        #expect(run.stderrText.contains("127.0.0.1:\(server.port)/postgres"), "\(run)")
    }

    @Test func aServerThatIsNotThereIs66WithinSeconds() throws {
        _ = try PostgresServer.shared.get()
        let port = PostgresServer.freePort()
        let url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
        let run = try assertExecute(["run", "rules/people.yml", "--source", "people=\(url)", "--source", "departments=\(url)"],
                                    exitCode: 66, timeout: 30)
        #expect(run.seconds < 10)
        #expect(run.stderrText.contains("cannot connect to PostgreSQL at 127.0.0.1:\(port)/postgres"), "\(run)")
    }
}
