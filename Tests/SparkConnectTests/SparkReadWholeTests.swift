#if Spark
import Foundation
@testable import AuditorReaders
import Testing

/// `readWholeBelow:`: a pushed-down audit reads a table that Spark estimates smaller whole, in
/// one query, and checks it in the process; Spark's estimate comes from `EXPLAIN COST`.
struct SparkReadWholeTests {
    /// The optimized logical plan's top node, as Spark 4.0 writes `EXPLAIN COST` (the parsed and
    /// analyzed plans before it, the physical plan after).
    static func explained(_ top: String, below: String = "+- Relation t[id#1,name#2] csv, Statistics(sizeInBytes=9.8 MiB)") -> String {
        "== Parsed Logical Plan ==\n'Project ['id, 'name]\n+- 'UnresolvedRelation [t], [], false\n\n"
            + "== Analyzed Logical Plan ==\nid: string, name: string\nProject [id#1, name#2]\n\n"
            + "== Optimized Logical Plan ==\n\(top)\n\(below)\n\n"
            + "== Physical Plan ==\nFileScan csv t[id#1,name#2] Batched: false, Statistics(sizeInBytes=1.0 B)\n"
    }

    @Test(arguments: [
        ("Project [id#1, name#2], Statistics(sizeInBytes=2.1 MiB)", 2.1 * 1_048_576, "2.1 MiB"),
        ("Relation spark_catalog.default.departments[id#2,name#3] csv, Statistics(sizeInBytes=397.0 B)", 397, "397.0 B"),
        ("Range (0, 10, step=1), Statistics(sizeInBytes=80.0 B, rowCount=10)", 80, "80.0 B"),
        ("Project [id#1], Statistics(sizeInBytes=1023.9 KiB)", 1023.9 * 1024, "1023.9 KiB"),
        ("LogicalRDD [id#1], false, Statistics(sizeInBytes=8.0 EiB)", 8 * 1_152_921_504_606_846_976, "8.0 EiB"),
        ("Join Cross, Statistics(sizeInBytes=1.23E+30 B)", 1.23e30, "1.23E+30 B"),
    ] as [(String, Double, String)])
    func estimate(_ top: String, bytes: Double, shown: String) throws {
        let got = try #require(SparkReadPlan.estimatedBytes(explained: Self.explained(top)))
        #expect(got.bytes == bytes)
        #expect(got.shown == shown)
    }

    /// Without a size written as Spark writes one on the top node, there is no estimate (and the
    /// rules are pushed down): not the size of a node below it, nor of the physical plan.
    @Test(arguments: [
        explained("Project [id#1, name#2]"),
        explained("Project [id#1], Statistics(sizeInBytes=12.0 XB)"),
        explained("Project [id#1], Statistics(sizeInBytes=NaN B)"),
        explained("Project [id#1], Statistics(sizeInBytes=-1.0 B)"),
        explained("Project [id#1], Statistics(sizeInBytes=2.1MiB)"),
        "Project [id#1], Statistics(sizeInBytes=2.1 MiB)",
        "",
    ])
    func noEstimate(_ text: String) {
        #expect(SparkReadPlan.estimatedBytes(explained: text) == nil)
    }

    /// 20,000 people (2.4 MiB by Spark's estimate) and 25 departments: each table on each side of
    /// its `readWholeBelow:`, pushed down with the same report as streaming, and a table read
    /// whole is read once: no read of its keys alone first, no query of ranges.
    @Test("a table Spark estimates under readWholeBelow: is read whole in one query, the others pushed down; the same report",
          .enabled(if: SparkTestServer.available, SparkTestServer.skipReason))
    func smallTablesReadWhole() async throws {
        let data = try await SparkSourceTests.bench.value.get()
        let server = try await SparkTestServer.get()
        let expected = try SparkSourceTests.expected(data)
        for (people, peopleWhole) in [("1M", false), ("3M", true)] {
            let rules = try SparkSourceTests.rules(data, people: people, departments: nil)
            let arguments = ["run", rules, "--source", "people=\(server.url)", "--source", "departments=\(server.url)", "--format", "json"]
            let (streamed, pushed) = try await AuditorBinary.offPool {
                (try AuditorBinary.run(arguments), try AuditorBinary.run(arguments + ["--pushdown"], environment: ["AUDITOR_DEBUG_SQL": "1"]))
            }
            let a = try AuditorBinary.json(streamed), b = try AuditorBinary.json(pushed)
            #expect(try JSONSerialization.data(withJSONObject: AuditorBinary.comparable(a), options: [.sortedKeys])
                        == JSONSerialization.data(withJSONObject: AuditorBinary.comparable(b), options: [.sortedKeys]), "readWholeBelow: \(people)")
            let got = AuditorBinary.violations(b)
            for (id, want) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(got[id] == want, "\(id): expected \(want), the report says \(got[id].map(String.init) ?? "nothing")")
            }
            let departments = try #require(AuditorBinary.input(b, source: "departments"))
            #expect(departments["ranIn"] == nil, "\(departments)")
            let reason = departments["pushdownRefused"] as? String ?? ""
            #expect(reason.hasPrefix("Spark estimates the read at ") && reason.contains(" B, under readWholeBelow: (10 MiB); one query"), "\(reason)")
            let person = try #require(AuditorBinary.input(b, source: "people"))
            if peopleWhole {
                #expect(person["ranIn"] == nil && (person["pushdownRefused"] as? String)?.contains("2.4 MiB, under readWholeBelow: (3 MiB)") == true,
                        "\(person)")
            } else {
                #expect(person["ranIn"] as? String == "spark" && person["pushdownRefused"] == nil, "\(person)")
            }
            // Besides the schema (`LIMIT 0`, once per reader opened), one query.
            let reads = pushed.stderr.split(separator: "\n").filter { $0.hasPrefix("SELECT ") && $0.contains("`bench_departments`") }
                .filter { !$0.hasSuffix(" LIMIT 0") }
            #expect(reads.count == 1 && reads[0].hasPrefix("SELECT /*+ COALESCE(1) */ `id`, `name` FROM `bench_departments` ORDER BY"),
                    "\(reads)")
        }
    }
}
#endif
