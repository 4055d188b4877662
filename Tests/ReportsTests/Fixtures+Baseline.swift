import Auditor
import Foundation

extension Fixture {
    /// A run gated with `--baseline out/baseline.json --fail-on-new` and recorded as history run
    /// 12: one error rule with new findings (fails the run) whose count jumped well above its
    /// recent median, one error rule with only existing findings (does not fail under
    /// `--fail-on-new`), a warning whose findings are all existing, a rule fixed since the
    /// baseline (resolved findings, no violation now), a rule of the baseline that no longer
    /// exists, and trends over the last runs.
    ///
    /// Fingerprints and `new` flags are not written by hand: the findings get real fingerprints
    /// (``FingerprintCounter``), the previous run's set is built from them, and
    /// ``AuditReport/applyBaseline(_:source:)`` classifies, exactly as the CLI does.
    static let baseline: Fixture = {
        /// One rule as the fixture wants it: `samples` with whether each is new, the total
        /// violations, how many are new and how many baseline findings are resolved.
        struct Plan {
            var rule: RuleOutcome
            var newSamples: [Bool]
            var new: Int
            var resolved: Int
            var trend: [Int]
        }
        func at(_ line: Int) -> String { "rules/people.yml:\(line):9" }
        var counter = FingerprintCounter()
        func stamped(_ f: Finding) -> Finding {
            var f = f
            // The engine hashes a structural rule's bare id (fingerprints predate `@source`).
            f.fingerprint = counter.next(f, ruleID: f.entity == nil ? StructuralRuleID.readerID(f.ruleID, source: "people") : nil)
            return f
        }
        let name = [
            stamped(finding("person.name.length", 1670, .error, "Person", "name", csv(77, 76), key: "id=76",
                            value: "Al", "Name must be 3 to 32 characters; got 'Al'.")),
            stamped(finding("person.name.length", 1670, .error, "Person", "name", csv(301, 300), key: "id=300",
                            value: "Jo", "Name must be 3 to 32 characters; got 'Jo'.")),
            stamped(finding("person.name.length", 1670, .error, "Person", "name", csv(413, 412), key: "id=412",
                            value: "", "Name must be 3 to 32 characters; got ''.")),
        ]
        let email = [
            stamped(finding("person.email.pattern", 1680, .warning, "Person", "email", csv(12, 11), key: "id=11",
                            value: "al@", "Email must look like name@host; got 'al@'.")),
            stamped(finding("person.email.pattern", 1680, .warning, "Person", "email", csv(301, 300), key: "id=300",
                            value: "jo.example.com", "Email must look like name@host.")),
        ]
        let ragged = [
            stamped(finding("csv.row.ragged@people", 2101, .error, nil, nil, csv(58, 57), key: nil, value: "7 fields",
                            "Row has 7 fields but the header has 6; check the quoting near 'Smith, Jr'.")),
        ]
        var plans = [
            Plan(rule: RuleOutcome(id: "csv.row.ragged@people", entity: nil, source: "people", attribute: nil, kind: "structure",
                                   severity: .error, code: 2101, summary: "every row has as many fields as the header",
                                   evaluated: 500, violations: 2, samples: ragged),
                 newSamples: [false], new: 0, resolved: 0, trend: [2, 2, 2, 2, 2, 2, 2, 2]),
            Plan(rule: RuleOutcome(id: "person.id.unique", entity: "Person", source: "people", attribute: "id",
                                   kind: "unique", severity: .error, code: 1551, summary: "id is unique", evaluated: 500,
                                   violations: 0, samples: [], definedAt: at(14)),
                 newSamples: [], new: 0, resolved: 3, trend: [3, 3, 3, 3, 3, 3, 3, 0]),
            Plan(rule: RuleOutcome(id: "person.name.length", entity: "Person", source: "people", attribute: "name",
                                   kind: "minLength+maxLength", severity: .error, code: 1670,
                                   summary: "name has 3 to 32 characters", evaluated: 500, violations: 12, samples: name,
                                   definedAt: at(21)),
                 newSamples: [false, true, true], new: 5, resolved: 1, trend: [5, 4, 5, 5, 6, 5, 4, 12]),
            Plan(rule: RuleOutcome(id: "person.email.pattern", entity: "Person", source: "people", attribute: "email",
                                   kind: "pattern", severity: .warning, code: 1680, summary: "email looks like name@host",
                                   evaluated: 497, violations: 9, samples: email, definedAt: at(27)),
                 newSamples: [false, false], new: 0, resolved: 2, trend: [14, 12, 12, 11, 11, 10, 11, 9]),
            Plan(rule: RuleOutcome(id: "person.age.range", entity: "Person", source: "people", attribute: "age",
                                   kind: "minimum+maximum", severity: .warning, code: 1610, summary: "age is from 0 to 150",
                                   evaluated: 500, violations: 0, samples: [], definedAt: at(33)),
                 newSamples: [], new: 0, resolved: 0, trend: [0, 0, 0, 0, 0, 0, 0, 0]),
        ]

        // This run's fingerprints: the samples', then made-up ones for the violations not sampled;
        // the baseline's: the existing ones, plus made-up ones for what was resolved, plus a rule
        // that no longer exists.
        var current: [String: [UInt64]] = [:]
        var previous: [String: [UInt64]] = ["person.nickname.pattern": [Fingerprint.make(base: 0xBA5E, occurrence: 0)]]
        for (p, plan) in plans.enumerated() {
            let id = plan.rule.fingerprintKey
            let unsampled = (0 ..< plan.rule.violations - plan.rule.samples.count).map {
                Fingerprint.make(base: 0x9E37_79B9_7F4A_7C15 &* UInt64(p + 1), occurrence: $0)
            }
            let newUnsampled = plan.new - plan.newSamples.filter { $0 }.count
            current[id] = plan.rule.samples.compactMap(\.fingerprint) + unsampled
            previous[id] = zip(plan.rule.samples, plan.newSamples).filter { !$0.1 }.compactMap(\.0.fingerprint)
                + unsampled.dropFirst(newUnsampled)
                + (0 ..< plan.resolved).map { Fingerprint.make(base: 0xC2B2_AE3D_27D4_EB4F &* UInt64(p + 1), occurrence: $0) }
            plans[p].rule.trend = RuleTrend.evaluate(previous: Array(plan.trend.dropLast()), current: plan.rule.violations)
        }
        let rules = plans.map(\.rule)
        let records = [
            RecordFindings(entity: "Person", location: csv(12, 11), key: "id=11", findings: [email[0]]),
            RecordFindings(entity: "Person", location: csv(77, 76), key: "id=76", findings: [name[0]]),
            RecordFindings(entity: "Person", location: csv(301, 300), key: "id=300", findings: [name[1], email[1]]),
        ]
        let input = InputSummary(source: "people", path: "people.csv", format: "csv", bytes: 65_536, records: 500,
                                 complete: true, error: nil, seconds: 0.05)
        var report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/people.yml", startedAt: startedAt, durationSeconds: 0.25,
            failOn: .error, maxSamples: 3, inputs: [input], rules: rules,
            entities: [EntityOutcome(name: "Person", source: "people", records: 500, violatingRecords: 20,
                                     violations: 23, ruleIDs: rules.map(\.id))],
            records: records)
        report.fingerprints = FingerprintSet(byRule: current)
        report.applyBaseline(FingerprintSet(byRule: previous), source: "out/baseline.json")
        report.failOnNew = true
        report.historyRun = 12
        return Fixture(name: "baseline", report: report)
    }()
}
