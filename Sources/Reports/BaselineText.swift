import Auditor

/// What the reports say about a baseline (`--baseline`, `--fail-on-new`) and a history's trends.
extension AuditReport {
    /// `--fail-on-new` is in force: a baseline was compared with, and only rules with new
    /// findings fail the run (``AuditReport/failingRules``).
    var gatesOnNew: Bool { failOnNew && baseline != nil }

    /// Rules violated beyond their threshold at a failing severity that do not fail the run
    /// because every finding is in the baseline; empty unless ``gatesOnNew``.
    var existingOnlyRules: [RuleOutcome] {
        guard gatesOnNew else { return [] }
        return rules.filter { $0.status == .violated && failOn.fails($0.severity) && ($0.baseline?.new ?? $0.violations) == 0 }
    }

    /// Rules whose violation count jumped well above their recent median (``RuleTrend/jumped``).
    var jumpedRules: [RuleOutcome] { rules.filter { $0.trend?.jumped == true } }
}

/// Baseline and trend wording shared by the reporters (plain text: callers escape it).
enum BaselineText {
    /// `5 new, 7 existing, 1 resolved`.
    /// - Parameters:
    ///   - w: The words (the text and Markdown reports pass their catalog's).
    ///   - highlight: Styles the `5 new` part (the text report colours it).
    static func counts(_ b: RuleBaseline, _ w: ReportWording = .english, highlight: (String) -> String = { $0 }) -> String {
        let n = { (value: Int) in w.number(NumberText.grouped(value)) }
        let new = w("baseline.new", ["count": n(b.new)])
        return w("baseline.counts", ["new": b.new > 0 ? highlight(new) : new, "existing": n(b.existing), "resolved": n(b.resolved)])
    }

    /// `5 new, 18 existing, 6 resolved findings` (always the plural: three counts share it).
    static func totals(_ info: BaselineInfo, _ w: ReportWording = .english, highlight: (String) -> String = { $0 }) -> String {
        w("baseline.totals", ["counts": counts(RuleBaseline(new: info.newFindings, existing: info.existingFindings,
                                                            resolved: info.resolvedFindings), w, highlight: highlight)])
    }

    /// `1 rule of the baseline is not in this run: a.b (its findings are not counted as resolved)`,
    /// or nil when every rule of the baseline is still there.
    static func missingRules(_ info: BaselineInfo, _ w: ReportWording = .english) -> String? {
        let n = info.missingRules.count
        guard n > 0 else { return nil }
        return w("baseline.missing", ["count": w.number(NumberText.grouped(n)), "rules": info.missingRules.joined(separator: ", ")])
    }

    /// `12 violations, recent median 5`.
    static func jump(_ rule: RuleOutcome, _ w: ReportWording = .english) -> String {
        w("history.jump", ["count": w.number(NumberText.grouped(rule.violations)),
                           "median": w.number(rule.trend?.median.map(Sparkline.medianText) ?? "0")])
    }

    /// The reason a run gated with `--fail-on-new` gives for its existing-only rules:
    /// `1 rule violated at severity error has only findings of the baseline (--fail-on-new)`.
    static func existingOnly(_ count: Int, _ severities: String) -> String {
        "\(Plural.count(count, "rule")) violated \(severities) \(count == 1 ? "has" : "have") only findings of the "
            + "baseline (--fail-on-new)"
    }
}
