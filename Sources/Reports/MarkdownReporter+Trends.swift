import Auditor

extension MarkdownReporter {
    /// `Baseline \`out/baseline.json\`: 5 new, …` and `History run 12: …` paragraphs, or nothing.
    static func baselineLines(_ report: AuditReport, _ w: ReportWording = .english) -> String {
        let md = GitHubText.markdown
        var out = ""
        if let info = report.baseline {
            out += w("baseline.header", ["source": md(info.source), "totals": BaselineText.totals(info, w)])
                + (report.gatesOnNew ? w("punctuation.semicolon") + w("baseline.gate") : "") + ".\n"
            if let missing = BaselineText.missingRules(info, w) { out += "\n" + md(missing) + ".\n" }
            out += "\n"
        }
        if report.historyRun != nil || report.rules.contains(where: { $0.trend != nil }) {
            let name = report.historyRun.map { w("history.run", ["run": String($0)]) } ?? w("history.name")
            let jumped = report.jumpedRules
            out += jumped.isEmpty ? w("history.noJump", ["name": name]) + ".\n\n"
                : w("md.history.jumped", ["name": name, "count": w.number(NumberText.grouped(jumped.count)),
                                          "list": jumped.map { "\(md($0.id)) (\(BaselineText.jump($0, w)))" }.joined(separator: ", ")])
                    + ".\n\n"
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
