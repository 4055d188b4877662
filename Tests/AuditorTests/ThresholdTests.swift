import Auditor
import Testing

@Suite struct ThresholdTests {
    let yaml = """
        version: 1
        sources: { s: { path: x.mem } }
        entities:
          E:
            maxFailureRate: 0.5
            attributes:
              a: { type: integer, maxFailures: 1 }
              b: { type: integer }
              c: { type: integer, min: { value: 0, maxFailures: 5, maxFailureRate: 0.2, severity: warning } }
        """
    let rows: [[String?]] = [["x", "y", "-1"], ["1", "z", "-2"], ["2", "3", "4"], ["y", "4", "5"]]

    @Test func statusesFollowThresholdsWithEntityDefaults() throws {
        let r = try audit(yaml, fields: ["a", "b", "c"], rows: rows)
        let status = Dictionary(uniqueKeysWithValues: r.report.rules.map { ($0.id, $0.status) })
        #expect(status["E.a.type"] == .violated)      // 2 > maxFailures 1 (rate 0.5 alone would tolerate)
        #expect(status["E.b.type"] == .tolerated)     // 2 of 4 = 0.5, entity default maxFailureRate 0.5
        #expect(status["E.c.min"] == .violated)       // 2 of 4 = 0.5 > 0.2
        #expect(status["E.c.type"] == .passed)
        #expect(r.report.failingRules.map(\.id) == ["E.a.type"])   // warnings do not fail under --fail-on error
        #expect(r.exitStatus == .ruleFailures)
        let threshold = try #require(r.report.rules.first { $0.id == "E.c.min" }?.threshold)
        #expect(threshold == Threshold(maxFailures: 5, maxFailureRate: 0.2))
        #expect(threshold.description == "at most 5 failures and at most 20% of records")
        #expect(r.report.rules.first { $0.id == "E.c.min" }?.definedAt == "rules.yml:9:27")
    }

    @Test func badThresholdsAreLocated() {
        let bad = yaml.replacingOccurrences(of: "maxFailureRate: 0.5", with: "maxFailureRate: 50")
        #expect {
            try audit(bad, fields: ["a", "b", "c"], rows: rows)
        } throws: { error in
            (error as? AuditError)?.description == "rules.yml:5:21: maxFailureRate is a fraction between 0 and 1 (0.01 = 1%); got '50'"
        }
    }

    final class Collector: FindingSink, @unchecked Sendable {
        // @unchecked: the engine calls receive/finish from one thread, one call at a time (FindingSink's contract).
        var records: [RecordFindings] = []
        var finished = false
        func receive(_ record: RecordFindings) throws { records.append(record) }
        func finish() throws { finished = true }
    }

    @Test func sinkReceivesEveryViolatingRecordInOrder() throws {
        let sink = Collector()
        let registry = ReaderRegistry([InMemoryReader.factory(fields: ["a", "b", "c"], rows: Array(repeating: rows, count: 30).flatMap { $0 })])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: 2, chunkSize: 5, maxSamples: 2, findingSink: sink)).run(plan)
        #expect(sink.finished)
        // Three of every four records violate something (the third row is clean).
        let expected = (0 ..< 120).filter { $0 % 4 != 2 }.map { Optional($0 + 2) }
        #expect(sink.records.map { $0.location.line } == expected)
        #expect(result.report.records.count == 2)   // the report itself stays capped
        #expect(sink.records[0].findings.map(\.ruleID) == ["E.a.type", "E.b.type", "E.c.min"])
    }
}
