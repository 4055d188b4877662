import Auditor

extension MarkdownReporter {
    /// `Baseline \`out/baseline.json\`: 5 new, …` and `History run 12: …` paragraphs, or nothing.
    static func baselineLines(_ report: AuditReport) -> String {
        let md = GitHubText.markdown
        var out = ""
        if let info = report.baseline {
            out += "Baseline \(md(info.source)): " + BaselineText.totals(info)
                + (report.gatesOnNew ? "; --fail-on-new: only rules with new findings fail the run" : "") + ".\n"
            if let missing = BaselineText.missingRules(info) { out += "\n" + md(missing) + ".\n" }
            out += "\n"
        }
        if report.historyRun != nil || report.rules.contains(where: { $0.trend != nil }) {
            let name = report.historyRun.map { "History run \($0)" } ?? "History"
            let jumped = report.jumpedRules
            out += jumped.isEmpty ? "\(name): no rule jumped above its recent median.\n\n"
                : "\(name): **\(Plural.count(jumped.count, "rule")) jumped** well above "
                    + "\(jumped.count == 1 ? "its" : "their") recent median: "
                    + jumped.map { "\(md($0.id)) (\(BaselineText.jump($0)))" }.joined(separator: ", ") + ".\n\n"
        }
        return out
    }

    /// `▅▄▅▅▅▅▄█ 5 → 12 **jumped**`: a rule's trend for a table cell; empty without one.
    static func trendCell(_ rule: RuleOutcome) -> String {
        guard let trend = rule.trend, trend.counts.count >= 2 else { return "" }
        let counts = trend.counts.suffix(Sparkline.maxRuns)
        return Sparkline.text(trend.counts, unicode: true)
            + " \(NumberText.grouped(counts.first ?? 0)) → \(NumberText.grouped(counts.last ?? 0))"
            + (trend.jumped ? " **jumped**" : "")
    }
}
