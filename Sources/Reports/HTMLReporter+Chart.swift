import Auditor

extension HTMLReporter.Page {
    /// The most bars drawn; the rest are counted under the chart.
    static let maxBars = 30

    /// An inline SVG bar chart of violations per violated rule, most violations first; each
    /// bar links to the rule's samples, is coloured by status and carries a `<title>` tooltip,
    /// and a rule with `maxFailures` gets a tick at its limit.
    func chartSection() -> String {
        var out = "<section id=\"chart\">\n<h2>\(t("html.chart.title"))</h2>\n"
        let violated = report.rules.enumerated().filter { $0.element.violations > 0 }
            .sorted { $0.element.violations != $1.element.violations ? $0.element.violations > $1.element.violations
                                                                       : $0.offset < $1.offset }
        guard !violated.isEmpty else { return out + "<p>\(t("html.chart.none"))</p>\n</section>\n" }
        var groupOf: [Int: Int] = [:]
        for (g, group) in groups().enumerated() { for i in group.rules where groupOf[i] == nil { groupOf[i] = g } }
        let shown = violated.prefix(Self.maxBars)
        let label = 320, bar = 420, row = 22, top = 6
        let width = label + bar + 150
        let height = top * 2 + row * shown.count
        let scale = shown.reduce(1) { max($0, $1.element.violations, $1.element.threshold.maxFailures ?? 0) }
        out += "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-labelledby=\"chart-title\" "
            + "viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">"
            + "<title id=\"chart-title\">\(t("html.chart.svgTitle"))</title>\n"
        out += "<line class=\"axis\" x1=\"\(label)\" y1=\"0\" x2=\"\(label)\" y2=\"\(height)\"/>\n"
        for (n, item) in shown.enumerated() {
            let (i, rule) = item
            let y = top + n * row
            let w = max(2, Int((Double(rule.violations) / Double(scale) * Double(bar)).rounded()))
            var name = TerminalText.escaped(rule.id)
            if name.count > 40 { name = String(name.prefix(39)) + "…" }
            let s = status(rule)
            let count = self.w("rule.count", ["violations": self.w("entity.violations", ["count": self.n(rule.violations)]), "evaluated": self.n(rule.evaluated)])
            let tip = HTMLText.escaped("\(rule.id): \(count), ") + word(s)
            let max: String = rule.threshold.maxFailures.map { " · " + t("html.chart.max", ["max": self.n($0)]) } ?? ""
            let violations: String = "\(self.n(rule.violations)) (\(percent(rule.violations, of: rule.evaluated)))" + max
            let link = groupOf[i].map { "#\(anchor($0, i))" } ?? "#rules"
            out += "<a href=\"\(link)\"><title>\(tip)</title>"
                + "<text x=\"\(label - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(HTMLText.escaped(name))</text>"
                + "<rect class=\"bar-\(s == "passed" || s == "not-evaluated" ? "violated" : s)\" x=\"\(label)\" y=\"\(y + 3)\" "
                + "width=\"\(w)\" height=\"\(row - 6)\" rx=\"2\"/>"
                + "<text class=\"count\" x=\"\(label + w + 6)\" y=\"\(y + 15)\">\(violations)</text></a>"
            if let limit = rule.threshold.maxFailures {
                let x = label + Int((Double(limit) / Double(scale) * Double(bar)).rounded())
                out += "<line class=\"limit\" x1=\"\(x)\" y1=\"\(y + 1)\" x2=\"\(x)\" y2=\"\(y + row - 1)\">"
                    + "<title>\(t("html.chart.threshold", markup: ["threshold": HTMLText.escaped(rule.threshold.description)]))</title></line>"
            }
            out += "\n"
        }
        out += "</svg>\n<p class=\"chart-legend\"><span class=\"st-failed\">■ \(word("failed"))</span>"
            + (report.gatesOnNew ? "<span class=\"st-existing\">■ \(t("html.chart.legend.existing"))</span>" : "")
            + "<span class=\"st-violated\">■ \(t("html.chart.legend.violated"))</span><span class=\"st-tolerated\">■ \(word("tolerated"))</span>"
            + "<span>│ \(t("html.chart.legend.threshold"))</span></p>\n"
        if violated.count > shown.count {
            out += "<p class=\"more\">\(t("html.chart.more", ["count": self.n(violated.count - shown.count)]))</p>\n"
        }
        return out + "</section>\n"
    }
}
