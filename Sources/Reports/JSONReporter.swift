import Auditor

/// The `json` report: the whole ``AuditReport`` as one JSON document described by
/// `schemas/report.schema.json` (version ``JSONReporter/schemaVersion``).
///
/// Hand-written rather than `JSONEncoder` so that the key order is fixed (the order below,
/// not alphabetical), integers stay integers, rates and durations are decimals in fixed
/// notation, and string escaping is exactly specified (``JSONWriter/quoted(_:htmlSafe:)``).
/// Absent values are `null`, never missing keys. Top level:
/// `schemaVersion, tool, rulesFile, startedAt, durationSeconds, summary, inputs, rules,
/// entities, records`. `rules` is a flat array whose elements always carry `id`, `entity`,
/// `severity`, `code` and `violations`: external checkers read it, keep it that way.
public struct JSONReporter: Reporter {
    /// The version of `schemas/report.schema.json` this reporter writes.
    ///
    /// 1.1 adds, and only adds, rule `status`, `threshold`, `skipped` and `definedAt`, input
    /// `errorStatus`, and summary `exitStatus` and `toleratedRules` (the schema promises that a
    /// minor version only adds; a strict 1.0 validator with `additionalProperties: false` would
    /// reject the new keys, so the number must change). Kept here, next to the writer, rather
    /// than read from ``AuditReport/schemaVersion`` so that the schema, this writer and their
    /// tests move together.
    public static let schemaVersion = "1.1"

    /// Always `json`.
    public var format: String { "json" }
    /// Also escape `<`, `>` and `&` as `\u003c` `\u003e` `\u0026`, so the document can be
    /// embedded in an HTML `<script type="application/json">` element (CONVENTIONS rule 8).
    /// The parsed values are the same either way.
    public var htmlSafe: Bool

    /// Creates a JSON reporter.
    /// - Parameter htmlSafe: Escape `<`, `>` and `&` for embedding in HTML.
    public init(htmlSafe: Bool = false) {
        self.htmlSafe = htmlSafe
    }

    /// Renders the report as a pretty-printed JSON document ending with a newline.
    public func render(_ report: AuditReport) -> String {
        JSONWriter(htmlSafe: htmlSafe).write(Self.document(report))
    }

    /// The report as a JSON value, members in schema order.
    static func document(_ report: AuditReport) -> JSONValue {
        .object([
            "schemaVersion": .string(schemaVersion),
            "tool": .object(["name": .string("auditor"), "version": .string(report.toolVersion)]),
            "rulesFile": .string(report.rulesFile),
            "startedAt": .string(NumberText.iso8601(report.startedAt)),
            "durationSeconds": .decimal(report.durationSeconds),
            "summary": summary(report),
            "inputs": .array(report.inputs.map(input)),
            "rules": .array(report.rules.map(rule)),
            "entities": .array(report.entities.map(entity)),
            "records": .array(report.records.map(record)),
        ])
    }

    static func summary(_ report: AuditReport) -> JSONValue {
        .object([
            "outcome": .string(report.outcome.rawValue),
            "exitStatus": .integer(report.exitStatus.rawValue),
            "failOn": .string(report.failOn.rawValue),
            "records": .integer(report.totalRecords),
            "rules": .integer(report.rules.count),
            "violatedRules": .integer(report.violatedRules.count),
            "toleratedRules": .integer(report.toleratedRules.count),
            "failingRules": .integer(report.failingRules.count),
            "violations": .integer(report.rules.reduce(0) { $0 + $1.violations }),
            "complete": .bool(report.complete),
            "maxSamples": .integer(report.maxSamples),
        ])
    }

    static func input(_ input: InputSummary) -> JSONValue {
        .object([
            "source": .string(input.source),
            "path": .string(input.path),
            "format": .string(input.format),
            "bytes": .integer(input.bytes),
            "records": .integer(input.records),
            "complete": .bool(input.complete),
            "error": .string(input.error),
            "errorStatus": .integer(input.errorStatus?.rawValue),
            "seconds": .decimal(input.seconds),
        ])
    }

    static func rule(_ rule: RuleOutcome) -> JSONValue {
        .object([
            "id": .string(rule.id),
            "entity": .string(rule.entity),
            "source": .string(rule.source),
            "attribute": .string(rule.attribute),
            "kind": .string(rule.kind),
            "severity": .string(rule.severity.rawValue),
            "code": .integer(rule.code),
            "summary": .string(rule.summary),
            "status": .string(rule.status.rawValue),
            "evaluated": .integer(rule.evaluated),
            "violations": .integer(rule.violations),
            "rate": .decimal(rule.rate),
            "threshold": threshold(rule.threshold),
            "skipped": .integer(rule.skipped),
            "definedAt": .string(rule.definedAt),
            "sampled": .bool(rule.sampled),
            "samples": .array(rule.samples.map(finding)),
        ])
    }

    /// `{maxFailures, maxFailureRate}`, each null when not set (both null: every violation fails).
    static func threshold(_ threshold: Threshold) -> JSONValue {
        .object([
            "maxFailures": .integer(threshold.maxFailures),
            "maxFailureRate": threshold.maxFailureRate.map(JSONValue.decimal) ?? .null,
        ])
    }

    static func entity(_ entity: EntityOutcome) -> JSONValue {
        .object([
            "name": .string(entity.name),
            "source": .string(entity.source),
            "records": .integer(entity.records),
            "violatingRecords": .integer(entity.violatingRecords),
            "violations": .integer(entity.violations),
            "rules": .array(entity.ruleIDs.map { .string($0) }),
        ])
    }

    static func record(_ record: RecordFindings) -> JSONValue {
        .object([
            "entity": .string(record.entity),
            "location": location(record.location),
            "key": .string(record.key),
            "findings": .array(record.findings.map(finding)),
        ])
    }

    static func finding(_ finding: Finding) -> JSONValue {
        .object([
            "rule": .string(finding.ruleID),
            "code": .integer(finding.code),
            "severity": .string(finding.severity.rawValue),
            "entity": .string(finding.entity),
            "attribute": .string(finding.attribute),
            "location": location(finding.location),
            "key": .string(finding.key),
            "value": .string(finding.value),
            "message": .string(finding.message),
        ])
    }

    static func location(_ location: RecordLocation) -> JSONValue {
        .object([
            "path": .string(location.path),
            "line": .integer(location.line),
            "table": .string(location.table),
            "rowid": .integer(location.rowid),
            "record": .integer(location.record),
            "text": .string(location.description),
        ])
    }
}
