import Auditor

/// `auditor history PATH --format json`: the runs shown and every rule over them, for scripts
/// and dashboards. Members keep a fixed order; `null` marks a value the run did not have.
///
/// ```json
/// { "history": "audits.sqlite", "totalRuns": 3,
///   "runs": [ { "id": 2, "startedAt": "…", "outcome": "failed", "records": 4, "violations": 2,
///               "newFindings": 1, "resolvedFindings": 2, "baseline": "history run 1 (…)",
///               "inputs": [ { "source": "people", "path": "…", "sha256": "…", … } ], … } ],
///   "rules": [ { "id": "P.name.minLength", "counts": [2, 9], "median": 2, "latest": 9, "jumped": true,
///                "points": [ { "run": 2, "violations": 2, "new": 1, "existing": 1, "resolved": 2, … } ] } ] }
/// ```
package struct HistoryJSON: Sendable {
    public init() {}

    public func render(_ history: HistoryOverview) -> String {
        JSONWriter().write(.object([
            "history": .string(history.path),
            "totalRuns": .integer(history.totalRuns),
            "runs": .array(history.runs.map(Self.run)),
            "rules": .array(history.rules.map(Self.rule)),
        ]))
    }

    static func run(_ r: HistoryRun) -> JSONValue {
        .object([
            "id": .integer(r.id),
            "startedAt": .string(r.startedAt),
            "durationSeconds": .decimal(r.durationSeconds),
            "toolVersion": .string(r.toolVersion),
            "rulesFile": .string(r.rulesFile),
            "rulesSHA256": .string(r.rulesSHA256),
            "outcome": .string(r.outcome),
            "exitStatus": .integer(r.exitStatus),
            "failOn": .string(r.failOn),
            "records": .integer(r.records),
            "violations": .integer(r.violations),
            "newFindings": .integer(r.newFindings),
            "resolvedFindings": .integer(r.resolvedFindings),
            "baseline": .string(r.baselineSource),
            "inputs": .array(r.inputs.map { i in
                .object([
                    "source": .string(i.source),
                    "path": .string(i.path),
                    "format": .string(i.format),
                    "bytes": .integer(i.bytes),
                    "sha256": .string(i.sha256),
                    "records": .integer(i.records),
                    "complete": .bool(i.complete),
                ])
            }),
        ])
    }

    static func rule(_ r: RuleHistory) -> JSONValue {
        .object([
            "id": .string(r.id),
            "source": .string(r.source),
            "entity": .string(r.entity),
            "severity": .string(r.severity),
            "code": .integer(r.code),
            "counts": .array(r.counts.map { .integer($0) }),
            "median": r.median.map(JSONValue.decimal) ?? .null,
            "latest": .integer(r.latest),
            "jumped": .bool(r.jumped),
            "points": .array(r.points.map { p in
                .object([
                    "run": .integer(p.run),
                    "evaluated": .integer(p.evaluated),
                    "violations": .integer(p.violations),
                    "skipped": .integer(p.skipped),
                    "status": .string(p.status),
                    "new": .integer(p.baseline?.new),
                    "existing": .integer(p.baseline?.existing),
                    "resolved": .integer(p.baseline?.resolved),
                    "median": p.median.map(JSONValue.decimal) ?? .null,
                    "jumped": .bool(p.jumped),
                ])
            }),
        ])
    }
}
