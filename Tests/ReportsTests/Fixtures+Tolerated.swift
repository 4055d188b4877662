import Auditor
import Foundation

extension Fixture {
    /// A run that passes although four rules have violations: two are within their thresholds
    /// (tolerated), one is a warning under `--fail-on error`, one is an info; rules carry
    /// where they are defined, and one skipped records.
    static let tolerated: Fixture = {
        func at(_ line: Int) -> String { "rules/people.yml:\(line):9" }
        let email = [
            finding("person.email.pattern", 1680, .warning, "Person", "email", csv(12, 11), key: "id=11",
                    value: "al@", "Email must look like name@host; got 'al@'."),
            finding("person.email.pattern", 1680, .warning, "Person", "email", csv(40, 39), key: "id=39",
                    value: "=HYPERLINK(\"http://x\")", "Email must look like name@host; got '=HYPERLINK(\"http://x\")'."),
        ]
        let name = [
            finding("person.name.length", 1670, .error, "Person", "name", csv(77, 76), key: "id=76",
                    value: "Al", "Name must be 3 to 32 characters; got 'Al'."),
            finding("person.name.length", 1670, .error, "Person", "name", csv(301, 300), key: "id=300",
                    value: "-5", "Name must be 3 to 32 characters; got '-5'."),
        ]
        let age = [
            finding("person.age.range", 1610, .warning, "Person", "age", csv(19, 18), key: "id=18",
                    value: "151", "Age must be at most 150; got 151."),
        ]
        let note = [
            finding("person.notes.maxLength", 1660, .info, "Person", "notes", csv(19, 18), key: "id=18",
                    value: "+ very long note", "Notes must have at most 10 characters; got 16."),
        ]
        var rules = [
            RuleOutcome(id: "person.id.unique", entity: "Person", source: "people", attribute: "id", kind: "unique",
                        severity: .error, code: 1551, summary: "id is unique", evaluated: 500, violations: 0,
                        samples: [], threshold: Threshold(maxFailures: 0), definedAt: at(14)),
            RuleOutcome(id: "person.name.length", entity: "Person", source: "people", attribute: "name",
                        kind: "minLength+maxLength", severity: .error, code: 1670, summary: "name has 3 to 32 characters",
                        evaluated: 500, violations: 2, samples: name, threshold: Threshold(maxFailureRate: 0.01),
                        definedAt: at(21)),
            RuleOutcome(id: "person.email.pattern", entity: "Person", source: "people", attribute: "email",
                        kind: "pattern", severity: .warning, code: 1680, summary: "email looks like name@host",
                        evaluated: 497, violations: 3, samples: email,
                        threshold: Threshold(maxFailures: 5, maxFailureRate: 0.02), skipped: 3, definedAt: at(27)),
            RuleOutcome(id: "person.age.range", entity: "Person", source: "people", attribute: "age",
                        kind: "max", severity: .warning, code: 1610, summary: "age is at most 150",
                        evaluated: 500, violations: 1, samples: age, definedAt: at(33)),
            RuleOutcome(id: "person.notes.maxLength", entity: "Person", source: "people", attribute: "notes",
                        kind: "maxLength", severity: .info, code: 1660, summary: "notes has at most 10 characters",
                        evaluated: 500, violations: 1, samples: note, definedAt: at(35)),
        ]
        rules.insert(RuleOutcome(id: "csv.row.ragged@people", entity: nil, source: "people", attribute: nil, kind: "structure",
                                 severity: .error, code: 2101, summary: "every record has as many fields as the header",
                                 evaluated: 500, violations: 0, samples: []), at: 0)
        let records = [
            RecordFindings(entity: "Person", location: csv(12, 11), key: "id=11", findings: [email[0]]),
            RecordFindings(entity: "Person", location: csv(19, 18), key: "id=18", findings: [age[0], note[0]]),
            RecordFindings(entity: "Person", location: csv(40, 39), key: "id=39", findings: [email[1]]),
            RecordFindings(entity: "Person", location: csv(77, 76), key: "id=76", findings: [name[0]]),
        ]
        let input = InputSummary(source: "people", path: "people.csv", format: "csv", bytes: 65_536, records: 500,
                                 complete: true, error: nil, seconds: 0.05)
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/people.yml", startedAt: startedAt, durationSeconds: 0.125,
            failOn: .error, maxSamples: 4, inputs: [input], rules: rules,
            entities: [EntityOutcome(name: "Person", source: "people", records: 500, violatingRecords: 6,
                                     violations: 7, ruleIDs: rules.map(\.id))],
            records: records)
        return Fixture(name: "tolerated", report: report)
    }()
}
