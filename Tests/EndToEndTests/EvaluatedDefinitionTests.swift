import Foundation
import Testing

/// The one definition of *evaluated*: a record in the rule's scope with every input present
/// and of the declared type. Property, key and record rules count the same way, so that
/// `maxFailureRate` means the same on each.
@Suite("Evaluated, defined once")
struct EvaluatedDefinitionTests {
    static let rules = """
        version: 1
        sources: { s: { path: s.csv } }
        entities:
          T:
            source: s
            attributes:
              id: { type: integer, required: true }
              x: { type: integer, min: { value: 0, maxFailureRate: 0.1 }, unique: true }
            rules:
              - { id: t.x.record, assert: "x >= 0", maxFailureRate: 0.1 }

        """

    @Test("a property rule, a key rule and a record rule on the same input count the same records", arguments: [1, 7, 42])
    func sameCounts(seed: UInt64) throws {
        var rng = SplitMix(seed)
        var csv = "id,x\n"
        var read = 0, ragged = 0, missing = 0, invalid = 0, negative = 0, distinct = Set<Int>(), duplicates = 0
        for id in 1 ... 300 {
            read += 1
            switch rng.next() % 10 {
            case 0: csv += "\(id)\n"; ragged += 1                          // one field: excluded
            case 1: csv += "\(id),\n"; missing += 1
            case 2: csv += "\(id),abc\n"; invalid += 1
            default:
                let x = Int(rng.next() % 400) - 20
                if x < 0 { negative += 1 }
                if !distinct.insert(x).inserted { duplicates += 1 }
                csv += "\(id),\(x)\n"
            }
        }
        let tmp = try Scratch("evaluated")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules)
        try tmp.write("s.csv", csv)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        func counts(_ id: String) throws -> (evaluated: Int, skipped: Int, violations: Int) {
            let rule = try #require(report.rules(withID: id).first, "\(id)")
            return (try #require(integer(rule["evaluated"])), try #require(integer(rule["skipped"])),
                    try #require(integer(rule["violations"])))
        }
        let valid = read - ragged - missing - invalid
        let min = try counts("T.x.min"), record = try counts("t.x.record"), unique = try counts("T.x.unique")
        #expect(min.evaluated == valid && min.skipped == ragged + missing + invalid && min.violations == negative)
        #expect(record.evaluated == min.evaluated && record.skipped == min.skipped && record.violations == min.violations)
        #expect(unique.evaluated == valid && unique.skipped == min.skipped && unique.violations == duplicates)
        // required evaluates every record that was read whole; type every present value.
        let required = try counts("T.id.required"), type = try counts("T.x.type")
        #expect(required.evaluated == read - ragged && required.skipped == ragged)
        #expect(type.evaluated == read - ragged - missing && type.violations == invalid)
        // The same rate, hence the same threshold verdict, on both kinds.
        let statuses = try ["T.x.min", "t.x.record"].map { try #require(report.rules(withID: $0).first?["status"] as? String) }
        #expect(statuses[0] == statuses[1])
    }

    /// A small deterministic generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
