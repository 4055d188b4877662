#if Spark
import Foundation
import SparkConnect
import Testing

/// A pushed-down Spark read whose verdict needs no window decides it in the scan, and sends
/// across the exchange the passing rows' range, verdict, numbered key and counted conditions
/// only, the conditions as bits of 62 to a column (SparkReader's narrow query).
@Suite("spark: the verdict decided before the exchange", .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
struct SparkNarrowExchangeTests {
    /// Rules for the entity `Row` of the global temporary view `view`, located and unique by `id`,
    /// with `attributes` (YAML lines) after `id`.
    static func rules(_ url: String, view: String, attributes: String) -> String {
        """
        version: 1
        sources:
          t:
            path: "\(url)"
            spark: { table: global_temp.\(view), locate: id, readWholeBelow: 0 }
        entities:
          Row:
            source: t
            key: [id]
            idPrefix: row
            attributes:
              id: { type: integer, required: true, unique: true }

        """ + attributes
    }

    /// 71 attributes, so 71 counted conditions: two columns of bits. Each optional column has
    /// NULLs at its own rate, so a condition counted in another's bit changes the evaluated
    /// counts; values above the maximum are rare (2 %, 1 %, none), so that about half the rows
    /// pass and the passing rows' counts, the bits, decide those counts.
    @Test("more than 62 counted conditions: the same report streaming and pushed down")
    func manyConditions() async throws {
        let server = try await SparkTestServer.get()
        let client = try SparkConnectClient(server.url, timeout: .seconds(300))
        let columns = (0 ..< 70).map { k in
            "CASE WHEN pmod(hash(\(k), i), \(k % 9 + 2)) = 0 THEN NULL ELSE pmod(hash(i, \(k)), 100) END AS c\(k)"
        }
        _ = try await client.sql("CREATE OR REPLACE GLOBAL TEMPORARY VIEW auditor_wide AS SELECT "
                                 + "CASE WHEN i % 101 = 0 THEN i - 1 ELSE i END AS id, \(columns.joined(separator: ", ")) "
                                 + "FROM (SELECT id AS i FROM range(1, 3001))")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-wide-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let attributes = (0 ..< 70).map { "      c\($0): { type: integer, max: \(97 + $0 % 3) }\n" }.joined()
        try Self.rules(server.url, view: "auditor_wide", attributes: attributes)
            .write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let shown = try await AuditorBinary.offPool {
            try AuditorBinary.run(["run", "rules.yml", "--format", "json", "--pushdown"], in: scratch.path, environment: ["AUDITOR_DEBUG_SQL": "1"])
        }
        #expect(shown.stderr.contains("AS auditor_p FROM") && shown.stderr.contains("auditor_m1"), "\(shown.stderr.suffix(2000))")
        let (_, pushed) = try await AuditorBinary.sameReport(["run", "rules.yml", "--max-samples", "5"], in: scratch.path)
        #expect(AuditorBinary.input(pushed, source: "t")?["ranIn"] as? String == "spark")
        let violations = AuditorBinary.violations(pushed)
        #expect(violations["row.id.unique"] == 29, "\(violations)")
        #expect((violations["row.c69.max"] ?? 0) > 10, "\(violations)")
        #expect((violations["row.c68.max"] ?? 0) == 0, "\(violations)")
        // Many rows pass every rule: the counts of the passing rows matter.
        let entity = try #require((pushed["entities"] as? [[String: Any]])?.first)
        let violating = try #require(entity["violatingRecords"] as? Int)
        #expect(violating > 500 && violating < 2500, "\(entity)")
    }

    /// The pushed-down queries add columns named `auditor_…` to `SELECT *`: a table's other
    /// columns of such names are left out of them; a column read of such a name streams the entity.
    @Test("columns named like the pushed-down queries' own: left out, or the entity is read here, saying why")
    func columnsNamedLikeOurs() async throws {
        let server = try await SparkTestServer.get()
        let client = try SparkConnectClient(server.url, timeout: .seconds(300))
        _ = try await client.sql("CREATE OR REPLACE GLOBAL TEMPORARY VIEW auditor_clash AS SELECT "
                                 + "CASE WHEN i % 100 = 0 THEN 'x' ELSE CAST(i AS STRING) END AS id, CAST(i % 7 AS STRING) AS auditor_bucket, "
                                 + "CAST(i AS STRING) AS AUDITOR_V0, CASE WHEN i % 10 = 0 THEN 'y' ELSE CAST(i AS STRING) END AS auditor_n "
                                 + "FROM (SELECT id AS i FROM range(1, 2001))")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-clash-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let cases = [("", ["row.id.type": 20]), ("      auditor_n: { type: integer }\n", ["row.id.type": 20, "row.auditor_n.type": 200])]
        for (extra, violations) in cases {
            try Self.rules(server.url, view: "auditor_clash", attributes: extra)
                .write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
            let (_, pushed) = try await AuditorBinary.sameReport(["run", "rules.yml"], in: scratch.path)
            let input = try #require(AuditorBinary.input(pushed, source: "t"))
            if extra.isEmpty {
                #expect(input["ranIn"] as? String == "spark", "\(input)")
            } else {
                #expect(input["ranIn"] as? String != "spark", "\(input)")
                #expect((input["pushdownRefused"] as? String)?.contains("`auditor_n`") == true, "\(input)")
            }
            #expect(AuditorBinary.violations(pushed).filter { $0.value > 0 } == violations)
        }
    }

    /// The ranges, the repeated keys and the width of the packed counts come from the first
    /// query: a table whose rows changed before the second is an error to run again (75), not a report.
    @Test("a table that changes between the two queries: exit 75, saying so")
    func tableChangedBetweenQueries() async throws {
        let server = try await SparkTestServer.get()
        let client = try SparkConnectClient(server.url, timeout: .seconds(300))
        // A different number of rows in every query that reads it (1 in 200,000 to be the same).
        _ = try await client.sql("CREATE OR REPLACE GLOBAL TEMPORARY VIEW auditor_shifting AS SELECT id, id % 7 AS c FROM range(1, 200001) "
                                 + "WHERE id <= (SELECT CAST(1 + rand() * 200000 AS BIGINT))")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-shifting-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Self.rules(server.url, view: "auditor_shifting", attributes: "      c: { type: integer, max: 5 }\n")
            .write(to: scratch.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let run = try await AuditorBinary.offPool { try AuditorBinary.run(["run", "rules.yml", "--pushdown", "-q"], in: scratch.path) }
        #expect(run.status == 75, "\(run.stdout.suffix(500)) \(run.stderr.suffix(2000))")
        #expect(run.stderr.contains("the table changed during the audit: Spark counted"), "\(run.stderr.suffix(2000))")
    }
}
#endif
