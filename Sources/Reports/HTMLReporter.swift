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
/// and weighs about a twentieth of the JSON report (the island writes each finding once,
/// column by column: ``HTMLIsland``).
///
/// Safety (CONVENTIONS rule 8): every data-derived string goes through ``HTMLText/escaped(_:)``
/// (attribute values are always double-quoted, data never reaches an `href`, an `id` or a
/// `style`); the whole report (less its `fingerprints` list, which the page never reads and
/// which grows with every finding; in the shape of ``HTMLIsland``) is embedded as JSON in
/// `<script type="application/json">` with
/// `<`, `>`, `&`, U+2028 and U+2029 escaped, read with `JSON.parse(textContent)`; a meta
/// Content-Security-Policy allows only the SHA-256 of the exact inline script and style
/// bytes, `data:` images and nothing else; no external resource is referenced.
public struct HTMLReporter: Reporter {
    /// Always `html`.
    public var format: String { "html" }
    /// The `--failures-out` file the page links to, if one was written.
    public var failures: FailuresLink?
    /// The page's own words (the `--locale` catalog's `report:` phrases); English by default.
    public var wording: ReportWording

    /// Creates a reporter.
    /// - Parameters:
    ///   - failures: The `--failures-out` file to link to, with its counts.
    ///   - wording: The page's own words; English by default.
    public init(failures: FailuresLink? = nil, wording: ReportWording = .english) {
        self.failures = failures
        self.wording = wording
    }

