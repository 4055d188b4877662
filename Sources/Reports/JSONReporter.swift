import Auditor

/// The `json` report: the whole ``AuditReport`` as one JSON document described by
/// `schemas/report.schema.json` (version ``JSONReporter/schemaVersion``).
///
/// Hand-written rather than `JSONEncoder` so that the key order is fixed (the order below,
/// not alphabetical), integers stay integers, rates and durations are decimals in fixed
/// notation, and string escaping is exactly specified (``JSONWriter/quoted(_:htmlSafe:)``).
/// Absent values are `null`, never missing keys. Top level:
/// `schemaVersion, tool, rulesFile, startedAt, durationSeconds, historyRun, summary, baseline,
/// inputs, rules, entities, records, fingerprints`. `rules` is a flat array whose elements
/// always carry `id`, `entity`, `severity`, `code` and `violations`: external checkers read it,
/// keep it that way. `fingerprints` lists every finding's fingerprint (not only the samples'),
/// so any JSON report can be the next run's `--baseline` (``BaselineFile``).
public struct JSONReporter: Reporter {
    /// The version of `schemas/report.schema.json` this reporter writes.
    ///
    /// 2.0 makes locations source-neutral (issue 14): a location is `path`, `locator`, `record`
    /// and `text`, where `locator` is `{"kind": "line", "line"}` (CSV), `{"kind": "element",
    /// "element", "line"}` (XML), `{"kind": "key", "container", "key", "value"}` (an SQLite
    /// table and rowid, a Core Data entity and `Z_PK`) or null; the 1.x `line`, `table` and
    /// `rowid` (null where they did not apply) are gone. Nothing else changed: a 1.x report
    /// is still a `--baseline` (``BaselineFile`` reads fingerprints, which never held a location).
    ///
    /// 1.3 added, and only added, rule `codes` (every code of the rule, `code` first), rule
    /// `suppressed` (violations that a root-cause finding stands for) and record `code` (1560 for
    /// a record with several findings, else its finding's code).
    ///
    /// 1.2 added, and only added, finding `fingerprint` and `new`, rule `baseline` and `trend`,
    /// summary `failOnNew`, and top-level `historyRun`, `baseline` and `fingerprints` (each
    /// `null` when the run had no fingerprints, baseline or history).
    ///
    /// 1.1 added, and only added, rule `status`, `threshold`, `skipped` and `definedAt`, input
    /// `errorStatus`, and summary `exitStatus` and `toleratedRules` (the schema promises that a
    /// minor version only adds; a strict 1.0 validator with `additionalProperties: false` would
    /// reject the new keys, so the number must change). Kept here, next to the writer, rather
    /// than read from ``AuditReport/schemaVersion`` so that the schema, this writer and their
    /// tests move together.
    public static let schemaVersion = "2.0"

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

    /// The same document, handed to `sink` about 64 KiB at a time (``ReportPublisher``).
    package func write(_ report: AuditReport, to sink: (UnsafeRawBufferPointer) throws(AuditError) -> Void) throws(AuditError) {
        try JSONWriter(htmlSafe: htmlSafe).write(Self.document(report), to: sink)
    }

    /// The report as a JSON value, members in schema order.
    /// - Parameters:
    ///   - report: The report.
    ///   - fingerprints: Write the top-level `fingerprints` list (`null` when false). The HTML
    ///     page leaves it out: its script never reads it, and it grows with every finding.
    ///   - samples: Each rule's `samples` (by the rule's index in `report.rules`); nil: its
    ///     findings, as the schema says. The HTML page's island writes a range of its own
    ///     findings table instead (``HTMLIsland``).
    ///   - records: The `records` member; nil: every record with its findings, as the schema says.
    static func document(_ report: AuditReport, fingerprints: Bool = true,
                         samples: ((Int) -> JSONValue)? = nil, records: JSONValue? = nil) -> JSONValue {
        .object([
            "schemaVersion": .string(schemaVersion),
            "tool": .object(["name": .string("auditor"), "version": .string(report.toolVersion)]),
            "rulesFile": .string(report.rulesFile),
            "startedAt": .string(NumberText.iso8601(report.startedAt)),
            "durationSeconds": .decimal(report.durationSeconds),
            "historyRun": .integer(report.historyRun),
            "summary": summary(report),
            "baseline": report.baseline.map(baseline) ?? .null,
            "inputs": .array(report.inputs.map(input)),
            "rules": .array(report.rules.enumerated().map { rule($1, samples: samples?($0)) }),
            "entities": .array(report.entities.map(entity)),
            "records": records ?? .array(report.records.map(record)),
            "fingerprints": fingerprints ? (report.fingerprints.map { fingerprintList($0, report) } ?? .null) : .null,
        ])
    }

