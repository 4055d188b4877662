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

    /// Creates a text reporter.
    /// - Parameters:
    ///   - color: Emit ANSI colour; `false` gives plain text with no escape byte.
    ///   - verbose: List passing rules and more detail.
    ///   - unicode: Draw trends with Unicode symbols; `false` keeps to ASCII.
    public init(color: Bool = false, verbose: Bool = false, unicode: Bool = false) {
        self.color = color
        self.verbose = verbose
        self.unicode = unicode
    }

    /// Renders the whole report as text lines ending with a newline.
    public func render(_ report: AuditReport) -> String {
        let renderer = Renderer(report: report, style: ANSIStyle(enabled: color), verbose: verbose, unicode: unicode)
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
        /// The first rule with each id.
        let rulesByID: [String: RuleOutcome]
        /// Input path by source name (the first input of a source).
        let pathBySource: [String: String]

        init(report: AuditReport, style: ANSIStyle, verbose: Bool, unicode: Bool = false) {
            self.report = report
            self.style = style
            self.verbose = verbose
            self.unicode = unicode
            var rules: [String: RuleOutcome] = [:]
            for rule in report.rules where rules[rule.id] == nil { rules[rule.id] = rule }
            rulesByID = rules
            var paths: [String: String] = [:]
            for input in report.inputs where paths[input.source] == nil && !input.isPrevious { paths[input.source] = input.path }
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
            case .passed: return style.outcome(.passed, "passed")
            case .failed: return style.outcome(.failed, "FAILED")
            case .incomplete: return style.outcome(.incomplete, "INCOMPLETE")
            }
        }

        /// The severities that fail the run: `at severity error`; empty for `--fail-on never`.
        var failingSeverities: String {
            switch report.failOn {
            case .error: return "at severity error"
            case .warning: return "at severity warning or error"
            case .never: return ""
            }
        }

        /// How many violated rules fail the run, in words: `3 at severity error`, `none at …`;
        /// `1 with new findings at severity error` under `--fail-on-new`.
        func failingPhrase(_ count: Int) -> String {
            if report.failOn == .never { return "none fail with --fail-on never" }
            return (count == 0 ? "none" : NumberText.grouped(count)) + (report.gatesOnNew ? " with new findings " : " ")
                + failingSeverities
        }

        /// `auditor 0.1.0: rules/people.yml: FAILED, 5 of 25 rules violated (4 at severity error), …`.
        func headline() -> String {
            var parts = ["\(verdictWord)"]
            let incomplete = incompleteInputList.count
            if incomplete > 0 {
                parts.append("\(NumberText.grouped(incomplete)) of "
                             + "\(Plural.count(report.inputs.count, "input")) not read completely")
            }
            let totals = recordTotals
            let violated = report.violatedRules.count
            let unevaluated = NotEvaluatedText.rules(report).count
            if violated == 0 {
                parts.append(Plural.count(report.rules.count, "rule")
                             + (unevaluated > 0 ? " (\(NumberText.grouped(unevaluated)) not evaluated)" : ""))
                parts.append(Plural.count(totals.records, "record") + (incomplete > 0 ? " read" : ""))
                parts.append("no findings")
            } else {
                let tolerated = report.toleratedRules.count
            parts.append("\(NumberText.grouped(violated)) of \(Plural.count(report.rules.count, "rule")) "
                         + "violated (\(failingPhrase(report.failingRules.count))"
                         + (tolerated > 0 ? ", \(NumberText.grouped(tolerated)) tolerated)" : ")"))
                parts.append("\(NumberText.grouped(totals.withFindings)) of "
                             + "\(Plural.count(totals.records, "record")) with findings")
                if unevaluated > 0 { parts.append("\(Plural.count(unevaluated, "rule")) not evaluated") }
            }
            let prefix = "auditor \(TerminalText.escaped(report.toolVersion)): "
                + "\(TerminalText.escaped(report.rulesFile)): "
            return prefix + parts.joined(separator: ", ")
        }

        /// One diagnostic per input that stopped early: `orders.xml: error: INCOMPLETE: …`.
        func incompleteInputs() -> [String] {
            incompleteInputList.map { input in
                let reason = input.error.map(TerminalText.escaped) ?? "the reader gave no reason"
                return "\(TerminalText.escaped(input.path)): \(style.severity(.error, "error")): "
                    + "\(style.outcome(.incomplete, "INCOMPLETE")): reading stopped after "
                    + "\(Plural.count(input.records, "record")), findings cover only those: \(reason)"
            }
        }

        /// `Run: started 2026-11-20T02:00:00.000Z, took 1.42 s, at most 5 samples per rule, --fail-on error`.
        func runLine() -> String {
            "Run: started \(NumberText.iso8601(report.startedAt)), took \(NumberText.seconds(report.durationSeconds)), "
                + "at most \(Plural.count(report.maxSamples, "sample")) per rule, --fail-on \(report.failOn.rawValue)"
        }

        /// `2 rules tolerated within their thresholds`, or nil when none is.
        var toleratedPhrase: String? {
            let n = report.toleratedRules.count
            guard n > 0 else { return nil }
            return Plural.count(n, "rule") + " tolerated within " + (n == 1 ? "its threshold" : "their thresholds")
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
            let toleratedNote = toleratedPhrase.map { "; " + $0 } ?? ""
            let existingOnly = report.existingOnlyRules.count
            let detail: String
            switch report.outcome {
            case .failed:
                let existingNote = existingOnly == 0 ? ""
                    : "; \(Plural.count(existingOnly, "more rule")) violated \(failingSeverities) "
                        + "\(existingOnly == 1 ? "has" : "have") only findings of the baseline"
                detail = " (exit \(ExitStatus.ruleFailures.rawValue)): \(Plural.count(failing, "rule")) "
                    + (report.gatesOnNew ? "with new findings " : "")
                    + "violated \(failingSeverities) \(failOn)" + existingNote + toleratedNote
            case .passed where existingOnly > 0:
                detail = " (exit \(ExitStatus.passed.rawValue)): no new findings \(failingSeverities) \(failOn); "
                    + "\(Plural.count(existingOnly, "rule")) violated \(failingSeverities) "
                    + "\(existingOnly == 1 ? "has" : "have") only findings of the baseline" + toleratedNote
            case .passed where violated == 0:
                detail = " (exit \(ExitStatus.passed.rawValue)): no rule violated"
            case .passed where untolerated == 0:
                detail = " (exit \(ExitStatus.passed.rawValue)): " + (toleratedPhrase ?? "")
            case .passed:
                detail = " (exit \(ExitStatus.passed.rawValue)): " + (toleratedPhrase.map { $0 + "; " } ?? "")
                    + "\(Plural.count(untolerated, "rule")) violated, "
                    + (report.failOn == .never ? "none fail with --fail-on never" : "\(failingPhrase(0)) \(failOn)")
            case .incomplete:
                let paths = incompleteInputList.map { TerminalText.escaped($0.path) }.joined(separator: ", ")
                let exit = report.inputs.lazy.compactMap(\.errorStatus).first.map { " (exit \($0.rawValue))" } ?? ""
                detail = "\(exit): \(paths) not read completely, so this audit cannot pass; "
                    + (violated == 0 ? "no rule violated in the records read"
                       : "\(Plural.count(violated, "rule")) violated in the records read, "
                         + failingPhrase(failing) + (report.failOn == .never ? "" : " \(failOn)") + toleratedNote)
            }
            let unevaluated = NotEvaluatedText.summary(report).map { "; " + $0 } ?? ""
            let empty = NotEvaluatedText.emptyEntities(report).map { "\(TerminalText.escaped($0.path)) has no records" }
            let emptyNote = empty.isEmpty ? "" : ": " + empty.joined(separator: ", ")
            return "Result: \(verdictWord)\(detail)\(unevaluated)\(emptyNote)"
        }
    }
}
