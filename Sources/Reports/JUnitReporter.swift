import Auditor

/// The `junit` report, for CI test dashboards (GitLab, Jenkins, Azure, GitHub test reporters).
///
/// CONVENTIONS rule 1: `<testsuites>` → one `<testsuite>` per audited input → one `<testcase>`
/// per rule (`classname` = the input path, `name` = `"<ruleId> <summary>"`, unique in its
/// suite, `file` = the input path, `line` = the first sampled violation's line). A rule
/// violated beyond its threshold has one `<failure message="…" type="<ruleId>">` whose text
/// lists the counts, the threshold, where the rule is defined and the sampled violations, one
/// per line (GitLab shows the text, not only `message`). The failure is written whatever the
/// rule's severity; `message` starts with the severity, and the exit status, not JUnit,
/// applies `--fail-on`. A tolerated rule passes, with the detail in `<system-out>`. A rule
/// with no evaluated record is `<skipped>` with the reason (its input could not be read, has
/// no records, or no record was checked), and an input that was not read completely adds a
/// test case with an `<error>`.
///
/// Against a baseline, a failure's `message` ends with the rule's new, existing and resolved
/// counts, its text says so (and, under `--fail-on-new`, whether the rule fails the run),
/// and each sampled violation the baseline lacks ends with `[new]`; a passing rule whose
/// baseline findings were all resolved says so in `<system-out>`. With a history, the text
/// gives the rule's trend and whether it jumped.
///
/// Every data value goes through ``XMLText/escaped(_:)``: no XML-illegal character (U+0000–
/// U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF) can reach the document.
public struct JUnitReporter: Reporter {
    /// Always `junit`.
    public var format: String { "junit" }

    public init() {}

    /// One suite's content before it is written.
    struct Suite {
        var path: String
        var source: String
        var inputs: [InputSummary]
        var rules: [RuleOutcome]
    }

    static func suites(_ report: AuditReport) -> [Suite] {
        var suites: [Suite] = []
        var bySource: [String: Int] = [:]
        for input in report.inputs {
            if let i = suites.firstIndex(where: { $0.path == input.path }) {
                suites[i].inputs.append(input)
                bySource[input.source] = bySource[input.source] ?? i
            } else {
                bySource[input.source] = bySource[input.source] ?? suites.count
                suites.append(Suite(path: input.path, source: input.source, inputs: [input], rules: []))
            }
        }
        for rule in report.rules {
            let i: Int
            if let known = bySource[rule.source] {
                i = known
            } else {
                i = suites.count
                bySource[rule.source] = i
                suites.append(Suite(path: rule.source, source: rule.source, inputs: [], rules: []))
            }
            // A source's structural rules are listed once per entity; one test case is enough.
            if !suites[i].rules.contains(where: { $0.id == rule.id }) { suites[i].rules.append(rule) }
        }
        return suites
    }

