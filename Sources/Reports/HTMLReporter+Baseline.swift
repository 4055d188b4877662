import Auditor

extension HTMLReporter.Page {
    /// Under the summary cards: what the run was compared with, and which rules jumped.
    func baselineNotes() -> String {
        var out = ""
        if let info = report.baseline {
            var text = "Compared with the baseline <span class=\"mono\">\(HTMLText.escaped(info.source))</span>: "
                + HTMLText.escaped(BaselineText.totals(info)) + "."
            if report.gatesOnNew { text += " --fail-on-new: only rules with new findings fail the run." }
            if let missing = BaselineText.missingRules(info) { text += " " + HTMLText.escaped(missing) + "." }
            if !report.complete {
                text += " An input was not read completely: findings of the records not read count as resolved."
            }
            out += "<p class=\"note\">\(text)</p>\n"
        }
        if hasTrends {
            let name = report.historyRun.map { "History run \($0)" } ?? "History"
            let jumped = report.jumpedRules
            if jumped.isEmpty {
                out += "<p class=\"note\">\(name): no rule jumped above its recent median.</p>\n"
            } else {
                out += "<p class=\"note\">\(name): \(Plural.count(jumped.count, "rule")) jumped well above "
                    + "\(jumped.count == 1 ? "its" : "their") recent median: "
                    + jumped.map { "<code>\(HTMLText.escaped($0.id))</code> (\(HTMLText.escaped(BaselineText.jump($0))))" }
                        .joined(separator: ", ") + ".</p>\n"
            }
        }
        return out
    }

    /// The New, Existing and Resolved cells of a rules-table row; none without a baseline.
    func baselineCells(_ rule: RuleOutcome) -> String {
        guard report.baseline != nil else { return "" }
        guard let b = rule.baseline else { return "<td></td><td></td><td></td>" }
        return "<td class=\"n\(b.new > 0 ? " fresh" : "")\">\(NumberText.grouped(b.new))</td>"
            + "<td class=\"n\">\(NumberText.grouped(b.existing))</td><td class=\"n\">\(NumberText.grouped(b.resolved))</td>"
    }

    /// The Trend cell of a rules-table row (a sparkline and the jump badge); none without trends.
    func trendCell(_ rule: RuleOutcome) -> String {
        guard hasTrends else { return "" }
        guard let trend = rule.trend, trend.counts.count >= 2 else { return "<td></td>" }
        return "<td class=\"trend\">\(sparkline(trend))\(trend.jumped ? " " + jumpedBadge(rule) : "")</td>"
    }

    /// `jumped`, with the count and the median in its tooltip.
    func jumpedBadge(_ rule: RuleOutcome) -> String {
        "<span class=\"badge jumped\" title=\"\(HTMLText.escaped(BaselineText.jump(rule)))\">jumped</span>"
    }

    /// `new` or `existing` for a finding compared with a baseline; empty otherwise.
    func newBadge(_ finding: Finding) -> String {
        switch finding.isNew {
        case true?: return "<span class=\"badge new\">new</span>"
        case false?: return "<span class=\"badge existing\">existing</span>"
        case nil: return ""
        }
    }

    /// An inline SVG sparkline: one bar per run (the last ``Sparkline/maxRuns``), oldest
    /// first, on a scale from zero to the largest count; this run's bar is dark (red when it
    /// jumped), a zero is a thin grey line, and a dashed line marks the recent median. The
    /// `<title>` lists every count. Only numbers reach the markup.
    func sparkline(_ trend: RuleTrend) -> String {
        let counts = Array(trend.counts.suffix(Sparkline.maxRuns))
        let bar = 5, gap = 2, height = 20, usable = 18
        let width = counts.count * (bar + gap) - gap
        let top = max(1, counts.max() ?? 0)
        let listed = counts.map { NumberText.grouped($0) }.joined(separator: ", ")
        var title = "Violations over the last \(Plural.count(counts.count, "run")), oldest first: \(listed) (this run)"
        if let median = trend.median { title += "; recent median \(Sparkline.medianText(median))" }
        if trend.jumped { title += "; jumped" }
        var out = "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 \(width) \(height)\" "
            + "width=\"\(width)\" height=\"\(height)\"><title>\(title)</title>"
        for (i, count) in counts.enumerated() {
            let h = count <= 0 ? 1 : max(2, Int((Double(count) / Double(top) * Double(usable)).rounded()))
            var cls = count <= 0 ? "zero" : "run"
            if i == counts.count - 1 { cls += trend.jumped ? " now jumped" : " now" }
            out += "<rect class=\"\(cls)\" x=\"\(i * (bar + gap))\" y=\"\(height - h)\" width=\"\(bar)\" height=\"\(h)\"/>"
        }
        if let median = trend.median {
            let y = height - Int((median / Double(top) * Double(usable)).rounded())
            out += "<line class=\"median\" x1=\"0\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\"/>"
        }
        return out + "</svg>"
    }
}
