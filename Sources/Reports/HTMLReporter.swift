import Auditor

/// The `html` report: one self-contained page that opens offline in any browser.
///
/// Top to bottom: a verdict banner that says why the run passed or failed; summary cards (with
/// a baseline: new, existing and resolved findings; with a history: the run and the rules that
/// jumped) and the inputs; an inline SVG bar chart of violations per rule; entity → rule
/// sections (a rules table with status, counts, rates and thresholds, with a baseline new /
/// existing / resolved columns, with a history an SVG sparkline per rule and a *jumped*
/// badge; then each violated rule's samples, new ones marked); the
/// per-record view (every finding of one record together); a footer. A small inline script
/// adds a filter box, a "failing only" switch and expand/collapse buttons; without it every
/// section is open and readable, and printing opens every section. A samples or records table
/// longer than ``eagerRows`` has only its first rows as markup (with a note saying how many
/// more the data holds); the script renders the rest from the embedded JSON as the reader
/// scrolls, and its filter searches the JSON, so a report with 100,000 findings loads quickly
/// and weighs about as much as the JSON report.
///
/// Safety (CONVENTIONS rule 8): every data-derived string goes through ``HTMLText/escaped(_:)``
/// (attribute values are always double-quoted, data never reaches an `href`, an `id` or a
/// `style`); the whole report (less its `fingerprints` list, which the page never reads and
/// which grows with every finding) is embedded as JSON in `<script type="application/json">` with
/// `<`, `>`, `&`, U+2028 and U+2029 escaped, read with `JSON.parse(textContent)`; a meta
/// Content-Security-Policy allows only the SHA-256 of the exact inline script and style
/// bytes, `data:` images and nothing else; no external resource is referenced.
public struct HTMLReporter: Reporter {
    /// Always `html`.
    public var format: String { "html" }
    /// The `--failures-out` file the page links to, if one was written.
    public var failures: FailuresLink?

    /// Creates a reporter.
    /// - Parameter failures: The `--failures-out` file to link to, with its counts.
    public init(failures: FailuresLink? = nil) {
        self.failures = failures
    }

