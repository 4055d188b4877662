import Auditor
import Foundation
import Testing

/// Hand-built reports for the golden tests: a clean pass, a failing run over two entities, an
/// incomplete read, hostile data, and a run against a baseline with trends. Counts are consistent with each other (violations sum,
/// sampled rules, per-record groups) so the JSON round-trip tests can check them.
struct Fixture: CustomTestStringConvertible, Sendable {
    /// The golden files' base name.
    let name: String
    let report: AuditReport

    var testDescription: String { name }

    static let all = [passing, failing, incomplete, hostile, tolerated, xss, baseline, unevaluated]

    /// 2026-11-20T02:00:00.000Z: fixed so goldens are stable.
    static let startedAt = Date(timeIntervalSince1970: 1_795_140_000)

    // MARK: Builders

    static func csv(_ line: Int, _ record: Int) -> RecordLocation {
        RecordLocation(path: "people.csv", line: line, record: record)
    }

    static func sqlite(_ rowid: Int64, _ record: Int) -> RecordLocation {
        RecordLocation(path: "orders.sqlite", locator: .key(container: "orders", name: "rowid", value: rowid), record: record)
    }

    static func finding(_ rule: String, _ code: Int, _ severity: Severity, _ entity: String?,
                        _ attribute: String?, _ location: RecordLocation, key: String?, value: String?,
                        _ message: String) -> Finding {
        Finding(ruleID: rule, code: code, severity: severity, entity: entity, attribute: attribute,
                location: location, key: key, value: value, message: message)
    }

    static func rule(_ id: String, _ entity: String?, _ source: String, _ attribute: String?, _ kind: String,
                     _ severity: Severity, _ code: Int, _ summary: String, evaluated: Int,
                     violations: Int = 0, samples: [Finding] = []) -> RuleOutcome {
        RuleOutcome(id: id, entity: entity, source: source, attribute: attribute, kind: kind,
                    severity: severity, code: code, summary: summary, evaluated: evaluated,
                    violations: violations, samples: samples)
    }

    static let peopleInput = InputSummary(source: "people", path: "people.csv", format: "csv",
                                          bytes: 1_258_291, records: 2000, complete: true,
                                          error: nil, seconds: 0.412345678)

    // MARK: Passing

    static let passing: Fixture = {
        let rules = [
            rule("person.id.required", "Person", "people", "id", "required", .error, 1570,
                 "id is present", evaluated: 2000),
            rule("person.id.unique", "Person", "people", "id", "unique", .error, 1551,
                 "id is unique", evaluated: 2000),
            rule("person.name.length", "Person", "people", "name", "minLength+maxLength", .error, 1670,
                 "name has 3 to 32 characters", evaluated: 2000),
            rule("person.email.pattern", "Person", "people", "email", "pattern", .warning, 1680,
                 "email looks like name@host", evaluated: 1988),
            rule("person.age.range", "Person", "people", "age", "minimum+maximum", .warning, 1610,
                 "age is from 0 to 150", evaluated: 2000),
            rule("person.birthdate.type", "Person", "people", "birthdate", "type", .error, 2001,
                 "birthdate is a date", evaluated: 2000),
        ]
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/people.yml", startedAt: startedAt, durationSeconds: 0.5,
            failOn: .error, maxSamples: 5, inputs: [peopleInput], rules: rules,
            entities: [EntityOutcome(name: "Person", source: "people", records: 2000, violatingRecords: 0,
                                     violations: 0, ruleIDs: rules.map(\.id))],
            records: [])
        return Fixture(name: "passing", report: report)
    }()
}