    /// Renders the document; ends with a newline.
    public func render(_ report: AuditReport) -> String {
        let suites = Self.suites(report)
        var body = ""
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)
        for suite in suites {
            let (text, counts) = Self.suite(suite, report)
            body += text
            totals.tests += counts.tests
            totals.failures += counts.failures
            totals.errors += counts.errors
            totals.skipped += counts.skipped
        }
        let timestamp = String(NumberText.iso8601(report.startedAt).prefix(19))
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(XMLText.escaped("auditor \(report.rulesFile)"))\" tests=\"\(totals.tests)\" "
            + "failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" "
            + "time=\"\(NumberText.fixed(report.durationSeconds, fractionDigits: 3))\" timestamp=\"\(timestamp)\">\n"
            + body + "</testsuites>\n"
    }

    static func suite(_ suite: Suite, _ report: AuditReport) -> (String, (tests: Int, failures: Int, errors: Int, skipped: Int)) {
        let path = XMLText.escaped(suite.path)
        var cases = ""
        var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
        for input in suite.inputs where !input.complete {
            counts.tests += 1
            counts.errors += 1
            let status = input.errorStatus.map { "exit \($0.rawValue)" } ?? "incomplete"
            let detail = ["Reading stopped after \(Plural.count(input.records, "record")); findings cover only those.",
                          input.error ?? "The reader gave no reason."]
            cases += "    <testcase classname=\"\(path)\" name=\"\(XMLText.escaped("input \(input.path) is read completely"))\" "
                + "file=\"\(path)\" time=\"\(NumberText.fixed(input.seconds, fractionDigits: 3))\">\n"
                + "      <error message=\"\(XMLText.escaped("\(input.path) could not be read completely (\(status))"))\" "
                + "type=\"\(status)\">\(multiline(detail))</error>\n    </testcase>\n"
        }
        for rule in suite.rules {
            counts.tests += 1
            // In a source of several files, the first sample may be in another file than the suite's.
            let file = rule.samples.first.map { XMLText.escaped($0.location.path) } ?? path
            var attributes = "classname=\"\(path)\" name=\"\(XMLText.escaped("\(rule.id) \(rule.summary)"))\" file=\"\(file)\""
            if let line = rule.samples.first?.location.line { attributes += " line=\"\(line)\"" }
            attributes += " time=\"0\""
            let counted = "\(NumberText.grouped(rule.violations)) of \(Plural.count(rule.evaluated, "record")) "
                + "(\(NumberText.percent(rule.violations, of: rule.evaluated)))"
            switch rule.status {
            case .passed where (rule.baseline?.resolved ?? 0) > 0:
                let resolved = "\(Plural.count(rule.baseline?.resolved ?? 0, "finding")) of the baseline resolved; no violation left."
                cases += "    <testcase \(attributes)>\n      <system-out>\(XMLText.escaped(resolved))</system-out>\n"
                    + "    </testcase>\n"
            case .passed:
                cases += "    <testcase \(attributes)/>\n"
            case .notEvaluated:
                // Why depends on the input: unreadable, empty, or read with no record checked.
                counts.skipped += 1
                let reason = NotEvaluatedText.reason(rule, report)
                cases += "    <testcase \(attributes)>\n      <skipped message=\"\(XMLText.escaped("not evaluated: " + reason))\">"
                    + "\(XMLText.escaped("\(rule.id) was not evaluated, so it did not pass: \(reason)."))</skipped>\n    </testcase>\n"
            case .tolerated:
                cases += "    <testcase \(attributes)>\n      <system-out>\(multiline(detail(rule, report, counted)))</system-out>\n"
                    + "    </testcase>\n"
            case .violated:
                counts.failures += 1
                let message = "\(rule.severity.rawValue): \(counted) violate \(rule.id): \(rule.summary)"
                    + (rule.baseline.map { " (\(BaselineText.counts($0)))" } ?? "")
                cases += "    <testcase \(attributes)>\n      <failure message=\"\(XMLText.escaped(message))\" "
                    + "type=\"\(XMLText.escaped(rule.id))\">\(multiline(detail(rule, report, counted)))</failure>\n"
                    + "    </testcase>\n"
            }
        }
        let seconds = suite.inputs.reduce(0) { $0 + $1.seconds }
        let records = suite.inputs.first?.records ?? 0
        var out = "  <testsuite name=\"\(path)\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" "
            + "errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(NumberText.fixed(seconds, fractionDigits: 3))\" "
            + "timestamp=\"\(NumberText.iso8601(report.startedAt).prefix(19))\" file=\"\(path)\">\n"
        out += "    <properties>\n"
            + "      <property name=\"source\" value=\"\(XMLText.escaped(suite.source))\"/>\n"
            + (suite.inputs.first.map { "      <property name=\"format\" value=\"\(XMLText.escaped($0.format))\"/>\n" } ?? "")
            + "      <property name=\"records\" value=\"\(records)\"/>\n"
            + "      <property name=\"failOn\" value=\"\(report.failOn.rawValue)\"/>\n"
            + (report.baseline.map { "      <property name=\"baseline\" value=\"\(XMLText.escaped($0.source))\"/>\n" } ?? "")
            + (report.gatesOnNew ? "      <property name=\"failOnNew\" value=\"true\"/>\n" : "")
            + (report.historyRun.map { "      <property name=\"historyRun\" value=\"\($0)\"/>\n" } ?? "")
            + "    </properties>\n"
        return (out + cases + "  </testsuite>\n", counts)
    }

    /// The element text of a violated or tolerated rule: one fact per line.
    static func detail(_ rule: RuleOutcome, _ report: AuditReport, _ counted: String) -> [String] {
        var lines = ["\(counted) violate \(rule.id) (\(rule.severity.rawValue), code \(rule.code)): \(rule.summary)"]
        if rule.status == .tolerated {
            lines.append("Tolerated: within its threshold (\(rule.threshold.description)); it does not fail the run.")
        } else if !rule.threshold.isEmpty {
            lines.append("Threshold exceeded: \(rule.threshold.description).")
        }
        if rule.status == .violated, !report.failOn.fails(rule.severity) {
            lines.append("Below --fail-on \(report.failOn.rawValue): reported, but it does not fail the run.")
        }
        if let b = rule.baseline {
            var line = "Against the baseline: \(BaselineText.counts(b))."
            if report.existingOnlyRules.contains(where: { $0.id == rule.id }) {
                line += " Only findings of the baseline: it does not fail the run with --fail-on-new."
            } else if report.gatesOnNew, rule.status == .violated, report.failOn.fails(rule.severity) {
                line += " New findings: it fails the run with --fail-on-new."
            }
            lines.append(line)
        }
        if let trend = rule.trend, trend.counts.count >= 2 {
            let counts = trend.counts.suffix(Sparkline.maxRuns)
            lines.append("Trend over the last \(Plural.count(counts.count, "run")), oldest first: "
                         + counts.map { NumberText.grouped($0) }.joined(separator: ", ") + " (this run)"
                         + (trend.median.map { "; recent median \(Sparkline.medianText($0))" } ?? "")
                         + (trend.jumped ? "; jumped well above it." : "."))
        }
        if rule.skipped > 0 { lines.append("\(Plural.count(rule.skipped, "record")) not evaluated.") }
        if let at = rule.definedAt { lines.append("Defined at \(at).") }
        for f in rule.samples {
            var extras: [String] = []
            if let key = f.key { extras.append(key) }
            if let value = f.value, !f.message.contains("'\(value)'") { extras.append("value '\(value)'") }
            if f.isNew == true { extras.append("new") }
            lines.append("\(f.location.description): \(f.message)" + (extras.isEmpty ? "" : " [\(extras.joined(separator: ", "))]"))
        }
        if rule.suppressed > 0 {
            lines.append("The root-cause finding stands for \(Plural.count(rule.suppressed, "more violation")).")
        }
        for (hook, count) in rule.hookSuppressions {
            lines.append("\(Plural.count(count, "violation")) suppressed by hook \(hook) (counted, not listed).")
        }
        let hidden = rule.unlisted
        if hidden > 0 { lines.append("... \(NumberText.grouped(hidden)) more (\(rule.samples.count) of \(NumberText.grouped(rule.violations)) shown)") }
        return lines
    }

    /// Lines joined by line feeds, each escaped on its own (so data cannot add lines).
    static func multiline(_ lines: [String]) -> String { lines.map(XMLText.escaped).joined(separator: "\n") }
}
