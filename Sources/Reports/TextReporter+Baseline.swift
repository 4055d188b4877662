import Auditor

extension TextReporter.Renderer {
    /// `Baseline out/baseline.json: 5 new, 18 existing, 6 resolved findings; --fail-on-new: only
    /// rules with new findings fail the run`, then what the totals cannot show (rules of the
    /// baseline that are gone, resolved counts that an incomplete read inflates). Empty
    /// without a baseline.
    func baselineHeader() -> [String] {
        guard let info = report.baseline else { return [] }
        var totals = BaselineText.totals(info)
        if info.newFindings > 0 {
            let new = "\(NumberText.grouped(info.newFindings)) new"
            totals = style.apply(.red, new) + totals.dropFirst(new.count)
        }
        var first = "Baseline \(TerminalText.escaped(info.source)): \(totals)"
        if report.gatesOnNew { first += "; --fail-on-new: only rules with new findings fail the run" }
        var lines = [first]
        if let missing = BaselineText.missingRules(info) { lines.append("  " + TerminalText.escaped(missing)) }
        if !report.complete {
            lines.append("  an input was not read completely: findings of the records not read count as resolved")
        }
        return lines
    }

    /// `History run 12: 1 rule jumped well above its recent median: person.name.length (12, …)`.
    /// Empty when no rule has a trend.
    func historyHeader() -> [String] {
        guard report.historyRun != nil || report.rules.contains(where: { $0.trend != nil }) else { return [] }
        let name = report.historyRun.map { "History run \($0)" } ?? "History"
        let jumped = report.jumpedRules
        guard !jumped.isEmpty else { return ["\(name): no rule jumped above its recent median"] }
        let list = jumped.map { "\(style.ruleID(TerminalText.escaped($0.id))) (\(BaselineText.jump($0)))" }
        return ["\(name): \(Plural.count(jumped.count, "rule")) \(style.apply(.yellow, "jumped")) well above "
                + "\(jumped.count == 1 ? "its" : "their") recent median: " + list.joined(separator: ", ")]
    }

    /// Under a violated rule's row:
    /// `    baseline: 5 new, 7 existing, 1 resolved` and
    /// `    trend: ▅▄▅▅▆▅▄█ 5 → 12 over 8 runs, recent median 5; JUMPED`.
    func baselineAndTrend(of rule: RuleOutcome) -> [String] {
        var lines: [String] = []
        if let b = rule.baseline {
            var line = "    baseline: " + BaselineText.counts(b)
            if b.new > 0 {
                let new = "\(NumberText.grouped(b.new)) new"
                line = "    baseline: " + style.apply(.red, new) + BaselineText.counts(b).dropFirst(new.count)
            }
            if report.existingOnlyRules.contains(where: { $0.id == rule.id }) {
                line += "; only findings of the baseline, so it does not fail the run (--fail-on-new)"
            }
            lines.append(line)
        }
        if let trend = rule.trend, trend.counts.count >= 2 {
            lines.append("    trend: " + Sparkline.summary(trend, unicode: unicode)
                         + (trend.jumped ? "; " + style.apply(.yellow, "JUMPED") : ""))
        }
        return lines
    }

    /// `  resolved: person.id.unique (3)`: passing rules that had findings in the baseline.
    func resolvedSummary(_ passing: [RuleOutcome]) -> String? {
        let fixed = passing.filter { ($0.baseline?.resolved ?? 0) > 0 }
        guard !fixed.isEmpty else { return nil }
        return "  resolved since the baseline: " + fixed.map {
            "\(style.ruleID(TerminalText.escaped($0.id))) (\(Plural.count($0.baseline?.resolved ?? 0, "finding")))"
        }.joined(separator: ", ")
    }
}
