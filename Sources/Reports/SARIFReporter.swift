import Auditor

/// The `sarif` report: SARIF 2.1.0 for code-scanning dashboards (GitHub code scanning, Azure
/// DevOps, VS Code's SARIF viewer), CONVENTIONS rule 2.
///
/// One run; `tool.driver.rules[]` lists every rule (`id`, `shortDescription`,
/// `fullDescription`, `help`, `defaultConfiguration.level`). Each sampled finding is a result
/// with `ruleId`, `ruleIndex`, `level` (`error`, `warning`, `note` for info; `note` for a rule
/// within its threshold), `message.text`, one `physicalLocation` (repo-relative
/// `artifactLocation.uri`, `region.startLine` ≥ 1: the record's line, or 1 for SQLite rows,
/// whose table and rowid go in the message and a `logicalLocation`), and
/// `partialFingerprints.primaryLocationLineHash` = 16 hex digits of SHA-256(rule id, file,
/// record key) plus `:n` for the n-th result with the same hash, so an alert follows its
/// record, not its line; plus `partialFingerprints["auditorFingerprint/v1"]`, the finding's own
/// fingerprint (the one `--baseline` compares), when the run collected them. At most
/// ``maxResultsPerRuleAndFile`` results per rule and file; the violations beyond them (and
/// beyond the report's samples) become one aggregated result per rule and file with the count.
///
/// Against a baseline every result has a `baselineState`: `new` (the baseline lacks the
/// finding) or `unchanged`; an aggregated result is `new` or `unchanged` when all the findings
/// it counts are, else `updated`, and its properties give both counts. The run's properties
/// carry the baseline's totals, `failOnNew` and the history run; each rule descriptor's its
/// baseline counts and trend.
public struct SARIFReporter: Reporter {
    /// Always `sarif`.
    public var format: String { "sarif" }
    /// The directory paths are made relative to (the repository root: the current directory
    /// of the run), or nil to keep paths as the report has them.
    public var baseDirectory: String?
    /// The most individual results per rule and file.
    public var maxResultsPerRuleAndFile: Int

    /// The published OASIS schema of the format.
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public init(baseDirectory: String? = nil, maxResultsPerRuleAndFile: Int = 100) {
        self.baseDirectory = baseDirectory
        self.maxResultsPerRuleAndFile = max(1, maxResultsPerRuleAndFile)
    }

    /// Renders the log as pretty-printed JSON ending with a newline.
    public func render(_ report: AuditReport) -> String {
        JSONWriter().write(document(report))
    }

    func document(_ report: AuditReport) -> JSONValue {
        var rules: [RuleOutcome] = []
        var ruleIndex: [String: Int] = [:]
        for rule in report.rules where ruleIndex[rule.id] == nil {
            ruleIndex[rule.id] = rules.count
            rules.append(rule)
        }
        let paths = Dictionary(report.inputs.map { ($0.source, $0.path) }, uniquingKeysWith: { first, _ in first })
        var results: [JSONValue] = []
        var seen: [String: Int] = [:]
        for (index, rule) in rules.enumerated() {
            // Group the rule's samples by file, keeping their order.
            var files: [String] = []
            var byFile: [String: [Finding]] = [:]
            for f in rule.samples {
                if byFile[f.location.path] == nil { files.append(f.location.path) }
                byFile[f.location.path, default: []].append(f)
            }
            if files.isEmpty, rule.violations > 0 { files.append(paths[rule.source] ?? rule.source) }
            var listed = 0
            var listedNew = 0
            for file in files {
                let findings = byFile[file] ?? []
                for f in findings.prefix(maxResultsPerRuleAndFile) {
                    results.append(result(f, rule, index, &seen))
                    listed += 1
                    if f.isNew == true { listedNew += 1 }
                }
            }
            // Everything not listed: attributed to the rule's input (or its only sampled file);
            // what a reviewer suppressed is a suppressed result per hook.
            let byHook = rule.hookSuppressions
            let rest = rule.violations - listed - byHook.reduce(0) { $0 + $1.count }
            let file = files.count == 1 ? files[0] : (paths[rule.source] ?? files.first ?? rule.source)
            for (hook, count) in byHook where count > 0 {
                results.append(suppressed(rule, index, file: file, hook: hook, count: count))
            }
            if rest > 0 {
                let new = rule.baseline.map { min(rest, max(0, $0.new - listedNew)) }
                results.append(aggregate(rule, index, file: file, count: rest, listed: listed, new: new, &seen))
            }
        }
        return .object([
            "$schema": .string(Self.schemaURI),
            "version": .string("2.1.0"),
            "runs": .array([.object([
                "tool": .object(["driver": .object([
                    "name": .string("auditor"),
                    "version": .string(report.toolVersion),
                    "rules": .array(rules.map { descriptor($0, report) }),
                ])]),
                "invocations": .array([invocation(report)]),
                "results": .array(results),
                "properties": .object([
                    "rulesFile": .string(report.rulesFile),
                    "outcome": .string(report.outcome.rawValue),
                    "failOn": .string(report.failOn.rawValue),
                    "failOnNew": .bool(report.gatesOnNew),
                    "records": .integer(report.totalRecords),
                    "startedAt": .string(NumberText.iso8601(report.startedAt)),
                    "baseline": report.baseline.map(JSONReporter.baseline) ?? .null,
                    "historyRun": .integer(report.historyRun),
                ]),
            ])]),
        ])
    }

