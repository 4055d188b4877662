import Auditor

extension TextReporter.Renderer {
    /// `Baseline out/baseline.json: 5 new, 18 existing, 6 resolved findings; --fail-on-new: only
    /// rules with new findings fail the run`, then what the totals cannot show (rules of the
    /// baseline that are gone, resolved counts that an incomplete read inflates). Empty
    /// without a baseline.
    func baselineHeader() -> [String] {
        guard let info = report.baseline else { return [] }
        let totals = BaselineText.totals(info, w) { style.apply(.red, $0) }
        var first = w("baseline.header", ["source": TerminalText.escaped(info.source), "totals": totals])
        if report.gatesOnNew { first += w("punctuation.semicolon") + w("baseline.gate") }
        var lines = [first]
        if let missing = BaselineText.missingRules(info, w) { lines.append("  " + TerminalText.escaped(missing)) }
        if !report.complete {
            lines.append("  " + w("baseline.incomplete"))
        }
        return lines
    }

    /// `History run 12: 1 rule jumped well above its recent median: person.name.length (12, …)`.
    /// Empty when no rule has a trend.
    func historyHeader() -> [String] {
        guard report.historyRun != nil || report.rules.contains(where: { $0.trend != nil }) else { return [] }
        let name = report.historyRun.map { w("history.run", ["run": String($0)]) } ?? w("history.name")
        let jumped = report.jumpedRules
        guard !jumped.isEmpty else { return [w("history.noJump", ["name": name])] }
        let list = jumped.map { "\(style.ruleID(TerminalText.escaped($0.id))) (\(BaselineText.jump($0, w)))" }
        return [w("history.jumped", ["name": name, "count": n(jumped.count), "jumped": style.apply(.yellow, w("history.jumpedWord")),
                                     "list": list.joined(separator: ", ")])]
    }

    /// Under a violated rule's row:
    /// `    baseline: 5 new, 7 existing, 1 resolved` and
    /// `    trend: ▅▄▅▅▆▅▄█ 5 → 12 over 8 runs, recent median 5; JUMPED`.
    func baselineAndTrend(of rule: RuleOutcome) -> [String] {
        var lines: [String] = []
        if let b = rule.baseline {
            var line = "    " + w("rule.baseline", ["counts": BaselineText.counts(b, w) { style.apply(.red, $0) }])
            if report.existingOnlyRules.contains(where: { $0.id == rule.id }) {
                line += w("punctuation.semicolon") + w("rule.existingOnly")
            }
            lines.append(line)
        }
        if let trend = rule.trend, trend.counts.count >= 2 {
            lines.append("    " + w("rule.trend", ["trend": trendSummary(trend)])
                         + (trend.jumped ? w("punctuation.semicolon") + style.apply(.yellow, w("history.JUMPED")) : ""))
        }
        return lines
    }

    /// `  resolved: person.id.unique (3)`: passing rules that had findings in the baseline.
    func resolvedSummary(_ passing: [RuleOutcome]) -> String? {
        let fixed = passing.filter { ($0.baseline?.resolved ?? 0) > 0 }
        guard !fixed.isEmpty else { return nil }
        return "  " + w("baseline.resolved", ["list": fixed.map {
            "\(style.ruleID(TerminalText.escaped($0.id))) (" + w("baseline.findings", ["count": n($0.baseline?.resolved ?? 0)]) + ")"
        }.joined(separator: ", ")])
    }

    /// `▅▄▅▅▆▅▄█ 5 → 12 over 8 runs, recent median 5` (``Sparkline/summary(_:unicode:)``) in the
    /// report's words.
    func trendSummary(_ trend: RuleTrend) -> String {
        let counts = trend.counts.suffix(Sparkline.maxRuns)
        var range = ""
        if let first = counts.first, let last = counts.last { range = " \(n(first)) \(unicode ? "→" : "->") \(n(last))" }
        return w("history.trend", ["spark": Sparkline.text(trend.counts, unicode: unicode), "range": range, "runs": n(counts.count),
                                   "median": trend.median.map { w.number(Sparkline.medianText($0)) } ?? "none"])
    }
}