    /// The Content-Security-Policy the page declares: the hashes of ``HTMLAssets/js`` and
    /// ``HTMLAssets/css`` exactly as they are written between their tags.
    public static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'sha256-\(SHA256.base64(HTMLAssets.js))'; "
            + "style-src 'sha256-\(SHA256.base64(HTMLAssets.css))'; img-src data:; base-uri 'none'; form-action 'none'"
    }

    /// Renders the page; ends with a newline.
    public func render(_ report: AuditReport) -> String {
        let page = Page(report: report, failures: failures)
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="auditor \(HTMLText.escaped(report.toolVersion))">
            <title>\(HTMLText.escaped(page.explanation.verdict)): \(HTMLText.escaped(report.rulesFile)) (auditor report)</title>
            <style>\(HTMLAssets.css)</style>
            </head>
            <body>

            """
        out += page.body()
        out += "<script type=\"application/json\" id=\"report-data\">"
        out += JSONWriter(htmlSafe: true, compact: true).write(JSONReporter.document(report, fingerprints: false))
            .dropLast()  // its final newline
        out += "</script>\n<script>\(HTMLAssets.js)</script>\n</body>\n</html>\n"
        return out
    }
}

extension HTMLReporter {
    /// One rendering: the report and lookups computed once.
    struct Page {
        let report: AuditReport
        let explanation: RunExplanation
        /// The index in `report.rules` of the first rule with each id.
        let ruleIndex: [String: Int]
        /// Ids of the rules that fail the run (``AuditReport/failingRules``).
        let failingIDs: Set<String>
        /// Ids of the rules that would fail but for `--fail-on-new` (only existing findings).
        let existingOnlyIDs: Set<String>
        /// Whether any rule has a trend (the rules tables get a Trend column).
        let hasTrends: Bool
        /// The `--failures-out` file, if any.
        let failures: FailuresLink?

        init(report: AuditReport, failures: FailuresLink? = nil) {
            self.report = report
            self.failures = failures
            explanation = RunExplanation(report: report)
            var index: [String: Int] = [:]
            for (i, rule) in report.rules.enumerated() where index[rule.id] == nil { index[rule.id] = i }
            ruleIndex = index
            failingIDs = Set(report.failingRules.map(\.id))
            existingOnlyIDs = Set(report.existingOnlyRules.map(\.id))
            hasTrends = report.rules.contains { $0.trend != nil }
        }

        func body() -> String {
            var out = banner()
            out += "<main>\n"
            out += summary()
            out += chartSection()
            out += controls()
            out += ruleSections()
            out += recordSection()
            out += "</main>\n"
            out += "<footer>Generated by auditor \(HTMLText.escaped(report.toolVersion)) from "
                + "<span class=\"mono\">\(HTMLText.escaped(report.rulesFile))</span>, started "
                + "\(NumberText.iso8601(report.startedAt)). The complete report is embedded in this file as JSON "
                + "(the element <span class=\"mono\">script#report-data</span>, schema version "
                + "\(JSONReporter.schemaVersion), without the list of every finding's fingerprint). Values are shown with control and bidirectional characters made "
                + "visible as <span class=\"mono\">\\u{…}</span>.</footer>\n"
            return out
        }

        // MARK: Status

        /// `failed`, `existing`, `violated`, `tolerated`, `passed`, `not-evaluated`: a rule's
        /// status with `--fail-on` applied (`violated` = beyond its threshold but below the
        /// failing severity; `existing` = at a failing severity, but every finding is in the
        /// baseline and `--fail-on-new` applies).
        func status(_ rule: RuleOutcome) -> String {
            switch rule.status {
            case .violated:
                if failingIDs.contains(rule.id) { return "failed" }
                return existingOnlyIDs.contains(rule.id) ? "existing" : "violated"
            case .tolerated: return "tolerated"
            case .passed: return "passed"
            case .notEvaluated: return "not-evaluated"
            }
        }

        func fails(_ rule: RuleOutcome) -> Bool { status(rule) == "failed" }

        func badge(_ rule: RuleOutcome) -> String {
            let s = status(rule)
            let word = s == "not-evaluated" ? "not evaluated" : s == "existing" ? "existing only" : s
            return "<span class=\"badge st-\(s)\">\(word)</span>"
        }

        // MARK: Banner and summary

        func banner() -> String {
            let outcome = report.outcome.rawValue
            var out = "<header class=\"verdict \(outcome)\">\n"
            out += "<h1>\(explanation.verdict)<small>exit \(report.exitStatus.rawValue)</small></h1>\n"
            let reasons = explanation.reasons
            if reasons.count == 1 {
                out += "<p class=\"why\">\(HTMLText.escaped(reasons[0]))</p>\n"
            } else {
                out += "<ul class=\"why\">" + reasons.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + "</ul>\n"
            }
            out += "<p class=\"meta\">auditor \(HTMLText.escaped(report.toolVersion)) · rules "
                + "<span class=\"mono\">\(HTMLText.escaped(report.rulesFile))</span> · started "
                + "\(NumberText.iso8601(report.startedAt)) · took \(NumberText.seconds(report.durationSeconds)) · "
                + "--fail-on \(report.failOn.rawValue)"
                + (report.baseline.map { " · baseline <span class=\"mono\">\(HTMLText.escaped($0.source))</span>" } ?? "")
                + (report.gatesOnNew ? " · --fail-on-new" : "")
                + (report.historyRun.map { " · history run \($0)" } ?? "") + "</p>\n</header>\n"
            return out
        }

        func summary() -> String {
            let withFindings = report.violatingRecords
            let violations = report.rules.reduce(0) { $0 + $1.violations }
            func card(_ label: String, _ value: String, _ cls: String = "") -> String {
                "<div\(cls.isEmpty ? "" : " class=\"\(cls)\"")><dt>\(label)</dt><dd>\(value)</dd></div>"
            }
            var out = "<section id=\"summary\">\n<h2>Summary</h2>\n<dl class=\"cards\">"
            out += card("Records", NumberText.grouped(report.totalRecords))
            out += card("With findings", NumberText.grouped(withFindings), withFindings > 0 ? "bad" : "")
            out += card("Rules", NumberText.grouped(report.rules.count))
            out += card("Failing rules", NumberText.grouped(report.failingRules.count),
                        report.failingRules.isEmpty ? "" : "bad")
            out += card("Tolerated", NumberText.grouped(report.toleratedRules.count),
                        report.toleratedRules.isEmpty ? "" : "soft")
            let unevaluated = NotEvaluatedText.rules(report).count
            out += card("Not evaluated", NumberText.grouped(unevaluated), unevaluated == 0 ? "" : "soft")
            out += card("Violations", NumberText.grouped(violations))
            if let b = report.baseline {
                out += card("New findings", NumberText.grouped(b.newFindings), b.newFindings > 0 ? "bad" : "")
                out += card("Existing", NumberText.grouped(b.existingFindings))
                out += card("Resolved", NumberText.grouped(b.resolvedFindings), b.resolvedFindings > 0 ? "good" : "")
            }
            if hasTrends {
                let jumped = report.jumpedRules.count
                out += card("Jumped rules", NumberText.grouped(jumped), jumped > 0 ? "bad" : "")
            }
            out += card("Duration", NumberText.seconds(report.durationSeconds))
            out += "</dl>\n" + failuresLink() + baselineNotes() + "<h3>Inputs</h3>\n<div class=\"scroll\"><table class=\"inputs\"><thead><tr><th>Path</th><th>Source</th><th>Format</th>"
                + "<th class=\"n\">Size</th><th class=\"n\">Records</th><th class=\"n\">Time</th><th>Status</th></tr></thead><tbody>\n"
            for input in report.inputs {
                let status = input.complete
                    ? "<span class=\"badge st-passed\">read completely</span>"
                    : "<span class=\"badge st-failed\">incomplete</span>"
                        + (input.errorStatus.map { " exit \($0.rawValue)" } ?? "")
                        + " <span class=\"msg\">\(HTMLText.escaped(input.error ?? "the reader gave no reason"))</span>"
                out += "<tr><td class=\"mono\">\(HTMLText.escaped(input.path))</td><td>\(HTMLText.escaped(input.source))</td>"
                    + "<td>\(HTMLText.escaped(input.format))</td>"
                    + "<td class=\"n\">\(input.bytes.map(NumberText.bytes) ?? "unknown")</td>"
                    + "<td class=\"n\">\(NumberText.grouped(input.records))</td>"
                    + "<td class=\"n\">\(NumberText.seconds(input.seconds))</td><td>\(status)</td></tr>\n"
            }
            if report.inputs.isEmpty { out += "<tr><td colspan=\"7\">No input.</td></tr>\n" }
            out += "</tbody></table></div>\n</section>\n"
            return out
        }

        func controls() -> String {
            """
            <div class="controls" id="controls" hidden>
            <input type="search" id="filter" placeholder="Filter by rule, value, key, message, location…" aria-label="Filter rules, samples and records" autocomplete="off">
            <label><input type="checkbox" id="failing-only"> failing rules only</label>
            <button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button>
            <span id="filter-status" aria-live="polite"></span>
            </div>

            """
        }
    }
}
