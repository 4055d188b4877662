import Auditor

extension HTMLReporter.Page {
    /// `Most frequent failing values: 'N/A' × 1,204 · '' × 310 · missing × 12 (exact counts)`,
    /// or nothing when the rule has none.
    ///
    /// Counts come from a bounded summary (``FrequentValues``): a count with an error is shown
    /// as `≈ 1,210 (1,190 to 1,210)`, and the line says how exact the counts are.
    func frequentValues(_ rule: RuleOutcome) -> String {
        let values = rule.frequentValues
        guard !values.isEmpty, rule.violations > 1 else { return "" }
        let items = values.map { v -> String in
            let shown = v.value.map { "<span class=\"mono\">'\(HTMLText.escaped($0))'</span>" } ?? "<span class=\"note\">\(t("md.missing"))</span>"
            let count = v.isExact ? n(v.count) : t("html.values.bound", ["count": n(v.count), "low": n(v.count - v.error)])
            return "<li>\(shown) × \(count)</li>"
        }
        let listed = values.reduce(0) { $0 + $1.count }
        let exact = values.allSatisfy(\.isExact)
        var note = exact ? t("html.values.exact") : t("html.values.bounds")
        if exact, listed < rule.violations {
            note += t("html.values.other", ["count": n(rule.violations - listed)])
        }
        return "<div class=\"values\"><span class=\"note\">\(t("html.values.title", markup: ["note": note]))</span>"
            + "<ul class=\"values\">\(items.joined())</ul></div>\n"
    }
}