    // MARK: Rules

    static func level(_ rule: RuleOutcome) -> String {
        if rule.status == .tolerated { return "note" }
        switch rule.severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    func descriptor(_ rule: RuleOutcome, _ report: AuditReport) -> JSONValue {
        let scope = rule.entity.map { "Every \($0) record" } ?? "Every record of source \(rule.source)"
        var full = "\(scope) must satisfy: \(rule.summary). Severity \(rule.severity.rawValue), code \(rule.code)"
        if !rule.threshold.isEmpty { full += "; tolerated up to \(rule.threshold.description)" }
        full += "."
        if let description = rule.description { full += " \(description)" }
        var help = rule.definedAt.map { "Fix the records listed in the results, or change the rule at \($0)." }
            ?? "Fix the records listed in the results; this structural rule comes from the \(rule.source) reader."
        if let hint = rule.hint { help = "\(hint) \(help)" }
        return .object([
            "id": .string(rule.id),
            "shortDescription": .object(["text": .string(rule.summary)]),
            "fullDescription": .object(["text": .string(full)]),
            "help": .object(["text": .string(help)]),
            "defaultConfiguration": .object(["level": .string(Self.level(rule))]),
            "properties": .object([
                "code": .integer(rule.code),
                "kind": .string(rule.kind),
                "entity": .string(rule.entity),
                "attribute": .string(rule.attribute),
                "severity": .string(rule.severity.rawValue),
                "status": .string(rule.status.rawValue),
                "violations": .integer(rule.violations),
                "evaluated": .integer(rule.evaluated),
                "threshold": JSONReporter.threshold(rule.threshold),
                "definedAt": .string(rule.definedAt),
                "baseline": rule.baseline.map(JSONReporter.ruleBaseline) ?? .null,
                "trend": rule.trend.map(JSONReporter.trend) ?? .null,
            ]),
        ])
    }

    func invocation(_ report: AuditReport) -> JSONValue {
        var notifications: [JSONValue] = report.inputs.filter { !$0.complete }.map { input in
            .object([
                "level": .string("error"),
                "message": .object(["text": .string("\(input.path) could not be read completely after "
                    + "\(Plural.count(input.records, "record")): \(input.error ?? "the reader gave no reason")")]),
                "locations": .array([location(path: input.path, line: 1, logical: nil)]),
            ])
        }
        // A rule with no result may have passed or not run: the ones that did not run say so.
        let paths = Dictionary(report.inputs.filter { !$0.isPrevious }.map { ($0.source, $0.path) }, uniquingKeysWith: { a, _ in a })
        var noted = Set<String>()
        for rule in report.rules where rule.status == .notEvaluated && noted.insert(rule.id).inserted {
            var members: [JSONValue.Member] = [
                JSONValue.Member(key: "level", value: .string("warning")),
                JSONValue.Member(key: "message", value: .object(["text": .string(
                    "\(rule.id) was not evaluated, so it did not pass: \(NotEvaluatedText.reason(rule, report))")])),
            ]
            if let path = paths[rule.source] {
                members.append(JSONValue.Member(key: "locations", value: .array([location(path: path, line: 1, logical: nil)])))
            }
            members.append(JSONValue.Member(key: "associatedRule", value: .object(["id": .string(rule.id)])))
            notifications.append(.object(members))
        }
        return .object([
            "executionSuccessful": .bool(report.complete),
            "exitCode": .integer(report.exitStatus.rawValue),
            "toolExecutionNotifications": .array(notifications),
        ])
    }

    // MARK: Results

    func location(path: String, line: Int, logical: JSONValue?) -> JSONValue {
        let uri = ReportPath.uri(ReportPath.relative(path, to: baseDirectory))
        var members = [JSONValue.Member(key: "physicalLocation", value: .object([
            "artifactLocation": .object(["uri": .string(uri)]),
            "region": .object(["startLine": .integer(max(1, line))]),
        ]))]
        if let logical { members.append(JSONValue.Member(key: "logicalLocations", value: .array([logical]))) }
        return .object(members)
    }

    /// `a1b2c3d4e5f60718:1`: stable across runs while the record keeps its key.
    func fingerprint(_ ruleID: String, _ path: String, _ recordKey: String, _ seen: inout [String: Int]) -> String {
        let file = ReportPath.relative(path, to: baseDirectory)
        let hash = String(Digest.sha256Hex(ruleID + "\u{0}" + file + "\u{0}" + recordKey).prefix(16))
        let n = (seen[hash] ?? 0) + 1
        seen[hash] = n
        return "\(hash):\(n)"
    }

    /// The `partialFingerprints` key of a finding's own fingerprint (``Fingerprint``).
    static let fingerprintKey = "auditorFingerprint/v1"

    func result(_ f: Finding, _ rule: RuleOutcome, _ index: Int, _ seen: inout [String: Int]) -> JSONValue {
        var text = f.message
        var logical: JSONValue?
        let recordKey: String
        if case .key(let container, let name, let value) = f.location.locator {
            text += " (" + GitHubReporter.keyPhrase(container, name, value) + ")"
            logical = .object(["name": .string("\(name)=\(value)"), "fullyQualifiedName": .string("\(container)/\(name)=\(value)"),
                               "kind": .string("row")])
            recordKey = f.key ?? "\(container)/\(name)=\(value)"
        } else {
            recordKey = f.key ?? "#\(f.location.record)"
        }
        if let key = f.key { text += " [\(key)]" }
        var prints = [JSONValue.Member(key: "primaryLocationLineHash",
                                       value: .string(fingerprint(rule.id, f.location.path, recordKey, &seen)))]
        if let fp = f.fingerprint {
            prints.append(JSONValue.Member(key: Self.fingerprintKey, value: .string(Fingerprint.hex(fp))))
        }
        return Self.withBaselineState(f.isNew.map { $0 ? "new" : "unchanged" }, .object([
            "ruleId": .string(rule.id),
            "ruleIndex": .integer(index),
            "level": .string(Self.level(rule)),
            "message": .object(["text": .string(text)]),
            "locations": .array([location(path: f.location.path, line: f.location.line ?? 1, logical: logical)]),
            "partialFingerprints": .object(prints),
            "properties": .object([
                "code": .integer(f.code),
                "entity": .string(f.entity),
                "attribute": .string(f.attribute),
                "key": .string(f.key),
                "value": .string(f.value),
                "record": .integer(f.location.record),
                "location": .string(f.location.description),
            ]),
        ]))
    }

    /// One result for the `count` violations that the reviewer `hook` suppressed or merged:
    /// SARIF's suppressed result (`suppressions`), which code-scanning views hide but count.
    func suppressed(_ rule: RuleOutcome, _ index: Int, file: String, hook: String, count: Int) -> JSONValue {
        .object([
            "ruleId": .string(rule.id),
            "ruleIndex": .integer(index),
            "level": .string(Self.level(rule)),
            "message": .object(["text": .string("\(Plural.count(count, "violation")) of \(rule.id) in \(file) suppressed by hook "
                                                + "\(hook), a Swift reviewer of the built-in violations: \(rule.summary).")]),
            "locations": .array([location(path: file, line: 1, logical: nil)]),
            "suppressions": .array([.object(["kind": .string("external"), "status": .string("accepted"),
                                             "justification": .string("suppressed by hook \(hook)")])]),
            "properties": .object(["aggregated": .integer(count), "suppressedByHook": .string(hook)]),
        ])
    }

    /// One result for `count` violations not listed; `new` of them are not in the baseline
    /// (nil without a baseline).
    func aggregate(_ rule: RuleOutcome, _ index: Int, file: String, count: Int, listed: Int, new: Int?,
                   _ seen: inout [String: Int]) -> JSONValue {
        var text = "\(Plural.count(count, "more violation")) of \(rule.id) in \(file) not listed "
            + "(\(NumberText.grouped(rule.violations)) in total, \(NumberText.grouped(listed)) listed): \(rule.summary). "
        if let new { text += "Against the baseline: \(NumberText.grouped(new)) new, \(NumberText.grouped(count - new)) existing. " }
        text += "Run auditor with --failures-out to get every failing record."
        var properties: KeyValuePairs<String, JSONValue> = ["aggregated": .integer(count), "violations": .integer(rule.violations)]
        if let new {
            properties = ["aggregated": .integer(count), "violations": .integer(rule.violations),
                          "new": .integer(new), "existing": .integer(count - new)]
        }
        let state = new.map { $0 == 0 ? "unchanged" : $0 == count ? "new" : "updated" }
        return Self.withBaselineState(state, .object([
            "ruleId": .string(rule.id),
            "ruleIndex": .integer(index),
            "level": .string(Self.level(rule)),
            "message": .object(["text": .string(text)]),
            "locations": .array([location(path: file, line: 1, logical: nil)]),
            "partialFingerprints": .object([
                "primaryLocationLineHash": .string(fingerprint(rule.id, file, "(aggregate)", &seen)),
            ]),
            "properties": .object(properties),
        ]))
    }

    /// `result` with `baselineState` after its `level`, when there is one.
    static func withBaselineState(_ state: String?, _ result: JSONValue) -> JSONValue {
        guard let state, case .object(var members) = result else { return result }
        let at = (members.firstIndex { $0.key == "level" } ?? members.count - 1) + 1
        members.insert(JSONValue.Member(key: "baselineState", value: .string(state)), at: at)
        return .object(members)
    }
}