    /// `{source, new, existing, resolved, missingRules}`: the whole run against its baseline.
    static func baseline(_ info: BaselineInfo) -> JSONValue {
        .object([
            "source": .string(info.source),
            "new": .integer(info.newFindings),
            "existing": .integer(info.existingFindings),
            "resolved": .integer(info.resolvedFindings),
            "missingRules": .array(info.missingRules.map { .string($0) }),
        ])
    }

    /// `{"<rule id>": ["<16 hex digits>", ...]}`: the report's rules in report order, then any
    /// other rule of the set in id order; each list ascending (as ``FingerprintSet`` keeps it).
    static func fingerprintList(_ set: FingerprintSet, _ report: AuditReport) -> JSONValue {
        var ids: [String] = []
        var seen = Set<String>()
        for rule in report.rules where set.byRule[rule.fingerprintKey] != nil && seen.insert(rule.fingerprintKey).inserted {
            ids.append(rule.fingerprintKey)
        }
        ids += set.byRule.keys.filter { !seen.contains($0) }.sorted()
        return .object(ids.map { id in
            JSONValue.Member(key: id, value: .fingerprints(set.byRule[id] ?? []))
        })
    }

    static func summary(_ report: AuditReport) -> JSONValue {
        .object([
            "outcome": .string(report.outcome.rawValue),
            "exitStatus": .integer(report.exitStatus.rawValue),
            "failOn": .string(report.failOn.rawValue),
            "failOnNew": .bool(report.failOnNew && report.baseline != nil),
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
        let spilled = (input.keysSpilled.map { [JSONValue.Member(key: "keysSpilled", value: .integer($0))] } ?? [])
            + (input.referencedKeysSpilled.map { [JSONValue.Member(key: "referencedKeysSpilled", value: .integer($0))] } ?? [])
        return appending(pushdownMembers(ranIn: input.ranIn, refused: input.pushdownRefused) + spilled, to: .object([
            "source": .string(input.source),
            "path": .string(input.path),
            "format": .string(input.format),
            "bytes": .integer(input.bytes),
            "records": .integer(input.records),
            "complete": .bool(input.complete),
            "error": .string(input.error),
            "errorStatus": .integer(input.errorStatus?.rawValue),
            "seconds": .decimal(input.seconds),
            "previous": .bool(input.isPrevious),
        ]))
    }

    /// `ranIn` and `pushdownRefused`, only where a source asked for pushdown (so that every
    /// other report is byte for byte what it was).
    static func pushdownMembers(ranIn: String?, refused: String?) -> [JSONValue.Member] {
        (ranIn.map { [JSONValue.Member(key: "ranIn", value: .string($0))] } ?? [])
            + (refused.map { [JSONValue.Member(key: "pushdownRefused", value: .string($0))] } ?? [])
    }

    static func appending(_ members: [JSONValue.Member], to value: JSONValue) -> JSONValue {
        guard case .object(let existing) = value, !members.isEmpty else { return value }
        return .object(existing + members)
    }

    /// - Parameters:
    ///   - rule: The rule.
    ///   - samples: Its `samples` member; nil: its findings.
    static func rule(_ rule: RuleOutcome, samples: JSONValue? = nil) -> JSONValue {
        guard case .object(var members) = ruleMembers(rule, samples: samples) else { return .null }
        // `description` and `hint` only when the rules file gives them (after `summary`): the
        // hint is kept apart from every finding's message.
        let at = (members.firstIndex { $0.key == "summary" } ?? members.count - 1) + 1
        var extra = [JSONValue.Member]()
        if let d = rule.description { extra.append(.init(key: "description", value: .string(d))) }
        if let h = rule.hint { extra.append(.init(key: "hint", value: .string(h))) }
        members.insert(contentsOf: extra, at: at)
        // `suppressedByHook` only when a reviewer suppressed a violation (after `suppressed`).
        if !rule.suppressedByHook.isEmpty, let s = members.firstIndex(where: { $0.key == "suppressed" }) {
            let counts = rule.hookSuppressions.map { JSONValue.Member(key: $0.hook, value: .integer($0.count)) }
            members.insert(.init(key: "suppressedByHook", value: .object(counts)), at: s + 1)
        }
        return .object(members)
    }

    private static func ruleMembers(_ rule: RuleOutcome, samples: JSONValue?) -> JSONValue {
        appending(pushdownMembers(ranIn: rule.ranIn, refused: rule.pushdownRefused), to: .object([
            "id": .string(rule.id),
            "entity": .string(rule.entity),
            "source": .string(rule.source),
            "attribute": .string(rule.attribute),
            "kind": .string(rule.kind),
            "severity": .string(rule.severity.rawValue),
            "code": .integer(rule.code),
            "codes": .array(rule.codes.map { .integer($0) }),
            "summary": .string(rule.summary),
            "status": .string(rule.status.rawValue),
            "evaluated": .integer(rule.evaluated),
            "violations": .integer(rule.violations),
            "rate": .decimal(rule.rate),
            "threshold": threshold(rule.threshold),
            "skipped": .integer(rule.skipped),
            "suppressed": .integer(rule.suppressed),
            "definedAt": .string(rule.definedAt),
            "sampled": .bool(rule.sampled),
            "samples": samples ?? .array(rule.samples.map(finding)),
            "baseline": rule.baseline.map(ruleBaseline) ?? .null,
            "trend": rule.trend.map(trend) ?? .null,
        ]))
    }

    /// `{new, existing, resolved}`: one rule's findings against the baseline.
    static func ruleBaseline(_ b: RuleBaseline) -> JSONValue {
        .object(["new": .integer(b.new), "existing": .integer(b.existing), "resolved": .integer(b.resolved)])
    }

    /// `{counts, median, jumped}`: violations per history run, oldest first, this run last.
    static func trend(_ trend: RuleTrend) -> JSONValue {
        .object([
            "counts": .array(trend.counts.map { .integer($0) }),
            "median": trend.median.map(JSONValue.decimal) ?? .null,
            "jumped": .bool(trend.jumped),
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
            "lifecycle": entity.lifecycle.map(lifecycle) ?? .null,
        ])
    }

    static func lifecycle(_ l: LifecycleSummary) -> JSONValue {
        .object([
            "previous": .string(l.previousPath),
            "previousRecords": .integer(l.previousRecords),
            "complete": .bool(l.complete),
            "inserted": .integer(l.inserted),
            "updated": .integer(l.updated),
            "deleted": .integer(l.deleted),
            "unchanged": .integer(l.unchanged),
            "unclassified": .integer(l.unclassified),
            "changedAttributes": .array(l.changedAttributes.map {
                .object(["attribute": .string($0.attribute), "records": .integer($0.records)])
            }),
            "samples": .array(l.samples.map { c in
                .object([
                    "change": .string(c.kind.rawValue),
                    "key": .string(c.key),
                    "location": location(c.location),
                    "attributes": .array(c.attributes.map { .string($0) }),
                ])
            }),
        ])
    }

    static func record(_ record: RecordFindings) -> JSONValue {
        .object([
            "entity": .string(record.entity),
            "location": location(record.location),
            "key": .string(record.key),
            "code": .integer(record.code),
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
            "fingerprint": .string(finding.fingerprint.map(Fingerprint.hex)),
            "new": finding.isNew.map(JSONValue.bool) ?? .null,
        ])
    }

    static func location(_ location: RecordLocation) -> JSONValue {
        .object([
            "path": .string(location.path),
            "locator": locator(location.locator),
            "record": .integer(location.record),
            "text": .string(location.description),
        ])
    }

    /// `{"kind": "line", "line"}`, `{"kind": "element", "element", "line"}`,
    /// `{"kind": "key", "container", "key", "value"}`, or null (schema 2.0).
    static func locator(_ locator: RecordLocator?) -> JSONValue {
        switch locator {
        case .line(let line):
            return .object(["kind": .string("line"), "line": .integer(line)])
        case .element(let path, let line):
            return .object(["kind": .string("element"), "element": .string(path), "line": .integer(line)])
        case .key(let container, let name, let value):
            return .object(["kind": .string("key"), "container": .string(container), "key": .string(name),
                            "value": .integer(value)])
        case nil:
            return .null
        }
    }
}
