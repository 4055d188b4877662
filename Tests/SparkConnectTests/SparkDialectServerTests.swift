#if Spark
import Foundation
@testable import Auditor
@testable import AuditorReaders
import SparkConnect
import Testing

/// ``SparkDialect``'s conditions evaluated by the real server, on the values where Spark's
/// casts and our parsers could part; and the errors of a `spark:` source.
@Suite("Spark SQL dialect and errors on a real server", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkDialectServerTests {
    /// A client in a session set up as the reader's (ANSI on, UTC).
    func client() async throws -> SparkConnectClient {
        let spark = try SparkConnectClient(try await SparkTestServer.get().url, timeout: .seconds(300))
        for setting in SparkSession.settings { _ = try await spark.sql(setting) }
        return spark
    }

    /// `expression` (over a STRING column `x`) for each value, as Spark computes it.
    func evaluate(_ expression: (SparkDialect) -> String?, _ values: [String]) async throws -> [SparkValue] {
        let dialect = SparkDialect(columns: ["x": ("`x`", .text)])
        let sql = try #require(expression(dialect))
        let rows = values.map { "(\(dialect.literal($0)))" }.joined(separator: ", ")
        let result = try await client().sql("SELECT \(sql) FROM \(dialect.withValues("(SELECT * FROM VALUES \(rows) AS t(x)) AS t"))")
        return result.rows.map { $0[0] }
    }

    @Test("integer text: only -?[0-9]{1,17} is surely valid, and it casts exactly")
    func integers() async throws {
        let values = ["007", "-0", "7", " 5", "+5", "1e3", "5.", "5\n", "99999999999999999", "999999999999999999",
                      "9007199254740993", "9223372036854775808", "", "٣"]
        let valid = try await evaluate({ $0.valid("x", as: .integer) }, values)
        #expect(valid == [true, true, true, false, false, false, false, false, true, false, true, false, false, false].map(SparkValue.bool))
        let numbers = try await evaluate({ $0.number("x", .integer) }, ["007", "-0", "9007199254740993", "+5"])
        #expect(numbers == [.int(7), .int(0), .int(9_007_199_254_740_993), .null])
        // Every value the dialect calls valid, the streaming engine's parser accepts with that value.
        for (text, isValid) in zip(values, valid) where isValid == .bool(true) {
            let parsed = Array(text.utf8).withUnsafeBufferPointer { ByteParsers.integer($0) }
            #expect(parsed.valid, "\(text)")
        }
    }

    @Test("decimal, boolean, date and datetime text")
    func otherTypes() async throws {
        #expect(try await evaluate({ $0.valid("x", as: .decimal) }, ["12.50", ".5", "5.", "1e3", "-0.0", "00.10", "NaN", " 1"])
                    == [true, false, false, false, true, true, false, false].map(SparkValue.bool))
        #expect(try await evaluate({ $0.valid("x", as: .boolean) }, ["true", "false", "TRUE", "1", "t", ""])
                    == [true, true, false, false, false, false].map(SparkValue.bool))
        #expect(try await evaluate({ $0.valid("x", as: .date) }, ["2024-02-29", "2023-02-29", "0000-01-01", "2000-13-01",
                                                                  "2001-04-31", "2010-6-1", " 2001-04-30", "9999-12-31", "2024-02-29\n"])
                    == [true, false, false, false, false, false, false, true, false].map(SparkValue.bool))
        #expect(try await evaluate({ $0.valid("x", as: .datetime) }, ["2020-01-01T00:00:00Z", "2020-01-01T23:30:00-05:00",
                                                                      "2020-02-29T12:00:00.5Z", "2021-02-29T00:00:00Z",
                                                                      "2020-01-01T24:00:00Z", "2020-01-01 00:00:00Z", "2020-01-01t00:00:00z"])
                    == [true, false, false, false, false, false, false].map(SparkValue.bool))
        #expect(try await evaluate({ $0.dateText("x", .datetime) }, ["2020-02-29T12:00:00Z"]) == [.date(days: 18321)])
    }

    @Test("a column of a case-insensitive collation is still compared byte for byte")
    func collation() async throws {
        let dialect = SparkDialect(columns: ["x": ("`x`", .text)])
        let pattern = try Pattern("[A-Z]+")
        let sql = "SELECT \(dialect.bytes("x")) IN ('US'), \(try #require(dialect.matches("x", pattern))) "
            + "FROM (SELECT CAST(v AS STRING COLLATE UTF8_LCASE) AS x FROM VALUES ('us'), ('US') AS t(v))"
        let rows = try await client().sql(sql).rows
        #expect(rows == [[.bool(false), .bool(false)], [.bool(true), .bool(true)]])
    }

    @Test("char_length counts Unicode scalars, as the streaming engine does")
    func characterLength() async throws {
        let values = ["🦄", "e\u{301}", "Zoë", "", "日本"]
        let lengths = try await evaluate({ $0.characters("x") }, values)
        #expect(lengths == values.map { .int(Int64($0.unicodeScalars.count)) })
    }

    @Test("patterns: the Java translation matches exactly, full match, no line-end leniency; \\d, \\w, \\s and . written out")
    func patterns() async throws {
        let values = ["José Müller", "Ann", "Ann\n", "O'Neil", "🦄", "", "Ñandú", "90", "٣", "a\u{0B}a", "a\u{85}a", "a\u{2028}a",
                      "a\na", "a\ta", "Z_9z", "ｗ", "555-1234", "a.b", "a\u{A0}a"]
        for source in ["[A-Za-zÀ-ÖØ-öø-ÿ ]+", #"\d+"#, #"\d{3}-\d{4}"#, #"[\w ]+"#, #"\s*\S+\s*"#, #"a.a"#, #".*"#, #"[a\s]+"#,
                       #"\D+"#, #"\W?\w+"#] {
            let pattern = try Pattern(source)
            let got = try await evaluate({ $0.matches("x", pattern) }, values)
            #expect(got == values.map { value in .bool(pattern.matches(value)) }, "\(source)")
        }
        #expect(SparkDialect.javaRegex("[a-z&&[^b]]") == nil)
        #expect(SparkDialect.javaRegex(#"\x41"#) == nil)
        #expect(SparkDialect.javaRegex(#"[\d-z]"#) == nil)
    }

    @Test("the pushed-down numbering's range of a key: 0 for NULL, else 1 + the cuts below it",
          arguments: [[], [5], [-3, 0, 7, 100], (0 ..< 63).map { Int64($0) * 10 }, (0 ..< 31).map { Int64($0) * 20 },
                      (0 ..< 32).map { Int64($0) * 20 }, [Int64.min + 1, 0, Int64.max]] as [[Int64]])
    func ranges(cuts: [Int64]) async throws {
        let keys: [Int64] = [.min + 1, -4, -3, -2, 0, 1, 5, 6, 7, 99, 100, 101, 315, 320, 619, 620, 621, .max]
            + stride(from: -30, through: 700, by: 7)
        let values = (["", "x"] + keys.map(String.init)).map { "('\($0)')" }.joined(separator: ", ")
        let ranged = SparkReader.ranged("(SELECT * FROM VALUES \(values) AS t(x)) AS t", numbering: "try_cast(`x` AS BIGINT)", cuts: cuts)
        let got = try await client().sql("SELECT auditor_bucket FROM (\(ranged)) AS b").rows.map { $0[0] }
        let want = [0, 0] + keys.map { key in 1 + cuts.filter { $0 < key }.count }
        #expect(got == want.map { SparkValue.int(Int64($0)) })
    }

    @Test("SQL that Spark rejects is an internal error (70) naming Spark's error class")
    func analysisErrorIsABug() async throws {
        let url = try await SparkTestServer.get().url
        let error = try await AuditorBinary.offPool { () -> AuditError? in
            var session = try SparkSession(url: url, displayPath: "sc://test", timeoutSeconds: 120)
            do {
                _ = try session.run("SELECT no_such_column FROM range(1)", stage: .read(what: "table 't'"))
                return nil
            } catch let error as AuditError {
                return error
            }
        }
        let e = try #require(error)
        #expect(e.code == .internal)
        #expect(e.code.exitStatus.rawValue == 70)
        #expect(e.cause?.contains("UNRESOLVED_COLUMN") == true, "\(e)")
    }

    @Test("a missing table: exit 65 and a message that names it")
    func missingTable() async throws {
        let url = try await SparkTestServer.get().url
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-missing-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try """
            version: 1
            sources:
              t: { path: "\(url)", spark: { table: no_such_table } }
            entities:
              Row:
                source: t
                attributes:
                  id: { type: integer }
            """.write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let run = try await AuditorBinary.offPool { try AuditorBinary.run(["run", "rules.yml"], in: scratch.path) }
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("no table or view 'no_such_table'"), "\(run)")
        let token = try await SparkTestServer.get().token ?? "no token"
        #expect(!run.stderr.contains(token), "the token is never shown")
    }

    @Test("an unreachable server: exit 66 at once, saying where")
    func unreachable() async throws {
        let port = SparkTestServer.freePort()
        let run = try await AuditorBinary.offPool {
            try AuditorBinary.run(["run", "rules/people.yml", "--source", "people=sc://127.0.0.1:\(port)",
                                   "--source", "departments=sc://127.0.0.1:\(port)"])
        }
        #expect(run.status == 66, "\(run)")
        #expect(run.stderr.contains("cannot reach the Spark Connect server at 127.0.0.1:\(port)"), "\(run)")
    }
    @Test("a server that accepts and never answers: exit 75 after the block's timeout, never a hang")
    func silentServer() async throws {
        let silent = try SilentListener()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-silent-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try """
            version: 1
            sources:
              t: { path: "sc://127.0.0.1:\(silent.port)", spark: { table: t, timeout: 2 } }
            entities:
              Row:
                source: t
                attributes:
                  id: { type: integer }
            """.write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let run = try await AuditorBinary.offPool { try AuditorBinary.run(["run", "rules.yml"], in: scratch.path) }
        #expect(run.status == 75, "\(run)")
        #expect(run.stderr.contains("did not answer in time"), "\(run)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
#endif
