import Auditor

/// The `github` report: GitHub Actions workflow commands that become annotations on the run
/// and the pull request (CONVENTIONS rule 3), then a plain verdict line.
///
/// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step, so at most
/// that many are written: incomplete inputs first, then one sample of each violated rule in
/// turn (rules beyond their threshold at a failing severity first), then a second sample of
/// each, and so on. Errors are `::error`, warnings `::warning`, info and tolerated rules
/// `::notice`. Every property and message uses the toolkit's escaping (``GitHubText``).
///
/// Against a baseline, each annotation's title ends with `new` or `existing` and its message
/// says whether the baseline has the finding; a rule's new findings are annotated before its
/// existing ones. Under `--fail-on-new` an existing finding is a `::notice` whatever its
/// severity: it does not fail the run, and the 10 errors and 10 warnings GitHub shows are
/// kept for what does.
///
/// The Markdown job summary (``summaryMarkdown(_:limit:)``) is a separate text: the reporter
/// stays pure, and the CLI appends it to `$GITHUB_STEP_SUMMARY` when that is set.
public struct GitHubReporter: Reporter {
    /// Always `github`.
    public var format: String { "github" }
    /// The directory annotation paths are made relative to (the repository root), or nil.
    public var baseDirectory: String?
    /// Annotations per level (GitHub shows 10 of each per step).
    public var maxPerLevel: Int

    /// GitHub's limit for one step's summary.
    public static let summaryLimit = 1 << 20

    public init(baseDirectory: String? = nil, maxPerLevel: Int = 10) {
        self.baseDirectory = baseDirectory
        self.maxPerLevel = max(0, maxPerLevel)
    }

    static func level(_ rule: RuleOutcome) -> String {
        if rule.status == .tolerated { return "notice" }
        switch rule.severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    /// Renders the workflow commands and a closing verdict line; ends with a newline.
    public func render(_ report: AuditReport) -> String {
        var lines: [String] = []
        var used: [String: Int] = [:]
        var omitted = 0
        func emit(_ level: String, file: String?, line: Int?, title: String, message: String) {
            guard used[level, default: 0] < maxPerLevel else { omitted += 1; return }
            used[level, default: 0] += 1
            var properties: [String] = []
            if let file { properties.append("file=" + GitHubText.property(ReportPath.relative(file, to: baseDirectory))) }
            if let line { properties.append("line=\(line)") }
            properties.append("title=" + GitHubText.property(title))
            lines.append("::\(level) \(properties.joined(separator: ","))::\(GitHubText.data(message))")
        }
        for input in report.inputs where !input.complete {
            emit("error", file: input.path, line: nil, title: "auditor: input not read completely",
                 message: "Reading stopped after \(Plural.count(input.records, "record")); findings cover only those: "
                     + (input.error ?? "the reader gave no reason"))
        }
        for empty in NotEvaluatedText.emptyEntities(report) {
            emit("warning", file: empty.path, line: nil, title: "auditor: \(empty.entity.name) not evaluated",
                 message: NotEvaluatedText.warning(empty))
        }
        let explanation = RunExplanation(report: report)
        let failing = Set(explanation.failing.map(\.id))
        let ordered = report.rules.enumerated().filter { $0.element.violations > 0 }.sorted { a, b in
            func rank(_ r: RuleOutcome) -> Int { failing.contains(r.id) ? 0 : r.status == .violated ? 1 : 2 }
            let ra = rank(a.element), rb = rank(b.element)
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
        // A rule's new findings first (stable otherwise): they are what a baseline gate is about.
        let samples = ordered.map { rule in rule.samples.filter { $0.isNew == true } + rule.samples.filter { $0.isNew != true } }
        let deepest = samples.map(\.count).max() ?? 0
        for j in 0..<deepest {
            for (rule, list) in zip(ordered, samples) where j < list.count {
                let f = list[j]
                var message = f.message
                if case .key(let container, let name, let value) = f.location.locator {
                    message += " (" + Self.keyPhrase(container, name, value) + ")"
                }
                if let key = f.key { message += " [\(key)]" }
                if rule.status == .tolerated { message += " (tolerated: \(rule.threshold.description))" }
                var level = Self.level(rule)
                var tag = ""
                if let isNew = f.isNew {
                    tag = isNew ? ", new" : ", existing"
                    message += isNew ? " (new: not in the baseline)" : " (existing: in the baseline"
                        + (report.gatesOnNew ? ", does not fail the run with --fail-on-new)" : ")")
                    if report.gatesOnNew, !isNew { level = "notice" }
                }
                emit(level, file: f.location.path, line: f.location.line,
                     title: "\(rule.id) (\(rule.severity.rawValue) \(rule.code)\(tag))", message: message)
            }
        }
        let all = report.rules.reduce(0) { $0 + $1.violations }
        lines.append("auditor: " + TerminalText.escaped(explanation.sentence))
        for rule in report.rules {
            for (hook, count) in rule.hookSuppressions {
                lines.append(TerminalText.escaped("auditor: \(rule.id): \(Plural.count(count, "violation")) suppressed by hook "
                                                  + "\(hook) (counted in the rule, not annotated)"))
            }
        }
        let shown = used.values.reduce(0, +)
        if omitted > 0 || all > shown {
            lines.append("auditor: \(Plural.count(shown, "annotation")) for \(Plural.count(all, "violation")) "
                         + "(GitHub shows \(maxPerLevel) per level and step); the job summary and the other reports list more")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension GitHubReporter {
    /// A record's key location in words, for CI messages: `table people, rowid 7` for an SQLite
    /// rowid, `Person Z_PK=42` for another key.
    static func keyPhrase(_ container: String, _ name: String, _ value: Int64) -> String {
        name == "rowid" ? "table \(container), rowid \(value)" : "\(container) \(name)=\(value)"
    }
}