    /// The Content-Security-Policy the page declares: the hashes of ``HTMLAssets/js`` and
    /// ``HTMLAssets/css`` exactly as they are written between their tags.
    public static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'sha256-\(Digest.sha256Base64(HTMLAssets.js))'; "
            + "style-src 'sha256-\(Digest.sha256Base64(HTMLAssets.css))'; img-src data:; base-uri 'none'; form-action 'none'"
    }

    /// Renders the page; ends with a newline.
    public func render(_ report: AuditReport) -> String {
        let page = Page(report: report, failures: failures, wording: wording)
        var out = """
            <!DOCTYPE html>
            <html lang="\(HTMLText.escaped(wording.locale))">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="auditor \(HTMLText.escaped(report.toolVersion))">
            <title>\(HTMLText.escaped(wording("html.title", ["verdict": page.explanation.verdict, "rules": report.rulesFile])))</title>
            <style>\(HTMLAssets.css)</style>
            </head>
            <body>

            """
        out += page.body()
        out += "<script type=\"application/json\" id=\"report-data\">"
        out += JSONWriter(htmlSafe: true, compact: true).write(HTMLIsland.document(report))
            .dropLast()  // its final newline
        out += "</script>\n<script type=\"application/json\" id=\"report-phrases\">" + page.scriptPhrases()
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
        /// The page's words.
        let w: ReportWording

        init(report: AuditReport, failures: FailuresLink? = nil, wording: ReportWording = .english) {
            self.report = report
            self.failures = failures
            w = wording
            explanation = RunExplanation(report: report, w: wording)
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
            out += "<footer>" + t("html.footer", ["version": report.toolVersion, "started": NumberText.iso8601(report.startedAt),
                                                  "schema": "\(JSONReporter.schemaVersion)"],
                                  markup: ["rules": "<span class=\"mono\">\(HTMLText.escaped(report.rulesFile))</span>",
                                           "island": "<span class=\"mono\">script#report-data</span>",
                                           "escape": "<span class=\"mono\">\\u{…}</span>"]) + "</footer>\n"
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
            return "<span class=\"badge st-\(s)\">\(word(s))</span>"
        }

        /// A status's word in the badge: `failed`, `existing only`, `not evaluated`, ….
        func word(_ status: String) -> String {
            switch status {
            case "failed": return t("md.status.failed")
            case "violated": return t("md.status.violated")
            case "existing": return t("md.status.existingOnly")
            case "tolerated": return t("status.tolerated")
            case "passed": return t("status.passed")
            default: return t("status.notEvaluated")
            }
        }

        // MARK: Banner and summary

        func banner() -> String {
            let outcome = report.outcome.rawValue
            var out = "<header class=\"verdict \(outcome)\">\n"
            out += "<h1>\(HTMLText.escaped(explanation.verdict))<small>\(t("html.exit", ["status": "\(report.exitStatus.rawValue)"]))</small></h1>\n"
            let reasons = explanation.reasons
            if reasons.count == 1 {
                out += "<p class=\"why\">\(HTMLText.escaped(reasons[0]))</p>\n"
            } else {
                out += "<ul class=\"why\">" + reasons.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + "</ul>\n"
            }
            out += "<p class=\"meta\">" + t("html.meta", ["version": report.toolVersion, "started": NumberText.iso8601(report.startedAt),
                                                        "took": w.number(NumberText.seconds(report.durationSeconds)),
                                                        "failOn": report.failOn.rawValue],
                                              markup: ["rules": "<span class=\"mono\">\(HTMLText.escaped(report.rulesFile))</span>"])
                + (report.baseline.map { " · " + t("html.meta.baseline", markup: ["source": "<span class=\"mono\">\(HTMLText.escaped($0.source))</span>"]) } ?? "")
                + (report.gatesOnNew ? " · --fail-on-new" : "")
                + (report.historyRun.map { " · " + t("html.meta.history", ["run": "\($0)"]) } ?? "") + "</p>\n</header>\n"
            return out
        }

        func summary() -> String {
            let withFindings = report.violatingRecords
            let violations = report.rules.reduce(0) { $0 + $1.violations }
            func card(_ label: String, _ value: String, _ cls: String = "") -> String {
                "<div\(cls.isEmpty ? "" : " class=\"\(cls)\"")><dt>\(label)</dt><dd>\(value)</dd></div>"
            }
            var out = "<section id=\"summary\">\n<h2>\(t("html.summaryTitle"))</h2>\n<dl class=\"cards\">"
            out += card(t("html.card.records"), n(report.totalRecords))
            out += card(t("html.card.withFindings"), n(withFindings), withFindings > 0 ? "bad" : "")
            out += card(t("html.card.rules"), n(report.rules.count))
            out += card(t("html.card.failing"), n(report.failingRules.count),
                        report.failingRules.isEmpty ? "" : "bad")
            out += card(t("html.card.tolerated"), n(report.toleratedRules.count),
                        report.toleratedRules.isEmpty ? "" : "soft")
            let unevaluated = NotEvaluatedText.rules(report).count
            out += card(t("html.card.notEvaluated"), n(unevaluated), unevaluated == 0 ? "" : "soft")
            out += card(t("html.card.violations"), n(violations))
            if let b = report.baseline {
                out += card(t("html.card.new"), n(b.newFindings), b.newFindings > 0 ? "bad" : "")
                out += card(t("html.card.existing"), n(b.existingFindings))
                out += card(t("html.card.resolved"), n(b.resolvedFindings), b.resolvedFindings > 0 ? "good" : "")
            }
            if hasTrends {
                let jumped = report.jumpedRules.count
                out += card(t("html.card.jumped"), n(jumped), jumped > 0 ? "bad" : "")
            }
            out += card(t("html.card.duration"), w.number(NumberText.seconds(report.durationSeconds)))
            out += "</dl>\n" + failuresLink() + baselineNotes() + "<h3>\(t("md.inputsTitle"))</h3>\n<div class=\"scroll\"><table class=\"inputs\"><thead><tr>"
                + headers("html.columns.inputs", numeric: [3, 4, 5]) + "</tr></thead><tbody>\n"
            for input in report.inputs {
                let status = input.complete
                    ? "<span class=\"badge st-passed\">\(t("inputs.complete"))</span>"
                    : "<span class=\"badge st-failed\">\(t("md.status.incomplete"))</span>"
                        + (input.errorStatus.map { " " + t("html.exit", ["status": "\($0.rawValue)"]) } ?? "")
                        + " <span class=\"msg\">\(input.error.map(HTMLText.escaped) ?? t("inputs.noReason"))</span>"
                out += "<tr><td class=\"mono\">\(HTMLText.escaped(input.path))</td><td>\(HTMLText.escaped(input.source))</td>"
                    + "<td>\(HTMLText.escaped(input.format))</td>"
                    + "<td class=\"n\">\(input.bytes.map { w.number(NumberText.bytes($0)) } ?? t("html.sizeUnknown"))</td>"
                    + "<td class=\"n\">\(n(input.records))</td>"
                    + "<td class=\"n\">\(w.number(NumberText.seconds(input.seconds)))</td><td>\(status)</td></tr>\n"
            }
            if report.inputs.isEmpty { out += "<tr><td colspan=\"7\">\(t("html.noInput"))</td></tr>\n" }
            out += "</tbody></table></div>\n</section>\n"
            return out
        }

        func controls() -> String {
            """
            <div class="controls" id="controls" hidden>
            <input type="search" id="filter" placeholder="\(HTMLText.escaped(w("html.filter.placeholder")))" aria-label="\(HTMLText.escaped(w("html.filter.label")))" autocomplete="off">
            <label><input type="checkbox" id="failing-only"> \(t("html.failingOnly"))</label>
            <button type="button" id="expand">\(t("html.expand"))</button><button type="button" id="collapse">\(t("html.collapse"))</button>
            <span id="filter-status" aria-live="polite"></span>
            </div>

            """
        }
    }
}
