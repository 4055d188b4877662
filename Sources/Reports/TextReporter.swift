import Auditor

/// The `text` report: compiler-diagnostic style, for a terminal and for a CI log.
///
/// Layout, top to bottom:
/// 1. a one-line verdict with the counts that matter;
/// 2. one `path: error: …` line per input that was not read to its end (never hidden);
/// 3. with a baseline, its name and the new, existing and resolved totals (and whether
///    `--fail-on-new` applies); with a history, the run number and the rules that jumped;
/// 4. per entity, its violated rules (most severe first, then rules-file order) with exact
///    counts and rates, each followed by its baseline counts and trend, then its sampled
///    findings as `path:line: severity: rule: message` lines (`[new]` when the baseline lacks
///    them), then its passing rules (one line, or one row each when `verbose`);
/// 5. the first records with findings, each with all its findings;
/// 6. the inputs, and the result with the exit status it implies.
///
/// Every data-derived string goes through ``TerminalText/escaped(_:)``; colour (ANSI SGR) is
/// emitted only when ``color`` is true and only around severity words, rule ids, entity names,
/// new-finding counts, the jump flag and the verdict. Trend sparklines use `▁▂▃▄▅▆▇█` only when
/// ``unicode`` is true (decide with ``TextCharset``), else ASCII. The output is a pure function of the report and these options and ends
/// with a newline.
public struct TextReporter: Reporter {
    /// Always `text`.
    public var format: String { "text" }
    /// Whether to emit ANSI colour (decide with ``ColorChoice``).
    public var color: Bool
    /// Whether to list passing rules one per row, every finding of each record group,
    /// input sources and timings.
    public var verbose: Bool
    /// Whether trend sparklines may use Unicode block characters (`▁▂▃▄▅▆▇█`) and `→`; with
    /// `false` the whole report is ASCII except for data.
    public var unicode: Bool
    /// The report's own words (verdict, counts, titles), from the `--locale` catalog.
    public var wording: ReportWording

    /// Creates a text reporter.
    /// - Parameters:
    ///   - color: Emit ANSI colour; `false` gives plain text with no escape byte.
    ///   - verbose: List passing rules and more detail.
    ///   - unicode: Draw trends with Unicode symbols; `false` keeps to ASCII.
    ///   - wording: The report's own words; English by default.
    public init(color: Bool = false, verbose: Bool = false, unicode: Bool = false, wording: ReportWording = .english) {
        self.color = color
        self.verbose = verbose
        self.unicode = unicode
        self.wording = wording
    }

    /// Renders the whole report as text lines ending with a newline.
    public func render(_ report: AuditReport) -> String {
        let renderer = Renderer(report: report, style: ANSIStyle(enabled: color), verbose: verbose, unicode: unicode,
                                wording: wording)
        return renderer.render()
    }
}

extension TextReporter {
    /// One rendering: the report, the options and lookups computed once.
    struct Renderer {
        let report: AuditReport
        let style: ANSIStyle
        let verbose: Bool
        let unicode: Bool
        /// The report's own words.
        let w: ReportWording
        /// The first rule with each id.
        let rulesByID: [String: RuleOutcome]
        /// Input path by source name (the first input of a source).
        let pathBySource: [String: String]

        init(report: AuditReport, style: ANSIStyle, verbose: Bool, unicode: Bool = false, wording: ReportWording = .english) {
            self.report = report
            self.w = wording
            self.style = style
            self.verbose = verbose
            self.unicode = unicode
            var rules: [String: RuleOutcome] = [:]
            for rule in report.rules where rules[rule.id] == nil { rules[rule.id] = rule }
            rulesByID = rules
            var paths: [String: String] = [:]
            // A source of several files: the first one and how many more.
            for input in report.inputs where !input.isPrevious {
                if paths[input.source] == nil { paths[input.source] = input.path }
            }
            for (source, path) in paths {
                let more = report.inputs.filter { $0.source == source && !$0.isPrevious }.count - 1
                if more > 0 { paths[source] = "\(path) and \(more) more file\(more == 1 ? "" : "s")" }
            }
            pathBySource = paths
        }

