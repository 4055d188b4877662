import Auditor
import Foundation

extension Fixture {
    /// Rules that evaluated no record: Person's foreign key (its target could not be checked)
    /// among passing rules, and every rule of Department, whose input was read and is empty.
    /// Nothing failed, so the run exits 0, but three rules did not pass.
    static let unevaluated: Fixture = {
        let departments = InputSummary(source: "departments", path: "departments.csv", format: "csv", bytes: 8,
                                       records: 0, complete: true, error: nil, seconds: 0.001)
        let person = [
            rule("person.id.required", "Person", "people", "id", "required", .error, 1570, "id is present", evaluated: 2000),
            rule("person.dept_id.fk", "Person", "people", "dept_id", "references", .error, 2030,
                 "dept_id references an existing Department.id", evaluated: 0),
        ]
        let department = [
            rule("csv.row.ragged@departments", nil, "departments", nil, "structure", .error, 2101,
                 "every record has as many fields as the header", evaluated: 0),
            rule("department.id.required", "Department", "departments", "id", "required", .error, 1570,
                 "id is present", evaluated: 0),
        ]
        let report = AuditReport(
            toolVersion: "0.1.0", rulesFile: "rules/people.yml", startedAt: startedAt, durationSeconds: 0.5,
            failOn: .error, maxSamples: 5, inputs: [peopleInput, departments], rules: person + department,
            entities: [
                EntityOutcome(name: "Person", source: "people", records: 2000, violatingRecords: 0, violations: 0,
                              ruleIDs: person.map(\.id)),
                EntityOutcome(name: "Department", source: "departments", records: 0, violatingRecords: 0, violations: 0,
                              ruleIDs: department.map(\.id)),
            ],
            records: [])
        return Fixture(name: "unevaluated", report: report)
    }()
}