        func render() -> String {
            var lines = [headline()]
            lines += incompleteInputs()
            lines += baselineHeader()
            lines += historyHeader()
            for group in ruleGroups() {
                lines.append("")
                lines += block(for: group)
            }
            let records = recordSection()
            if !records.isEmpty {
                lines.append("")
                lines += records
            }
            lines.append("")
            lines += inputSection()
            if verbose { lines.append(runLine()) }
            lines.append(resultLine())
            return lines.joined(separator: "\n") + "\n"
        }

        // MARK: Verdict

        /// Records counted for the headline: the entities' records when there are entities.
        var recordTotals: (records: Int, withFindings: Int) {
            let withFindings = report.entities.reduce(0) { $0 + $1.violatingRecords }
            if report.entities.isEmpty { return (report.totalRecords, withFindings) }
            return (report.entities.reduce(0) { $0 + $1.records }, withFindings)
        }

        var incompleteInputList: [InputSummary] { report.inputs.filter { !$0.complete } }

        /// `VERDICT` in upper case when it needs attention, coloured.
        var verdictWord: String {
            switch report.outcome {
            case .passed: return style.outcome(.passed, w("verdict.passed"))
            case .failed: return style.outcome(.failed, w("verdict.failed"))
            case .incomplete: return style.outcome(.incomplete, w("verdict.incomplete"))
            }
        }

        /// The severities that fail the run: `at severity error`; empty for `--fail-on never`.
        var failingSeverities: String {
            switch report.failOn {
            case .error: return w("severities.error")
            case .warning: return w("severities.warning")
            case .never: return ""
            }
        }

        /// How many violated rules fail the run, in words: `3 at severity error`, `none at …`;
        /// `1 with new findings at severity error` under `--fail-on-new`.
        func failingPhrase(_ count: Int) -> String {
            if report.failOn == .never { return w("failing.never") }
            return w("failing.count", ["count": n(count), "new": report.gatesOnNew ? "yes" : "no", "severities": failingSeverities])
        }

        /// `2,000` with the wording's group mark.
        func n(_ value: Int) -> String { w.number(NumberText.grouped(value)) }

        /// `0.70%` with the wording's decimal mark and percent phrase.
        func percent(_ count: Int, of total: Int) -> String {
            w("number.percent", ["rate": w.number(String(NumberText.percent(count, of: total).dropLast()))])
        }

        /// `auditor 0.1.0: rules/people.yml: FAILED, 5 of 25 rules violated (4 at severity error), …`.
        func headline() -> String {
            var parts = ["\(verdictWord)"]
            let incomplete = incompleteInputList.count
            if incomplete > 0 {
                parts.append(w("head.incompleteInputs", ["incomplete": n(incomplete), "inputs": n(report.inputs.count)]))
            }
            let totals = recordTotals
            let violated = report.violatedRules.count
            let unevaluated = NotEvaluatedText.rules(report).count
            if violated == 0 {
                parts.append(w("head.rules", ["rules": n(report.rules.count), "unevaluated": n(unevaluated)]))
                parts.append(w("head.records", ["records": n(totals.records), "partial": incomplete > 0 ? "yes" : "no"]))
                parts.append(w("head.noFindings"))
            } else {
                let tolerated = report.toleratedRules.count
                parts.append(w("head.violated", ["violated": n(violated), "rules": n(report.rules.count),
                                                 "failing": failingPhrase(report.failingRules.count), "tolerated": n(tolerated)]))
                parts.append(w("head.withFindings", ["withFindings": n(totals.withFindings), "records": n(totals.records)]))
                if unevaluated > 0 { parts.append(w("head.unevaluated", ["count": n(unevaluated)])) }
            }
            let prefix = "auditor \(TerminalText.escaped(report.toolVersion)): "
                + "\(TerminalText.escaped(report.rulesFile)): "
            return prefix + parts.joined(separator: ", ")
        }

        /// One diagnostic per input that stopped early: `orders.xml: error: INCOMPLETE: …`.
        func incompleteInputs() -> [String] {
            incompleteInputList.map { input in
                let reason = input.error.map(TerminalText.escaped) ?? w("inputs.noReason")
                return "\(TerminalText.escaped(input.path)): \(style.severity(.error, "error")): "
                    + "\(style.outcome(.incomplete, w("verdict.incomplete"))): "
                    + w("inputs.stopped", ["count": n(input.records)]) + w("punctuation.colon") + reason
            }
        }

        /// `Run: started 2026-11-20T02:00:00.000Z, took 1.42 s, at most 5 samples per rule, --fail-on error`.
        func runLine() -> String {
            w("run.line", ["started": NumberText.iso8601(report.startedAt), "took": w.number(NumberText.seconds(report.durationSeconds)),
                           "samples": n(report.maxSamples), "failOn": report.failOn.rawValue])
        }

        /// `2 rules tolerated within their thresholds`, or nil when none is.
        var toleratedPhrase: String? {
            let n = report.toleratedRules.count
            guard n > 0 else { return nil }
            return w("result.tolerated", ["count": self.n(n)])
        }

        /// `Result: FAILED (exit 1): 4 rules violated at severity error (--fail-on error)`: the
        /// verdict, the exit status and why. Tolerated rules are named apart, so a reader sees
        /// that they were counted but did not fail the run.
        func resultLine() -> String {
            let failing = report.failingRules.count
            let tolerated = report.toleratedRules.count
            let violated = report.violatedRules.count
            let untolerated = violated - tolerated
            let failOn = "(--fail-on \(report.failOn.rawValue)\(report.gatesOnNew ? ", --fail-on-new" : ""))"
            let colon = w("punctuation.colon"), semicolon = w("punctuation.semicolon")
            let toleratedNote = toleratedPhrase.map { semicolon + $0 } ?? ""
            let existingOnly = report.existingOnlyRules.count
            let severities = failingSeverities
            func exit(_ status: ExitStatus) -> String { w("result.exit", ["status": String(status.rawValue)]) }
            let detail: String
            switch report.outcome {
            case .failed:
                let existingNote = existingOnly == 0 ? ""
                    : semicolon + w("result.existingOnly", ["count": n(existingOnly), "severities": severities])
                detail = exit(.ruleFailures) + colon
                    + w("result.failed", ["count": n(failing), "new": report.gatesOnNew ? "yes" : "no",
                                          "severities": severities, "failOn": failOn])
                    + existingNote + toleratedNote
            case .passed where existingOnly > 0:
                detail = exit(.passed) + colon + w("result.noNewFindings", ["severities": severities, "failOn": failOn]) + semicolon
                    + w("result.existingOnlyPassed", ["count": n(existingOnly), "severities": severities]) + toleratedNote
            case .passed where violated == 0:
                detail = exit(.passed) + colon + w("result.noRuleViolated")
            case .passed where untolerated == 0:
                detail = exit(.passed) + colon + (toleratedPhrase ?? "")
            case .passed:
                detail = exit(.passed) + colon + (toleratedPhrase.map { $0 + semicolon } ?? "")
                    + w("result.violatedNotFailing", ["count": n(untolerated), "failing":
                        report.failOn == .never ? w("failing.never") : "\(failingPhrase(0)) \(failOn)"])
            case .incomplete:
                let paths = incompleteInputList.map { TerminalText.escaped($0.path) }.joined(separator: ", ")
                let status = report.inputs.lazy.compactMap(\.errorStatus).first.map(exit) ?? ""
                detail = status + colon + w("result.incomplete", ["paths": paths]) + semicolon
                    + (violated == 0 ? w("result.noneInRead")
                       : w("result.violatedInRead", ["count": n(violated), "failing":
                            failingPhrase(failing) + (report.failOn == .never ? "" : " \(failOn)")]) + toleratedNote)
            }
            let unevaluated = unevaluatedSummary().map { semicolon + $0 } ?? ""
            let empty = NotEvaluatedText.emptyEntities(report).map { w("result.noRecords", ["path": TerminalText.escaped($0.path)]) }
            let emptyNote = empty.isEmpty ? "" : colon + empty.joined(separator: ", ")
            return w("result.line", ["verdict": verdictWord, "detail": detail + unevaluated + emptyNote])
        }

        /// ``NotEvaluatedText/summary(_:)`` in the wording's words: `2 rules not evaluated`.
        func unevaluatedSummary() -> String? {
            let count = NotEvaluatedText.rules(report).count
            guard count > 0 else { return nil }
            if count == report.rules.count { return w("result.allUnevaluated", ["count": n(count)]) }
            return w("head.unevaluated", ["count": n(count)])
        }
    }
}
